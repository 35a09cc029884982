"""The impact lab's statistics against known values: Wilson rates, t quantiles, t intervals."""

from __future__ import annotations

import math

import pytest

from rulespec.impact.stats import Interval, mean_interval, sig4, t_quantile, wilson, z_quantile


def test_z_quantile() -> None:
    assert z_quantile(0.95) == pytest.approx(1.959964, abs=1e-6)


@pytest.mark.parametrize(("df", "exact"), [
    # Student t, two-sided 95%: the printed tables' values.
    (1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281), (30, 2.0423),
    (100, 1.9840),
])
def test_t_quantile_matches_tables(df: int, exact: float) -> None:
    assert t_quantile(0.95, df) == pytest.approx(exact, abs=1e-4)


def test_wilson_known_values() -> None:
    """Wilson score intervals at z = 1.96 (e.g. Newcombe 1998, and 0 of 100 gives about 3.7%)."""
    half = wilson(50, 100)
    assert (round(half.low, 4), round(half.high, 4)) == (0.4038, 0.5962)
    none = wilson(0, 100)
    assert none.value == 0 and none.low == 0 and round(none.high, 4) == 0.0370
    every = wilson(10, 10)
    assert every.high == 1 and round(every.low, 4) == 0.7225
    # Newcombe's example: 81 of 263.
    ex = wilson(81, 263)
    assert (round(ex.low, 4), round(ex.high, 4)) == (0.2553, 0.3662)


def test_wilson_refuses_nonsense() -> None:
    with pytest.raises(ValueError, match="at least one trial"):
        wilson(0, 0)
    with pytest.raises(ValueError, match="successes"):
        wilson(5, 4)


def test_mean_interval_known_value() -> None:
    """Mean of 1..5 is 3, s = 1.5811, t(4) = 2.7764: half-width 1.9632."""
    iv = mean_interval([1, 2, 3, 4, 5])
    assert iv.value == 3
    assert iv.high - 3 == pytest.approx(2.7764 * math.sqrt(2.5 / 5), abs=2e-3)
    assert iv.high - 3 == pytest.approx(3 - iv.low)


def test_mean_interval_of_identical_pairs_is_a_point() -> None:
    """Paired differences that are all zero: no change, and no uncertainty about it."""
    assert mean_interval([0.0] * 50) == Interval(0.0, 0.0, 0.0)
    assert mean_interval([2.5]) == Interval(2.5, 2.5, 2.5)


def test_rounding_to_four_significant_digits() -> None:
    assert sig4(0.123456) == 0.1235
    assert sig4(1234.56) == 1235.0
    assert sig4(-0.000012345) == -0.00001234 or sig4(-0.000012345) == -0.00001235
    assert sig4(0.0) == 0.0 and math.copysign(1, sig4(-1e-30 * 0)) == 1
    # Rounding keeps low <= value <= high.
    out = Interval(0.12344, 0.12344, 0.12346).to_json()
    assert out["low"] <= out["value"] <= out["high"]
