"""The statistics of paired games: rates with Wilson intervals, means with t intervals.

Every figure is an :class:`Interval` ``{value, low, high}``. Two kinds of interval are used:

- a *rate* (a fraction of games: how often a decision point is reached, how often the winners
  differ) gets the Wilson score interval, which stays inside [0, 1] and is sensible at 0 and 1
  (a rate of 0 out of 400 games reads "at most about 1%", not "exactly 0");
- a *mean* (of a per-game count, or of a paired difference option − baseline: game length,
  margin, a seat's win) gets Student's t interval on the per-pair values. Pairing removes the
  variance the two games share, which is what makes small effects visible.

No third-party statistics package is needed: the normal quantile comes from the standard
library, and the t quantile from the exact distribution up to 30 degrees of freedom and the
Cornish-Fisher expansion above (Abramowitz & Stegun 26.7.3-5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any


@dataclass(frozen=True)
class Interval:
    """A figure and its confidence interval."""

    value: float
    low: float
    high: float

    @property
    def width(self) -> float:
        """Return high − low."""
        return self.high - self.low

    def clip(self, low: float, high: float) -> Interval:
        """Return the interval cut to [low, high] (for a figure that cannot leave that range)."""
        return Interval(self.value, max(low, self.low), min(high, self.high))

    def to_json(self) -> dict[str, float]:
        """Return ``{value, low, high}``, each rounded to 4 significant digits."""
        value, low, high = sig4(self.value), sig4(self.low), sig4(self.high)
        # Rounding never reorders: keep low <= value <= high after it too.
        return {"value": value, "low": min(low, value), "high": max(high, value)}


def sig4(x: float) -> float:
    """Round ``x`` to 4 significant digits (and turn -0.0 into 0.0)."""
    if x == 0 or not math.isfinite(x):
        return 0.0
    digits = 3 - math.floor(math.log10(abs(x)))
    out = round(x, digits)
    return 0.0 if out == 0 else float(out)


def z_quantile(confidence: float) -> float:
    """Return the two-sided normal quantile for ``confidence`` (1.95996… for 0.95)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def t_within(t: float, df: int) -> float:
    """Return P(|T| < t) for Student's t with integer ``df`` (A&S 26.7.3-4, exact)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 1:
        if df == 1:
            return 2 * theta / math.pi
        term, total = 1.0, 1.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    term, total = 1.0, 1.0
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


def t_quantile(confidence: float, df: int) -> float:
    """Return the two-sided Student t quantile for ``confidence`` with ``df`` degrees of freedom.

    Up to 30 degrees of freedom: the exact distribution (A&S 26.7.3-4) solved by bisection.
    Above: the Cornish-Fisher expansion around the normal quantile (A&S 26.7.5), within 1e-4.
    """
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df <= 30:
        low, high = 0.0, 1000.0
        for _ in range(80):
            mid = (low + high) / 2
            if t_within(mid, df) < confidence:
                low = mid
            else:
                high = mid
        return (low + high) / 2
    p = 0.5 + confidence / 2
    z = NormalDist().inv_cdf(p)
    n = float(df)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / n + g2 / n**2 + g3 / n**3 + g4 / n**4


def wilson(successes: int, trials: int, confidence: float = 0.95) -> Interval:
    """Return the rate ``successes / trials`` with its Wilson score interval."""
    if trials <= 0:
        raise ValueError("a rate needs at least one trial")
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    z = z_quantile(confidence)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Interval:
    """Return the mean of ``values`` with its t interval (a point when there is one value)."""
    n = len(values)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(confidence, n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def interval_json(interval: Interval | None) -> dict[str, float] | None:
    """Return an interval's JSON form, or None for a figure that could not be measured."""
    return None if interval is None else interval.to_json()


def widest(figures: Any) -> float:
    """Return the widest interval (high − low) anywhere in a JSON figure tree (0 if none)."""
    if isinstance(figures, dict):
        if set(figures) == {"value", "low", "high"}:
            return float(figures["high"]) - float(figures["low"])
        return max((widest(v) for v in figures.values()), default=0.0)
    if isinstance(figures, list):
        return max((widest(v) for v in figures), default=0.0)
    return 0.0
