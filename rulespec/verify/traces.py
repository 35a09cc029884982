"""A violation's shortest path, replayed and written as a trace file ``rulespec replay`` reads.

The explorer keeps only move numbers (the index of each action among the state's chance
outcomes or legal actions); the path is replayed from the start to recover the actions and the
states after each of them, which the trace records. A trace of a violation of the reference
replays on the reference as it was found; one found on another engine (a planted bug) shows,
replayed, the first step where that engine and the reference part.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rulespec.reference.core import CHANCE, Action, Actor, Engine
from rulespec.reference.trace import Trace, recorded_steps


def trace_of(start: Engine, path: Sequence[int]) -> Trace:
    """Return the trace of the moves numbered ``path`` from ``start`` (not changed), with the
    state before the first step and after every step (``recorded_steps``). A last move the
    engine refuses or fails on is recorded without a state (the trace then stops where the
    engine did)."""
    engine = start.clone()
    initial = engine.state()
    played: list[tuple[Actor, Action, dict[str, Any] | None]] = []
    for move in path:
        actor = engine.current_player()
        if actor is None:
            break
        if actor == CHANCE:
            action = engine.chance_outcomes()[move][0]
        else:
            action = engine.legal_actions()[move]
        try:
            engine.apply(action)
            state = engine.state()
        except Exception:  # the step the violation is about (a refusal, an error)
            played.append((actor, action, None))
            break
        played.append((actor, action, state))
    try:
        result = engine.result()
    except Exception:
        result = None
    spec = start.spec
    return Trace(spec.game_id, spec.version, start.config.to_json(),
                 recorded_steps(played, initial), result, initial=initial)


def write_trace(start: Engine, path: Sequence[int], target: Path) -> Path:
    """Write the trace of ``path`` to ``target`` and return it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    trace_of(start, path).write(target)
    return target
