"""JSON Lines traces: a header, one line per action, and the result. Any engine can replay one.

Format ``rulespec-trace/1``::

    {"type": "header", "format": "rulespec-trace/1", "game": ..., "spec_version": ..., "config": {...}}
    {"type": "step", "n": 1, "actor": 0 | "chance", "action": {...}, "state": {...}?}
    ...
    {"type": "expect", "that": CEL, "because": sentence}?   (after the step it checks)
    {"type": "result", "steps": N, "result": {...} | null}

The last line is always present: a file without it was cut off. ``result`` is null for a game
that stopped before its end (a minimal failing game, for example).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from rulespec.exitcodes import EXIT_USAGE
from rulespec.limits import (
    MAX_INT_DIGITS,
    MAX_TRACE_BYTES,
    MAX_TRACE_DEPTH,
    MAX_TRACE_LINE,
    MAX_TRACE_STEPS,
)
from rulespec.reference.actions import strictly_equal
from rulespec.reference.core import (
    CHANCE,
    Action,
    Actor,
    ConfigError,
    Engine,
    IllegalAction,
    config_from_json,
)
from rulespec.reference.registry import engine_class
from rulespec.reference.trace_expect import ExpectLineError, TraceExpectation, parse_expectation
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

TRACE_FORMAT = "rulespec-trace/1"
#: Longest line accepted when reading a trace (a guard against garbage, not a rule).
MAX_LINE = MAX_TRACE_LINE


class TraceError(RulespecError):
    """A trace file that cannot be read: says which line and what is wrong."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class TraceStep:
    """One recorded action."""

    #: The step's number, from 1.
    n: int
    #: Who moved: a seat, or ``"chance"``.
    actor: Actor
    #: The action played.
    action: Action
    #: The canonical state after the action, when the trace records it.
    state: dict[str, Any] | None = None
    #: The step's line in the trace file (0: not read from a file).
    line: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return the step's JSON line object."""
        out: dict[str, Any] = {"type": "step", "n": self.n, "actor": self.actor,
                               "action": self.action}
        if self.state is not None:
            out["state"] = self.state
        return out


@dataclass(frozen=True)
class Trace:
    """A whole trace."""

    #: The game id.
    game: str
    #: The version of the spec the trace was recorded under.
    spec_version: str
    #: The configuration in its JSON form (``Config.to_json``).
    config: dict[str, Any]
    #: Every action, in order.
    steps: list[TraceStep] = field(default_factory=list)
    #: The game's result, when the trace records the end.
    result: dict[str, Any] | None = None
    #: Expectation lines (see ``trace_expect``), each checked after its step on replay.
    expectations: list[TraceExpectation] = field(default_factory=list)

    def lines(self) -> Iterator[str]:
        """Yield the JSON lines of the trace."""
        yield _dump({"type": "header", "format": TRACE_FORMAT, "game": self.game,
                     "spec_version": self.spec_version, "config": self.config})
        for exp in self.expectations:
            if exp.after == 0:
                yield _dump(exp.to_json())
        for step in self.steps:
            yield _dump(step.to_json())
            for exp in self.expectations:
                if exp.after == step.n:
                    yield _dump(exp.to_json())
        yield _dump({"type": "result", "steps": len(self.steps), "result": self.result})

    def write(self, path: Path | str) -> None:
        """Write the trace to ``path`` atomically (a temporary file, then a rename)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as out:
            for line in self.lines():
                out.write(line + "\n")
        tmp.replace(target)


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Recorder:
    """Record a game as it is played, to write it as a trace."""

    def __init__(self, engine: Engine, *, with_states: bool = False) -> None:
        self.engine = engine
        self.with_states = with_states
        self.steps: list[TraceStep] = []

    def apply(self, action: Action) -> None:
        """Apply ``action`` to the engine and record it."""
        actor = self.engine.current_player()
        if actor is None:
            raise IllegalAction(action, "the game is over; no action is legal")
        self.engine.apply(action)
        state = self.engine.state() if self.with_states else None
        self.steps.append(TraceStep(len(self.steps) + 1, actor, action, state))

    def trace(self) -> Trace:
        """Return the trace so far."""
        spec = self.engine.spec
        return Trace(spec.game_id, spec.version, self.engine.config.to_json(), list(self.steps),
                     self.engine.result())


#: The keys each kind of line may carry (required ones first); any other key is refused.
_LINE_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "header": (frozenset({"type", "format", "game", "spec_version", "config"}), frozenset()),
    "step": (frozenset({"type", "n", "actor", "action"}), frozenset({"state"})),
    "result": (frozenset({"type", "steps", "result"}), frozenset()),
    "expect": (frozenset({"type", "that", "because"}), frozenset({"since"})),
}
#: The keys of a configuration in a trace header.
_CONFIG_KEYS = frozenset({"game", "players", "rulings", "variants", "parameters"})


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number; write a finite number")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-'))} digits is beyond the "
                         f"{MAX_INT_DIGITS}-digit limit")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is too large for a finite number")
    return value


def _depth(value: Any) -> int:
    """Return how deeply arrays and objects nest in ``value`` (iteratively: no recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            if depth <= MAX_TRACE_DEPTH:
                children = item.values() if isinstance(item, dict) else item
                stack.extend((child, depth + 1) for child in children)
    return deepest


#: One strict decoder for every line (building one per line costs more than the parse).
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_parse_int,
                            parse_float=_parse_float)


def _load_line(text: str, where: str) -> dict[str, Any]:
    """Parse one trace line strictly: JSON with finite numbers, bounded integers and depth."""
    try:
        obj = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        raise TraceError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); the "
                         "file is corrupted: regenerate it or cut it before this line") from None
    except RecursionError:
        raise TraceError(f"{where}: arrays and objects nest more than {MAX_TRACE_DEPTH} levels "
                         "deep; this is not a trace") from None
    except ValueError as exc:
        raise TraceError(f"{where}: {exc}; this is not a trace") from None
    # A line cannot nest deeper than it has opening brackets: most lines need no walk.
    if text.count("[") + text.count("{") > MAX_TRACE_DEPTH and _depth(obj) > MAX_TRACE_DEPTH:
        raise TraceError(f"{where}: arrays and objects nest more than {MAX_TRACE_DEPTH} levels "
                         "deep; this is not a trace")
    if not isinstance(obj, dict) or "type" not in obj:
        raise TraceError(f"{where}: each line must be a JSON object with a 'type'")
    kind = obj["type"]
    if not isinstance(kind, str) or kind not in _LINE_KEYS:
        raise TraceError(f"{where}: unknown line type {kind!r}; expected header, step, expect or "
                         "result")
    required, optional = _LINE_KEYS[kind]
    unknown = sorted(set(obj) - required - optional)
    if unknown:
        raise TraceError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))} in a {kind} "
                         f"line; allowed: {', '.join(sorted(required | optional))}")
    missing = sorted(required - set(obj))
    if missing:
        raise TraceError(f"{where}: the {kind} line misses {', '.join(map(repr, missing))}")
    return obj


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_config(config: dict[str, Any], game: str, where: str) -> None:
    """Check the types of a header's configuration (its values are the game's to judge)."""
    unknown = sorted(set(config) - _CONFIG_KEYS)
    if unknown:
        raise TraceError(f"{where}: unknown configuration key(s) {', '.join(map(repr, unknown))};"
                         f" allowed: {', '.join(sorted(_CONFIG_KEYS))}")
    if "game" in config and config["game"] != game:
        raise TraceError(f"{where}: config.game {config['game']!r} differs from the header's "
                         f"game {game!r}")
    players = config.get("players")
    if players is not None and not _is_int(players):
        raise TraceError(f"{where}: config.players must be a whole number such as 4, not "
                         f"{players!r}")
    rulings = config.get("rulings", {})
    if not isinstance(rulings, dict) or not all(isinstance(v, str) for v in rulings.values()):
        raise TraceError(f"{where}: config.rulings must map ambiguity ids to option id strings, "
                         f"not {rulings!r:.100}")
    variants = config.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise TraceError(f"{where}: config.variants must be a list of variant id strings, not "
                         f"{variants!r:.100}")
    if not isinstance(config.get("parameters", {}), dict):
        raise TraceError(f"{where}: config.parameters must be an object of parameter values")


def _parse_lines(lines: Iterable[str], name: str) -> Trace:
    header: dict[str, Any] | None = None
    steps: list[TraceStep] = []
    expects: list[TraceExpectation] = []
    result: dict[str, Any] | None = None
    ended = False
    for lineno, raw in enumerate(lines, 1):
        where = f"{name}:{lineno}"
        if len(raw) > MAX_LINE:
            raise TraceError(f"{where}: line longer than {MAX_LINE} bytes; this is not a trace")
        text = raw.strip()
        if not text:
            continue
        if ended:
            raise TraceError(f"{where}: text after the result line; a trace ends with its result")
        obj = _load_line(text, where)
        kind = obj["type"]
        if header is None:
            if kind != "header":
                raise TraceError(f"{where}: the first line must be the header, not {kind!r}")
            if obj.get("format") != TRACE_FORMAT:
                raise TraceError(f"{where}: unsupported trace format {obj.get('format')!r:.80}; "
                                 f"this rulespec reads {TRACE_FORMAT!r}")
            for key, typ in (("game", str), ("spec_version", str), ("config", dict)):
                if not isinstance(obj.get(key), typ):
                    raise TraceError(f"{where}: header field {key!r} is missing or not a "
                                     f"{typ.__name__}")
            _check_config(obj["config"], obj["game"], where)
            header = obj
        elif kind == "header":
            raise TraceError(f"{where}: a second header line; a trace has one header, first")
        elif kind == "step":
            n = obj.get("n")
            if not _is_int(n) or n != len(steps) + 1:
                raise TraceError(f"{where}: step number {n!r:.40}, expected {len(steps) + 1}; "
                                 "steps must be numbered 1, 2, 3 ... without gaps")
            if len(steps) >= MAX_TRACE_STEPS:
                raise TraceError(f"{where}: more than {MAX_TRACE_STEPS} steps; this is not a "
                                 "trace rulespec reads")
            actor: Any = obj.get("actor")
            if not (actor == CHANCE or (_is_int(actor) and actor >= 0)):
                raise TraceError(f"{where}: actor must be a player index or 'chance', not "
                                 f"{actor!r:.80}")
            action = obj.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
                raise TraceError(f"{where}: action must be an object with a 'kind', not "
                                 f"{action!r:.200}")
            state = obj.get("state")
            if state is not None and not isinstance(state, dict):
                raise TraceError(f"{where}: state must be an object")
            steps.append(TraceStep(n, actor, action, state, lineno))
        elif kind == "expect":
            try:
                expects.append(parse_expectation(obj, where, len(steps), lineno))
            except ExpectLineError as exc:
                raise TraceError(str(exc)) from None
        else:
            if obj.get("steps") != len(steps) or not _is_int(obj.get("steps")):
                raise TraceError(f"{where}: the result line counts {obj.get('steps')!r:.40} steps "
                                 f"but the trace has {len(steps)}; steps are missing or extra")
            res = obj.get("result")
            if res is not None and not isinstance(res, dict):
                raise TraceError(f"{where}: result must be an object or null")
            result = res
            ended = True
    if header is None:
        raise TraceError(f"{name}: empty trace; it needs a header line")
    if not ended:
        raise TraceError(f"{name}: the trace ends after step {len(steps)} without a result line; "
                         "the file was cut off")
    return Trace(header["game"], header["spec_version"], header["config"], steps, result, expects)


def _bounded_lines(handle: IO[str]) -> Iterator[str]:
    """Yield the lines of ``handle``, none longer than MAX_LINE + 1 characters (memory bound)."""
    while True:
        line = handle.readline(MAX_LINE + 1)
        if not line:
            return
        yield line


def read_trace(source: Path | str | IO[str]) -> Trace:
    """Read and check a trace file; TraceError names the first bad line.

    The reader is strict: unknown keys, NaN or infinite numbers, integers longer than
    ``MAX_INT_DIGITS`` digits, nesting deeper than ``MAX_TRACE_DEPTH`` and values of the wrong
    type are refused with the file and line. The limits are in ``rulespec.limits``.
    """
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            size = path.stat().st_size
            if path.is_dir():
                raise TraceError(f"{path}: is a folder, not a trace file")
            if size > MAX_TRACE_BYTES:
                raise TraceError(f"{path}: the file is {size} bytes; a trace may be at most "
                                 f"{MAX_TRACE_BYTES} bytes")
            with path.open(encoding="utf-8") as handle:
                return _parse_lines(_bounded_lines(handle), str(path))
        except FileNotFoundError:
            raise TraceError(f"{path}: no such trace file") from None
        except UnicodeDecodeError:
            raise TraceError(f"{path}: not UTF-8 text; this is not a trace") from None
        except OSError as exc:
            raise TraceError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        return _parse_lines(_bounded_lines(source), getattr(source, "name", "<trace>"))
    except UnicodeDecodeError:
        raise TraceError("<trace>: not UTF-8 text; this is not a trace") from None


@dataclass(frozen=True)
class ReplayOutcome:
    """What replaying a trace found: ok, or the first step that went wrong."""

    #: Whether every step replayed as recorded.
    ok: bool
    #: The steps replayed, the one that went wrong included.
    steps: int
    #: What was found, in words.
    message: str
    #: The number of the step that went wrong (None: none did, or it failed before any).
    step: int | None = None
    #: The reference engine as the replay left it.
    engine: Engine | None = None
    #: Every differing field when a recorded state differs (``Change.to_json()`` records).
    diff: tuple[dict[str, Any], ...] = ()
    #: The clauses that govern what went wrong (the differing fields', then the action's).
    clauses: tuple[str, ...] = ()


def _state_differs(spec: Spec, step: TraceStep, engine: Engine, note: str) -> ReplayOutcome:
    """Say which fields of a recorded state differ from the reference's, and their clauses."""
    from rulespec.spec.statediff import StateSchema, describe, diff_states, governing_clauses

    changes = diff_states(step.state, engine.state(), StateSchema.of(spec))
    kinds = {str(a["id"]): a.get("clauses", []) for a in spec.section("actions")}
    clauses = tuple(dict.fromkeys([*governing_clauses(changes),
                                   *kinds.get(str(step.action.get("kind")), [])]))
    cite = f"; clauses: {', '.join(clauses)}" if clauses else ""
    return ReplayOutcome(False, step.n, f"step {step.n} (line {step.line}), after "
                         f"{json.dumps(step.action, sort_keys=True)}: the recorded state differs "
                         f"from the reference state{note}: {describe(changes)}{cite}", step.n,
                         engine, tuple(c.to_json() for c in changes), clauses)


def replay(trace: Trace) -> ReplayOutcome:
    """Re-run ``trace`` on the reference engine; stop at the first disagreement."""
    spec = get_spec(trace.game)
    if trace.spec_version != spec.version:
        note = f" (trace written for spec {trace.spec_version}, now {spec.version})"
    else:
        note = ""
    try:
        config = config_from_json(spec, trace.config)
    except ConfigError as exc:
        return ReplayOutcome(False, 0, f"header: {exc}")
    engine = engine_class(spec)(spec, config)
    # The states after each step, kept only when expectation lines need them as ``prev``.
    states = [engine.state()] if trace.expectations else []
    failed = _check_expectations(trace, 0, engine, states)
    if failed:
        return ReplayOutcome(False, 0, failed + note, None, engine)
    for step in trace.steps:
        expected = engine.current_player()
        if expected != step.actor:
            who = "nobody (the game is over)" if expected is None else repr(expected)
            return ReplayOutcome(False, step.n - 1, f"step {step.n} (line {step.line}): recorded "
                                 f"actor {step.actor!r} but {who} is to move{note}", step.n, engine)
        try:
            engine.apply(step.action)
        except IllegalAction as exc:
            return ReplayOutcome(False, step.n - 1, f"step {step.n} (line {step.line}): {exc}{note}",
                                 step.n, engine)
        if step.state is not None and not strictly_equal(step.state, engine.state()):
            return _state_differs(spec, step, engine, note)
        if trace.expectations:
            states.append(engine.state())
        failed = _check_expectations(trace, step.n, engine, states)
        if failed:
            return ReplayOutcome(False, step.n, failed + note, step.n, engine)
    if trace.result is not None and not strictly_equal(trace.result, engine.result()):
        return ReplayOutcome(False, len(trace.steps), f"result: recorded {trace.result!r} but the "
                             f"reference gives {engine.result()!r}{note}", None, engine)
    if trace.result is None and engine.result() is not None:
        return ReplayOutcome(False, len(trace.steps), "result: the trace records no result but "
                             f"the game is over with {engine.result()!r}{note}", None, engine)
    return ReplayOutcome(True, len(trace.steps), f"replayed {len(trace.steps)} steps{note}",
                         None, engine)


def _check_expectations(trace: Trace, after: int, engine: Engine,
                        states: list[dict[str, Any]]) -> str:
    """Return why the first expectation after step ``after`` fails ("" when all hold)."""
    mine = [e for e in trace.expectations if e.after == after]
    if not mine:
        return ""
    variables = {"state": engine.state(), "result": engine.result(),
                 "legal": engine.legal_actions(), "actor": engine.current_player()}
    for exp in mine:
        problem = exp.failure({**variables, "prev": states[exp.prev_step()]})
        if problem is not None:
            return f"expectation {problem}"
    return ""
