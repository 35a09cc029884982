"""Declared coverage: the kit plays what an engine declares in hello, and nothing else."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.reports.report import render_text
from rulespec.reference.core import ConfigError


class TwoToFour(InProcessAdapter):
    """A Ruby Rhino engine for 2 to 4 players that refuses 5, as the protocol page allows."""

    def hello(self) -> Hello:
        base = super().hello()
        games = {g: {**info, "players": [2, 3, 4],
                     "parameters": {"target_score": {"minimum": 10, "maximum": 100}}}
                 for g, info in base.games.items()}
        return Hello(base.name, base.version, games, base.capabilities)

    def start(self, config: Mapping[str, Any]) -> None:
        if config.get("players") == 5:
            raise ConfigError("this engine plays 2 to 4 players")
        super().start(config)


def test_engine_declaring_two_to_four_players_is_conformant(tmp_path: Path) -> None:
    """RR-SETUP-02: an engine declaring 2-4 players of Ruby Rhino (refusing 5) is CONFORMANT;
    the 5-player configuration and golden traces are skipped, not failed."""
    report = check_engine(TwoToFour(), "ruby-rhino",
                          options=Options(examples=3, trace_dir=tmp_path, shrink_seconds=2))
    assert report.ok, [f.message for f in report.failures]
    skipped = [r for r in report.runs if r.skipped]
    assert [r.config["players"] for r in skipped] == [5]
    assert "2 to 4 players, not 5" in (skipped[0].skipped or "")
    text = render_text(report)
    assert "CONFORMANT under rulings" in text
    # One line for the counts alike, one for the count skipped, with why.
    assert "  ruby-rhino p2-p4, defaults ok each:" in text, text
    assert re.search(r"  ruby-rhino p5, defaults +skipped: the engine plays ruby-rhino with 2 "
                     "to 4", text), text


def test_parameters_outside_the_declared_range_are_skipped(tmp_path: Path) -> None:
    """--param: a parameter override the engine does not declare, or out of range, is skipped."""
    report = check_engine(TwoToFour(), "ruby-rhino", players=[2],
                          parameters={"target_score": 500},
                          options=Options(examples=2, trace_dir=tmp_path, golden=False))
    assert report.runs[0].skipped and "outside 10..100" in report.runs[0].skipped
    played = check_engine(TwoToFour(), "ruby-rhino", players=[2],
                          parameters={"target_score": 20},
                          options=Options(examples=2, trace_dir=tmp_path, golden=False))
    assert played.ok and played.runs[0].skipped is None
    assert played.runs[0].config["parameters"] == {"target_score": 20}


def test_every_configuration_is_reached_before_any_is_deepened() -> None:
    """Configurations are interleaved: PERFT of every one first, then a short stage visits
    every one, then each is deepened, so a bug only at the largest player count shows in the
    first seconds."""
    from rulespec.conformance.play.options import supported_configs
    from rulespec.conformance.play.runner import Conformance

    kit = Conformance(InProcessAdapter(), "ruby-rhino",
                      options=Options(examples=4, warmup_examples=1, golden=False))
    calls: list[tuple[int, str]] = []
    play_stage = kit._play_stage

    def recording(config: Mapping[str, Any], **kw: Any) -> Any:
        what = "perft" if kw.get("perft") else f"games {kw.get('salt', 0)}"
        calls.append((int(config["players"]), what))
        return play_stage(config, **kw)

    kit._play_stage = recording  # type: ignore[method-assign,assignment]
    report = kit.run(supported_configs(kit.spec, players=[2, 5]))
    assert calls == [(2, "perft"), (5, "perft"), (2, "games 0"), (5, "games 0"),
                     (2, "games 1"), (5, "games 1")]
    assert report.ok and [r.examples >= 4 for r in report.runs] == [True, True]


def test_with_a_budget_games_come_in_rounds_over_every_configuration() -> None:
    """--budget: after the first stage, the games come in rounds of ``ROUND`` per configuration,
    every configuration getting a round before any gets the next, so a budget spent early
    leaves no configuration with only its first games."""
    from rulespec.conformance.play.options import ROUND, schedule

    assert schedule(Options(examples=40)) == [(0, 3), (1, 37)]
    rounds = schedule(Options(examples=40, budget=30))
    assert rounds[0] == (0, 3) and all(n <= ROUND for _, n in rounds[1:])
    assert sum(n for _, n in rounds) == 40 and len({salt for salt, _ in rounds}) == len(rounds)


def test_pairwise_rows_cover_every_pair_and_start_with_the_first_choices() -> None:
    """A covering array: every option, and every pair of options of two ambiguities, appears."""
    from itertools import combinations, product

    from rulespec.conformance.play.coverage import pairwise

    choices = {"A": ["a1", "a2", "a3"], "B": ["b1", "b2"], "C": ["c1", "c2"], "D": ["d"]}
    rows = pairwise(choices)
    assert rows[0] == {"A": "a1", "B": "b1", "C": "c1", "D": "d"}
    for x, y in combinations("ABC", 2):
        for o, p in product(choices[x], choices[y]):
            assert any(r[x] == o and r[y] == p for r in rows), (x, o, y, p)
    assert len(rows) <= 8


def test_declared_options_are_all_played(tmp_path: Path) -> None:
    """check_engine(declared=True): every option the engine declares is played at least once,
    the defaults first, and each declared player count gets a configuration."""
    class Declares(TwoToFour):
        def hello(self) -> Hello:
            base = super().hello()
            info = dict(base.games["ruby-rhino"])
            info["rulings"] = {"RR-AMB-03": ["take-rhino-roll-again", "take-rhino"],
                               "RR-AMB-13": ["legend-marks", "matching-only"]}
            return Hello(base.name, base.version, {"ruby-rhino": info}, base.capabilities)

    report = check_engine(Declares(), "ruby-rhino", declared=True,
                          options=Options(examples=2, warmup_examples=0, trace_dir=tmp_path,
                                          golden=False))
    assert report.ok, [f.message for f in report.failures]
    played = [(r.config["players"], r.config["rulings"]["RR-AMB-03"],
               r.config["rulings"]["RR-AMB-13"]) for r in report.runs]
    assert {n for n, _, _ in played} == {2, 3, 4}
    assert played[0][1:] == ("take-rhino-roll-again", "legend-marks")
    assert {(a, b) for _, a, b in played} == {("take-rhino-roll-again", "legend-marks"),
                                              ("take-rhino-roll-again", "matching-only"),
                                              ("take-rhino", "legend-marks"),
                                              ("take-rhino", "matching-only")}
