"""Paired games: the same seeds under the baseline ruling and under one other option.

Common random numbers. Every game has two random streams, each a ``random.Random`` seeded
from the game's seed, one per purpose:

- the *chance* streams, one per kind of chance outcome (a stone from the bag, a card from the
  deck, a stolen stone, a die), each draw exactly one number per chance event of their kind,
  and the outcome is the one whose cumulative probability that number falls in; a ruling that
  adds blind steals then leaves the stones drawn from the bag and the cards dealt as they were;
- the *player* stream draws exactly one number per player decision, whoever decides, and the
  agent gets a fresh generator seeded from it for that decision only.

Each event consumes the same amount of its stream whatever happens, so a ruling that adds or
removes a player decision shifts the player stream only, and never the chance stream; an
agent's own randomness (an MCTS search, a tie-break) never shifts either. One stream for all
players, rather than one per seat, matters for rulings about *who* chooses (OURO-AMB-03: the
taker or the owner picks the stones): under uniform random play both options then make the
same pick, so their games are identical, as they should be.

A batch plays ``size`` seeds: the baseline game once per seed (its decision counts serve every
ambiguity), then each requested option's game with the same seed. Seeds derive from the master
seed, the game, the player count, the batch index and the position in the batch (SHA-256, so
they are the same in every process and on every machine).
"""

from __future__ import annotations

import hashlib
import random
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulespec.impact.agents import Agent, Observation, make_agent
from rulespec.reference.core import CHANCE, Action, Actor, Engine, make_config
from rulespec.reference.observation import observed_fields
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

#: A game still running after this many actions is cut short and counted as having no winner.
MAX_ACTIONS = 20_000


def derive_seed(*parts: Any) -> int:
    """Return a 64-bit seed from ``parts`` (stable across processes, machines and versions)."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass(frozen=True)
class GameSummary:
    """What the statistics need from one game."""

    length: int
    winners: tuple[int, ...]
    margin: float | None
    decisions: tuple[int, ...]  # per requested ambiguity, in the batch's order
    truncated: bool = False
    #: Decisions the players searched (MCTS), and those of them taken greedily because no
    #: world consistent with the player's view was found (see ``agents.determinise``).
    searches: int = 0
    fallbacks: int = 0
    #: Each seat's final score (None without scores or when cut short), and the seat that took
    #: the game's first player action (None if no player acted): for the score distribution
    #: and the first player's advantage.
    scores: tuple[float, ...] | None = None
    first: int | None = None
    #: Player decisions with more than one legal action (0: the players never choose).
    choices: int = 0
    #: A CRC-32 of every action played and of the final state: two games of a pair (same
    #: seed, common random numbers) have the same one exactly when the ruling changed nothing
    #: in them, so a decision point reached there did not matter.
    fingerprint: int = 0


def pick_chance(outcomes: Sequence[tuple[Action, Fraction]], u: float) -> Action:
    """Return the outcome whose cumulative probability interval holds ``u`` (0 <= u < 1)."""
    if len(outcomes) == 1:
        return outcomes[0][0]
    ticket = Fraction(u)
    for action, p in outcomes:
        ticket -= p
        if ticket < 0:
            return action
    return outcomes[-1][0]


def margin_of(result: Mapping[str, Any]) -> float | None:
    """Return the winner's score minus the runner-up's, per the ranking (None without scores)."""
    scores = result.get("scores")
    ranking = result.get("ranking")
    if not isinstance(scores, list) or not isinstance(ranking, list) or not ranking:
        return None
    if len(ranking) < 2:
        return 0.0
    return float(scores[ranking[0][0]] - scores[ranking[1][0]])


def play_game(spec: Spec, rulings: Mapping[str, str], players: int,
              agent: Agent | Sequence[Agent], seed: int, ambiguities: Sequence[str] = (),
              engine_type: type[Engine] | None = None,
              variants: Sequence[str] = ()) -> GameSummary:
    """Play one game under ``rulings``; ``agent`` plays every seat, or one agent per seat."""
    seats = list(agent) if isinstance(agent, Sequence) else [agent] * players
    if len(seats) != players:
        raise ValueError(f"{len(seats)} agents for {players} seats")
    config = make_config(spec, players=players, rulings=rulings, variants=variants)
    engine = (engine_type or engine_class(spec))(spec, config)
    chance: dict[str, random.Random] = {}
    decide = random.Random(derive_seed(seed, "players"))
    # What the players may not see: the spec's state.hidden under the rulings (a record of who
    # sees what, such as OURO-AMB-37 in-hand): the agents choose from their view.
    hidden = observed_fields(engine)
    needs = any(a.needs_history for a in seats)
    states: list[dict[str, Any]] | None = [engine.state()] if needs else None
    history: list[tuple[Actor, Action]] = []
    steps = 0
    truncated = False
    first: int | None = None
    choices = 0
    trail = 0
    distinct = list({id(a): a for a in seats}.values())
    searched = sum(int(getattr(a, "decisions", 0)) for a in distinct)
    fell_back = sum(int(getattr(a, "fallbacks", 0)) for a in distinct)
    while True:
        actor = engine.current_player()
        if actor is None:
            break
        if steps >= MAX_ACTIONS:
            truncated = True
            break
        if actor == CHANCE:
            outcomes = engine.chance_outcomes()
            kind = str(outcomes[0][0].get("kind"))
            stream = chance.get(kind)
            if stream is None:
                stream = chance[kind] = random.Random(derive_seed(seed, "chance", kind))
            action = pick_chance(outcomes, stream.random())
        else:
            if first is None:
                first = int(actor)
            legal = engine.legal_actions()
            own = random.Random(decide.getrandbits(64))
            if len(legal) == 1:
                action = legal[0]
            else:
                choices += 1
                obs = Observation(actor, legal, spec, config, hidden, engine, states, history)
                action = seats[actor].act(obs, own)
        engine.apply(action)
        trail = zlib.crc32(repr(action).encode(), trail)
        steps += 1
        if states is not None:
            history.append((actor, action))
            states.append(engine.state())
    counts = engine.decisions
    result = engine.result()
    trail = zlib.crc32(repr(engine.state()).encode(), trail)
    searches = sum(int(getattr(a, "decisions", 0)) for a in distinct) - searched
    fallbacks = sum(int(getattr(a, "fallbacks", 0)) for a in distinct) - fell_back
    if truncated or result is None:
        return GameSummary(steps, (), None, tuple(counts[a] for a in ambiguities), True,
                           searches, fallbacks, None, first, choices, trail)
    scores = result.get("scores")
    return GameSummary(steps, tuple(sorted(result.get("winners", []))), margin_of(result),
                       tuple(counts[a] for a in ambiguities), False, searches, fallbacks,
                       tuple(float(x) for x in scores) if isinstance(scores, list) else None,
                       first, choices, trail)


@dataclass(frozen=True)
class BatchTask:
    """One seeded batch: ``size`` baseline games and, for each option, the paired games."""

    game: str
    players: int
    agent: str
    seed: int
    batch: int
    size: int
    ambiguities: tuple[str, ...]
    options: tuple[tuple[str, str], ...]  # (ambiguity, option) besides the baseline
    #: The variants every game of the batch is played with (part of the seed when given).
    variants: tuple[str, ...] = ()


#: Per seed: the baseline game, then one game per option of the task, in the task's order.
BatchResult = list[tuple[GameSummary, ...]]


def game_seed(task: BatchTask, index: int) -> int:
    """Return the seed of game ``index`` of the batch (the agent does not enter it)."""
    if task.variants:
        return derive_seed(task.seed, task.game, task.players, *task.variants, task.batch, index)
    return derive_seed(task.seed, task.game, task.players, task.batch, index)


def run_batch(task: BatchTask) -> BatchResult:
    """Play a batch (the function the executors run; module-level so it pickles)."""
    spec = get_spec(task.game)
    agent = make_agent(task.agent, spec)
    cls = engine_class(spec)
    out: BatchResult = []
    for i in range(task.size):
        seed = game_seed(task, i)
        games = [play_game(spec, {}, task.players, agent, seed, task.ambiguities, cls,
                           task.variants)]
        for amb, option in task.options:
            games.append(play_game(spec, {amb: option}, task.players, agent, seed,
                                   task.ambiguities, cls, task.variants))
        out.append(tuple(games))
    return out
