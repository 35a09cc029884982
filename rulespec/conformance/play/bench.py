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
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulespec.conformance.engine.adapters import Adapter, InProcessAdapter, SubprocessAdapter
from rulespec.conformance.play.runner import Conformance, Options, supported_configs
from rulespec.spec.registry import get_spec

MODES: dict[str, dict[str, Any]] = {
    "default": {},
    "differential": {"sample_every": 10**9},
    "full": {"full": True},
}

#: The paths measured, in the order they are measured and printed.
PATHS = (*(f"in-process/{m}" for m in MODES), "protocol/default")

#: Checked steps per second the kit aims at (issue 11's table), by game and path; a game not
#: listed has no goal. Recorded in the JSON output next to the figures.
GOALS: dict[str, dict[str, int]] = {
    "fool": {"in-process/default": 10_000, "protocol/default": 5_000, "in-process/full": 2_000},
    "ruby-rhino": {"in-process/default": 20_000, "protocol/default": 5_000,
                   "in-process/full": 2_000},
}

#: Called when a path starts (game, path, the kit about to run it) and when it is measured
#: (game, path, figures).
OnStart = Callable[[str, str, Conformance], None]
OnRow = Callable[[str, str, dict[str, Any]], None]


def _measure(adapter: Adapter, game: str, options: Options,
             on_start: Callable[[Conformance], None] | None = None) -> dict[str, Any]:
    spec = get_spec(game)
    configs = supported_configs(spec, players=sorted({spec.min_players, spec.max_players}))
    warm = Conformance(adapter, game, options=replace(options, examples=2))
    warm.run(configs[:1])  # imports, compiled expressions, a started engine
    kit = Conformance(adapter, game, options=options)
    if on_start is not None:
        on_start(kit)
    cpu = time.process_time()
    start = time.perf_counter()
    report = kit.run(configs)
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {"steps": kit.steps_checked, "seconds": round(seconds, 3),
            "steps_per_second": round(kit.steps_checked / seconds) if seconds else 0,
            "ok": report.ok,
            # The kit's own processor time (over the protocol the engine's is not in it).
            "kit_cpu_seconds": round(cpu, 3)}


def bench(game: str, *, engine_cmd: str | None = None, examples: int = 30,
          on_start: OnStart | None = None, on_row: OnRow | None = None) -> dict[str, Any]:
    """Measure every in-process mode and the protocol path for ``game``; return the figures.

    Each path's figures carry its goal (``goal``, steps per second, and ``meets_goal``) when
    the game has one; ``on_start`` and ``on_row`` are told as each path starts and ends.
    """
    base = Options(examples=examples, golden=False, seed=0)
    rows: dict[str, Any] = {"game": game}
    goals = GOALS.get(game, {})

    def measure(path: str, adapter: Adapter, options: Options) -> None:
        started = None if on_start is None else (lambda kit: on_start(game, path, kit))
        figures = _measure(adapter, game, options, started)
        if path in goals:
            figures["goal"] = goals[path]
            figures["meets_goal"] = figures["steps_per_second"] >= goals[path]
        rows[path] = figures
        if on_row is not None:
            on_row(game, path, figures)

    for mode, change in MODES.items():
        measure(f"in-process/{mode}", InProcessAdapter(), replace(base, **change))
    cmd = engine_cmd or shlex.join([sys.executable, "-m", "rulespec.conformance.server", game])
    sub = SubprocessAdapter(cmd)
    try:
        measure("protocol/default", sub, base)
    finally:
        sub.close()
    return rows
