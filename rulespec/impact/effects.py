"""Effects on the outcome distribution: a paired permutation test, Holm's correction, power.

The figure that says whether a ruling matters is not how often paired games' winners differ
(any ruling that reorders play reshuffles every later draw, so winners differ about as often as
two unrelated games' would), but whether the *distribution* of outcomes differs. Per pair of
games (baseline, option) with the same seed, the outcome vector holds, per seat, whether the
seat won and its final score; its change ``d_i`` (option − baseline) is tested with a
**paired sign-flip permutation test**. Under "the option does not change the outcome
distribution" the two games of a pair are exchangeable, so each ``d_i`` is as likely as
``-d_i``: the statistic

    T = sum over components k of (sum_i d_ik)^2 / sum_i d_ik^2

(a sum of squared studentised totals, so win indicators and scores weigh alike) is compared
with its values under random sign flips of whole pairs. Scores enter as mid-ranks of the pooled
2n games per seat (robust to each game's score scale; integers, so the flips are counted with
bit operations). The Monte Carlo p-value stops early once ``STOP_AFTER`` flips reach the
observed statistic (Besag & Clifford 1991, valid p = h / L), else after ``MAX_FLIPS`` draws with
p = (1 + exceedances) / (1 + draws). A relabelling (identical games) has every ``d_i = 0``:
nothing to test, p = 1.

Many tests in one sweep (every record × setting × option × agent) are corrected with **Holm's
step-down** procedure, which controls the family-wise error rate under any dependence between
the tests (they share baseline games, so their dependence is not the positive kind
Benjamini-Hochberg needs, and an editor reads "matters" as a claim about each record).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from rulespec.impact.stats import sig4

#: The test's name as reports give it.
TEST_METHOD = ("paired sign-flip permutation test (Monte Carlo): seat wins, seat score ranks, "
               "margin rank")
CORRECTION = "holm"
ALPHA = 0.05
#: Stop the Monte Carlo once this many flipped statistics reach the observed one.
STOP_AFTER = 25
#: At most this many sign flips (the smallest p-value is 1 / (MAX_FLIPS + 1)).
MAX_FLIPS = 20_000


@dataclass(frozen=True)
class TestResult:
    """A permutation test's outcome."""

    statistic: float
    p_value: float
    flips: int
    pairs: int  # pairs whose outcome vectors differ (the others carry no information)

    def to_json(self) -> dict[str, Any]:
        """Return the JSON form (4 significant digits)."""
        return {"method": TEST_METHOD, "statistic": sig4(self.statistic),
                "p_value": sig4(self.p_value), "flips": self.flips, "pairs": self.pairs}


def midranks(values: Sequence[float]) -> list[int]:
    """Return twice the mid-rank of each value (ties share their mean rank; integers)."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = i + j + 2  # 2 x mean of the 1-based ranks i+1 .. j+1
        i = j + 1
    return ranks


def outcome_differences(baseline: Sequence[Sequence[int]], option: Sequence[Sequence[int]],
                        baseline_scores: Sequence[Sequence[float] | None] | None = None,
                        option_scores: Sequence[Sequence[float] | None] | None = None,
                        margins: Sequence[tuple[float | None, float | None]] | None = None,
                        ) -> list[list[int]]:
    """Return per component (seat wins, seat score ranks, margin rank) the changes per pair.

    ``baseline[i]`` and ``option[i]`` are the winners of pair i (seat indices); scores are per
    seat, or None for a game without scores (a game cut short): such a pair's score change is 0;
    ``margins[i]`` is the (baseline, option) winning margin, likewise.
    """
    n = len(baseline)
    seats = 1 + max([s for w in (*baseline, *option) for s in w] + [0])
    if baseline_scores is not None and option_scores is not None:
        seats = max([seats] + [len(s) for s in (*baseline_scores, *option_scores) if s])
    comps: list[list[int]] = [[int(s in option[i]) - int(s in baseline[i]) for i in range(n)]
                              for s in range(seats)]
    if margins is not None:
        comps.append(_ranked_change([(b, o) for b, o in margins]))
    if baseline_scores is None or option_scores is None:
        return comps
    complete = [i for i in range(n) if baseline_scores[i] is not None
                and option_scores[i] is not None]
    for s in range(seats):
        pooled = [float(baseline_scores[i][s]) for i in complete]  # type: ignore[index]
        pooled += [float(option_scores[i][s]) for i in complete]  # type: ignore[index]
        ranks = midranks(pooled)
        change = [0] * n
        for j, i in enumerate(complete):
            change[i] = ranks[len(complete) + j] - ranks[j]
        comps.append(change)
    return comps


def _ranked_change(pairs: Sequence[tuple[float | None, float | None]]) -> list[int]:
    """Return per pair the change of mid-rank (pooled over both games; 0 when one is None)."""
    complete = [i for i, (b, o) in enumerate(pairs) if b is not None and o is not None]
    pooled = [float(pairs[i][0]) for i in complete]  # type: ignore[arg-type]
    pooled += [float(pairs[i][1]) for i in complete]  # type: ignore[arg-type]
    ranks = midranks(pooled)
    change = [0] * len(pairs)
    for j, i in enumerate(complete):
        change[i] = ranks[len(complete) + j] - ranks[j]
    return change


class _Component:
    """One component's changes as bit planes: sum over a flipped set in a few popcounts."""

    def __init__(self, values: Sequence[int]) -> None:
        self.total = sum(values)
        self.squares = sum(v * v for v in values)
        planes: list[tuple[int, int, int]] = []
        top = max((abs(v) for v in values), default=0).bit_length()
        for b in range(top):
            pos = neg = 0
            for i, v in enumerate(values):
                if abs(v) >> b & 1:
                    if v > 0:
                        pos |= 1 << i
                    else:
                        neg |= 1 << i
            planes.append((1 << b, pos, neg))
        self.planes = planes

    def flipped(self, mask: int) -> int:
        """Return sum_i eps_i d_i where eps_i = -1 for the pairs in ``mask``."""
        inside = sum(w * ((pos & mask).bit_count() - (neg & mask).bit_count())
                     for w, pos, neg in self.planes)
        return self.total - 2 * inside


def sign_flip_test(components: Sequence[Sequence[int]], seed: int = 0,
                   max_flips: int = MAX_FLIPS, stop_after: int = STOP_AFTER) -> TestResult:
    """Return the paired sign-flip permutation test of "no change" over ``components``."""
    if not components:
        return TestResult(0.0, 1.0, 0, 0)
    n = len(components[0])
    keep = [i for i in range(n) if any(c[i] for c in components)]
    parts = [_Component([c[i] for i in keep]) for c in components]
    parts = [p for p in parts if p.squares]
    if not parts:
        return TestResult(0.0, 1.0, 0, 0)

    def statistic(mask: int) -> float:
        return math.fsum(p.flipped(mask) ** 2 / p.squares for p in parts)

    observed = statistic(0)
    rng = random.Random(seed)
    bits = len(keep)
    hits = 0
    tolerance = 1e-9 * max(1.0, observed)
    for draw in range(1, max_flips + 1):
        if statistic(rng.getrandbits(bits)) >= observed - tolerance:
            hits += 1
            if hits >= stop_after:
                return TestResult(observed, hits / draw, draw, bits)
    return TestResult(observed, (1 + hits) / (1 + max_flips), max_flips, bits)


def holm(p_values: Sequence[float]) -> list[float]:
    """Return Holm's step-down adjusted p-values (same order as given)."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def games_needed(change: float, base_rate: float, *, alpha: float = ALPHA, power: float = 0.8,
                 tests: int = 1, paired_share: float = 0.0) -> int:
    """Return the paired games needed to detect a change of ``change`` in one seat's win rate.

    Two-sided, at level ``alpha / tests`` (Bonferroni, Holm's first step), with ``power``. The
    variance of a pair's change is ``2 p (1 - p) (1 - paired_share)``: 0 sharing for rulings
    that reshuffle play (the two games as good as independent), more for rulings whose paired
    games mostly agree.
    """
    if not 0 < change < 1:
        raise ValueError("a change of a win rate lies in (0, 1)")
    z = NormalDist().inv_cdf(1 - alpha / tests / 2) + NormalDist().inv_cdf(power)
    variance = 2 * base_rate * (1 - base_rate) * (1 - paired_share)
    return max(2, math.ceil(z * z * variance / (change * change)))


def power_table(changes: Iterable[float], players: Iterable[int], *, tests: int = 1,
                alpha: float = ALPHA, power: float = 0.8) -> list[dict[str, Any]]:
    """Return rows ``{players, change, games}``: games needed per seat count and change."""
    return [{"players": n, "change": c,
             "games": games_needed(c, 1 / n, alpha=alpha, power=power, tests=tests)}
            for n in players for c in changes]


def adjust(results: Iterable[Mapping[str, Any]]) -> int:
    """Set ``p_adjusted`` (Holm, over every result given) in each result; return the family."""
    tested = [r for r in results if r.get("distribution_test") is not None]
    adjusted = holm([float(r["distribution_test"]["p_value"]) for r in tested])
    for r, p in zip(tested, adjusted, strict=True):
        r["distribution_test"]["p_adjusted"] = sig4(p)
        r["distribution_test"]["family"] = len(tested)
    return len(tested)
