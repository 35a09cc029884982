"""Every rulespec game as a PettingZoo AEC environment. Needs the ``pettingzoo`` extra.

::

    from rulespec.bridges.pettingzoo import env

    game = env("fool", players=4, rulings={"FOOL-AMB-03": "eight-only"}, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        action = None if termination or truncation else (
            game.action_space(agent).sample(observation["action_mask"]))
        game.step(action)

Agents are ``player_0`` ... ``player_<n-1>``. An action is an id of the game's
:class:`~rulespec.bridges.encoding.ActionEncoding` (a ``Discrete`` space the size of the
numbering); ``observation["action_mask"]`` marks the legal ones. ``observation["observation"]``
is the player's view of the canonical state (the spec's state schema with every field hidden from
that player replaced), as UTF-8 JSON in a zero-padded ``uint8`` array; :func:`decode_observation`
turns it back into JSON. Chance moves are drawn by the environment with the reference's exact
probabilities from the seeded generator (``chance="sample"``), or left to an extra ``chance``
agent whose legal actions are the outcomes (``chance="agent"``): a configuration with no player
decision at all (Dado de Ouro) needs the latter, or it ends during ``reset``. Rewards are the
rank-based returns at the end; a game truncated at ``max_length`` actions rewards 0.
``render()`` gives the reference's narration of the actions since the last call.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, Literal

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from rulespec.bridges.common import DEFAULT_MAX_LENGTH, BridgeGame, Play, sample_chance
from rulespec.reference.core import CHANCE, Engine
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: Bytes of the observation array; a view whose JSON is longer is an error (raise the size).
DEFAULT_OBSERVATION_BYTES = 32_768
CHANCE_AGENT = "chance"


class ObservationTooLarge(RulespecError):
    """A player's view does not fit the observation array."""


def agent_name(player: int) -> str:
    """Return the agent name of seat ``player``."""
    return f"player_{player}"


def decode_observation(observation: Mapping[str, Any]) -> Any:
    """Return the JSON view inside an observation of this environment."""
    data = bytes(np.asarray(observation["observation"], dtype=np.uint8)).rstrip(b"\0")
    return json.loads(data.decode("utf-8"))


class RulespecEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment playing one configuration of a rulespec game."""

    def __init__(self, game: BridgeGame, *, chance: Literal["sample", "agent"] = "sample",
                 render_mode: str | None = None,
                 observation_bytes: int = DEFAULT_OBSERVATION_BYTES) -> None:
        super().__init__()
        if chance not in ("sample", "agent"):
            raise ValueError(f"chance must be 'sample' or 'agent', not {chance!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.game = game
        self.chance = chance
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi", "human"], "name": f"rulespec_{game.spec.game_id}",
                         "is_parallelizable": False}
        self.possible_agents = [agent_name(p) for p in range(game.players)]
        if chance == "agent":
            self.possible_agents.append(CHANCE_AGENT)
        size = game.encoding.size
        self._bytes = observation_bytes
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0, 255, (observation_bytes,), np.uint8),
            "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self._rng = random.Random()
        self.agent_selection: str = self.possible_agents[0]
        self._narration: list[str] = []
        self.play: Play = game.new_play()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the observation space of ``agent`` (the same object every time)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the action space of ``agent`` (the same object every time)."""
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the chance draws (and nothing else)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.play = self.game.new_play()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._narration = []
        self._advance()

    def step(self, action: Any) -> None:
        """Take action id ``action`` for the selected agent (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._apply(int(action))
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _apply(self, number: int) -> None:
        engine = self.play.engine
        actor = engine.current_player()
        action = self.game.encoding.decode(number)
        self.play.apply(action)
        self._narration.append(engine.describe(action, CHANCE if actor is None else actor))

    def _advance(self) -> None:
        """Draw chance moves (in sample mode), then select who acts or end the game."""
        while self.chance == "sample" and self.play.current() == CHANCE:
            chosen = sample_chance(self.play.engine.chance_outcomes(), self._rng)
            self._apply(self.game.encoding.encode(chosen))
        who = self.play.current()
        if who is None:
            returns = self.play.returns()
            truncated = self.play.truncated
            for a in self.agents:
                seat = self.possible_agents.index(a)
                self.rewards[a] = returns[seat] if seat < self.game.players else 0.0
                self.terminations[a] = not truncated
                self.truncations[a] = truncated
            self._accumulate_rewards()
            if self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = CHANCE_AGENT if who == CHANCE else agent_name(who)
        self._clear_rewards()

    # -- what an agent sees ---------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, Any]:
        """Return ``agent``'s view of the state and its action mask."""
        if agent == CHANCE_AGENT:
            text = json.dumps(self.play.view(None), sort_keys=True, separators=(",", ":"))
        else:
            text = self.play.observation_string(self.possible_agents.index(agent))
        data = text.encode("utf-8")
        if len(data) > self._bytes:
            raise ObservationTooLarge(f"{agent}'s view of {self.game.spec.game_id} is {len(data)} "
                                      f"bytes, more than observation_bytes={self._bytes}; make "
                                      "the environment with a larger observation_bytes")
        buffer = np.zeros(self._bytes, np.uint8)
        buffer[:len(data)] = np.frombuffer(data, np.uint8)
        mask = np.zeros(self.game.encoding.size, np.int8)
        if agent == self.agent_selection and not self.play.is_over():
            mask[self.play.legal_ids()] = 1
        return {"observation": buffer, "action_mask": mask}

    def render(self) -> str | None:
        """Return (``ansi``) or print (``human``) the narration since the last call."""
        text = "\n".join(self._narration)
        self._narration = []
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        """Release nothing: the environment holds no outside resources."""


def env(game_id: str, *, players: int | None = None, rulings: Mapping[str, str] | None = None,
        variants: tuple[str, ...] = (), max_length: int = DEFAULT_MAX_LENGTH,
        chance: Literal["sample", "agent"] = "sample", render_mode: str | None = None,
        observation_bytes: int = DEFAULT_OBSERVATION_BYTES) -> RulespecEnv:
    """Return an environment of a registry game with this configuration."""
    from rulespec.spec.registry import get_spec

    spec = get_spec(game_id)
    return env_from_spec(spec, players=players, rulings=rulings, variants=variants,
                         max_length=max_length, chance=chance, render_mode=render_mode,
                         observation_bytes=observation_bytes)


def env_from_spec(spec: Spec, *, players: int | None = None,
                  rulings: Mapping[str, str] | None = None, variants: tuple[str, ...] = (),
                  max_length: int = DEFAULT_MAX_LENGTH,
                  chance: Literal["sample", "agent"] = "sample", render_mode: str | None = None,
                  observation_bytes: int = DEFAULT_OBSERVATION_BYTES,
                  engine_class: type[Engine] | None = None) -> RulespecEnv:
    """Return an environment of ``spec`` (a game the registry need not hold)."""
    game = BridgeGame(spec, spec.min_players if players is None else players, dict(rulings or {}),
                      tuple(variants), max_length, engine_class)
    return RulespecEnv(game, chance=chance, render_mode=render_mode,
                       observation_bytes=observation_bytes)
