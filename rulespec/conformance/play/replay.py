"""Replay golden traces on an engine: every recorded step accepted, every recorded state equal."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import EngineError, EngineFailure
from rulespec.conformance.judging.causes import refused_legal, state_differs
from rulespec.conformance.judging.checks import Failure
from rulespec.conformance.judging.verdicts import Verdicts
from rulespec.reference.core import ConfigError
from rulespec.reference.trace import Trace, TraceStep, read_trace
from rulespec.spec.registry import golden_paths
from rulespec.spec.statediff import describe, diff_states, governing_clauses

#: Builds the PROTOCOL failure for an engine that broke down (config, exception).
ProtocolFailure = Callable[[Mapping[str, Any], Exception], Failure]


def replay_golden(adapter: Adapter, verdicts: Verdicts, name: str, trace: Trace,
                  protocol_failure: ProtocolFailure,
                  states: list[Any] | None = None,
                  project: Callable[[Any], Any] | None = None) -> Failure | None:
    """Replay one golden trace on the engine; return its GOLDEN failure, or None.

    The engine's states (the initial one first) are appended to ``states`` when it is given, so
    the caller can write the engine's side of a failing replay as a trace. ``project`` keeps
    what the engine's conformance level compares of each state (both sides).
    """
    keep = project or (lambda state: state)
    cfg = dict(trace.config)
    steps: list[tuple[Any, Mapping[str, Any]]] = []
    seen = states if states is not None else []
    try:
        adapter.start(cfg)
        first = adapter.state()
        seen.append(first)
        if trace.initial is not None and keep(first) != keep(trace.initial):
            return _differs(verdicts, name, None, first, trace.initial, keep, cfg, steps)
        for step, recorded in zip(trace.steps, trace.states(), strict=True):
            steps.append((step.actor, step.action))
            rejection, state, _ = adapter.step(step.action)
            seen.append(state if rejection is None else None)
            if rejection is not None:
                return Failure("GOLDEN", verdicts.clauses(step.action),
                               f"{name} step {step.n}: the engine refused {step.action!r}: "
                               f"{rejection.reason}", cfg, step.n, tuple(steps), subject=name,
                               cause=refused_legal(step.action, rejection.reason),
                               expected={"action": step.action, "accepted": True},
                               actual={"action": step.action, "accepted": False,
                                       "reason": rejection.reason})
            if recorded is not None and keep(state) != keep(recorded):
                return _differs(verdicts, name, step, state, recorded, keep, cfg, steps)
        final = adapter.state()
    except (EngineFailure, EngineError, ConfigError) as exc:
        return replace(protocol_failure(cfg, exc), check="GOLDEN", subject=name)
    if final.get("result") != trace.result:
        return Failure("GOLDEN", verdicts.end_clauses, f"{name}: result "
                       f"{final.get('result')!r} but the trace records {trace.result!r}", cfg,
                       len(steps), tuple(steps), subject=name, cause="DIFF-RESULT",
                       expected=trace.result, actual=final.get("result"))
    return None


def _differs(verdicts: Verdicts, name: str, step: TraceStep | None, state: Any,
             recorded: Mapping[str, Any], keep: Callable[[Any], Any], cfg: dict[str, Any],
             steps: list[tuple[Any, Mapping[str, Any]]]) -> Failure:
    """The GOLDEN failure of an engine state that is not the recorded one (``step`` None: the
    state before the first step)."""
    changes = tuple(diff_states(keep(state), keep(recorded), verdicts.schema))
    action = None if step is None else step.action
    clauses = verdicts.clauses(action) if action is not None else verdicts.setup_clauses
    where = "before the first step" if step is None else f"step {step.n}"
    return Failure("GOLDEN", governing_clauses(changes) + clauses,
                   f"{name} {where}: " + describe(changes), cfg, len(steps), tuple(steps),
                   subject=name, diff=tuple(c.to_json() for c in changes),
                   cause=state_differs([c.to_json() for c in changes]),
                   expected=keep(recorded), actual=keep(state))


def load_golden(game: str) -> list[tuple[Path, Trace]]:
    """Return the golden traces of ``game`` with their paths."""
    return [(p, read_trace(p)) for p in golden_paths(game)]
