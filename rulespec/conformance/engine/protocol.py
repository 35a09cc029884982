"""The engine protocol: JSON-RPC 2.0 messages, one JSON object (or batch array) per line.

The kit is the client; the engine under test is the server. Every message has a JSON Schema in
``conformance/schema/`` (``rulespec.data.conformance``); ``docs/implementers/engine-protocol.md`` explains them with an example
session. Probabilities travel as exact fraction strings (``"1/6"``), never as floats.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, Literal

from rulespec.data import kit_dir
from rulespec.exitcodes import EXIT_ENGINE
from rulespec.reference.core import CHANCE, Action, Actor, ConfigError, Engine, Rejection
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

PROTOCOL = "rulespec-engine/1"
SCHEMA_DIR = kit_dir() / "schema"

#: The methods an engine answers, in the order a session uses them.
METHODS = ("hello", "start", "legal_actions", "state", "apply", "shutdown")

# JSON-RPC 2.0 error codes (the spec's reserved ones, then ours, outside the reserved range).
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
#: The action is not legal now; ``data`` holds ``reason`` and ``clauses``; the state is unchanged.
ILLEGAL_ACTION = 1
#: The configuration cannot be played (unknown ruling, bad player count, unsupported game).
BAD_CONFIG = 2
#: A method was called before ``start`` (no game in progress).
NO_GAME = 3


class EngineFailure(RulespecError):
    """The engine under test broke the protocol: crashed, hung, garbled or mis-answered."""

    kind: str = "protocol"
    exit_code = EXIT_ENGINE


class EngineCrashed(EngineFailure):
    """The engine process exited or closed its output."""

    kind = "crash"


class EngineTimeout(EngineFailure):
    """The engine did not answer within the per-call timeout."""

    kind = "timeout"


class ProtocolViolation(EngineFailure):
    """The engine answered, but not with a valid response (garbage, wrong id, huge line...)."""

    kind = "protocol"


class EngineError(RulespecError):
    """The engine answered a request with a JSON-RPC error other than an illegal action."""

    def __init__(self, method: str, code: int, message: str, data: Any = None) -> None:
        self.method = method
        self.code = code
        self.message = message
        self.data = data
        super().__init__(f"{method}: engine error {code}: {message}")


class ConfigRefused(ConfigError):
    """The engine refused a configuration in ``start`` (error 2); ``engine_says`` is its reason."""

    def __init__(self, engine_says: str) -> None:
        self.engine_says = engine_says
        super().__init__(f"the engine refuses the configuration: {engine_says}")


@dataclass(frozen=True)
class Legal:
    """Who is to move and what they may do: the answer to ``legal_actions``."""

    #: Who is to move: a seat, ``"chance"``, or None when the game is over.
    actor: Actor | None
    #: The legal actions (chance's outcomes when chance is to move).
    actions: list[Action]
    #: Exact probabilities, one per action, only when chance is to move.
    probabilities: list[Fraction] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the ``legal_actions`` result object."""
        out: dict[str, Any] = {"actor": self.actor, "actions": self.actions}
        if self.probabilities is not None:
            out["probabilities"] = fraction_texts(self.probabilities)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Legal:
        """Read a ``legal_actions`` result; ProtocolViolation says what is wrong."""
        if not isinstance(data, dict):
            raise ProtocolViolation(f"legal_actions result must be an object, not {data!r:.200}")
        actor = data.get("actor")
        if not (actor is None or actor == CHANCE
                or (isinstance(actor, int) and not isinstance(actor, bool) and actor >= 0)):
            raise ProtocolViolation(f"legal_actions: actor must be a player index, 'chance' or "
                                    f"null, not {actor!r:.100}")
        actions = data.get("actions")
        if not isinstance(actions, list) or not _all_actions(actions):
            raise ProtocolViolation("legal_actions: actions must be a list of objects with a "
                                    f"'kind', not {actions!r:.200}")
        probs = data.get("probabilities")
        fractions: list[Fraction] | None = None
        if probs is not None:
            if not isinstance(probs, list) or len(probs) != len(actions):
                raise ProtocolViolation("legal_actions: probabilities must be a list with one "
                                        "fraction string per action")
            try:  # every text read before (the usual case): no call per outcome
                fractions = [_FRACTIONS[p] for p in probs]
            except (KeyError, TypeError):
                fractions = [parse_fraction(p) for p in probs]
        return cls(actor, actions, fractions)


@dataclass(frozen=True)
class Hello:
    """What an engine says about itself: name, games, rulings and variants it supports."""

    #: The engine's name.
    name: str
    #: The engine's own version.
    version: str
    #: game id -> {"rulings": {ambiguity: [options]}, "variants": [ids]}
    games: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Optional parts of the protocol the engine supports (``batch``).
    capabilities: Sequence[str] = ()

    def supports(self, game: str, rulings: Mapping[str, str], variants: Sequence[str], *,
                 players: int | None = None,
                 parameters: Mapping[str, Any] | None = None) -> list[str]:
        """Return why this configuration is unsupported (empty when supported).

        An engine that declares no player counts plays every count of the spec; one that
        declares no parameters accepts no parameter override (the protocol's rule: a parameter
        not listed is not to be overridden).
        """
        if game not in self.games:
            return [f"the engine does not play {game!r} (it plays {', '.join(self.games)})"]
        info = self.games[game]
        declared = info.get("rulings", {})
        out = []
        for amb, opt in sorted(rulings.items()):
            if amb in declared and opt not in declared[amb]:
                out.append(f"ruling {amb}={opt} is not supported (supported: "
                           f"{', '.join(declared[amb])})")
        for v in variants:
            if v not in info.get("variants", []):
                out.append(f"variant {v!r} is not supported")
        counts = info.get("players")
        if players is not None and counts is not None and players not in counts:
            out.append(f"the engine plays {game} with {_counts(counts)} players, not {players}")
        out.extend(_parameter_problems(info.get("parameters"), parameters or {}))
        return out

    def level(self, game: str) -> str:
        """Return the conformance level the engine declares for ``game`` (``full`` by default)."""
        return str(self.games.get(game, {}).get("level", "full"))

    def to_json(self) -> dict[str, Any]:
        """Return the ``hello`` result object."""
        return {"protocol": PROTOCOL, "name": self.name, "version": self.version,
                "games": {g: dict(v) for g, v in self.games.items()},
                "capabilities": list(self.capabilities)}

    @classmethod
    def from_json(cls, data: Any) -> Hello:
        """Read a ``hello`` result, checked against its schema."""
        problems = schema_problems("hello.result", data)
        if problems:
            raise ProtocolViolation("hello: " + "; ".join(problems))
        if data["protocol"] != PROTOCOL:
            raise ProtocolViolation(f"hello: the engine speaks {data['protocol']!r}; the kit "
                                    f"speaks {PROTOCOL!r}")
        return cls(data["name"], data["version"], data["games"], data.get("capabilities", []))


def _counts(counts: Sequence[int]) -> str:
    ordered = sorted(counts)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 2:
        return f"{ordered[0]} to {ordered[-1]}"
    return ", ".join(map(str, ordered[:-1])) + (" or " if len(ordered) > 1 else "") + str(
        ordered[-1])


def _parameter_problems(declared: Mapping[str, Any] | None,
                        parameters: Mapping[str, Any]) -> list[str]:
    """Return why parameter overrides fall outside what the engine declares."""
    out = []
    for name, value in sorted(parameters.items()):
        info = None if declared is None else declared.get(name)
        if info is None:
            out.append(f"parameter {name} is not declared by the engine (its hello "
                       + ("declares no parameters)" if declared is None else
                          f"declares {', '.join(sorted(declared)) or 'none'})"))
        elif "values" in info and not any(_same_json(value, v) for v in info["values"]):
            out.append(f"parameter {name}={dumps(value)} is not among {dumps(info['values'])}, "
                       "the values its hello declares")
        elif _number(value) and not (
                info.get("minimum", value) <= value <= info.get("maximum", value)):
            out.append(f"parameter {name}={dumps(value)} is outside "
                       f"{info.get('minimum', '')}..{info.get('maximum', '')}, the range its "
                       "hello declares")
    return out


def declared_parameters(spec: Spec) -> dict[str, dict[str, Any]]:
    """Return every parameter of ``spec`` as a hello declares it: a number's range from the
    spec's schema, any value otherwise (what the reference, served, accepts)."""
    out: dict[str, dict[str, Any]] = {}
    for pid, param in spec.parameters.items():
        schema = param.get("schema") or {}
        out[pid] = {k: schema[k] for k in ("minimum", "maximum")
                    if schema.get("type") == "integer" and k in schema}
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _same_json(one: Any, two: Any) -> bool:
    """Return True when two JSON values are the same value (``true`` is not ``1``)."""
    return json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


def fraction_text(p: Fraction) -> str:
    """Return ``p`` as the protocol writes it: ``"1/6"`` or ``"1"``."""
    return str(p)


def fraction_texts(probabilities: Sequence[Fraction]) -> list[str]:
    """Return ``fraction_text`` of each probability (a run of the same object written once:
    engines give every outcome of a uniform draw the same fraction)."""
    out: list[str] = []
    last: Fraction | None = None
    text = ""
    for p in probabilities:
        if p is not last:
            last, text = p, str(p)
        out.append(text)
    return out


def same_fractions(one: Sequence[Fraction] | None, two: Sequence[Fraction] | None) -> bool:
    """Return ``one == two``, comparing a run of the same pair of objects once, and two
    fractions by their lowest terms (Fraction's own equality checks abstract types first, and
    a uniform draw repeats one fraction per outcome)."""
    if one is None or two is None:
        return one is two
    if len(one) != len(two):
        return False
    last_one: Fraction | None = None
    last_two: Fraction | None = None
    for a, b in zip(one, two, strict=True):
        if a is b or (a is last_one and b is last_two):  # an engine in this process may
            continue  # hand out the very fraction objects the reference holds
        if type(a) is Fraction and type(b) is Fraction:
            if a.numerator != b.numerator or a.denominator != b.denominator:
                return False
        elif a != b:
            return False
        last_one, last_two = a, b
    return True


def _all_actions(actions: list[Any]) -> bool:
    """Return True when every action is an object with a string ``kind``."""
    for a in actions:  # noqa: SIM110 - a loop: all() of a generator costs more per action
        if not (isinstance(a, dict) and isinstance(a.get("kind"), str)):
            return False
    return True


def parse_fraction(text: Any) -> Fraction:
    """Read an exact probability (``"1/6"``, ``"1"``, or an integer); floats are refused."""
    if type(text) is str:
        known = _FRACTIONS.get(text)
        if known is not None:
            return known
    if isinstance(text, int) and not isinstance(text, bool):
        return Fraction(text)
    if not isinstance(text, str):
        raise ProtocolViolation(f"probability must be a fraction string like '1/6', not "
                                f"{text!r:.60}; floats are not exact")
    num, _, den = text.partition("/")
    if not num.strip().lstrip("-").isdigit() or (den and not den.strip().isdigit()):
        raise ProtocolViolation(f"probability {text!r:.60} is not a fraction like '1/6'")
    if den and int(den) == 0:
        raise ProtocolViolation(f"probability {text!r:.60} divides by zero")
    value = Fraction(int(num), int(den) if den else 1)
    if len(_FRACTIONS) < 10_000:
        _FRACTIONS[text] = value
    return value


#: Fraction strings already read (engines repeat the same few probabilities).
_FRACTIONS: dict[str, Fraction] = {}


@cache
def message_schema(name: str) -> dict[str, Any]:
    """Return the JSON Schema of one protocol message (``apply.params``, ``hello.result``...)."""
    method, _, part = name.partition(".")
    path = SCHEMA_DIR / f"{method}.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    if not part:
        return dict(doc)
    sub = doc["$defs"][part]
    return {"$schema": doc["$schema"], **sub}


@cache
def _validator(name: str) -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(message_schema(name))


def schema_problems(name: str, value: Any) -> list[str]:
    """Return why ``value`` does not match the message schema ``name`` (empty when it does)."""
    out = []
    for err in _validator(name).iter_errors(value):
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        out.append(f"{where}: {err.message[:200]}")
    return out


def dumps(obj: Any) -> str:
    """Return one protocol line (compact JSON, no newline inside)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _fast_codec() -> tuple[Callable[[bytes], Any] | None, Callable[[Any], bytes] | None,
                           Callable[[bytes], list[dict[str, Any]]] | None]:
    """Return msgspec's JSON decoder, encoder and batch-of-raw-members decoder when installed
    (the optional ``fast`` extra) and not turned off with ``RULESPEC_PURE_JSON=1``; else Nones."""
    if os.environ.get("RULESPEC_PURE_JSON", "") not in ("", "0"):
        return None, None, None
    try:
        import msgspec.json
    except ImportError:
        return None, None, None
    raw_batch = msgspec.json.Decoder(list[dict[str, msgspec.Raw]]).decode
    return msgspec.json.decode, msgspec.json.encode, raw_batch


_FAST_DECODE, _FAST_ENCODE, _RAW_BATCH = _fast_codec()
#: True when protocol lines are read and written with msgspec (several times faster than the
#: standard library on long states); the standard library is the fallback and the reference.
FAST_JSON = _FAST_DECODE is not None


def loads(line: bytes | str) -> Any:
    """Parse one protocol line: what ``json.loads`` returns, and the same errors.

    With msgspec, a line it parses is taken as it parsed it (the same JSON value); anything it
    refuses (not JSON, NaN, numbers out of range, a lone surrogate, a byte-order mark...) is
    parsed again by ``json.loads``, which then accepts it or raises exactly as without msgspec.
    """
    if _FAST_DECODE is not None:
        try:
            return _FAST_DECODE(line.encode("utf-8", "surrogatepass") if isinstance(line, str)
                                else line)
        except Exception:  # json.loads below says what is wrong, as ever
            pass
    return json.loads(line)


def loads_known(line: bytes, known: Mapping[bytes, Any]) -> Any:
    """Parse a batch's answer line as ``loads`` does, except that a response whose ``result``
    is, byte for byte, a key of ``known`` gets that key's value without being parsed.

    The kit knows what a conformant engine answers (the reference's state, encoded as the
    reference's server writes it): such an answer is the same JSON value, so it is compared as
    bytes instead of being built again. Anything else (another line, another layout of the same
    value, no msgspec) is parsed as ever, so the result is the same value either way.
    """
    if _RAW_BATCH is None or _FAST_DECODE is None:
        return loads(line)
    try:
        batch = _RAW_BATCH(line)
        out = []
        for response in batch:
            member: dict[str, Any] = {}
            for name, raw in response.items():
                if name == "result":
                    value = known.get(bytes(raw), _UNKNOWN)
                    member[name] = _FAST_DECODE(raw) if value is _UNKNOWN else value
                else:
                    member[name] = _FAST_DECODE(raw)
            out.append(member)
        return out
    except Exception:  # not a batch of objects, or not msgspec's JSON: loads says what it is
        return loads(line)


_UNKNOWN = object()


def encode_known(value: Any) -> bytes | None:
    """Return ``value`` as the reference's server encodes it (``encode_line``), or None when
    msgspec is not in use or cannot write it (then ``loads_known`` never needs it).

    For the reference's states, which are JSON: a NaN, which JSON has no way to write, would be
    written as null here as the served reference writes it (``finite_json`` guards requests)."""
    if _FAST_ENCODE is None:
        return None
    try:
        return _FAST_ENCODE(value)
    except Exception:  # a value msgspec does not write: nothing is known
        return None


def finite_json(value: Any) -> bool:
    """Return True when ``value`` holds no NaN or infinite float (``encode_line`` would write
    null where ``dumps`` writes NaN): a probe's odd values are checked before msgspec writes
    them."""
    if type(value) is float:
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(finite_json(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return all(finite_json(v) for v in value)
    return not isinstance(value, float) or math.isfinite(value)


def encode_line(obj: Any) -> bytes:
    """Return one protocol line as UTF-8 bytes, without the newline (the server's answers).

    The same JSON value as ``dumps`` (compact; msgspec writes a float's exponent without its
    ``+``). Only for values built by an engine: JSON types, finite numbers.
    """
    if _FAST_ENCODE is not None:
        try:
            return _FAST_ENCODE(obj)
        except Exception:  # a value msgspec cannot write: the standard library's way
            pass
    return dumps(obj).encode("utf-8")


Status = Literal["accepted", "rejected"]


def legal_of(engine: Engine) -> Legal:
    """Return who moves in an engine of this process and its legal actions (the outcomes and
    their probabilities at chance nodes): the answer to ``legal_actions``."""
    actor = engine.current_player()
    if actor == CHANCE:
        return Legal(actor, *engine.chance_split())
    if actor is None:
        return Legal(None, [])
    return Legal(actor, engine.legal_actions())


def state_of(result: Any) -> dict[str, Any]:
    """Return the state of a ``state`` result (or of a batch's), checked for its shape."""
    if not isinstance(result, dict) or not isinstance(result.get("state"), dict):
        raise ProtocolViolation(f"state: result must be {{\"state\": {{...}}}}, not {result!r:.200}")
    state: dict[str, Any] = result["state"]
    return state


def observation_of(result: Any) -> Any:
    """Return the observation of an ``observation`` result, checked for its shape."""
    if not isinstance(result, dict) or not isinstance(result.get("observation"), dict):
        raise ProtocolViolation("observation: result must be {\"observation\": {...}}, not "
                                f"{result!r:.200}")
    return result["observation"]


def rejection_of(exc: EngineError) -> Rejection:
    """Return the Rejection an illegal-action error carries; any other error is raised."""
    if exc.code != ILLEGAL_ACTION:
        raise exc
    data = exc.data if isinstance(exc.data, dict) else {}
    clauses = data.get("clauses", [])
    return Rejection(str(data.get("reason", exc.message)),
                     tuple(str(c) for c in clauses) if isinstance(clauses, list) else ())


def without_rulings(config: Mapping[str, Any], held: frozenset[str]) -> dict[str, Any]:
    """Return ``config`` with the rulings of ``held`` left out (a copy; ``config`` unchanged)."""
    out = dict(config)
    rulings = out.get("rulings")
    if held and isinstance(rulings, Mapping):
        out["rulings"] = {k: v for k, v in rulings.items() if k not in held}
    return out
