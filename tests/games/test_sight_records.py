"""Issue 43: the records of who sees what, witnessed through each player's observation.

FOOL-AMB-21 (Fool's hands) and OURO-AMB-39 (Ouro de Tolo's card hands) change no legal
action, state or result, so no rule example can tell their options apart: these tests are
their witnesses, one per option, each failing under the other option. OURO-AMB-37's entry
(Fool's Gold in hand) is declared in the spec now and served the same way.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulespec.reference.core import Engine
from rulespec.reference.observation import observation
from rulespec.reference.registry import new_game
from rulespec.spec.visibility import HIDDEN


def _dealt(game: str, players: int, rulings: dict[str, str], seed: int = 3) -> Engine:
    """A game played at random until the deal is over and some play has happened."""
    engine = new_game(game, players=players, rulings=rulings)
    rng = random.Random(seed)
    for _ in range(60):
        if engine.is_terminal() or engine.decisions.get(next(iter(rulings))):
            break
        engine.apply(rng.choice(engine.legal_actions()))
    assert not engine.is_terminal()
    return engine


def _hand(observed: Any, game: str, seat: int) -> Any:
    return observed["hands"][seat] if game == "fool" else observed["players"][seat]["hand"]


@pytest.mark.parametrize(("game", "players", "record"), [
    ("fool", 4, "FOOL-AMB-21"),
    ("ouro-de-tolo", 3, "OURO-AMB-39"),
])
@pytest.mark.parametrize("option", ["hidden", "open"])
def test_each_option_of_who_sees_a_hand(game: str, players: int, record: str,
                                        option: str) -> None:
    """FOOL-DEAL-01/FOOL-DEAL-02 and OURO-SETUP-03/OURO-CAX-04 deal the cards into the hands;
    under hidden each player sees only their own hand, under open every hand; an onlooker sees
    no hand under hidden. The decision point is counted once, when the deal ends, and asking
    what a player sees counts none."""
    engine = _dealt(game, players, {record: option})
    assert engine.decisions[record] == 1
    state = engine.state()
    for seat in range(players):
        seen = observation(engine, seat)
        assert _hand(seen, game, seat) == _hand(state, game, seat)
        for other in range(players):
            if other != seat:
                expected = HIDDEN if option == "hidden" else _hand(state, game, other)
                assert _hand(seen, game, other) == expected, (record, option, seat, other)
    onlooker = observation(engine, None)
    assert all((_hand(onlooker, game, s) == HIDDEN) == (option == "hidden")
               for s in range(players))
    assert engine.decisions[record] == 1, "asking what a player sees is not play"


@pytest.mark.parametrize("option", ["hidden", "open"])
def test_the_other_parts_are_hidden_whatever_the_hand_record(option: str) -> None:
    """OURO-EOD-03 ("The money received must be kept hidden") and OURO-DRAW-01 (the bag, drawn
    "without looking") hold under both options of OURO-AMB-39; the stones placed around the
    auxiliary card (OURO-DRAW-04) are seen by all."""
    engine = _dealt("ouro-de-tolo", 3, {"OURO-AMB-39": option})
    seen = observation(engine, 0)
    assert seen["bag"] == HIDDEN and seen["deck"] == HIDDEN
    assert all(p["money"] == HIDDEN for p in seen["players"][1:])
    assert seen["players"][1]["stones"] == engine.state()["players"][1]["stones"]


def test_fools_gold_in_hand_is_read_from_the_spec() -> None:
    """OURO-AMB-37 in-hand: the spec's entry with `when` hides the others' Fool's Gold
    (OURO-DRAW-04 places only the valuable stones in sight); it is what the ruling brings beyond
    the defaults (Engine.hidden_by_rulings), while OURO-AMB-39 open hides less than they do."""
    from rulespec.reference.observation import observed_fields
    from rulespec.spec.registry import get_spec
    from rulespec.spec.visibility import hidden_fields, hidden_when

    data = get_spec("ouro-de-tolo").data
    by_default = {f.path for f in hidden_fields(data)}
    assert "$.players[*].stones.fools_gold" not in by_default
    assert "$.players[*].hand" in by_default  # OURO-AMB-39's default, hidden
    rulings = {"OURO-AMB-37": "in-hand", "OURO-AMB-39": "open"}
    assert [f.path for f in hidden_when(data, rulings.__getitem__)] == [
        "$.players[*].stones.fools_gold"]
    shown = {f.path for f in hidden_fields(data, rulings.__getitem__)}
    assert "$.players[*].hand" not in shown and "$.players[*].stones.fools_gold" in shown
    engine = new_game("ouro-de-tolo", players=3, rulings=rulings)
    assert {f.path for f in observed_fields(engine)} == shown
    assert [f.path for f in engine.hidden_by_rulings()] == ["$.players[*].stones.fools_gold"]
