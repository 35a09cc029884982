"""Steered play: push the kit's games toward what the configuration has not exercised yet.

Hypothesis picks every action of a game (``choose(n)``), which reaches the common paths at once
and the rare ones almost never: a deck emptied and reshuffled, an accident in the middle of a
steal. Two things steer the games, both deterministic under a fixed seed:

- **unexercised action kinds first**: when some legal actions are of a kind no game of this
  configuration has taken yet (as of the game's start, or earlier in the game), Hypothesis's
  choice picks among those only. Once every kind was taken, the choice is Hypothesis's alone.
- **rule examples that reach rare positions, first**: before the Hypothesis games, the kit plays
  a game along each rule example of the configuration that shows one of the spec's declared
  events (``events:``) on the reference, then goes on from there with the same checks as every
  game. An engine that goes wrong on the rare path is caught with every step checked, not only
  the example's final expectations.

After the Hypothesis games, a search on the reference alone looks for games that reach what is
still missing (``seek``); where the spec gives a seek hint for a missing item (a ``coverage``
entry's ``seek``: CEL over ``state`` and ``action`` saying which choices lead toward it), the
search's games follow it, so that a path random play almost never takes (a trick of only 1s in
Fool) is found within the same budget.

While a failure is being shrunk, the kinds taken are frozen at the failing game's start, so
Hypothesis replays a choice sequence the same way every time.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulespec.conformance.play.coverage import (
    Coverage,
    Event,
    Hint,
    Universe,
    due_events,
    shown,
    slim,
)
from rulespec.reference.core import Action, Config, Engine
from rulespec.spec.model import Spec

#: Most rule examples replayed first per configuration (those showing the most events first).
MAX_SEEDS = 8


class Steering:
    """The chooser of one configuration's games, steered by its coverage so far."""

    def __init__(self, coverage: Coverage, *, steer: bool = True) -> None:
        self.coverage = coverage
        # Not steering: every kind counts as known, so the choice is Hypothesis's alone. A kind
        # the configuration cannot take (``Coverage.out``) is never waited for.
        self.all_kinds = (frozenset(k for k in coverage.universe.kinds if k not in coverage.out)
                          if steer else frozenset())
        self._known: set[str] = set()
        self._prefix: Sequence[Action] = ()
        self._start: frozenset[str] = frozenset()

    def begin(self, prefix: Sequence[Action] = ()) -> None:
        """Start a game: kinds taken so far are known (frozen once a failure was found)."""
        frozen = self.coverage.frozen
        self._start = frozen if frozen is not None else frozenset(self.coverage.kinds)
        self._known = set(self._start)
        self._prefix = prefix

    def freeze(self) -> None:
        """Keep the kinds known at the start of the current game for every later game."""
        if self.coverage.frozen is None:
            self.coverage.frozen = self._start

    def pick(self, actions: Sequence[Action], choose: Callable[[int], int], n: int,
             offset: int) -> Action:
        """Return the ``n``-th action of the game among ``actions`` (legal, in order)."""
        if n <= len(self._prefix):
            want = self._prefix[n - 1]
            if want in actions:
                return want
            self._prefix = ()  # the engine's reference went elsewhere: play on freely
        count = len(actions)
        known = self._known
        if len(known) < len(self.all_kinds):
            fresh = [a for a in actions if a.get("kind") not in known]
            if fresh and len(fresh) < count:
                action = fresh[(choose(len(fresh)) + offset) % len(fresh)]
                known.add(str(action.get("kind")))
                return action
        action = actions[(choose(count) + offset) % count]
        if len(known) < len(self.all_kinds):
            known.add(str(action.get("kind")))
        return action


def example_seeds(spec: Spec, config: Config, reference: Callable[[Spec, Config], Engine],
                  universe: Universe) -> list[list[Action]]:
    """Return the action sequences of the rule examples played under exactly ``config`` that
    reach a rare position on the reference: one of the spec's declared events, or the decision
    point the example witnesses (an example written to show how an ambiguity is ruled).

    Examples are picked greedily, each adding the most rare positions not yet picked (the
    first in the file among equals), at most ``MAX_SEEDS``.
    """
    from rulespec.examples.model import load_examples
    from rulespec.examples.run import run_example
    from rulespec.reference.core import ConfigError, config_from_json
    from rulespec.spec.errors import RulespecError

    try:
        file = load_examples(spec)
    except (RulespecError, OSError):
        return []
    want = config.to_json()
    candidates: list[tuple[set[str], list[Action]]] = []
    for example in file.examples:
        try:
            if config_from_json(spec, example.config_json(spec.game_id)).to_json() != want:
                continue
            outcome = run_example(spec, example, words_module=file.vocabulary)
        except (RulespecError, ConfigError):
            continue
        if not outcome.ok:
            continue
        actions = [m.action for m in [*outcome.setup, *outcome.steps] if m.kind == "apply"]
        rare, decisions = positions_along(spec, config, reference, universe, actions)
        witness = example.witness
        if witness is not None and decisions.get(witness.ambiguity):
            rare.add(witness.ambiguity)
        if rare:
            candidates.append((rare, actions))
    seeds: list[list[Action]] = []
    covered: set[str] = set()
    while candidates and len(seeds) < MAX_SEEDS:
        best = max(range(len(candidates)), key=lambda i: (len(candidates[i][0] - covered), -i))
        rare, actions = candidates.pop(best)
        if not rare - covered:
            break
        covered |= rare
        seeds.append(actions)
    return seeds


def positions_along(spec: Spec, config: Config, reference: Callable[[Spec, Config], Engine],
                    universe: Universe,
                    actions: Sequence[Action]) -> tuple[set[str], Mapping[str, int]]:
    """Return the declared events the reference shows playing ``actions`` from the start, and
    the decision points it reached."""
    engine = reference(spec, config)
    probe = Coverage(universe)
    cfg = config.to_json()
    params = dict(config.parameters)
    before: Mapping[str, Any] = engine.state()
    shown: set[str] = set()
    for action in actions:
        engine.apply(action)
        after = engine.state()
        shown.update(probe.step(before, action, after, params, cfg))
        before = after
    return shown, engine.decisions


#: In a guided search game, the share of choices that follow the spec's seek hint (the others are
#: uniform, so a hint that leads into a dead end is still left now and then).
FOLLOW_HINT = 0.9
#: The share of the search budget guided games may use while a hinted item is missing (the rest
#: is left to plain random games, for what has no hint).
GUIDED_SHARE = 0.75
#: How many actions ``seek`` plays between copies of its engine, kept to rebuild the state
#: before a game's last action (a copy costs about as much as this many actions).
CHECKPOINT_EVERY = 64


def seek(spec: Spec, config: Config, reference: Callable[[Spec, Config], Engine],
         coverage: Coverage, *, budget: int, max_steps: int, seed: int = 0) -> list[list[Action]]:
    """Search on the reference alone for games that reach what ``coverage`` lacks.

    Plays games of the reference (a fixed seed) for at most ``budget`` actions in all; returns
    each game that reached a decision point, event or action kind still missing (a game stops
    as soon as it has one), at most ``MAX_SEEDS``. The reference alone is far cheaper than a
    checked game, so the search can afford the many games a rare path needs; the kit then plays
    the games found with every check.

    Choices are uniform over the legal actions and chance outcomes, except in *guided* games:
    while an item with a seek hint (a ``coverage`` entry's ``seek``, a CEL expression over
    ``state`` and ``action``) is missing, and for at most ``GUIDED_SHARE`` of the budget, games
    pick at ``FOLLOW_HINT`` of their choices among the legal actions or outcomes the hints of
    the missing items hold for, when there are any (one hint per game, in turns). Chance is
    steered too: the game found is legal whatever its chance outcomes, and the engine under
    test replays them.
    """
    from rulespec.reference.core import CHANCE

    missing = coverage.missing()
    if not missing or budget <= 0:
        return []
    universe = coverage.universe
    event_ids = {e.ident for e in universe.events}
    cfg = config.to_json()
    params = dict(config.parameters)
    rng = random.Random(seed)
    found: list[list[Action]] = []
    used = 0
    games = 0
    probe = Coverage(universe)  # for the events due on each action kind
    while used < budget and missing and len(found) < MAX_SEEDS:
        hinted = [h for h in universe.hints if h.items & missing]
        # One hint per game, in turns: two hints may pull opposite ways.
        guide = ([hinted[games % len(hinted)]]
                 if hinted and used < budget * GUIDED_SHARE else [])
        games += 1
        engine = reference(spec, config)
        # The states are built only around an action after which a missing event can happen;
        # for an event only a game's last action can show (``Event.at_end``), only around that.
        events_missing = missing & event_ids
        due: dict[str, tuple[list[Event], frozenset[str] | None, bool]] = {}
        at_end: dict[str, tuple[list[Event], frozenset[str] | None, bool]] = {}
        actions: list[Action] = []
        hit: set[str] = set()
        # The engine as it was every CHECKPOINT_EVERY actions: a game's state before its last
        # action, for the events only that action can show, is rebuilt from the last one.
        checkpoint: tuple[int, Engine] | None = None
        ends = any(e.at_end and e.ident in events_missing for e in universe.events)
        while used < budget and len(actions) < max_steps and not hit:
            actor = engine.current_player()
            if actor is None:
                break
            if actor == CHANCE:  # the outcomes alone (the weights, if any, cost no fractions)
                weighted = engine.chance_weights()
                legal = (list(weighted[0]) if weighted is not None
                         else [a for a, _ in engine.chance_outcomes()])
            else:
                legal = engine.legal_actions()
            action = None
            if guide and len(legal) > 1 and rng.random() < FOLLOW_HINT:
                action = first_preferred(guide, engine.state(), rng.sample(legal, len(legal)),
                                         params, cfg)
            if action is None:
                action = legal[rng.randrange(len(legal))]
            kind = str(action.get("kind"))
            events = due.get(kind)
            if events is None:
                events, at_end[kind] = split_due(probe.due_on(kind, events_missing))
                due[kind] = events
            before = engine.state() if events[0] else None
            if ends and len(actions) % CHECKPOINT_EVERY == 0:
                checkpoint = (len(actions), engine.clone())
            engine.apply(action)
            actions.append(action)
            used += 1
            if before is not None:
                hit.update(shown(*events, before, action, engine.state(), params, cfg))
            if at_end[kind][0] and engine.is_terminal():
                if before is None:  # built again from the last checkpoint: once per game
                    before = replayed(spec, config, reference, actions[:-1],
                                      checkpoint).state()
                hit.update(shown(*at_end[kind], before, action, engine.state(), params, cfg))
            if kind in missing:
                hit.add(kind)
            if used % 16 == 0 or engine.current_player() is None:
                hit.update(a for a, n in engine.decisions.items() if n and a in missing)
        hit.update(a for a, n in engine.decisions.items() if n and a in missing)
        hit &= missing
        if hit:
            found.append(actions)
            missing -= hit
    return found


def split_due(events: Sequence[Event]
              ) -> tuple[tuple[list[Event], frozenset[str] | None, bool],
                         tuple[list[Event], frozenset[str] | None, bool]]:
    """Split events into those any step can show and those only a game's last step can
    (``Event.at_end``), each as ``shown``'s first three arguments."""
    return (due_events([e for e in events if not e.at_end]),
            due_events([e for e in events if e.at_end]))


def replayed(spec: Spec, config: Config, reference: Callable[[Spec, Config], Engine],
             actions: Sequence[Action],
             checkpoint: tuple[int, Engine] | None = None) -> Engine:
    """Return a reference that played ``actions``: a fresh one, or a clone of the
    ``checkpoint`` engine (which had played the first ``checkpoint[0]`` of them) playing on."""
    if checkpoint is not None and checkpoint[0] <= len(actions):
        done, engine = checkpoint[0], checkpoint[1].clone()
    else:
        done, engine = 0, reference(spec, config)
    for action in actions[done:]:
        engine.apply(action)
    return engine


def first_preferred(hints: Sequence[Hint], state: Mapping[str, Any], actions: Sequence[Action],
                    params: Mapping[str, Any], cfg: Mapping[str, Any]) -> Action | None:
    """Return the first of ``actions`` that one of the seek ``hints`` holds for, or None.

    Given the legal actions in a random order, this is a uniform choice among those the hints
    prefer, with fewer evaluations than testing them all. A hint that fails to evaluate on an
    action (a field the state lacks) does not hold.
    """
    from rulespec.spec.expressions import ExpressionError

    for action in actions:
        for hint in hints:
            variables = {"state": slim(state, hint.state), "action": dict(action),
                         "params": slim(params, hint.params), "config": slim(cfg, hint.config)}
            try:
                if hint.when.evaluate(variables) is True:
                    return action
            except ExpressionError:
                continue
    return None


def continuation(index: int) -> Callable[[int], int]:
    """Return the chooser that continues a seeded game (a fixed pseudo-random sequence)."""
    rng = random.Random(index)
    return rng.randrange


class Watch:
    """The kit's eye on play: per configuration, its coverage, and the steered chooser."""

    def __init__(self, spec: Spec, reference: Callable[[Spec, Config], Engine], *,
                 steer: bool = True) -> None:
        self.spec = spec
        self.reference = reference
        self.steer = steer
        self.universe = Universe(spec)
        self.by_config: dict[str, Coverage] = {}
        self.coverage = Coverage(self.universe)
        self.steering = Steering(self.coverage)
        self._config: Config | None = None
        self._cfg: dict[str, Any] = {}
        self._params: dict[str, Any] = {}

    def configure(self, config: Config) -> None:
        """Watch the games of ``config`` from now on (its coverage so far carries on)."""
        cfg = config.to_json()
        key = _key(cfg)
        if key not in self.by_config:
            self.by_config[key] = Coverage(self.universe)
        self.coverage = self.by_config[key]
        self.coverage.out = self.universe.out_of_scope(cfg, config.parameters)
        self.coverage.frozen = None  # a new stage, or the first: no failure being shrunk
        self.steering = Steering(self.coverage, steer=self.steer)
        self._config, self._cfg, self._params = config, cfg, dict(config.parameters)

    def play_seeds(self, play: Callable[[Sequence[Action], Callable[[int], int]], None]) -> None:
        """Play one game along each rule example that reaches a rare position (see module)."""
        if self._config is None or not self.steer:
            return
        seeds = example_seeds(self.spec, self._config, self.reference, self.universe)
        for i, prefix in enumerate(seeds):
            play(prefix, continuation(i))

    def step(self, before: Mapping[str, Any], action: Action, after: Mapping[str, Any]) -> None:
        """Record one step of the reference."""
        self.coverage.step(before, action, after, self._params, self._cfg)

    def game_over(self, engine: Engine) -> None:
        """Record the decision points the reference reached in the game just played."""
        self.coverage.game_over(engine.decisions)

    def seek(self, *, budget: int, max_steps: int) -> list[list[Action]]:
        """Return reference games that reach what the configuration lacks (see ``seek``)."""
        if self._config is None or not self.steer:
            return []
        return seek(self.spec, self._config, self.reference, self.coverage, budget=budget,
                    max_steps=max_steps)

    def attach(self, runs: Sequence[Any]) -> None:
        """Give each configuration's result its coverage summary."""
        for run in runs:
            coverage = self.by_config.get(_key(dict(run.config)))
            if coverage is not None and run.skipped is None:
                run.coverage = coverage.summary()


def _key(cfg: Mapping[str, Any]) -> str:
    import json

    return json.dumps(cfg, sort_keys=True)
