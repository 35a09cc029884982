"""Progress of long kit runs: drawn on a terminal, silent off one (issue 11, part 6)."""

from __future__ import annotations

import io
from pathlib import Path

from click.testing import CliRunner
from rich.console import Console

from rulespec.cli import cli
from rulespec.conformance import InProcessAdapter, Options
from rulespec.conformance.play.progress import KitProgress
from rulespec.conformance.play.runner import Conformance, supported_configs


def test_progress_shows_configurations_steps_and_the_current_check() -> None:
    """On a terminal the display counts configurations done and steps checked, and names what
    is checked now (RR-SETUP-01's player counts, one configuration each)."""
    kit = Conformance(InProcessAdapter(), "ruby-rhino",
                      options=Options(examples=1, golden=False, perft_seconds=0,
                                      rule_examples=False))
    configs = supported_configs(kit.spec, players=[2, 3])
    seen: list[str] = []
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=200)
    with KitProgress("conform ruby-rhino", len(configs), lambda: kit.steps_checked,
                     console=console) as progress:
        kit.listener = progress
        real = progress.activity
        progress.activity = lambda text: (seen.append(text), real(text))[1]  # type: ignore[method-assign,func-returns-value]
        kit.run(configs)
        progress._progress.refresh()
        assert progress._done == 2
    text = out.getvalue()
    assert "2/2" in text and "configurations" in text and "steps checked" in text
    assert seen[:2] == ["ruby-rhino p2, defaults: first games",
                        "ruby-rhino p3, defaults: first games"]


def test_conform_off_a_terminal_prints_only_the_report(tmp_path: Path) -> None:
    """Off a terminal (a pipe, CliRunner) the kit draws nothing: the JSON report parses."""
    result = CliRunner().invoke(cli, ["conform", "--game", "ruby-rhino", "-n", "2",
                                       "--examples", "1", "--no-golden", "--format", "json",
                                       "--trace-dir", str(tmp_path), "--jobs", "1"])
    assert result.exit_code == 0, result.output
    import json

    assert json.loads(result.stdout)["ok"] is True
    assert "steps checked" not in result.output


def test_bench_records_each_goal_and_tells_each_row(monkeypatch: object) -> None:
    """conform-bench's figures carry issue 11's goal and whether it is met; each row is told
    as soon as it is measured, in the order printed."""
    import pytest

    from rulespec.conformance.play import bench as bench_module

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    rates = iter([12_000, 900, 1_500, 6_000])

    def measure(adapter: object, game: str, options: Options, on_start: object = None
                ) -> dict[str, object]:
        return {"steps": 1, "seconds": 1.0, "steps_per_second": next(rates), "ok": True}

    monkeypatch.setattr(bench_module, "_measure", measure)
    told: list[str] = []
    rows = bench_module.bench("fool", on_row=lambda g, p, r: told.append(p))
    assert told == list(bench_module.PATHS)
    assert rows["in-process/default"] == {"steps": 1, "seconds": 1.0, "steps_per_second": 12_000,
                                          "ok": True, "goal": 10_000, "meets_goal": True}
    assert "goal" not in rows["in-process/differential"]
    assert rows["in-process/full"]["meets_goal"] is False and rows["in-process/full"]["goal"] == 2_000
    assert rows["protocol/default"]["meets_goal"] is True
