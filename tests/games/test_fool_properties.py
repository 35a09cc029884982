"""Fool (Tonto): random games checking the state schema and every invariant at every step.

Every player count plays full games under the default rulings; every ruling set of
``ruling_sets(spec)`` (every option of every FOOL-AMB record at least once) plays a shorter game
(``end_score`` -30, still several rounds) so the whole file stays within its time budget. Mutant
engines, each breaking one rule, show the invariants do catch what they claim to.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.games.fool import FoolEngine
from rulespec.reference.core import make_config
from rulespec.reference.play import playout
from rulespec.spec.invariants import Invariants
from rulespec.spec.registry import get_spec
from tests.support import checked_game, ruling_sets

GAME = "fool"
SPEC = get_spec(GAME)
RULING_SETS = ruling_sets(SPEC)


def players_for(index: int, rulings: Mapping[str, str]) -> int:
    """Pick a player count where the ruling set matters; otherwise cycle through 4 to 8."""
    if rulings["FOOL-AMB-03"] == "eight-only":
        return 7
    if rulings["FOOL-AMB-01"] == "edition-1995":
        return 8
    return SPEC.min_players + index % (SPEC.max_players - SPEC.min_players + 1)


@pytest.mark.parametrize("players", range(SPEC.min_players, SPEC.max_players + 1))
@settings(max_examples=1)
@given(seed=st.integers(min_value=0, max_value=2**16))
def test_full_games_keep_every_invariant(players: int, seed: int) -> None:
    """FOOL-END-01, FOOL-END-02: a random full game keeps every invariant and ends."""
    engine = checked_game(GAME, seed=seed, players=players)
    assert engine.is_terminal(), f"FOOL-END-01/02: game with {players} players did not end"


@pytest.mark.parametrize("index", range(len(RULING_SETS)))
@settings(max_examples=1)
@given(seed=st.integers(min_value=0, max_value=2**16))
def test_every_ruling_set_keeps_every_invariant(index: int, seed: int) -> None:
    """FOOL-FOLLOW-01, FOOL-WORST-01: games under every option of every ambiguity stay valid."""
    rulings = RULING_SETS[index]
    engine = checked_game(GAME, seed=seed, players=players_for(index, rulings), rulings=rulings,
                          parameters={"end_score": -30})
    assert engine.is_terminal(), f"FOOL-END-01: game under {rulings} did not end"


def test_ruling_sets_cover_every_option() -> None:
    """FOOL-AMB-01: the sweep above exercises every option of every record."""
    for aid, amb in SPEC.ambiguities.items():
        used = {r[aid] for r in RULING_SETS}
        assert used == {o["id"] for o in amb["options"]}, f"{aid}: options not all exercised"


# -- mutants: engines each breaking one rule -------------------------------------------------


class IgnoresFollowSuit(FoolEngine):
    """Breaks FOOL-FOLLOW-01: any card may always be played."""

    def _card_actions(self) -> list[dict[str, Any]]:
        saved, self.lead_colour = self.lead_colour, None
        try:
            return super()._card_actions()
        finally:
            self.lead_colour = saved


class PaysTheFool(FoolEngine):
    """Breaks FOOL-SCORE-02: going out while holding a disc scores the full points."""

    def _score_round(self, last_winner: int) -> None:
        self.fool_going_out_points = self.going_out_points
        super()._score_round(last_winner)


class HighestIsWorst(FoolEngine):
    """Breaks FOOL-WORST-01: the highest card is taken as the worst."""

    def _badness(self, position: int, t: int) -> tuple[int, int, int]:
        level, value, tie = super()._badness(position, t)
        return (-level, -value, tie)


class FoolsKeepPlaying(FoolEngine):
    """Breaks FOOL-FOOL-04: players holding a disc still play."""

    def _start_trick(self, leader: int) -> None:
        saved, self.fools = self.fools, []
        try:
            super()._start_trick(leader)
        finally:
            self.fools = saved


class LosesACard(FoolEngine):
    """Breaks FOOL-COMP-02: a card vanishes from the completed tricks."""

    def _finish_trick(self) -> None:
        super()._finish_trick()
        if len(self.played) > 3:
            self.played.pop(0)


def first_violations(engine_class: type[FoolEngine], seeds: range) -> set[str]:
    """Play random games with a (mutant) engine; return the invariants the first failure broke."""
    invariants = Invariants(SPEC)
    validator = jsonschema.Draft202012Validator(SPEC.state_schema)
    for seed in seeds:
        engine = engine_class(SPEC, make_config(SPEC, players=4))
        config = engine.config.to_json()
        params = dict(engine.config.parameters)
        prev = engine.state()
        for step in playout(engine, random.Random(seed)):
            state = engine.state()
            assert validator.is_valid(state), "a mutant still produces valid states"
            broken = invariants.check(state, prev=prev, action=step.action, params=params,
                                      config=config)
            if broken:
                return {v.invariant for v in broken}
            prev = state
    return set()


@pytest.mark.parametrize(("mutant", "invariant"), [
    (IgnoresFollowSuit, "FOOL-INV-FOLLOW-SUIT"),
    (PaysTheFool, "FOOL-INV-ROUND-SCORING"),
    (HighestIsWorst, "FOOL-INV-WORST-CARD"),
    (FoolsKeepPlaying, "FOOL-INV-SIT-OUT"),
    (LosesACard, "FOOL-INV-CARDS-CONSERVED"),
])
def test_invariants_catch_mutants(mutant: type[FoolEngine], invariant: str) -> None:
    """FOOL-FOLLOW-01, FOOL-SCORE-02, FOOL-WORST-01, FOOL-FOOL-04, FOOL-COMP-02: rules break, caught."""
    found = first_violations(mutant, range(6))
    assert invariant in found, f"{mutant.__doc__} went unnoticed; violations: {sorted(found)}"
