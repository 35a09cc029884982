"""The side-by-side playout benchmark (benchmarks/playouts.py) on a tiny budget, and the docs
page showing its committed result."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.support import benchmark_script


def test_tiny_run_prints_and_writes_every_contestant(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    playouts = benchmark_script("playouts")
    out = tmp_path / "result.json"
    assert playouts.main(["--seconds", "0.01", "--rounds", "1", "--json", str(out),
                          "--quiet"]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    names = [r["name"] for r in result["results"]]
    assert playouts.FLOOR in names
    assert "rulespec dado-de-ouro p4" in names and "rulespec ruby-rhino p2" in names
    if importlib.util.find_spec("pyspiel") is not None:
        assert {"openspiel python_kuhn_poker", "openspiel python_liars_poker"} <= set(names)
        ratio = result["ratios"]["rulespec dado-de-ouro p4"]["vs openspiel python_kuhn_poker"]
        speeds = {r["name"]: r["actions_per_s"] for r in result["results"]}
        assert ratio == round(speeds["rulespec dado-de-ouro p4"]
                              / speeds["openspiel python_kuhn_poker"], 2)
    for row in result["results"]:
        assert row["actions"] > 0 and row["games"] > 0 and row["cpu_seconds"] > 0
    assert result["machine"]["python"] and result["date"].endswith("UTC")
    printed = capsys.readouterr().out
    assert printed.startswith("| contestant | actions/s |") and "rulespec fool p4" in printed


def test_the_floor_plays_dado_de_ouro_with_the_spec_numbers() -> None:
    import random

    from rulespec.reference.core import make_config
    from rulespec.spec.registry import get_spec

    floor = benchmark_script("playouts").Floor()
    config = make_config(get_spec("dado-de-ouro"), players=4)
    assert floor.rounds == config.param("rounds_per_game")  # DDO-GAME-02
    assert floor.games_to_win == config.param("games_to_win")  # DDO-MATCH-01
    assert floor.faces == list(config.param("die_faces"))  # DDO-DIE-01
    # A match: at least games_to_win games of rounds_per_game rounds of one roll each.
    rolls = floor.play(random.Random(0))
    assert rolls >= floor.games_to_win * floor.rounds * floor.players


def test_the_docs_page_shows_the_committed_result() -> None:
    playouts = benchmark_script("playouts")
    result = json.loads(playouts.RESULT.read_text(encoding="utf-8"))
    page = playouts.DOCS_PAGE.read_text(encoding="utf-8")
    shown = page.split(playouts.BEGIN)[1].split(playouts.END)[0].strip()
    assert shown == playouts.table(result), "run benchmarks/playouts.py --update-docs"
    assert result["machine"]["cpu"] in shown and result["date"] in shown


def test_a_note_about_the_run_is_kept_and_shown_under_the_table() -> None:
    playouts = benchmark_script("playouts")
    result = json.loads(playouts.RESULT.read_text(encoding="utf-8"))
    result["note"] = "The machine was shared."
    assert playouts.table(result).endswith("interleaved. The machine was shared.")
    del result["note"]
    assert playouts.table(result).endswith("interleaved.")
