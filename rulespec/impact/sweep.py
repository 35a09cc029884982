"""Measure each record where its ruling matters, and say which records measurably matter.

A record's decision point may be reached only at some player counts or under a variant
(OURO-AMB-16 only in the gold fever, FOOL-AMB-03's readings differ only with 7 players). So a
sweep first *probes*: it plays baseline games with random players at every setting the game
allows (each player count, alone and with each variant that can be set up without extra
parameters) and reads the engines' decision-point counts. Each record is then measured at every
player count where its decision point was reached without a variant; a record reached only
under variants is measured under each variant that reaches it. A record reached nowhere is
reported with the settings tried.

The verdict of a record comes from the distribution tests of all its results (every setting,
option and agent), Holm-corrected across everything the sweep reports: a record *measurably
matters* when one of its tests rejects "no change in the outcome distribution" after the
correction; its effect size is then the largest seat win-rate change among the rejecting
results, with the setting, option and agent. Otherwise it reads "no measurable effect at N
games".
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist
from typing import Any

from rulespec.data import installed_version
from rulespec.impact.effects import ALPHA, CORRECTION, TEST_METHOD, adjust
from rulespec.impact.measure import (
    CONFIDENCE,
    Tally,
    default_players,
    plan,
    run,
)
from rulespec.impact.paired import BatchTask, run_batch
from rulespec.impact.power import interval_standard_error, with_detectable
from rulespec.impact.stats import Interval, sig4
from rulespec.reference.core import ConfigError, make_config
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec

#: The format of a game's sweep (the file the docs read, next to the specs).
SWEEP_FORMAT = "rulespec-impact-sweep/1"
#: Baseline games per setting in the probe (random players).
PROBE_GAMES = 100


@dataclass(frozen=True, order=True)
class Setting:
    """Where a record is measured: a player count and the variants in play."""

    players: int
    variants: tuple[str, ...] = ()

    def label(self) -> str:
        """Return ``4 players`` or ``4 players, gold-fever``."""
        return f"{self.players} players" + "".join(f", {v}" for v in self.variants)

    def to_json(self) -> dict[str, Any]:
        """Return ``{players, variants}``."""
        return {"players": self.players, "variants": list(self.variants)}


def candidate_settings(spec: Spec) -> tuple[list[Setting], list[dict[str, str]]]:
    """Return every setting the game can be set up in, and the variants that need more."""
    settings: list[Setting] = []
    refused: list[dict[str, str]] = []
    for variants in [(), *((v,) for v in spec.variants)]:
        for n in range(spec.min_players, spec.max_players + 1):
            try:
                engine_class(spec)(spec, make_config(spec, players=n, variants=variants))
            except ConfigError as exc:
                if variants and n == spec.min_players:
                    refused.append({"variant": variants[0], "reason": str(exc)})
                continue
            settings.append(Setting(n, variants))
    return settings, refused


def probe(spec: Spec, settings: Sequence[Setting], *, seed: int, games: int, executor: Any,
          ) -> tuple[dict[Setting, dict[str, int]], bool]:
    """Return per setting the baseline games (of ``games``) reaching each record's decision
    point, and whether any player ever had a choice."""
    ambiguities = tuple(spec.ambiguities)
    tasks = [BatchTask(spec.game_id, s.players, "random", seed, -1, games, ambiguities, (),
                       s.variants) for s in settings]
    futures = [executor.submit(run_batch, t) for t in tasks]
    reached: dict[Setting, dict[str, int]] = {}
    choices = False
    for setting, future in zip(settings, futures, strict=True):
        rows = future.result()
        reached[setting] = {a: sum(1 for row in rows if row[0].decisions[k])
                            for k, a in enumerate(ambiguities)}
        choices = choices or any(row[0].choices for row in rows)
    return reached, choices


def choose(spec: Spec, reached: Mapping[Setting, Mapping[str, int]]) -> dict[str, list[Setting]]:
    """Return per record the settings to measure it in (see the module's rule)."""
    out: dict[str, list[Setting]] = {}
    for amb in spec.ambiguities:
        plain = [s for s, r in reached.items() if not s.variants and r.get(amb)]
        chosen = plain or [s for s, r in reached.items() if s.variants and r.get(amb)]
        # Reached nowhere in the probe: still measured at the default count, whose longer run
        # says whether a rare decision point is reached at all.
        out[amb] = sorted(chosen) or [Setting(default_players(spec))]
    return out


#: Called with a line of progress.
Log = Callable[[str], None]


@dataclass(frozen=True)
class Probed:
    """A game probed for where its records are reached, ready to be measured."""

    spec: Spec
    settings: list[Setting]
    refused: list[dict[str, str]]
    reached: dict[Setting, dict[str, int]]
    #: The agents to measure with (random only when the players never choose).
    agents: list[str]
    #: Per record, the settings to measure it in (``choose``).
    where: dict[str, list[Setting]]
    probe_games: int

    def records(self) -> dict[str, dict[str, Any]]:
        """Return every record's entry of the sweep, with no measurement yet."""
        return {amb: {"baseline": str(rec["default"]["option"]), "effect": rec.get("effect"),
                      "settings_tried": [s.to_json() for s in self.settings],
                      "probe_reached": [dict(s.to_json(), games=self.reached[s][amb])
                                        for s in self.settings if self.reached[s][amb]],
                      "measurements": []}
                for amb, rec in self.spec.ambiguities.items()}

    def data(self, records: dict[str, dict[str, Any]], *, seed: int,
             batch_size: int) -> dict[str, Any]:
        """Return the game's sweep data around ``records``."""
        return {"format": SWEEP_FORMAT, "game": self.spec.game_id,
                "rulespec": installed_version(),
                "measured_on": dt.datetime.now(dt.UTC).date().isoformat(), "seed": seed,
                "batch_size": batch_size, "confidence": CONFIDENCE,
                "probe_games": self.probe_games, "agents": self.agents,
                "variants_not_tried": self.refused, "records": records}


def probe_game(spec: Spec, *, agents: Sequence[str], seed: int, executor: Any,
               probe_games: int = PROBE_GAMES) -> Probed:
    """Probe ``spec``'s settings and choose where to measure each record, and with whom."""
    settings, refused = candidate_settings(spec)
    reached, choices = probe(spec, settings, seed=seed, games=probe_games, executor=executor)
    used = [a for a in agents if choices or a == "random"] or ["random"]
    return Probed(spec, settings, refused, reached, used, choose(spec, reached), probe_games)


def sweep_game(spec: Spec, *, agents: Sequence[str], games: Mapping[str, int], seed: int,
               batch_size: int, executor: Any, probe_games: int = PROBE_GAMES,
               log: Log | None = None) -> dict[str, Any]:
    """Probe, then measure every record where it is reached; return the game's sweep data."""
    probed = probe_game(spec, agents=agents, seed=seed, executor=executor,
                        probe_games=probe_games)
    used, where = probed.agents, probed.where
    if log:
        log(f"{spec.game_id}: probed {len(probed.settings)} settings x {probe_games} games; "
            f"agents {', '.join(used)}")
    records = probed.records()
    for setting in sorted({s for ss in where.values() for s in ss}):
        here = [a for a, ss in where.items() if setting in ss]
        for agent in used:
            p = plan(spec, here, [agent], setting.players, setting.variants)
            tally = run(p, seed=seed, games=games.get(agent, games.get("*", 200)),
                        batch_size=batch_size, executor=executor)
            merge_tally(records, tally, setting)
            if log:
                log(f"{spec.game_id} {setting.label()} {agent}: {len(here)} records, "
                    f"{len(p.options)} options, {tally.played()} paired games each")
    return probed.data(records, seed=seed, batch_size=batch_size)


def merge_tally(records: dict[str, dict[str, Any]], tally: Tally, setting: Setting) -> None:
    """Add a tally's measurements at ``setting`` to the sweep's records."""
    for amb, measured in tally.measured().items():
        if not measured["results"]:
            continue
        found = next((m for m in records[amb]["measurements"]
                      if m["players"] == setting.players
                      and m.get("variants", []) == list(setting.variants)), None)
        if found is None:
            records[amb]["measurements"].append(measured)
        else:
            found["agents"] = unique_agents([*found["agents"], *measured["agents"]])
            found["results"] += measured["results"]


def unique_agents(agents: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Return each agent once, in first-seen order.

    A measurement gains results agent by agent (and look by look in a sequential sweep); its
    ``agents`` says who played, once each. Sweeps saved before 2026-12-02 listed an agent once
    per merge (Fool's FOOL-AMB-01 at 4 players: ``random`` and 19 ``greedy``); loading a sweep
    mends that."""
    seen: list[Mapping[str, Any]] = []
    for agent in agents:
        if agent not in seen:
            seen.append(agent)
    return seen


def finish(games: Mapping[str, dict[str, Any]], alpha: float = ALPHA) -> int:
    """Correct every test and interval of the sweep (all games) and set each record's verdict.

    The distribution tests get Holm's adjusted p-values. The seat win-rate changes get
    simultaneous intervals: Bonferroni over every seat interval of the sweep, from each 95%
    t interval's standard error (normal quantile at ``1 - alpha / (2 k)`` for ``k`` intervals).
    """
    results = [r for data in games.values() for rec in data["records"].values()
               for m in rec["measurements"] for r in m["results"]]
    family = adjust(results)
    seats = sum(len(r["seat_win_rate_change"] or []) for r in results)
    # A sequential sweep (rulespec.impact.sequential) looked up to `looks` times at each
    # measurement: its intervals are corrected over the looks too.
    looks = max((int((data.get("design") or {}).get("looks") or 1) for data in games.values()),
                default=1)
    z = NormalDist().inv_cdf(1 - alpha / (2 * max(seats, 1) * looks))
    for r in results:
        r["seat_win_rate_change_corrected"] = [
            _widened(iv, int(r["games"]), z) for iv in r["seat_win_rate_change"] or []]
    for data in games.values():
        data["correction"] = {"method": CORRECTION, "family": family, "alpha": alpha,
                              "test": TEST_METHOD, "seat_intervals": seats,
                              "seat_level": sig4(alpha / (max(seats, 1) * looks))}
        if looks > 1:
            data["correction"]["looks"] = looks
        for rec in data["records"].values():
            rec["verdict"] = verdict(rec, alpha)
        with_detectable(data)
    return family


def _widened(iv: Mapping[str, float], n: int, z: float) -> dict[str, float]:
    """Return a 95% t interval widened to the normal quantile ``z`` (same standard error)."""
    value, se = float(iv["value"]), interval_standard_error(iv, n)
    return Interval(value, value - z * se, value + z * se).clip(-1.0, 1.0).to_json()


def _largest_seat(result: Mapping[str, Any]) -> tuple[int, Mapping[str, float]]:
    seats = result["seat_win_rate_change_corrected"] or []
    return max(enumerate(seats), key=lambda x: (_clear(x[1]), abs(x[1]["value"]), -x[0]))


def _clear(iv: Mapping[str, float]) -> bool:
    """Return whether an interval excludes zero."""
    return float(iv["low"]) > 0 or float(iv["high"]) < 0


def verdict(record: Mapping[str, Any], alpha: float = ALPHA) -> dict[str, Any]:
    """Return what a record's measurements say.

    ``effect``: a seat's win-rate change whose corrected interval excludes zero (the largest
    such change, with its setting, option and agent); ``distribution``: no such seat, but the
    outcome distribution (scores, margin) differs after Holm's correction; ``none``: neither;
    ``unreached``: the decision point was reached in no game measured, or (``asked``) was
    asked but the options played alike in every pair measured; ``unmeasured``: no game
    was played at all, a sequential sweep's time having run out before the record's turn (it
    says nothing of whether the point is reached).
    """
    results = [(m, r) for m in record["measurements"] for r in m["results"]
               if float(r["trigger_rate"]["value"]) > 0]
    stops = record.get("precision") or []
    if not record["measurements"] and stops and all(int(p["games"]) == 0 for p in stops):
        return {"status": "unmeasured", "settings_tried": len(record["settings_tried"])}
    if not results:
        return {"status": "unreached", "settings_tried": len(record["settings_tried"])}
    # Reached where it matters (issue 44): a point asked where the options play alike (the
    # same moves and final state in every pair: the arises rate, in sweeps from 0.4) is not
    # reached there; asked everywhere and arising nowhere, the record is unreached, and says so.
    if all(r.get("arises_rate") is not None and float(r["arises_rate"]["value"]) == 0
           for _, r in results):
        return {"status": "unreached", "asked": True,
                "settings_tried": len(record["settings_tried"]),
                "games": min(int(r["games"]) for _, r in results)}
    games = min(int(r["games"]) for _, r in results)
    clear = [(m, r) for m, r in results if any(_clear(iv) for iv in
                                               r["seat_win_rate_change_corrected"] or [])]
    rejecting = [(m, r) for m, r in results
                 if r["distribution_test"] and r["distribution_test"]["p_adjusted"] < alpha]
    if clear:
        m, r = max(clear, key=lambda mr: abs(_largest_seat(mr[1])[1]["value"]))
        seat, change = _largest_seat(r)
        return {"status": "effect", "games": int(r["games"]),
                "setting": {"players": m["players"], "variants": list(m.get("variants", []))},
                "option": r["option"], "agent": r["agent"], "seat": seat,
                "seat_win_rate_change": dict(change),
                "p_adjusted": r["distribution_test"]["p_adjusted"]}
    if rejecting:
        m, r = min(rejecting, key=lambda mr: mr[1]["distribution_test"]["p_adjusted"])
        return {"status": "distribution", "games": int(r["games"]),
                "setting": {"players": m["players"], "variants": list(m.get("variants", []))},
                "option": r["option"], "agent": r["agent"],
                "p_adjusted": r["distribution_test"]["p_adjusted"]}
    by_agent: dict[str, int] = {}
    for _, r in results:
        by_agent[r["agent"]] = min(by_agent.get(r["agent"], int(r["games"])), int(r["games"]))
    return {"status": "none", "games": games, "games_by_agent": by_agent}


def ranked(data: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """Return the records that measurably matter, largest seat win-rate change first."""
    rows = [(amb, rec["verdict"]) for amb, rec in data["records"].items()
            if rec.get("verdict", {}).get("status") == "effect"]
    return sorted(rows, key=lambda x: (-abs(float(x[1]["seat_win_rate_change"]["value"])), x[0]))


def settings_text(settings: Iterable[Mapping[str, Any]]) -> str:
    """Return ``3-6 players; 3-6 players, gold-fever`` for a list of settings."""
    by: dict[tuple[str, ...], list[int]] = {}
    for s in settings:
        by.setdefault(tuple(s["variants"]), []).append(int(s["players"]))
    parts = []
    for variants, counts in by.items():
        counts.sort()
        span = (f"{counts[0]}-{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1))
                and len(counts) > 1 else ", ".join(map(str, counts)))
        parts.append(f"{span} players" + "".join(f", {v}" for v in variants))
    return "; ".join(parts)


def sweep_path(spec_path: Path, game: str) -> Path:
    """Return where a game's sweep is kept: ``impact/GAME.json`` in the specs' folder."""
    return Path(spec_path).parent / "impact" / f"{game}.json"


def load_sweep(spec_path: Path, game: str) -> dict[str, Any] | None:
    """Return a game's saved sweep, or None when it has none."""
    path = sweep_path(spec_path, game)
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != SWEEP_FORMAT:
        return None
    for record in data.get("records", {}).values():
        for measured in record.get("measurements", []):
            measured["agents"] = unique_agents(measured.get("agents", []))
    return with_detectable(data)
