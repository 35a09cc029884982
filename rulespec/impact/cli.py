"""``rulespec impact``: measure which ambiguities matter, with paired games and strategic players."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click

from rulespec.cliargs import PLAYER_COUNT, output_file
from rulespec.executors import ExecutorError, executor_for
from rulespec.impact.agents import AGENTS, AgentError, heuristic_of
from rulespec.impact.measure import (
    ImpactError,
    Plan,
    Tally,
    default_players,
    plan,
    run,
    widest_rate,
)
from rulespec.impact.report import (
    ranking,
    ranking_markdown,
    ranking_text,
    search_text,
    sweep_json,
    to_json,
    to_markdown,
    to_text,
)
from rulespec.spec.model import Spec


def _agents(value: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in value.split(",") if n.strip())
    if not names:
        raise click.UsageError("--agents is empty; give a comma-separated list, for example "
                               "--agents random,greedy")
    for n in names:
        if n not in AGENTS:
            raise click.UsageError(f"--agents: unknown agent {n!r}; known: {', '.join(AGENTS)}")
    if len(set(names)) != len(names):
        raise click.UsageError(f"--agents names an agent twice: {value!r}")
    return names


def _games(value: str) -> dict[str, int]:
    """Read ``--games``: ``400`` (every agent), or ``random=400,greedy=100``."""
    out: dict[str, int] = {}
    for part in (p.strip() for p in value.split(",") if p.strip()):
        name, _, count = part.rpartition("=")
        if name and name not in AGENTS:
            raise click.UsageError(f"--games: unknown agent {name!r}; known: {', '.join(AGENTS)}")
        try:
            number = int(count)
        except ValueError:
            number = 0
        if number < 1:
            raise click.UsageError(f"--games: {part!r} is not a positive number of games; give "
                                   "400, or random=400,greedy=100")
        out[name or "*"] = number
    if not out:
        raise click.UsageError("--games is empty; give a number, e.g. --games 200")
    return out


def _chart_paths(path: Path, ambiguities: list[str]) -> dict[str, Path]:
    if len(ambiguities) == 1:
        return {ambiguities[0]: path}
    return {a: path.with_name(f"{path.stem}-{a}{path.suffix or '.svg'}") for a in ambiguities}


class _Display:
    """A rich progress line on a terminal (games played, widest rate interval); else silent."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None

    def start(self, label: str, total: int | None) -> Callable[[Tally], None] | None:
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

        if self._progress is None:
            self._progress = Progress(TextColumn("{task.description}"), BarColumn(),
                                      MofNCompleteColumn(), TextColumn("{task.fields[width]}"),
                                      console=Console(stderr=True), transient=True)
            self._progress.start()
        self._task = self._progress.add_task(label, total=total, width="")

        def update(tally: Tally) -> None:
            width = widest_rate(tally.measured("-", tests=False))
            self._progress.update(self._task, completed=tally.played(),
                                  width=f"widest rate interval {100 * width:.1f} pts")

        return update

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()


def _measure(spec: Spec, ambiguities: list[str], agents: tuple[str, ...], players: int | None,
             seed: int, games: int, precision: float | None, max_games: int, batch_size: int,
             executor: Any, display: _Display,
             ) -> tuple[Plan, dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    n = default_players(spec) if players is None else players
    if not spec.min_players <= n <= spec.max_players:
        raise click.UsageError(f"--players {n}: {spec.game_id} is for {spec.min_players} to "
                               f"{spec.max_players} players")
    try:
        p = plan(spec, ambiguities, agents, n)
        if any(a != "random" for a in agents):
            heuristic_of(spec)
    except (ImpactError, AgentError) as exc:
        raise click.UsageError(str(exc)) from None
    for amb, option, why in p.skipped:
        click.echo(f"rulespec: {spec.game_id} {amb} option {option!r} not measured at {n} "
                   f"players: {why}", err=True)
    total = max_games if precision is not None else -(-games // batch_size) * batch_size
    update = display.start(spec.game_id, total)
    tally = run(p, seed=seed, games=games, batch_size=batch_size, executor=executor,
                precision=precision, max_games=max_games, progress=update)
    return p, tally.measured(), tally.search()


@click.command()
@click.argument("game", required=False)
@click.argument("ambiguities", nargs=-1, metavar="[AMB ...]")
@click.option("--all", "sweep", is_flag=True,
              help="Sweep every ambiguity of every game and rank what matters most per game.")
@click.option("--agents", default="random,greedy", show_default=True,
              help=f"Comma-separated players to measure with: {', '.join(AGENTS)}.")
@click.option("--games", "games_spec", default="200", show_default=True,
              help="Paired games per option and agent (rounded up to whole batches); with "
                   "--reached also per agent: random=400,greedy=100.")
@click.option("--precision", type=click.FloatRange(0, 1, min_open=True),
              help="Sequential mode: play until every rate interval is narrower than this "
                   "(e.g. 0.05), or until --max-games.")
@click.option("--max-games", type=click.IntRange(1, 1_000_000), default=2000, show_default=True,
              help="The cap of the sequential mode.")
@click.option("--batch-size", type=click.IntRange(1, 10_000), default=50, show_default=True,
              help="Paired games per seeded batch (the unit of work of the executor).")
@click.option("--players", "-n", type=PLAYER_COUNT,
              help="Seats per game (default: 4, or the nearest count the game allows).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Master seed; every batch derives its seeds from it.")
@click.option("--jobs", "-j", type=click.IntRange(1, 512), default=1, show_default=True,
              help="Local worker processes.")
@click.option("--cluster", metavar="tcp://HOST:8786",
              help="Run the batches on a Dask distributed scheduler (extra 'cluster').")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="Output format.")
@click.option("--chart", type=click.Path(path_type=Path, dir_okay=False),
              help="Write an SVG forest plot of outcome-change rates (one file per ambiguity: "
                   "NAME-AMB.svg when there are several).")
@click.option("--write", is_flag=True,
              help="Record the figures in each ambiguity record's impact.measured in the spec.")
@click.option("--from", "saved", type=click.Path(path_type=Path, dir_okay=False),
              help="Play nothing: read figures saved earlier with --format json (one game or "
                   "--all) and print, chart or --write them.")
@click.option("--reached", is_flag=True,
              help="Measure each record at every player count and variant where its decision "
                   "point is reached (from a probe of the decision-point counts), test the "
                   "outcome distributions and correct the tests (Holm).")
@click.option("--save", is_flag=True,
              help="With --reached: write each game's sweep to impact/GAME.json beside the "
                   "specs (the file the docs read).")
@click.option("--rejudge", is_flag=True,
              help="With --reached: play nothing; read the saved sweeps, correct the tests and "
                   "intervals and judge each record again, and save them.")
@click.option("--sequential", "minutes", type=click.FloatRange(min=0.1), default=None,
              metavar="MINUTES",
              help="With --reached: measure the open records (reported, triaged, deferred) "
                   "first, each seat's win-rate change to ±2 points with random players and ±5 "
                   "with the strongest agent (settled records after them, to ±5 and ±10), in "
                   "rounds, within MINUTES for the whole sweep; each measurement says whether "
                   "its target, its 25 looks or the time stopped it. The intervals are "
                   "corrected over every look too (docs/editors/impact.md).")
@click.option("--open-only", is_flag=True,
              help="With --sequential: measure the open records only, within MINUTES; the "
                   "settled ones keep the measurements of the saved sweeps, and every test and "
                   "interval is corrected over both.")
@click.option("--only", "only", default="", metavar="AMB,...",
              help="With --sequential: measure these records only (any status; with --open-only "
                   "the open ones too), keeping the others as saved.")
@click.option("--quiet", "-q", is_flag=True, help="No progress display.")
def impact(game: str | None, ambiguities: tuple[str, ...], sweep: bool, agents: str,
           games_spec: str, precision: float | None, max_games: int, batch_size: int,
           players: int | None, seed: int, jobs: int, cluster: str | None, fmt: str,
           chart: Path | None, write: bool, saved: Path | None, reached: bool, save: bool,
           rejudge: bool, minutes: float | None, open_only: bool, only: str,
           quiet: bool) -> None:
    """Measure how much each option of an ambiguity changes play, against the default.

    For every option of every ambiguity (or those named), paired games are played with the same
    seeds for chance and for the players under the default and under the option. Reported with
    95% intervals: the trigger rate (games reaching the decision point) and triggers per game;
    how often the winners change; the change in length, in winning margin and in each seat's
    win rate. With --all, every ambiguity of every game, ranked per game.
    """
    from rulespec.spec.registry import game_ids, get_spec

    names = _agents(agents)
    per_agent = _games(games_spec)
    games = per_agent.get("*", max(per_agent.values()))
    output_file(chart, "--chart")
    if rejudge and not reached:
        raise click.UsageError("--rejudge reads a --reached sweep; add --reached")
    named = [a.strip() for a in only.split(",") if a.strip()]
    if (open_only or named) and minutes is None:
        raise click.UsageError(f"{'--open-only' if open_only else '--only'} is a way of "
                               "measuring --sequential; add --reached --sequential MINUTES")
    if save and not reached:
        raise click.UsageError("--save writes a --reached sweep; add --reached")
    if reached:
        from rulespec.impact.sweepcli import run_reached
        from rulespec.spec.registry import game_ids as _ids

        if ambiguities or players is not None or precision is not None or write or chart:
            raise click.UsageError("--reached chooses the settings itself and measures every "
                                   "record of the game; give no AMB, --players, --precision, "
                                   "--write or --chart with it")
        if not sweep and game is None:
            raise click.UsageError("give a GAME, or --all, with --reached")
        if rejudge:
            from rulespec.impact.sweepcli import rejudge as _rejudge

            _rejudge(_ids() if sweep else [str(game)], fmt, quiet)
            return
        run_reached(_ids() if sweep else [str(game)], names, per_agent, seed, batch_size, jobs,
                    cluster, fmt, save, quiet, minutes=minutes, open_only=open_only,
                    only=named)
        return
    if minutes is not None:
        raise click.UsageError("--sequential measures a --reached sweep; add --reached")
    if saved is not None:
        loaded, was_sweep, searched = _load_saved(saved)
        _finish(loaded, [get_spec(g) for g in loaded], was_sweep, fmt, chart, write, searched)
        return
    if sweep and (game is not None or ambiguities):
        raise click.UsageError("--all sweeps every game; give no GAME or AMB with it")
    if not sweep and game is None:
        raise click.UsageError("give a GAME (see 'rulespec games'), or --all for every game")
    if sweep and players is not None:
        raise click.UsageError("--players applies to one game; --all measures each game at its "
                               "default count")
    targets = game_ids() if sweep else [game]
    specs = [get_spec(g) for g in targets if g is not None]
    display = _Display(not quiet and sys.stderr.isatty())
    results: dict[str, dict[str, dict[str, Any]]] = {}
    searches: dict[str, dict[str, dict[str, Any]]] = {}
    started = time.monotonic()
    try:
        with executor_for(jobs, cluster) as executor:
            for spec in specs:
                _, measured, searched = _measure(spec, list(ambiguities), names, players, seed,
                                                 games, precision, max_games, batch_size,
                                                 executor, display)
                results[spec.game_id] = measured
                if searched:
                    searches[spec.game_id] = searched
    except (ImpactError, ExecutorError) as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        display.stop()
    elapsed = time.monotonic() - started
    _finish(results, specs, sweep, fmt, chart, write, searches)
    if not quiet and sys.stderr.isatty():
        click.echo(f"measured in {elapsed:.0f} s", err=True)


def _load_saved(path: Path) -> tuple[dict[str, dict[str, dict[str, Any]]], bool,
                                     dict[str, dict[str, dict[str, Any]]]]:
    """Read figures saved with ``--format json``: one game's, or a sweep's (and searches)."""
    import json

    from rulespec.impact.measure import FORMAT

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.UsageError(f"--from {str(path)!r} cannot be read as JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise click.UsageError(f"--from {str(path)!r} is not a {FORMAT} report; save one with "
                               "'rulespec impact ... --format json'")
    if "games" in data:
        return ({g: v["records"] for g, v in data["games"].items()}, True,
                {g: v["search"] for g, v in data["games"].items() if v.get("search")})
    game = str(data["game"])
    return {game: data["records"]}, False, ({game: data["search"]} if data.get("search") else {})


def _finish(results: Mapping[str, Mapping[str, Mapping[str, Any]]], specs: list[Spec],
            sweep: bool, fmt: str, chart: Path | None, write: bool,
            searches: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> None:
    writer: Callable[[Path, str, Mapping[str, Any]], None] | None = None
    if write:
        from rulespec.impact.record import write_measured

        writer = write_measured
    if chart is not None:
        from rulespec.impact.chart import forest_svg

        for gid, measured in results.items():
            paths = _chart_paths(chart if not sweep else chart.with_name(
                f"{chart.stem}-{gid}{chart.suffix or '.svg'}"), list(measured))
            for amb, path in paths.items():
                path.write_text(forest_svg(measured[amb]), encoding="utf-8")
    if writer is not None:
        from rulespec.impact.record import RESULT_KEYS

        for spec in specs:
            for amb, measured_one in results[spec.game_id].items():
                if measured_one["results"]:
                    # The spec format keeps its figures; the distribution figures are the
                    # sweep file's (rulespec impact --reached --save).
                    kept = dict(measured_one, results=[{k: r[k] for k in RESULT_KEYS}
                                                       for r in measured_one["results"]])
                    writer(spec.path, amb, kept)
    _print(results, fmt, sweep, searches)


def _print(results: Mapping[str, Mapping[str, Mapping[str, Any]]], fmt: str, sweep: bool,
           searches: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> None:
    if fmt == "json":
        if sweep:
            click.echo(sweep_json(results, searches))
        else:
            ((gid, records),) = results.items()
            click.echo(to_json(gid, records, searches.get(gid)))
        return
    for gid, records in results.items():
        searched = searches.get(gid)
        if fmt == "markdown":
            click.echo(to_markdown(gid, records))
            if searched:
                click.echo(f"Searches of {gid}:\n\n" + search_text(searched, markdown=True))
            if sweep:
                click.echo(ranking_markdown(gid, ranking(records)))
        else:
            click.echo(to_text(gid, records), nl=False)
            if searched:
                click.echo(f"{gid} searches:\n" + search_text(searched))
            if sweep:
                click.echo(ranking_text(gid, ranking(records)))
