"""Write a failing game as a trace file that ``rulespec replay`` runs and the viewer shows.

The trace records the engine's state before the first step and after every step
(``recorded_steps``: in full every few steps, as deltas between), and its result line says which
check failed, at which step, and what was expected there and what the engine did instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.judging.checks import BY_ID, Failure, json_value
from rulespec.reference.trace import Trace, recorded_steps
from rulespec.spec.model import Spec


def failure_record(failure: Failure) -> dict[str, Any]:
    """Return the ``failure`` object of a trace's result line."""
    check = BY_ID.get(failure.check)
    out: dict[str, Any] = {"check": failure.check, "step": failure.step,
                           "message": failure.message, "clauses": list(failure.clauses)}
    if check is not None:
        out["title"] = check.title
    for key, value in (("subject", failure.subject), ("cause", failure.cause),
                       ("expected", json_value(failure.expected)),
                       ("actual", json_value(failure.actual))):
        if value is not None:
            out[key] = value
    if failure.diff:
        out["diff"] = [dict(d) for d in failure.diff]
    return out


def failure_trace(spec: Spec, failure: Failure, states: Sequence[Any]) -> Trace:
    """Return ``failure``'s game as a trace, with the engine's ``states`` (the initial one
    first; an entry that is not a state, such as the state after an accepted illegal action, is
    left out)."""
    def state(i: int) -> dict[str, Any] | None:
        value = states[i] if i < len(states) else None
        return value if isinstance(value, dict) else None

    played = [(actor, dict(action), state(i))
              for i, (actor, action) in enumerate(failure.actions, 1)]
    last = state(len(played))
    result = last.get("result") if last is not None else None
    return Trace(spec.game_id, spec.version, dict(failure.config),
                 recorded_steps(played, state(0)), result if isinstance(result, dict) else None,
                 initial=state(0), failure=failure_record(failure))


def write_failure_trace(spec: Spec, failure: Failure, states: Sequence[Any],
                        directory: Path | None) -> Failure:
    """Write ``failure``'s game to ``directory``; return the failure with the file's path.

    ``states`` are the engine's states of that game, the initial one first (see
    :func:`failure_trace`). Nothing is written when ``directory`` is None. Files are numbered
    per game and check, so earlier ones are never overwritten.
    """
    if directory is None:
        return failure
    directory.mkdir(parents=True, exist_ok=True)
    trace = failure_trace(spec, failure, states)
    n = len(list(directory.glob(f"{spec.game_id}-{failure.check}-*.jsonl"))) + 1
    path = directory / f"{spec.game_id}-{failure.check}-{n}.jsonl"
    trace.write(path)
    return replace(failure, trace=str(path))
