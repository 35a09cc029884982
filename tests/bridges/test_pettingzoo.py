"""The PettingZoo bridge: every game passes PettingZoo's api_test and seed_test."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

from rulespec.spec.registry import get_spec
from tests.bridges.support import configurations, pig, require

require("pettingzoo", "pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from rulespec.bridges.pettingzoo import (  # noqa: E402
    RulespecEnv,
    decode_observation,
    env,
    env_from_spec,
)

#: Games with no player decision under their default rulings: chance must be an agent.
PURE_CHANCE = {"dado-de-ouro", "ruby-rhino"}


def make(game: str, players: int, **options: Any) -> RulespecEnv:
    """Return the environment of ``game`` (the plugin game from the source tree)."""
    if game == "pig":
        spec, engine = pig()
        return env_from_spec(spec, players=players, engine_class=engine, **options)
    return env(game, players=players, **options)


CASES = [*configurations(), ("pig", 2), ("pig", 6)]


@pytest.mark.parametrize(("game", "players"), CASES)
def test_api_test(game: str, players: int) -> None:
    """PettingZoo's api_test passes at the smallest and largest player counts."""
    chance = "agent" if game in PURE_CHANCE else "sample"
    with warnings.catch_warnings():
        # api_test warns that the observation is not a float image; it is JSON bytes.
        warnings.simplefilter("ignore")
        api_test(make(game, players, chance=chance, render_mode="ansi"), num_cycles=300)


@pytest.mark.parametrize(("game", "players"), CASES)
def test_seed_test(game: str, players: int) -> None:
    """Two environments reset with one seed play identically (chance draws included)."""
    chance = "agent" if game in PURE_CHANCE else "sample"
    seed_test(lambda: make(game, players, chance=chance), num_cycles=15)


def test_players_decide_when_chance_is_sampled() -> None:
    """With a ruling that gives players a choice, Ruby Rhino runs with chance sampled."""
    game = env("ruby-rhino", players=5, rulings={"RR-AMB-04": "player-chooses"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(game, num_cycles=300)


def test_observations_show_only_the_players_view() -> None:
    """Each agent's observation is its own view: its hand, not the others', never the deck."""
    game = env("fool", players=4, render_mode="ansi")
    game.reset(seed=1)
    for agent in game.possible_agents:
        seat = int(agent.removeprefix("player_"))
        seen = decode_observation(game.observe(agent))
        assert [h == "<hidden>" for h in seen["hands"]] == [q != seat for q in range(4)]
        assert seen["deck"] == "<hidden>"
    mask = game.observe(game.agent_selection)["action_mask"]
    assert mask.sum() == len(game.play.legal_ids()) > 0
    text = game.render()
    assert text is not None and "deal" in text


def test_a_random_policy_plays_to_the_end_with_zero_sum_rewards() -> None:
    """A whole game under a random policy ends with rank-based rewards that sum to zero."""
    game = env("ouro-de-tolo", players=3)
    game.reset(seed=5)
    total = dict.fromkeys(game.possible_agents, 0.0)
    rng = np.random.default_rng(5)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        total[agent] += reward
        if termination or truncation:
            game.step(None)
            continue
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert sum(total.values()) == pytest.approx(0.0) and max(total.values()) > 0
    assert get_spec("ouro-de-tolo").game_id in str(game.metadata["name"])
