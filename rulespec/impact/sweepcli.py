"""``rulespec impact --reached``: the sweep that measures each record where its ruling matters."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import click

from rulespec.executors import executor_for
from rulespec.impact.power import detectable_text
from rulespec.impact.sweep import (
    finish,
    probe_game,
    ranked,
    settings_text,
    sweep_game,
    sweep_path,
)


def run_reached(games: Sequence[str], agents: Sequence[str], per_agent: Mapping[str, int],
                seed: int, batch_size: int, jobs: int, cluster: str | None, fmt: str,
                save: bool, quiet: bool, minutes: float | None = None,
                open_only: bool = False, only: Sequence[str] = ()) -> None:
    """Sweep ``games``, correct the tests across all of them, print and (``save``) write.
    With ``minutes``, the sequential design (``rulespec.impact.sequential``) within them; with
    ``open_only`` or ``only`` too, only the open records, or those named, are measured and the
    others are kept from the saved sweeps (``rulespec.impact.sequential.keep_saved``)."""
    from rulespec.spec.registry import get_spec

    specs = [get_spec(g) for g in games]
    unknown = sorted(set(only) - {a for spec in specs for a in spec.ambiguities})
    if unknown:
        raise click.UsageError(f"--only names {', '.join(map(repr, unknown))}, not a record of "
                               f"{', '.join(games)}")
    started = time.monotonic()

    def log(line: str) -> None:
        if not quiet:
            click.echo(f"[{time.monotonic() - started:7.1f} s] {line}", err=True)
            sys.stderr.flush()

    data: dict[str, dict[str, Any]] = {}
    with executor_for(jobs, cluster) as executor:
        if minutes is None:
            for spec in specs:
                data[spec.game_id] = sweep_game(spec, agents=agents, games=per_agent, seed=seed,
                                                batch_size=batch_size, executor=executor,
                                                log=log)
        else:
            from rulespec.impact.sequential import (
                measurements,
                planned_intervals,
                sequential_sweep,
                time_share,
            )

            deadline = started + 60 * minutes
            some = open_only or bool(only)
            # Read before the probe: a missing saved sweep is said at once, not minutes later.
            saved = ({spec.game_id: _saved_sweep(spec, " (--open-only and --only keep the "
                                                    "records they do not measure from it)")
                      for spec in specs} if some else {})
            probed = [probe_game(spec, agents=agents, seed=seed, executor=executor)
                      for spec in specs]
            intervals = sum(planned_intervals(p.spec, p.where, p.agents) for p in probed)
            log(f"probed {len(probed)} game(s): {intervals} seat intervals planned")
            # Every game's open records before any game's settled ones: the time runs out on
            # the records whose answer matters least.
            # The time left is shared among the games by how many measurements each still
            # needs (and, inside a game, among its measurements).
            if some:
                from rulespec.impact.sequential import keep_saved, open_records

                for i, p in enumerate(probed):
                    measure = (open_records(p.spec) if open_only else set()) | set(only)
                    try:
                        data[p.spec.game_id] = keep_saved(p, saved[p.spec.game_id], measure)
                    except ValueError as exc:
                        raise click.UsageError(str(exc)) from None
                    # Only the records to measure are planned; the correction (intervals)
                    # still spans every record's.
                    probed[i] = replace(p, where={a: ss for a, ss in p.where.items()
                                                  if a in measure})
            for group in ("open", "settled"):
                left = sum(measurements(p.spec, p.where, p.agents, group) for p in probed)
                for p in probed:
                    mine = measurements(p.spec, p.where, p.agents, group)
                    share = time_share(deadline, mine, left)
                    left -= mine
                    data[p.spec.game_id] = sequential_sweep(
                        p, seed=seed, batch_size=batch_size, executor=executor,
                        deadline=min(deadline, share), intervals=intervals, log=log,
                        groups=(group,), into=data.get(p.spec.game_id))
            if some:
                from rulespec.impact.sequential import restore_unplayed

                for p in probed:
                    for amb in restore_unplayed(data[p.spec.game_id], saved[p.spec.game_id],
                                                 replace=only):
                        log(f"{p.spec.game_id} {amb}: fewer games than saved before the time "
                            "ran out; the saved measurement is kept")
                    data[p.spec.game_id]["design"]["kept"] = (
                        "the records not measured are kept from the saved sweep (each says "
                        "when it was measured)")
    family = finish(data)
    log(f"done: {family} tests, Holm-corrected")
    if save:
        for spec in specs:
            path = sweep_path(spec.path, spec.game_id)
            _save(path, data[spec.game_id])
            log(f"wrote {path}")
    if fmt == "json":
        click.echo(json.dumps({"format": "rulespec-impact-sweep/1", "games": data},
                              sort_keys=True, indent=1, ensure_ascii=False))
        return
    for gid, game in data.items():
        click.echo(verdicts_text(gid, game))


def _saved_sweep(spec: Any, why: str = "") -> dict[str, Any]:
    """Return ``spec``'s saved sweep; refuse, saying ``why`` it is needed, if there is none."""
    from rulespec.impact.sweep import load_sweep

    loaded = load_sweep(spec.path, spec.game_id)
    if loaded is None:
        raise click.UsageError(f"{spec.game_id} has no saved sweep at "
                               f"{sweep_path(spec.path, spec.game_id)}{why}; run rulespec "
                               f"impact {spec.game_id} --reached --save first")
    return loaded


def rejudge(games: Sequence[str], fmt: str, quiet: bool) -> None:
    """Read the saved sweeps of ``games``, correct and judge them again, and save them.

    The correction spans every saved sweep (the family the sweeps were corrected over), not
    only ``games``: rejudging one game alone would correct it over its own tests only, and
    write intervals and verdicts that disagree with the other games' saved ones.
    """
    from rulespec.impact.sweep import load_sweep
    from rulespec.spec.registry import game_ids, get_spec

    specs = [get_spec(g) for g in games]
    data: dict[str, dict[str, Any]] = {spec.game_id: _saved_sweep(spec) for spec in specs}
    family = dict(data)
    for gid in game_ids():
        other = get_spec(gid)
        if gid not in family and (saved := load_sweep(other.path, gid)) is not None:
            family[gid] = saved
    finish(family)
    for spec in specs:
        _save(sweep_path(spec.path, spec.game_id), data[spec.game_id])
    for gid, game in data.items():
        if fmt != "json" and not quiet:
            click.echo(verdicts_text(gid, game))


def _save(path: Any, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(data, sort_keys=True, indent=1, ensure_ascii=False) + "\n",
                    encoding="utf-8")


def verdicts_text(game: str, data: Mapping[str, Any]) -> str:
    """Return what matters in ``game``: the records that measurably matter, then the others."""
    lines = [f"What matters most in {game} (outcome distribution, Holm-corrected):"]
    for i, (amb, v) in enumerate(ranked(data), 1):
        change = v["seat_win_rate_change"]
        lines.append(f"  {i:>2}. {amb:<12} seat {v['seat']} {100 * change['value']:+.1f} pts "
                     f"[{100 * change['low']:+.1f}, {100 * change['high']:+.1f}] "
                     f"({v['option']} / {v['agent']}, {settings_text([v['setting']])}, "
                     f"adjusted p {v['p_adjusted']:.2g})")
    for amb, rec in data["records"].items():
        v = rec["verdict"]
        if v["status"] == "distribution":
            lines.append(f"      {amb:<12} outcome distribution differs (scores/margin), no "
                         f"seat win rate: {v['option']} / {v['agent']}, "
                         f"{settings_text([v['setting']])}, adjusted p {v['p_adjusted']:.2g}")
        elif v["status"] == "none":
            counts = v.get("games_by_agent") or {"": v["games"]}
            games = " / ".join(f"{n}{f' ({a})' if a else ''}" for a, n in counts.items())
            seen = detectable_text(v)
            lines.append(f"      {amb:<12} no measurable effect at {games} games"
                         + (f": {seen}" if seen else ""))
        elif v["status"] == "unreached" and v.get("asked"):
            lines.append(f"      {amb:<12} never arises: asked, but the options played alike "
                         f"in all {v['games']} pairs of every setting")
        elif v["status"] == "unreached":
            lines.append(f"      {amb:<12} never reached; settings tried: "
                         f"{settings_text(rec['settings_tried'])}")
        elif v["status"] == "unmeasured":
            lines.append(f"      {amb:<12} not measured: the sweep's time ran out before any "
                         "of its games")
    return "\n".join(lines) + "\n"
