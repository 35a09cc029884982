"""The OpenSpiel bridge: every game passes OpenSpiel's own random simulation test."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from rulespec.bridges.common import DEFAULT_MAX_LENGTH
from rulespec.spec.registry import get_spec
from tests.bridges.support import configurations, pig, require

pyspiel = require("pyspiel", "openspiel")

from rulespec.bridges import openspiel as bridge  # noqa: E402  (after the extra is known)


@pytest.fixture(scope="module", autouse=True)
def registered() -> list[str]:
    """Register every registry game and the example plugin game once."""
    spec, engine = pig()
    return [*bridge.register_all(), bridge.register(spec, engine_class=engine)]


@pytest.mark.parametrize(("game", "players"), [*configurations(), ("pig", 2), ("pig", 6)])
def test_random_simulation(game: str, players: int) -> None:
    """OpenSpiel's random simulation test passes at the smallest and largest player counts."""
    loaded = pyspiel.load_game(f"rulespec_{game}(players={players})")
    assert loaded.num_players() == players
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_rulings_and_variants_are_game_parameters() -> None:
    """An ambiguity id names its ruling, as in rulespec_fool(players=5,FOOL-AMB-03=...)."""
    spec = get_spec("fool")
    options = [str(o["id"]) for o in spec.ambiguities["FOOL-AMB-03"]["options"]]
    other = next(o for o in options if o != spec.default_rulings()["FOOL-AMB-03"])
    game = pyspiel.load_game(f"rulespec_fool(players=5,FOOL-AMB-03={other})")
    state = game.new_initial_state()
    assert state.play.engine.config.ruling("FOOL-AMB-03") == other
    assert pyspiel.load_game(str(game)).get_parameters()["FOOL-AMB-03"] == other
    params = game.get_type().parameter_specification
    assert {"players", "max_length", *spec.ambiguities} <= set(params)
    assert all(f"variant_{v}" in params for v in spec.variants)


def test_chance_outcomes_are_exact() -> None:
    """Chance nodes carry the reference's exact probabilities (fractions that sum to 1)."""
    state = pyspiel.load_game("rulespec_ouro-de-tolo(players=4)").new_initial_state()
    assert state.is_chance_node()
    exact = state.chance_outcomes_exact()
    assert sum(p for _, p in exact) == 1 and all(isinstance(p, Fraction) for _, p in exact)
    assert [(a, float(p)) for a, p in exact] == state.chance_outcomes()


def test_observations_are_the_players_views() -> None:
    """Observation and information-state strings come from the player's view of the state."""
    game = pyspiel.load_game("rulespec_fool(players=4)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node() or state.current_player() != 0:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    for p in range(4):
        seen: dict[str, Any] = json.loads(state.observation_string(p))
        assert [h == "<hidden>" for h in seen["hands"]] == [q != p for q in range(4)]
        assert seen["deck"] == "<hidden>"
        assert state.information_state_string(p).startswith("{")
    assert game.max_game_length() == DEFAULT_MAX_LENGTH


def test_a_game_reaching_max_length_is_truncated_with_zero_returns() -> None:
    """A game longer than max_length ends there; every return is 0."""
    state = pyspiel.load_game("rulespec_ruby-rhino(players=3,max_length=50)").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.play.steps == 50 and state.returns() == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(("game", "players", "rulings"), [
    ("ruby-rhino", 2, "RR-AMB-04=player-chooses"), ("ruby-rhino", 5, "RR-AMB-04=player-chooses"),
    ("dado-de-ouro", 4, ""), ("pig", 2, ""),
])
def test_mcts_plays_a_full_game(game: str, players: int, rulings: str) -> None:
    """OpenSpiel's MCTS bot plays a whole game of each perfect-information configuration."""
    from open_spiel.python.algorithms import mcts

    loaded = pyspiel.load_game(f"rulespec_{game}(players={players}{',' if rulings else ''}"
                               f"{rulings})")
    assert loaded.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    rng = np.random.RandomState(1)
    bot = mcts.MCTSBot(loaded, uct_c=2.0, max_simulations=4, evaluator=_Zero(), random_state=rng,
                       solve=False)
    state = loaded.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
            decisions += 1
    assert not state.play.truncated
    assert sum(state.returns()) == pytest.approx(0.0)
    assert decisions > 0 or game == "dado-de-ouro"


class _Zero:
    """An MCTS evaluator without rollouts (games are long): every position is worth 0."""

    def evaluate(self, state: Any) -> Any:
        return np.zeros(state.num_players())

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]
