"""The kit's throughput: checked steps per second, in-process and over the engine protocol.

Printed by ``rulespec conform-bench``; no test asserts a time. Both paths check the reference
itself (every check on), so the figures measure the kit and the transport, not an engine's bugs.
"""

from __future__ import annotations

import shlex
import sys
import time
from typing import Any

from conformance.adapters import Adapter, InProcessAdapter, SubprocessAdapter
from conformance.runner import Conformance, Options, supported_configs
from specs.registry import get_spec


def _measure(adapter: Adapter, game: str, examples: int) -> dict[str, Any]:
    options = Options(examples=examples, golden=False, seed=0)
    kit = Conformance(adapter, game, options=options)
    spec = get_spec(game)
    configs = supported_configs(spec, players=[spec.min_players, spec.max_players])
    adapter.hello()
    start = time.perf_counter()
    report = kit.run(configs)
    seconds = time.perf_counter() - start
    return {"steps": kit.steps_checked, "seconds": round(seconds, 3),
            "steps_per_second": round(kit.steps_checked / seconds) if seconds else 0,
            "ok": report.ok}


def bench(game: str, *, engine_cmd: str | None = None, examples: int = 30) -> dict[str, Any]:
    """Measure both paths for ``game``; return the figures."""
    inproc = _measure(InProcessAdapter(), game, examples)
    cmd = engine_cmd or shlex.join([sys.executable, "-m", "conformance.server", game])
    sub = SubprocessAdapter(cmd)
    try:
        proto = _measure(sub, game, examples)
    finally:
        sub.close()
    return {"game": game, "in-process": inproc, "protocol": proto}
