"""Structured impact (``rulespec-impact/1``): what JSON Schema cannot check, and accessors.

An ambiguity record's ``impact.measured`` is either a free-form object (older measurements)
or, when it carries ``format: rulespec-impact/1``, the figures of paired games of each option
against the record's default, per agent, each with a confidence interval. The schema checks
the shape; :func:`impact_problems` checks the rest (intervals ordered, options and agents known,
one result per option and agent). The validator adds the file positions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rulespec.spec.loader import JsonPath

#: The value of ``format`` that marks a structured measurement.
IMPACT_FORMAT = "rulespec-impact/1"
#: The figures of one result that are ``{value, low, high}`` intervals (or null), in the order
#: the format lists them.
FIGURES = ("trigger_rate", "triggers_per_game", "outcome_change_rate", "length_change",
           "margin_change")

Found = Iterator[tuple[JsonPath, str]]


def structured_impact(record: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Return the record's ``rulespec-impact/1`` measurement, or None if it has none."""
    impact = record.get("impact")
    measured = impact.get("measured") if isinstance(impact, Mapping) else None
    if isinstance(measured, Mapping) and measured.get("format") == IMPACT_FORMAT:
        return measured
    return None


def top_outcome_change(measured: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Return the result with the highest outcome-change rate (first one on a tie), or None."""
    best: Mapping[str, Any] | None = None
    for result in measured.get("results", []):
        rate = result.get("outcome_change_rate")
        if rate is None:
            continue
        if best is None or rate["value"] > best["outcome_change_rate"]["value"]:
            best = result
    return best


def impact_problems(ambiguities: Sequence[Any], players: tuple[int, int]) -> list[tuple[JsonPath, str]]:
    """Check every structured measurement of the register (the schema checked its shape)."""
    out: list[tuple[JsonPath, str]] = []
    for i, amb in enumerate(ambiguities):
        if not isinstance(amb, Mapping):
            continue
        measured = structured_impact(amb)
        if measured is None:
            continue
        path: JsonPath = ("ambiguities", i, "impact", "measured")
        for rule in (_baseline_and_players, _agents, _results, _intervals):
            try:
                out.extend(rule(amb, measured, path, players))
            except (KeyError, TypeError, AttributeError):
                continue  # the schema reported the malformed part
    return out


def _baseline_and_players(amb: Mapping[str, Any], measured: Mapping[str, Any], path: JsonPath,
                          players: tuple[int, int]) -> Found:
    default = amb["default"]["option"]
    if measured["baseline"] != default:
        yield (*path, "baseline"), (f"baseline {measured['baseline']!r} is not the record's "
                                    f"default option {default!r}; measure against the default "
                                    "(rulespec impact pairs every option with it)")
    low, high = players
    if not low <= measured["players"] <= high:
        yield (*path, "players"), (f"{measured['players']} players is outside the game's range "
                                   f"{low}-{high}; measure with a seat count the game allows")


def _agents(_amb: Mapping[str, Any], measured: Mapping[str, Any], path: JsonPath,
            _players: tuple[int, int]) -> Found:
    seen: set[str] = set()
    for j, agent in enumerate(measured["agents"]):
        if agent["id"] in seen:
            yield (*path, "agents", j, "id"), f"agent {agent['id']!r} is listed twice; list it once"
        seen.add(agent["id"])


def _results(amb: Mapping[str, Any], measured: Mapping[str, Any], path: JsonPath,
             _players: tuple[int, int]) -> Found:
    options = [str(o["id"]) for o in amb["options"]]
    agents = [str(a["id"]) for a in measured["agents"]]
    baseline = measured["baseline"]
    seen: set[tuple[str, str]] = set()
    for j, result in enumerate(measured["results"]):
        where = (*path, "results", j)
        option, agent = result["option"], result["agent"]
        if option not in options:
            yield (*where, "option"), (f"option {option!r} is not an option of this record "
                                       f"{options!r}; fix the id or re-measure")
        elif option == baseline:
            yield (*where, "option"), (f"option {option!r} is the baseline; results compare the "
                                       "other options with it, so drop this result")
        if agent not in agents:
            yield (*where, "agent"), (f"agent {agent!r} is not listed under agents {agents!r}; "
                                      "list it there or fix the id")
        if (option, agent) in seen:
            yield where, (f"a second result for option {option!r} with agent {agent!r}; keep one "
                          "per option and agent")
        seen.add((option, agent))
        seats = result["seat_win_rate_change"]
        if seats is not None and len(seats) != measured["players"]:
            yield (*where, "seat_win_rate_change"), (
                f"{len(seats)} seats for a {measured['players']}-player measurement; give one "
                "interval per seat")
    missing = [(o, a) for o in options if o != baseline for a in agents if (o, a) not in seen]
    if missing and baseline in options:
        option, agent = missing[0]
        yield (*path, "results"), (f"no result for option {option!r} with agent {agent!r}"
                                   + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
                                   + "; every option other than the baseline needs one per agent")


def _intervals(_amb: Mapping[str, Any], measured: Mapping[str, Any], path: JsonPath,
               _players: tuple[int, int]) -> Found:
    for j, result in enumerate(measured["results"]):
        where = (*path, "results", j)
        named: list[tuple[JsonPath, Any]] = [((*where, f), result.get(f)) for f in FIGURES]
        seats = result.get("seat_win_rate_change")
        named += [((*where, "seat_win_rate_change", k), s)
                  for k, s in enumerate(seats if isinstance(seats, list) else [])]
        for at, interval in named:
            if isinstance(interval, Mapping):
                yield from _interval(at, interval)


def _interval(at: JsonPath, interval: Mapping[str, Any]) -> Found:
    bounds: list[float] = []
    for key in ("low", "value", "high"):
        bound = interval.get(key)
        if not isinstance(bound, int | float) or isinstance(bound, bool):
            return  # the schema reported it
        bounds.append(float(bound))
    if not all(math.isfinite(b) for b in bounds):
        yield at, f"{dict(interval)!r} is not finite; every bound must be a number"
    elif not bounds[0] <= bounds[1] <= bounds[2]:
        yield at, (f"interval {dict(interval)!r} is not ordered: low <= value <= high must "
                   "hold; check the figures")
