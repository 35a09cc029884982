"""Ouro de Tolo: the records of the provenance review (OURO-AMB-24 to 36, and the readings added
to OURO-AMB-05, -09, -10, -15 and -19), each option driven through the reference.

Chance outcomes are chosen by the test, so every scenario is exact; each assertion names the
record (and the clause) it checks. The last tests play random games under the new options, with
the variants they need, checking the state schema and every invariant after every action.
"""

from __future__ import annotations

from typing import Any

import pytest

from rulespec.games.ouro_de_tolo import OuroDeTolo
from rulespec.reference.core import IllegalAction
from rulespec.reference.registry import new_game
from tests.games.test_ouro_de_tolo import draw, hand, kinds, rejected, start, stones
from tests.support import checked_game

GAME = "ouro-de-tolo"


def money(engine: OuroDeTolo) -> list[int]:
    """Return every player's money, by seat."""
    return [int(p["money"]) for p in engine.state()["players"]]


# -- OURO-AMB-24: the direction of play -----------------------------------------------------------


def test_counter_clockwise_deals_and_plays_to_the_next_lower_seat() -> None:
    """OURO-SETUP-03, OURO-PLAY-04 under OURO-AMB-24 counter-clockwise: the deal goes seat 0,
    then the last seat, and so on down; so do the turns, skipping players out of the mine."""
    engine = new_game(GAME, players=4, rulings={"OURO-AMB-24": "counter-clockwise"})
    assert isinstance(engine, OuroDeTolo)
    assert engine.state()["pending"]["queue"][:4] == [0, 3, 2, 1], "OURO-AMB-24: the deal"
    clockwise = new_game(GAME, players=4)
    assert clockwise.state()["pending"]["queue"][:4] == [0, 1, 2, 3], "OURO-AMB-24 default"
    engine = start(4, rulings={"OURO-AMB-24": "counter-clockwise"})
    draw(engine, "quartz")  # player 0
    assert engine.current_player() == 3, "OURO-AMB-24: after seat 0 comes seat 3"
    engine.apply({"kind": "leave"})  # player 3
    draw(engine, "quartz")  # player 2
    draw(engine, "quartz")  # player 1
    assert engine.current_player() == 0, "OURO-AMB-24: seat 0 after seat 1"
    draw(engine, "quartz")  # player 0
    assert engine.current_player() == 2, "OURO-LEAVE-03: seat 3 has left and is skipped"


@pytest.mark.parametrize(("direction", "next_starter"), [("clockwise", 1),
                                                         ("counter-clockwise", 2)])
def test_the_next_player_after_the_card_player_follows_the_direction(
        direction: str, next_starter: int) -> None:
    """OURO-EOD-04 under OURO-AMB-15 next-player-starts and OURO-AMB-24: with no Caxias, the
    player after the card player in the direction of play starts the next workday."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-15": "next-player-starts",
                                               "OURO-AMB-24": direction})
    first = 1 if direction == "clockwise" else 2
    draw(engine, "fools_gold")  # player 0
    assert engine.current_player() == first, "OURO-AMB-24"
    draw(engine, "fools_gold")  # the favour's target-to-be
    engine.apply({"kind": "leave"})  # the third seat
    engine.apply({"kind": "play_favor", "target": first})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    state = engine.state()
    assert state["caxias"] is None and state["day"] == 2, "OURO-CAX-01: no Caxias"
    assert state["first_player"] == next_starter, f"OURO-AMB-24 {direction}: {state}"


# -- OURO-AMB-25: Not Mine without a Fool's Gold --------------------------------------------------


def test_not_mine_needs_a_fools_gold_by_default() -> None:
    """OURO-CARD-09 under OURO-AMB-25 needs-a-fools-gold: no Fool's Gold, no Not Mine."""
    engine = start(3, {0: ["not_mine"]})
    assert "play_not_mine" not in kinds(engine), "OURO-AMB-25"
    rejected(engine, {"kind": "play_not_mine", "target": 1}, "OURO-CARD-09")


def test_not_mine_without_effect_spends_the_card_and_the_turn() -> None:
    """OURO-CARD-04, OURO-RESP-05 under OURO-AMB-25 without-effect: the card is discarded, the
    turn used, and nothing passes; the target's Not Mine Either stays in hand."""
    engine = start(3, {0: ["not_mine"], 1: ["not_mine_either"]},
                   rulings={"OURO-AMB-25": "without-effect"})
    engine.apply({"kind": "play_not_mine", "target": 1})
    state = engine.state()
    assert state["discard"]["not_mine"] == 1 and "not_mine" not in hand(engine, 0), "OURO-RESP-05"
    assert stones(engine, 1) == {} and hand(engine, 1).get("not_mine_either") == 1, "OURO-AMB-25"
    assert state["phase"] == "turn" and engine.current_player() == 1, "OURO-CARD-04"


# -- OURO-AMB-26: Very Light Hand against a thief with no stones ----------------------------------


@pytest.mark.parametrize(("option", "window"), [("take-what-there-is", True),
                                                ("needs-a-stone", False)])
def test_very_light_hand_against_an_empty_handed_thief(option: str, window: bool) -> None:
    """OURO-RESP-03 under OURO-AMB-26: a thief with nothing to take can still be answered only
    under take-what-there-is, and then nothing moves at all."""
    engine = start(3, {0: ["light_hand"], 1: ["very_light_hand"]},
                   rulings={"OURO-AMB-26": option})
    engine.apply({"kind": "play_light_hand", "target": 1})  # player 0 holds no stone
    assert (engine.state()["phase"] == "response") == window, f"OURO-AMB-26 {option}"
    if window:
        engine.apply({"kind": "respond_very_light_hand"})
        assert stones(engine, 0) == {} and stones(engine, 1) == {}, "OURO-RESP-03"
        assert engine.state()["discard"]["very_light_hand"] == 1, "OURO-RESP-05"
        assert engine.current_player() == 1, "OURO-CARD-04: the thief's turn is over"
    else:
        assert hand(engine, 1).get("very_light_hand") == 1, "OURO-AMB-26: the card is kept"


# -- OURO-AMB-27: the bonus of a mine emptied without a Caxias ------------------------------------


def _empty_mine_with_bonus(option: str) -> OuroDeTolo:
    engine = start(3, {0: ["favor"]}, bonus="light_hand",
                   rulings={"OURO-AMB-27": option})
    for colour in ("fools_gold", "fools_gold", "fools_gold", "quartz", "fools_gold", "quartz"):
        draw(engine, colour)  # players 0, 1, 2, 0, 1 (an accident), 2
    engine.apply({"kind": "play_favor", "target": 2})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    return engine


def test_an_unclaimed_bonus_is_discarded_by_default() -> None:
    """OURO-EOD-04 under OURO-AMB-27 discard: the next workday turns a new card."""
    engine = _empty_mine_with_bonus("discard")
    state = engine.state()
    assert state["day"] == 2 and state["phase"] == "bonus", "OURO-EOD-04"
    assert state["discard"]["light_hand"] == 1 and state["bonus"] is None, "OURO-AMB-27"


def test_an_unclaimed_bonus_waits_for_the_next_leaver() -> None:
    """OURO-LEAVE-05 under OURO-AMB-27 carry-over: no card is turned; the first player to leave
    by choice on the next workday takes the old bonus."""
    engine = _empty_mine_with_bonus("carry-over")
    state = engine.state()
    assert state["day"] == 2 and state["phase"] == "turn", "OURO-AMB-27: nothing turned"
    assert state["bonus"] == "light_hand" and state["discard"]["light_hand"] == 0, "OURO-AMB-27"
    leaver = engine.current_player()
    assert isinstance(leaver, int)
    engine.apply({"kind": "leave"})
    assert hand(engine, leaver).get("light_hand") == 1, "OURO-LEAVE-02"
    assert engine.state()["bonus_taken_by"] == leaver, "OURO-LEAVE-02"


# -- OURO-AMB-28: the safe mine and a second Fool's Gold received ---------------------------------


@pytest.mark.parametrize(("option", "kept"), [("any-second", True), ("drawn-only", False)])
def test_safe_mine_and_a_passed_fools_gold(option: str, kept: bool) -> None:
    """OURO-VAR-03 under OURO-AMB-28: a second Fool's Gold passed with Not Mine is safe only
    under any-second; otherwise the stones pay nothing at the end of the day."""
    engine = start(3, {1: ["not_mine"]}, variants=["safe-mine"],
                   rulings={"OURO-AMB-28": option})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    draw(engine, "ruby")  # player 0
    engine.apply({"kind": "play_not_mine", "target": 0})
    assert engine.state()["players"][0]["status"] == "accident", "OURO-CARD-10"
    engine.apply({"kind": "leave"})  # player 2: player 1 is the Caxias
    draw(engine, "quartz", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    paid = money(engine)[0]
    assert (paid > 0) == kept, f"OURO-AMB-28 {option}: player 0 was paid {paid}"


@pytest.mark.parametrize("option", ["any-second", "drawn-only"])
def test_safe_mine_protects_a_drawn_fools_gold_under_both_options(option: str) -> None:
    """OURO-VAR-03: a drawn second Fool's Gold is safe under either option of OURO-AMB-28."""
    engine = start(3, variants=["safe-mine"], rulings={"OURO-AMB-28": option})
    draw(engine, "ruby")  # player 0
    draw(engine, "quartz")  # player 1
    draw(engine, "quartz")  # player 2
    draw(engine, "fools_gold")  # player 0
    engine.apply({"kind": "leave"})  # player 1
    engine.apply({"kind": "leave"})  # player 2
    draw(engine, "fools_gold", "caxias_draw")  # player 0, the Caxias: a drawn second one
    assert money(engine)[0] > 0, f"OURO-VAR-03 under {option}: the drawn accident is safe"


# -- OURO-AMB-29: stones that reach a player after their accident ---------------------------------


def test_a_stone_after_the_accident_waits_for_the_settlement() -> None:
    """OURO-CARD-11, OURO-EOD-02 under OURO-AMB-29 at-settlement (with OURO-AMB-06
    immediately): the Ruby left after one's own favour's accident stays out of the bag until
    the day ends, and pays nothing."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-06": "immediately",
                                               "OURO-AMB-12": "self-allowed",
                                               "OURO-AMB-29": "at-settlement"})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "quartz")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 0})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "ruby"})
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    assert stones(engine, 0) == {"ruby": 1}, "OURO-AMB-29: the later Ruby waits"
    assert engine.state()["bag"]["ruby"] == 3, "OURO-AMB-29: not back yet"
    engine.apply({"kind": "leave"})  # player 1: player 2 is the Caxias
    draw(engine, "quartz", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    assert money(engine)[0] == 0, "OURO-EOD-02: an accident pays nothing"
    assert engine.state()["bag"]["ruby"] == 4, "OURO-EOD-02: every stone back at dawn"


# -- OURO-AMB-30 and -31: answers the quotes do not allow -----------------------------------------


def test_ones_own_favour_answered_with_im_tired() -> None:
    """OURO-RESP-02 under OURO-AMB-30 may-answer: both cards are spent and nothing is drawn."""
    engine = start(3, {0: ["favor", "tired"]}, rulings={"OURO-AMB-12": "self-allowed",
                                                        "OURO-AMB-30": "may-answer"})
    engine.apply({"kind": "play_favor", "target": 0})
    assert engine.current_player() == 0 and "respond_tired" in kinds(engine), "OURO-AMB-30"
    engine.apply({"kind": "respond_tired"})
    state = engine.state()
    assert state["discard"]["favor"] == 1 and state["discard"]["tired"] == 1, "OURO-RESP-05"
    assert stones(engine, 0) == {} and engine.current_player() == 1, "OURO-RESP-02"


def test_not_mine_either_naming_nobody() -> None:
    """OURO-RESP-04, OURO-RESP-08 under OURO-AMB-31 cancels (with OURO-AMB-13 not-sender): the
    answer names nobody and the sender keeps the Fool's Gold; with somebody to name, an answer
    without a target is refused."""
    rulings = {"OURO-AMB-13": "not-sender", "OURO-AMB-31": "cancels"}
    engine = start(3, {1: ["not_mine"], 2: ["not_mine_either"]}, rulings=rulings)
    engine.apply({"kind": "leave"})  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_not_mine", "target": 2})
    assert engine.legal_actions() == [{"kind": "respond_not_mine_either"},
                                      {"kind": "decline"}], "OURO-AMB-31"
    engine.apply({"kind": "respond_not_mine_either"})
    assert stones(engine, 1) == {"fools_gold": 1} and stones(engine, 2) == {"quartz": 1}
    assert "not_mine_either" not in hand(engine, 2), "OURO-RESP-05"
    engine = start(3, {0: ["not_mine"], 1: ["not_mine_either"]}, rulings=rulings)
    draw(engine, "fools_gold")  # player 0
    draw(engine, "quartz")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_not_mine", "target": 1})
    assert {"kind": "respond_not_mine_either", "target": 2} in engine.legal_actions()
    rejected(engine, {"kind": "respond_not_mine_either"}, "OURO-RESP-08")


# -- OURO-AMB-32 and -33: a favour's Fool's Gold ---------------------------------------------------


@pytest.mark.parametrize(("option", "held"), [("back-to-bag", 2), ("kept", 3)])
def test_a_third_fools_gold(option: str, held: int) -> None:
    """OURO-QG-08 under OURO-AMB-32: a drawer holding one Fool's Gold is left two; at the end
    of the day every Fool's Gold is back in the bag either way (OURO-EOD-02)."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-32": option})
    draw(engine, "quartz")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "favor_leave"})
    assert stones(engine, 1) == {"fools_gold": held}, f"OURO-AMB-32 {option}"
    assert engine.state()["bag"]["fools_gold"] == 20 - held, "OURO-INV-STONES-CONSERVED"
    engine.apply({"kind": "leave"})  # player 2: player 0 is the Caxias
    draw(engine, "quartz", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    assert engine.state()["bag"]["fools_gold"] == 20, "OURO-EOD-02"


def test_the_drawer_out_at_the_draw_is_not_spared_by_the_choice() -> None:
    """OURO-CARD-07 under OURO-AMB-33 at-the-draw: the card player takes the Fool's Gold, but
    the drawer is already out, and the Ruby left to them follows the accident."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-33": "at-the-draw"})
    draw(engine, "quartz")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "ruby"})
    assert engine.state()["players"][1]["status"] == "accident", "OURO-AMB-33 at-the-draw"
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    assert stones(engine, 0) == {"quartz": 1, "fools_gold": 1}, "OURO-CARD-06"
    assert stones(engine, 1) == {"fools_gold": 1, "ruby": 1}, "OURO-AMB-33: still out"
    assert engine.state()["players"][1]["status"] == "accident"


def test_the_drawer_is_spared_when_the_card_player_takes_the_fools_gold() -> None:
    """OURO-CARD-06 under OURO-AMB-33 after-the-choice (the default)."""
    engine = start(3, {0: ["favor"]})
    draw(engine, "quartz")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "ruby"})
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    assert engine.state()["players"][1]["status"] == "in_mine", "OURO-AMB-33 after-the-choice"


# -- OURO-AMB-34, -35, -36: the variants ----------------------------------------------------------


def _rich_day(engine: OuroDeTolo) -> None:
    """Player 0 banks a Ruby (6), player 1 leaves first, player 2 banks Gold and Quartz (9) as
    the Caxias."""
    draw(engine, "ruby")  # player 0
    engine.apply({"kind": "leave"})  # player 1
    draw(engine, "gold")  # player 2
    engine.apply({"kind": "leave"})  # player 0: player 2 is the Caxias
    draw(engine, "quartz", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})


@pytest.mark.parametrize(("option", "phase"), [("no-declarations", "bonus"),
                                               ("declarations-too", "declaration")])
def test_hard_week_declarations(option: str, phase: str) -> None:
    """OURO-VAR-02 under OURO-AMB-34: a player above the desired amount declares during the hard
    week only under declarations-too; a declaration then ends the game."""
    engine = start(3, variants=["hard-week"], parameters={"desired_amount": 5},
                   rulings={"OURO-AMB-34": option})
    _rich_day(engine)
    assert engine.state()["phase"] == phase, f"OURO-AMB-34 {option}"
    if phase == "declaration":
        engine.apply({"kind": "declare"})
        result = engine.result()
        assert result is not None and result["reason"] == "declaration", "OURO-END-01"


def test_a_paid_gold_fever_card() -> None:
    """OURO-VAR-04 under OURO-AMB-35 costs-money: a player who can pay buys the card and pays
    for it when the day is settled; one who cannot buys nothing."""
    engine = start(3, variants=["gold-fever"], rulings={"OURO-AMB-35": "costs-money"})
    price = int(engine.config.param("gold_fever_card_price"))
    _rich_day(engine)  # nobody had money: nobody bought
    assert [sum(p["hand"].values()) for p in engine.state()["players"]] == [2, 3, 2], (
        "OURO-AMB-35: no money, no card (player 1 holds the bonus)")
    before = money(engine)
    assert before[0] > price and before[2] > price
    engine.apply({"kind": "card", "card": "dynamite"})  # the second day's bonus
    draw(engine, "quartz")  # player 2 starts as the Caxias of the first day
    engine.apply({"kind": "leave"})  # player 0
    engine.apply({"kind": "leave"})  # player 1: player 2 is the Caxias
    draw(engine, "quartz", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    while engine.state()["phase"] == "gold_fever":
        engine.apply(engine.legal_actions()[0])
    after = money(engine)
    assert after[0] == before[0] - price, "OURO-AMB-35: player 0 paid for its card"
    assert after[1] == before[1], "OURO-AMB-35: player 1 had no money and bought nothing"


def test_a_gold_fever_card_bought_on_leaving() -> None:
    """OURO-VAR-04 under OURO-AMB-36 on-leaving: the leaver's card comes at once, before the next
    turn; the Caxias buys when the mine is empty."""
    engine = start(3, variants=["gold-fever"], rulings={"OURO-AMB-36": "on-leaving"})
    draw(engine, "quartz")  # player 0
    engine.apply({"kind": "leave"})  # player 1
    state = engine.state()
    assert state["phase"] == "gold_fever" and state["pending"]["target"] == 1, "OURO-AMB-36"
    engine.apply({"kind": "card", "card": "favor"})
    assert hand(engine, 1).get("favor", 0) >= 1 and engine.current_player() == 2
    engine.apply({"kind": "leave"})  # player 2
    engine.apply({"kind": "card", "card": "favor"})  # player 2's card, at once
    assert engine.state()["phase"] == "caxias", "OURO-CAX-01: player 0 is the Caxias"
    draw(engine, "quartz", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    state = engine.state()
    assert state["phase"] == "gold_fever" and state["pending"]["queue"] == [0], (
        "OURO-AMB-36: only the Caxias is left to buy")


# -- OURO-AMB-05 game-ends, OURO-AMB-09 another-day, OURO-AMB-10 day-order, OURO-AMB-19 needs-one


def test_the_game_ends_when_the_deck_runs_out() -> None:
    """OURO-EOD-04 under OURO-AMB-05 game-ends: no card for the next bonus ends the game."""
    small = {"dynamite": 4, "favor": 1, "light_hand": 1, "not_mine": 1, "not_mine_either": 1,
             "very_light_hand": 1, "tired": 1}
    hands = {0: ["dynamite", "favor", "light_hand"], 1: ["not_mine", "tired", "very_light_hand"],
             2: ["not_mine_either", "dynamite", "dynamite"]}
    engine = start(3, hands, rulings={"OURO-AMB-05": "game-ends"},
                   parameters={"card_counts": small})
    assert sum(engine.state()["deck"].values()) == 0
    _rich_day(engine)
    result = engine.result()
    assert result is not None and result["reason"] == "deck_empty", f"OURO-AMB-05: {result}"
    assert result["winners"] == [2], "OURO-END-05: the richest wins"


def test_a_tie_is_played_off_on_another_day() -> None:
    """OURO-END-05 under OURO-AMB-09 another-day: a tied declaration plays another workday, with
    no new declaration; the richest after it wins, and the declarer is remembered."""
    engine = start(3, parameters={"desired_amount": 5}, rulings={"OURO-AMB-09": "another-day"})
    draw(engine, "gold")  # player 0
    engine.apply({"kind": "leave"})  # player 1
    draw(engine, "gold")  # player 2
    engine.apply({"kind": "leave"})  # player 0
    draw(engine, "fools_gold", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    assert money(engine) == [8, 0, 8]
    engine.apply({"kind": "declare"})  # player 2, the Caxias, decides first
    assert engine.result() is None and engine.state()["declared_by"] == 2, "OURO-AMB-09"
    engine.apply({"kind": "card", "card": "dynamite"})  # the second day's bonus
    draw(engine, "ruby")  # player 2
    engine.apply({"kind": "leave"})  # player 0
    engine.apply({"kind": "leave"})  # player 1: player 2 is the Caxias
    engine.apply({"kind": "caxias_draw"})
    engine.apply({"kind": "stone", "colour": "quartz"})
    engine.apply({"kind": "caxias_stop"})
    result = engine.result()
    assert result is not None and result["winners"] == [2], f"OURO-AMB-09: {result}"
    assert result["reason"] == "declaration" and result["declared_by"] == 2


def test_declarations_in_the_order_of_the_day_just_played() -> None:
    """OURO-END-02 under OURO-AMB-10 day-order: from the first player of the day just ended."""
    engine = start(3, parameters={"desired_amount": 5}, rulings={"OURO-AMB-10": "day-order"})
    _rich_day(engine)  # players 0 (6) and 2 (Gold and Quartz) are above 5
    assert engine.state()["phase"] == "declaration" and engine.current_player() == 0


def test_light_hand_needs_a_stone() -> None:
    """OURO-CARD-08 under OURO-AMB-19 needs-one: a target with one stone, not with none."""
    engine = start(3, {0: ["light_hand"]}, rulings={"OURO-AMB-19": "needs-one"})
    draw(engine, "quartz")  # player 0
    draw(engine, "quartz")  # player 1
    engine.apply({"kind": "leave"})  # player 2
    assert {"kind": "play_light_hand", "target": 1} in engine.legal_actions(), "OURO-AMB-19"
    engine = start(3, {0: ["light_hand"]}, rulings={"OURO-AMB-19": "needs-one"})
    with pytest.raises(IllegalAction, match="OURO-AMB-19"):
        engine.apply({"kind": "play_light_hand", "target": 1})


# -- every invariant under the new options, with the variants they need ---------------------------

QUICK: dict[str, Any] = {"desired_amount": 20, "max_days": 6}
CASES: list[tuple[dict[str, str], list[str], dict[str, Any]]] = [
    ({"OURO-AMB-24": "counter-clockwise", "OURO-AMB-15": "next-after-first-player"}, [], QUICK),
    ({"OURO-AMB-25": "without-effect", "OURO-AMB-26": "needs-a-stone"}, [], QUICK),
    ({"OURO-AMB-27": "carry-over", "OURO-AMB-32": "kept", "OURO-AMB-33": "at-the-draw"}, [],
     QUICK),
    ({"OURO-AMB-06": "immediately", "OURO-AMB-29": "at-settlement",
      "OURO-AMB-12": "self-allowed", "OURO-AMB-17": "complete", "OURO-AMB-30": "may-answer"},
     [], QUICK),
    ({"OURO-AMB-13": "not-sender", "OURO-AMB-31": "cancels", "OURO-AMB-21": "chain"}, [], QUICK),
    ({"OURO-AMB-28": "drawn-only", "OURO-AMB-06": "immediately"}, ["safe-mine"], QUICK),
    ({"OURO-AMB-34": "declarations-too", "OURO-AMB-09": "another-day"}, ["hard-week"],
     {"desired_amount": 20, "hard_week_days": 4}),
    ({"OURO-AMB-35": "costs-money", "OURO-AMB-36": "on-leaving", "OURO-AMB-16": "everyone",
      "OURO-AMB-05": "game-ends"}, ["gold-fever"], QUICK),
    ({"OURO-AMB-10": "day-order", "OURO-AMB-19": "needs-one", "OURO-AMB-09": "another-day"}, [],
     QUICK),
]


@pytest.mark.parametrize("players", [3, 6])
@pytest.mark.parametrize("index", range(len(CASES)))
def test_new_options_keep_every_invariant(index: int, players: int) -> None:
    """Every invariant and the state schema hold after every action under the new options."""
    rulings, variants, parameters = CASES[index]
    for seed in range(3):
        engine = checked_game(GAME, seed=seed, players=players, rulings=rulings,
                              variants=variants, parameters=parameters)
        assert engine.result() is not None and engine.current_player() is None, (
            f"OURO-END-01: no result under {rulings}")


def test_not_mine_either_naming_nobody_sends_the_fools_gold_to_the_bag() -> None:
    """OURO-RESP-04, OURO-RESP-08 under OURO-AMB-31 to-the-bag (with OURO-AMB-13 not-sender): the
    answer names nobody, nobody receives the Fool's Gold, and it goes back to the bag."""
    rulings = {"OURO-AMB-13": "not-sender", "OURO-AMB-31": "to-the-bag"}
    engine = start(3, {1: ["not_mine"], 2: ["not_mine_either"]}, rulings=rulings)
    engine.apply({"kind": "leave"})  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    in_bag = engine.state()["bag"]["fools_gold"]
    engine.apply({"kind": "play_not_mine", "target": 2})
    assert engine.legal_actions() == [{"kind": "respond_not_mine_either"},
                                      {"kind": "decline"}], "OURO-AMB-31"
    engine.apply({"kind": "respond_not_mine_either"})
    assert stones(engine, 1) == {} and stones(engine, 2) == {"quartz": 1}, "OURO-AMB-31"
    assert engine.state()["bag"]["fools_gold"] == in_bag + 1, "OURO-AMB-31: back to the bag"
