"""What the verify tests share: small configurations, Pig from the source tree, a planted bug,
and an independent breadth-first search to check the explorer's shortest paths against."""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from rulespec.games.ruby_rhino import RubyRhino
from rulespec.reference.core import CHANCE, Engine, make_config
from rulespec.reference.registry import new_game
from rulespec.spec.invariants import Invariants
from tests.bridges.support import pig

#: What differs between two runs of the same search: the clock, and the memory of this process
#: and of the workers (none without them).
TIMING = frozenset({"seconds", "cpu_seconds", "peak_rss", "workers_rss", "states_per_second",
                    "states_per_cpu_second"})
#: Pig with a two-faced die (1 busts, 2 adds) and a target of 3: 25 states once turn counts are
#: forgotten. Every number comes from the configuration, none from the rulebook.
PIG_COIN = {"target_score": 3, "die": [{"face": 1, "effect": "bust"}, {"face": 2, "effect": "add"}]}
#: Ruby Rhino with three coins, one each and one in the chest, the first round scoring ends it.
RHINO_TINY = {"target_score": 1, "total_coins": 3, "coins_per_player": 1}
RHINO_HISTORY = ("history", "round", "result.rounds")
#: The record of rounds forgotten and summarised (as published): every invariant is decided.
RHINO_SUMMARY = (
    "history", "result.rounds", "relative(round)",
    "keep(size(state.history) - state.round)",
    "keep(state.history.all(h, h.coins_at_end[h.winner] == 0 && size(h.coins_at_end) == "
    "config.players && sum(h.coins_at_end) + h.reward == params.total_coins))",
    "keep(sum(state.history.map(h, h.points)))",
    "keep(state.history.all(h, state.scores[h.winner] >= h.points))",
    "keep(state.history[size(state.history) - 1].points)",
    "keep(state.history[size(state.history) - 1].winner)",
)


#: Pig under PIG-AMB-01 on-hold made finite, as published: the turn total, the rolls and the
#: scores kept up to the target, what the invariants read of them kept over states and moves.
PIG_ON_HOLD = (
    "relative(turns)", "cap(turn_total, params.target_score)", "cap(rolls, 1)",
    "cap(scores, params.target_score)", "cap(result.scores, params.target_score)",
    "keep(state.scores[state.turn] + state.turn_total < params.target_score)",
    "keep(max_of(state.scores) >= params.target_score)",
    "keep(state.result.winners.all(w, state.scores[w] == max_of(state.scores)))",
    "keep(state.result.scores == state.scores)",
    "keep(state.scores == prev.scores)",
    "keep(state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total)",
    "keep(sum(state.scores) == sum(prev.scores) + prev.turn_total)",
    "keep(state.turn_total == prev.turn_total + action.face)",
    "keep(state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total + action.face)",
    "keep(state.scores[prev.turn] >= params.target_score)",
    "keep(sum(state.scores) == sum(prev.scores) + prev.turn_total + action.face)",
)


def pig_engine(rulings: dict[str, str] | None = None, **parameters: Any) -> Engine:
    """Return a fresh Pig engine (imported from examples/pig, not from the registry)."""
    spec, engine_type = pig()
    config = make_config(spec, players=2, rulings=rulings or {"PIG-AMB-01": "at-once"},
                         parameters={**PIG_COIN, **parameters})
    return engine_type(spec, config)


def greedy_hold_engine(threshold: int) -> Engine:
    """Return Pig under on-hold with a planted bug: a hold from a turn total of ``threshold`` or
    more banks one point more than the turn total (PIG-INV-SCORES breaks), a turn total that
    only a player rolling on past the target of 3 reaches."""
    spec, engine_type = pig()

    class GreedyHold(engine_type):  # type: ignore[valid-type,misc]
        def _apply(self, action: Any) -> None:
            if action["kind"] == "hold" and self._turn_total >= threshold:
                self._turn_total += 1
            super()._apply(action)

    config = make_config(spec, players=2, rulings={"PIG-AMB-01": "on-hold"}, parameters=PIG_COIN)
    return GreedyHold(spec, config)


def tie_engine(winners: list[int], ranking: list[list[int]]) -> Engine:
    """Return the coin-die Pig under at-once and equal-turns with a planted bug: a shared win
    finished after an even number of seat 0's turns is reported with these ``winners`` and
    ``ranking`` instead. The turn counts, which ``relative(turns)`` keeps only as differences,
    then decide the result."""
    spec, engine_type = pig()

    class TieByParity(engine_type):  # type: ignore[valid-type,misc]
        def _finish(self) -> None:
            super()._finish()
            result: dict[str, Any] = self._result  # type: ignore[has-type]
            if len(result["winners"]) > 1 and self._turns[0] % 2 == 0:
                self._result = {**result, "winners": winners, "ranking": ranking}

    config = make_config(spec, players=2, parameters=PIG_COIN,
                         rulings={"PIG-AMB-01": "at-once", "PIG-AMB-02": "equal-turns"})
    return TieByParity(spec, config)


def rhino_engine(**parameters: Any) -> Engine:
    """Return a fresh tiny Ruby Rhino game."""
    return new_game("ruby-rhino", players=2, parameters={**RHINO_TINY, **parameters})


class PlantedRhino(RubyRhino):
    """Ruby Rhino with one planted bug: a coin vanishes from the chest at the end of a round
    won while the chest holds exactly one coin and the loser holds two: the round's record no
    longer adds up to every coin (RR-INV-ROUND-WINNER breaks)."""

    def _end_round(self, winner: int, *args: Any, **kwargs: Any) -> None:
        if self._chest == 1 and self._coins[1 - winner] == 2:
            self._chest = 0
        super()._end_round(winner, *args, **kwargs)


class DeepLogRhino(RubyRhino):
    """Ruby Rhino with a bug that only a long record reaches: from the third round on, a
    round's record claims one coin more of reward than the chest held (RR-INV-ROUND-WINNER
    breaks). The engine reads the record it should only write, which a view forgetting the
    record assumes it never does."""

    def _end_round(self, winner: int, *args: Any, **kwargs: Any) -> None:
        super()._end_round(winner, *args, **kwargs)
        if len(self._history) >= 3:
            self._history[-1] = {**self._history[-1], "reward": self._history[-1]["reward"] + 1}


def deep_log_engine() -> Engine:
    """Return a fresh tiny game on the deep-log engine."""
    base = rhino_engine()
    return DeepLogRhino(base.spec, base.config)


def planted_engine() -> Engine:
    """Return a fresh tiny game on the planted engine."""
    base = rhino_engine()
    return PlantedRhino(base.spec, base.config)


def moves(engine: Engine) -> list[Any]:
    """Return the engine's moves: chance outcomes or legal actions."""
    if engine.current_player() == CHANCE:
        return [a for a, _ in engine.chance_outcomes()]
    return engine.legal_actions()


def first_violation_distance(engine: Engine, limit: int) -> int | None:
    """Return the fewest actions after which some invariant fails (None within ``limit``).

    A plain BFS over canonical states with the spec's own invariant checker, written apart
    from ``rulespec.verify`` so that the explorer's shortest paths can be checked against it.
    """
    invariants = Invariants(engine.spec)
    params, config = dict(engine.config.parameters), engine.config.to_json()

    def key(e: Engine) -> str:
        return json.dumps(e.state(), sort_keys=True)

    seen = {key(engine)}
    queue: deque[tuple[Engine, int]] = deque([(engine.clone(), 0)])
    while queue:
        node, depth = queue.popleft()
        if depth >= limit:
            continue
        before = node.state()
        for action in moves(node):
            child = node.clone()
            child.apply(action)
            if invariants.check(child.state(), prev=before, action=action, params=params,
                                config=config):
                return depth + 1
            k = key(child)
            if k not in seen:
                seen.add(k)
                queue.append((child, depth + 1))
    return None

