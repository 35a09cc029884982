"""The kit's throughput: checked steps per second, in-process and over the engine protocol.

Printed by ``rulespec conform-bench``; no test asserts a time. Every path checks the reference
itself, so the figures measure the kit and the transport, not an engine's bugs. A checked step
is one action applied to the engine whose resulting state and legal actions were compared with
the reference's. Three in-process modes are measured: the default (differential on every step,
schema and invariants on every differing or terminal state and on one state in
``sample_every``), differential only, and full (schema and invariants on every state).
"""

from __future__ import annotations

import shlex
import sys
import time
from dataclasses import replace
from typing import Any

from rulespec.conformance.adapters import Adapter, InProcessAdapter, SubprocessAdapter
from rulespec.conformance.runner import Conformance, Options, supported_configs
from rulespec.spec.registry import get_spec

MODES: dict[str, dict[str, Any]] = {
    "default": {},
    "differential": {"sample_every": 10**9},
    "full": {"full": True},
}


def _measure(adapter: Adapter, game: str, options: Options) -> dict[str, Any]:
    spec = get_spec(game)
    configs = supported_configs(spec, players=sorted({spec.min_players, spec.max_players}))
    warm = Conformance(adapter, game, options=replace(options, examples=2))
    warm.run(configs[:1])  # imports, compiled expressions, a started engine
    kit = Conformance(adapter, game, options=options)
    start = time.perf_counter()
    report = kit.run(configs)
    seconds = time.perf_counter() - start
    return {"steps": kit.steps_checked, "seconds": round(seconds, 3),
            "steps_per_second": round(kit.steps_checked / seconds) if seconds else 0,
            "ok": report.ok}


def bench(game: str, *, engine_cmd: str | None = None, examples: int = 30) -> dict[str, Any]:
    """Measure every in-process mode and the protocol path for ``game``; return the figures."""
    base = Options(examples=examples, golden=False, seed=0)
    rows: dict[str, Any] = {"game": game}
    for mode, change in MODES.items():
        rows[f"in-process/{mode}"] = _measure(InProcessAdapter(), game, replace(base, **change))
    cmd = engine_cmd or shlex.join([sys.executable, "-m", "rulespec.conformance.server", game])
    sub = SubprocessAdapter(cmd)
    try:
        rows["protocol/default"] = _measure(sub, game, base)
    finally:
        sub.close()
    return rows
