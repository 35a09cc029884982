"""Every rulespec game as an OpenSpiel (pyspiel) Python game. Needs the ``openspiel`` extra.

Nothing is registered by importing this module: call :func:`register_all` (every game of the
registry, plugin games included) or :func:`register` (one spec), then load games by name::

    from rulespec.bridges.openspiel import register_all
    import pyspiel

    register_all()
    game = pyspiel.load_game("rulespec_fool(players=5,FOOL-AMB-03=eight-only)")

The name is ``rulespec_<game id>``. Its parameters: ``players``; one string parameter per
ambiguity, named by the ambiguity id, whose value is an option id (the default ruling when
omitted); ``variant_<variant id>`` booleans; and ``max_length``, the cap on the number of actions
(chance included) after which a game is truncated with every return 0. Actions are numbered by
:class:`rulespec.bridges.encoding.ActionEncoding`; chance outcomes carry the reference's exact
probabilities (as floats for OpenSpiel; :meth:`RulespecState.chance_outcomes_exact` gives the
fractions). Returns are rank-based and zero-sum (see
:func:`rulespec.bridges.common.returns_from_ranking`). Observation and information-state strings
are built from each player's view of the state, so they never show what the spec hides from that
player. Tensors are not provided.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, ClassVar

import numpy as np
import pyspiel

from rulespec.bridges.common import DEFAULT_MAX_LENGTH, BridgeGame, Play
from rulespec.reference.core import CHANCE, Engine
from rulespec.spec.model import Spec

#: Prefix of every game name this bridge registers.
PREFIX = "rulespec_"
#: Prefix of the boolean parameter that turns a variant on.
VARIANT_PREFIX = "variant_"

_REGISTERED: dict[str, str] = {}


def game_name(game_id: str) -> str:
    """Return the OpenSpiel name of ``game_id`` (``rulespec_fool``)."""
    return PREFIX + game_id


def _game_type(spec: Spec) -> Any:
    parameters: dict[str, Any] = {"players": spec.min_players, "max_length": DEFAULT_MAX_LENGTH}
    parameters.update(spec.default_rulings())
    parameters.update({VARIANT_PREFIX + v: False for v in spec.variants})
    perfect = not spec.data.get("state", {}).get("hidden")
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=game_name(spec.game_id),
        long_name=f"rulespec {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=info.PERFECT_INFORMATION if perfect else info.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification=parameters,
    )


class RulespecGame(pyspiel.Game):  # type: ignore[misc]
    """A rulespec game as a pyspiel game; :func:`register` makes one subclass per spec."""

    spec: ClassVar[Spec]
    engine_class: ClassVar[type[Engine] | None] = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self.spec
        params = dict(params or {})
        players = int(params.get("players", spec.min_players))
        rulings = {a: str(params[a]) for a in spec.ambiguities if a in params}
        variants = tuple(v for v in spec.variants if params.get(VARIANT_PREFIX + v))
        self.bridge = BridgeGame(spec, players, rulings, variants,
                                 int(params.get("max_length", DEFAULT_MAX_LENGTH)),
                                 self.engine_class)
        size = self.bridge.encoding.size
        info = pyspiel.GameInfo(
            num_distinct_actions=size, max_chance_outcomes=size, num_players=players,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=self.bridge.max_length)
        super().__init__(_game_type(spec), info, params)

    def new_initial_state(self) -> RulespecState:
        """Return the state at the start of a game."""
        return RulespecState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """Return the observer of observation strings (or, with perfect recall, info states)."""
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(perfect_recall)


class RulespecState(pyspiel.State):  # type: ignore[misc]
    """A game in progress, driving the reference engine."""

    def __init__(self, game: RulespecGame) -> None:
        super().__init__(game)
        self._bridge = game.bridge
        self._play: Play | None = None

    @property
    def play(self) -> Play:
        """Return the game in progress (made on first use: pyspiel clones a state by making a
        new one and copying this over it)."""
        if self._play is None:
            self._play = self._bridge.new_play()
        return self._play

    def current_player(self) -> int:
        """Return the player to move, CHANCE or TERMINAL."""
        who = self.play.current()
        if who is None:
            return int(pyspiel.PlayerId.TERMINAL)
        if who == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return who

    def _legal_actions(self, player: int) -> list[int]:
        return self.play.legal_ids() if player == self.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the chance outcomes as (action id, probability)."""
        return [(a, float(p)) for a, p in self.play.chance_ids()]

    def chance_outcomes_exact(self) -> list[tuple[int, Fraction]]:
        """Return the chance outcomes with the reference's exact probabilities."""
        return self.play.chance_ids()

    def _apply_action(self, action: int) -> None:
        self.play.apply_id(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        decoded = self.play.game.encoding.decode(int(action))
        return json.dumps(decoded, sort_keys=True, separators=(",", ":"))

    def is_terminal(self) -> bool:
        """Return True once the game is over (or truncated at ``max_length``)."""
        return self.play.is_over()

    def returns(self) -> list[float]:
        """Return the rank-based returns (0 for everyone before the end or when truncated)."""
        return self.play.returns()

    def __str__(self) -> str:
        text = json.dumps(self.play.engine.state(), sort_keys=True, separators=(",", ":"))
        return text + (" truncated" if self.play.truncated else "")


class Observer:
    """OpenSpiel's observer interface: strings only (``tensor`` is empty)."""

    def __init__(self, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: RulespecState, player: int) -> None:
        """Do nothing: this bridge provides no tensors."""

    def string_from(self, state: RulespecState, player: int) -> str:
        """Return ``player``'s information state (perfect recall) or observation."""
        if self.perfect_recall:
            return state.play.information_state_string(player)
        return state.play.observation_string(player)


def register(spec: Spec, *, engine_class: type[Engine] | None = None) -> str:
    """Register ``spec`` as an OpenSpiel game (once per process) and return its name.

    ``engine_class`` defaults to the engine the spec's ``game.reference`` names.
    """
    name = game_name(spec.game_id)
    if name in _REGISTERED:
        return name
    cls = type(f"RulespecGame_{spec.game_id.replace('-', '_')}", (RulespecGame,),
               {"spec": spec, "engine_class": engine_class})
    pyspiel.register_game(_game_type(spec), cls)
    _REGISTERED[name] = spec.game_id
    return name


def register_all() -> list[str]:
    """Register every game of the registry (plugin games included); return their names."""
    from rulespec.spec.registry import all_specs

    return [register(spec) for spec in all_specs()]


def load(game_id: str, *, players: int | None = None, rulings: dict[str, str] | None = None,
         variants: tuple[str, ...] = (), max_length: int | None = None) -> Any:
    """Register ``game_id`` if needed and load it with this configuration."""
    from rulespec.spec.registry import get_spec

    spec = get_spec(game_id)
    register(spec)
    params: dict[str, Any] = {"players": spec.min_players if players is None else players}
    params.update(rulings or {})
    params.update({VARIANT_PREFIX + v: True for v in variants})
    if max_length is not None:
        params["max_length"] = max_length
    return pyspiel.load_game(game_name(game_id), params)
