"""The incremental state validator agrees with validating each state whole (STATE-SCHEMA)."""

from __future__ import annotations

import copy
import random
from typing import Any

from rulespec.conformance.engine.protocol import legal_of
from rulespec.conformance.judging.validation import StateValidator
from rulespec.reference.registry import new_game
from rulespec.spec.registry import get_spec


def _states(game: str, players: int, seed: int, limit: int = 300) -> list[dict[str, Any]]:
    engine = new_game(game, players=players)
    rng = random.Random(seed)
    out = [engine.state()]
    while engine.current_player() is not None and len(out) < limit:
        engine.apply(rng.choice(legal_of(engine).actions))
        out.append(engine.state())
    return out


def test_a_hand_changed_in_place_to_a_bad_card_is_caught() -> None:
    """FOOL-DEAL-01: a card value outside the schema's range in one player's hand, the hand
    otherwise unchanged since the last valid state, fails the incremental validator too."""
    spec = get_spec("fool")
    validator = StateValidator(spec.state_schema)
    states = _states("fool", 4, 1, limit=40)
    for state in states:
        assert validator.is_valid(state)
    bad = copy.deepcopy(states[-1])
    suit = next(s for s in ("green", "red", "yellow", "blue") if bad["hands"][1][s])
    bad["hands"][1][suit][0] = 1000  # the card values end at 999
    assert not validator.is_valid(bad)
    assert not validator.whole.is_valid(bad)
    assert validator.is_valid(states[-1])  # and the good state is still valid afterwards


def test_incremental_and_whole_validation_agree_on_mutated_states() -> None:
    """Every state of random Fool and Ruby Rhino games, and a corrupted copy of some, gets the
    same verdict from the incremental validator as from jsonschema on the whole state."""
    rng = random.Random(5)
    for game, players in (("fool", 8), ("ruby-rhino", 5)):
        spec = get_spec(game)
        validator = StateValidator(spec.state_schema)
        for state in _states(game, players, 3):
            assert validator.is_valid(state) is True
            if rng.random() < 0.3:
                bad = copy.deepcopy(state)
                key = rng.choice(sorted(bad))
                value = bad[key]
                if isinstance(value, list) and value:
                    value[rng.randrange(len(value))] = "x"
                else:
                    bad[key] = [value]
                assert validator.is_valid(bad) == validator.whole.is_valid(bad), (game, key)


def test_an_array_with_a_declared_view_still_validates_only_its_new_items() -> None:
    """Ruby Rhino's ``history`` (read by RR-INV-ROUND-WINNER) carries ``x-verify``, an annotation
    with no say in validity: the validator still splits it and checks only what was appended."""
    spec = get_spec("ruby-rhino")
    assert "x-verify" in spec.state_schema["properties"]["history"]
    # The seat symmetry declared on the root (release 0.2.5) does not stop the split either.
    assert "x-verify" in spec.state_schema
    validator = StateValidator(spec.state_schema)
    assert validator.split
    assert "history" in validator._arrays
    for state in _states("ruby-rhino", 3, 2):
        assert validator.is_valid(state) == validator.whole.is_valid(state)
