"""What a measurement could have seen: the detectable effect beside every verdict.

"No measurable effect at 400 games" says nothing of how small an effect 400 games could show.
Each seat win-rate change of a sweep is tested with a simultaneous interval (Bonferroni over
every seat interval of the sweep, ``rulespec.impact.sweep.finish``). For a change of true size
``d``, that interval excludes zero with probability ``power`` when

    |d| >= (z(1 - level / 2) + z(power)) * se

where ``level`` is the per-interval error rate of the correction and ``se`` the change's
standard error (from its 95% t interval, and never below what the games leave possible
where no pair of them differed). That bound, the *minimum detectable effect*, is
computed for every seat of every result; a record's detectable effect, per agent, is the
largest of its results' (the setting, option and seat where the games said least), so that
"no measurable effect" reads: a change of at least this size, at any setting and option
measured, would have been detected with this probability.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from statistics import NormalDist
from typing import Any

from rulespec.impact.measure import CONFIDENCE
from rulespec.impact.stats import sig4, t_quantile

#: The probability of detecting a change of the detectable size (the usual 80%).
POWER = 0.8


def interval_standard_error(iv: Mapping[str, float], games: int) -> float:
    """Return the standard error behind a 95% t interval of ``games`` paired games (0 for one)."""
    value = float(iv["value"])
    half = max(value - float(iv["low"]), float(iv["high"]) - value)
    return half / t_quantile(CONFIDENCE, games - 1) if games > 1 else 0.0


def seat_standard_error(iv: Mapping[str, float], games: int) -> float:
    """Return the standard error behind a seat's 95% t interval (uncorrected), never below
    what ``games`` paired games in which no pair differed leave possible.

    A paired game's change in a seat's win is -1, 0 or 1, so its variance is at most the
    share of pairs that differ. Where none of ``games`` pairs differed, the estimate is 0,
    but the share that differ may still be up to ``3 / games`` (the rule of three, 95%): the
    standard error is taken at that bound, ``sqrt(3) / games``, and not at 0.
    """
    if games <= 1:
        return 1.0
    return max(interval_standard_error(iv, games), math.sqrt(3) / games)


def detectable_change(result: Mapping[str, Any], level: float,
                      power: float = POWER) -> float | None:
    """Return the smallest seat win-rate change ``result`` detects with ``power`` at the
    per-interval error rate ``level`` (its least informative seat); None without seats."""
    seats = result.get("seat_win_rate_change") or []
    if not seats:
        return None
    normal = NormalDist()
    z = normal.inv_cdf(1 - level / 2) + normal.inv_cdf(power)
    games = int(result["games"])
    return min(1.0, max(z * seat_standard_error(iv, games) for iv in seats))


def detectable(record: Mapping[str, Any], level: float,
               power: float = POWER) -> dict[str, dict[str, Any]]:
    """Return, per agent, the record's detectable seat win-rate change: the largest over the
    results where its decision point was reached, with the games and setting it comes from."""
    out: dict[str, dict[str, Any]] = {}
    for m in record["measurements"]:
        for r in m["results"]:
            if float(r["trigger_rate"]["value"]) <= 0:
                continue
            size = detectable_change(r, level, power)
            if size is None:
                continue
            agent = str(r["agent"])
            if agent not in out or size > out[agent]["seat_win_rate_change"]:
                out[agent] = {"seat_win_rate_change": sig4(size), "power": power,
                              "games": int(r["games"]),
                              "setting": {"players": m["players"],
                                          "variants": list(m.get("variants", []))},
                              "option": r["option"]}
    return out


def with_detectable(data: dict[str, Any]) -> dict[str, Any]:
    """Return a sweep whose records' verdicts each carry ``detectable`` (computed from the
    sweep's own correction where a sweep written before 0.4 lacks it)."""
    level = float((data.get("correction") or {}).get("seat_level") or 0.05)
    for rec in data.get("records", {}).values():
        v = rec.get("verdict")
        if isinstance(v, dict) and "detectable" not in v and v.get("status") not in ("unreached", "unmeasured"):
            v["detectable"] = detectable(rec, level)
    return data


def detectable_text(verdict: Mapping[str, Any]) -> str:
    """Return ``a change of 16 pts (random) / 46 pts (greedy) would show, 80% of the time``,
    or "" when the verdict has none."""
    found = verdict.get("detectable") or {}
    if not found:
        return ""
    sizes = " / ".join(f"{100 * float(d['seat_win_rate_change']):.0f} pts ({agent})"
                       for agent, d in sorted(found.items()))
    power = max(float(d["power"]) for d in found.values())
    return (f"a seat win-rate change of {sizes} or more would have shown, "
            f"{100 * power:.0f}% of the time")
