"""Measure what the reference's own default ``rulespec conform`` run exercises, with and without
steered play, and the CPU time each takes (``time.process_time``, side by side in one process).

Usage: python benchmarks/coverage_steering.py [GAME ...]
"""

from __future__ import annotations

import sys
import time

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.play.coverage import percent, totals
from rulespec.spec.registry import game_ids


def measure(game: str, steer: bool) -> tuple[dict[str, tuple[int, int]], float, list[str]]:
    """Run the default kit on the reference; return coverage totals, CPU seconds, misses."""
    started = time.process_time()
    report = check_engine(InProcessAdapter(), game, options=Options(steer=steer, golden=False))
    cpu = time.process_time() - started
    summaries = [r.coverage for r in report.runs if r.coverage is not None]
    missed = sorted({m for s in summaries for name, (_, _, ms) in s.parts().items()
                     if name in ("action kinds", "decision points", "events") for m in ms
                     if all(m in o.parts()[name][2] for o in summaries)})
    return totals(summaries), cpu, missed


def main() -> None:
    games = sys.argv[1:] or game_ids()
    for game in games:
        for steer in (False, True):
            got, cpu, missed = measure(game, steer)
            parts = ", ".join(f"{n} {c}/{t} ({percent(c, t):g}%)" for n, (c, t) in got.items())
            print(f"{game:13} steer={'on ' if steer else 'off'} cpu {cpu:6.1f} s  {parts}",
                  flush=True)
            if missed:
                print(f"{'':13} never reached in any configuration: {', '.join(missed)}",
                      flush=True)


if __name__ == "__main__":
    main()
