"""The ``rulespec examples`` command: run a game's rule examples, list uncovered clauses."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from rulespec.examples.model import load_examples, rule_clauses, uncovered
from rulespec.examples.run import (
    as_trace,
    judge_witnesses,
    options_without_witness,
    run_examples,
)


@click.command("examples")
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--coverage", is_flag=True,
              help="List the rule clauses (not definitions or flavour) no example illustrates, "
                   "and the ambiguity options without a witness.")
@click.option("--witnesses", is_flag=True,
              help="Also run every witness under every option of its ambiguity.")
@click.option("--write-traces", type=click.Path(file_okay=False, path_type=Path),
              help="Write each example that holds as a trace (its actions, then its "
                   "expectations as expect lines) into this folder, for 'rulespec replay'.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
def examples(games: tuple[str, ...], coverage: bool, witnesses: bool, write_traces: Path | None,
             fmt: str) -> None:
    """Run the rule examples of GAMEs on the reference (default: every game).

    Each failure names the example, its clauses and the sentence of the expectation that did
    not hold; a game without examples is named with the file they go in. Exit 1 when an example
    fails or a game has none (or, with --coverage, when a rule clause has no example or an
    ambiguity option no witness; with --witnesses, when a witness does not tell its option
    apart).
    """
    from rulespec.spec.registry import all_specs, get_spec

    specs = [get_spec(g) for g in games] if games else list(all_specs())
    report: list[dict[str, Any]] = []
    failed = False
    for spec in specs:
        file = load_examples(spec)
        outcomes = run_examples(spec, file)
        entry: dict[str, Any] = {
            "game": spec.game_id, "file": str(file.path), "written": file.path.is_file(),
            "examples": len(outcomes), "passed": sum(o.ok for o in outcomes),
            "failures": [o.describe() for o in outcomes if not o.ok]}
        failed |= bool(entry["failures"]) or not outcomes
        if write_traces is not None:
            write_traces.mkdir(parents=True, exist_ok=True)
            for outcome in outcomes:
                if outcome.ok:
                    as_trace(spec, outcome).write(write_traces / f"{outcome.example.id}.jsonl")
        if coverage:
            rules = rule_clauses(spec)
            missing = uncovered(spec, file.examples)
            lonely = options_without_witness(spec, file)
            entry.update(rule_clauses=len(rules), illustrated=len(rules) - len(missing),
                         uncovered=missing,
                         options_without_witness=[f"{a}={o}" for a, o in lonely])
            failed |= bool(missing or lonely)
        if witnesses:
            verdicts = judge_witnesses(spec, file)
            entry["witnesses"] = len(verdicts)
            entry["not_distinguishing"] = [v.problem() for v in verdicts if not v.distinguishes]
            failed |= bool(entry["not_distinguishing"])
        report.append(entry)
    if fmt == "json":
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        for entry in report:
            _print(entry)
    sys.exit(1 if failed else 0)


def _print(entry: dict[str, Any]) -> None:
    if not entry["examples"]:
        where = "in" if entry["written"] else "yet; write them in"
        click.echo(f"{entry['game']}: no rule examples {where} {entry['file']} (see 'Writing "
                   "rule examples' in the docs)")
    else:
        click.echo(f"{entry['game']}: {entry['passed']}/{entry['examples']} examples hold")
    for line in entry["failures"]:
        click.echo(f"  FAIL {line}")
    if "rule_clauses" in entry:
        total = entry["rule_clauses"]
        pct = 100 * entry["illustrated"] // total if total else 100
        click.echo(f"  coverage: {entry['illustrated']}/{total} rule clauses illustrated ({pct}%)")
        for cid in entry["uncovered"]:
            click.echo(f"  no example: {cid}")
        for opt in entry["options_without_witness"]:
            click.echo(f"  no witness: {opt}")
    if "witnesses" in entry:
        bad = entry["not_distinguishing"]
        click.echo(f"  witnesses: {entry['witnesses'] - len(bad)}/{entry['witnesses']} "
                   "distinguish their option")
        for line in bad:
            click.echo(f"  WITNESS {line}")
