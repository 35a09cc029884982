"""The kit's checked steps per CPU second, this tree against another, side by side in one run.

    python benchmarks/kit_before_after.py --before DIR [--games fool ruby-rhino] [--examples 10]

``DIR`` holds the other version's source (for instance ``git archive main | tar -x -C DIR``). Each
measurement runs in a fresh process with that tree (or this one) first on ``PYTHONPATH``, the two
versions alternating, every path measured ``--rounds`` times; the best round is kept. The paths
are those of ``rulespec conform-bench``: in-process default and full, and the protocol path (the
reference served by ``python -m rulespec.conformance.server``). The figure is checked steps per
CPU second, where the CPU time is the kit process's plus, over the protocol, the served engine's
(``RUSAGE_CHILDREN`` once it has exited): on a shared machine, CPU time is steadier than the wall
clock. ``--pure-json`` turns msgspec off in this tree (``RULESPEC_PURE_JSON=1``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PATHS = ("in-process/default", "in-process/full", "protocol/default")

CHILD = r"""
import json, resource, shlex, sys, time
from dataclasses import replace
from rulespec.conformance.engine.adapters import InProcessAdapter, SubprocessAdapter
from rulespec.conformance.play.runner import Conformance, Options, supported_configs
from rulespec.spec.registry import get_spec

game, path, examples = sys.argv[1], sys.argv[2], int(sys.argv[3])
spec = get_spec(game)
configs = supported_configs(spec, players=sorted({spec.min_players, spec.max_players}))
options = Options(examples=examples, golden=False, seed=0)
if path == "in-process/full":
    options = replace(options, full=True)
if path.startswith("protocol"):
    adapter = SubprocessAdapter(shlex.join([sys.executable, "-m", "rulespec.conformance.server",
                                            game]))
else:
    adapter = InProcessAdapter()
Conformance(adapter, game, options=replace(options, examples=2)).run(configs[:1])
kit = Conformance(adapter, game, options=options)
children = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = time.process_time()
report = kit.run(configs)
cpu = time.process_time() - cpu
if path.startswith("protocol"):
    adapter.close()
after = resource.getrusage(resource.RUSAGE_CHILDREN)
# The served engine's CPU: all of it (its start-up and warm-up included, a small share).
served = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
print(json.dumps({"steps": kit.steps_checked, "cpu": cpu + served, "ok": report.ok}))
"""


def measure(root: Path, game: str, path: str, examples: int, pure: bool) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if pure:
        env["RULESPEC_PURE_JSON"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD, game, path, str(examples)], env=env,
                         check=True, capture_output=True, text=True, cwd=root)
    got: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return got


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the other version's tree")
    parser.add_argument("--games", nargs="+", default=["fool", "ruby-rhino"])
    parser.add_argument("--examples", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pure-json", action="store_true", help="this tree without msgspec")
    args = parser.parse_args()
    print(f"{'game':<12} {'path':<20} {'steps':>6} {'before':>9} {'after':>9} {'ratio':>6}"
          "   (checked steps per CPU second)", flush=True)
    for game in args.games:
        for path in PATHS:
            best: dict[str, dict[str, float]] = {}
            for _ in range(args.rounds):
                for name, root in (("before", args.before.resolve()), ("after", HERE)):
                    got = measure(root, game, path, args.examples,
                                  args.pure_json and name == "after")
                    if not got["ok"]:
                        print(f"{name}: the kit reported a failure on {game} {path}",
                              file=sys.stderr)
                        return 1
                    if name not in best or got["cpu"] < best[name]["cpu"]:
                        best[name] = got
            rate = {n: b["steps"] / b["cpu"] for n, b in best.items()}
            steps = "/".join(sorted({str(int(b["steps"])) for b in best.values()}))
            print(f"{game:<12} {path:<20} {steps:>6} {rate['before']:>9,.0f} "
                  f"{rate['after']:>9,.0f} {rate['after'] / rate['before']:>5.2f}×", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
