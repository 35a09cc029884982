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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

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
from rulespec.spec.registry import get_spec

TRACE_FORMAT = "rulespec-trace/1"
#: Longest line accepted when reading a trace (a guard against garbage, not a rule).
MAX_LINE = 16 * 1024 * 1024


class TraceError(RulespecError):
    """A trace file that cannot be read: says which line and what is wrong."""


@dataclass(frozen=True)
class TraceStep:
    """One recorded action."""

    n: int
    actor: Actor
    action: Action
    state: dict[str, Any] | None = None
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

    game: str
    spec_version: str
    config: dict[str, Any]
    steps: list[TraceStep] = field(default_factory=list)
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
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TraceError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno}); the "
                             "file is corrupted: regenerate it or cut it before this line") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise TraceError(f"{where}: each line must be a JSON object with a 'type'")
        kind = obj["type"]
        if header is None:
            if kind != "header":
                raise TraceError(f"{where}: the first line must be the header, not {kind!r}")
            if obj.get("format") != TRACE_FORMAT:
                raise TraceError(f"{where}: unsupported trace format {obj.get('format')!r}; "
                                 f"this rulespec reads {TRACE_FORMAT!r}")
            for key, typ in (("game", str), ("spec_version", str), ("config", dict)):
                if not isinstance(obj.get(key), typ):
                    raise TraceError(f"{where}: header field {key!r} is missing or not a "
                                     f"{typ.__name__}")
            header = obj
        elif kind == "step":
            n = obj.get("n")
            if n != len(steps) + 1:
                raise TraceError(f"{where}: step number {n!r}, expected {len(steps) + 1}; "
                                 "steps must be numbered 1, 2, 3 ... without gaps")
            actor = obj.get("actor")
            if not (actor == CHANCE or (isinstance(actor, int) and not isinstance(actor, bool)
                                        and actor >= 0)):
                raise TraceError(f"{where}: actor must be a player index or 'chance', not {actor!r}")
            action = obj.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
                raise TraceError(f"{where}: action must be an object with a 'kind', not {action!r}")
            state = obj.get("state")
            if state is not None and not isinstance(state, dict):
                raise TraceError(f"{where}: state must be an object")
            steps.append(TraceStep(n, actor, action, state, lineno))
        elif kind == "expect":
            try:
                expects.append(parse_expectation(obj, where, len(steps), lineno))
            except ExpectLineError as exc:
                raise TraceError(str(exc)) from None
        elif kind == "result":
            if obj.get("steps") != len(steps):
                raise TraceError(f"{where}: the result line counts {obj.get('steps')!r} steps but "
                                 f"the trace has {len(steps)}; steps are missing or extra")
            res = obj.get("result")
            if res is not None and not isinstance(res, dict):
                raise TraceError(f"{where}: result must be an object or null")
            result = res
            ended = True
        else:
            raise TraceError(f"{where}: unknown line type {kind!r}; expected step, expect or "
                             "result")
    if header is None:
        raise TraceError(f"{name}: empty trace; it needs a header line")
    if not ended:
        raise TraceError(f"{name}: the trace ends after step {len(steps)} without a result line; "
                         "the file was cut off")
    return Trace(header["game"], header["spec_version"], header["config"], steps, result, expects)


def read_trace(source: Path | str | IO[str]) -> Trace:
    """Read and check a trace file; TraceError names the first bad line."""
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            with path.open(encoding="utf-8") as handle:
                return _parse_lines(handle, str(path))
        except FileNotFoundError:
            raise TraceError(f"{path}: no such trace file") from None
        except UnicodeDecodeError:
            raise TraceError(f"{path}: not UTF-8 text; this is not a trace") from None
    return _parse_lines(source, getattr(source, "name", "<trace>"))


@dataclass(frozen=True)
class ReplayOutcome:
    """What replaying a trace found: ok, or the first step that went wrong."""

    ok: bool
    steps: int
    message: str
    step: int | None = None
    engine: Engine | None = None


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
            return ReplayOutcome(False, step.n, f"step {step.n} (line {step.line}): the recorded "
                                 f"state differs from the reference state{note}", step.n, engine)
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
