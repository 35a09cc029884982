"""Players for impact measurement: random, greedy (one ply) and Monte-Carlo tree search.

An agent is an object with an ``id``, a ``description`` and ``act(obs, rng) -> action``. It
sees an :class:`Observation`: its seat, its legal actions, its view of the state (the spec's
``state.hidden`` applied, :func:`rulespec.spec.visibility.view`) and what it has seen so far.
``rng`` is a fresh generator seeded for this one decision by the game's player stream (see
``rulespec.impact.paired``), so an agent's own randomness never shifts the stream.

- ``random``: a uniformly random legal action.
- ``greedy``: tries each legal action and keeps the one whose resulting view scores best under
  the game's declared heuristic (a function ``heuristic(config, view, player)`` at the end of
  the game's reference module); ties are broken at random.
- ``mcts``: UCT over the engine API, the same for every game. Chance nodes are sampled with
  their exact probabilities. Hidden information is determinised (see :func:`determinise`):
  with the game's ``redeal(engine, player, rng)`` hook when its reference module declares one
  (a copy of the game with everything hidden from the player dealt again, each hidden place
  keeping its size), otherwise by replaying the game from the start with the public actions,
  drawing every chance outcome among those that leave the player's view as it was seen. A
  decision with no world found is taken as the greedy player would; the agent counts these
  fallbacks and the impact report shows their rate.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from rulespec.reference.core import CHANCE, Action, Actor, Config, Engine
from rulespec.reference.registry import engine_class, reference_module
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.visibility import HiddenField, hidden_fields, view

#: A game's heuristic: how good ``view`` (a player's view of the state) is for ``player``;
#: higher is better. It reads the configuration (tables, parameters) and the view only.
Heuristic = Callable[[Config, Mapping[str, Any], int], float]
#: A game's determinisation hook: deal again, in place, everything ``engine`` (a copy of the
#: game) hides from ``player``, keeping the size of every hidden place and everything the player
#: sees or can count from what it saw; ``rng`` is the only randomness. The result must depend on
#: the hidden contents only through what the player knows (sort before shuffling).
Redeal = Callable[[Engine, int, random.Random], None]


class AgentError(RulespecError):
    """An unknown agent name, or a game that declares no heuristic for the greedy player."""


@dataclass
class Observation:
    """What one player knows when it is to move."""

    player: int
    legal: list[Action]
    spec: Spec
    config: Config
    hidden: tuple[HiddenField, ...]
    _engine: Engine
    _states: list[dict[str, Any]] | None = None
    _history: list[tuple[Actor, Action]] = field(default_factory=list)

    def view(self) -> Any:
        """Return the player's view of the current state."""
        return view(self._engine.state(), self.hidden, self.player)

    def view_after(self, action: Action) -> Any:
        """Return the player's view of the state right after it takes ``action``."""
        other = self._engine.clone()
        other.apply(action)
        return view(other.state(), self.hidden, self.player)

    @property
    def perfect_information(self) -> bool:
        """Return True when the spec hides nothing: the view is the whole state."""
        return not self.hidden

    def public_engine(self) -> Engine:
        """Return a copy of the engine; only when nothing is hidden (the view is the state)."""
        if self.hidden:
            raise AgentError("the state has hidden fields; determinise from the views instead")
        return self._engine.clone()

    def seen(self) -> list[tuple[Actor, Action | None, Any]]:
        """Return what the player has seen: ``(None, None, first view)``, then each step.

        Each step is the actor, the action when a player took it (players act in the open;
        chance outcomes are None) and the player's view after it.
        """
        if self._states is None:
            raise AgentError("this game was played without a record of its states")
        out: list[tuple[Actor, Action | None, Any]] = [
            (CHANCE, None, view(self._states[0], self.hidden, self.player))]
        for (actor, action), state in zip(self._history, self._states[1:], strict=True):
            out.append((actor, None if actor == CHANCE else action,
                        view(state, self.hidden, self.player)))
        return out


class Agent(Protocol):
    """A player: an id, a one-line description, and a choice of action."""

    id: str
    description: str
    #: True when the agent reads ``Observation.seen`` (the game then records its states).
    needs_history: bool

    def act(self, obs: Observation, rng: random.Random) -> Action:
        """Return one of ``obs.legal``."""
        ...


class RandomAgent:
    """Uniformly random over the legal actions."""

    id = "random"
    description = "uniform random over legal actions"
    needs_history = False

    def act(self, obs: Observation, rng: random.Random) -> Action:
        """Return a uniformly random legal action."""
        return obs.legal[rng.randrange(len(obs.legal))]


def heuristic_of(spec: Spec) -> Heuristic:
    """Return the ``heuristic`` function the game's reference module declares."""
    module = reference_module(spec)
    found = getattr(module, "heuristic", None)
    if not callable(found):
        raise AgentError(f"{spec.reference_module} declares no heuristic(config, view, player) "
                         f"function, so the greedy and mcts players cannot play {spec.game_id}; "
                         "add one at the end of the module")
    return found  # type: ignore[no-any-return]


def redeal_of(spec: Spec) -> Redeal | None:
    """Return the ``redeal`` hook the game's reference module declares, or None."""
    module = reference_module(spec)
    found = getattr(module, "redeal", None)
    return found if callable(found) else None


class GreedyAgent:
    """One ply: the legal action whose resulting view the game's heuristic scores highest."""

    id = "greedy"
    description = "one-ply, maximises the game's declared heuristic"
    needs_history = False

    def __init__(self, spec: Spec) -> None:
        self.heuristic = heuristic_of(spec)

    def act(self, obs: Observation, rng: random.Random) -> Action:
        """Return the best-scoring legal action; ties broken at random."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        best: list[Action] = []
        top = -math.inf
        for action in obs.legal:
            score = self.heuristic(obs.config, obs.view_after(action), obs.player)
            if score > top:
                top, best = score, [action]
            elif score == top:
                best.append(action)
        return best[rng.randrange(len(best))]


def _key(action: Action) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _sample(outcomes: Sequence[tuple[Action, Fraction]], rng: random.Random) -> Action:
    total = sum(p for _, p in outcomes)
    ticket = Fraction(rng.random()) * total
    for action, p in outcomes:
        ticket -= p
        if ticket < 0:
            return action
    return outcomes[-1][0]


def _chance(world: Engine, rng: random.Random) -> Action:
    """Return a chance outcome of ``world`` drawn with its probabilities (for the search).

    With the engine's integer weights when it offers them (no fractions: sampling was most of
    a search's time), else with ``chance_outcomes``.
    """
    weighted = world.chance_weights()
    if weighted is None:
        return _sample(world.chance_outcomes(), rng)
    actions, weights = weighted
    ticket = rng.randrange(sum(weights))
    for action, weight in zip(actions, weights, strict=True):
        ticket -= weight
        if ticket < 0:
            return action
    return actions[-1]


def determinise(obs: Observation, rng: random.Random, tries: int = 8,
                redeal: Redeal | None = None) -> Engine | None:
    """Return a world consistent with what ``obs.player`` sees, or None.

    With nothing hidden, the world is a copy of the game. With a ``redeal`` hook (the game
    module's, see :func:`redeal_of`), it is a copy of the game in which the hook has dealt again
    everything hidden from the player; the player's view of it must be the view of the game
    (AgentError otherwise: the hook is wrong). The world is drawn uniformly among the deals
    that fit the current view and the sizes of the hidden places, not weighed by what the
    other players' past actions say about their hands.

    Without a hook, generic over engines: a fresh engine replays the game; every player action
    is applied as it was taken, and every chance step draws, with the engine's probabilities,
    among the outcomes that leave the player's view exactly as the player saw it (one draw is
    tried first, then all outcomes are filtered). A world in which a later public action is
    illegal, or a view differs, is abandoned and the replay starts again, at most ``tries``
    times (None when none fits). This is rejection sampling step by step: it fails where other
    players later play hidden cards, which a random replay rarely dealt them.
    """
    if obs.perfect_information:
        return obs.public_engine()
    if redeal is not None:
        world = obs._engine.clone()
        redeal(world, obs.player, rng)
        if view(world.state(), obs.hidden, obs.player) != obs.view():
            raise AgentError(f"{obs.spec.reference_module}.redeal changed what player "
                             f"{obs.player} sees; it may deal again only what is hidden")
        return world
    seen = obs.seen()
    cls = engine_class(obs.spec)
    hidden, me = obs.hidden, obs.player
    for _ in range(tries):
        world = cls(obs.spec, obs.config)
        if view(world.state(), hidden, me) != seen[0][2]:
            return None
        ok = True
        for actor, action, after in seen[1:]:
            if actor == CHANCE:
                outcomes = world.chance_outcomes()
                guess = world.clone()
                guess.apply(_sample(outcomes, rng))
                if view(guess.state(), hidden, me) == after:
                    world = guess
                    continue
                fits: list[tuple[Action, Fraction]] = []
                for outcome, p in outcomes:
                    trial = world.clone()
                    trial.apply(outcome)
                    if view(trial.state(), hidden, me) == after:
                        fits.append((outcome, p))
                if not fits:
                    ok = False
                    break
                world.apply(_sample(fits, rng))
            else:
                assert action is not None
                if not world.is_legal(action):
                    ok = False
                    break
                world.apply(action)
                if view(world.state(), hidden, me) != after:
                    ok = False
                    break
        if ok:
            return world
    return None


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0
    children: dict[str, _Node] = field(default_factory=dict)


def returns_of(ranking: Sequence[Sequence[int]], players: int) -> list[float]:
    """Return each player's rank-based return in [-1, 1] (below − above) / (n − 1)."""
    place = {p: i for i, group in enumerate(ranking) for p in group}
    last = len(ranking)
    level = [place.get(p, last) for p in range(players)]
    if players < 2:
        return [0.0] * players
    return [(sum(level[q] > level[p] for q in range(players))
             - sum(level[q] < level[p] for q in range(players))) / (players - 1)
            for p in range(players)]


class MctsAgent:
    """UCT over the engine API, with chance sampled and hidden information determinised."""

    id = "mcts"

    def __init__(self, spec: Spec, *, iterations: int = 48, worlds: int = 2,
                 rollout_depth: int = 40, exploration: float = 1.4) -> None:
        self.heuristic = heuristic_of(spec)
        self.redeal = redeal_of(spec)
        #: The replay needs the states seen so far; a redeal needs only the game.
        self.needs_history = self.redeal is None
        self.iterations = iterations
        self.worlds = worlds
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        #: Decisions searched (more than one legal action), and those of them taken as the
        #: greedy player because no world consistent with the player's view was found.
        self.decisions = 0
        self.fallbacks = 0
        self._greedy = GreedyAgent(spec)
        how = ("" if not hidden_fields(spec.data) else
               " (hidden cards dealt again by the game's redeal)" if self.redeal is not None
               else " (replayed from the public actions)")
        self.description = (f"UCT, {iterations} iterations over {worlds} determinised worlds"
                            f"{how}, random rollouts of {rollout_depth} actions scored by the "
                            "heuristic")

    def act(self, obs: Observation, rng: random.Random) -> Action:
        """Return the most visited root action after the search."""
        if len(obs.legal) == 1:
            return obs.legal[0]
        self.decisions += 1
        worlds = [w for w in (determinise(obs, rng, redeal=self.redeal)
                              for _ in range(self.worlds)) if w is not None]
        if not worlds:
            self.fallbacks += 1
            return self._greedy.act(obs, rng)
        legal = {_key(a): a for a in obs.legal}
        root = _Node()
        for i in range(self.iterations):
            self._iterate(worlds[i % len(worlds)].clone(), root, legal, obs.config, rng)
        best = max(sorted(legal), key=lambda k: (root.children[k].visits
                                                  if k in root.children else -1))
        return legal[best]

    def _iterate(self, world: Engine, root: _Node, legal: Mapping[str, Action], config: Config,
                 rng: random.Random) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        expanded = False
        while not expanded:
            actor = world.current_player()
            if actor is None:
                break
            if actor == CHANCE:
                world.apply(_chance(world, rng))
                continue
            actions = ({k: a for k, a in legal.items()} if node is root
                       else {_key(a): a for a in world.legal_actions()})
            untried = [k for k in actions if k not in node.children]
            if untried:
                k = untried[rng.randrange(len(untried))]
                node.children[k] = _Node()
                expanded = True
            else:
                log_n = math.log(max(1, node.visits))
                k = max(actions, key=lambda key: (
                    node.children[key].total / node.children[key].visits
                    + self.exploration * math.sqrt(log_n / node.children[key].visits)))
            world.apply(actions[k])
            node = node.children[k]
            path.append((node, actor))
        returns = self._rollout(world, config, rng)
        root.visits += 1
        for child, mover in path:
            child.visits += 1
            child.total += returns[mover]

    def _rollout(self, world: Engine, config: Config, rng: random.Random) -> list[float]:
        for _ in range(self.rollout_depth):
            actor = world.current_player()
            if actor is None:
                break
            if actor == CHANCE:
                world.apply(_chance(world, rng))
            else:
                options = world.legal_actions()
                world.apply(options[rng.randrange(len(options))])
        n = world.players
        result = world.result()
        if result is not None:
            return returns_of(result["ranking"], n)
        state = world.state()
        scores = [self.heuristic(config, state, p) for p in range(n)]
        levels = sorted(set(scores), reverse=True)
        return returns_of([[p for p in range(n) if scores[p] == s] for s in levels], n)


AGENTS = ("random", "greedy", "mcts")
#: The agents that search determinised worlds, whose fallbacks the reports show.
SEARCHING = ("mcts",)


def make_agent(name: str, spec: Spec) -> Agent:
    """Return a new agent by name for ``spec``'s game (AgentError for an unknown name)."""
    if name == "random":
        return RandomAgent()
    if name == "greedy":
        return GreedyAgent(spec)
    if name == "mcts":
        return MctsAgent(spec)
    raise AgentError(f"unknown agent {name!r}; known: {', '.join(AGENTS)}")


def describe_agent(name: str, spec: Spec) -> dict[str, str]:
    """Return ``{id, description}`` of an agent, as the impact record lists it."""
    agent = make_agent(name, spec)
    return {"id": agent.id, "description": agent.description}
