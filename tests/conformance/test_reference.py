"""The kit accepts the reference of every game, in-process and through `rulespec serve`."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter, SubprocessAdapter, check_engine
from rulespec.conformance.reports.report import render
from rulespec.spec.registry import get_spec

from .corpus import playable_games
from .support import ROOT, quick, serve_command

GAMES = playable_games()


@pytest.mark.parametrize("game", GAMES)
def test_reference_is_conformant_in_process(game: str, tmp_path: Path) -> None:
    """Every check passes for the reference in-process, at the smallest and largest counts."""
    spec = get_spec(game)
    report = check_engine(InProcessAdapter(), game,
                          players=sorted({spec.min_players, spec.max_players}),
                          options=quick(tmp_path, golden=False))
    assert report.ok, render(report, "text")
    assert all(r.steps > 0 for r in report.runs)


@pytest.mark.parametrize("game", GAMES)
def test_reference_is_conformant_over_the_protocol(game: str, tmp_path: Path) -> None:
    """CI path: the kit checks `rulespec serve GAME` as a subprocess, golden traces included."""
    spec = get_spec(game)
    adapter = SubprocessAdapter(serve_command(game), timeout=30, cwd=str(ROOT))
    try:
        report = check_engine(adapter, game, players=[spec.min_players],
                              options=quick(tmp_path, examples=4))
    finally:
        adapter.close()
    assert report.ok, render(report, "text")
    assert report.golden, f"{game} has no golden traces to replay"
    assert adapter.proc is None


def test_reference_under_every_option_of_one_ambiguity(tmp_path: Path) -> None:
    """Conformance runs under the rulings asked for, and the report says which."""
    game = GAMES[0]
    spec = get_spec(game)
    amb, record = next(iter(spec.ambiguities.items()))
    for option in record["options"]:
        report = check_engine(InProcessAdapter(), game, players=[spec.min_players],
                              rulings={amb: str(option["id"])},
                              options=quick(tmp_path, examples=3, golden=False))
        assert report.ok, render(report, "text")
        assert f"{amb}={option['id']}" in render(report, "text")
