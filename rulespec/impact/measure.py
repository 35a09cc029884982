"""Measure the impact of ambiguity options: plan batches, run them, turn games into figures.

Work is split into seeded batches (:class:`rulespec.impact.paired.BatchTask`) and run through a
``concurrent.futures`` executor (``rulespec.executors``): the calling process (``jobs=1``), local
processes, or a Dask distributed cluster (whose client offers the same ``submit``/``result``
interface). Results are
combined in batch order, and a batch's games depend only on its seed, so the figures are
byte-identical for the same master seed whatever the executor and the number of jobs. The
sequential mode (``precision``) plays rounds of a fixed number of batches, never a number that
depends on the jobs, for the same reason.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.data import installed_version
from rulespec.impact.agents import SEARCHING, describe_agent
from rulespec.impact.paired import BatchResult, BatchTask, GameSummary, run_batch
from rulespec.impact.stats import interval_json, mean_interval, wilson
from rulespec.reference.core import ConfigError, make_config
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

FORMAT = "rulespec-impact/1"
CONFIDENCE = 0.95
#: Batches per round of the sequential mode (fixed, so the stopping point never depends on jobs).
ROUND_BATCHES = 4
#: The figures ``precision`` applies to: rates, whose widths are comparable across games.
RATE_FIGURES = ("trigger_rate", "outcome_change_rate", "seat_win_rate_change")


class ImpactError(RulespecError):
    """A request that cannot be measured (unknown ambiguity, no option to compare)."""


def default_players(spec: Spec) -> int:
    """Return the seat count measured by default: 4, or the nearest count the game allows."""
    return min(max(4, spec.min_players), spec.max_players)


@dataclass
class Plan:
    """What to measure for one game: its ambiguities, their options, the agents."""

    spec: Spec
    players: int
    agents: tuple[str, ...]
    ambiguities: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    #: (ambiguity, option, reason) for options that cannot be played at this player count.
    skipped: list[tuple[str, str, str]] = field(default_factory=list)


def plan(spec: Spec, ambiguities: Sequence[str], agents: Sequence[str], players: int) -> Plan:
    """Check the request and list every (ambiguity, option) paired against the default."""
    known = spec.ambiguities
    for amb in ambiguities:
        if amb not in known:
            raise ImpactError(f"unknown ambiguity {amb!r} for {spec.game_id}; known: "
                              f"{', '.join(sorted(known))}")
    chosen = tuple(ambiguities) or tuple(known)
    options: list[tuple[str, str]] = []
    skipped: list[tuple[str, str, str]] = []
    for amb in chosen:
        default = str(known[amb]["default"]["option"])
        for opt in known[amb]["options"]:
            oid = str(opt["id"])
            if oid == default:
                continue
            try:
                make_config(spec, players=players, rulings={amb: oid})
            except ConfigError as exc:
                skipped.append((amb, oid, str(exc)))
                continue
            options.append((amb, oid))
    return Plan(spec, players, tuple(agents), chosen, tuple(options), skipped)


def figures(pairs: Sequence[tuple[GameSummary, GameSummary]], amb_index: int, players: int,
            confidence: float = CONFIDENCE) -> dict[str, Any]:
    """Return the figures of one option against the baseline from its paired games."""
    n = len(pairs)
    triggered = sum(1 for b, o in pairs if b.decisions[amb_index] or o.decisions[amb_index])
    changed = sum(1 for b, o in pairs if b.winners != o.winners)
    margins = [(b.margin, o.margin) for b, o in pairs]
    margin = None
    if all(mb is not None and mo is not None for mb, mo in margins):
        margin = mean_interval([float(mo) - float(mb) for mb, mo in margins  # type: ignore[arg-type]
                                ], confidence)
    return {
        "games": n,
        "trigger_rate": interval_json(wilson(triggered, n, confidence)),
        "triggers_per_game": interval_json(
            mean_interval([float(o.decisions[amb_index]) for _, o in pairs], confidence)),
        "outcome_change_rate": interval_json(wilson(changed, n, confidence)),
        "length_change": interval_json(
            mean_interval([float(o.length - b.length) for b, o in pairs], confidence)),
        "margin_change": interval_json(margin),
        # A difference of two win rates lies in [-1, 1]: the interval is clipped to it.
        "seat_win_rate_change": [
            interval_json(mean_interval([float((s in o.winners) - (s in b.winners))
                                         for b, o in pairs], confidence).clip(-1.0, 1.0))
            for s in range(players)],
    }


@dataclass
class Tally:
    """The games played so far, per agent, in batch order."""

    plan: Plan
    seed: int
    batch_size: int
    games: dict[str, BatchResult] = field(default_factory=dict)

    def played(self) -> int:
        """Return the paired games played per option (the same for every agent)."""
        return min((len(v) for v in self.games.values()), default=0)

    def measured(self, on: str | None = None) -> dict[str, dict[str, Any]]:
        """Return the ``impact.measured`` object of every planned ambiguity."""
        p = self.plan
        defaults = {a: str(p.spec.ambiguities[a]["default"]["option"]) for a in p.ambiguities}
        agents = [describe_agent(a, p.spec) for a in p.agents]
        out: dict[str, dict[str, Any]] = {}
        for amb in p.ambiguities:
            index = p.ambiguities.index(amb)
            results = []
            for k, (a, option) in enumerate(p.options):
                if a != amb:
                    continue
                for agent in p.agents:
                    pairs = [(row[0], row[1 + k]) for row in self.games.get(agent, [])]
                    if not pairs:
                        continue
                    results.append({"option": option, "agent": agent,
                                    **figures(pairs, index, p.players)})
            out[amb] = {
                "format": FORMAT,
                "rulespec": installed_version(),
                "measured_on": on or dt.datetime.now(dt.UTC).date().isoformat(),
                "players": p.players,
                "baseline": defaults[amb],
                "confidence": CONFIDENCE,
                "seed": self.seed,
                "batch_size": self.batch_size,
                "agents": agents,
                "results": results,
            }
        return out

    def search(self) -> dict[str, dict[str, Any]]:
        """Return :func:`search_figures` of every agent that searches (the MCTS player)."""
        return {a: search_figures(self.games.get(a, [])) for a in self.plan.agents
                if a in SEARCHING}


def search_figures(games: BatchResult, confidence: float = CONFIDENCE) -> dict[str, Any]:
    """Return how an agent's searches went over ``games``: searched decisions, fallbacks.

    A fallback is a decision the MCTS player took greedily because it found no world
    consistent with its view to search (``rulespec.impact.agents.determinise``).
    """
    searches = sum(g.searches for row in games for g in row)
    fallbacks = sum(g.fallbacks for row in games for g in row)
    return {"games": sum(len(row) for row in games), "searches": searches,
            "fallbacks": fallbacks,
            "fallback_rate": interval_json(wilson(fallbacks, searches, confidence)
                                           if searches else None)}


def widest_rate(measured: Mapping[str, Mapping[str, Any]]) -> float:
    """Return the widest interval among the rate figures of every result (0 when none)."""
    widest = 0.0
    for record in measured.values():
        for result in record["results"]:
            for name in RATE_FIGURES:
                value = result[name]
                for iv in value if isinstance(value, list) else [value]:
                    if iv is not None:
                        widest = max(widest, float(iv["high"]) - float(iv["low"]))
    return widest


#: Called after every batch with the tally so far.
Progress = Callable[[Tally], None]


def run(plan_: Plan, *, seed: int, games: int, batch_size: int, executor: Any,
        precision: float | None = None, max_games: int = 4000,
        progress: Progress | None = None) -> Tally:
    """Play the planned games and return the tally.

    Without ``precision``: ``games`` paired games per option (rounded up to whole batches).
    With it: rounds of :data:`ROUND_BATCHES` batches until every rate interval is narrower than
    ``precision``, or ``max_games`` per option are played.
    """
    tally = Tally(plan_, seed, batch_size, {a: [] for a in plan_.agents})
    if not plan_.options:
        return tally
    next_batch = 0

    def play(batches: int) -> None:
        nonlocal next_batch
        tasks = [BatchTask(plan_.spec.game_id, plan_.players, agent, seed, b, batch_size,
                           plan_.ambiguities, plan_.options)
                 for b in range(next_batch, next_batch + batches) for agent in plan_.agents]
        next_batch += batches
        futures = [executor.submit(run_batch, t) for t in tasks]
        for task, future in zip(tasks, futures, strict=True):
            tally.games[task.agent].extend(future.result())
            if progress is not None:
                progress(tally)

    if precision is None:
        play(max(1, -(-games // batch_size)))
        return tally
    while True:
        play(ROUND_BATCHES)
        if tally.played() >= max_games or widest_rate(tally.measured("-")) < precision:
            return tally
