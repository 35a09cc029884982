"""Fool (Tonto): scenario tests, one per situation the rules describe, and bad input.

Cards are written compactly: ``g5`` is green 5, ``r12`` red 12, ``y3`` yellow 3, ``b2`` blue 2,
``w`` a wild 1. Scenarios deal chosen hands (the random-subset reading of FOOL-AMB-02 with a small
``cards_per_player``, so the rest of the deck is set aside) and then play scripted tricks. With
the default first dealer (seat n-1), player 0 receives the first card and leads the first trick.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulespec.games import fool
from rulespec.games.fool import FoolEngine
from rulespec.reference.core import CHANCE, ConfigError, IllegalAction
from rulespec.reference.registry import check_implementation, new_game
from rulespec.spec.registry import get_spec
from rulespec.spec.validate import load_spec
from tests.games.clone_check import check_clones, never_changed

GAME = "fool"
SUITS = {"g": "green", "r": "red", "y": "yellow", "b": "blue", "w": "wild"}


def card(text: str) -> tuple[str, int]:
    """Return (suit, value) of a compact card such as ``g5`` or ``w``."""
    suit = SUITS[text[0]]
    return (suit, 1) if suit == "wild" else (suit, int(text[1:]))


def new(players: int = 4, *, rulings: Mapping[str, str] | None = None,
        parameters: Mapping[str, Any] | None = None) -> FoolEngine:
    """Start a Fool game with the reference engine."""
    engine = new_game(GAME, players=players, rulings=rulings, parameters=parameters)
    assert isinstance(engine, FoolEngine)
    return engine


def start(hands: Sequence[str], *, rulings: Mapping[str, str] | None = None,
          parameters: Mapping[str, Any] | None = None) -> FoolEngine:
    """Start a game and deal exactly ``hands`` (one space-separated string per player)."""
    parsed = [h.split() for h in hands]
    size = len(parsed[0])
    assert all(len(h) == size for h in parsed), "scenario hands must have equal sizes"
    engine = new(len(hands), rulings={"FOOL-AMB-02": "random-subset", **(rulings or {})},
                 parameters={"cards_per_player": size, **(parameters or {})})
    deal(engine, parsed)
    return engine


def deal(engine: FoolEngine, hands: Sequence[Sequence[str]]) -> None:
    """Deal ``hands`` one card at a time, as chance would, clockwise from the dealer's left."""
    n = len(hands)
    first = engine.legal_actions()[0]["player"]
    for k in range(n * len(hands[0])):
        player = (first + k) % n
        suit, value = card(hands[player][k // n])
        engine.apply({"kind": "deal", "player": player, "suit": suit, "value": value})
    assert engine.phase == "play", f"dealing did not finish: phase {engine.phase!r}"


def act(engine: FoolEngine, text: str, *, declare: str | None = None,
        player: int | None = None) -> dict[str, Any]:
    """Return the lead or follow action of the player to move (or ``player``) for a card."""
    suit, value = card(text)
    mover = engine.current_player() if player is None else player
    action: dict[str, Any] = {"kind": "follow" if engine.trick else "lead", "player": mover,
                              "suit": suit, "value": value}
    if declare is not None:
        action["declare"] = declare
    return action


def play(engine: FoolEngine, *cards: str) -> None:
    """Play cards in turn order."""
    for text in cards:
        engine.apply(act(engine, text))


def legal_cards(engine: FoolEngine) -> list[str]:
    """Return the legal cards of the player to move, compactly."""
    out = []
    for a in engine.legal_actions():
        out.append("w" if a["suit"] == "wild" else f"{a['suit'][0]}{a['value']}")
    return out


def rejected(engine: FoolEngine, action: Any, clause: str) -> str:
    """Apply an illegal action; check it names ``clause`` and leaves the state as it was."""
    before = json.dumps(engine.state(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        engine.apply(action)
    assert clause in info.value.clauses, f"{clause}: {info.value} does not cite it"
    assert clause in str(info.value), f"{clause}: the message does not name the clause"
    assert json.dumps(engine.state(), sort_keys=True) == before, f"{clause}: state changed"
    return str(info.value)


# -- the spec and the module ----------------------------------------------------------------


def test_spec_quotes_are_verbatim_and_options_implemented(rulebooks: Path) -> None:
    """FOOL-COMP-03: the spec loads against the Galician text; every behaviour option is coded."""
    spec = load_spec(get_spec(GAME).path, sources=rulebooks)
    assert not check_implementation(spec), "FOOL-COMP-03: behaviour options and RULINGS disagree"
    assert len(spec.ambiguities) >= 12, "FOOL-COMP-03: fewer ambiguity records than expected"


def test_no_rulebook_number_in_python() -> None:
    """FOOL-COMP-03, FOOL-SCORE-05, FOOL-END-01: numbers come from the spec, not from Python."""
    tree = ast.parse(Path(fool.__file__).read_text(encoding="utf-8"))
    numbers = {n.value for n in ast.walk(tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, int)
               and not isinstance(n.value, bool)}
    assert numbers <= {0, 1, 2}, f"rulebook numbers hard-coded in fool.py: {sorted(numbers)}"


# -- set-up and dealing ---------------------------------------------------------------------


def test_deal_lowest_values_by_player_count() -> None:
    """FOOL-DEAL-02, FOOL-SETUP-05 (FOOL-AMB-02 lowest-values): 12 each, top values set aside."""
    engine = new(4)
    assert engine.to_deal == 48, "FOOL-DEAL-02: 4 x 12 cards are dealt"
    state = engine.state()
    assert state["aside"]["green"] == list(range(16, 28)), "FOOL-AMB-02: green 16-27 aside"
    assert state["aside"]["blue"] == list(range(9, 16)), "FOOL-AMB-02: blue 9-15 aside"
    assert state["aside"]["wild"] == 0 and state["deck"]["wild"] == 6, \
        "FOOL-COMP-04: all six 1s are in play"
    rng_actions = engine.chance_outcomes()
    assert dict((a["suit"], p) for a, p in rng_actions)["wild"] == Fraction(6, 48), \
        "FOOL-DEAL-01: a 1 is drawn with probability 6/48"
    assert sum(p for _, p in rng_actions) == 1, "FOOL-DEAL-01: probabilities add up to 1"


def test_deal_eleven_each_with_eight_players() -> None:
    """FOOL-DEAL-03: with 8 players the whole deck is dealt, 11 cards each."""
    engine = new(8)
    while engine.current_player() == CHANCE:
        engine.apply(engine.legal_actions()[0])
    assert [len(h) for h in engine.hands] == [11] * 8, "FOOL-DEAL-03: 11 cards each"
    assert sum(engine.aside) == 0, "FOOL-DEAL-01: the whole deck is dealt"


def test_deal_whole_deck_reading() -> None:
    """FOOL-DEAL-01 (FOOL-AMB-02 whole-deck): 88 cards to 5 players, the first three get 18."""
    engine = new(5, rulings={"FOOL-AMB-02": "whole-deck"})
    while engine.current_player() == CHANCE:
        engine.apply(engine.legal_actions()[-1])
    assert [len(h) for h in engine.hands] == [18, 18, 18, 17, 17], \
        "FOOL-DEAL-01: whole deck, dealt one at a time"


def test_deal_random_subset_reading() -> None:
    """FOOL-DEAL-02 (FOOL-AMB-02 random-subset): 12 each from all 88; 40 set aside unseen."""
    engine = new(4, rulings={"FOOL-AMB-02": "random-subset"})
    assert engine.deck_size == 88, "FOOL-AMB-02 random-subset: all 88 cards are shuffled"
    while engine.current_player() == CHANCE:
        engine.apply(engine.legal_actions()[0])
    assert [len(h) for h in engine.hands] == [12] * 4 and sum(engine.aside) == 40, \
        "FOOL-DEAL-02: 12 each, the rest aside"


def test_edition_1995_values() -> None:
    """FOOL-COMP-03 (FOOL-AMB-01 edition-1995): green 2-20 ... blue 2-10, a 62-card deck."""
    engine = new(8, rulings={"FOOL-AMB-01": "edition-1995"})
    state = engine.state()
    assert state["deck"]["green"] == list(range(2, 21)), "FOOL-AMB-01 edition-1995: green 2-20"
    assert state["deck"]["blue"] == list(range(2, 11)), "FOOL-AMB-01 edition-1995: blue 2-10"
    assert engine.to_deal == 62, "FOOL-AMB-01 edition-1995: 62 cards dealt to 8"


def test_random_first_dealer() -> None:
    """FOOL-LEAD-01 (FOOL-AMB-12 random): chance picks the first dealer, each with 1/n."""
    engine = new(4, rulings={"FOOL-AMB-12": "random"})
    outcomes = engine.chance_outcomes()
    assert [p for _, p in outcomes] == [Fraction(1, 4)] * 4, "FOOL-AMB-12: uniform first dealer"
    engine.apply({"kind": "choose_dealer", "player": 2})
    assert engine.legal_actions()[0]["player"] == 3, "FOOL-LEAD-01: the deal starts left of 2"


def test_deal_goes_clockwise_one_card_at_a_time() -> None:
    """FOOL-DEAL-01: a deal naming the wrong player is rejected."""
    engine = new(4)
    rejected(engine, {"kind": "deal", "player": 2, "suit": "green", "value": 2}, "FOOL-DEAL-01")
    rejected(engine, {"kind": "deal", "player": 0, "suit": "green", "value": 27}, "FOOL-DEAL-01")


# -- leading and following ------------------------------------------------------------------


def test_first_lead_left_of_dealer_any_card() -> None:
    """FOOL-LEAD-01, FOOL-LEAD-02: the player left of the dealer leads any card of their hand."""
    engine = start(["g5 r6 w", "g7 r9 y2", "y3 y4 b5", "b2 b3 r2"])
    assert engine.current_player() == 0, "FOOL-LEAD-01: left of the dealer (seat 3) leads"
    assert legal_cards(engine) == ["g5", "r6", "w"]


def test_must_follow_led_colour() -> None:
    """FOOL-FOLLOW-01: a player holding the led colour must play it."""
    engine = start(["g5 g6", "g7 r9", "y3 y4", "b2 b3"])
    play(engine, "g5")
    assert legal_cards(engine) == ["g7"], "FOOL-FOLLOW-01"
    message = rejected(engine, act(engine, "r9"), "FOOL-FOLLOW-01")
    assert "must follow green" in message, "FOOL-FOLLOW-01: the message says what to do"


def test_may_play_any_colour_when_unable_to_follow() -> None:
    """FOOL-FOLLOW-02: without the led colour any card may be played."""
    engine = start(["g5 g6", "g7 r9", "y3 b4", "b2 b3"])
    play(engine, "g5", "g7")
    assert legal_cards(engine) == ["y3", "b4"], "FOOL-FOLLOW-02"


def test_wild_one_may_be_played_instead_of_following() -> None:
    """FOOL-WILD-02: a 1 may be played even by a player holding the led colour."""
    engine = start(["g5 g6", "g7 w", "y3 y4", "b2 b3"])
    play(engine, "g5")
    assert legal_cards(engine) == ["g7", "w"], "FOOL-WILD-02"


def test_holding_only_ones_does_not_oblige_to_follow() -> None:
    """FOOL-WILD-03: a player whose only 'led colour' cards are 1s may play any card."""
    engine = start(["g5 g6", "r9 w", "y3 y4", "b2 b3"])
    play(engine, "g5")
    assert legal_cards(engine) == ["r9", "w"], "FOOL-WILD-03"


def test_led_one_next_coloured_card_sets_colour() -> None:
    """FOOL-WILD-05 (FOOL-AMB-07 next-coloured-card): after a led 1 a coloured card sets it."""
    engine = start(["w g6", "r5 g3", "r9 g2", "y2 y3"])
    play(engine, "w")
    assert engine.state()["lead_colour"] is None, "FOOL-WILD-05: a led 1 sets no colour"
    assert legal_cards(engine) == ["g3", "r5"], "FOOL-WILD-05: no colour to follow yet"
    play(engine, "r5")
    assert engine.state()["lead_colour"] == "red", "FOOL-WILD-05: red sets the colour"
    assert legal_cards(engine) == ["r9"], "FOOL-WILD-05: red must now be followed"
    play(engine, "r9", "y2")
    trick = engine.last_trick
    assert trick is not None and trick.winner == 2, "FOOL-TRICK-01: red 9 wins"
    assert trick.fools == (3,), "FOOL-WORST-02: the off-colour yellow 2 is worst, not the 1"


def test_led_one_leader_declares_colour() -> None:
    """FOOL-WILD-05 (FOOL-AMB-07 leader-declares): a led 1 names the colour to follow."""
    rulings = {"FOOL-AMB-07": "leader-declares"}
    engine = start(["w g6", "r5 g3", "y9 g2", "y2 y3"], rulings=rulings)
    leads = [a for a in engine.legal_actions() if a["suit"] == "wild"]
    assert [a["declare"] for a in leads] == ["green", "red", "yellow", "blue"]
    rejected(engine, act(engine, "w"), "FOOL-WILD-05")
    engine.apply(act(engine, "w", declare="yellow"))
    assert engine.state()["lead_colour"] == "yellow", "FOOL-AMB-07: the declared colour is followed"
    assert legal_cards(engine) == ["g3", "r5"]
    play(engine, "g3")
    assert legal_cards(engine) == ["y9"], "FOOL-FOLLOW-01: the declared yellow must be followed"


def test_default_led_one_declares_nothing() -> None:
    """FOOL-WILD-05: under the default reading a led 1 may not declare a colour."""
    engine = start(["w g6", "r5 g3", "y9 g2", "y2 y3"])
    rejected(engine, act(engine, "w", declare="green"), "FOOL-WILD-05")


# -- winner and worst card ------------------------------------------------------------------


def test_highest_of_led_colour_wins_and_leads() -> None:
    """FOOL-TRICK-01, FOOL-TRICK-02: the highest green wins, not a higher off-colour card."""
    engine = start(["g5 g6", "g7 r9", "y12 y4", "b9 b3"])
    play(engine, "g5", "g7", "y12", "b9")
    trick = engine.last_trick
    assert trick is not None and trick.winner == 1, "FOOL-TRICK-01"
    assert engine.current_player() == 1 and engine.leader == 1, "FOOL-TRICK-02: winner leads"


def test_off_colour_card_is_worst() -> None:
    """FOOL-WORST-02: the lowest off-colour card is worst even above a low led-colour card."""
    engine = start(["g5 g6", "g7 r9", "y12 y4", "b9 b3"])
    play(engine, "g5", "g7", "y12", "b9")
    assert engine.fools == [3], "FOOL-WORST-02: blue 9 (off colour) beats green 5 to worst"


def test_all_one_colour_lowest_is_worst() -> None:
    """FOOL-WORST-01, FOOL-FOOL-01: all green, so the lowest green is worst."""
    engine = start(["g5 g6", "g7 r9", "g3 y4", "g9 b3"])
    play(engine, "g5", "g7", "g3", "g9")
    assert engine.fools == [2], "FOOL-WORST-01"


@pytest.mark.parametrize(("option", "fool_seat"), [("last-played", 3), ("first-played", 1)])
def test_tied_off_colour_numbers(option: str, fool_seat: int) -> None:
    """FOOL-WORST-03 (FOOL-AMB-05): off-colour 4s tie; the last (default) one played is worst."""
    engine = start(["g5 g6", "r4 r9", "g9 y5", "y4 b3"], rulings={"FOOL-AMB-05": option})
    play(engine, "g5", "r4", "g9", "y4")
    assert engine.fools == [fool_seat], f"FOOL-WORST-03 under {option}"


def test_wild_one_is_lowest_of_led_colour() -> None:
    """FOOL-WILD-04, FOOL-WILD-01: in an all-green trick the 1 is the worst card."""
    engine = start(["g5 g6", "w r9", "g9 y5", "g7 b3"])
    play(engine, "g5", "w", "g9", "g7")
    assert engine.fools == [1], "FOOL-WILD-04"


@pytest.mark.parametrize(("option", "fool_seat"),
                         [("off-colour-worse", 3), ("wild-worst", 1)])
def test_wild_one_against_off_colour(option: str, fool_seat: int) -> None:
    """FOOL-WORST-02, FOOL-WILD-04 (FOOL-AMB-04): a 1 and an off-colour red 8 meet."""
    engine = start(["g5 g6", "w r9", "g9 y5", "r8 b3"], rulings={"FOOL-AMB-04": option})
    play(engine, "g5", "w", "g9", "r8")
    assert engine.fools == [fool_seat], f"FOOL-AMB-04 {option}"


@pytest.mark.parametrize(("option", "fool_seat"), [("last-played", 3), ("first-played", 1)])
def test_tied_wild_ones(option: str, fool_seat: int) -> None:
    """FOOL-WILD-04 (FOOL-AMB-06): two 1s are the lowest green; the last one played is worst."""
    engine = start(["g5 g6", "w r9", "g9 y5", "w b3"], rulings={"FOOL-AMB-06": option})
    play(engine, "g5", "w", "g9", "w")
    assert engine.fools == [fool_seat], f"FOOL-AMB-06 {option}"


@pytest.mark.parametrize(("option", "winner", "fool_seat"),
                         [("first-one", 0, 3), ("last-one", 3, 2)])
def test_trick_of_only_ones(option: str, winner: int, fool_seat: int) -> None:
    """FOOL-TRICK-01, FOOL-WILD-05 (FOOL-AMB-11): a trick of 1s has no colour; who wins."""
    engine = start(["w g6", "w r9", "w y5", "w b3"], rulings={"FOOL-AMB-11": option})
    play(engine, "w", "w", "w", "w")
    trick = engine.last_trick
    assert trick is not None and trick.lead_colour is None, \
        "FOOL-AMB-11: no colour in a trick of 1s"
    assert trick.winner == winner, f"FOOL-AMB-11 {option}: winner"
    assert trick.fools == (fool_seat,), f"FOOL-AMB-11 {option}: the Fool is another player"


@pytest.mark.parametrize(("option", "fool_seat", "next_leader"),
                         [("winner-exempt", 3, 0), ("lead-passes-left", 0, 1)])
def test_winner_is_also_worst(option: str, fool_seat: int, next_leader: int) -> None:
    """FOOL-TRICK-02, FOOL-FOOL-04 (FOOL-AMB-14): a led 1 that wins while 1s are worst."""
    rulings = {"FOOL-AMB-07": "leader-declares", "FOOL-AMB-04": "wild-worst",
               "FOOL-AMB-14": option}
    engine = start(["w g2", "r5 r6", "y7 y8", "b3 b4"], rulings=rulings)
    engine.apply(act(engine, "w", declare="green"))
    play(engine, "r5", "y7", "b3")
    trick = engine.last_trick
    assert trick is not None and trick.winner == 0, \
        "FOOL-AMB-14: the led 1 is the only green card and wins"
    assert engine.fools == [fool_seat], f"FOOL-AMB-14 {option}: Fool"
    assert engine.current_player() == next_leader, f"FOOL-AMB-14 {option}: next leader"


# -- Fools sit out --------------------------------------------------------------------------


def test_fool_sits_out_next_trick_then_returns() -> None:
    """FOOL-FOOL-02, FOOL-FOOL-04, FOOL-FOOL-05: the Fool sits out one trick, then plays again."""
    engine = start(["g5 g6 g8", "g7 r9 r2", "g3 y4 y2", "g9 b3 b2"])
    play(engine, "g5", "g7", "g3", "g9")
    assert engine.fools == [2], "FOOL-WORST-01: green 3 is worst"
    assert engine.order == [3, 0, 1], "FOOL-FOOL-04: player 2 is skipped"
    message = rejected(engine, act(engine, "y4", player=2), "FOOL-FOOL-04")
    assert "sits out" in message, "FOOL-FOOL-04: the message says why"
    play(engine, "b3", "g6", "r9")
    assert engine.fools == [0], "FOOL-FOOL-05: the new Fool takes the disc"
    assert 2 in engine.order, "FOOL-FOOL-05: the previous Fool plays again"


@pytest.mark.parametrize(("option", "fools"), [("seven-and-eight", [4, 6]), ("eight-only", [6])])
def test_seven_players_two_fools(option: str, fools: list[int]) -> None:
    """FOOL-FOOL-03 (FOOL-AMB-03): with 7 players two Fools per trick (one under eight-only)."""
    hands = ["g10 g2", "g11 g3", "g12 g4", "g13 g5", "r2 y6", "g14 g7", "b2 y8"]
    engine = start(hands, rulings={"FOOL-AMB-03": option})
    play(engine, "g10", "g11", "g12", "g13", "r2", "g14", "b2")
    assert engine.fools == fools, f"FOOL-FOOL-03 under {option}"


# -- end of round and scoring ---------------------------------------------------------------

# Trick 1: all green, player 3 wins, player 2 (green 3) is the Fool and keeps one card.
# Trick 2: player 3 leads blue 10, player 0 blue 4, player 1 red 6 (off colour: the Fool).
# Players 0, 1 and 3 empty their hands in trick 2; the round ends when it is complete.
ROUND = ["g5 b4", "g7 r6", "g3 {last}", "g9 b10"]
ROUND_PLAY = ["g5", "g7", "g3", "g9", "b10", "b4", "r6"]


def play_round(last: str, *, scores: Sequence[int] | None = None,
               plus_tens: Sequence[int] | None = None,
               rulings: Mapping[str, str] | None = None) -> FoolEngine:
    """Play the two-trick round above; player 2 keeps ``last``."""
    engine = start([h.format(last=last) for h in ROUND], rulings=rulings)
    if scores is not None:
        engine.scores = list(scores)
    if plus_tens is not None:
        engine.plus_tens = list(plus_tens)
    play(engine, *ROUND_PLAY)
    return engine


def test_round_ends_once_the_trick_with_an_empty_hand_is_complete() -> None:
    """FOOL-ROUND-03, FOOL-ROUND-02: the trick in which hands empty is played to its end."""
    engine = start([h.format(last="y12") for h in ROUND])
    play(engine, *ROUND_PLAY[:5])
    assert engine.hands[3] == [] and engine.phase == "play", "FOOL-ROUND-03: trick goes on"
    play(engine, *ROUND_PLAY[5:])
    assert engine.round == 2 and engine.phase == "deal", \
        "FOOL-ROUND-03: the round ends after the trick"


def test_round_scoring() -> None:
    """FOOL-SCORE-01, FOOL-SCORE-03, FOOL-SCORE-04: +10 for emptied hands, minus card numbers."""
    engine = play_round("y12")
    assert engine.scores == [10, 0, -12, 10], "FOOL-SCORE-01/03/04"
    assert engine.plus_tens == [1, 0, 0, 1], "FOOL-END-03: +10s are counted"


def test_going_out_while_fooled_scores_zero() -> None:
    """FOOL-SCORE-02, FOOL-ROUND-04: player 1 empties their hand but is the last trick's Fool."""
    engine = play_round("y12")
    assert engine.last_round is not None and engine.last_round.fools == (1,), \
        "FOOL-ROUND-04: player 1 takes the disc after the final trick"
    assert engine.scores[1] == 0 and engine.plus_tens[1] == 0, "FOOL-SCORE-02"


def test_wild_one_left_in_hand_costs_five() -> None:
    """FOOL-SCORE-05: a wild 1 left in hand costs 5 points."""
    engine = play_round("w")
    assert engine.scores[2] == -5, "FOOL-SCORE-05"


@pytest.mark.parametrize(("before", "over"), [(-75, True), (-68, True), (-67, False)])
def test_game_ends_at_minus_eighty(before: int, over: bool) -> None:
    """FOOL-END-01: the game ends when a score is -80 or less after a round."""
    engine = play_round("y12", scores=[0, 0, before, 0])
    assert (engine.phase == "over") is over, f"FOOL-END-01 at {before - 12}"
    if over:
        result = engine.result()
        assert result is not None and result["winners"] == [0, 3], "FOOL-WIN-01: shared win"
        assert result["ranking"] == [[0, 3], [1], [2]], "FOOL-WIN-01: ranking by score"


def test_game_ends_at_sixth_plus_ten() -> None:
    """FOOL-END-02, FOOL-END-03: the sixth +10 of a player ends the game."""
    engine = play_round("y12", plus_tens=[5, 0, 0, 0])
    assert engine.phase == "over" and engine.plus_tens[0] == 6, "FOOL-END-02"
    assert engine.current_player() is None and engine.legal_actions() == [], \
        "FOOL-END-02: no action after the end"


def test_fooled_going_out_does_not_count_as_plus_ten() -> None:
    """FOOL-END-02, FOOL-SCORE-02: a 0 for going out while fooled is not a +10."""
    engine = play_round("y12", plus_tens=[0, 5, 0, 0])
    assert engine.phase == "deal" and engine.plus_tens[1] == 5, "FOOL-END-02"


def test_win_tie_broken_by_plus_tens() -> None:
    """FOOL-WIN-01 (FOOL-AMB-09 most-plus-tens): tied leaders split by their +10 counts."""
    engine = play_round("y12", scores=[0, 0, -75, 0], plus_tens=[0, 0, 0, 2],
                        rulings={"FOOL-AMB-09": "most-plus-tens"})
    result = engine.result()
    assert result is not None and result["winners"] == [3], "FOOL-AMB-09"
    assert result["ranking"] == [[3], [0], [1], [2]], "FOOL-AMB-09: ranking by score, then +10s"


@pytest.mark.parametrize(("option", "dealer", "leader"),
                         [("dealer-rotates", 0, 1), ("last-winner-leads", 2, 3)])
def test_next_round_dealer_and_leader(option: str, dealer: int, leader: int) -> None:
    """FOOL-LEAD-01 (FOOL-AMB-08): who deals and leads the second round."""
    engine = play_round("y12", rulings={"FOOL-AMB-08": option})
    assert engine.dealer == dealer, f"FOOL-AMB-08 {option}: dealer"
    while engine.current_player() == CHANCE:
        engine.apply(engine.legal_actions()[0])
    assert engine.current_player() == leader, f"FOOL-AMB-08 {option}: leader"


@pytest.mark.parametrize(("option", "fools", "leader"), [("reset", [], 1), ("carry-over", [1], 2)])
def test_last_fool_and_the_next_round(option: str, fools: list[int], leader: int) -> None:
    """FOOL-ROUND-04 (FOOL-AMB-10): the last trick's Fool sits out the next round's first trick?"""
    engine = play_round("y12", rulings={"FOOL-AMB-10": option})
    assert engine.fools == fools, f"FOOL-AMB-10 {option}"
    while engine.current_player() == CHANCE:
        engine.apply(engine.legal_actions()[0])
    assert engine.current_player() == leader, f"FOOL-AMB-10 {option}: first leader"
    assert all(f not in engine.order for f in fools), \
        f"FOOL-AMB-10 {option}: the disc holders sit out"


# -- the readings of the provenance audit (FOOL-AMB-16 .. FOOL-AMB-20) ----------------------


def deal_round(engine: FoolEngine, hands: Sequence[str]) -> list[int]:
    """Deal ``hands`` card by card to whoever the engine deals to next; return that order."""
    left = [h.split() for h in hands]
    order = []
    while engine.current_player() == CHANCE:
        player = engine.legal_actions()[0]["player"]
        suit, value = card(left[player].pop(0))
        engine.apply({"kind": "deal", "player": player, "suit": suit, "value": value})
        order.append(player)
    assert not any(left), "the deal ended before every listed card was dealt"
    return order


SEVEN = ["g10 g2", "g11 g3", "g12 g4", "g13 g5", "g14 g6", "g15 g7", "r2 r3"]


@pytest.mark.parametrize(("option", "fools"), [("next-worst", [0, 6]), ("off-colour-only", [6])])
def test_second_fool_when_one_card_is_off_colour(option: str, fools: list[int]) -> None:
    """FOOL-FOOL-03, FOOL-WORST-02 (FOOL-AMB-16): red 2 is the only off-colour card of a
    7-player trick; the lowest green card (green 10) makes the second Fool, or nobody does."""
    engine = start(SEVEN, rulings={"FOOL-AMB-16": option})
    play(engine, "g10", "g11", "g12", "g13", "g14", "g15", "r2")
    assert engine.fools == fools, f"FOOL-AMB-16 {option}"
    assert engine.decisions["FOOL-AMB-16"] == 1, "FOOL-AMB-16: the question came up once"
    assert engine.order == [p for p in (5, 6, 0, 1, 2, 3, 4) if p not in fools], \
        "FOOL-FOOL-04: the Fools sit out; the winner (green 15) leads"


def test_second_fool_asked_only_where_the_readings_part() -> None:
    """FOOL-AMB-16 is not counted when two cards are off-colour (both readings make both
    Fools) nor with one Fool a trick (four players)."""
    hands = ["g10 g2", "g11 g3", "g12 g4", "g13 g5", "g14 g6", "y2 y3", "r2 r3"]
    engine = start(hands, rulings={"FOOL-AMB-16": "off-colour-only"})
    play(engine, "g10", "g11", "g12", "g13", "g14", "y2", "r2")
    assert engine.fools == [5, 6], "FOOL-WORST-03: the two off-colour 2s make both Fools"
    assert engine.decisions["FOOL-AMB-16"] == 0, "FOOL-AMB-16: no question when they agree"
    four = start(["g5 g6", "g7 r9", "r3 y4", "g9 b3"], rulings={"FOOL-AMB-16": "off-colour-only"})
    play(four, "g5", "g7", "r3", "g9")
    assert four.fools == [2] and four.decisions["FOOL-AMB-16"] == 0, "FOOL-FOOL-01: one Fool"


@pytest.mark.parametrize(("option", "deal", "order", "next_dealer"),
                         [("clockwise", [0, 1, 2, 3], [0, 1, 2, 3], 0),
                          ("counter-clockwise", [0, 3, 2, 1], [0, 3, 2, 1], 2)])
def test_direction_of_play(option: str, deal: list[int], order: list[int],
                           next_dealer: int) -> None:
    """FOOL-LEAD-01 (FOOL-AMB-17): the player left of the dealer (seat 0) is dealt first and
    leads either way; the deal, the trick and the passing of the deal go round one way."""
    engine = new(4, rulings={"FOOL-AMB-02": "random-subset", "FOOL-AMB-17": option},
                 parameters={"cards_per_player": 2})
    dealt = deal_round(engine, [h.format(last="y12") for h in ROUND])
    assert dealt[:4] == deal, f"FOOL-AMB-17 {option}: the deal goes round from seat 0"
    assert engine.order == order, f"FOOL-AMB-17 {option}: the order of play in a trick"
    play(engine, "g5")
    assert engine.current_player() == order[1], f"FOOL-AMB-17 {option}: who follows the lead"
    while engine.round == 1:
        engine.apply(engine.legal_actions()[0])
    assert engine.dealer == next_dealer, f"FOOL-AMB-17 {option}: the deal passes on"


@pytest.mark.parametrize(("option", "followers", "next_leader"),
                         [("clockwise", ["r5", "y7", "b3"], 1),
                          ("counter-clockwise", ["b3", "y7", "r5"], 3)])
def test_lead_passes_past_a_disc_holder_in_the_direction_of_play(
        option: str, followers: list[str], next_leader: int) -> None:
    """FOOL-FOOL-04 (FOOL-AMB-14 lead-passes-left, FOOL-AMB-17): seat 0's led 1 wins and is the
    worst card, so seat 0 sits out; the lead passes to the next seat in the direction of play."""
    rulings = {"FOOL-AMB-02": "random-subset", "FOOL-AMB-07": "leader-declares",
               "FOOL-AMB-04": "wild-worst", "FOOL-AMB-14": "lead-passes-left",
               "FOOL-AMB-17": option}
    engine = new(4, rulings=rulings, parameters={"cards_per_player": 2})
    deal_round(engine, ["w g2", "r5 r6", "y7 y8", "b3 b4"])
    engine.apply(act(engine, "w", declare="green"))
    play(engine, *followers)
    assert engine.fools == [0], "FOOL-AMB-14 lead-passes-left: the winner is the Fool"
    assert engine.current_player() == next_leader, f"FOOL-AMB-17 {option}: the lead passes on"


@pytest.mark.parametrize(("option", "scores", "plus_tens"),
                         [("trick-completes", [10, 0, -12, 10], [1, 0, 0, 1]),
                          ("at-once", [-4, -6, -12, 10], [0, 0, 0, 1])])
def test_round_ends_at_once_or_after_the_trick(option: str, scores: list[int],
                                               plus_tens: list[int]) -> None:
    """FOOL-ROUND-02, FOOL-ROUND-03, FOOL-ROUND-04 (FOOL-AMB-18): seat 3 leads blue 10, its last
    card. The trick is played out (seats 0 and 1 empty their hands too, seat 1 as the Fool), or
    the round ends there and seats 0 and 1 lose the cards they did not play."""
    engine = start([h.format(last="y12") for h in ROUND], rulings={"FOOL-AMB-18": option})
    play(engine, *ROUND_PLAY[:5])
    assert engine.decisions["FOOL-AMB-18"] == 1, "FOOL-AMB-18: a hand emptied mid-trick"
    if option == "trick-completes":
        assert engine.phase == "play", "FOOL-AMB-18: the trick goes on"
        play(engine, *ROUND_PLAY[5:])
    assert engine.round == 2 and engine.scores == scores, f"FOOL-AMB-18 {option}: scores"
    assert engine.plus_tens == plus_tens, f"FOOL-AMB-18 {option}: +10 counts"
    assert engine.decisions["FOOL-AMB-18"] == 1, "FOOL-AMB-18: asked only mid-trick"


def test_round_ended_at_once_leads_from_the_last_completed_trick() -> None:
    """FOOL-AMB-18 at-once with FOOL-AMB-08 last-winner-leads: the unfinished trick has no
    winner, so the winner of the round's last completed trick (seat 3) leads the next round."""
    engine = start([h.format(last="y12") for h in ROUND],
                   rulings={"FOOL-AMB-18": "at-once", "FOOL-AMB-08": "last-winner-leads"})
    play(engine, *ROUND_PLAY[:5])
    assert engine.round == 2 and engine.dealer == 2, "FOOL-AMB-08: seat 3 leads, seat 2 deals"
    assert engine.last_trick is not None and engine.last_trick.number == 1, \
        "FOOL-AMB-18 at-once: the unfinished trick is no completed trick"


@pytest.mark.parametrize(("option", "legal"), [("free", ["r9", "y2", "w"]),
                                               ("must-play-one", ["w"])])
def test_a_one_in_hand_and_the_led_colour(option: str, legal: list[str]) -> None:
    """FOOL-WILD-03, FOOL-FOLLOW-01 (FOOL-AMB-19): seat 1 holds a 1 but no green card."""
    engine = start(["g5 r6 y7", "w r9 y2", "g3 y4 b5", "g9 b3 b2"],
                   rulings={"FOOL-AMB-19": option})
    play(engine, "g5")
    assert legal_cards(engine) == legal, f"FOOL-AMB-19 {option}"
    if option == "must-play-one":
        message = rejected(engine, act(engine, "r9"), "FOOL-WILD-03")
        assert "must play the 1" in message, "FOOL-AMB-19: the message says what to play"
    engine.apply(act(engine, "w"))
    assert engine.decisions["FOOL-AMB-19"] >= 1, "FOOL-AMB-19: the question came up"
    assert legal_cards(engine) == ["g3"], "FOOL-FOLLOW-01: seat 2 holds green and follows"


@pytest.mark.parametrize(("option", "before", "over"),
                         [("running-total", -70, True), ("one-round", -70, False),
                          ("running-total", 0, False), ("one-round", 0, False)])
def test_minus_eighty_is_a_total_or_one_round(option: str, before: int, over: bool) -> None:
    """FOOL-END-01 (FOOL-AMB-20): seat 2 loses 12 from -70: -82 in total, -12 in the round."""
    engine = play_round("y12", scores=[0, 0, before, 0], rulings={"FOOL-AMB-20": option})
    assert (engine.phase == "over") is over, f"FOOL-AMB-20 {option} from {before}"


def test_one_round_of_minus_eighty_ends_the_game() -> None:
    """FOOL-END-01 (FOOL-AMB-20 one-round): a round costing end_score or more ends the game
    whatever the total (end_score set to -12 here so one round can reach it)."""
    engine = start([h.format(last="y12") for h in ROUND], rulings={"FOOL-AMB-20": "one-round"},
                   parameters={"end_score": -12})
    engine.scores = [0, 0, 50, 0]
    play(engine, *ROUND_PLAY)
    assert engine.phase == "over" and engine.scores[2] == 38, "FOOL-AMB-20 one-round"


# -- bad input ------------------------------------------------------------------------------


def test_card_not_in_hand_is_rejected() -> None:
    """FOOL-LEAD-02: a card the player does not hold is rejected; the state is unchanged."""
    engine = start(["g5 g6", "g7 r9", "y3 y4", "b2 b3"])
    message = rejected(engine, act(engine, "g7"), "FOOL-LEAD-02")
    assert "does not hold green 7" in message, "FOOL-LEAD-02: the message names the card"


def test_unknown_card_and_wrong_turn_are_rejected() -> None:
    """FOOL-COMP-03, FOOL-TRICK-02: a card outside the deck, or a player out of turn."""
    engine = start(["g5 g6", "g7 r9", "y3 y4", "b2 b3"])
    rejected(engine, {"kind": "lead", "player": 0, "suit": "green", "value": 99}, "FOOL-COMP-03")
    rejected(engine, act(engine, "g7", player=1), "FOOL-TRICK-02")
    rejected(engine, {"kind": "follow", "player": 0, "suit": "green", "value": 5}, "FOOL-LEAD-02")
    rejected(engine, {"kind": "deal", "player": 0, "suit": "green", "value": 5}, "FOOL-DEAL-01")


def test_wrongly_typed_fields_are_rejected() -> None:
    """FOOL-LEAD-02, FOOL-DEAL-01: ``true`` is not the value 1, ``1.0`` is not 1, nor ``"0"``
    player 0 (JSON types are kept); the rejection cites the action schema of the kind."""
    engine = start(["w g6", "g7 r9", "y3 y4", "b2 b3"])
    message = rejected(engine, {"kind": "lead", "player": 0, "suit": "wild", "value": True},
                       "FOOL-LEAD-02")
    assert "'value' is true, a boolean; the action schema of lead" in message, "FOOL-LEAD-02"
    message = rejected(engine, {"kind": "lead", "player": 0, "suit": "wild", "value": 1.0},
                       "FOOL-LEAD-02")
    assert "'value' is 1.0, a decimal number; the action schema of lead" in message, "FOOL-LEAD-02"
    message = rejected(engine, {"kind": "lead", "player": "0", "suit": "green", "value": 6},
                       "FOOL-LEAD-02")
    assert "'player' is '0', a string" in message, "FOOL-LEAD-02"
    fresh = new(4)
    message = rejected(fresh, {"kind": "deal", "player": 0, "suit": "wild", "value": True},
                       "FOOL-DEAL-01")
    assert "the action schema of deal" in message, "FOOL-DEAL-01"


def test_unknown_ruling_option_is_rejected() -> None:
    """FOOL-AMB-04: an unknown ruling option is a configuration error naming the record."""
    with pytest.raises(ConfigError) as info:
        new(4, rulings={"FOOL-AMB-04": "ones-are-best"})
    assert "FOOL-AMB-04" in str(info.value) and "ones-are-best" in str(info.value), \
        "unknown ruling option: the message names the record and the option"
    assert "off-colour-worse" in str(info.value), \
        "unknown ruling option: the message lists the valid options"


def test_player_count_outside_four_to_eight_is_rejected() -> None:
    """FOOL-SETUP-01: the game is for 4 to 8 players."""
    for players in (3, 9):
        with pytest.raises(ConfigError, match="4 to 8 players"):
            new(players)


# -- narration and copies -------------------------------------------------------------------


def test_describe_and_clone() -> None:
    """FOOL-WILD-01: narration names the card and what a 1 counts as; clones are independent."""
    engine = start(["g5 g6", "w r9", "y3 y4", "b2 b3"])
    assert engine.describe(act(engine, "g5"), 0) == "player 0 leads green 5", \
        "FOOL-LEAD-02: narration"
    play(engine, "g5")
    assert engine.describe(act(engine, "w"), 1) == "player 1 plays wild 1 (counts as green)", \
        "FOOL-WILD-01: narration says what a 1 counts as"
    assert engine.describe({"kind": "deal", "player": 2, "suit": "red", "value": 3}, CHANCE) == \
        "chance deals red 3 to player 2"
    copy = engine.clone()
    before = json.dumps(engine.state(), sort_keys=True)
    copy.apply(act(copy, "w"))
    assert json.dumps(engine.state(), sort_keys=True) == before, "clone: the original is unchanged"
    assert copy.state() != engine.state(), "clone: the copy moved on"


@pytest.mark.parametrize(("players", "rulings"), [
    (4, {}), (8, {}), (5, {"FOOL-AMB-15": "hand-at-a-time"}),
    (6, {"FOOL-AMB-02": "random-subset"})])
def test_state_views_built_from_the_last_move_match_whole_ones(
        players: int, rulings: dict[str, str]) -> None:
    """FOOL-DEAL-01..03 and FOOL-FOLLOW-01 move one card at a time: the state's hands and deck,
    derived from the zones before the card moved, equal zones built whole at every step (the
    kit's differential check cannot see this: the engine and the reference share the code)."""
    import random

    rng = random.Random(players)
    for _ in range(3):
        engine = new_game("fool", players=players, rulings=rulings)
        assert isinstance(engine, FoolEngine)
        assert engine._plan().monotone  # the derived views are the ones under test
        for _step in range(400):
            if engine.current_player() is None:
                break
            state = engine.state()
            whole = engine._build_state_with(
                lambda cards, counted=False, e=engine: (e._counted_zone(cards) if counted
                                                        else e._zone(cards)))
            assert state == whole
            legal = ([a for a, _ in engine.chance_outcomes()]
                     if engine.current_player() == CHANCE else engine.legal_actions())
            engine.apply(legal[rng.randrange(len(legal))])


def test_piles_kept_as_lists_or_bytearrays_show_the_same_state() -> None:
    """The deck and the cards set aside (FOOL-DEAL-01, FOOL-SETUP-07) are kept as bytearrays
    when every count fits in a byte, else as lists: the state is the same either way."""
    import random

    from rulespec.reference.play import random_policy

    assert fool._fits_bytes([0, 3, 99]) and not fool._fits_bytes([0, 300])
    assert type(fool._counts([1, 2], True)) is bytearray
    assert fool._counts([1, 300], False) == [1, 300]
    engine = new_game("fool", players=5)
    assert isinstance(engine, FoolEngine)
    assert type(engine.deck) is bytearray and type(engine.aside) is bytearray
    rng = random.Random(7)
    steps = 0
    while engine.current_player() is not None and steps < 150:
        engine.apply(random_policy(engine, rng))
        steps += 1
        state = engine.state()
        twin = engine.clone()
        assert type(twin.deck) is bytearray and twin.deck is not engine.deck
        twin.deck, twin.aside = list(engine.deck), list(engine.aside)
        twin.invalidate()
        assert twin.state() == state


def test_a_frozen_release_without_the_new_records_plays_as_it_specified() -> None:
    """fool@1.1.0 has no FOOL-AMB-16 .. FOOL-AMB-20 (they came in 1.2.0); ``rulespec diff``
    replays its evidence on this module with that spec. The module then plays what 1.1.0
    specified, which is today's default play: the same actions give the same states."""
    import random

    from rulespec.reference.core import make_config
    from rulespec.releases.store import release_spec

    old = release_spec(GAME, "1.1.0")
    assert "FOOL-AMB-17" not in old.ambiguities
    for players in (4, 8):
        then = FoolEngine(old, make_config(old, players=players))
        now = new(players)
        rng = random.Random(players)
        while now.current_player() is not None:
            legal = now.legal_actions()
            assert then.legal_actions() == legal
            action = legal[rng.randrange(len(legal))]
            then.apply(action)
            now.apply(action)
            assert then.state() == now.state()
        assert then.result() == now.result() and then.decisions["FOOL-AMB-17"] == 0


@pytest.mark.parametrize("option", ["running-total", "one-round"])
def test_an_end_score_of_zero_ends_the_game_only_after_a_round(option: str) -> None:
    """FOOL-END-01 under FOOL-AMB-20 (issue 42's finding): the schema allows end_score 0, and
    "has scored 0 or less" is a check made when a round is scored, not of the start, where
    nobody has scored yet: FOOL-INV-NOT-OVER-YET held the start (every score 0) against it."""
    import random

    from rulespec.reference.play import playout
    from rulespec.spec.invariants import Invariants

    spec = get_spec(GAME)
    engine = new(4, rulings={"FOOL-AMB-20": option}, parameters={"end_score": 0})
    state = engine.state()
    broken = Invariants(spec).check(state, params=dict(engine.config.parameters),
                                    config=engine.config.to_json())
    assert not broken, [v.invariant for v in broken]
    rng = random.Random(42)
    prev = state
    for step in playout(engine, rng):
        state = engine.state()
        broken = Invariants(spec).check(state, prev=prev, action=step.action,
                                        params=dict(engine.config.parameters),
                                        config=engine.config.to_json())
        assert not broken, [v.invariant for v in broken]
        prev = state
    assert engine.state()["phase"] == "over", "FOOL-END-01: the game ends after a round"


@pytest.mark.parametrize(("players", "rulings"), [
    (4, {"FOOL-AMB-12": "random", "FOOL-AMB-10": "carry-over"}),
    (5, {"FOOL-AMB-07": "leader-declares", "FOOL-AMB-15": "hand-at-a-time",
         "FOOL-AMB-02": "random-subset", "FOOL-AMB-18": "at-once",
         "FOOL-AMB-17": "counter-clockwise"})])
def test_clone_is_an_exact_independent_copy(players: int, rulings: dict[str, str]) -> None:
    """FOOL-DEAL-01, FOOL-TRICK-01, FOOL-SCORE-01, FOOL-END-01: the engine's own ``clone``
    equals ``copy.deepcopy`` after every deal and play of random games (rounds dealt, tricks
    won, rounds scored, the game ended), plays on alike, and shares nothing an action changes."""
    steps = check_clones(GAME, seeds=range(2), players=players, rulings=rulings, max_steps=70,
                         parameters={"cards_per_player": 3})
    assert steps > 100


#: What ``FoolEngine.__init__`` reads from the configuration once and nothing assigns again
#: (immutable values: numbers, a tuple, a frozen card type), so no game changes them.
CONFIGURATION_CONSTANTS = frozenset({
    "colours",  # the suit_values colours, a tuple of strings
    "wild_type",  # the wild card's type, a frozen CardType of the shared tables
    "_small",  # whether every count of the whole deck fits in a byte (piles as bytearrays)
    "cards_per_player",  # parameter cards_per_player
    "fools_per_trick",  # parameter fools_per_trick at this player count
    "wild_penalty",  # parameter wild_penalty
    "going_out_points",  # parameter going_out_points
    "fool_going_out_points",  # parameter fool_going_out_points
    "end_score",  # parameter end_score
    "plus_ten_limit",  # parameter plus_ten_limit
})


def test_clone_is_checked_on_every_attribute_play_changes() -> None:
    """FOOL-DEAL-01, FOOL-LEAD-01, FOOL-END-01 under FOOL-AMB-12 random, FOOL-AMB-02
    random-subset, FOOL-AMB-15 hand-at-a-time and FOOL-AMB-17 counter-clockwise: whole games
    change every attribute of the engine that is neither a constant table nor a configuration
    constant (the cards set aside, ``aside``, filled by the undealt cards and emptied for the
    next round; the deal's step round the table, ``_deal_step``, and the deal quotas,
    ``_quota``, set once the first dealer is drawn), and the clone is checked against the deep
    copy at every one of their steps."""
    changed: set[str] = set()
    rulings = {"FOOL-AMB-12": "random", "FOOL-AMB-02": "random-subset",
               "FOOL-AMB-15": "hand-at-a-time", "FOOL-AMB-17": "counter-clockwise"}
    steps = check_clones(GAME, seeds=range(2), players=5, rulings=rulings, max_steps=200,
                         play_out_every=50, parameters={"cards_per_player": 3}, changed=changed)
    assert steps > 150
    assert never_changed(GAME, changed, players=5, constants=CONFIGURATION_CONSTANTS) == set()


@pytest.mark.parametrize("option", ["most-plus-tens", "shared"])
def test_the_shared_result_is_the_result_the_memory_makes(option: str) -> None:
    """FOOL-END-01, FOOL-END-02, FOOL-AMB-09: ``_result`` is in ``SHARED`` (copies share it, and
    the verifier leaves it out of an engine's memory), which is sound only while it is set once
    at the end from what the memory holds and never changed in place: a copy holds the same
    object, the result made again from the copy's scores, discs and round equals it, and making
    it again leaves the original as it was."""
    import random

    from rulespec.reference.play import random_policy

    rulings = {**get_spec(GAME).default_rulings(), "FOOL-AMB-09": option}
    for seed in range(3):
        engine = new_game(GAME, players=4, rulings=rulings,
                          parameters={"cards_per_player": 3})
        assert isinstance(engine, FoolEngine) and "_result" in FoolEngine.SHARED
        rng = random.Random(seed)
        while engine.current_player() is not None:
            engine.apply(random_policy(engine, rng))
        made = engine._result
        assert made is not None
        kept = json.dumps(made, sort_keys=True)
        twin = engine.clone()
        assert twin._result is made
        assert twin._make_result() == made
        assert json.dumps(engine._result, sort_keys=True) == kept
