"""Ouro de Tolo: scenario tests, each driving the reference engine with scripted actions.

Chance outcomes are chosen by the test (which card is dealt, which stone comes out of the bag),
so every scenario is exact. Test names and first docstring lines cite the clauses they check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulespec.games.ouro_de_tolo import OuroDeTolo
from rulespec.reference.core import CHANCE, Action, ConfigError, IllegalAction
from rulespec.reference.registry import check_implementation, new_game
from rulespec.spec.registry import get_spec
from rulespec.spec.validate import load_spec
from tests.games.clone_check import check_clones, never_changed

GAME = "ouro-de-tolo"
FILLER = ("dynamite", "favor", "light_hand", "not_mine")


def start(
    players: int = 3,
    hands: Mapping[int, Sequence[str]] | None = None,
    *,
    bonus: str | None = "dynamite",
    rulings: Mapping[str, str] | None = None,
    variants: Sequence[str] = (),
    parameters: Mapping[str, Any] | None = None,
) -> OuroDeTolo:
    """Start a game, deal the given cards (own-turn filler for the rest) and turn the bonus."""
    engine = new_game(GAME, players=players, rulings=rulings, variants=variants,
                      parameters=parameters)
    assert isinstance(engine, OuroDeTolo)
    wanted = hands or {}
    deal = engine.rules.deal
    per = {p: list(wanted.get(p, ())) for p in range(players)}
    for p in range(players):
        k = 0
        while len(per[p]) < deal:
            per[p].append(FILLER[(p + k) % len(FILLER)])
            k += 1
    while engine.phase == "deal":
        engine.apply({"kind": "card", "card": per[engine.queue[0]].pop(0)})
    if engine.phase == "first_player":
        engine.apply({"kind": "first_player", "player": 0})
    if engine.phase == "bonus" and bonus is not None:
        engine.apply({"kind": "card", "card": bonus})
    return engine


def draw(engine: OuroDeTolo, colour: str, kind: str = "draw") -> None:
    """The player to move draws (``draw`` or ``caxias_draw``) and the bag gives ``colour``."""
    engine.apply({"kind": kind})
    engine.apply({"kind": "stone", "colour": colour})


def stones(engine: OuroDeTolo, player: int) -> dict[str, int]:
    """Return the non-zero stones a player holds."""
    return {c: k for c, k in engine.state()["players"][player]["stones"].items() if k}


def hand(engine: OuroDeTolo, player: int) -> dict[str, int]:
    """Return the non-zero cards a player holds."""
    return {c: k for c, k in engine.state()["players"][player]["hand"].items() if k}


def rejected(engine: OuroDeTolo, action: Any, clause: str) -> IllegalAction:
    """Check ``action`` is rejected citing ``clause`` and the state is unchanged."""
    before = engine.state()
    with pytest.raises(IllegalAction) as info:
        engine.apply(action)
    assert clause in info.value.clauses, f"{clause}: rejection cites {info.value.clauses}"
    assert clause in str(info.value), f"{clause}: message does not name the clause"
    assert engine.state() == before, f"{clause}: a rejected action changed the state"
    return info.value


def kinds(engine: OuroDeTolo) -> list[str]:
    """Return the kinds of the legal actions."""
    return [str(a["kind"]) for a in engine.legal_actions()]


# -- the spec -------------------------------------------------------------------------------------


def test_spec_validates_with_verbatim_quotes(rulebooks: Path) -> None:
    """OURO-COMP-01: the spec loads and every clause quote is verbatim in the rulebook."""
    spec = load_spec(Path(__file__).resolve().parents[2] / "specs" / "ouro-de-tolo.yaml",
                     sources=rulebooks)
    assert len(spec.ambiguities) >= 15, "OURO-AMB: at least fifteen ambiguity records"
    assert check_implementation(spec) == [], "OURO-AMB: RULINGS and VARIANTS match the spec"


def test_components_match_the_printed_counts() -> None:
    """OURO-COMP-01, OURO-COMP-02: 70 stones in seven colours, 47 game cards of seven types."""
    spec = get_spec(GAME)
    params = spec.default_parameters(4)
    assert sum(params["stone_counts"].values()) == 70, "OURO-COMP-01"
    assert len(params["stone_counts"]) == 7, "OURO-COMP-01"
    assert sum(params["card_counts"].values()) == 47, "OURO-COMP-02"
    assert params["stone_counts"]["fools_gold"] * 5 == (70 - 20) * 2, "OURO-DRAW-02: 5 to 2"


# -- setup ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(3, 3), (4, 4), (5, 5), (6, 5)])
def test_setup_deals_by_table_one_card_at_a_time(players: int, cards: int) -> None:
    """OURO-SETUP-03: cards are dealt one at a time by the cards-per-player table."""
    engine = new_game(GAME, players=players)
    assert isinstance(engine, OuroDeTolo)
    deals = 0
    while engine.phase == "deal":
        outcomes = engine.chance_outcomes()
        assert sum(p for _, p in outcomes) == 1, "OURO-SETUP-03: probabilities add up to 1"
        engine.apply(outcomes[0][0])
        deals += 1
    assert deals == players * cards, f"OURO-SETUP-03: {deals} cards dealt"
    state = engine.state()
    assert all(sum(p["hand"].values()) == cards for p in state["players"]), "OURO-SETUP-03"
    assert state["phase"] == "bonus" and state["to_move"] == CHANCE, "OURO-PLAY-03: bonus next"


def test_first_card_probability_is_exact() -> None:
    """OURO-SETUP-03: the first card dealt is Dynamite with probability 12/47."""
    engine = new_game(GAME, players=3)
    probs = {a["card"]: p for a, p in engine.chance_outcomes()}
    assert probs["dynamite"] == Fraction(12, 47), "OURO-SETUP-03"
    assert probs["not_mine_either"] == Fraction(2, 47), "OURO-SETUP-03"


def test_bonus_is_turned_and_bag_is_full() -> None:
    """OURO-PLAY-03, OURO-DRAW-02: a bonus card is face up and all 70 stones are in the bag."""
    engine = start(3, bonus="tired")
    state = engine.state()
    assert state["bonus"] == "tired", "OURO-PLAY-03"
    assert sum(state["bag"].values()) == 70, "OURO-DRAW-02"
    assert state["to_move"] == 0 and state["phase"] == "turn", "OURO-SETUP-06: seat 0 starts"
    engine.apply({"kind": "draw"})
    probs = {a["colour"]: p for a, p in engine.chance_outcomes()}
    assert probs["fools_gold"] == Fraction(20, 70), "OURO-DRAW-01: blind draw from the bag"


# -- turns ----------------------------------------------------------------------------------------


def test_turn_offers_the_three_actions_in_canonical_order() -> None:
    """OURO-PLAY-05, OURO-QG-07: draw, leave, then the own-turn cards by target."""
    engine = start(3, {0: ["dynamite", "favor", "light_hand"]})
    assert engine.legal_actions() == [
        {"kind": "draw"}, {"kind": "leave"}, {"kind": "play_dynamite"},
        {"kind": "play_favor", "target": 1}, {"kind": "play_favor", "target": 2},
        {"kind": "play_light_hand", "target": 1}, {"kind": "play_light_hand", "target": 2},
    ], "OURO-PLAY-05: the turn actions in canonical order"


def test_draw_keeps_valuable_stone_and_passes_the_turn() -> None:
    """OURO-DRAW-04, OURO-QG-07: a valuable stone is kept; one action per turn."""
    engine = start(3)
    draw(engine, "ruby")
    assert stones(engine, 0) == {"ruby": 1}, "OURO-DRAW-04"
    assert engine.current_player() == 1, "OURO-QG-07: the turn passes after one action"


def test_second_fools_gold_is_an_accident() -> None:
    """OURO-QG-08, OURO-DRAW-05: one Fool's Gold is harmless, the second is an accident."""
    engine = start(3)
    draw(engine, "fools_gold")
    assert engine.state()["players"][0]["status"] == "in_mine", "OURO-DRAW-05: one is harmless"
    draw(engine, "quartz")
    draw(engine, "quartz")
    draw(engine, "fools_gold")
    assert engine.state()["players"][0]["status"] == "accident", "OURO-QG-08"
    assert engine.current_player() == 1, "OURO-QG-08: the accident player is out"


def test_first_voluntary_leaver_takes_the_bonus_not_the_accident() -> None:
    """OURO-LEAVE-02, OURO-LEAVE-05: the bonus goes to the first player who leaves by choice."""
    engine = start(4, bonus="tired")
    draw(engine, "fools_gold")  # player 0
    draw(engine, "emerald")  # player 1
    draw(engine, "amber")  # player 2
    draw(engine, "gold")  # player 3
    draw(engine, "fools_gold")  # player 0: accident
    assert engine.state()["bonus"] == "tired", "OURO-LEAVE-05: no bonus for an accident"
    engine.apply({"kind": "leave"})  # player 1
    state = engine.state()
    assert state["bonus"] is None and state["bonus_taken_by"] == 1, "OURO-LEAVE-02"
    assert hand(engine, 1).get("tired") == 1, "OURO-LEAVE-02: bonus card in hand"
    engine.apply({"kind": "leave"})  # player 2: no second bonus
    assert "tired" not in hand(engine, 2), "OURO-PLAY-03: one bonus per day"


# -- the Caxias -----------------------------------------------------------------------------------


def test_caxias_bonus_discarded_and_no_cards() -> None:
    """OURO-CAX-01, OURO-CAX-02, OURO-CAX-06: the last player is the Caxias; bonus discarded."""
    engine = start(3, {2: ["dynamite", "favor", "light_hand"]}, bonus="favor")
    draw(engine, "fools_gold")
    draw(engine, "fools_gold")
    engine.apply({"kind": "draw"})
    engine.apply({"kind": "stone", "colour": "quartz"})  # player 2
    draw(engine, "fools_gold")  # player 0: accident
    draw(engine, "fools_gold")  # player 1: accident -> player 2 alone
    state = engine.state()
    assert state["caxias"] == 2 and state["phase"] == "caxias", "OURO-CAX-01"
    assert state["bonus"] is None and state["discard"]["favor"] == 1, "OURO-CAX-02"
    assert kinds(engine) == ["buy_card", "caxias_draw"], "OURO-CAX-03: two options"
    rejected(engine, {"kind": "play_dynamite"}, "OURO-CAX-06")


def _to_caxias(engine: OuroDeTolo) -> None:
    """Players 1.. leave in turn until player 0 is alone in the mine (3 players)."""
    draw(engine, "sapphire")  # player 0
    engine.apply({"kind": "leave"})  # player 1
    engine.apply({"kind": "leave"})  # player 2


def test_caxias_buys_a_card_and_the_day_ends() -> None:
    """OURO-CAX-04, OURO-EOD-03: buying takes one card and ends the workday; stones traded."""
    engine = start(3)
    _to_caxias(engine)
    assert engine.state()["caxias"] == 0, "OURO-CAX-01"
    before = sum(hand(engine, 0).values())
    engine.apply({"kind": "buy_card"})
    engine.apply({"kind": "card", "card": "tired"})
    state = engine.state()
    assert sum(hand(engine, 0).values()) == before + 1, "OURO-CAX-04"
    assert state["players"][0]["money"] == 4, "OURO-EOD-03: a sapphire pays 4"
    assert state["settled_days"] == 1 and state["day"] == 2, "OURO-EOD-04: a new workday"
    assert state["first_player"] == 0, "OURO-EOD-04: the Caxias starts the next day"


def test_caxias_draws_until_stopping_and_cannot_buy_after() -> None:
    """OURO-CAX-05, OURO-CAX-07: draw one at a time; after a draw no card can be bought."""
    engine = start(3)
    _to_caxias(engine)
    draw(engine, "gold", "caxias_draw")
    assert kinds(engine) == ["caxias_draw", "caxias_stop"], "OURO-CAX-07"
    rejected(engine, {"kind": "buy_card"}, "OURO-CAX-07")
    draw(engine, "fools_gold", "caxias_draw")
    engine.apply({"kind": "caxias_stop"})
    assert engine.state()["players"][0]["money"] == 4 + 8, "OURO-EOD-03: sapphire + gold"


def test_caxias_second_fools_gold_loses_everything() -> None:
    """OURO-CAX-08, OURO-EOD-02: a Caxias accident pays nothing and ends the day."""
    engine = start(3)
    _to_caxias(engine)
    draw(engine, "fools_gold", "caxias_draw")
    draw(engine, "ruby", "caxias_draw")
    draw(engine, "fools_gold", "caxias_draw")
    state = engine.state()
    assert state["players"][0]["money"] == 0, "OURO-CAX-08"
    assert state["settled_days"] == 1, "OURO-EOD-01: the mine is empty"
    assert sum(state["bag"].values()) == 70, "OURO-EOD-02: stones back in the bag"


# -- own-turn cards ------------------------------------------------------------------------------


def test_dynamite_keeps_valuables_and_returns_fools_gold() -> None:
    """OURO-CARD-05: three stones at once; Fool's Gold goes back to the bag."""
    engine = start(3, {0: ["dynamite"]})
    engine.apply({"kind": "play_dynamite"})
    for colour in ("fools_gold", "ruby", "fools_gold"):
        engine.apply({"kind": "stone", "colour": colour})
    assert stones(engine, 0) == {"ruby": 1}, "OURO-CARD-05"
    assert engine.state()["bag"]["fools_gold"] == 20, "OURO-CARD-05: Fool's Gold returned"
    assert engine.state()["discard"]["dynamite"] == 1, "OURO-RESP-05: the card is discarded"
    assert engine.current_player() == 1, "OURO-CARD-04: the card uses the turn"


def test_favor_target_draws_two_and_card_player_takes_one() -> None:
    """OURO-CARD-06: the target draws two; the card player may take one of them."""
    engine = start(3, {0: ["favor"]})
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "gold"})
    engine.apply({"kind": "stone", "colour": "quartz"})
    assert engine.current_player() == 0 and kinds(engine) == [
        "favor_take", "favor_take", "favor_leave"], "OURO-CARD-06: the card player chooses"
    engine.apply({"kind": "favor_take", "colour": "gold"})
    assert stones(engine, 0) == {"gold": 1}, "OURO-CARD-06"
    assert stones(engine, 1) == {"quartz": 1}, "OURO-CARD-06: the other goes to the drawer"


def test_favor_gives_second_fools_gold_out_of_turn() -> None:
    """OURO-CARD-07: a second Fool's Gold from Do Me a Favor puts the target out at once."""
    engine = start(3, {0: ["favor"]})
    draw(engine, "quartz")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "emerald"})
    engine.apply({"kind": "favor_leave"})
    assert engine.state()["players"][1]["status"] == "accident", "OURO-CARD-07"
    assert engine.current_player() == 2, "OURO-CARD-07: the target is skipped"


def test_favor_answered_by_im_tired() -> None:
    """OURO-RESP-01, OURO-RESP-02: I'm Tired cancels the favor; both cards are discarded."""
    engine = start(3, {0: ["favor"], 1: ["tired"]})
    engine.apply({"kind": "play_favor", "target": 1})
    state = engine.state()
    assert state["phase"] == "response" and state["to_move"] == 1, "OURO-RESP-01: a window"
    assert kinds(engine) == ["respond_tired", "decline"], "OURO-RESP-02"
    engine.apply({"kind": "respond_tired"})
    state = engine.state()
    assert sum(state["bag"].values()) == 70, "OURO-RESP-02: no stone drawn"
    assert state["discard"]["favor"] == 1 and state["discard"]["tired"] == 1, "OURO-RESP-05"
    assert engine.current_player() == 1, "OURO-RESP-02: the turn passes on"


def test_favor_window_declined_goes_on() -> None:
    """OURO-RESP-01: a target who declines draws the two stones."""
    engine = start(3, {0: ["favor"], 1: ["tired"]})
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "decline"})
    assert engine.current_player() == CHANCE, "OURO-CARD-06: the draws follow"
    assert hand(engine, 1).get("tired") == 1, "OURO-RESP-01: the response card is kept"


def test_light_hand_steals_two_stones() -> None:
    """OURO-CARD-08: Light Hand steals two stones; the thief picks them (OURO-AMB-03 taker)."""
    engine = start(3, {1: ["light_hand"]})
    draw(engine, "gold")
    draw(engine, "quartz")  # player 1
    draw(engine, "amber")  # player 2
    draw(engine, "ruby")  # player 0
    engine.apply({"kind": "play_light_hand", "target": 0})
    assert engine.current_player() == 1 and kinds(engine) == ["steal", "steal"], "OURO-AMB-03"
    engine.apply({"kind": "steal", "colour": "gold"})
    engine.apply({"kind": "steal", "colour": "ruby"})
    assert stones(engine, 1) == {"quartz": 1, "gold": 1, "ruby": 1}, "OURO-CARD-08"
    assert stones(engine, 0) == {}, "OURO-CARD-08"


def test_very_light_hand_turns_the_steal_around() -> None:
    """OURO-RESP-03: nothing is stolen and the target takes one stone from the thief."""
    engine = start(3, {0: ["very_light_hand"], 1: ["light_hand"]})
    draw(engine, "gold")  # player 0
    draw(engine, "ruby")  # player 1
    draw(engine, "amber")  # player 2
    draw(engine, "quartz")  # player 0
    engine.apply({"kind": "play_light_hand", "target": 0})
    assert engine.current_player() == 0 and kinds(engine) == [
        "respond_very_light_hand", "decline"], "OURO-RESP-01"
    engine.apply({"kind": "respond_very_light_hand"})
    engine.apply({"kind": "steal", "colour": "ruby"})
    assert stones(engine, 0) == {"gold": 1, "quartz": 1, "ruby": 1}, "OURO-RESP-03"
    assert stones(engine, 1) == {}, "OURO-RESP-03"


def test_not_mine_passes_a_fools_gold_and_causes_accident() -> None:
    """OURO-CARD-09, OURO-CARD-10: Not Mine passes a Fool's Gold; a second one is an accident."""
    engine = start(3, {0: ["not_mine"]})
    assert "play_not_mine" not in kinds(engine), "OURO-CARD-09: needs a Fool's Gold to pass"
    draw(engine, "fools_gold")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_not_mine", "target": 1})
    state = engine.state()
    assert state["players"][0]["stones"]["fools_gold"] == 0, "OURO-CARD-09"
    assert state["players"][1]["status"] == "accident", "OURO-CARD-10"


def test_not_mine_either_redirects() -> None:
    """OURO-RESP-04: the target names another player in the mine to receive the Fool's Gold."""
    engine = start(3, {0: ["not_mine"], 1: ["not_mine_either"]})
    draw(engine, "fools_gold")
    draw(engine, "quartz")
    draw(engine, "quartz")
    engine.apply({"kind": "play_not_mine", "target": 1})
    assert engine.legal_actions() == [
        {"kind": "respond_not_mine_either", "target": 0},
        {"kind": "respond_not_mine_either", "target": 2}, {"kind": "decline"}], "OURO-RESP-04"
    engine.apply({"kind": "respond_not_mine_either", "target": 2})
    state = engine.state()
    assert state["players"][2]["stones"]["fools_gold"] == 1, "OURO-RESP-04"
    assert state["players"][1]["stones"]["fools_gold"] == 0, "OURO-RESP-04"


def test_not_mine_either_not_sender_ruling() -> None:
    """OURO-RESP-04 under OURO-AMB-13 not-sender: the sender cannot receive it back."""
    engine = start(3, {0: ["not_mine"], 1: ["not_mine_either"]},
                   rulings={"OURO-AMB-13": "not-sender"})
    draw(engine, "fools_gold")
    draw(engine, "quartz")
    draw(engine, "quartz")
    engine.apply({"kind": "play_not_mine", "target": 1})
    assert {"kind": "respond_not_mine_either", "target": 0} not in engine.legal_actions(), \
        "OURO-AMB-13"


# -- end of the workday and of the game --------------------------------------------------------


def _day(engine: OuroDeTolo, colour0: str, accident1: bool = False) -> None:
    """Player 0 draws ``colour0``; player 1 maybe crashes; everyone else leaves (3 players)."""
    first = engine.current_player()
    assert first == 0
    draw(engine, colour0)
    if accident1:
        draw(engine, "fools_gold")
        draw(engine, "quartz")  # player 2
        engine.apply({"kind": "leave"})  # player 0
        draw(engine, "fools_gold")  # player 1: accident; player 2 is the Caxias
        engine.apply({"kind": "caxias_draw"})
        engine.apply({"kind": "stone", "colour": "fools_gold"})
        engine.apply({"kind": "caxias_stop"})
    else:
        engine.apply({"kind": "leave"})  # player 1
        engine.apply({"kind": "leave"})  # player 2
        engine.apply({"kind": "caxias_draw"})  # player 0 alone
        engine.apply({"kind": "stone", "colour": "quartz"})
        engine.apply({"kind": "caxias_stop"})


def test_accident_player_receives_nothing() -> None:
    """OURO-EOD-02, OURO-EOD-03: trades for those who left safely, nothing after an accident."""
    engine = start(3)
    _day(engine, "gold", accident1=True)
    money = [p["money"] for p in engine.state()["players"]]
    assert money == [8, 0, 1], f"OURO-EOD-02/OURO-EOD-03: money {money}"


def test_stone_values_table_ruling() -> None:
    """OURO-EOD-05 under OURO-AMB-01 end-of-day-table-by-name: Quartz pays 0, Gold 8, Ruby 4."""
    engine = start(3, rulings={"OURO-AMB-01": "end-of-day-table-by-name"})
    _day(engine, "ruby")
    money = [p["money"] for p in engine.state()["players"]]
    assert money == [4, 0, 0], f"OURO-EOD-05: money {money}"


def test_no_trade_ruling_pays_nothing() -> None:
    """OURO-QG-09 under OURO-AMB-02 no-trade: nobody is paid at the end of the day."""
    engine = start(3, rulings={"OURO-AMB-02": "no-trade"})
    _day(engine, "gold")
    assert [p["money"] for p in engine.state()["players"]] == [0, 0, 0], "OURO-QG-09"


def _rich(parameters: Mapping[str, Any] | None = None, **kw: Any) -> OuroDeTolo:
    """A game whose desired amount is tiny, so a gold nugget makes a player eligible."""
    params = {"desired_amount": 8, **(parameters or {})}
    return start(3, parameters=params, **kw)


def test_declaration_only_above_the_desired_amount() -> None:
    """OURO-END-01, OURO-END-04: a player with more than the desired amount may declare."""
    engine = _rich()
    _day(engine, "gold")  # player 0: 8 + 1 quartz = 9 > 8
    state = engine.state()
    assert state["phase"] == "declaration" and state["to_move"] == 0, "OURO-END-02"
    assert kinds(engine) == ["declare", "decline_declaration"], "OURO-END-04"
    engine.apply({"kind": "decline_declaration"})
    assert engine.state()["phase"] == "bonus", "OURO-END-04: declining extends the game"


def test_declaration_ends_the_game_and_richest_wins() -> None:
    """OURO-END-05, OURO-END-06: after a declaration the richest wins, not the declarer."""
    engine = _rich()
    _day(engine, "gold")
    engine.apply({"kind": "declare"})
    result = engine.result()
    assert result is not None and engine.is_terminal(), "OURO-END-01"
    assert result["winners"] == [0] and result["reason"] == "declaration", "OURO-END-05"
    assert result["scores"] == [9, 0, 0], "OURO-END-05"
    with pytest.raises(IllegalAction):
        engine.apply({"kind": "draw"})


def test_exact_amount_cannot_declare_unless_reach() -> None:
    """OURO-END-01 and OURO-AMB-08: 'more than' by default; 'reach' allows equality."""
    engine = _rich({"desired_amount": 9})
    _day(engine, "gold")
    assert engine.state()["phase"] != "declaration", "OURO-END-01: 9 is not more than 9"
    engine = _rich({"desired_amount": 9}, rulings={"OURO-AMB-08": "reach"})
    _day(engine, "gold")
    assert engine.state()["phase"] == "declaration", "OURO-AMB-08 reach: 9 reaches 9"


def test_hard_week_ends_after_the_days() -> None:
    """OURO-VAR-02: under hard week the game ends after hard_week_days workdays."""
    engine = start(3, variants=["hard-week"], parameters={"hard_week_days": 2})
    _day(engine, "gold")
    engine.apply({"kind": "card", "card": "favor"})
    assert engine.current_player() == 0, "OURO-EOD-04: the Caxias starts"
    _day(engine, "ruby")
    result = engine.result()
    assert result is not None and result["reason"] == "hard_week", "OURO-VAR-02"
    assert result["scores"] == [8 + 1 + 6 + 1, 0, 0], "OURO-VAR-02"


def test_safe_mine_keeps_stones_after_accident() -> None:
    """OURO-VAR-03: a second Fool's Gold forces the player out but the stones are traded."""
    engine = start(3, variants=["safe-mine"])
    draw(engine, "fools_gold")  # 0
    draw(engine, "gold")  # 1
    draw(engine, "quartz")  # 2
    draw(engine, "fools_gold")  # 0: forced out
    assert engine.state()["players"][0]["status"] == "accident", "OURO-VAR-03"
    engine.apply({"kind": "leave"})  # 1
    engine.apply({"kind": "caxias_draw"})  # 2
    engine.apply({"kind": "stone", "colour": "quartz"})
    engine.apply({"kind": "caxias_stop"})
    assert [p["money"] for p in engine.state()["players"]] == [0, 8, 2], "OURO-VAR-03"


def test_gold_fever_deals_half_and_buys_at_day_end() -> None:
    """OURO-VAR-04: half the cards rounded up; players who end their day buy a card."""
    engine = start(5, variants=["gold-fever"])
    assert all(sum(p["hand"].values()) == 3 for p in engine.state()["players"]), "OURO-VAR-04"
    for _ in range(4):
        engine.apply({"kind": "leave"})
    engine.apply({"kind": "caxias_draw"})
    engine.apply({"kind": "stone", "colour": "quartz"})
    engine.apply({"kind": "caxias_stop"})
    buys = 0
    while engine.state()["phase"] == "gold_fever":
        engine.apply({"kind": "card", "card": "dynamite"})
        buys += 1
    assert buys == 5, f"OURO-VAR-04: {buys} gold-fever cards"
    sizes = [sum(p["hand"].values()) for p in engine.state()["players"]]
    assert sizes == [5, 4, 4, 4, 4], f"OURO-VAR-04: bonus plus gold-fever card, {sizes}"


def test_shorter_and_longer_need_a_desired_amount() -> None:
    """OURO-VAR-01: the shorter/longer variants need a lower/higher desired amount."""
    with pytest.raises(ConfigError, match="OURO-VAR-01"):
        new_game(GAME, players=4, variants=["shorter-game"])
    with pytest.raises(ConfigError, match="OURO-VAR-01"):
        new_game(GAME, players=4, variants=["longer-game"], parameters={"desired_amount": 50})
    engine = new_game(GAME, players=4, variants=["shorter-game"],
                      parameters={"desired_amount": 40})
    assert engine.config.param("desired_amount") == 40, "OURO-VAR-01"


# -- ambiguity options that change what is legal ------------------------------------------------


def test_favor_on_self_only_when_ruled() -> None:
    """OURO-CARD-06 and OURO-AMB-12: self-targeting is legal only under self-allowed."""
    engine = start(3, {0: ["favor"]})
    assert {"kind": "play_favor", "target": 0} not in engine.legal_actions(), "OURO-AMB-12"
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-12": "self-allowed"})
    assert {"kind": "play_favor", "target": 0} in engine.legal_actions(), "OURO-AMB-12"


def test_caxias_stop_at_once_ruling() -> None:
    """OURO-CAX-05 and OURO-AMB-14: stopping before any draw only under at-once."""
    engine = start(3, rulings={"OURO-AMB-14": "at-once"})
    _to_caxias(engine)
    assert kinds(engine) == ["buy_card", "caxias_draw", "caxias_stop"], "OURO-AMB-14"


def test_random_first_player_ruling() -> None:
    """OURO-SETUP-06 and OURO-AMB-20: under random, the first seat is a uniform chance draw."""
    engine = new_game(GAME, players=4, rulings={"OURO-AMB-20": "random"})
    while engine.state()["phase"] == "deal":
        engine.apply(engine.legal_actions()[0])
    outcomes = engine.chance_outcomes()
    assert [p for _, p in outcomes] == [Fraction(1, 4)] * 4, "OURO-AMB-20"
    engine.apply({"kind": "first_player", "player": 2})
    engine.apply(engine.legal_actions()[0])
    assert engine.current_player() == 2, "OURO-AMB-20"


def test_light_hand_needs_enough_ruling() -> None:
    """OURO-CARD-08 and OURO-AMB-19: under needs-enough the target must hold two stones."""
    engine = start(3, {0: ["light_hand"]}, rulings={"OURO-AMB-19": "needs-enough"})
    assert "play_light_hand" not in kinds(engine), "OURO-AMB-19"
    rejected(engine, {"kind": "play_light_hand", "target": 1}, "OURO-CARD-08")


def test_random_steal_is_a_chance_draw() -> None:
    """OURO-CARD-08 and OURO-AMB-03 random: stolen stones are drawn blind with exact odds."""
    engine = start(3, {1: ["light_hand"]}, rulings={"OURO-AMB-03": "random"})
    draw(engine, "gold")  # 0
    draw(engine, "quartz")  # 1
    draw(engine, "quartz")  # 2
    draw(engine, "ruby")  # 0
    engine.apply({"kind": "play_light_hand", "target": 0})
    assert engine.current_player() == CHANCE, "OURO-AMB-03"
    assert [p for _, p in engine.chance_outcomes()] == [Fraction(1, 2)] * 2, "OURO-AMB-03"


def test_deck_exhaustion_rulings() -> None:
    """OURO-AMB-05: with an empty deck, reshuffle the discard or turn no more cards."""
    for option, expect_bonus in (("reshuffle-discard", True), ("no-cards", False)):
        engine = start(3, rulings={"OURO-AMB-05": option})
        # Move the whole deck to the discard pile (cards stay conserved).
        engine.discard = [d + k for d, k in zip(engine.discard, engine.deck, strict=True)]
        engine.deck = [0] * len(engine.deck)
        _day(engine, "quartz")
        state = engine.state()
        assert (state["phase"] == "bonus") == expect_bonus, f"OURO-AMB-05 {option}: {state['phase']}"


# -- bad input ------------------------------------------------------------------------------------


def test_action_by_player_out_of_the_mine_is_rejected() -> None:
    """OURO-LEAVE-03: a player who left takes no action for the rest of the day."""
    engine = start(3)
    engine.apply({"kind": "leave"})  # player 0 leaves
    before = engine.state()
    with pytest.raises(IllegalAction) as info:
        engine.apply_as(0, {"kind": "draw"})
    assert "OURO-LEAVE-03" in str(info.value), "OURO-LEAVE-03: the message names the clause"
    assert engine.state() == before, "OURO-LEAVE-03: state unchanged"


def test_card_on_target_out_of_the_mine_is_rejected() -> None:
    """OURO-CARD-08: Light Hand on a player who left is rejected; state unchanged."""
    engine = start(3, {1: ["light_hand"]})
    engine.apply({"kind": "leave"})  # player 0
    rejected(engine, {"kind": "play_light_hand", "target": 0}, "OURO-CARD-08")
    rejected(engine, {"kind": "play_light_hand", "target": 9}, "OURO-CARD-08")


def test_response_when_not_targeted_is_rejected() -> None:
    """OURO-RESP-01, OURO-QG-10: a response card outside a response window is rejected."""
    engine = start(3, {0: ["tired"]})
    rejected(engine, {"kind": "respond_tired"}, "OURO-RESP-01")
    rejected(engine, {"kind": "decline"}, "OURO-RESP-01")


def test_unknown_ruling_option_is_rejected() -> None:
    """OURO-AMB-01: an unknown ruling option is a configuration error naming the ambiguity."""
    with pytest.raises(ConfigError, match="OURO-AMB-01"):
        new_game(GAME, players=3, rulings={"OURO-AMB-01": "diamonds-are-forever"})


def test_garbage_actions_are_rejected() -> None:
    """OURO-PLAY-05: malformed actions are rejected with a reason; state unchanged."""
    engine = start(3)
    for action in ({"kind": "fly"}, "draw", {"kind": "stone", "colour": "gold"}):
        before = engine.state()
        with pytest.raises(IllegalAction):
            engine.apply(action)
        assert engine.state() == before, f"OURO-PLAY-05: {action!r} changed the state"


def test_clone_is_independent() -> None:
    """OURO-DRAW-01: a clone does not share stones, cards or money with its original."""
    engine = start(3)
    copy = engine.clone()
    draw(engine, "gold")
    assert copy.state() != engine.state(), "OURO-DRAW-01: clone shares state"
    assert copy.state()["bag"]["gold"] == 2, "OURO-DRAW-01"


def test_describe_is_one_line() -> None:
    """OURO-PLAY-05: every legal action narrates in one line."""
    engine = start(3, {0: ["favor", "light_hand", "dynamite"]})
    actions: list[Action] = engine.legal_actions()
    for action in actions:
        text = engine.describe(action, 0)
        assert text and "\n" not in text, f"OURO-PLAY-05: {text!r}"


@pytest.mark.parametrize(("option", "first"), [("card-player-starts", 0),
                                               ("next-player-starts", 1)])
def test_mine_emptied_by_a_double_accident(option: str, first: int) -> None:
    """OURO-CAX-01, OURO-EOD-04 under OURO-AMB-15: no Caxias; the ruling names the next starter."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-15": option})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "fools_gold")  # player 1
    engine.apply({"kind": "leave"})  # player 2
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    state = engine.state()
    assert state["settled_days"] == 1 and state["caxias"] is None, "OURO-CAX-01: no Caxias"
    assert [p["status"] for p in state["players"]] == ["in_mine"] * 3, "OURO-EOD-04: new day"
    assert state["first_player"] == first, f"OURO-AMB-15 {option}: {state['first_player']}"
    assert state["bag"]["fools_gold"] == 20, "OURO-EOD-02: accident stones back in the bag"


# -- an accident in the middle of a card; no response window (issue 19) -------------------------


@pytest.mark.parametrize("ruling", ["immediately", "end-of-day"])
def test_favor_accident_takes_every_stone_of_the_favor(ruling: str) -> None:
    """OURO-CARD-11 under OURO-AMB-06: the favour's stones share the accident's fate, in either
    order of hand-over; under immediately the accident drawer holds nothing at all."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-06": ruling})
    draw(engine, "quartz")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 1})
    engine.apply({"kind": "stone", "colour": "amber"})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "favor_leave"})
    state = engine.state()
    assert state["players"][1]["status"] == "accident", "OURO-CARD-07"
    if ruling == "immediately":
        assert stones(engine, 1) == {}, "OURO-CARD-11: the Amber of the favour goes back too"
        assert state["bag"]["amber"] == 12 and state["bag"]["fools_gold"] == 20, "OURO-CARD-11"
    else:
        assert stones(engine, 1) == {"fools_gold": 2, "amber": 1}, "OURO-CARD-11, OURO-EOD-02"


def test_self_favor_accident_after_taking_returns_the_rest() -> None:
    """OURO-CARD-11: a card player who takes their own second Fool's Gold from a self-favour
    (OURO-AMB-12 self-allowed) keeps nothing of the other stone under immediately."""
    engine = start(3, {0: ["favor"]}, rulings={"OURO-AMB-06": "immediately",
                                               "OURO-AMB-12": "self-allowed"})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "quartz")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_favor", "target": 0})
    engine.apply({"kind": "stone", "colour": "fools_gold"})
    engine.apply({"kind": "stone", "colour": "ruby"})
    engine.apply({"kind": "favor_take", "colour": "fools_gold"})
    state = engine.state()
    assert state["players"][0]["status"] == "accident", "OURO-CARD-07"
    assert stones(engine, 0) == {}, "OURO-CARD-11: the Ruby left to the drawer goes back too"
    assert state["bag"]["ruby"] == 4, "OURO-CARD-11"


def test_completed_steal_after_the_thiefs_accident_returns_the_stone() -> None:
    """OURO-CARD-11 with OURO-AMB-17 complete and OURO-AMB-06 immediately: the second stolen
    stone leaves the victim and goes to the bag, not to the accident thief."""
    engine = start(3, {0: ["light_hand"]}, rulings={
        "OURO-AMB-06": "immediately", "OURO-AMB-17": "complete"})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    draw(engine, "emerald")  # player 0
    draw(engine, "gold")  # player 1
    draw(engine, "quartz")  # player 2
    engine.apply({"kind": "play_light_hand", "target": 1})
    engine.apply({"kind": "steal", "colour": "fools_gold"})
    assert engine.state()["players"][0]["status"] == "accident", "OURO-CARD-07"
    engine.apply({"kind": "steal", "colour": "gold"})
    state = engine.state()
    assert stones(engine, 0) == {} and stones(engine, 1) == {}, "OURO-CARD-11, OURO-AMB-17"
    assert state["bag"]["gold"] == 2, "OURO-CARD-11: the stolen Gold is back in the bag"


def test_self_favor_opens_no_response_window() -> None:
    """OURO-RESP-07 under OURO-AMB-30 no-answer: I'm Tired answers only another player's favour."""
    engine = start(3, {0: ["favor", "tired"]}, rulings={"OURO-AMB-12": "self-allowed"})
    engine.apply({"kind": "play_favor", "target": 0})
    state = engine.state()
    assert state["phase"] == "draw" and state["to_move"] == CHANCE, "OURO-RESP-07"
    assert hand(engine, 0).get("tired") == 1, "OURO-RESP-07: the card stays in hand"


@pytest.mark.parametrize(("third_in_mine", "window"), [(True, True), (False, False)])
def test_not_mine_either_with_only_the_sender_opens_no_window(third_in_mine: bool,
                                                               window: bool) -> None:
    """OURO-RESP-08 under OURO-AMB-13 not-sender (and OURO-AMB-31 no-answer): a window opens
    only if a third player is in the mine to receive the Fool's Gold."""
    engine = start(3, {1: ["not_mine"], 2: ["not_mine_either"]},
                   rulings={"OURO-AMB-13": "not-sender"})
    if third_in_mine:
        draw(engine, "quartz")  # player 0
    else:
        engine.apply({"kind": "leave"})  # player 0
    draw(engine, "fools_gold")  # player 1
    draw(engine, "quartz")  # player 2
    if third_in_mine:
        draw(engine, "quartz")  # player 0
    engine.apply({"kind": "play_not_mine", "target": 2})
    state = engine.state()
    assert (state["phase"] == "response") == window, "OURO-RESP-08"
    if not window:
        assert stones(engine, 2) == {"fools_gold": 1, "quartz": 1}, "OURO-RESP-08: passed at once"
        assert hand(engine, 2).get("not_mine_either") == 1, "OURO-RESP-08: the card is kept"


#: Seven stones, one Fool's Gold, two Dynamite in the deck and none dealt: the bag empties in a
#: day (the configuration ``rulespec verify`` found a draw from an empty bag with, issue 42).
EMPTY_BAG_CARDS = {"dynamite": 2, "favor": 0, "light_hand": 0, "not_mine": 0,
                   "not_mine_either": 0, "very_light_hand": 0, "tired": 0}
EMPTY_BAG: dict[str, Any] = {
    "cards_per_player": 0,
    "stone_counts": {"fools_gold": 1, "quartz": 1, "amber": 1, "emerald": 1, "sapphire": 1,
                     "ruby": 1, "gold": 1},
    "card_counts": EMPTY_BAG_CARDS,
}


def _caxias_with_an_empty_bag(rulings: Mapping[str, str] | None = None,
                              deck: int = 2) -> OuroDeTolo:
    parameters = {**EMPTY_BAG, "card_counts": {**EMPTY_BAG_CARDS, "dynamite": deck}}
    engine = new_game(GAME, players=3, rulings=rulings, parameters=parameters)
    assert isinstance(engine, OuroDeTolo)
    if engine.phase == "bonus":
        engine.apply({"kind": "card", "card": "dynamite"})
    for colour in ("quartz", "amber", "emerald", "sapphire", "ruby", "gold", "fools_gold"):
        draw(engine, colour)
    engine.apply({"kind": "leave"})
    engine.apply({"kind": "leave"})
    assert engine.state()["caxias"] == 0 and not any(engine.state()["bag"].values())
    return engine


@pytest.mark.parametrize("deck", [0, 2])
def test_the_caxias_is_never_offered_a_draw_from_an_empty_bag(deck: int) -> None:
    """OURO-DRAW-01, OURO-CAX-05 (issue 42's finding): no stone is left, so no draw is offered
    (before the fix the reference offered caxias_draw and chance then had no outcome), and the
    workday can always end: by stopping, or (a card left to buy) by buying."""
    engine = _caxias_with_an_empty_bag(deck=deck)
    assert "caxias_draw" not in kinds(engine), "OURO-DRAW-01"
    rejected(engine, {"kind": "caxias_draw"}, "OURO-DRAW-01")
    if deck:
        assert kinds(engine) == ["buy_card"], "OURO-CAX-03: the one option left"
        engine.apply({"kind": "buy_card"})
        engine.apply({"kind": "card", "card": "dynamite"})
    else:
        assert kinds(engine) == ["caxias_stop"], "OURO-CAX-05: nothing to draw or buy"
        engine.apply({"kind": "caxias_stop"})
    assert engine.state()["settled_days"] == 1, "OURO-EOD-01"


@pytest.mark.parametrize(("option", "expected"), [("after-a-draw", ["buy_card"]),
                                                  ("at-once", ["buy_card", "caxias_stop"])])
def test_empty_bag_caxias_who_can_buy_under_each_option(option: str,
                                                         expected: list[str]) -> None:
    """OURO-CAX-03, OURO-CAX-05 under OURO-AMB-14: with nothing to draw, after-a-draw leaves the
    Caxias who can buy only that; at-once lets them stop as well."""
    engine = _caxias_with_an_empty_bag({"OURO-AMB-14": option})
    assert kinds(engine) == expected, "OURO-AMB-14"


@pytest.mark.parametrize(("option", "first", "second"), [
    ("displayed", ["fools_gold", "gold"], ["fools_gold"]),
    ("in-hand", ["gold"], ["fools_gold"]),
])
def test_a_thief_picks_fools_gold_only_by_sight(option: str, first: list[str],
                                                second: list[str]) -> None:
    """OURO-CARD-08, OURO-DRAW-04 under OURO-AMB-37 (with OURO-AMB-03 taker, OURO-AMB-04
    any-stone): a Fool's Gold kept in the hand is out of sight, so the taker picks the valuable
    stone first and the Fool's Gold only once nothing is left in sight."""
    engine = start(3, {1: ["light_hand"]}, rulings={"OURO-AMB-37": option})
    draw(engine, "gold")  # player 0
    draw(engine, "quartz")  # player 1
    draw(engine, "amber")  # player 2
    draw(engine, "fools_gold")  # player 0
    engine.apply({"kind": "play_light_hand", "target": 0})
    colours = [str(a["colour"]) for a in engine.legal_actions()]
    assert colours == first, "OURO-AMB-37"
    engine.apply({"kind": "steal", "colour": "gold"})
    assert [str(a["colour"]) for a in engine.legal_actions()] == second, "OURO-AMB-37"


@pytest.mark.parametrize(("option", "taken_by"), [("leaver-first", 1), ("caxias-first", None)])
def test_a_first_leave_that_makes_a_caxias(option: str, taken_by: int | None) -> None:
    """OURO-LEAVE-02, OURO-CAX-02 under OURO-AMB-38: after an accident, the first leave leaves
    one player inside; the leaver takes the bonus first, or it is discarded for the Caxias."""
    engine = start(3, bonus="tired", rulings={"OURO-AMB-38": option})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "emerald")  # player 1
    draw(engine, "amber")  # player 2
    draw(engine, "fools_gold")  # player 0: accident
    engine.apply({"kind": "leave"})  # player 1
    state = engine.state()
    assert state["caxias"] == 2 and state["bonus"] is None, "OURO-CAX-01, OURO-CAX-02"
    assert state["bonus_taken_by"] == taken_by, "OURO-AMB-38"
    assert (hand(engine, 1).get("tired") == 1) == (taken_by == 1), "OURO-LEAVE-02"
    assert state["discard"]["tired"] == (0 if taken_by == 1 else 1), "OURO-CAX-02"


@pytest.mark.parametrize("option", ["displayed", "in-hand"])
def test_who_sees_a_players_fools_gold(option: str) -> None:
    """OURO-DRAW-04, OURO-EOD-03 under OURO-AMB-37: every player sees the valuable stones and
    their own Fool's Gold; the others' Fool's Gold only when displayed. Hands and money are the
    owner's (state.hidden)."""
    from rulespec.reference.observation import observation
    from rulespec.spec.visibility import HIDDEN

    engine = start(3, rulings={"OURO-AMB-37": option})
    draw(engine, "fools_gold")  # player 0
    draw(engine, "gold")  # player 1
    own = observation(engine, 0)["players"][0]
    other = observation(engine, 1)["players"][0]
    assert own["stones"]["fools_gold"] == 1 and own["hand"] != HIDDEN, "OURO-AMB-37"
    assert other["stones"]["gold"] == 0 and other["hand"] == HIDDEN, "OURO-DRAW-04"
    assert other["money"] == HIDDEN, "OURO-EOD-03: money is kept hidden"
    expected = 1 if option == "displayed" else HIDDEN
    assert other["stones"]["fools_gold"] == expected, "OURO-AMB-37"
    assert observation(engine, 1)["players"][1]["stones"]["gold"] == 1, "OURO-DRAW-04"


@pytest.mark.parametrize(("players", "rulings", "variants"), [
    (3, {"OURO-AMB-20": "random", "OURO-AMB-03": "random"}, ()),
    (4, {"OURO-AMB-02": "no-trade", "OURO-AMB-05": "reshuffle-discard", "OURO-AMB-21": "chain"},
     ("gold-fever", "safe-mine"))])
def test_clone_is_an_exact_independent_copy(players: int, rulings: dict[str, str],
                                            variants: tuple[str, ...]) -> None:
    """OURO-QG-01, OURO-DRAW-01, OURO-EOD-01, OURO-END-01: the engine's own ``clone`` equals
    ``copy.deepcopy`` after every deal, draw, card and answer of random games (days ended,
    stones sold, the game ended), plays on alike, and shares nothing an action changes."""
    steps = check_clones(GAME, seeds=range(2), players=players, rulings=rulings,
                         variants=variants, max_steps=60, play_out_every=60)
    assert steps > 100


def test_clone_is_checked_on_every_attribute_play_changes() -> None:
    """OURO-CAX-04, OURO-AMB-07, OURO-VAR-04, OURO-END-01: whole games with a card that costs
    money, the gold fever and the safe mine change every attribute of the engine that is not a
    constant table (the money a bought card will cost, ``owed``, the safe mine's declarations,
    the result), and the clone is checked against the deep copy at every one of their steps."""
    changed: set[str] = set()
    steps = check_clones(GAME, seeds=range(2), players=3, rulings={"OURO-AMB-07": "costs-money"},
                         variants=("gold-fever", "safe-mine"), max_steps=2000,
                         play_out_every=100, changed=changed)
    assert steps > 200
    assert never_changed(GAME, changed, players=3) == set()
    assert {"owed", "safe", "declared_by", "_result"} <= changed
