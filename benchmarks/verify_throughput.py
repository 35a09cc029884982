"""``rulespec verify``'s distinct states per second, side by side with perft's nodes per second.

On the same configurations (those of ``rulespec verify --published``, reduced through the
specs' parameters), from the start:

- verify: a breadth-first search of up to ``--states`` distinct states, every check made, with
  merges checked one step ahead and without (``--no-check-merges``): distinct states and
  transitions per CPU second;
- perft: the game tree from the start to the deepest depth that stays under ``--nodes``
  nodes, transpositions not merged and nothing checked: nodes per CPU second.

A perft node is one action applied to a copy of an engine; a verify transition is the same
plus the canonical state, its fingerprint, the transition invariants, and for a new state the
schema, the state invariants and the checks of its moves. The figures are CPU time
(``time.process_time``), so a busy machine's waiting is not counted.

Run::

    python benchmarks/verify_throughput.py                     # prints the table
    python benchmarks/verify_throughput.py --update-docs       # and docs/about/performance.md
"""

from __future__ import annotations

import argparse
import datetime
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

from rulespec.reference.perft import perft
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec
from rulespec.verify.explore import Explorer
from rulespec.verify.published import cell_of, load_published, write_section

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "benchmarks" / "results" / "verify-throughput.json"
DOCS_PAGE = ROOT / "docs" / "about" / "performance.md"
BEGIN, END = "<!-- verify-throughput:begin -->", "<!-- verify-throughput:end -->"


def measure(entry: Any, states: int, nodes: int) -> dict[str, Any]:
    """Measure one configuration both ways."""
    spec = get_spec(entry.game)
    setup = entry.setup(spec, engine_class(spec))
    out: dict[str, Any] = {"command": entry.command().replace(" --all-rulings", ""),
                           "game": entry.game}
    for checked in (True, False):
        explorer = Explorer(setup.engine(), view=entry.view, max_states=states,
                            check_merges=checked)
        ex = explorer.run()
        s = ex.stats
        out["verify_checked" if checked else "verify_unchecked"] = {
            "states": s.states, "transitions": s.transitions, "cpu_seconds": s.cpu_seconds,
            "states_per_cpu_second": s.states / s.cpu_seconds,
            "transitions_per_cpu_second": s.transitions / s.cpu_seconds}
    depth, result = 0, None
    for d in range(1, 13):
        started = time.process_time()
        counted = perft(setup.engine(), d)
        cpu = time.process_time() - started
        total = sum(r.nodes for r in counted.rows)
        result = {"depth": d, "nodes": total, "cpu_seconds": cpu,
                  "nodes_per_cpu_second": total / cpu if cpu else 0.0}
        depth = d
        if total * 4 > nodes:  # the next depth would pass the budget
            break
    out["perft"] = result
    out["perft_depth"] = depth
    return out


def table(result: dict[str, Any]) -> str:
    """Return the markdown table of a run."""
    lines = ["| configuration | verify: states/s (merges checked) | transitions/s | verify: "
             "states/s (unchecked) | perft nodes/s (depth) | perft nodes/s ÷ verify "
             "transitions/s |", "|---|---:|---:|---:|---:|---:|"]
    for r in result["rows"]:
        c, u, p = r["verify_checked"], r["verify_unchecked"], r["perft"]
        lines.append(f"| {cell_of(r['command'], '../editors/verification.md')} | "
                     f"{c['states_per_cpu_second']:,.0f} | "
                     f"{c['transitions_per_cpu_second']:,.0f} | {u['states_per_cpu_second']:,.0f} "
                     f"| {p['nodes_per_cpu_second']:,.0f} ({p['depth']}) | "
                     f"{p['nodes_per_cpu_second'] / u['transitions_per_cpu_second']:.1f} |")
    m = result["machine"]
    lines += ["", f"Measured {result['date']} on {m['cpu']}, CPython {m['python']}: up to "
              f"{result['states']:,} distinct states per search, perft to the deepest depth under "
              f"{result['nodes']:,} nodes; CPU time."
              + (f" {result['note']}" if result.get("note") else "")]
    return "\n".join(lines)


def update_docs(result: dict[str, Any], page: Path = DOCS_PAGE) -> None:
    """Rewrite the table between the markers of the docs page."""
    write_section(page, table(result), begin=BEGIN, end=END)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=30_000, help="states per verify search")
    parser.add_argument("--nodes", type=int, default=300_000, help="perft node budget")
    parser.add_argument("--update-docs", action="store_true",
                        help=f"write {RESULT.relative_to(ROOT)} and the docs page's table")
    parser.add_argument("--note", help="a sentence about the run, shown under the table")
    args = parser.parse_args(argv)
    known = set(game_ids())
    # Each game's last published configuration: its largest.
    largest = {e.game: e for e in load_published() if e.game in known}
    rows = []
    for entry in largest.values():
        print(f"measuring {entry.command()}", file=sys.stderr)
        rows.append(measure(entry, args.states, args.nodes))
    result = {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
              "machine": {"cpu": platform.processor() or platform.machine(),
                          "python": platform.python_version()},
              "states": args.states, "nodes": args.nodes, "note": args.note, "rows": rows}
    print(table(result))
    if args.update_docs:
        RESULT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        update_docs(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
