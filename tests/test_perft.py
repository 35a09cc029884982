"""Perft: exact tree counts of the reference engines, and their internal consistency."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

from rulespec.reference.core import CHANCE
from rulespec.reference.perft import MAX_DEPTH, divide, perft
from rulespec.reference.play import sample_chance
from rulespec.reference.registry import new_game
from rulespec.spec.registry import game_ids

GAMES = game_ids()


@pytest.mark.parametrize("game", GAMES)
def test_shallower_tables_are_prefixes_and_the_engine_is_untouched(game: str) -> None:
    """A depth-d table starts with the depth-(d-1) table; counting never changes the engine."""
    engine = new_game(game)
    before = engine.state()
    deep = perft(engine, 3).rows
    shallow = perft(engine, 2).rows
    assert [(r.nodes, r.weighted) for r in deep[:2]] == [(r.nodes, r.weighted) for r in shallow]
    assert deep[2].terminal is None and shallow[1].terminal is None
    assert engine.state() == before


@pytest.mark.parametrize("game", GAMES)
def test_divide_adds_up_to_perft(game: str) -> None:
    """The subtree counts under each first move add up to the whole tree's count."""
    engine = new_game(game)
    whole = perft(engine, 3).rows
    parts = list(divide(engine, 3))
    assert sum(r.rows[-1].nodes for _, _, r in parts) == whole[-1].nodes
    assert sum((p * r.rows[-1].weighted for _, p, r in parts), Fraction(0)) == whole[-1].weighted


def test_dado_de_ouro_opening_rolls_count_the_die_faces() -> None:
    """DDO-DIE-01, DDO-TURN-01: the first plies are rolls of the die, one outcome per face.

    The counts are powers of the number of faces the configuration's die has, and each
    depth's weighted count is exactly 1 while only chance moves.
    """
    for option in ("d6", "d8"):
        engine = new_game("dado-de-ouro", rulings={"DDO-AMB-01": option})
        faces = len(engine.config.param("die_faces"))
        rows = perft(engine, 3).rows
        assert [r.nodes for r in rows] == [faces, faces ** 2, faces ** 3], option
        assert all(r.weighted == 1 for r in rows), option


def test_weighted_count_sums_probabilities_at_chance_and_counts_at_players() -> None:
    """Player moves weigh one each, chance outcomes their exact probability."""
    engine = new_game("fool")  # the deal is chance, then players choose cards
    assert engine.current_player() == CHANCE
    chance = perft(engine, 1).rows[0]
    assert chance.nodes == len(engine.chance_outcomes()) and chance.weighted == 1
    rng = random.Random(1)
    while engine.current_player() == CHANCE:  # always the first outcome could tie forever
        engine.apply(sample_chance(engine, rng))
    assert engine.current_player() is not None
    rows = perft(engine, 1).rows
    assert rows[0].nodes == len(engine.legal_actions())
    assert rows[0].weighted == len(engine.legal_actions())


def test_depth_is_bounded() -> None:
    """A depth beyond the limit is refused with the limit in the message."""
    with pytest.raises(ValueError, match=str(MAX_DEPTH)):
        perft(new_game("fool"), MAX_DEPTH + 1)


@pytest.mark.parametrize("game", GAMES)
def test_committed_perft_tables_match_a_fresh_count(game: str) -> None:
    """The published perft tables are regenerated from the reference and must not drift."""
    from rulespec.conformance.play import perft_tables

    assert perft_tables.differences([game]) == []


@pytest.mark.parametrize("game", GAMES)
def test_the_perft_command_prints_the_published_counts(game: str) -> None:
    """`rulespec perft GAME --depth D --format json` gives the committed table's first D rows."""
    import json

    from click.testing import CliRunner

    from rulespec.cli import cli
    from rulespec.conformance.play import perft_tables

    published = perft_tables.load(game)
    assert published is not None
    table = published["defaults"][0]
    depth = min(4, table["depth"])
    out = CliRunner().invoke(cli, ["perft", game, "--depth", str(depth), "--format", "json"])
    assert out.exit_code == 0, out.output
    printed = json.loads(out.output)
    assert printed["config"] == table["config"]
    got = [(r["nodes"], r["weighted"]) for r in printed["rows"]]
    assert got == [(r["nodes"], r["weighted"]) for r in table["rows"][:depth]]


def test_perft_from_a_trace_counts_below_its_last_position(tmp_path: Path) -> None:
    """--from TRACE counts from the end of the trace, in the trace's configuration."""
    from dataclasses import replace

    from click.testing import CliRunner

    from rulespec.cli import cli
    from rulespec.reference.trace import read_trace
    from rulespec.spec.registry import golden_paths

    golden = read_trace(golden_paths("fool")[0])
    steps = golden.steps[:60]  # the deal is over by then: players choose cards
    trace = tmp_path / "game.jsonl"
    replace(golden, steps=steps, result=None).write(trace)
    engine = new_game("fool", **{"players": golden.config["players"],
                                 "rulings": golden.config["rulings"]})
    for step in steps:
        engine.apply(step.action)
    out = CliRunner().invoke(cli, ["perft", "--from", str(trace), "--depth", "1"])
    assert out.exit_code == 0, out.output
    assert "from the end of" in out.output
    assert f"{len(engine.legal_actions()):>14,}" in out.output


def test_perft_refuses_two_options_for_one_ambiguity() -> None:
    """One option per ambiguity: a repeated --ruling with another option is a usage error."""
    from click.testing import CliRunner

    from rulespec.cli import cli

    out = CliRunner().invoke(cli, ["perft", "dado-de-ouro", "-r", "DDO-AMB-01=d6",
                                   "-r", "DDO-AMB-01=d8"])
    assert out.exit_code == 2 and "twice" in out.output


# It generates every page of the site (13 s of one core): an integration test, as the other
# whole-site tests are, so the default run keeps its five minutes.
@pytest.mark.integration
def test_each_game_has_a_perft_page_with_its_published_counts() -> None:
    """The docs show every game's published perft tables, read from the committed file."""
    from rulespec.conformance.play import perft_tables
    from rulespec.docsgen.site import games_nav, site_pages
    from rulespec.spec.registry import get_spec

    specs = [get_spec(g) for g in GAMES]
    pages = {p.path: p.markdown for p in site_pages(specs, schema={}, cli=None)}
    for spec in specs:
        body = pages[f"games/{spec.game_id}/perft.md"]
        published = perft_tables.load(spec.game_id)
        assert published is not None
        for table in published["defaults"]:
            assert f"{table['rows'][-1]['nodes']:,}" in body
    nav = str(games_nav(specs))
    assert nav.count("perft.md") == len(specs)
