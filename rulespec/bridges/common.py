"""What both bridges share: a configured game, returns from the result, and per-player views.

A :class:`BridgeGame` is one configuration of one spec (players, rulings, variants) with its
action numbering, its hidden fields and a length cap. A :class:`Play` is one game in progress:
the reference engine, the number of actions taken, and each player's information state (the
public actions and the changes of that player's view, step by step). Nothing here imports
OpenSpiel or PettingZoo.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from math import lcm
from typing import Any, Self

from rulespec.bridges.encoding import ActionEncoding
from rulespec.reference.core import CHANCE, Action, Actor, Config, Engine, make_config
from rulespec.reference.observation import observed_fields
from rulespec.spec.model import Spec
from rulespec.spec.visibility import HiddenField, view

#: The default cap on the number of actions (chance included) of one game. The rules of some
#: games (dice games whose ties repeat) set no bound; a game that reaches the cap is truncated
#: and every player's return is 0.
DEFAULT_MAX_LENGTH = 20_000


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class BridgeGame:
    """One configuration of a game, as both bridges present it."""

    spec: Spec
    players: int
    rulings: Mapping[str, str] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    max_length: int = DEFAULT_MAX_LENGTH
    engine_class: type[Engine] | None = None

    def __post_init__(self) -> None:
        # Resolve now so that a bad configuration fails when the game is made, not when played.
        _ = self.config

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """Return self: a configuration never changes (pyspiel deep-copies states)."""
        return self

    @cached_property
    def config(self) -> Config:
        """Return the resolved configuration."""
        return make_config(self.spec, players=self.players, rulings=self.rulings,
                           variants=self.variants)

    @cached_property
    def encoding(self) -> ActionEncoding:
        """Return the action numbering of the spec."""
        return _encoding(self.spec)

    @cached_property
    def hidden(self) -> tuple[HiddenField, ...]:
        """Return the state fields hidden from some player under this configuration's rulings:
        the spec's ``state.hidden`` entries that hold under them (a record of who sees what:
        OURO-AMB-37's in-hand hides a player's Fool's Gold, FOOL-AMB-21's open shows the hands)
        and what the game adds (``rulespec.reference.observation.observed_fields``)."""
        return observed_fields(self.new_engine())

    @property
    def perfect_information(self) -> bool:
        """Return True when the spec hides nothing from anyone."""
        return not self.hidden

    def new_engine(self) -> Engine:
        """Return the reference engine at the start of a game of this configuration."""
        from rulespec.reference.registry import engine_class

        cls = self.engine_class or engine_class(self.spec)
        return cls(self.spec, self.config)

    def new_play(self) -> Play:
        """Return a new game in progress."""
        return Play(self, self.new_engine())


_ENCODINGS: dict[str, tuple[Spec, ActionEncoding]] = {}


def _encoding(spec: Spec) -> ActionEncoding:
    cached = _ENCODINGS.get(spec.game_id)
    if cached is None or cached[0] is not spec:
        cached = (spec, ActionEncoding(spec))
        _ENCODINGS[spec.game_id] = cached
    return cached[1]


def returns_from_ranking(ranking: Sequence[Sequence[int]], players: int) -> list[float]:
    """Return each player's return: (players ranked below - players ranked above) / (n - 1).

    Players who share a place score the same; the returns sum to zero and lie in [-1, 1]. A
    player the ranking leaves out counts as below everyone ranked.
    """
    place: dict[int, int] = {p: i for i, group in enumerate(ranking) for p in group}
    last = len(ranking)
    level = [place.get(p, last) for p in range(players)]
    out = []
    for p in range(players):
        above = sum(1 for q in range(players) if level[q] < level[p])
        below = sum(1 for q in range(players) if level[q] > level[p])
        out.append((below - above) / (players - 1) if players > 1 else 0.0)
    return out


def sample_chance(outcomes: Sequence[tuple[Action, Fraction]], rng: random.Random) -> Action:
    """Draw one chance outcome with its exact probability (no floating point)."""
    denominator = lcm(*(p.denominator for _, p in outcomes))
    ticket = rng.randrange(denominator)
    for action, p in outcomes:
        ticket -= int(p * denominator)
        if ticket < 0:
            return action
    raise ValueError(f"chance probabilities {[str(p) for _, p in outcomes]} do not sum to 1")


class Play:
    """One game in progress: the engine, the step count and each player's information state."""

    def __init__(self, game: BridgeGame, engine: Engine) -> None:
        self.game = game
        self.engine = engine
        self.steps = 0
        self.truncated = False
        # Legal ids and chance outcomes of the current step, computed once (reset by apply).
        self._legal: list[int] | None = None
        self._chance: list[tuple[int, Fraction]] | None = None
        # With nothing hidden, every player sees the state and all actions: one shared record
        # (the first state, then the actions) is the information state, and views are not kept.
        self._public = game.perfect_information
        self._views: list[Any] = [] if self._public else self._all_views()
        first = [_dumps(engine.state())] if self._public else None
        self._events: list[list[str]] = ([first] * game.players if first is not None
                                         else [[_dumps(v)] for v in self._views])

    def clone(self) -> Self:
        """Return an independent copy (views are never changed in place, so they are shared)."""
        other = object.__new__(type(self))
        other.game = self.game
        other.engine = self.engine.clone()
        other.steps = self.steps
        other.truncated = self.truncated
        other._public = self._public
        other._legal = self._legal
        other._chance = self._chance
        other._views = list(self._views)
        if self._public:
            shared = list(self._events[0])
            other._events = [shared] * len(self._events)
        else:
            other._events = [list(e) for e in self._events]
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """Return a clone (pyspiel copies states with ``copy.deepcopy``)."""
        return self.clone()

    # -- the game -------------------------------------------------------------------------------

    def current(self) -> Actor | None:
        """Return who moves (None once the game is over or truncated)."""
        return None if self.truncated else self.engine.current_player()

    def legal_ids(self) -> list[int]:
        """Return the ids of the legal actions (chance outcomes at chance nodes), ascending."""
        if self.current() is None:
            return []
        if self._legal is None:
            enc = self.game.encoding
            self._legal = sorted(enc.encode(a) for a in self.engine.legal_actions())
        return list(self._legal)

    def chance_ids(self) -> list[tuple[int, Fraction]]:
        """Return the chance outcomes as (id, exact probability), by ascending id."""
        if self._chance is None:
            enc = self.game.encoding
            self._chance = sorted((enc.encode(a), p) for a, p in self.engine.chance_outcomes())
        return list(self._chance)

    def apply_id(self, number: int) -> None:
        """Apply the action with id ``number`` (IllegalAction if it is not legal now)."""
        self.apply(self.game.encoding.decode(number))

    def apply(self, action: Action) -> None:
        """Apply ``action``, record what each player saw, and truncate at the length cap."""
        actor = self.engine.current_player()
        self.engine.apply(action)
        self._legal = self._chance = None
        self.steps += 1
        if self.steps >= self.game.max_length and not self.engine.is_terminal():
            self.truncated = True
        if self._public:
            self._events[0].append(_dumps([actor, action]))
            return
        shown = None if actor == CHANCE else action
        views = self._all_views()
        for p, (old, new) in enumerate(zip(self._views, views, strict=True)):
            changed = {k: v for k, v in new.items() if old.get(k) != v}
            self._events[p].append(_dumps([actor, shown, changed]))
        self._views = views

    def is_over(self) -> bool:
        """Return True once the game is over or truncated."""
        return self.current() is None

    def returns(self) -> list[float]:
        """Return each player's return: rank-based at the end, 0 while playing or truncated."""
        result = self.engine.result()
        if result is None or self.truncated:
            return [0.0] * self.game.players
        return returns_from_ranking(result["ranking"], self.game.players)

    # -- what a player sees ---------------------------------------------------------------------

    def view(self, player: int | None) -> Any:
        """Return ``player``'s view of the canonical state (hidden values replaced)."""
        return view(self.engine.state(), self.game.hidden, player)

    def _all_views(self) -> list[Any]:
        state = self.engine.state()
        hidden = self.game.hidden
        if not hidden:
            return [state] * self.game.players
        return [view(state, hidden, p) for p in range(self.game.players)]

    def observation_string(self, player: int) -> str:
        """Return ``player``'s view as canonical JSON text."""
        if self._public:
            return _dumps(self.engine.state())
        return _dumps(self._views[player])

    def information_state_string(self, player: int) -> str:
        """Return everything ``player`` has seen: the first view, then one line per action.

        Each line is ``[actor, action, changes]``: the action when a player took it (players act
        in the open), else null; and the fields of the player's view that changed. When the
        spec hides nothing, each line is ``[actor, action]``. Two histories a player cannot tell
        apart give the same string.
        """
        return "\n".join(self._events[player])

    def describe(self, number: int) -> str:
        """Return the engine's narration of the action with id ``number`` for whoever moves."""
        actor = self.engine.current_player()
        return self.engine.describe(self.game.encoding.decode(number),
                                    CHANCE if actor is None else actor)

