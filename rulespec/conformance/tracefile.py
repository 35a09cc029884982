"""Write a failing game as a trace file that ``rulespec replay`` runs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.checks import Failure
from rulespec.reference.trace import Trace, TraceStep
from rulespec.spec.model import Spec


def write_failure_trace(spec: Spec, failure: Failure, states: Sequence[Any],
                        directory: Path | None) -> Failure:
    """Write ``failure``'s game to ``directory``; return the failure with the file's path.

    ``states`` are the engine's states of that game, the initial one first (an entry that is
    not a state, such as the state after an accepted illegal action, is left out of the trace).
    Nothing is written when ``directory`` is None. Files are numbered per game and check, so
    earlier ones are never overwritten.
    """
    if directory is None:
        return failure
    directory.mkdir(parents=True, exist_ok=True)
    steps = [TraceStep(i, actor, dict(action),
                       states[i] if i < len(states) and isinstance(states[i], dict) else None)
             for i, (actor, action) in enumerate(failure.actions, 1)]
    last = states[len(steps)] if len(states) > len(steps) else None
    result = last.get("result") if isinstance(last, dict) else None
    trace = Trace(spec.game_id, spec.version, dict(failure.config), steps,
                  result if isinstance(result, dict) else None)
    n = len(list(directory.glob(f"{spec.game_id}-{failure.check}-*.jsonl"))) + 1
    path = directory / f"{spec.game_id}-{failure.check}-{n}.jsonl"
    trace.write(path)
    return replace(failure, trace=str(path))
