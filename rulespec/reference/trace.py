"""JSON Lines traces: a header, one line per action, and the result. Any engine can replay one.

Format ``rulespec-trace/1``::

    {"type": "header", "format": "rulespec-trace/1", "game": ..., "spec_version": ...,
     "config": {...}, "state": {...}?}
    {"type": "step", "n": 1, "actor": 0 | "chance", "action": {...},
     "state": {...}? | "delta": [JSON Patch operations]?}
    ...
    {"type": "expect", "that": CEL, "because": sentence}?   (after the step it checks)
    {"type": "result", "steps": N, "result": {...} | null, "failure": {...}?}

The last line is always present: a file without it was cut off. ``result`` is null for a game
that stopped before its end (a minimal failing game, for example).

The optional fields came later, each additive: the header's ``state`` is the state before the
first step; a step's ``delta`` (``rulespec.reference.delta``) records the state after it as a
change of the state before it, where a full ``state`` would repeat most of the previous one; the
result's ``failure`` says which check of the conformance kit failed, where, and what was
expected and what the engine did instead. :func:`recorded_steps` writes states at every step
the way every writer of rulespec does: a full state every few steps, deltas between.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator, Sequence
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
from rulespec.reference.delta import DeltaError, apply_delta, check_delta, state_delta
from rulespec.reference.registry import engine_class
from rulespec.reference.trace_expect import ExpectLineError, TraceExpectation, parse_expectation
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

TRACE_FORMAT = "rulespec-trace/1"
#: Longest line accepted when reading a trace (a guard against garbage, not a rule).
MAX_LINE = MAX_TRACE_LINE
#: A full state every this-many steps at least (and after the last), deltas between.
KEYFRAME_EVERY = 10
#: At most about this many full states in one trace (a long game spaces them further apart).
MAX_KEYFRAMES = 25


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
    #: The state after the step, in full (None when the step records none, or a ``delta``).
    state: dict[str, Any] | None = None
    #: The step's line in the trace file (0: not read from a file).
    line: int = 0
    #: The state after the step as JSON Patch operations on the state before it.
    delta: tuple[dict[str, Any], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the step's JSON line object."""
        out: dict[str, Any] = {"type": "step", "n": self.n, "actor": self.actor,
                               "action": self.action}
        if self.state is not None:
            out["state"] = self.state
        elif self.delta is not None:
            out["delta"] = list(self.delta)
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
    #: The state before the first step (the header's ``state``), when the trace records it.
    initial: dict[str, Any] | None = None
    #: The conformance check that failed (``check``, ``step``, ``message``, ``expected``,
    #: ``actual``, ...), for a trace the kit wrote for a failure.
    failure: dict[str, Any] | None = None
    #: The states the reader rebuilt while checking the deltas (not copied by ``replace``).
    _states: list[dict[str, Any] | None] | None = field(default=None, init=False, repr=False,
                                                         compare=False)

    def states(self) -> list[dict[str, Any] | None]:
        """Return the state after each step, full or rebuilt from its delta (None where the
        trace records none). The states share their unchanged parts: treat them as read-only.
        """
        if self._states is not None:
            return list(self._states)
        out: list[dict[str, Any] | None] = []
        state = self.initial
        for step in self.steps:
            if step.state is not None:
                state = step.state
            elif step.delta is not None and state is not None:
                state = apply_delta(state, step.delta)
            else:
                state = None
            out.append(state)
        return out

    def lines(self) -> Iterator[str]:
        """Yield the JSON lines of the trace."""
        header = {"type": "header", "format": TRACE_FORMAT, "game": self.game,
                  "spec_version": self.spec_version, "config": self.config}
        if self.initial is not None:
            header["state"] = self.initial
        yield _dump(header)
        for exp in self.expectations:
            if exp.after == 0:
                yield _dump(exp.to_json())
        for step in self.steps:
            yield _dump(step.to_json())
            for exp in self.expectations:
                if exp.after == step.n:
                    yield _dump(exp.to_json())
        result: dict[str, Any] = {"type": "result", "steps": len(self.steps),
                                  "result": self.result}
        if self.failure is not None:
            result["failure"] = self.failure
        yield _dump(result)

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


def keyframe_every(steps: int) -> int:
    """Return how many steps apart the full states of a trace of ``steps`` steps are."""
    return max(KEYFRAME_EVERY, -(-steps // MAX_KEYFRAMES))


def recorded_steps(played: Sequence[tuple[Actor, Action, dict[str, Any] | None]],
                   initial: dict[str, Any] | None = None, *,
                   every: int | None = None) -> list[TraceStep]:
    """Return the trace steps of ``played`` (actor, action, the state after it or None).

    The state after each step is recorded in full after every ``every``-th step (by default
    :func:`keyframe_every` of the trace's length), after the last one and wherever the state
    before it is unknown; elsewhere as a delta of the state before it (``initial`` before the
    first step). A None state (not a state the game can be in, such as an engine's answer after
    an illegal action it accepted) records nothing.
    """
    every = every or keyframe_every(len(played))
    out: list[TraceStep] = []
    before = initial
    for n, (actor, action, state) in enumerate(played, 1):
        if state is None:
            out.append(TraceStep(n, actor, action))
        elif before is None or n % every == 0 or n == len(played):
            out.append(TraceStep(n, actor, action, state))
        else:
            out.append(TraceStep(n, actor, action, delta=tuple(state_delta(before, state))))
        before = state
    return out


class Recorder:
    """Record a game as it is played, to write it as a trace."""

    def __init__(self, engine: Engine, *, with_states: bool = False) -> None:
        self.engine = engine
        self.with_states = with_states
        self.steps: list[TraceStep] = []
        self.initial = engine.state() if with_states else None
        self._states: list[dict[str, Any] | None] = []

    def apply(self, action: Action) -> None:
        """Apply ``action`` to the engine and record it."""
        actor = self.engine.current_player()
        if actor is None:
            raise IllegalAction(action, "the game is over; no action is legal")
        self.engine.apply(action)
        self.steps.append(TraceStep(len(self.steps) + 1, actor, action))
        self._states.append(self.engine.state() if self.with_states else None)

    def trace(self) -> Trace:
        """Return the trace so far (with the state before and after every step when the
        recorder keeps states)."""
        spec = self.engine.spec
        steps = (recorded_steps([(s.actor, s.action, state) for s, state
                                 in zip(self.steps, self._states, strict=True)], self.initial)
                 if self.with_states else list(self.steps))
        return Trace(spec.game_id, spec.version, self.engine.config.to_json(), steps,
                     self.engine.result(), initial=self.initial)


#: The keys each kind of line may carry (required ones first); any other key is refused.
_LINE_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "header": (frozenset({"type", "format", "game", "spec_version", "config"}),
               frozenset({"state"})),
    "step": (frozenset({"type", "n", "actor", "action"}), frozenset({"state", "delta"})),
    "result": (frozenset({"type", "steps", "result"}), frozenset({"failure"})),
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
    states: list[dict[str, Any] | None] = []
    expects: list[TraceExpectation] = []
    result: dict[str, Any] | None = None
    failure: dict[str, Any] | None = None
    #: The state after the last step read (rebuilt from deltas), to check the next delta.
    current: dict[str, Any] | None = None
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
            if "state" in obj and not isinstance(obj["state"], dict):
                raise TraceError(f"{where}: the header's state must be an object (the state "
                                 "before the first step)")
            header = obj
            current = obj.get("state")
        elif kind == "header":
            raise TraceError(f"{where}: a second header line; a trace has one header, first")
        elif kind == "step":
            step = _parse_step(obj, where, len(steps), lineno, current)
            current = _state_after(step, current, where)
            steps.append(step)
            states.append(current)
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
            failure = _parse_failure(obj, where, len(steps))
            ended = True
    if header is None:
        raise TraceError(f"{name}: empty trace; it needs a header line")
    if not ended:
        raise TraceError(f"{name}: the trace ends after step {len(steps)} without a result line; "
                         "the file was cut off")
    trace = Trace(header["game"], header["spec_version"], header["config"], steps, result,
                  expects, initial=header.get("state"), failure=failure)
    object.__setattr__(trace, "_states", states)
    return trace


def _parse_step(obj: dict[str, Any], where: str, before: int, lineno: int,
                current: dict[str, Any] | None) -> TraceStep:
    n = obj.get("n")
    if not _is_int(n) or n != before + 1:
        raise TraceError(f"{where}: step number {n!r:.40}, expected {before + 1}; "
                         "steps must be numbered 1, 2, 3 ... without gaps")
    if before >= MAX_TRACE_STEPS:
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
    delta = obj.get("delta")
    if delta is None:
        return TraceStep(n, actor, action, state, lineno)
    if "state" in obj:
        raise TraceError(f"{where}: a step has a state or a delta, not both")
    problem = check_delta(delta)
    if problem:
        raise TraceError(f"{where}: {problem}")
    if current is None:
        raise TraceError(f"{where}: a delta but no state before it to apply it to (the header's "
                         "state, or the previous step's); record this step's state in full")
    return TraceStep(n, actor, action, None, lineno, tuple(delta))


def _state_after(step: TraceStep, current: dict[str, Any] | None,
                 where: str) -> dict[str, Any] | None:
    """Return the state after ``step`` (None when the trace does not record it)."""
    if step.delta is None or current is None:
        return step.state
    try:
        after = apply_delta(current, step.delta)
    except DeltaError as exc:
        raise TraceError(f"{where}: the delta does not fit the state before it: {exc}") from None
    if not isinstance(after, dict):
        raise TraceError(f"{where}: the delta turns the state into {type(after).__name__}, not "
                         "an object")
    return after


#: The keys of a result line's ``failure`` (``check`` and ``message`` are required).
_FAILURE_KEYS = frozenset({"check", "title", "step", "message", "clauses", "subject",
                           "expected", "actual", "diff", "cause"})


def _parse_failure(obj: dict[str, Any], where: str, steps: int) -> dict[str, Any] | None:
    failure = obj.get("failure")
    if failure is None:
        return None
    if not isinstance(failure, dict) or not isinstance(failure.get("check"), str) \
            or not isinstance(failure.get("message"), str):
        raise TraceError(f"{where}: failure must be an object with a 'check' and a 'message'")
    unknown = sorted(set(failure) - _FAILURE_KEYS)
    if unknown:
        raise TraceError(f"{where}: unknown key(s) {', '.join(map(repr, unknown))} in the "
                         f"failure; allowed: {', '.join(sorted(_FAILURE_KEYS))}")
    at = failure.get("step")
    if at is not None and not (_is_int(at) and 0 <= at <= steps):
        raise TraceError(f"{where}: failure.step must be a step number from 0 to {steps} or "
                         f"null, not {at!r:.40}")
    return failure


def _read_gzipped(path: Path) -> Trace:
    """Read a gzipped trace (``.jsonl.gz``, as the frozen releases keep theirs), its text held
    to the limit of a plain trace file however well it compresses."""
    import gzip

    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return _parse_lines(_counted(_bounded_lines(handle), str(path)), str(path))
    except (EOFError, gzip.BadGzipFile) as exc:
        raise TraceError(f"{path}: not a readable gzip file ({exc})") from None


def _counted(lines: Iterable[str], where: str) -> Iterator[str]:
    """Yield ``lines``, refusing once they hold more than ``MAX_TRACE_BYTES`` characters."""
    total = 0
    for line in lines:
        total += len(line)
        if total > MAX_TRACE_BYTES:
            raise TraceError(f"{where}: the trace holds more than {MAX_TRACE_BYTES} bytes once "
                             "uncompressed; a trace may be at most that")
        yield line


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
            if path.name.endswith(".gz"):
                return _read_gzipped(path)
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


def _state_differs(spec: Spec, step: TraceStep | None, recorded: dict[str, Any], engine: Engine,
                   note: str) -> ReplayOutcome:
    """Say which fields of a recorded state differ from the reference's, and their clauses
    (``step`` None: the header's state, before the first step)."""
    from rulespec.spec.statediff import StateSchema, describe, diff_states, governing_clauses

    changes = diff_states(recorded, engine.state(), StateSchema.of(spec))
    kinds = {str(a["id"]): a.get("clauses", []) for a in spec.section("actions")}
    kind = [] if step is None else kinds.get(str(step.action.get("kind")), [])
    clauses = tuple(dict.fromkeys([*governing_clauses(changes), *kind]))
    cite = f"; clauses: {', '.join(clauses)}" if clauses else ""
    where = ("header (line 1), before the first step" if step is None else
             f"step {step.n} (line {step.line}), after {json.dumps(step.action, sort_keys=True)}")
    return ReplayOutcome(False, 0 if step is None else step.n, f"{where}: the recorded state "
                         f"differs from the reference state{note}: {describe(changes)}{cite}",
                         0 if step is None else step.n, engine,
                         tuple(c.to_json() for c in changes), clauses)


def replay(trace: Trace) -> ReplayOutcome:
    """Re-run ``trace`` on the reference engine; stop at the first disagreement.

    Every state the trace records (the header's, each step's in full or as a delta) must be the
    reference's state at that point.
    """
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
    if trace.initial is not None and not strictly_equal(trace.initial, engine.state()):
        return _state_differs(spec, None, trace.initial, engine, note)
    # The states after each step, kept only when expectation lines need them as ``prev``.
    states = [engine.state()] if trace.expectations else []
    failed = _check_expectations(trace, 0, engine, states)
    if failed:
        return ReplayOutcome(False, 0, failed + note, None, engine)
    for step, recorded in zip(trace.steps, trace.states(), strict=True):
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
        if recorded is not None and not strictly_equal(recorded, engine.state()):
            return _state_differs(spec, step, recorded, engine, note)
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
