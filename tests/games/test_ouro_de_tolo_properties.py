"""Ouro de Tolo: property tests over random games, every ruling option and every variant.

Every game is played by ``tests.support.checked_game``: the state schema and every invariant of
the spec are checked after every action. Games use a lower desired amount (and a short day
limit) where noted, so that the whole file stays fast; one test plays default games in full.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.spec.invariants import Invariants
from rulespec.spec.registry import get_spec
from tests.support import checked_game, ruling_sets

GAME = "ouro-de-tolo"
SPEC = get_spec(GAME)
RULING_SETS = ruling_sets(SPEC)
VARIANTS = ["shorter-game", "longer-game", "hard-week", "safe-mine", "gold-fever"]

#: Parameters that keep random games short (a few workdays) without changing any rule.
QUICK: dict[str, Any] = {"desired_amount": 20, "max_days": 6}


def _terminates(rulings: dict[str, str]) -> bool:
    """Return False for the one combination that cannot end: no money and no day limit."""
    return not (rulings["OURO-AMB-02"] == "no-trade" and rulings["OURO-AMB-11"] == "unbounded")


def _variant_params(variant: str, players: int) -> dict[str, Any]:
    desired = SPEC.default_parameters(players)["desired_amount"]
    if variant == "shorter-game":
        return {"desired_amount": desired - 30}
    if variant == "longer-game":
        return {"desired_amount": desired + 10}
    if variant == "hard-week":
        return {"hard_week_days": 3}
    return dict(QUICK)


@pytest.mark.parametrize("index", range(len(RULING_SETS)))
def test_every_ruling_set_keeps_every_invariant(index: int) -> None:
    """OURO-INV-STONES-CONSERVED and every other invariant hold under each ruling set."""
    rulings = RULING_SETS[index]
    if not _terminates(rulings):
        rulings = {**rulings, "OURO-AMB-11": "day-limit"}
    engine = checked_game(GAME, seed=index, players=3 + index % 4, rulings=rulings,
                          parameters=QUICK)
    result = engine.result()
    assert result is not None, f"OURO-END-01: no result under {rulings}"
    ends = ("declaration", "day_limit", "deck_empty") if rulings["OURO-AMB-05"] == "game-ends" \
        else ("declaration", "day_limit")
    assert result["reason"] in ends, f"OURO-END-01, OURO-AMB-05: {result}"


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 6])
def test_every_variant_keeps_every_invariant(variant: str, players: int) -> None:
    """OURO-VAR-01..04: each variant plays to the end with every invariant checked."""
    engine = checked_game(GAME, seed=players, players=players, variants=[variant],
                          parameters=_variant_params(variant, players))
    result = engine.result()
    assert result is not None, f"OURO-VAR: {variant} did not finish"
    if variant == "hard-week":
        assert result["reason"] == "hard_week", f"OURO-VAR-02: {result}"


def test_default_games_in_full() -> None:
    """OURO-END-01: default games (4 players, every printed number) end by a declaration."""
    for seed in range(2):
        engine = checked_game(GAME, seed=seed, players=4)
        result = engine.result()
        assert result is not None and result["reason"] == "declaration", f"OURO-END-01: {result}"


@settings(max_examples=8)
@given(data=st.data(), seed=st.integers(0, 2**32 - 1))
def test_random_configurations(data: st.DataObject, seed: int) -> None:
    """OURO-INV-RICHEST-WINS and the rest under random rulings, players and variants."""
    rulings = dict(data.draw(st.sampled_from(RULING_SETS)))
    if not _terminates(rulings):
        rulings["OURO-AMB-11"] = "day-limit"
    players = data.draw(st.integers(3, 6))
    variants = data.draw(st.lists(st.sampled_from(["hard-week", "safe-mine", "gold-fever"]),
                                  unique=True, max_size=3))
    params: dict[str, Any] = dict(QUICK)
    if "hard-week" in variants:
        params["hard_week_days"] = 3
    engine = checked_game(GAME, seed=seed, players=players, rulings=rulings, variants=variants,
                          parameters=params)
    assert engine.is_terminal(), "OURO-END-01: the game ended"


def test_every_option_is_exercised() -> None:
    """OURO-AMB-01..22: the ruling sets cover every option of every ambiguity."""
    for aid, amb in SPEC.ambiguities.items():
        for option in amb["options"]:
            assert any(rs[aid] == option["id"] for rs in RULING_SETS), f"{aid} {option['id']}"


# -- the invariants can fail ----------------------------------------------------------------------


def _state_after_some_play() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    engine = checked_game(GAME, seed=3, players=4, parameters=QUICK, max_steps=200_000)
    state = engine.state()
    return state, dict(engine.config.parameters), engine.config.to_json()


@pytest.mark.parametrize(("invariant", "tamper"), [
    ("OURO-INV-STONES-CONSERVED", lambda s: s["bag"].__setitem__("gold", s["bag"]["gold"] + 1)),
    ("OURO-INV-CARDS-CONSERVED", lambda s: s["deck"].__setitem__("tired", s["deck"]["tired"] + 1)),
    ("OURO-INV-FOOLS-GOLD-MAX", lambda s: s["players"][0]["stones"].__setitem__("fools_gold", 3)),
    ("OURO-INV-RICHEST-WINS", lambda s: s["result"].__setitem__("winners", [
        min(range(len(s["players"])), key=lambda i: s["players"][i]["money"])])),
])
def test_invariants_catch_broken_states(invariant: str, tamper: Any) -> None:
    """OURO-INV-*: a state broken on purpose is reported by the invariant that guards it."""
    state, params, config = _state_after_some_play()
    broken = copy.deepcopy(state)
    tamper(broken)
    if invariant == "OURO-INV-RICHEST-WINS" and len(set(p["money"] for p in state["players"])) == 1:
        pytest.skip("all players tied; no loser to crown")
    found = {v.invariant for v in Invariants(SPEC).check(broken, params=params, config=config)}
    assert invariant in found, f"{invariant}: not reported for a broken state ({found})"
    clean = {v.invariant for v in Invariants(SPEC).check(state, params=params, config=config)}
    assert not clean, f"{invariant}: the real state violates {clean}"


def test_transition_invariants_catch_bad_money() -> None:
    """OURO-INV-MONEY-AT-END-OF-DAY: money changing mid-day is reported."""
    engine = checked_game(GAME, seed=5, players=3, parameters=QUICK)
    state = engine.state()
    prev = copy.deepcopy(state)
    prev["players"][0]["money"] -= 1
    found = {v.invariant for v in Invariants(SPEC).check(
        state, prev=prev, action={"kind": "draw"}, params=dict(engine.config.parameters),
        config=engine.config.to_json())}
    assert "OURO-INV-MONEY-AT-END-OF-DAY" in found, f"OURO-INV-MONEY-AT-END-OF-DAY: {found}"


def test_every_action_kind_occurs_and_matches_its_schema() -> None:
    """OURO-PLAY-05, OURO-RESP-01..04, OURO-CAX-03: random games use every action of the spec,
    each valid against its params schema."""
    import random

    import jsonschema

    from rulespec.reference.play import playout
    from rulespec.reference.registry import new_game

    schemas = {str(a["id"]): jsonschema.Draft202012Validator(a["params"])
               for a in SPEC.section("actions")}
    seen: set[str] = set()
    configs: list[dict[str, Any]] = [
        {},
        {"rulings": {"OURO-AMB-20": "random", "OURO-AMB-03": "random"}},
        {"variants": ["gold-fever"]},
    ]
    for seed in range(60):
        config = configs[seed % len(configs)]
        engine = new_game(GAME, players=3 + seed % 4, **config)
        for step in playout(engine, random.Random(seed)):
            kind = str(step.action["kind"])
            errors = list(schemas[kind].iter_errors(step.action))
            assert not errors, f"OURO-PLAY-05: {step.action!r} breaks its schema: {errors[0]}"
            seen.add(kind)
    missing = set(schemas) - seen
    assert not missing, f"OURO-PLAY-05: action kinds never played: {sorted(missing)}"
