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
from rulespec.impact.effects import outcome_differences, sign_flip_test
from rulespec.impact.paired import BatchResult, BatchTask, GameSummary, run_batch
from rulespec.impact.stats import interval_json, mean_interval, sig4, wilson
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
    #: The variants every game is played with.
    variants: tuple[str, ...] = ()


def plan(spec: Spec, ambiguities: Sequence[str], agents: Sequence[str], players: int,
         variants: Sequence[str] = ()) -> Plan:
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
                make_config(spec, players=players, rulings={amb: oid}, variants=variants)
            except ConfigError as exc:
                skipped.append((amb, oid, str(exc)))
                continue
            options.append((amb, oid))
    return Plan(spec, players, tuple(agents), chosen, tuple(options), skipped, tuple(variants))


#: Bins of the score histograms.
SCORE_BINS = 12


def score_histogram(pairs: Sequence[tuple[GameSummary, GameSummary]]) -> dict[str, Any] | None:
    """Return every seat's final score binned, baseline and option on the same edges."""
    base = [x for b, _ in pairs if b.scores is not None for x in b.scores]
    opt = [x for _, o in pairs if o.scores is not None for x in o.scores]
    if not base or not opt:
        return None
    low, high = min(base + opt), max(base + opt)
    if high == low:
        high = low + 1
    width = (high - low) / SCORE_BINS
    edges = [low + k * width for k in range(SCORE_BINS + 1)]

    def counts(values: Sequence[float]) -> list[int]:
        out = [0] * SCORE_BINS
        for x in values:
            out[min(SCORE_BINS - 1, int((x - low) / width))] += 1
        return out

    return {"edges": [sig4(e) for e in edges], "baseline": counts(base), "option": counts(opt)}


def distribution_figures(pairs: Sequence[tuple[GameSummary, GameSummary]], players: int,
                         confidence: float = CONFIDENCE, test: bool = True) -> dict[str, Any]:
    """Return the effects on the outcome distribution (additive keys of a result).

    The reshuffle baseline pairs each baseline game with the next seed's baseline game: how
    often the winners of two unrelated games differ, the yardstick of the outcome-change rate.
    """
    n = len(pairs)
    base = [b for b, _ in pairs]
    reshuffled = sum(1 for i in range(n) if base[i].winners != base[(i + 1) % n].winners)
    firsts = [float((o.first in o.winners) - (b.first in b.winners)) for b, o in pairs
              if b.first is not None and o.first is not None]
    scored = [(b.scores, o.scores) for b, o in pairs if b.scores is not None
              and o.scores is not None and len(b.scores) == len(o.scores) == players]
    out: dict[str, Any] = {
        "reshuffle_outcome_change_rate": interval_json(wilson(reshuffled, n, confidence)
                                                       if n > 1 else None),
        "first_player_win_rate_change": interval_json(
            mean_interval(firsts, confidence).clip(-1.0, 1.0) if firsts else None),
        "seat_score_change": [interval_json(mean_interval([o[s] - b[s] for b, o in scored],
                                                          confidence))
                              for s in range(players)] if scored else None,
        "win_counts": {"baseline": [sum(s in b.winners for b, _ in pairs) for s in range(players)],
                       "option": [sum(s in o.winners for _, o in pairs) for s in range(players)]},
        "score_histogram": score_histogram(pairs),
        "distribution_test": None,
    }
    if test:
        comps = outcome_differences([b.winners for b in base], [o.winners for _, o in pairs],
                                    [b.scores for b in base], [o.scores for _, o in pairs],
                                    [(b.margin, o.margin) for b, o in pairs])
        out["distribution_test"] = sign_flip_test(comps).to_json()
    return out


def figures(pairs: Sequence[tuple[GameSummary, GameSummary]], amb_index: int, players: int,
            confidence: float = CONFIDENCE, test: bool = True) -> dict[str, Any]:
    """Return the figures of one option against the baseline from its paired games."""
    n = len(pairs)
    triggered = sum(1 for b, o in pairs if b.decisions[amb_index] or o.decisions[amb_index])
    # Reached where it matters: the decision point was reached and the pair's games differ
    # (their moves or final state), which with the same seeds only the ruling can cause.
    arose = sum(1 for b, o in pairs if (b.decisions[amb_index] or o.decisions[amb_index])
                and b.fingerprint != o.fingerprint)
    changed = sum(1 for b, o in pairs if b.winners != o.winners)
    margins = [(b.margin, o.margin) for b, o in pairs]
    margin = None
    if all(mb is not None and mo is not None for mb, mo in margins):
        margin = mean_interval([float(mo) - float(mb) for mb, mo in margins  # type: ignore[arg-type]
                                ], confidence)
    return {
        "games": n,
        "trigger_rate": interval_json(wilson(triggered, n, confidence)),
        "arises_rate": interval_json(wilson(arose, n, confidence)),
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
        **distribution_figures(pairs, players, confidence, test),
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

    def measured(self, on: str | None = None, *, tests: bool = True) -> dict[str, dict[str, Any]]:
        """Return the ``impact.measured`` object of every planned ambiguity.

        ``tests=False`` leaves the permutation tests out (the progress display's cheap look).
        """
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
                                    **figures(pairs, index, p.players, test=tests)})
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
            if p.variants:
                out[amb]["variants"] = list(p.variants)
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
        progress: Progress | None = None,
        until: Callable[[Tally], bool] | None = None,
        next_round: Callable[[Tally], int] | None = None,
        first_round: int = ROUND_BATCHES) -> Tally:
    """Play the planned games and return the tally.

    Without ``precision`` or ``until``: ``games`` paired games per option (rounded up to whole
    batches). With either: rounds of batches (the first of ``first_round``, then
    :data:`ROUND_BATCHES` or as many as ``next_round(tally)`` asks for after each round)
    until every rate interval is narrower than ``precision``, ``until(tally)`` says enough (it is asked once a round), or
    ``max_games`` per option are played. The batches are numbered in order whatever the
    rounds' sizes, so the games played depend on the seed and on the total only.
    """
    tally = Tally(plan_, seed, batch_size, {a: [] for a in plan_.agents})
    if not plan_.options:
        return tally
    next_batch = 0

    def play(batches: int) -> None:
        nonlocal next_batch
        tasks = [BatchTask(plan_.spec.game_id, plan_.players, agent, seed, b, batch_size,
                           plan_.ambiguities, plan_.options, plan_.variants)
                 for b in range(next_batch, next_batch + batches) for agent in plan_.agents]
        next_batch += batches
        futures = [executor.submit(run_batch, t) for t in tasks]
        for task, future in zip(tasks, futures, strict=True):
            tally.games[task.agent].extend(future.result())
            if progress is not None:
                progress(tally)

    if precision is None and until is None:
        play(max(1, -(-games // batch_size)))
        return tally
    batches = max(1, first_round)
    while True:
        play(batches)
        if tally.played() >= max_games:
            return tally
        if precision is not None and widest_rate(tally.measured("-", tests=False)) < precision:
            return tally
        if until is not None and until(tally):
            return tally
        if next_round is not None:
            batches = max(1, next_round(tally))
