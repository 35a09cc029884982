"""What the engines remember per step (issue 11 part 4) must never go stale or disagree.

The reference engines build their state and legal actions once per step, and offer chance
outcomes as integer weights (``chance_weights``) for samplers. These tests compare each
shortcut with the slow path it stands for: a fresh engine replaying the same actions, the
exact probabilities of ``chance_outcomes``, and the draws a sampler makes from them. They check
no clause of a game, only that the speed-ups keep every check the other tests make honest.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

import pytest

from rulespec.reference.core import CHANCE, Action, Engine, IllegalAction
from rulespec.reference.play import _sample_weighted, _weights, random_policy, sample_chance
from rulespec.reference.registry import engine_class, new_game
from rulespec.spec.registry import game_ids, get_spec

GAMES = game_ids()


def _text(state: Any) -> str:
    return json.dumps(state, sort_keys=True)


@pytest.mark.parametrize("game", GAMES)
def test_chance_weights_agree_with_chance_outcomes(game: str) -> None:
    """A game's chance weights list the outcomes in order, in proportion to their probabilities,
    and its chance_split lists the outcomes and probabilities of chance_outcomes."""
    rng = random.Random(3)
    for players in sorted({get_spec(game).min_players, get_spec(game).max_players}):
        engine = new_game(game, players=players)
        checked = 0
        while engine.current_player() is not None and checked < 300:
            if engine.current_player() == CHANCE:
                weighted = engine.chance_weights()
                outcomes = engine.chance_outcomes()
                split = engine.chance_split()
                assert split == ([a for a, _ in outcomes], [p for _, p in outcomes]), \
                    f"{game}: chance_split is not chance_outcomes in two lists"
                assert all(type(p) is Fraction for p in split[1])
                if weighted is not None:
                    actions, weights = weighted
                    assert list(actions) == [a for a, _ in outcomes], f"{game}: outcome order"
                    assert all(type(w) is int and w > 0 for w in weights), f"{game}: weights"
                    total = sum(weights)
                    assert [Fraction(w, total) for w in weights] == [p for _, p in outcomes], \
                        f"{game}: weights not proportional to the probabilities"
                    checked += 1
            engine.apply(random_policy(engine, rng))


def test_weighted_draws_are_the_draws_of_the_fractions() -> None:
    """The same generator picks the same outcome from weights as from their fractions."""
    cases = [[2, 2], [1, 3], [4, 6, 2], [5], [3, 3, 3, 9], [1, 1, 1, 1, 1, 1, 1]]
    for weights in cases:
        actions: list[Action] = [{"kind": "x", "i": i} for i in range(len(weights))]
        total = sum(weights)
        outcomes = [(a, Fraction(w, total)) for a, w in zip(actions, weights, strict=True)]
        fast, slow = random.Random(9), random.Random(9)
        for _ in range(200):
            got = _sample_weighted(actions, weights, fast)
            if len(outcomes) == 1:
                want = outcomes[0][0]
            else:
                small, small_total = _weights(outcomes)
                pick = slow.randrange(small_total)
                for action, weight in zip(actions, small, strict=True):
                    if pick < weight:
                        want = action
                        break
                    pick -= weight
            assert got is want, f"weights {weights}"
        assert fast.random() == slow.random(), f"weights {weights}: the generators drifted"


def test_overriding_chance_outcomes_alone_drops_the_weights_shortcut() -> None:
    """A subclass that changes the probabilities is sampled from its own chance_outcomes, and
    the kit reads them (chance_split) from its own chance_outcomes too."""
    base = engine_class(get_spec("fool"))

    class Skewed(base):  # type: ignore[misc, valid-type]
        def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
            outcomes: list[tuple[Action, Fraction]] = base.chance_outcomes(self)
            return [(outcomes[0][0], Fraction(1))]

    spec = get_spec("fool")
    engine: Engine = Skewed(spec, new_game("fool").config)
    assert engine.chance_weights() is None
    first = engine.chance_outcomes()[0][0]
    assert engine.chance_split() == ([first], [Fraction(1)])  # the kit compares these
    assert sample_chance(engine, random.Random(1)) is first


@pytest.mark.parametrize("game", GAMES)
def test_the_state_of_each_step_is_the_state_of_a_fresh_replay(game: str) -> None:
    """States and legal actions remembered for a step equal those of a fresh engine (no stale memo).

    The state is asked for before and after the legal actions, and again after refused
    actions, as the conformance kit does; a clone taken midway plays on with its own memory.
    """
    spec = get_spec(game)
    rng = random.Random(7)
    engine = new_game(game, players=spec.max_players)
    played: list[Action] = []
    clone: Engine | None = None
    for step in range(120):
        if engine.current_player() is None:
            break
        first = _text(engine.state())
        legal = engine.legal_actions() if engine.current_player() != CHANCE else None
        if step % 10 == 0:
            fresh = new_game(game, players=spec.max_players)
            for action in played:
                fresh.apply(action)
            assert _text(fresh.state()) == first, f"{game} step {step}: stale state"
            if legal is not None:
                assert fresh.legal_actions() == legal, f"{game} step {step}: stale legal actions"
            for junk in ({"kind": "no-such-action"}, None):
                with pytest.raises(IllegalAction):
                    engine.apply(junk)
            assert _text(engine.state()) == first, f"{game} step {step}: a refusal changed it"
        if step == 30:
            clone = engine.clone()
        action = random_policy(engine, rng)
        engine.apply(action)
        played.append(action)
    if clone is not None:
        twin = new_game(game, players=spec.max_players)
        for action in played[:30]:
            twin.apply(action)
        assert _text(clone.state()) == _text(twin.state()), f"{game}: the clone went stale"
