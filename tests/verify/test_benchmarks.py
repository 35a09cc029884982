"""The verify benchmarks on tiny budgets, the docs' committed figures, and (slow) every
published configuration verified again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec
from rulespec.verify.checks import StateChecks
from rulespec.verify.explore import Explorer
from rulespec.verify.published import BEGIN, END, Published, load_published
from rulespec.verify.report import rulings_json
from rulespec.verify.run import Bounds, Setup, verify_rulings
from tests.support import benchmark_script
from tests.verify.support import RHINO_HISTORY, RHINO_TINY

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "editors" / "verification.md"


def test_throughput_prints_verify_beside_perft(capsys: pytest.CaptureFixture[str]) -> None:
    throughput = benchmark_script("verify_throughput")
    assert throughput.main(["--states", "150", "--nodes", "300"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("| configuration | verify: states/s (merges checked)")
    assert "rulespec verify ruby-rhino" in printed and "rulespec verify dado-de-ouro" in printed
    assert "| game | actions applied per state | the engine: µs per state |" in printed


def test_the_budget_counts_every_action_and_every_transition_check() -> None:
    """Every transition applies an action and has its invariants checked; checking merges one
    step ahead applies more actions; the engine's ``apply`` and the checks are given back."""
    throughput = benchmark_script("verify_throughput")
    spec = get_spec("ruby-rhino")
    setup = Setup(spec, engine_class(spec), 2, {}, (), dict(RHINO_TINY))
    kind = engine_class(spec)
    plain, checks = kind.apply, StateChecks.transition
    stats = Explorer(setup.engine(), view=RHINO_HISTORY).run().stats
    used = throughput.spend(setup.engine(), RHINO_HISTORY, 10**6)
    assert kind.apply is plain and StateChecks.transition is checks
    assert used["states"] == stats.states
    assert used["transition_checks"] == stats.transitions
    assert used["transition_check_seconds"] > 0
    assert stats.merges_checked > stats.digests_reused
    unchecked = Explorer(setup.engine(), view=RHINO_HISTORY, check_merges=False).run().stats
    assert used["applies"] > unchecked.transitions + stats.merges_checked - stats.digests_reused


def test_the_budget_table_sets_the_two_costs_against_twenty_times_before() -> None:
    """A row measured against an earlier version shows the 20x budget per state and how many
    times the engine and the transition invariants alone exceed it."""
    throughput = benchmark_script("verify_throughput")
    row = {"game": "pig", "perft": {"nodes_per_cpu_second": 100_000.0},
           "spend": {"states": 1000, "applies": 4000, "transition_checks": 2500,
                     "transition_check_seconds": 0.05},
           "before": {"verify_checked": {"states_per_cpu_second": 2000.0}}}
    shown = throughput.budget({"rows": [row]}).splitlines()
    assert shown[0].startswith("| game | 20× before: µs per state |")
    # 25 µs allowed; 4 actions of 10 µs; 50 µs of checks per state: 3.6 times the budget.
    assert shown[2] == "| pig | 25.0 | 4.00 | 40.0 | 50.0 | 3.6 |"


def test_the_lab_interval_is_set_beside_the_exact_figure(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    """The tiny Ruby Rhino's exact win probability beside the lab's interval on 60 games."""
    spec = get_spec("ruby-rhino")
    setup = Setup(spec, engine_class(spec), 2, {}, (), dict(RHINO_TINY))
    run = verify_rulings(setup, Bounds(view=RHINO_HISTORY, cross_check=0), options=False)
    results = tmp_path / "verify.json"
    results.write_text(json.dumps([{"command": "tiny", **rulings_json(run)}]), encoding="utf-8")
    lab = benchmark_script("verify_lab")
    assert lab.main(["--games", "60", "--results", str(results)]) == 0
    printed = capsys.readouterr().out
    assert "| `tiny` | seat 0 wins (baseline) |" in printed
    assert "of 1 intervals contain the exact figure" in printed


def test_the_docs_page_has_the_published_tables() -> None:
    """docs/editors/verification.md shows a table for every game with a published
    configuration, written by rulespec verify --published --write-docs."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(BEGIN)[1].split(END)[0]
    for game in {e.game for e in load_published()}:
        assert f"### {game}" in section, game
    assert "| baseline" in section and "Measured" in section


def _proved(entry: Published) -> None:
    spec = get_spec(entry.game)
    run = verify_rulings(entry.setup(spec, engine_class(spec)), entry.bounds(),
                         options=entry.all_rulings)
    assert run.baseline.status == "proved", run.baseline.violations
    for option in run.options:
        if option.verification is not None:
            assert not option.verification.violations, (option.ambiguity, option.option)


@pytest.mark.slow
@pytest.mark.parametrize("entry", load_published(), ids=lambda e: e.command())
def test_every_published_configuration_is_proved(entry: Published) -> None:
    """Issue 32: each published configuration verifies, under every option it reaches."""
    if entry.game not in game_ids():
        pytest.skip(f"{entry.game} is not installed here (pip install -e examples/pig)")
    _proved(entry)
