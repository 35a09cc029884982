"""The Curse of the Ruby Rhino: the spec, scripted scenarios per clause, and random games.

Scenarios drive the reference engine with chosen dice (chance actions) and check the clause
they name. Property tests play random games under every ruling set and player count, checking
the state schema and every invariant of the spec at every step.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.cli import main
from rulespec.reference.core import CHANCE, ConfigError, Engine, IllegalAction
from rulespec.reference.play import check_probabilities
from rulespec.reference.registry import check_implementation, new_game
from rulespec.spec.registry import get_spec
from rulespec.spec.validate import load_spec
from tests.games.clone_check import check_clones, never_changed
from tests.support import checked_game, ruling_sets

GAME = "ruby-rhino"
SPEC = get_spec(GAME)
RULING_SETS = ruling_sets(SPEC)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def game(players: int = 2, **rulings: str) -> Engine:
    """Start a game; keyword arguments are rulings with the ambiguity number as the key."""
    chosen = {f"RR-AMB-{key[1:]}": value for key, value in rulings.items()}
    return new_game(GAME, players=players, rulings=chosen)


def roll(engine: Engine, first: str, second: str) -> None:
    """Roll die 0 then die 1 with the faces given (two chance actions)."""
    engine.apply({"kind": "roll", "die": 0, "face": first})
    engine.apply({"kind": "roll", "die": 1, "face": second})


# -- the spec --------------------------------------------------------------------------------------


def test_spec_validates_against_the_rulebook(rulebooks: Path) -> None:
    """RR-*: every quote is verbatim in the rulebook and the sha256 matches."""
    spec = load_spec(Path(SPEC.path), sources=rulebooks)
    assert spec.game_id == GAME


def test_reference_implements_exactly_the_behaviour_options() -> None:
    """RR-AMB-*: every behaviour option is implemented by the engine, and no other."""
    assert check_implementation(SPEC) == [], "RR-AMB-*: spec and engine RULINGS disagree"


def test_register_has_every_gap_the_rulebook_leaves() -> None:
    """RR-AMB-*: the register holds at least eight records, each with a rationale."""
    ambiguities = SPEC.ambiguities
    assert len(ambiguities) >= 8
    for aid, record in ambiguities.items():
        assert record["default"]["rationale"], f"{aid}: a default needs its rationale"
        assert record["sources"], f"{aid}: a record quotes its sources"


def test_every_ruling_set_configures() -> None:
    """RR-AMB-01, RR-DICE-11: every face option has a legend row for every pair it can show."""
    for rulings in RULING_SETS:
        for players in range(SPEC.min_players, SPEC.max_players + 1):
            new_game(GAME, players=players, rulings=rulings)


def test_every_rule_clause_has_a_test() -> None:
    """RR-*: every clause that states a rule is cited by a test of this module."""
    source = Path(__file__).read_text(encoding="utf-8")
    cited = set(re.findall(r"RR-[A-Z]+-\d\d", source))
    untested = [str(c["id"]) for c in SPEC.section("clauses")
                if c.get("kind") in {"rule", "setup", "scoring", "end"} and c["id"] not in cited]
    assert untested == [], f"clauses without a test: {untested}"


# -- set-up ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "coins"), [(2, 8), (3, 6), (4, 5), (5, 4)])
def test_deal_by_player_count(players: int, coins: int) -> None:
    """RR-SETUP-01, RR-SETUP-02, RR-SETUP-03, RR-SETUP-04, RR-SETUP-05, RR-SETUP-06, RR-SETUP-07:
    coins by the table, the rest and the Rhino in the treasure chest."""
    state = game(players).state()
    assert state["coins"] == [coins] * players, "RR-SETUP-03, RR-SETUP-04, RR-SETUP-05, RR-SETUP-06: coins per player"
    assert state["chest"] == SPEC.by_id("components")["coin"]["count"] - coins * players, \
        "RR-SETUP-07: leftover coins go in the chest"
    assert state["rhino"] == "chest", "RR-SETUP-07: the Rhino starts in the chest"
    assert (state["to_move"], state["phase"], state["turn"], state["round"]) == \
        (CHANCE, "roll", 0, 1), "RR-TURN-01: player 0 rolls first"


def test_chance_outcomes_follow_the_dice_faces() -> None:
    """RR-COMP-02, RR-AMB-01: each die's outcomes are its face kinds with exact probabilities."""
    for option in SPEC.ambiguities["RR-AMB-01"]["options"]:
        engine = game(3, _01=option["id"])
        faces = option["parameters"]["dice_faces"]
        for die in (0, 1):
            outcomes = engine.chance_outcomes()
            assert check_probabilities(outcomes), f"RR-AMB-01 {option['id']}: sum to 1"
            assert engine.legal_actions() == [a for a, _ in outcomes]
            for action, p in outcomes:
                assert action["die"] == die
                assert p == Fraction(faces[die].count(action["face"]), len(faces[die])), \
                    f"RR-AMB-01 {option['id']}: probability of {action}"
            engine.apply({"kind": "roll", "die": die, "face": "closed_chest"})


# -- the dice roll table ---------------------------------------------------------------------------


def test_two_single_coins_collect_two_and_roll_again() -> None:
    """RR-DICE-01, RR-LEFT-01, RR-NOTE-01: 1 coin + 1 coin collects 2 from the left; roll again."""
    engine = game(3)
    roll(engine, "coin1", "coin1")
    state = engine.state()
    assert state["coins"] == [8, 4, 6], "RR-DICE-01: 2 coins from player 1 only"
    assert state["turn"] == 0 and state["dice"] == [None, None], "RR-NOTE-01: player 0 again"


def test_mixed_coins_collect_three_and_pass() -> None:
    """RR-DICE-02: 1 coin + 2 coins collects 3 from the left; no roll again."""
    engine = game(3)
    roll(engine, "coin2", "coin1")
    assert engine.state()["coins"] == [9, 3, 6], "RR-DICE-02: 3 coins from the left"
    assert engine.state()["turn"] == 1, "RR-DICE-02: the turn passes to the left"


def test_two_double_coins_collect_four_and_roll_again() -> None:
    """RR-DICE-03: 2 coins + 2 coins collects 4 from the left; roll again."""
    engine = game(4)
    roll(engine, "coin2", "coin2")
    assert engine.state()["coins"] == [9, 1, 5, 5], "RR-DICE-03: 4 coins from the left"
    assert engine.state()["turn"] == 0, "RR-DICE-03: roll again"


@pytest.mark.parametrize(("coin", "count"), [("coin1", 1), ("coin2", 2)])
def test_open_chest_collects_what_the_coin_die_shows(coin: str, count: int) -> None:
    """RR-DICE-04, RR-AMB-04 coin-die-decides: open chest + N coins takes N from the chest."""
    engine = game(2)
    roll(engine, "open_chest", coin)
    state = engine.state()
    assert (state["coins"][0], state["chest"]) == (8 + count, 4 - count), "RR-DICE-04"
    assert state["turn"] == 1, "RR-DICE-04: no roll again"


@pytest.mark.parametrize(("coin", "count"), [("coin1", 1), ("coin2", 2)])
def test_closed_chest_puts_what_the_coin_die_shows(coin: str, count: int) -> None:
    """RR-DICE-05: closed chest + N coins puts N of the roller's coins in the chest."""
    engine = game(4)
    roll(engine, coin, "closed_chest")
    state = engine.state()
    assert (state["coins"][0], state["chest"]) == (5 - count, count), "RR-DICE-05"


def test_player_chooses_the_chest_count() -> None:
    """RR-DICE-04, RR-AMB-04 player-chooses: the roller picks 1 or 2 whatever the coin face."""
    engine = game(2, _04="player-chooses")
    roll(engine, "open_chest", "coin1")
    assert engine.current_player() == 0 and engine.state()["phase"] == "choose"
    assert engine.legal_actions() == [{"kind": "choose_count", "count": 1},
                                      {"kind": "choose_count", "count": 2}]
    engine.apply({"kind": "choose_count", "count": 2})
    state = engine.state()
    assert (state["coins"][0], state["chest"], state["turn"]) == (10, 2, 1), \
        "RR-AMB-04 player-chooses: 2 coins taken despite the 1 coin face"


def test_chosen_count_that_cannot_be_met() -> None:
    """RR-DICE-05, RR-NOTE-03, RR-AMB-04 player-chooses: every count is offered; one that cannot
    be met falls under RR-AMB-06 (void-and-pass: nothing moves, the dice pass)."""
    engine = game(4, _04="player-chooses")
    roll(engine, "closed_chest", "closed_chest")  # player 0 puts all 5 in; rolls again
    roll(engine, "closed_chest", "coin1")
    assert engine.legal_actions() == [{"kind": "choose_count", "count": 1},
                                      {"kind": "choose_count", "count": 2}]
    engine.apply({"kind": "choose_count", "count": 2})
    state = engine.state()
    assert (state["coins"][0], state["chest"], state["turn"]) == (0, 5, 1), "RR-AMB-06 void"


def test_two_open_chests_take_the_whole_chest() -> None:
    """RR-DICE-06: two open chests collect every chest coin; roll again."""
    engine = game(2)
    roll(engine, "open_chest", "open_chest")
    state = engine.state()
    assert (state["coins"][0], state["chest"], state["turn"]) == (12, 0, 0), "RR-DICE-06"


def test_two_closed_chests_put_every_coin() -> None:
    """RR-DICE-07, RR-NOTE-02: two closed chests put all coins in; roll again, even with none."""
    engine = game(4)
    roll(engine, "closed_chest", "closed_chest")
    state = engine.state()
    assert (state["coins"][0], state["chest"], state["turn"]) == (0, 5, 0), "RR-DICE-07"
    assert state["to_move"] == CHANCE, "RR-NOTE-02: the player with no coins rolls again"


def test_open_and_closed_chest_roll_again() -> None:
    """RR-DICE-08, RR-AMB-13 legend-marks: open + closed chest does nothing but roll again."""
    engine = game(3)
    before = engine.state()
    roll(engine, "closed_chest", "open_chest")
    after = engine.state()
    assert after["coins"] == before["coins"] and after["turn"] == 0, "RR-DICE-08"


def test_open_and_closed_chest_pass_under_matching_only() -> None:
    """RR-NOTE-01, RR-AMB-13 matching-only: only matching dice give another turn."""
    engine = game(3, _13="matching-only")
    roll(engine, "open_chest", "closed_chest")
    assert engine.state()["turn"] == 1, "RR-AMB-13 matching-only: the turn passes"
    roll(engine, "coin1", "coin1")
    assert engine.state()["turn"] == 1, "RR-NOTE-01: matching dice still roll again"


@pytest.mark.parametrize(("coin", "count"), [("coin1", 1), ("coin2", 2)])
def test_rhino_with_coins_collects_and_takes_the_rhino(coin: str, count: int) -> None:
    """RR-DICE-09, RR-DICE-10, RR-RHINO-01: collect N from the left, take the Rhino from the chest."""
    engine = game(3)
    roll(engine, "rhino", coin)
    state = engine.state()
    assert state["coins"] == [6 + count, 6 - count, 6], "RR-DICE-09, RR-DICE-10: coins from the left"
    assert state["rhino"] == 0, "RR-RHINO-01: the Rhino moves in front of the roller"
    assert state["turn"] == 1, "RR-DICE-09, RR-DICE-10: no roll again"


def test_rhino_is_stolen_from_another_player() -> None:
    """RR-RHINO-01: "steal it from wherever it stands" - from the player who holds it."""
    engine = game(3)
    roll(engine, "rhino", "coin1")
    roll(engine, "rhino", "coin2")
    state = engine.state()
    assert state["rhino"] == 1, "RR-RHINO-01: player 1 stole the Rhino from player 0"
    assert state["coins"] == [7, 7, 4]


@pytest.mark.parametrize("option", ["take-rhino-only", "rhino-and-whole-chest", "rhino-and-one-coin",
                                    "roll-again"])
def test_rhino_with_a_chest_face(option: str) -> None:
    """RR-DICE-11, RR-AMB-02: the unprinted Rhino + chest rows, under each option."""
    engine = game(4, _02=option)
    roll(engine, "closed_chest", "closed_chest")  # player 0 puts all 5 coins in; rolls again
    before = engine.state()
    assert before["coins"] == [0, 5, 5, 5] and before["chest"] == 5 and before["turn"] == 0
    fork = engine.clone()
    roll(engine, "rhino", "open_chest")
    state = engine.state()
    if option == "take-rhino-only":
        assert state["history"] == [{"round": 1, "winner": 0, "coins_at_end": [0, 5, 5, 5],
                                     "reward": 5, "points": 5}], \
            "RR-AMB-02 take-rhino-only: a coinless player who takes the Rhino wins at once"
    elif option == "rhino-and-whole-chest":
        assert (state["coins"], state["chest"], state["rhino"]) == ([5, 5, 5, 5], 0, 0), \
            "RR-AMB-02 rhino-and-whole-chest: collect the chest, then take the Rhino"
    elif option == "rhino-and-one-coin":
        assert (state["coins"], state["chest"], state["rhino"], state["turn"]) == \
            ([1, 5, 5, 5], 4, 0, 1), "RR-AMB-02 rhino-and-one-coin: 1 coin, then the Rhino"
    else:
        assert (state["coins"], state["rhino"], state["turn"]) == ([0, 5, 5, 5], "chest", 0), \
            "RR-AMB-02 roll-again: nothing happens; the same player rolls again"
    roll(fork, "rhino", "closed_chest")
    state = fork.state()
    if option == "roll-again":
        assert (state["rhino"], state["turn"]) == ("chest", 0), "RR-AMB-02 roll-again"
    elif option == "rhino-and-one-coin":
        assert (state["round"], state["rhino"], state["turn"]) == (1, "chest", 1), \
            "RR-AMB-02 rhino-and-one-coin, RR-AMB-06 void-and-pass: 1 coin to put and none " \
            "held - the action cannot be completed, so the Rhino is not taken either"
    else:
        assert state["round"] == 2 and state["history"][0]["winner"] == 0, \
            f"RR-AMB-02 {option}: nothing to put; the coinless player takes the Rhino and wins"


@pytest.mark.parametrize("option", ["take-rhino-only", "rhino-and-whole-chest", "rhino-and-one-coin",
                                    "roll-again"])
def test_rhino_with_a_chest_face_is_a_decision_point_under_every_option(option: str) -> None:
    """RR-DICE-11, RR-AMB-02: the unprinted row is counted when rolled, even when it does not
    take the Rhino (roll-again), so the impact lab sees how often the question comes up."""
    engine = game(2, _02=option)
    assert engine.decisions["RR-AMB-02"] == 0
    roll(engine, "rhino", "open_chest")
    assert engine.decisions["RR-AMB-02"] == 1, f"RR-AMB-02 {option}: one roll, one decision"


def test_only_printed_rows_let_the_player_choose_a_count() -> None:
    """RR-DICE-04, RR-DICE-11, RR-AMB-04 player-chooses with RR-AMB-02 rhino-and-one-coin: the
    Rhino with a chest face moves its one coin; only the printed "1 or 2" rows ask for a count."""
    engine = game(2, _02="rhino-and-one-coin", _04="player-chooses")
    roll(engine, "rhino", "open_chest")
    state = engine.state()
    assert state["phase"] == "roll" and (state["coins"], state["chest"]) == ([9, 8], 3), \
        "RR-AMB-02 rhino-and-one-coin: no count is asked; one coin comes from the chest"
    roll(engine, "open_chest", "coin1")
    assert engine.state()["phase"] == "choose", "RR-DICE-04: the printed row asks for a count"


@pytest.mark.parametrize(("option", "rhino", "turn"), [
    ("take-rhino-roll-again", 0, 0), ("take-rhino", 0, 1), ("roll-again", "chest", 0)])
def test_rhino_with_rhino(option: str, rhino: Any, turn: int) -> None:
    """RR-DICE-11, RR-NOTE-01, RR-AMB-03: two Rhinos, possible when both dice carry one."""
    engine = game(3, _01="identical-five", _03=option)
    roll(engine, "rhino", "rhino")
    state = engine.state()
    assert (state["rhino"], state["turn"]) == (rhino, turn), f"RR-AMB-03 {option}"
    assert state["coins"] == [6, 6, 6]


# -- collecting from the left ----------------------------------------------------------------------


def _empty_the_left_player(engine: Engine) -> None:
    roll(engine, "coin2", "coin2")  # 3 players: player 0 takes 4 of player 1's 6, rolls again
    assert engine.state()["coins"] == [10, 2, 6]


def test_collecting_spills_over_to_the_next_player() -> None:
    """RR-LEFT-02, RR-AMB-05 spill-over: the rest comes from the next player to the left."""
    engine = game(3)
    _empty_the_left_player(engine)
    roll(engine, "coin2", "coin2")
    assert engine.state()["coins"] == [14, 0, 4], "RR-LEFT-02: 2 from player 1, 2 from player 2"


def test_collecting_skips_to_the_first_player_who_can_pay() -> None:
    """RR-LEFT-02, RR-AMB-05 skip-to-first-who-can: all 4 from player 2."""
    engine = game(3, _05="skip-to-first-who-can")
    _empty_the_left_player(engine)
    roll(engine, "coin2", "coin2")
    assert engine.state()["coins"] == [14, 2, 2], "RR-AMB-05 skip: player 1 keeps 2 coins"


def test_collecting_goes_round_the_table_but_never_from_yourself() -> None:
    """RR-LEFT-02: "and so on" - past several players, stopping before the roller."""
    engine = game(4)
    roll(engine, "coin2", "coin2")  # from player 1: [9, 1, 5, 5]
    roll(engine, "coin2", "coin2")  # 1 from player 1, 3 from player 2: [13, 0, 2, 5]
    roll(engine, "coin2", "coin2")  # 2 from player 2, 2 from player 3: [17, 0, 0, 3]
    assert engine.state()["coins"] == [17, 0, 0, 3], "RR-LEFT-02: spill over two players"


# -- actions that cannot be completed ------------------------------------------------------------


def _short_of_coins(rulings: dict[str, str]) -> Engine:
    engine = game(2, **rulings)
    roll(engine, "coin2", "coin2")  # player 1: 8 -> 4, again
    roll(engine, "coin2", "coin2")  # 4 -> 0, again
    assert engine.state()["coins"] == [16, 0]
    return engine


@pytest.mark.parametrize(("option", "coins", "turn"), [
    ("void-and-pass", [14, 2], 1),
    ("partial-and-pass", [16, 0], 1),
    ("partial-keep-roll-again", [16, 0], 0),
    ("void-keep-roll-again", [14, 2], 0),
])
def test_an_action_that_cannot_be_completed(option: str, coins: list[int], turn: int) -> None:
    """RR-NOTE-03, RR-AMB-06: too few coins to the left - none, or part, then pass or roll again."""
    engine = game(2, _06=option)
    roll(engine, "coin2", "coin2")  # player 1: 8 -> 4
    roll(engine, "coin1", "coin1")  # 4 -> 2
    assert engine.state()["coins"] == [14, 2] and engine.state()["turn"] == 0
    roll(engine, "coin2", "coin2")  # asks for 4, only 2 there
    state = engine.state()
    assert state["coins"] == coins, f"RR-AMB-06 {option}: coins moved"
    assert state["turn"] == turn, f"RR-AMB-06 {option}: who rolls next"


def test_rhino_row_that_cannot_be_completed_takes_nothing() -> None:
    """RR-NOTE-03, RR-AMB-06 void-and-pass: no coins to the left, so no Rhino either."""
    engine = _short_of_coins({})
    roll(engine, "rhino", "coin1")
    state = engine.state()
    assert state["rhino"] == "chest" and state["turn"] == 1, "RR-AMB-06 void: the dice pass"


def test_rhino_row_voided_keeps_only_a_roll_again_of_matching_dice() -> None:
    """RR-NOTE-03, RR-NOTE-01, RR-AMB-06 void-keep-roll-again: nothing is done, and a Rhino row
    has no Roll again, so the dice pass (two matching faces keep them: the test above)."""
    engine = _short_of_coins({"_06": "void-keep-roll-again"})
    roll(engine, "rhino", "coin1")
    state = engine.state()
    assert (state["rhino"], state["coins"], state["turn"]) == ("chest", [16, 0], 1), \
        "RR-AMB-06 void-keep-roll-again: no Rhino, no coins; no Roll again, so the dice pass"


def test_rhino_row_done_in_part_takes_the_rhino() -> None:
    """RR-NOTE-03, RR-AMB-06 partial-and-pass: no coins collected but the Rhino is taken."""
    engine = _short_of_coins({"_06": "partial-and-pass"})
    roll(engine, "rhino", "coin1")
    state = engine.state()
    assert state["rhino"] == 0 and state["coins"] == [16, 0] and state["turn"] == 1


def test_collecting_from_an_empty_chest() -> None:
    """RR-DICE-04, RR-NOTE-03: four players start with an empty chest; nothing to collect."""
    engine = game(4)
    roll(engine, "open_chest", "coin2")
    state = engine.state()
    assert (state["coins"][0], state["chest"], state["turn"]) == (5, 0, 1)


def test_putting_with_too_few_coins() -> None:
    """RR-DICE-05, RR-AMB-06: 1 coin left and 2 to put - none (void) or the 1 (partial)."""
    for option, coins in (("void-and-pass", 1), ("partial-and-pass", 0)):
        engine = game(2, _06=option)
        roll(engine, "coin1", "closed_chest")  # player 0: 8 -> 7
        for _ in range(3):
            roll(engine, "coin1", "closed_chest")  # player 1 puts 1
            roll(engine, "coin2", "closed_chest")  # player 0 puts 2
        assert engine.state()["coins"][0] == 1
        roll(engine, "coin1", "closed_chest")  # player 1
        roll(engine, "coin2", "closed_chest")  # player 0 asks to put 2 with 1 coin
        assert engine.state()["coins"][0] == coins, f"RR-AMB-06 {option}"


@pytest.mark.parametrize(("option", "turn"), [
    ("nothing-to-move-is-complete", 0), ("nothing-to-move-cannot-complete", 1)])
def test_all_of_nothing(option: str, turn: int) -> None:
    """RR-DICE-06, RR-AMB-07: two open chests and an empty chest - done (roll again) or passed."""
    engine = game(4, _07=option)
    roll(engine, "open_chest", "open_chest")
    assert engine.state()["turn"] == turn, f"RR-AMB-07 {option}"


# -- ending a round ---------------------------------------------------------------------------------


def _to_the_brink(rulings: dict[str, str], players: int = 2) -> Engine:
    """Two players: player 0 takes the Rhino, sheds down to 4 coins; the chest holds 6."""
    engine = game(players, **rulings)
    roll(engine, "rhino", "coin1")  # p0 9, p1 7, Rhino p0
    roll(engine, "coin2", "coin1")  # p1 collects 3 from p0: p0 6, p1 10
    roll(engine, "closed_chest", "coin2")  # p0 puts 2: p0 4, chest 6
    state = engine.state()
    assert state["coins"] == [4, 10] and state["chest"] == 6 and state["turn"] == 1
    return engine


def test_round_ends_during_another_players_turn() -> None:
    """RR-ROUND-01, RR-ROUND-02, RR-ROUND-03, RR-ROUND-04, RR-SETUP-09: player 1 empties the
    Rhino holder, who wins the chest and scores it."""
    engine = _to_the_brink({})
    roll(engine, "coin2", "coin2")  # player 1 collects p0's last 4 coins
    state = engine.state()
    assert state["history"] == [{"round": 1, "winner": 0, "coins_at_end": [0, 14],
                                 "reward": 6, "points": 6}], \
        "RR-ROUND-01, RR-ROUND-02: player 0 broke the curse on player 1's turn; RR-ROUND-03, RR-ROUND-04: 6 points"
    assert state["scores"] == [6, 0], "RR-ROUND-04, RR-SETUP-09: the total is written down"


def test_new_round_is_dealt_as_before() -> None:
    """RR-ROUND-05, RR-AMB-12 back-to-chest, RR-AMB-11 continue-order: a fresh deal."""
    engine = _to_the_brink({})
    roll(engine, "coin2", "coin2")
    state = engine.state()
    assert (state["round"], state["coins"], state["chest"], state["rhino"]) == \
        (2, [8, 8], 4, "chest"), "RR-ROUND-05: coins redistributed, the rest and the Rhino back"
    assert (state["turn"], state["starter"], state["to_move"]) == (0, 0, CHANCE), \
        "RR-AMB-11 continue-order: the player left of player 1 rolls"


def test_winner_keeps_the_rhino() -> None:
    """RR-AMB-12 winner-keeps: the round winner starts the next round holding the Rhino."""
    engine = _to_the_brink({"_12": "winner-keeps"})
    roll(engine, "coin2", "coin2")
    assert engine.state()["rhino"] == 0, "RR-AMB-12 winner-keeps"


def test_round_ends_on_the_holders_own_turn() -> None:
    """RR-ROUND-01, RR-DICE-07: putting every coin in while holding the Rhino ends the round."""
    engine = _to_the_brink({})
    roll(engine, "coin1", "closed_chest")  # player 1 puts 1: chest 7
    roll(engine, "closed_chest", "closed_chest")  # player 0 puts 4: chest 11, holds only the Rhino
    state = engine.state()
    assert state["history"][0]["winner"] == 0 and state["history"][0]["reward"] == 11
    assert state["scores"] == [11, 0], "RR-ROUND-03, RR-ROUND-04: the chest's 11 coins"


def test_others_coins_scoring() -> None:
    """RR-ROUND-04, RR-AMB-09 others-coins: the winner scores the coins the others hold."""
    engine = _to_the_brink({"_09": "others-coins"})
    roll(engine, "coin2", "coin2")
    assert engine.state()["scores"] == [14, 0], "RR-AMB-09 others-coins: player 1's 14 coins"


@pytest.mark.parametrize("option", ["after-action", "each-step", "each-step-rhino-first"])
def test_round_end_checked_after_the_action_or_each_step(option: str) -> None:
    """RR-ROUND-01, RR-ROUND-02, RR-DICE-09, RR-AMB-08: a Rhino row collects the holder's last coin."""
    engine = _to_the_brink({"_08": option})
    roll(engine, "coin1", "coin2")  # p1 collects 3: p0 1, p1 13; turn p0
    roll(engine, "open_chest", "coin1")  # p0 collects 1 from the chest: p0 2, chest 5
    roll(engine, "coin1", "closed_chest")  # p1 puts 1: p1 12, chest 6
    roll(engine, "coin1", "closed_chest")  # p0 puts 1: p0 1, chest 7
    assert engine.state()["coins"] == [1, 12] and engine.state()["rhino"] == 0
    roll(engine, "rhino", "coin1")  # p1 collects p0's last coin, then takes the Rhino
    state = engine.state()
    if option != "each-step":
        assert (state["round"], state["rhino"], state["coins"]) == (1, 1, [0, 13]), \
            f"RR-AMB-08 {option}: the roller ends with the Rhino and coins; no round end " \
            "(taken first, the Rhino has left player 0 before their last coin goes)"
    else:
        assert state["round"] == 2 and state["history"][0]["winner"] == 0, \
            "RR-AMB-08 each-step: the holder's last coin ends the round before the Rhino moves"
        assert state["history"][0]["coins_at_end"] == [0, 13]


@pytest.mark.parametrize(("option", "round_", "winner"), [
    ("after-action", 1, None), ("each-step", 2, 1), ("each-step-rhino-first", 2, 0)])
def test_a_coinless_roller_takes_the_rhino_first_or_last(option: str, round_: int,
                                                         winner: int | None) -> None:
    """RR-DICE-09, RR-RHINO-01, RR-ROUND-01, RR-AMB-08: a roller without coins rolls the Rhino
    with 1 coin while the holder has one coin left."""
    engine = game(2, _08=option)
    for first, second in (("coin1", "coin2"), ("rhino", "coin2"), ("coin2", "coin2"),
                          ("coin1", "coin1"), ("closed_chest", "closed_chest")):
        roll(engine, first, second)
    before = engine.state()
    assert (before["coins"], before["rhino"], before["turn"]) == ([0, 1], 1, 0)
    roll(engine, "rhino", "coin1")
    state = engine.state()
    assert state["round"] == round_, f"RR-AMB-08 {option}: does the round end"
    if winner is None:
        assert (state["rhino"], state["coins"]) == (0, [1, 0]), \
            "RR-AMB-08 after-action: player 0 collects the coin and takes the Rhino"
    else:
        assert state["history"][0]["winner"] == winner, f"RR-AMB-08 {option}: who broke the curse"


def _first_round_won_by_player_2(rulings: dict[str, str], first: int) -> Engine:
    """Three players; player 2 takes the Rhino and puts every coin in on their own turn."""
    engine = game(3, **rulings)
    if first != 0:
        engine.apply({"kind": "first_player", "player": first})
    order = [(first + k) % 3 for k in range(6)]
    for player in order:
        if player == 2 and engine.state()["rhino"] != 2:
            roll(engine, "rhino", "coin1")
        elif player == 2:
            roll(engine, "closed_chest", "closed_chest")
            break
        else:
            roll(engine, "coin1", "closed_chest")
    assert engine.state()["round"] == 2 and engine.state()["history"][0]["winner"] == 2
    return engine


@pytest.mark.parametrize(("option", "first", "starter"), [
    ("continue-order", 0, 0), ("round-winner", 0, 2), ("same-first-player", 0, 0),
    ("next-starter", 0, 1), ("continue-order", 1, 0), ("same-first-player", 1, 1),
    ("next-starter", 1, 2), ("continue-with-roll-again", 0, 2),
    ("continue-with-roll-again", 1, 2)])
def test_who_starts_the_next_round(option: str, first: int, starter: int) -> None:
    """RR-ROUND-05, RR-AMB-11: the first roller of round 2 under each option."""
    rulings = {"_11": option}
    if first:
        rulings["_10"] = "random-first-player"
    engine = _first_round_won_by_player_2(rulings, first)
    state = engine.state()
    assert (state["starter"], state["turn"]) == (starter, starter), f"RR-AMB-11 {option}"


@pytest.mark.parametrize(("option", "matching", "starter"), [
    ("continue-order", True, 0), ("continue-with-roll-again", True, 1),
    ("continue-order", False, 1), ("continue-with-roll-again", False, 1)])
def test_a_roll_again_owed_when_the_round_ends(option: str, matching: bool,
                                               starter: int) -> None:
    """RR-ROUND-02, RR-NOTE-01, RR-AMB-11: the roll that ends the round gives another turn
    (two 2 coins by player 1 on player 0's last coins) or not (player 0 puts their last coin)."""
    engine = _to_the_brink({"_11": option})
    if matching:
        roll(engine, "coin2", "coin2")  # p1 collects p0's last 4 coins: p0 wins, Roll again
    else:
        roll(engine, "coin1", "coin2")  # p1 collects 3: p0 1
        roll(engine, "closed_chest", "coin1")  # p0 puts the last one in: wins, no Roll again
    state = engine.state()
    assert state["round"] == 2 and state["history"][0]["winner"] == 0
    assert (state["starter"], state["turn"]) == (starter, starter), f"RR-AMB-11 {option}"


def test_random_first_player_is_a_chance_draw() -> None:
    """RR-TURN-01, RR-AMB-10 random-first-player: a uniform chance draw picks who goes first."""
    engine = game(4, _10="random-first-player")
    assert engine.state()["phase"] == "first_player" and engine.current_player() == CHANCE
    outcomes = engine.chance_outcomes()
    assert [a["player"] for a, _ in outcomes] == [0, 1, 2, 3]
    assert all(p == Fraction(1, 4) for _, p in outcomes)
    engine.apply({"kind": "first_player", "player": 2})
    assert (engine.state()["turn"], engine.state()["starter"]) == (2, 2)
    roll(engine, "coin1", "coin2")
    assert engine.state()["coins"] == [5, 5, 8, 2], "RR-TURN-01: player 2 collects from 3"


# -- ending the game ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("option", "ranking"), [
    ("by-score", [[2], [1], [0]]), ("all-second", [[2], [0, 1]])])
def test_game_ends_at_the_target(option: str, ranking: list[list[int]]) -> None:
    """RR-END-01, RR-END-02, RR-AMB-14: first to the target wins; the others ranked by option."""
    engine = new_game(GAME, players=3, variants=["custom-target"],
                      parameters={"target_score": 5}, rulings={"RR-AMB-14": option})
    roll(engine, "coin2", "coin2")  # p0 collects 4 of p1's 6, rolls again
    roll(engine, "coin1", "coin1")  # p0 collects p1's last 2, rolls again
    roll(engine, "coin1", "closed_chest")  # p0 puts 1: chest 3
    roll(engine, "rhino", "open_chest")  # p1 has no coins, takes the Rhino: wins 3 points
    state = engine.state()
    assert (state["scores"], state["round"], state["result"]) == ([0, 3, 0], 2, None), \
        "RR-END-01: 3 points are short of the target of 5; a new round starts"
    assert state["turn"] == 2, "RR-AMB-11 continue-order: player 2 starts round 2"
    roll(engine, "closed_chest", "closed_chest")  # p2 puts 6: chest 8, rolls again
    roll(engine, "rhino", "open_chest")  # p2 takes the Rhino with no coins: wins 8 points
    state = engine.state()
    assert state["scores"] == [0, 3, 8] and state["result"] is not None, \
        "RR-END-01: 8 points reach the target of 5"
    assert engine.is_terminal() and engine.legal_actions() == []
    result = engine.result()
    assert result is not None and result["winners"] == [2], "RR-END-01: player 2 wins"
    assert result["ranking"] == ranking, f"RR-AMB-14 {option}: ranking of the others"


def test_game_ends_at_fifty_by_default() -> None:
    """RR-END-01: the target score is 50 unless the custom-target variant sets another."""
    assert new_game(GAME, players=3).config.param("target_score") == 50


# -- bad input --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("action", "clause"), [
    ({"kind": "roll", "die": 1, "face": "coin1"}, "RR-TURN-02"),
    ({"kind": "roll", "die": 0, "face": "dragon"}, "RR-TURN-02"),
    ({"kind": "roll", "die": 0, "face": "coin1", "extra": 1}, "RR-TURN-02"),
    ({"kind": "choose_count", "count": 1}, "RR-DICE-04"),
    ({"kind": "first_player", "player": 1}, "RR-TURN-01"),
])
def test_illegal_actions_are_rejected_and_change_nothing(action: dict[str, Any],
                                                        clause: str) -> None:
    """RR-TURN-02, RR-DICE-04, RR-TURN-01: illegal actions name the broken clause."""
    engine = game(3)
    before = engine.state()
    with pytest.raises(IllegalAction) as info:
        engine.apply(action)
    assert clause in info.value.clauses, f"{clause}: rejection should cite it: {info.value}"
    assert engine.state() == before, f"{clause}: state changed by an illegal action"


def rejection_of(engine: Engine, action: Any) -> IllegalAction:
    """Apply an action that must be illegal; check the state is unchanged and ``rejection`` agrees."""
    before = engine.state()
    with pytest.raises(IllegalAction) as info:
        engine.apply(action)
    assert engine.state() == before, f"{action!r}: the state changed"
    assert engine.rejection(action).reason == info.value.reason, (
        "apply and rejection (the conformance kit's path) must give the same answer")
    return info.value


def test_true_is_not_die_one() -> None:
    """RR-TURN-02: ``"die": true`` is not die 1, though Python says ``True == 1``."""
    engine = game(2)
    engine.apply({"kind": "roll", "die": 0, "face": "coin1"})
    error = rejection_of(engine, {"kind": "roll", "die": True, "face": "coin1"})
    assert "'die' is true, a boolean; the action schema of roll" in error.reason, "RR-TURN-02"
    assert "wants an integer" in error.reason, "RR-TURN-02"
    assert "RR-TURN-02" in error.clauses, "RR-TURN-02: the rejection cites the roll's clauses"
    engine.apply({"kind": "roll", "die": 1, "face": "coin1"})  # the integer is still legal


def test_one_point_zero_is_not_die_one() -> None:
    """RR-TURN-02: ``"die": 1.0`` is not die 1 (JSON Schema would call it an integer; we do not)."""
    engine = game(2)
    engine.apply({"kind": "roll", "die": 0, "face": "coin1"})
    error = rejection_of(engine, {"kind": "roll", "die": 1.0, "face": "coin1"})
    assert "'die' is 1.0, a decimal number; the action schema of roll" in error.reason, "RR-TURN-02"
    engine.apply({"kind": "roll", "die": 1, "face": "coin1"})


def test_unknown_key_is_rejected_by_the_action_schema() -> None:
    """RR-TURN-02: a roll has exactly kind, die and face; an extra key is named."""
    engine = game(2)
    error = rejection_of(engine, {"kind": "roll", "die": 0, "face": "coin1", "player": 0})
    assert "unknown key 'player'; the action schema of roll" in error.reason, "RR-TURN-02"
    assert "allows only kind, die, face" in error.reason, "RR-TURN-02"


def test_count_must_be_an_integer() -> None:
    """RR-DICE-04: under player-chooses, ``"count": true`` is not the count 1."""
    engine = game(2, _04="player-chooses")
    roll(engine, "open_chest", "coin1")
    error = rejection_of(engine, {"kind": "choose_count", "count": True})
    assert "'count' is true, a boolean" in error.reason, "RR-DICE-04"
    assert "RR-DICE-04" in error.clauses, "RR-DICE-04: the rejection cites the clause"
    engine.apply({"kind": "choose_count", "count": 1})


def test_replay_rejects_a_trace_with_true_for_a_die(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """RR-TURN-02: ``rulespec replay`` of a trace whose roll says ``"die": true`` stops at that
    step, citing the action schema (issue 9: 628 such actions used to be accepted)."""
    engine = game(2)
    spec = get_spec(GAME)
    lines = [
        {"type": "header", "format": "rulespec-trace/1", "game": GAME,
         "spec_version": spec.version, "config": engine.config.to_json()},
        {"type": "step", "n": 1, "actor": "chance",
         "action": {"kind": "roll", "die": 0, "face": "coin1"}},
        {"type": "step", "n": 2, "actor": "chance",
         "action": {"kind": "roll", "die": True, "face": "coin1"}},
        {"type": "result", "steps": 2, "result": None},
    ]
    path = tmp_path / "true-die.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path)])
    out = capsys.readouterr().out
    assert info.value.code == 1, f"RR-TURN-02: the trace replayed: {out}"
    assert "FAILED: step 2 (line 3)" in out, out
    assert "'die' is true, a boolean; the action schema of roll" in out, out
    assert "RR-TURN-02" in out, "RR-TURN-02: the rejection cites the roll's clauses"


@pytest.mark.parametrize(("first", "second", "coins", "chest", "turn"), [
    ("coin1", "coin2", [11, 5], 4, 1),  # printed: | 1 coin | 2 coins |
    ("coin2", "coin1", [8, 8], 4, 1),  # not printed this way round
    ("open_chest", "coin2", [10, 8], 2, 1),  # printed: | Open treasure chest | 1 coin, or 2 coins |
    ("coin2", "open_chest", [8, 8], 4, 1),
    ("open_chest", "closed_chest", [8, 8], 4, 0),  # printed, Roll again
    ("closed_chest", "open_chest", [8, 8], 4, 1),
    ("coin1", "coin1", [10, 6], 4, 0),  # matching dice read the same either way
])
def test_ordered_dice_apply_only_the_printed_way_round(first: str, second: str, coins: list[int],
                                                       chest: int, turn: int) -> None:
    """RR-TURN-02, RR-DICE-02, RR-DICE-04, RR-DICE-08, RR-AMB-16 ordered-as-printed: a row
    applies only with its Die 1 face on die 1; the other way round nothing happens."""
    engine = game(2, _16="ordered-as-printed")
    roll(engine, first, second)
    state = engine.state()
    assert (state["coins"], state["chest"], state["turn"]) == (coins, chest, turn), \
        f"RR-AMB-16 ordered-as-printed: {first} on die 1, {second} on die 2"
    unordered = game(2)
    roll(unordered, second, first)
    roll(engine := game(2), first, second)
    assert unordered.state() == engine.state(), "RR-AMB-16 unordered: either way round"


def test_ordered_dice_read_the_unprinted_rhino_rows_with_the_rhino_on_die_one() -> None:
    """RR-DICE-11, RR-AMB-16 ordered-as-printed with RR-AMB-01 identical-five: the cut-off row
    puts the Rhino under Die 1, so the Rhino on die 2 with a chest face does nothing."""
    engine = game(2, _01="identical-five", _16="ordered-as-printed")
    roll(engine, "open_chest", "rhino")
    assert (engine.state()["rhino"], engine.state()["turn"]) == ("chest", 1)
    roll(engine, "rhino", "open_chest")
    assert (engine.state()["rhino"], engine.state()["turn"]) == (1, 0), \
        "RR-AMB-02 take-rhino-only, rolled the printed way round"
    roll(engine, "coin1", "rhino")
    assert (engine.state()["rhino"], engine.state()["coins"]) == (1, [8, 8])
    assert engine.decisions["RR-AMB-16"] == 3, "RR-AMB-16: one decision per roll of two faces"


def test_ordered_dice_need_a_printed_die_one_for_every_pair() -> None:
    """RR-AMB-16 ordered-as-printed: a custom legend row with no printed row is refused, and
    accepted under unordered."""
    rows = [dict(r) for r in SPEC.table("dice-outcomes")["rows"]]
    for row in rows:
        if row["pair"] == "coin1+coin2":
            del row["printed_row"]
    with pytest.raises(ConfigError, match="coin1\\+coin2"):
        new_game(GAME, players=2, rulings={"RR-AMB-16": "ordered-as-printed"},
                 parameters={"dice_outcomes": rows})
    new_game(GAME, players=2, parameters={"dice_outcomes": rows})


def test_rhino_is_not_on_die_two_by_default() -> None:
    """RR-COMP-02, RR-AMB-01 columns-as-printed: die 2 has no Ruby Rhino face."""
    engine = game(2)
    engine.apply({"kind": "roll", "die": 0, "face": "coin1"})
    before = engine.state()
    with pytest.raises(IllegalAction, match="no face 'rhino'"):
        engine.apply({"kind": "roll", "die": 1, "face": "rhino"})
    assert engine.state() == before


def test_bad_input_is_rejected_clearly() -> None:
    """RR-TURN-02: non-objects, unknown kinds, a bad count and play after the end are refused."""
    engine = game(2, _04="player-chooses")
    junk: list[Any] = ["roll", {"kind": "dance"}, {"die": 0}]
    for bad in junk:
        with pytest.raises(IllegalAction):
            engine.apply(bad)
    roll(engine, "closed_chest", "coin2")
    before = engine.state()
    for action in ({"kind": "choose_count", "count": 3},
                   {"kind": "roll", "die": 0, "face": "coin1"}):
        with pytest.raises(IllegalAction, match="RR-DICE-0"):
            engine.apply(action)
    assert engine.state() == before
    finished = new_game(GAME, players=2, parameters={"target_score": 1})
    roll(finished, "closed_chest", "closed_chest")  # player 0 puts all 8 in, rolls again
    roll(finished, "rhino", "open_chest")  # takes the Rhino with no coins: wins 12 points
    assert finished.is_terminal() and finished.current_player() is None
    with pytest.raises(IllegalAction, match="game is over"):
        finished.apply({"kind": "roll", "die": 0, "face": "coin1"})


def test_impossible_deal_is_a_config_error() -> None:
    """RR-SETUP-02, RR-COMP-01: dealing more coins than exist is refused."""
    with pytest.raises(ConfigError, match="coins_per_player"):
        new_game(GAME, players=5, parameters={"coins_per_player": 5})
    with pytest.raises(ConfigError, match="dice_faces"):
        new_game(GAME, players=2, parameters={"dice_faces": [["coin1"], ["coin2"]]})


@pytest.mark.parametrize(("faces", "reason"), [
    ([["closed_chest", "rhino"], ["open_chest"]], "never runs out"),
    ([["coin1", "rhino"], ["closed_chest", "open_chest"]], "no roll takes the Ruby Rhino"),
])
def test_dice_that_cannot_end_the_game_are_refused(faces: list[list[str]], reason: str) -> None:
    """RR-ROUND-01, RR-RHINO-01, RR-AMB-01: faces under which no round could end are refused."""
    rulings = {"RR-AMB-02": "roll-again"}
    with pytest.raises(ConfigError, match=reason):
        new_game(GAME, players=4, rulings=rulings, parameters={"dice_faces": faces})


def test_describe_and_clone() -> None:
    """RR-TURN-02: narration is one line per action; a clone is independent."""
    engine = game(3, _10="random-first-player")
    for action in engine.legal_actions():
        line = engine.describe(action, CHANCE)
        assert line and "\n" not in line
    engine.apply({"kind": "first_player", "player": 0})
    assert engine.describe({"kind": "roll", "die": 0, "face": "rhino"}, CHANCE).endswith("Ruby Rhino")
    last = {"kind": "roll", "die": 1, "face": "coin2"}
    engine.apply({"kind": "roll", "die": 0, "face": "rhino"})
    engine.apply(last)
    line = engine.describe(last, CHANCE)
    assert line.startswith("player 0 rolls die 2: 2 coins") and "take the Ruby Rhino" in line, \
        "RR-DICE-10: narration after the roll names the roller and the row carried out"
    engine = game(3)
    copy = engine.clone()
    roll(copy, "coin2", "coin2")
    assert engine.state()["coins"] == [6, 6, 6] and copy.state()["coins"] == [10, 2, 6]


# -- random games ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(SPEC.min_players, SPEC.max_players + 1))
@pytest.mark.parametrize("index", range(len(RULING_SETS)))
@settings(max_examples=1)
@given(seed=SEEDS)
def test_random_games_keep_every_invariant(index: int, players: int, seed: int) -> None:
    """RR-INV-*: random games under every ruling set and player count keep every invariant."""
    rulings = RULING_SETS[index]
    engine = checked_game(GAME, seed=seed, players=players, rulings=rulings,
                          variants=["custom-target"], parameters={"target_score": 10})
    assert engine.is_terminal(), f"RR-END-01: the game under {rulings} did not end"


@pytest.mark.parametrize("players", range(SPEC.min_players, SPEC.max_players + 1))
@settings(max_examples=1)
@given(seed=SEEDS)
def test_full_length_games_keep_every_invariant(players: int, seed: int) -> None:
    """RR-INV-*, RR-END-01: default rules to 50 points keep every invariant and end."""
    engine = checked_game(GAME, seed=seed, players=players)
    result = engine.result()
    assert result is not None and result["scores"][result["winners"][0]] >= 50, \
        "RR-END-01: the winner has at least 50 points"


def test_a_state_handed_out_is_not_changed_by_later_play() -> None:
    """RR-ROUND-03, RR-ROUND-05: the history of finished rounds is shared between the states
    (each record is made once, when its round ends): a state taken earlier stays as it was
    while the game goes on, and the next state sees the new rounds."""
    import copy
    import random

    engine = game(3)
    rnd = random.Random(11)
    taken: list[tuple[dict[str, Any], dict[str, Any]]] = []
    while not engine.is_terminal():
        state = engine.state()
        if len(taken) < 400:
            taken.append((state, copy.deepcopy(state)))
        actions = ([a for a, _ in engine.chance_outcomes()]
                   if engine.current_player() == CHANCE else engine.legal_actions())
        engine.apply(rnd.choice(actions))
    final = engine.state()["history"]
    assert len(final) >= 2, "the game should last several rounds"
    for state, then in taken:
        assert state == then, "a state handed out changed as the game went on"
        assert final[:len(state["history"])] == state["history"]


#: The configuration ``rulespec verify`` found a trap with (issue 42): dice whose faces never
#: take a coin out of the chest, under which RR-AMB-02's rhino-and-one-coin and roll-again leave
#: no roll that takes the Rhino once every coin is in the chest.
CHEST_ONLY = {"target_score": 1, "total_coins": 3, "coins_per_player": 1,
              "dice_faces": [["coin1", "rhino"], ["coin1", "closed_chest"]]}


@pytest.mark.parametrize("option", ["rhino-and-one-coin", "roll-again"])
def test_dice_that_trap_the_rhino_in_the_chest_are_refused(option: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """RR-RHINO-01, RR-NOTE-03, RR-AMB-02 (issue 42's finding): with the set-up check as it was,
    both coins go into the chest and from there no roll changes anything, so the round never
    ends; the reference now refuses these faces under these options, saying why."""
    from rulespec.games.ruby_rhino import RubyRhino

    monkeypatch.setattr(RubyRhino, "_takes_rhino_when_broke", lambda self, effect: True)
    engine = new_game(GAME, players=2, rulings={"RR-AMB-02": option}, parameters=CHEST_ONLY)
    for _ in range(2):  # each player puts their one coin in the chest (coin1 + closed chest)
        roll(engine, "coin1", "closed_chest")
    trapped = engine.state()
    assert trapped["coins"] == [0, 0] and trapped["chest"] == 3, trapped
    for first in ("coin1", "rhino"):
        for second in ("coin1", "closed_chest"):
            probe = engine.clone()
            roll(probe, first, second)
            state = probe.state()
            assert state["coins"] == [0, 0] and state["rhino"] == trapped["rhino"], \
                f"RR-RHINO-01: {first}+{second} changed nothing that could end the round"
    monkeypatch.undo()
    for players in (2, 3):  # (set-up is kept per configuration: 3 players is one not yet seen)
        with pytest.raises(ConfigError, match="every coin can end up in the chest"):
            new_game(GAME, players=players, rulings={"RR-AMB-02": option},
                     parameters={**CHEST_ONLY, "target_score": 2})


@pytest.mark.parametrize("option", ["take-rhino-only", "rhino-and-whole-chest"])
def test_the_same_dice_are_accepted_where_a_roll_takes_the_rhino_from_the_chest(
        option: str) -> None:
    """RR-AMB-02: under these options Rhino with closed chest takes the Rhino with no coin to
    pay (or puts all, none, in the chest), so the faces can end every round."""
    rulings = {"RR-AMB-02": option, "RR-AMB-06": "void-and-pass"}
    if option == "rhino-and-whole-chest":
        rulings["RR-AMB-07"] = "nothing-to-move-is-complete"
    new_game(GAME, players=2, rulings=rulings, parameters=CHEST_ONLY)


@pytest.mark.parametrize("rulings", [
    {"RR-AMB-10": "random-first-player", "RR-AMB-04": "player-chooses"},
    {"RR-AMB-05": "skip-to-first-who-can", "RR-AMB-06": "partial-keep-roll-again",
     "RR-AMB-08": "each-step", "RR-AMB-15": "everyone", "RR-AMB-16": "ordered-as-printed"}])
def test_clone_is_an_exact_independent_copy(rulings: dict[str, str]) -> None:
    """RR-TURN-02, RR-ROUND-03, RR-ROUND-05, RR-END-01: the engine's own ``clone`` equals
    ``copy.deepcopy`` after every action of random games (rounds scored, coins dealt again, the
    game ended), plays on alike, and shares nothing an action changes."""
    steps = check_clones(GAME, seeds=range(3), players=3, rulings=rulings, max_steps=60,
                         parameters={"target_score": 20, "total_coins": 9, "coins_per_player": 2})
    assert steps > 80


#: What ``RubyRhino.__init__`` reads from the configuration once (through its shared setup)
#: and nothing assigns again (numbers and a tuple), so no game changes them.
CONFIGURATION_CONSTANTS = frozenset({
    "_n",  # the player count
    "_total",  # parameter total_coins
    "_deal",  # parameter coins_per_player
    "_target",  # parameter target_score
    "_choice_counts",  # parameter chest_choice_counts, a tuple
    "_dice_count",  # how many dice dice_faces describes
})


def test_clone_is_checked_on_every_attribute_play_changes() -> None:
    """RR-TURN-01, RR-ROUND-05, RR-END-01 under RR-AMB-10 random-first-player, RR-AMB-11
    same-first-player and RR-AMB-04 player-chooses: whole games change every attribute of the
    engine that is neither a constant table nor a configuration constant (the player drawn to
    go first, ``_first``, who starts every round; the result), and the clone is checked against
    the deep copy at every one of their steps."""
    changed: set[str] = set()
    rulings = {"RR-AMB-10": "random-first-player", "RR-AMB-11": "same-first-player",
               "RR-AMB-04": "player-chooses"}
    steps = check_clones(GAME, seeds=range(3), players=3, rulings=rulings, max_steps=300,
                         play_out_every=50, changed=changed,
                         parameters={"target_score": 10, "total_coins": 9, "coins_per_player": 2})
    assert steps > 300
    assert never_changed(GAME, changed, players=3, constants=CONFIGURATION_CONSTANTS) == set()
