"""Dado de Ouro: the spec, scripted scenarios for every situation clause, and random matches.

Scenario tests drive the reference engine with chosen die faces and check the state, the
state schema and every invariant after each roll. Property tests play random matches under
every ruling set of ``ruling_sets`` and every variant via ``checked_game``.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.games.dado_de_ouro import DadoDeOuro
from rulespec.reference.core import ConfigError, IllegalAction, make_config
from rulespec.reference.play import check_probabilities, playout
from rulespec.reference.registry import check_implementation, new_game
from rulespec.spec.invariants import Invariants
from rulespec.spec.registry import get_spec
from rulespec.spec.validate import load_spec
from tests.games.clone_check import check_clones, never_changed
from tests.support import checked_game, ruling_sets

GAME = "dado-de-ouro"
SPEC = get_spec(GAME)
INVARIANTS = Invariants(SPEC)
VALIDATOR = jsonschema.Draft202012Validator(SPEC.state_schema)
#: Short matches keep the property tests fast while still reaching every phase.
SHORT = {"rounds_per_game": 2, "games_to_win": 2}


class Driver:
    """A reference game driven by scripted faces, checked after every roll."""

    def __init__(self, *, rulings: Mapping[str, str] | None = None,
                 parameters: Mapping[str, Any] | None = None,
                 engine: DadoDeOuro | None = None) -> None:
        if engine is None:
            made = new_game(GAME, rulings=rulings, parameters=parameters)
            assert isinstance(made, DadoDeOuro)
            engine = made
        self.engine = engine
        self.params = dict(engine.config.parameters)
        self.config = engine.config.to_json()
        self.prev = self.state
        self.violations: list[str] = []

    @property
    def state(self) -> dict[str, Any]:
        return self.engine.state()

    def roll(self, *faces: int) -> Driver:
        """Roll ``faces`` in turn, each by whoever is to roll; check every step."""
        for face in faces:
            roller = self.prev["roller"]
            action = {"kind": "roll", "player": roller, "face": face}
            self.engine.apply(action)
            state = self.state
            errors = list(VALIDATOR.iter_errors(state))
            assert not errors, f"state schema: {errors[0].message} at {list(errors[0].path)}"
            found = INVARIANTS.check(state, prev=self.prev, action=action, params=self.params,
                                     config=self.config)
            self.violations += [str(v) for v in found]
            self.prev = state
        return self

    def clean(self) -> Driver:
        """Fail if any invariant was violated so far."""
        assert not self.violations, "; ".join(self.violations)
        return self


def rulings(**changes: str) -> dict[str, str]:
    """Return the default rulings with some changed (keys like AMB_05='rotate-clockwise')."""
    out = SPEC.default_rulings()
    for key, option in changes.items():
        out["DDO-" + key.replace("_", "-")] = option
    return out


def open_with(starter: int, **kw: Any) -> Driver:
    """Start a match whose opening roll is won outright by ``starter``."""
    d = Driver(**kw)
    d.roll(*[6 if p == starter else 1 for p in range(4)])
    assert d.state["game_starter"] == starter
    return d


# -- the spec ----------------------------------------------------------------------------------


def test_spec_validates_with_sources(rulebooks: Path) -> None:
    """DDO-*: the spec passes schema, semantic and verbatim-quote checks against the rulebook."""
    spec = load_spec(SPEC.path, sources=rulebooks)
    assert spec.game_id == GAME
    assert len(spec.section("clauses")) >= 20
    assert len(spec.ambiguities) >= 8


def test_reference_implements_exactly_the_spec_options() -> None:
    """DDO-AMB-*: every behaviour option is in ENGINE.RULINGS and nothing more."""
    assert check_implementation(SPEC) == []


def test_numbers_come_from_the_spec() -> None:
    """DDO-GAME-02, DDO-MATCH-02, DDO-END-01, DDO-SCORE-01: printed numbers are the table's."""
    params = SPEC.default_parameters(4)
    assert (params["rounds_per_game"], params["games_to_win"], params["tiebreak_rolls"],
            params["starting_score"]) == (10, 3, 5, 0), "DDO printed numbers changed"
    assert params["die_faces"] == [1, 2, 3, 4, 5, 6], "DDO-AMB-01: default die is a d6"


def test_four_players_only() -> None:
    """DDO-PLAYERS-01: the game is for four players; other counts are a configuration error."""
    assert new_game(GAME).players == 4
    for n in (3, 5):
        with pytest.raises(ConfigError, match=f"is for 4 players, not {n}"):
            new_game(GAME, players=n)


def test_die_faces_need_two_values() -> None:
    """DDO-AMB-01: a die needs at least two faces (the schema says so)."""
    with pytest.raises(ConfigError, match="die_faces"):
        new_game(GAME, parameters={"die_faces": [3]})


# -- opening roll ------------------------------------------------------------------------------


def test_opening_roll_clockwise_and_highest_starts() -> None:
    """DDO-SETUP-01, DDO-SETUP-02: everybody rolls once clockwise; the highest starts the game."""
    d = Driver()
    assert d.state["phase"] == "opening"
    assert d.state["order"] == [0, 1, 2, 3], "DDO-SETUP-01: opening roll goes clockwise"
    d.roll(2, 5, 3, 1).clean()
    s = d.state
    assert s["game_starter"] == 1, "DDO-SETUP-02: the highest opening roll starts"
    assert s["phase"] == "round" and s["round"] == 1
    assert s["order"] == [1, 2, 3, 0], "DDO-ROUND-01: the starter rolls first, then clockwise"
    assert s["opening"] == [[2, 5, 3, 1]]


def test_opening_tie_rerolls_the_tied_players() -> None:
    """DDO-SETUP-02, DDO-AMB-06 reroll-tied: only the players tied for the highest roll again."""
    d = Driver().roll(6, 2, 6, 1)
    assert d.state["phase"] == "opening" and d.state["order"] == [0, 2]
    d.roll(3, 5).clean()
    assert d.state["game_starter"] == 2, "DDO-AMB-06: the re-roll's highest starts"
    assert d.state["opening"] == [[6, 2, 6, 1], [3, None, 5, None]]


def test_opening_tie_reroll_all() -> None:
    """DDO-AMB-06 reroll-all: a tied opening roll makes everybody roll again."""
    d = Driver(rulings=rulings(AMB_06="reroll-all")).roll(6, 2, 6, 1)
    assert d.state["order"] == [0, 1, 2, 3], "DDO-AMB-06 reroll-all: everybody rolls again"
    d.roll(1, 4, 2, 3).clean()
    assert d.state["game_starter"] == 1


def test_opening_tie_first_clockwise() -> None:
    """DDO-AMB-06 first-clockwise: the first of the tied players (in roll order) starts."""
    d = Driver(rulings=rulings(AMB_06="first-clockwise")).roll(2, 6, 1, 6).clean()
    assert d.state["game_starter"] == 1, "DDO-AMB-06 first-clockwise"
    assert d.state["phase"] == "round"


# -- rounds and scoring --------------------------------------------------------------------------


def test_round_ends_when_everybody_has_rolled() -> None:
    """DDO-ROUND-01, DDO-ROUND-02, DDO-SCORE-01: a round is one roll each, from the starter."""
    d = open_with(2)
    assert d.state["scores"] == [0, 0, 0, 0], "DDO-SCORE-01: every player starts on zero"
    d.roll(4, 3, 2)
    assert d.state["rounds_played"] == 0 and d.state["roller"] == 1, "DDO-ROUND-02"
    assert d.state["scores"] == [0, 0, 0, 0], "DDO-SCORE-02: no score before the round ends"
    d.roll(5).clean()
    assert d.state["rounds_played"] == 1 and d.state["round"] == 2


def test_highest_gains_and_lowest_loses_their_numbers() -> None:
    """DDO-SCORE-02, DDO-SCORE-03, DDO-SCORE-04, DDO-SCORE-05: highest five gains five; lowest
    two loses two (the printed examples)."""
    d = open_with(0).roll(5, 3, 2, 4).clean()
    assert d.state["scores"] == [5, 0, -2, 0], "DDO-SCORE-03 / DDO-SCORE-05 examples"
    last = d.state["last_round"]
    assert (last["gainer"], last["gain"], last["loser"], last["loss"]) == (0, 5, 2, 2)


def test_max_tie_winner_scores_the_originally_tied_value() -> None:
    """DDO-TIE-01, DDO-TIE-02: tied highest re-roll from the round's first roller; the winner
    gains the tied value, not the re-roll."""
    d = open_with(0).roll(6, 6, 2, 3)
    s = d.state
    assert s["phase"] == "max_tiebreak" and s["order"] == [0, 1], "DDO-TIE-01"
    assert s["tie"] == {"kind": "max", "value": 6, "players": [0, 1], "passes": []}
    assert s["scores"] == [0, 0, 0, 0], "DDO-SCORE-02: scores change only when the round ends"
    d.roll(2, 4).clean()
    assert d.state["scores"] == [0, 6, -2, 0], "DDO-TIE-02: winner gains the tied 6, not 4"
    assert d.state["last_round"]["max_passes"] == [[2, 4, None, None]]


def test_tiebreak_order_starts_with_the_first_roller_of_the_round() -> None:
    """DDO-TIE-01: the tied players re-roll starting with whoever rolled first in the round."""
    d = open_with(2).roll(1, 6, 3, 6)  # rolled by players 2, 3, 0, 1
    assert d.state["order"] == [3, 1], "DDO-TIE-01: clockwise from the round's first roller"
    d.roll(5, 2).clean()
    assert d.state["scores"] == [0, 0, -1, 6]


@pytest.mark.parametrize(("option", "order"), [("first-tied-clockwise", [3, 0]),
                                               ("nearest-tied", [0, 3])])
def test_tiebreak_start_when_the_round_first_roller_is_not_tied(option: str,
                                                               order: list[int]) -> None:
    """DDO-TIE-01, DDO-AMB-13: player 1 rolled first in the round and is not tied; players 3 (two
    seats clockwise) and 0 (one seat counter-clockwise) are. The re-roll starts with the first
    tied clockwise, or with the nearest either way; a tie-break that ties again keeps it."""
    d = open_with(1, rulings=rulings(AMB_13=option)).roll(2, 3, 5, 5)  # players 1, 2, 3, 0
    assert d.state["phase"] == "max_tiebreak" and d.state["order"] == order, f"DDO-AMB-13 {option}"
    d.roll(4, 4)
    assert d.state["order"] == order, f"DDO-TIE-03, DDO-AMB-13 {option}: the start stays"
    d.roll(6, 1).clean()
    assert d.state["scores"][order[0]] == 5 and d.state["scores"][1] == -2


def test_nearest_tied_breaks_an_equal_distance_clockwise() -> None:
    """DDO-AMB-13 nearest-tied: players 2 and 0 sit one seat either side of player 1, who rolled
    first; the clockwise one, player 2, re-rolls first, as under first-tied-clockwise."""
    d = open_with(1, rulings=rulings(AMB_13="nearest-tied")).roll(1, 5, 3, 5)
    assert d.state["order"] == [2, 0], "DDO-AMB-13 nearest-tied"
    d.roll(6, 2).clean()


def test_the_tiebreak_start_is_asked_only_when_the_first_roller_is_not_tied() -> None:
    """DDO-TIE-01, DDO-AMB-13: when the round's first roller is tied, the text says who re-rolls
    first and the ruling's decision point is not reached."""
    d = open_with(0).roll(6, 6, 2, 3)
    assert d.state["order"] == [0, 1] and d.engine.decisions["DDO-AMB-13"] == 0
    d = open_with(1).roll(2, 3, 5, 5)
    assert d.engine.decisions["DDO-AMB-13"] == 1


def test_max_tie_again_continues_among_the_still_tied() -> None:
    """DDO-TIE-03, DDO-AMB-08 still-tied-only: re-rolls go on until one player is highest."""
    d = open_with(0).roll(6, 6, 6, 1).roll(5, 5, 2)
    assert d.state["phase"] == "max_tiebreak" and d.state["order"] == [0, 1], "DDO-TIE-03"
    d.roll(3, 4).clean()
    assert d.state["scores"] == [0, 6, 0, -1]
    assert d.state["last_round"]["max_passes"] == [[5, 5, 2, None], [3, 4, None, None]]


def test_max_tie_again_all_tied_players_reroll() -> None:
    """DDO-TIE-03, DDO-AMB-08 all-tied-again: every originally tied player re-rolls."""
    d = open_with(0, rulings=rulings(AMB_08="all-tied-again")).roll(6, 6, 6, 1).roll(5, 5, 2)
    assert d.state["order"] == [0, 1, 2], "DDO-AMB-08 all-tied-again"
    d.roll(1, 2, 3).clean()
    assert d.state["scores"] == [0, 0, 6, -1]


def test_min_tie_loser_loses_the_originally_tied_value() -> None:
    """DDO-TIE-04, DDO-TIE-05, DDO-TIE-06: tied lowest re-roll; the lowest re-roll loses the tied value."""
    d = open_with(0).roll(5, 1, 1, 3)
    assert d.state["phase"] == "min_tiebreak" and d.state["order"] == [1, 2], "DDO-TIE-04"
    d.roll(3, 3)
    assert d.state["phase"] == "min_tiebreak", "DDO-TIE-06: tied again, roll again"
    d.roll(4, 2).clean()
    assert d.state["scores"] == [5, 0, -1, 0], "DDO-TIE-05: loser loses the tied 1, not 2"


def test_reroll_value_ruling() -> None:
    """DDO-AMB-12 reroll-value: the tie-break winner gains the re-roll's number instead."""
    d = open_with(0, rulings=rulings(AMB_12="reroll-value")).roll(6, 6, 2, 3).roll(2, 4).clean()
    assert d.state["scores"] == [0, 4, -2, 0], "DDO-AMB-12 reroll-value"


def test_both_ties_in_one_round_max_first() -> None:
    """DDO-TIE-01, DDO-TIE-04, DDO-AMB-03 max-first: both tie-breaks, the highest first."""
    d = open_with(0).roll(6, 6, 1, 1)
    assert d.state["phase"] == "max_tiebreak" and d.state["pending"] == ["min"]
    d.roll(4, 3)
    assert d.state["phase"] == "min_tiebreak" and d.state["order"] == [2, 3]
    assert d.state["gainer"] == 0 and d.state["scores"] == [0, 0, 0, 0]
    d.roll(2, 5).clean()
    assert d.state["scores"] == [6, 0, -1, 0]


def test_both_ties_in_one_round_min_first() -> None:
    """DDO-AMB-03 min-first: the tie for the lowest is broken first; same scoring."""
    d = open_with(0, rulings=rulings(AMB_03="min-first")).roll(6, 6, 1, 1)
    assert d.state["phase"] == "min_tiebreak" and d.state["pending"] == ["max"]
    d.roll(2, 5).roll(4, 3).clean()
    assert d.state["scores"] == [6, 0, -1, 0]


def test_all_equal_both_tiebreaks() -> None:
    """DDO-AMB-02 both-tiebreaks: everybody re-rolls for the highest, then for the lowest."""
    d = open_with(0).roll(3, 3, 3, 3)
    assert d.state["tie"]["kind"] == "max" and d.state["order"] == [0, 1, 2, 3]
    d.roll(1, 5, 2, 2)
    assert d.state["tie"]["kind"] == "min" and d.state["order"] == [0, 1, 2, 3]
    d.roll(4, 1, 2, 6).clean()
    assert d.state["scores"] == [0, 0, 0, 0], "player 1 gains 3 and loses 3"
    last = d.state["last_round"]
    assert (last["gainer"], last["gain"], last["loser"], last["loss"]) == (1, 3, 1, 3)


def test_all_equal_both_distinct() -> None:
    """DDO-AMB-02 both-distinct: whoever wins the re-roll for the highest sits out the re-roll
    for the lowest, so nobody both gains and loses in one round."""
    d = open_with(0, rulings=rulings(AMB_02="both-distinct")).roll(3, 3, 3, 3)
    d.roll(1, 5, 2, 2)
    assert d.state["tie"]["kind"] == "min" and d.state["order"] == [0, 2, 3], "DDO-AMB-02"
    d.roll(1, 4, 4).clean()
    assert d.state["scores"] == [-3, 3, 0, 0]
    last = d.state["last_round"]
    assert (last["gainer"], last["gain"], last["loser"], last["loss"]) == (1, 3, 0, 3)


def test_all_equal_both_distinct_min_first() -> None:
    """DDO-AMB-02 both-distinct, DDO-AMB-03 min-first: the loser of the first re-roll sits out
    the re-roll for the highest."""
    d = open_with(0, rulings=rulings(AMB_02="both-distinct", AMB_03="min-first"))
    d.roll(3, 3, 3, 3).roll(1, 5, 2, 2)
    assert d.state["tie"]["kind"] == "max" and d.state["order"] == [1, 2, 3], "DDO-AMB-03"
    d.roll(6, 1, 2).clean()
    assert d.state["scores"] == [-3, 3, 0, 0]


def test_all_equal_both_distinct_between_two_players() -> None:
    """DDO-AMB-02 both-distinct, DDO-AMB-07 round-scoring: two tied leaders roll the same in a
    tie-break round; the re-roll for the highest decides both ends, the other loses unrolled."""
    d = tied_game(rulings=rulings(AMB_02="both-distinct", AMB_07="round-scoring")).roll(2, 5)
    assert d.state["order"] == [1, 0]
    d.roll(3, 3)
    assert d.state["phase"] == "max_tiebreak" and d.state["order"] == [1, 0]
    d.roll(6, 1).clean()
    last = d.state["last_round"]
    assert (last["gainer"], last["loser"], last["loss"]) == (1, 0, 3), "DDO-AMB-02 both-distinct"
    assert last["min_passes"] == [] and d.state["final"]["totals"] == [-3, 3, None, None]


def test_all_equal_max_only() -> None:
    """DDO-AMB-02 max-only: only the tie for the highest is broken; nobody loses."""
    d = open_with(0, rulings=rulings(AMB_02="max-only")).roll(3, 3, 3, 3).roll(1, 5, 2, 2).clean()
    assert d.state["scores"] == [0, 3, 0, 0]
    assert d.state["phase"] == "round" and d.state["round"] == 2


def test_all_equal_void_round() -> None:
    """DDO-AMB-02 void-round: nobody scores and the round still counts."""
    d = open_with(0, rulings=rulings(AMB_02="void-round")).roll(3, 3, 3, 3).clean()
    assert d.state["scores"] == [0, 0, 0, 0] and d.state["rounds_played"] == 1
    assert d.state["last_round"]["gainer"] is None and d.state["last_round"]["loser"] is None


def test_scores_may_go_negative_or_stop_at_zero() -> None:
    """DDO-SCORE-04, DDO-AMB-09: negative-allowed keeps -2; floor-at-zero stops at zero."""
    d = open_with(0).roll(5, 3, 2, 4).clean()
    assert d.state["scores"][2] == -2, "DDO-AMB-09 negative-allowed"
    f = open_with(0, rulings=rulings(AMB_09="floor-at-zero")).roll(5, 3, 2, 4).clean()
    assert f.state["scores"] == [5, 0, 0, 0], "DDO-AMB-09 floor-at-zero"


@pytest.mark.parametrize(("option", "second"), [
    ("game-starter", 1), ("rotate-clockwise", 2), ("previous-round-winner", 3)])
def test_later_round_starter(option: str, second: int) -> None:
    """DDO-ROUND-01, DDO-AMB-04: who starts round 2 under each reading."""
    d = open_with(1, rulings=rulings(AMB_04=option)).roll(1, 2, 6, 3).clean()  # players 1,2,3,0
    assert d.state["round_starter"] == second, f"DDO-AMB-04 {option}"
    assert d.state["order"][0] == second


# -- games and the match ---------------------------------------------------------------------------


def test_game_has_the_configured_rounds_and_next_game_resets() -> None:
    """DDO-GAME-02, DDO-MATCH-01, DDO-SCORE-01, DDO-AMB-05 new-opening-roll."""
    d = open_with(0, parameters={"rounds_per_game": 2})
    d.roll(6, 1, 3, 4)
    assert d.state["game"] == 1 and d.state["round"] == 2
    d.roll(5, 2, 3, 4).clean()
    s = d.state
    assert s["game"] == 2 and s["phase"] == "opening", "DDO-MATCH-01: another game follows"
    assert s["history"] == [{"scores": [11, -3, 0, 0], "winner": 0, "rounds": 2, "starter": 0,
                             "tiebreak": None}], "DDO-GAME-02: most points after the rounds"
    assert s["scores"] == [0, 0, 0, 0], "DDO-SCORE-01: each game starts on zero"
    assert s["games_won"] == [1, 0, 0, 0]


@pytest.mark.parametrize(("option", "starter"), [
    ("first-starter", 1), ("rotate-clockwise", 2), ("previous-game-winner", 3)])
def test_later_game_starter(option: str, starter: int) -> None:
    """DDO-SETUP-02, DDO-AMB-05: who starts game 2 under the readings without a new opening roll."""
    d = open_with(1, rulings=rulings(AMB_05=option), parameters={"rounds_per_game": 1})
    d.roll(1, 2, 6, 3).clean()  # players 1, 2, 3, 0: player 3 wins the game
    s = d.state
    assert s["game"] == 2 and s["phase"] == "round" and s["opening"] == []
    assert s["game_starter"] == starter and s["order"][0] == starter, f"DDO-AMB-05 {option}"


def test_later_opening_roll_from_last_starter() -> None:
    """DDO-SETUP-01, DDO-AMB-11 last-starter: game 2's opening roll starts at game 1's starter."""
    d = open_with(2, rulings=rulings(AMB_11="last-starter"), parameters={"rounds_per_game": 1})
    d.roll(6, 1, 2, 3).clean()
    assert d.state["phase"] == "opening" and d.state["order"] == [2, 3, 0, 1], "DDO-AMB-11"
    e = open_with(2, parameters={"rounds_per_game": 1}).roll(6, 1, 2, 3).clean()
    assert e.state["order"] == [0, 1, 2, 3], "DDO-AMB-11 seat-zero"


def test_match_ends_at_the_games_to_win() -> None:
    """DDO-MATCH-02: the first player to win games_to_win games wins the match."""
    d = open_with(0, parameters={"rounds_per_game": 1, "games_to_win": 2})
    d.roll(6, 1, 2, 3)  # game 1: player 0
    d.roll(6, 1, 1, 1).roll(6, 1, 2, 3).clean()  # opening, then game 2: player 0 again
    s = d.state
    assert s["phase"] == "over" and s["to_move"] is None, "DDO-MATCH-02"
    assert s["result"] == {"scores": [2, 0, 0, 0], "ranking": [[0], [1, 2, 3]], "winners": [0],
                           "game_winners": [0, 0]}
    assert d.engine.legal_actions() == []


def test_single_game_variant() -> None:
    """DDO-MATCH-02, variant single-game: the first game won ends the match."""
    engine = new_game(GAME, variants=["single-game"])
    assert isinstance(engine, DadoDeOuro)
    d = Driver(engine=engine).roll(6, 1, 1, 1)
    for _ in range(10):
        d.roll(6, 1, 2, 3)
    d.clean()
    assert d.state["result"]["winners"] == [0]


# -- the end-of-game tie-break ----------------------------------------------------------------------


def tied_game(**kw: Any) -> Driver:
    """Return a match in which players 0 and 1 are tied on 6 after two rounds."""
    params = {"rounds_per_game": 2, **kw.pop("parameters", {})}
    d = open_with(0, parameters=params, **kw)
    d.roll(6, 5, 4, 3)  # 0 +6, 3 -3
    d.roll(4, 6, 5, 3)  # 1 +6, 3 -3
    return d


def test_end_of_game_tie_draw_then_five_rolls_each() -> None:
    """DDO-END-01, DDO-END-02, DDO-END-03: a draw decides the first roller, then five rolls
    each alternating clockwise; the highest total wins the game."""
    d = tied_game()
    s = d.state
    assert s["phase"] == "final_draw" and s["order"] == [0, 1], "DDO-END-03: draw among the tied"
    assert s["final"]["leaders"] == [0, 1]
    d.roll(2, 5)
    assert d.state["phase"] == "final_rolls" and d.state["order"] == [1, 0], "DDO-END-01"
    assert d.state["final"]["starter"] == 1
    for _ in range(4):
        d.roll(3, 4)  # player 1 then player 0
    assert d.state["final"]["passes_done"] == 4 and d.state["final"]["totals"] == [16, 12, None, None]
    d.roll(6, 1).clean()
    s = d.state
    assert s["game"] == 2 and s["history"][0]["winner"] == 1, "DDO-END-02: 18 beats 17"
    assert s["history"][0]["tiebreak"] == {"leaders": [0, 1], "repetitions": 1,
                                           "totals": [17, 18, None, None]}


def test_end_of_game_tie_repeats_with_the_same_starter() -> None:
    """DDO-END-04, DDO-AMB-10 same-starter: tied totals repeat the five rolls, no new draw."""
    d = tied_game().roll(2, 5)
    for _ in range(5):
        d.roll(3, 3)
    s = d.state
    assert s["phase"] == "final_rolls" and s["final"]["repetition"] == 2, "DDO-END-04"
    assert s["final"]["totals"] == [0, 0, None, None] and s["order"] == [1, 0]
    for _ in range(5):
        d.roll(2, 1)
    d.clean()
    assert d.state["history"][0]["winner"] == 1
    assert d.state["history"][0]["tiebreak"]["repetitions"] == 2


def test_end_of_game_tie_repeats_with_a_new_draw() -> None:
    """DDO-END-04, DDO-AMB-10 new-draw: the still-tied players draw again for the first roller."""
    d = tied_game(rulings=rulings(AMB_10="new-draw")).roll(2, 5)
    for _ in range(5):
        d.roll(3, 3)
    assert d.state["phase"] == "final_draw" and d.state["final"]["draw"] == [], "DDO-AMB-10"
    d.roll(6, 1).clean()
    assert d.state["final"]["starter"] == 0 and d.state["order"] == [0, 1]


def test_end_of_game_draw_tie_rerolls() -> None:
    """DDO-END-03, DDO-AMB-06 reroll-tied: a tied draw is rolled again by the tied."""
    d = tied_game().roll(4, 4)
    assert d.state["phase"] == "final_draw" and d.state["final"]["draw"] == [[4, 4, None, None]]
    d.roll(1, 2).clean()
    assert d.state["final"]["starter"] == 1


@pytest.mark.parametrize(("option", "order"), [("seat-zero", [0, 1]), ("last-starter", [1, 0])])
def test_end_of_game_draw_order(option: str, order: list[int]) -> None:
    """DDO-END-03, DDO-AMB-11: the draw goes clockwise from seat 0, or from the game's starter."""
    d = open_with(1, rulings=rulings(AMB_11=option), parameters={"rounds_per_game": 2})
    d.roll(6, 5, 3, 4)  # players 1, 2, 3, 0: player 1 +6, player 3 -3
    d.roll(5, 4, 3, 6).clean()  # player 0 +6, player 3 -3
    assert d.state["phase"] == "final_draw" and d.state["order"] == order, f"DDO-AMB-11 {option}"


@pytest.mark.parametrize(("faces", "starter"), [((1, 2, 3, 6), 0), ((1, 5, 3, 2), 1),
                                               ((4, 1, 6, 2), 0)])
def test_end_of_game_draw_by_every_player(faces: tuple[int, ...], starter: int) -> None:
    """DDO-END-03, DDO-AMB-14 all-players: every player draws; the highest draw fixes the seat the
    tie-break starts from, with the first tied player clockwise from it."""
    d = tied_game(rulings=rulings(AMB_14="all-players"))
    assert d.state["phase"] == "final_draw" and d.state["order"] == [0, 1, 2, 3], "DDO-AMB-14"
    d.roll(*faces).clean()
    assert d.state["final"]["draw"] == [list(faces)]
    assert d.state["final"]["starter"] == starter and d.state["order"][0] == starter


def test_end_of_game_draw_by_every_player_tied_on_top() -> None:
    """DDO-AMB-14 all-players, DDO-AMB-06 reroll-tied: the players tied on the highest draw,
    tied leaders or not, draw again."""
    d = tied_game(rulings=rulings(AMB_14="all-players")).roll(1, 2, 6, 6)
    assert d.state["phase"] == "final_draw" and d.state["order"] == [2, 3]
    d.roll(2, 5).clean()
    assert d.state["final"]["starter"] == 0, "player 3 drew highest: the first tied clockwise"


def test_end_of_game_round_scoring() -> None:
    """DDO-END-01, DDO-END-02, DDO-AMB-07 round-scoring: five tie-break rounds scored like rounds."""
    d = tied_game(rulings=rulings(AMB_07="round-scoring")).roll(2, 5)
    s = d.state
    assert s["phase"] == "round" and s["final"]["mode"] == "rounds" and s["order"] == [1, 0]
    d.roll(5, 2)  # player 1 +5, player 0 -2
    assert d.state["final"]["totals"] == [-2, 5, None, None]
    assert d.state["scores"] == [6, 6, 0, -6], "tie-break points are not game points"
    assert d.state["last_round"]["tiebreak"] is True
    d.roll(3, 3).roll(6, 1).roll(5, 2)  # all equal: both tie-breaks; player 1 +3, player 0 -3
    assert d.state["final"]["totals"] == [-5, 8, None, None]
    for _ in range(3):
        d.roll(1, 6)  # player 0 +6, player 1 -1
    d.clean()
    s = d.state
    assert s["game"] == 2 and s["history"][0]["winner"] == 0
    assert s["history"][0]["tiebreak"]["totals"] == [13, 5, None, None]


def test_end_of_game_needs_a_shared_top_score() -> None:
    """DDO-GAME-02, DDO-END-01: a tie below the top score needs no tie-break."""
    d = open_with(0, parameters={"rounds_per_game": 1}).roll(6, 3, 3, 1).clean()
    assert d.state["history"][0]["tiebreak"] is None and d.state["phase"] == "opening"


# -- the match's ranking ---------------------------------------------------------------------------


def two_won_match(**kw: Any) -> Driver:
    """Return a match to two won games of one round: player 0 wins games 1 and 3, player 1 game 2."""
    d = open_with(0, parameters={"rounds_per_game": 1, "games_to_win": 2}, **kw)
    d.roll(6, 2, 3, 4)  # game 1: player 0 +6
    d.roll(6, 1, 1, 1).roll(2, 6, 3, 4)  # game 2: player 1 +6
    d.roll(6, 1, 1, 1).roll(6, 2, 3, 4)  # game 3: player 0 +6
    return d.clean()


@pytest.mark.parametrize(("option", "places"), [("games-won", [[0], [1], [2, 3]]),
                                                ("winner-only", [[0], [1, 2, 3]])])
def test_match_ranking_below_the_winner(option: str, places: list[list[int]]) -> None:
    """DDO-MATCH-02, DDO-AMB-15: the winner is first; the others by games won, or all second."""
    d = two_won_match(rulings=rulings(AMB_15=option))
    result = d.state["result"]
    assert result["winners"] == [0] and result["scores"] == [2, 1, 0, 0]
    assert result["ranking"] == places, f"DDO-AMB-15 {option}"
    assert d.engine.decisions["DDO-AMB-15"] == 1, "asked once, when the match ends"


class _WinnerOnlyEngine(DadoDeOuro):
    """A broken engine: places the others equal whatever the ruling says."""

    def decide(self, ambiguity: str, option: str) -> bool:
        if ambiguity == "DDO-AMB-15":
            return option == "winner-only"
        return super().decide(ambiguity, option)


def test_invariants_catch_a_wrong_ranking() -> None:
    """DDO-MATCH-02: DDO-INV-MATCH-RANKING fails when the others are not placed by games won."""
    d = _broken(_WinnerOnlyEngine, rounds_per_game=1, games_to_win=2)
    d.roll(6, 1, 1, 1).roll(6, 2, 3, 4).roll(6, 1, 1, 1).roll(2, 6, 3, 4)
    d.roll(6, 1, 1, 1).roll(6, 2, 3, 4)
    assert d.state["result"]["ranking"] == [[0], [1, 2, 3]]
    assert any("DDO-INV-MATCH-RANKING" in v for v in d.violations), d.violations


# -- actions, chance, bad input ----------------------------------------------------------------------


def test_chance_outcomes_are_the_faces_with_equal_probability() -> None:
    """DDO-TURN-01, DDO-AMB-01: the roller's legal actions are the die faces, each 1/len(faces)."""
    for option, faces in (("d6", 6), ("d8", 8), ("d10", 10)):
        engine = new_game(GAME, rulings=rulings(AMB_01=option))
        outcomes = engine.chance_outcomes()
        assert [a for a, _ in outcomes] == engine.legal_actions()
        assert [a["face"] for a, _ in outcomes] == list(range(1, faces + 1)), f"DDO-AMB-01 {option}"
        assert all(p == Fraction(1, faces) for _, p in outcomes)
        assert check_probabilities(outcomes)
        assert engine.current_player() == "chance"


@pytest.mark.parametrize(("action", "words"), [
    ({"kind": "roll", "player": 1, "face": 3}, "player 0's turn"),
    ({"kind": "roll", "player": 0, "face": 7}, "not on the die"),
    ({"kind": "roll", "player": 0, "face": True}, "'face' is true, a boolean; the action schema"),
    ({"kind": "roll", "player": 0, "face": 3.0}, "'face' is 3.0, a decimal number; the action"),
    ({"kind": "roll", "player": 0}, "'face' is missing"),
    ({"kind": "roll", "player": 0, "face": 3, "die": 0}, "unknown key 'die'"),
    ({"kind": "bid", "player": 0, "face": 3}, "unknown action kind"),
    ("roll", "JSON object"),
])
def test_illegal_actions_are_rejected_and_change_nothing(action: Any, words: str) -> None:
    """DDO-TURN-01, DDO-DIE-01: a bad roll is rejected with the reason and the state is unchanged."""
    engine = new_game(GAME)
    before = engine.state()
    with pytest.raises(IllegalAction, match=words) as info:
        engine.apply(action)
    assert engine.state() == before, "DDO-TURN-01: a rejected action changes nothing"
    if isinstance(action, dict) and action.get("kind") == "roll":
        assert "DDO-" in str(info.value), "the rejection names the clause it breaks"


def test_roll_out_of_turn_in_a_tiebreak_names_the_tie_clause() -> None:
    """DDO-TIE-01: during a tie-break only the tied players roll, in order."""
    d = open_with(0).roll(6, 6, 2, 3)
    before = d.state
    with pytest.raises(IllegalAction, match="DDO-TIE-01"):
        d.engine.apply({"kind": "roll", "player": 2, "face": 4})
    assert d.state == before


def test_no_roll_after_the_match() -> None:
    """DDO-MATCH-02: once the match is over nothing is legal."""
    engine = new_game(GAME, variants=["single-game", "short-game"])
    for _ in playout(engine, random.Random(3)):
        pass
    before = engine.state()
    with pytest.raises(IllegalAction, match="over"):
        engine.apply({"kind": "roll", "player": 0, "face": 1})
    assert engine.state() == before and engine.is_terminal()


def test_determinism_and_clone_independence() -> None:
    """DDO-TURN-01: the same rolls give the same states; a clone does not share state."""
    a = new_game(GAME)
    b = new_game(GAME)
    rng = random.Random(11)
    for step in itertools.islice(playout(a, rng), 150):
        b.apply(step.action)
    assert a.state() == b.state()
    c = a.clone()
    snapshot = a.state()
    for _ in playout(c, random.Random(5)):
        pass
    assert a.state() == snapshot, "playing a clone changed the original"
    assert c.is_terminal() and not a.is_terminal()


def test_describe_narrates_the_roll_and_what_it_settled() -> None:
    """DDO-SCORE-02: narration says who rolled what, and the round's scoring when it ends."""
    d = open_with(0)
    d.roll(5, 3)
    assert d.engine.describe({"kind": "roll", "player": 1, "face": 3}, "chance") == "player 1 rolls 3"
    d.roll(2, 4)
    line = d.engine.describe({"kind": "roll", "player": 3, "face": 4}, "chance")
    assert line.startswith("player 3 rolls 4; round 1 scored: player 0 +5, player 2 -2"), line


def test_every_clause_is_cited_by_a_test() -> None:
    """DDO-*: every clause id of the spec is named in some test docstring of this file."""
    import ast

    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    cited = " ".join(ast.get_docstring(node) or "" for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))
    missing = [c["id"] for c in SPEC.section("clauses") if c["id"] not in cited]
    assert not missing, f"clauses no test cites: {missing}"


# -- the invariants can fail ----------------------------------------------------------------------------


class _ReRollValueEngine(DadoDeOuro):
    """A broken engine: gives the re-roll's value whatever the ruling says."""

    def decide(self, ambiguity: str, option: str) -> bool:
        if ambiguity == "DDO-AMB-12":
            return option == "reroll-value"
        return super().decide(ambiguity, option)


def _broken(cls: type[DadoDeOuro], **params: Any) -> Driver:
    config = make_config(SPEC, parameters=params or None)
    return Driver(engine=cls(SPEC, config))


def test_invariants_catch_a_wrong_tiebreak_value() -> None:
    """DDO-TIE-02: DDO-INV-GAINER-HIGHEST fails when the winner gets the re-roll's value."""
    d = _broken(_ReRollValueEngine).roll(6, 1, 1, 1).roll(6, 6, 2, 3).roll(2, 4)
    assert any("DDO-INV-GAINER-HIGHEST" in v for v in d.violations), d.violations


def test_invariants_catch_a_short_game_and_a_long_match() -> None:
    """DDO-GAME-02, DDO-MATCH-02: rounds and games counted wrongly are caught."""
    engine = new_game(GAME, parameters={"rounds_per_game": 2, "games_to_win": 1})
    assert isinstance(engine, DadoDeOuro)
    engine.rules = dataclasses.replace(engine.rules, rounds_per_game=1, games_to_win=2)
    d = Driver(engine=engine).roll(6, 1, 1, 1).roll(6, 1, 2, 3)
    assert any("DDO-INV-ROUNDS-PER-GAME" in v for v in d.violations), d.violations
    assert any("DDO-INV-MATCH-ONGOING" in v for v in d.violations), d.violations


# -- random matches under every ruling set and variant ----------------------------------------------------

RULING_SETS = ruling_sets(SPEC)


@pytest.mark.parametrize("index", range(len(RULING_SETS)))
@settings(max_examples=3)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_matches_keep_every_invariant(index: int, seed: int) -> None:
    """DDO-INV-*: random short matches under each ruling set keep the schema and every invariant."""
    engine = checked_game(GAME, seed=seed, rulings=RULING_SETS[index], parameters=SHORT)
    assert engine.is_terminal(), f"DDO-MATCH-02: match did not end under {RULING_SETS[index]}"


@pytest.mark.parametrize("variant", sorted(SPEC.variants))
@settings(max_examples=2)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_matches_under_each_variant(variant: str, seed: int) -> None:
    """DDO-INV-*: every variant plays to a valid end with every invariant kept."""
    engine = checked_game(GAME, seed=seed, variants=[variant])
    result = engine.result()
    assert result is not None and len(result["winners"]) == 1, f"variant {variant}: DDO-MATCH-02"


@settings(max_examples=2)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_full_matches(seed: int) -> None:
    """DDO-GAME-02, DDO-MATCH-02: a full default match has ten rounds a game and ends at three wins."""
    engine = checked_game(GAME, seed=seed)
    state = engine.state()
    assert max(state["games_won"]) == 3, "DDO-MATCH-02"
    assert all(g["rounds"] == 10 for g in state["history"]), "DDO-GAME-02"


CHOICES = {aid: [str(o["id"]) for o in a["options"]] for aid, a in SPEC.ambiguities.items()}


@settings(max_examples=10)
@given(data=st.data())
def test_random_rulings_on_a_tie_heavy_die(data: st.DataObject) -> None:
    """DDO-TIE-03, DDO-TIE-06, DDO-END-04: with a two-faced die ties and repeats are constant;
    any mix of rulings still keeps every invariant and ends the match."""
    chosen = {aid: data.draw(st.sampled_from(opts), label=aid) for aid, opts in CHOICES.items()}
    params = {"die_faces": [1, 2], "rounds_per_game": data.draw(st.integers(1, 3), label="rounds"),
              "games_to_win": 2, "tiebreak_rolls": data.draw(st.integers(1, 3), label="rolls")}
    seed = data.draw(st.integers(min_value=0, max_value=2**32 - 1), label="seed")
    engine = checked_game(GAME, seed=seed, rulings=chosen, parameters=params)
    assert engine.is_terminal(), f"DDO-END-04: match did not end under {chosen}"


@pytest.mark.parametrize(("option", "scores"), [("each-game", [0, 0, 0, 0]),
                                                ("carry-over", [11, -3, 0, 0])])
def test_points_across_the_games_of_a_match(option: str, scores: list[int]) -> None:
    """DDO-SCORE-01, DDO-MATCH-01 under DDO-AMB-16: the next game starts from zero, or from the
    points the last one ended with (every invariant checked at every roll)."""
    d = open_with(0, rulings=rulings(AMB_16=option), parameters={"rounds_per_game": 2})
    d.roll(6, 1, 3, 4)
    d.roll(5, 2, 3, 4).clean()
    s = d.state
    assert s["game"] == 2 and s["games_won"] == [1, 0, 0, 0], "DDO-GAME-02"
    assert s["scores"] == scores, f"DDO-AMB-16 {option}"
    d.roll(1, 6, 2, 3)  # game 2's opening roll: seat 1 starts
    d.roll(2, 6, 3, 4).clean()  # seats 1, 2, 3, 0: seat 2 gains 6, seat 1 loses 2
    assert d.state["scores"] == [scores[0], scores[1] - 2, scores[2] + 6, scores[3]], \
        f"DDO-AMB-16 {option}"


@pytest.mark.parametrize("rulings", [{}, {"DDO-AMB-02": "both-distinct", "DDO-AMB-07": "round-scoring",
                                          "DDO-AMB-10": "new-draw", "DDO-AMB-14": "all-players"}])
def test_clone_is_an_exact_independent_copy(rulings: dict[str, str]) -> None:
    """DDO-TURN-01, DDO-TIE-03, DDO-END-01, DDO-END-04: the engine's own ``clone`` equals
    ``copy.deepcopy`` after every roll of random matches (a two-faced die: ties, tie-breaks and
    end-of-game tie-breaks at most steps), plays on alike, and shares nothing a roll changes."""
    steps = check_clones(GAME, seeds=range(2), rulings=rulings, max_steps=120,
                         parameters={"die_faces": [1, 2], "rounds_per_game": 2,
                                     "games_to_win": 2, "tiebreak_rolls": 2})
    assert steps > 100


def test_clone_is_checked_on_every_attribute_play_changes() -> None:
    """DDO-TIE-03, DDO-TIE-06, DDO-SETUP-01, DDO-MATCH-01 under DDO-AMB-02 both-distinct and
    DDO-AMB-11 last-starter (DDO-AMB-05 new-opening-roll, the default): whole matches of two
    games on a two-faced die change every attribute of the engine that is not a constant table
    (``_apart``, set when everybody rolled the same number and the second tie-break leaves out
    whom the first settled; ``_opening_order``, the second game's opening roll starting from the
    first game's starter), and the clone is checked against the deep copy at every one of their
    steps."""
    changed: set[str] = set()
    steps = check_clones(GAME, seeds=range(3), rulings={"DDO-AMB-02": "both-distinct",
                                                        "DDO-AMB-11": "last-starter"},
                         parameters={"die_faces": [1, 2], "rounds_per_game": 3,
                                     "games_to_win": 2, "tiebreak_rolls": 2},
                         max_steps=300, play_out_every=50, changed=changed)
    # No configuration constant of its own: what the configuration fixes is in ``rules`` and
    # the other tables of SHARED.
    assert steps > 400
    assert never_changed(GAME, changed) == set()
