"""A sweep that measures each record until its answer is precise, open records first.

The fixed sweep (``rulespec.impact.sweep``) gives every record the same games, whatever its
answer: 400 random games tell a settled record what it already knew and leave an open one able
to see only changes of 12-19 points. This design spends the budget where the question is open:

1. **Open first.** Records still in question (status reported, triaged or deferred) are
   measured first, at every setting where they are reached; the settled ones (ruled, rejected)
   after them, while the budget lasts, to a cheaper precision.
2. **To a precision, in looks.** Each (record group, setting, agent) plays rounds of batches;
   after each round (a *look*) the widest corrected half-width of its seat win-rate changes is
   compared with the target (:data:`TARGETS`: open records to ±2 points with random players
   and ±5 with the strongest agent; settled ones to ±5 and ±10). It stops at the target, after
   :data:`MAX_LOOKS` looks, or when the wall-clock budget is spent, and says which.
3. **Error rates kept over the looks.** Looking after every round and stopping when the
   interval is narrow enough would, with plain intervals, make them too narrow. The intervals
   are Bonferroni-corrected over every seat interval the sweep plans *and* every look it may
   take (``alpha / (2 k L)`` per side for ``k`` intervals and ``L`` looks): whatever look a
   measurement stops at, the family's error rate stays at most ``alpha``. The saved sweep
   declares the design (``design``), and ``finish`` corrects with the same ``k L``.

The games depend only on the seed (the same batches, in the same order, on local processes or
Dask); where the budget stops a measurement, its result depends on the machine's speed, and
the sweep says so (``stopped: budget``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from rulespec.impact.agents import AGENTS
from rulespec.impact.effects import ALPHA
from rulespec.impact.measure import ROUND_BATCHES, Tally, plan, run
from rulespec.impact.power import seat_standard_error
from rulespec.impact.sweep import Log, Probed, Setting, merge_tally
from rulespec.spec.model import Spec

#: Record statuses whose question is still open.
OPEN_STATUSES = ("reported", "triaged", "deferred")
#: The half-width each seat win-rate change is measured to: per group, for the random player
#: and for the strongest agent measured.
TARGETS: dict[str, dict[str, float]] = {"open": {"random": 0.02, "strongest": 0.05},
                                        "settled": {"random": 0.05, "strongest": 0.10}}
#: Looks (rounds of batches) a measurement may take at most.
MAX_LOOKS = 25
#: Batches of a measurement's first round, before its pace is known: two, one for each of two
#: workers, where a round of :data:`ROUND_BATCHES` could already overrun a short share.
FIRST_ROUND = 2


def is_open(spec: Spec, record: str) -> bool:
    """Return whether ``record``'s question is still open (its status)."""
    return str(spec.ambiguities[record].get("status")) in OPEN_STATUSES


def target(agent: str, agents: Sequence[str], group: str) -> float:
    """Return the half-width ``agent``'s results are measured to in ``group``: the strongest
    agent measured (the last of :data:`AGENTS` among ``agents``) gets the strongest target."""
    strongest = max(agents, key=AGENTS.index)
    return TARGETS[group]["strongest" if agent == strongest and agent != "random" else "random"]


def widest_half_width(measured: Mapping[str, Mapping[str, Any]], z: float) -> float:
    """Return the widest corrected half-width (``z`` standard errors) of the seat win-rate
    changes of every result whose decision point was reached (0 when there is none)."""
    # A seat's change is at most the share of pairs that differ; when none of n pairs differs
    # that share is below -ln(level)/n at the one-sided level (the rule of three at 95%), so
    # 20 identical pairs do not make a change "known to ±0".
    floor = -math.log(max(2 * (1 - NormalDist().cdf(z)), 1e-300))
    widest = 0.0
    for record in measured.values():
        for r in record["results"]:
            if float(r["trigger_rate"]["value"]) <= 0:
                continue
            n = int(r["games"])
            for iv in r["seat_win_rate_change"] or []:
                widest = max(widest, z * seat_standard_error(iv, n), floor / max(n, 1))
    return widest


def planned_intervals(spec: Spec, where: Mapping[str, Sequence[Setting]],
                      agents: Sequence[str]) -> int:
    """Return how many seat intervals a sweep of ``spec`` plans: one per seat, option other
    than the default, setting and agent."""
    total = 0
    for record, settings in where.items():
        options = len(spec.ambiguities[record].get("options") or []) - 1
        total += sum(s.players for s in settings) * max(options, 0) * len(agents)
    return total


def time_share(deadline: float, part: int, whole: int) -> float:
    """Return the deadline of ``part`` of ``whole`` measurements still to make: their share of
    the time left before ``deadline`` (``time.monotonic``)."""
    now = time.monotonic()
    return now + max(0.0, deadline - now) * part / max(whole, 1)


def measurements(spec: Spec, where: Mapping[str, Sequence[Setting]], agents: Sequence[str],
                 group: str) -> int:
    """Return how many measurements (a setting and an agent each) ``group`` of a game needs."""
    chosen = [ss for a, ss in where.items() if is_open(spec, a) == (group == "open")]
    return len({s for ss in chosen for s in ss}) * len(agents)


def keep_saved(probed: Probed, saved: Mapping[str, Any],
               measure: Collection[str]) -> dict[str, Any]:
    """Return the records a sweep of the records ``measure`` only starts from: each of those
    unmeasured, every other one as ``saved`` (a saved sweep of the game) measured it, marked
    ``kept`` with when, by which rulespec and with which seed (``--open-only``, ``--only``).

    The kept records' intervals are corrected again with the new ones (over every seat
    interval of both and every look the new ones may take): wider than when they were saved,
    never narrower, so the family's error rate stays at most ``alpha``. A record the saved
    sweep lacks cannot be kept: it must be measured."""
    spec = probed.spec
    fresh = probed.records()
    missing = sorted(a for a in fresh if a not in measure and a not in saved["records"])
    if missing:
        raise ValueError(f"the saved sweep of {spec.game_id} ({saved.get('measured_on')}) has no "
                         f"measurement of {', '.join(missing)}; a sweep of some records keeps "
                         f"the others as saved: measure those too (--only), or run rulespec "
                         f"impact {spec.game_id} --reached --sequential MINUTES --save")
    records: dict[str, Any] = {}
    for amb, rec in fresh.items():
        records[amb] = ({**rec, "precision": []} if amb in measure
                        else _kept(saved, amb, attempt=[]))
    return {"records": records}


def _kept(saved: Mapping[str, Any], amb: str, *,
          attempt: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Return ``saved``'s record ``amb`` marked ``kept`` (when, by which rulespec, with which
    seed it was measured, unless it was kept before), the precision entries of a superseded
    ``attempt`` listed after its own."""
    old = saved["records"][amb]
    kept = old.get("kept") or {key: saved.get(key)
                               for key in ("measured_on", "rulespec", "seed", "batch_size")}
    return {**old, "kept": kept,
            "precision": [*(old.get("precision") or []),
                          *({**p, "superseded": True} for p in attempt)]}


def restore_unplayed(data: dict[str, Any], saved: Mapping[str, Any],
                     replace: Collection[str] = ()) -> list[str]:
    """Give back, in ``data`` (a sweep of some records, :func:`keep_saved`), the saved
    measurement of every record that was to be measured but came out with fewer games than
    saved for some agent at some setting saved (a short budget on a busy machine: none at all,
    or 60 random pairs at 4 players where 400 were saved); return those records. Without this,
    a sweep of the open records could replace a record's figures with less precise ones, or with
    nothing. The precision entries of the attempt are listed beside the saved figures. The
    records of ``replace`` (named with ``--only``: measure again) are restored only where no
    game was played at all."""
    restored = []
    for amb, rec in data["records"].items():
        old = saved["records"].get(amb)
        if old is None or rec.get("kept") or not old.get("measurements"):
            continue
        new_games, old_games = _games_by(rec), _games_by(old)
        if amb in replace and new_games:
            continue
        if all(new_games.get(key, 0) >= n for key, n in old_games.items()):
            continue
        data["records"][amb] = _kept(saved, amb, attempt=rec.get("precision") or [])
        restored.append(amb)
    return restored


def _games_by(record: Mapping[str, Any]) -> dict[tuple[int, str, str], int]:
    """Return the fewest paired games of a record's results per setting and agent."""
    out: dict[tuple[int, str, str], int] = {}
    for m in record.get("measurements") or []:
        for r in m["results"]:
            key = (int(m["players"]), ",".join(m.get("variants") or []), str(r["agent"]))
            out[key] = min(out.get(key, int(r["games"])), int(r["games"]))
    return out


def open_records(spec: Spec) -> set[str]:
    """Return the records of ``spec`` whose question is open (``--open-only``)."""
    return {a for a in spec.ambiguities if is_open(spec, a)}


def sequential_sweep(probed: Probed, *, seed: int, batch_size: int, executor: Any,
                     deadline: float, intervals: int | None = None,
                     max_looks: int = MAX_LOOKS, log: Log | None = None,
                     groups: Sequence[str] = ("open", "settled"),
                     into: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Measure the open records, then the settled ones, each to its target or until
    ``deadline`` (``time.monotonic``); return the game's sweep data. ``intervals`` is the
    number of seat intervals of the whole sweep (every game probed), for the correction;
    default: this game's.

    ``groups`` measures only those groups, adding to the records of ``into`` (an earlier
    call's data) if given: a sweep of several games measures every game's open records before
    any settled one (``rulespec impact --reached --sequential``), and the data is the same as
    one call's, since every measurement's seeds come from the master seed alone."""
    spec, used, where = probed.spec, probed.agents, probed.where
    k = intervals or planned_intervals(spec, where, used)
    level = ALPHA / (max(k, 1) * max_looks)
    z = NormalDist().inv_cdf(1 - level / 2)
    records = (dict(into["records"]) if into is not None else
               {amb: {**rec, "precision": []} for amb, rec in probed.records().items()})
    for group in groups:
        chosen = {a: ss for a, ss in where.items() if is_open(spec, a) == (group == "open")}
        left = measurements(spec, where, used, group)
        for setting in sorted({s for ss in chosen.values() for s in ss}):
            here = [a for a, ss in chosen.items() if setting in ss]
            for agent in used:
                aim = target(agent, used, group)
                # Each measurement still to make gets an equal share of the time left, so one
                # slow game cannot take the whole budget from the records after it; time a
                # measurement does not need (it reached its target) goes to the next ones.
                share = time_share(deadline, 1, left)
                left -= 1
                tally, stop = _to_precision(spec, here, agent, setting, seed=seed,
                                            batch_size=batch_size, executor=executor,
                                            aim=aim, z=z, deadline=min(deadline, share),
                                            max_looks=max_looks)
                if tally is not None:
                    merge_tally(records, tally, setting)
                for amb in here:
                    records[amb]["precision"].append({**setting.to_json(), "agent": agent,
                                                      "group": group, **stop})
                if log:
                    log(f"{spec.game_id} {group} {setting.label()} {agent}: {len(here)} "
                        f"records, ±{100 * stop['half_width']:.1f} pts after {stop['games']} "
                        f"games ({stop['stopped']}; target ±{100 * aim:.0f})")
    return {**probed.data(records, seed=seed, batch_size=batch_size),
            "design": {"method": "group sequential: rounds of batches to a target half-width, "
                                 "Bonferroni over every planned seat interval and every look",
                       "looks": max_looks, "intervals": k, "targets": TARGETS,
                       "open_statuses": list(OPEN_STATUSES)}}


@dataclass
class _Looks:
    """The stopping rule of one measurement, asked after every round (a look)."""

    aim: float
    z: float
    deadline: float
    max_looks: int
    looks: int = 0
    half_width: float = 1.0
    stopped: str = "looks"
    #: When the measurement began (``time.monotonic``): rounds are then sized to the time left.
    started: float | None = None

    def enough(self, tally: Tally) -> bool:
        self.looks += 1
        self.half_width = widest_half_width(tally.measured("-", tests=False), self.z)
        if self.half_width <= self.aim:
            self.stopped = "precision"
        elif time.monotonic() > self.deadline:
            self.stopped = "budget"
        elif self.looks >= self.max_looks:
            self.stopped = "looks"
        else:
            return False
        return True

    def next_round(self, played: int, batch_size: int) -> int:
        """Return the batches of the next round: enough to reach the aim if the spread stays
        as measured (the half-width shrinks as one over the root of the games), at least
        :data:`ROUND_BATCHES` and at most as many games again as played so far, so that one
        noisy early look cannot overshoot. Fixed rounds of 200 games capped a measurement at
        25 looks, 5,000 games: ±2.9 points where ±2 was asked (Dado de Ouro, 4 players).

        Once the measurement's pace is known (``started``), a round is also cut to the
        batches that fit in the time left at that pace (at least one): a round of greedy Fool
        games had run twenty minutes past an 80-second share, taking the time of the
        measurements after it."""
        if played <= 0 or self.half_width <= self.aim:
            want = ROUND_BATCHES
        else:
            needed = played * (self.half_width / self.aim) ** 2
            more = min(needed - played, played)
            want = max(ROUND_BATCHES, math.ceil(more / batch_size))
        if self.started is None or played <= 0:
            return want
        now = time.monotonic()
        per_batch = (now - self.started) / (played / batch_size)
        fit = int((self.deadline - now) / per_batch) if per_batch > 0 else want
        return max(1, min(want, fit))

    def to_json(self, games: int) -> dict[str, Any]:
        return {"target": self.aim, "half_width": round(self.half_width, 6),
                "stopped": self.stopped, "looks": self.looks, "games": games}


def _to_precision(spec: Spec, records: Sequence[str], agent: str, setting: Setting, *,
                  seed: int, batch_size: int, executor: Any, aim: float, z: float,
                  deadline: float, max_looks: int) -> tuple[Tally | None, dict[str, Any]]:
    """Measure ``records`` at one setting with one agent, look after look, until the aim."""
    the_plan = plan(spec, records, [agent], setting.players, setting.variants)
    looks = _Looks(aim, z, deadline, max_looks, started=time.monotonic())
    if not the_plan.options:
        looks.stopped, looks.half_width = "no option", 0.0
        return None, looks.to_json(0)
    if time.monotonic() > deadline:
        looks.stopped = "budget"
        return None, looks.to_json(0)
    tally = run(the_plan, seed=seed, games=0, batch_size=batch_size, executor=executor,
                until=looks.enough, max_games=10**9, first_round=FIRST_ROUND,
                next_round=lambda t: looks.next_round(t.played(), batch_size))
    return tally, looks.to_json(tally.played())
