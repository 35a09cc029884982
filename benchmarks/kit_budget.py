"""Kill rate against time budget, and an honest engine's default run, over the engine protocol.

    python benchmarks/kit_budget.py [--budgets 5 15 30 60] [--games fool ...] [--out FILE]

Every known-bad engine of the kit's negative corpus (``tests/conformance/corpus.py``: the
generic and game-specific ones, and the engines that follow another ruling) is served over the
protocol (``tests/conformance/engines/bad_server.py``) and checked by ``rulespec conform`` as a
user runs it (every player count, rule examples, golden traces), with ``--budget B -x``: ``-x``
ends the run at the first failure, which does not change whether the engine is rejected, only
how long it takes. Budgets are tried in increasing order, the kit's default last; an engine
rejected within a budget is counted rejected at every larger one without running it again (the
kit spends a budget by a fixed priority, so what it does within a smaller budget is a prefix of
what it does within a larger one), unless ``--every`` asks to run every budget; the table says
how many figures were measured. The time to the first failure is the report's earliest
``found_after``.

With ``--honest``, the reference served over the protocol (``rulespec serve GAME``) is checked
by the default run of each game, and its wall time printed: what an implementer with a
conformant engine waits.

Run from the repository root (the corpus lives in its tests). The machine's other load shows in
the wall times: run it on a quiet machine, and read the spread.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def conform(engine: list[str], game: str, budget: float, *, fail_fast: bool,
            trace_dir: Path) -> dict[str, Any]:
    """Run ``rulespec conform`` on ``engine``; return its verdict, JSON report and wall time."""
    cmd = [sys.executable, "-m", "rulespec", "conform", "--engine", shlex.join(engine),
           "--game", game, "--budget", str(budget), "--format", "json", "--quiet",
           "--trace-dir", str(trace_dir)]
    if fail_fast:
        cmd.append("-x")
    started = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, check=False,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.monotonic() - started
    try:
        doc = json.loads(done.stdout)
    except json.JSONDecodeError:
        doc = {}
    found = [f["found_after"] for f in doc.get("failures", []) if f.get("found_after") is not None]
    return {"exit": done.returncode, "wall": round(wall, 2), "killed": done.returncode == 1
            and bool(doc.get("failures")), "first_failure": min(found) if found else None,
            "checks": sorted({f["check"] for f in doc.get("failures", [])}),
            "error": done.stderr[-500:] if done.returncode not in (0, 1) else None}


def kill_rates(budgets: list[float], games: list[str] | None,
               every: bool = False) -> list[dict[str, Any]]:
    """Check every bad engine at increasing budgets until it is rejected; return the rows."""
    from tests.conformance.corpus import RULING_ENGINES, corpus, playable_games

    chosen = games or playable_games()
    engines = [*corpus(chosen), *[b for b in RULING_ENGINES if b.game in chosen]]
    rows = []
    with tempfile.TemporaryDirectory(prefix="kit-budget-") as scratch:
        for n, bad in enumerate(engines, 1):
            command = [sys.executable, "-m", "tests.conformance.engines.bad_server", bad.game,
                       bad.name]
            row: dict[str, Any] = {"game": bad.game, "engine": bad.name, "budgets": {}}
            for budget in budgets:
                got = conform(command, bad.game, budget, fail_fast=True,
                              trace_dir=Path(scratch) / f"{n}-{budget:g}")
                row["budgets"][f"{budget:g}"] = {**got, "measured": True}
                if got["killed"] and not every:
                    for larger in budgets[budgets.index(budget) + 1:]:
                        row["budgets"][f"{larger:g}"] = {"killed": True, "measured": False}
                    break
            last = row["budgets"][f"{budgets[-1]:g}"]
            print(f"{n:3}/{len(engines)} {bad.game:13} {bad.name:28} "
                  + ("killed" if last["killed"] else "passed")
                  + "".join(f"  {b}: {'K' if r['killed'] else '-'}"
                            + (f" ({r['first_failure']:.1f} s)" if r.get("first_failure")
                               is not None else "")
                            for b, r in row["budgets"].items() if r.get("measured")),
                  flush=True)
            rows.append(row)
    return rows


def honest(games: list[str] | None) -> list[dict[str, Any]]:
    """Time the default run of the reference served over the protocol, per game."""
    from rulespec.conformance.play.options import DEFAULT_BUDGET
    from tests.conformance.corpus import playable_games

    out = []
    with tempfile.TemporaryDirectory(prefix="kit-budget-") as scratch:
        for game in games or playable_games():
            engine = [sys.executable, "-m", "rulespec", "serve", game]
            got = conform(engine, game, DEFAULT_BUDGET, fail_fast=False,
                          trace_dir=Path(scratch) / game)
            print(f"honest {game:13} wall {got['wall']:6.1f} s  exit {got['exit']}", flush=True)
            out.append({"game": game, **got})
    return out


def table(rows: list[dict[str, Any]], budgets: list[float], default: float) -> str:
    """Return the kill rate per budget as a Markdown table."""
    total = len(rows)
    at_default = sum(1 for r in rows if r["budgets"][f"{default:g}"]["killed"])
    lines = ["| budget | rejected | kill rate | of the default's | runs measured |",
             "|---|---|---|---|---|"]
    for budget in budgets:
        key = f"{budget:g}"
        killed = sum(1 for r in rows if r["budgets"][key]["killed"])
        measured = sum(1 for r in rows if r["budgets"][key].get("measured"))
        name = f"{key} s" + (" (default)" if budget == default else "")
        share = f"{100 * killed / at_default:.0f}%" if at_default else "-"
        lines.append(f"| {name} | {killed}/{total} | {100 * killed / total:.0f}% | {share} | "
                     f"{measured} |")
    return "\n".join(lines)


def main() -> int:
    from rulespec.conformance.play.options import DEFAULT_BUDGET

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", type=float, nargs="+", default=[5, 15, 30, 60])
    parser.add_argument("--games", nargs="+", default=None)
    parser.add_argument("--every", action="store_true",
                        help="run every budget, also after an engine was rejected")
    parser.add_argument("--honest", action="store_true",
                        help="also time the default run of the served reference per game")
    parser.add_argument("--out", type=Path, default=None, help="write every figure as JSON")
    args = parser.parse_args()
    budgets = sorted({*args.budgets, DEFAULT_BUDGET})
    rows = kill_rates(budgets, args.games, args.every)
    doc: dict[str, Any] = {"default_budget": DEFAULT_BUDGET, "budgets": budgets, "engines": rows}
    if args.honest:
        doc["honest"] = honest(args.games)
    print()
    print(table(rows, budgets, DEFAULT_BUDGET))
    if args.out is not None:
        args.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
