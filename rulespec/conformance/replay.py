"""Replay golden traces on an engine: every recorded step accepted, every recorded state equal."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.adapters import Adapter
from rulespec.conformance.checks import Failure
from rulespec.conformance.golden import golden_paths
from rulespec.conformance.protocol import EngineError, EngineFailure
from rulespec.conformance.verdicts import Verdicts, state_diff
from rulespec.reference.core import ConfigError
from rulespec.reference.trace import Trace, read_trace

#: Builds the PROTOCOL failure for an engine that broke down (config, exception).
ProtocolFailure = Callable[[Mapping[str, Any], Exception], Failure]


def replay_golden(adapter: Adapter, verdicts: Verdicts, name: str, trace: Trace,
                  protocol_failure: ProtocolFailure) -> Failure | None:
    """Replay one golden trace on the engine; return its GOLDEN failure, or None."""
    cfg = dict(trace.config)
    steps: list[tuple[Any, Mapping[str, Any]]] = []
    try:
        adapter.start(cfg)
        for step in trace.steps:
            steps.append((step.actor, step.action))
            rejection, state, _ = adapter.step(step.action)
            if rejection is not None:
                return Failure("GOLDEN", verdicts.clauses(step.action),
                               f"{name} step {step.n}: the engine refused {step.action!r}: "
                               f"{rejection.reason}", cfg, step.n, tuple(steps), subject=name)
            if step.state is not None and state != step.state:
                return Failure("GOLDEN", verdicts.clauses(step.action),
                               f"{name} step {step.n}: " + state_diff(state, step.state),
                               cfg, step.n, tuple(steps), subject=name)
        final = adapter.state()
    except (EngineFailure, EngineError, ConfigError) as exc:
        return replace(protocol_failure(cfg, exc), check="GOLDEN", subject=name)
    if final.get("result") != trace.result:
        return Failure("GOLDEN", verdicts.end_clauses, f"{name}: result "
                       f"{final.get('result')!r} but the trace records {trace.result!r}", cfg,
                       len(steps), tuple(steps), subject=name)
    return None


def load_golden(game: str) -> list[tuple[Path, Trace]]:
    """Return the golden traces of ``game`` with their paths."""
    return [(p, read_trace(p)) for p in golden_paths(game)]
