"""Fool's state views (FOOL-SETUP-01, FOOL-DEAL-01): the state built with zones remembered under
bytes keys is exactly the one built the general way (tuple keys), at every step of random games
under several player counts, so the fast path cannot drift from the slow one."""

from __future__ import annotations

import json
import random

import pytest

from rulespec.games.fool import FoolEngine
from rulespec.reference.core import CHANCE, config_from_json
from rulespec.spec.registry import get_spec


@pytest.mark.parametrize("players", [4, 6, 8])
def test_byte_keyed_states_are_the_general_ones(players: int) -> None:
    """FOOL-SETUP-01, FOOL-DEAL-01: hands, deck, cards set aside and cards played read the same both ways."""
    spec = get_spec("fool")
    engine = FoolEngine(spec, config_from_json(spec, {"game": "fool", "players": players}))
    general = FoolEngine(spec, config_from_json(spec, {"game": "fool", "players": players}))
    rnd = random.Random(players)
    for _ in range(600):
        fast = engine._build_state()
        slow = general._build_state_with(general._zone_of)
        assert json.dumps(fast) == json.dumps(slow)
        actor = engine.current_player()
        if actor is None:
            break
        actions = ([a for a, _ in engine.chance_outcomes()] if actor == CHANCE
                   else engine.legal_actions())
        action = rnd.choice(actions)
        engine.apply(action)
        general.apply(action)
    assert engine.current_player() is None or engine.round > 1
