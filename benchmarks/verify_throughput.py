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
from rulespec.verify.checks import StateChecks
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
    out["spend"] = spend(setup.engine(), entry.view, states)
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


def spend(engine: Any, view: Any, states: int) -> dict[str, Any]:
    """Return what a search of up to ``states`` states (merges checked) spends that no design of
    the verifier can skip: the actions it applies to engines (every transition, the moves of each
    merged state checked one step ahead, and the replays and random games of its set-up), and
    the CPU time its transition invariants take. Counted in a search of its own, since wrapping
    the engine's ``apply`` and the checks slows it; each check is timed by ``time.process_time``
    (CPU time, as the other figures)."""
    kind = type(engine)
    plain, checks = kind.apply, StateChecks.transition
    applies = calls = 0
    seconds = 0.0

    def counted(self: Any, action: Any) -> Any:
        nonlocal applies
        applies += 1
        return plain(self, action)

    def timed(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls, seconds
        started = time.process_time()
        try:
            return checks(self, *args, **kwargs)
        finally:
            seconds += time.process_time() - started
            calls += 1

    kind.apply = counted
    StateChecks.transition = timed  # type: ignore[method-assign]
    try:
        found = Explorer(engine, view=view, max_states=states).run().stats.states
    finally:
        kind.apply = plain
        StateChecks.transition = checks  # type: ignore[method-assign]
    return {"states": found, "applies": applies, "transition_checks": calls,
            "transition_check_seconds": seconds}


#: Runs ``measure`` of the version in a folder (``--before``) on configurations given as JSON.
_BEFORE = """
import json, sys
sys.path.insert(0, sys.argv[1] + "/benchmarks")
import verify_throughput as bench
import rulespec
assert rulespec.__file__.startswith(sys.argv[1]), rulespec.__file__
from rulespec.verify.published import Published
entries = json.loads(sys.stdin.read())
rows = [bench.measure(Published(**e), int(sys.argv[2]), int(sys.argv[3])) for e in entries]
print(json.dumps(rows))
"""


def measure_before(folder: Path, entries: list[Any], states: int, nodes: int) -> list[Any]:
    """Measure ``entries`` with the version checked out in ``folder`` (its own ``rulespec``
    and benchmark), in a fresh process."""
    import os
    import subprocess

    fields = [{"game": e.game, "players": e.players, "parameters": dict(e.parameters),
               "rulings": dict(e.rulings), "variants": list(e.variants), "view": list(e.view),
               "max_states": e.max_states} for e in entries]
    path = os.pathsep.join([str(folder), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    done = subprocess.run([sys.executable, "-c", _BEFORE, str(folder), str(states), str(nodes)],
                          input=json.dumps(fields), capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": path},
                          # `python -c` reads modules from its working folder first.
                          cwd=folder)
    rows: list[Any] = json.loads(done.stdout)
    return rows


def table(result: dict[str, Any]) -> str:
    """Return the markdown table of a run."""
    before = any("before" in r for r in result["rows"])
    lines = ["| configuration | "
             + ("verify before: states/s | " if before else "")
             + "verify: states/s (merges checked) | "
             + ("× before | " if before else "")
             + "transitions/s | verify: states/s (unchecked) | perft nodes/s (depth) | "
             "perft nodes/s ÷ verify transitions/s |",
             "|---|" + ("---:|" if before else "") + "---:|" + ("---:|" if before else "")
             + "---:|---:|---:|---:|"]
    for r in result["rows"]:
        c, u, p = r["verify_checked"], r["verify_unchecked"], r["perft"]
        old = r.get("before")
        lines.append(f"| {cell_of(r['command'], '../editors/verification.md')} | "
                     + (f"{old['verify_checked']['states_per_cpu_second']:,.0f} | "
                        if old else ("– | " if before else ""))
                     + f"{c['states_per_cpu_second']:,.0f} | "
                     + (f"{c['states_per_cpu_second'] / old['verify_checked']['states_per_cpu_second']:.2f} | "
                        if old else ("– | " if before else ""))
                     + f"{c['transitions_per_cpu_second']:,.0f} | {u['states_per_cpu_second']:,.0f} "
                     f"| {p['nodes_per_cpu_second']:,.0f} ({p['depth']}) | "
                     f"{p['nodes_per_cpu_second'] / u['transitions_per_cpu_second']:.1f} |")
    m = result["machine"]
    lines += ["", f"Measured {result['date']} on {m['cpu']}, CPython {m['python']}: up to "
              f"{result['states']:,} distinct states per search, perft to the deepest depth under "
              f"{result['nodes']:,} nodes; CPU time."
              + (f" {result['note']}" if result.get("note") else "")]
    return "\n".join(lines)


def budget(result: dict[str, Any]) -> str:
    """Return the table of two costs of a distinct state that a faster verifier still pays,
    beside what twenty times the earlier version's states per CPU second allows."""
    before = any("before" in r for r in result["rows"])
    header = ["game", "actions applied per state", "the engine: µs per state",
              "transition invariants: µs per state"]
    if before:
        header[1:1] = ["20× before: µs per state"]
        header.append("the two: × the 20× budget")
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(header) - 1)]
    for r in result["rows"]:
        used = r.get("spend")
        if not used:
            continue
        per_state = used["applies"] / used["states"]
        engine = per_state * 1e6 / r["perft"]["nodes_per_cpu_second"]
        checks = used["transition_check_seconds"] * 1e6 / used["states"]
        cells = [r["game"]]
        old = r.get("before")
        allowed = (1e6 / (20 * old["verify_checked"]["states_per_cpu_second"]) if old else None)
        if before:
            cells.append(f"{allowed:.1f}" if allowed else "–")
        cells += [f"{per_state:.2f}", f"{engine:.1f}", f"{checks:.1f}"]
        if before:
            cells.append(f"{(engine + checks) / allowed:.1f}" if allowed else "–")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def report(result: dict[str, Any]) -> str:
    """Return both tables: the throughput, then what a state costs that no verifier skips."""
    shown = budget(result)
    if shown.count("\n") < 2:  # a result of an earlier version: no spending measured
        return table(result)
    return (f"{table(result)}\n\nTwo costs of a distinct state that a faster verifier still pays "
            f"while it checks every transition: the engine's actions (at perft's µs per node) and "
            f"the transition invariants as evaluated today (CPU time, from a search of its own, "
            f"merges checked):\n\n{shown}")


def update_docs(result: dict[str, Any], page: Path = DOCS_PAGE) -> None:
    """Rewrite the table between the markers of the docs page."""
    write_section(page, report(result), begin=BEGIN, end=END)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=30_000, help="states per verify search")
    parser.add_argument("--nodes", type=int, default=300_000, help="perft node budget")
    parser.add_argument("--update-docs", action="store_true",
                        help=f"write {RESULT.relative_to(ROOT)} and the docs page's table")
    parser.add_argument("--note", help="a sentence about the run, shown under the table")
    parser.add_argument("--before", type=Path, metavar="DIR",
                        help="also measure the version checked out in DIR (git worktree add "
                             "DIR REV), in turn with this one, and show both")
    parser.add_argument("--games", nargs="*", help="only these games")
    args = parser.parse_args(argv)
    known = set(game_ids())
    # Each game's last published configuration: its largest.
    largest = {e.game: e for e in load_published() if e.game in known
               and (not args.games or e.game in args.games)}
    rows = []
    for entry in largest.values():
        print(f"measuring {entry.command()}", file=sys.stderr)
        row = measure(entry, args.states, args.nodes)
        if args.before is not None:
            # In turn (after, before), so that a machine that slows down slows both.
            row["before"] = measure_before(args.before, [entry], args.states, args.nodes)[0]
        rows.append(row)
    result = {"date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
              "machine": {"cpu": platform.processor() or platform.machine(),
                          "python": platform.python_version()},
              "states": args.states, "nodes": args.nodes, "note": args.note, "rows": rows}
    print(report(result))
    if args.update_docs:
        RESULT.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        update_docs(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
