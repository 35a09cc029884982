"""``rulespec verify``: explore every reachable state of a small configuration and prove its
invariants, or find the shortest path to a violation; exact outcome probabilities.

Registered on the ``rulespec`` group through ``LAZY_COMMANDS``. Exit codes: 0 nothing violated
(proved, or bounded: the report says which), 1 a violation (its shortest trace written), 2 a
usage or input error.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from rulespec.cliargs import AT_LEAST_ONE, PLAYER_COUNT, parse_pairs
from rulespec.exitcodes import EXIT_FAILED, EXIT_OK

#: The default of --max-states (``rulespec.verify.run.MAX_STATES``, kept here so that loading
#: the command imports nothing heavy; a test keeps the two equal).
MAX_STATES = 2_000_000

if TYPE_CHECKING:
    from rulespec.verify.explore import Stats


def _pairs(values: Sequence[str], option: str, example: str, *, json_values: bool) -> dict[str, Any]:
    raw = parse_pairs(values, option, example=example)
    if not json_values:
        return dict(raw)
    out: dict[str, Any] = {}
    for key, value in raw.items():
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


class _Progress:
    """One line on stderr, rewritten about once a second, when stderr is a terminal."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.shown = False

    def __call__(self, stats: Stats) -> None:
        if not self.enabled:
            return
        line = (f"{stats.states:,} states, {stats.transitions:,} transitions, {stats.queued:,} "
                f"queued, depth {stats.depth}, {stats.states_per_second:,.0f} states/s, "
                f"{stats.store_bytes / 2**20:,.1f} MiB stored")
        click.echo(f"\r\x1b[2K{line}", err=True, nl=False)
        self.shown = True

    def stage(self, text: str) -> None:
        """Show what the run does after a search, in place of the search's line."""
        if self.enabled:
            click.echo(f"\r\x1b[2K{text}", err=True, nl=False)
            self.shown = True

    def label(self, text: str) -> None:
        if self.enabled:
            self.clear()
            click.echo(text, err=True)

    def clear(self) -> None:
        if self.shown:
            click.echo("\r\x1b[2K", err=True, nl=False)
            self.shown = False


@click.command()
@click.argument("game", required=False)
@click.option("--players", "-n", type=PLAYER_COUNT, help="Number of players (default: the "
              "minimum).")
@click.option("--ruling", "-r", multiple=True, metavar="AMB=OPTION",
              help="Choose an option of an ambiguity (repeatable; others take their default).")
@click.option("--variant", "-v", multiple=True, metavar="VARIANT", help="Play a variant "
              "(repeatable).")
@click.option("--param", "-p", multiple=True, metavar="NAME=VALUE",
              help="Override a parameter; VALUE is JSON (repeatable). Small targets, fewer "
                   "rounds and smaller dice make small configurations.")
@click.option("--all-rulings", is_flag=True,
              help="Also verify every other option of every ambiguity the configuration "
                   "reaches, one at a time, with each seat's exact change in win probability.")
@click.option("--max-states", type=AT_LEAST_ONE, default=MAX_STATES, show_default=True,
              help="Stop after this many distinct states (the result is then bounded, not a "
                   "proof).")
@click.option("--max-memory", type=click.FloatRange(min=0.1), default=4.0, show_default=True,
              metavar="GIB", help="Stop when the search has grown the process by this many "
                                  "GiB (the states waiting to be expanded are live engines); "
                                  "bounded.")
@click.option("--max-depth", type=AT_LEAST_ONE, help="Expand no state this many actions from "
              "the start (bounded, not a proof).")
@click.option("--forget", multiple=True, metavar="FIELD",
              help="Leave a field of the canonical state out of the state's identity (a view, "
                   "as TLC's VIEW; dotted for nested fields; repeatable). Merged states are "
                   "checked to behave alike; invariants that read the field are then checked, "
                   "not proven.")
@click.option("--view", "view", multiple=True, metavar="TERM",
              help="A view term that keeps part of a field: last(FIELD) keeps a list's last "
                   "item, relative(FIELD) a list of numbers less its least (a number not at "
                   "all), cap(FIELD, K) a number up to K (a list item by item; K may be "
                   "params.NAME), keep(EXPR) the value of a CEL expression over state (a "
                   "bounded summary of a forgotten record: a fold, its last entry) or, when it "
                   "reads prev or action, over each move (a label merged states' moves must "
                   "share); plain FIELD forgets it (repeatable). An invariant that reads the "
                   "field only through what is kept stays proven.")
@click.option("--views", "named_view", metavar="NAME",
              help="A named view of the published configurations (their file's `views`, "
                   "listed on the verification page): its terms, as if each were given with "
                   "--forget or --view.")
@click.option("--canonical", is_flag=True,
              help="Identify states by the canonical state alone: no view, not even the one "
                   "the spec declares (without --forget, --view or --views, the spec's x-verify "
                   "view is used).")
@click.option("--cross-check", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="With a view: search this many canonical states (no view) and check the "
                   "view's win probabilities lie within the intervals they give, and every "
                   "invariant on each state it meets (0: do not).")
@click.option("--symmetry/--no-symmetry", default=False, show_default=True,
              help="Merge states equal up to a rotation of the seats, where the spec declares "
                   "the seats interchangeable (x-verify: {rotate: ...}); each seat's figures are "
                   "the same either way. Off by default: where no rotation merges (Pig under "
                   "its default seat-zero) the rotations cost about a quarter more CPU time.")
@click.option("--merge-walks", type=click.IntRange(min=0), default=None, metavar="N",
              help="After the search, walk this many merges (drawn at random, seeded): the "
                   "merged engine and the state first found with its key take the same random "
                   "moves and are compared at every step, to the end of the game or until they "
                   "hold the same memory; catches a view that forgets what play reads several "
                   "moves later (0: none).  [default: 300]")
@click.option("--no-check-merges", is_flag=True,
              help="Do not check that states merged by their key behave alike one step ahead "
                   "(about twice as fast; the key is then trusted).")
@click.option("--optimal", is_flag=True,
              help="Two players: also solve optimal play by value iteration.")
@click.option("--trace-dir", type=click.Path(path_type=Path, file_okay=False),
              default=Path("rulespec-failures"), show_default=True,
              help="Where the shortest trace of a violation is written.")
@click.option("--published", is_flag=True,
              help="Verify the published configurations (of GAME, or of every game).")
@click.option("--write-docs", type=click.Path(path_type=Path, dir_okay=False),
              help="With --published: write their tables into this page, between its "
                   "<!-- verify:begin --> and <!-- verify:end --> markers (with a GAME, only "
                   "that game's part; the others stay).")
@click.option("--jobs", "-j", type=click.IntRange(1, 512), default=1, show_default=True,
              help="Local worker processes: with --all-rulings each other option's search, "
                   "with --published each configuration's, runs on one; a single search's "
                   "states are shared out between them by fingerprint. Either way the report "
                   "is the one this process alone would make.")
@click.option("--cluster", metavar="tcp://HOST:8786",
              help="Run that work on a Dask distributed scheduler (extra 'cluster'); every "
                   "worker needs rulespec and the games installed.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Report format.")
@click.option("--quiet", "-q", is_flag=True, help="No progress line.")
def verify(game: str | None, players: int | None, ruling: tuple[str, ...],
           variant: tuple[str, ...], param: tuple[str, ...], all_rulings: bool,
           max_states: int | None, max_memory: float, max_depth: int | None,
           forget: tuple[str, ...], view: tuple[str, ...], named_view: str | None,
           canonical: bool, cross_check: int, symmetry: bool, merge_walks: int | None,
           no_check_merges: bool, optimal: bool,
           trace_dir: Path, published: bool,
           write_docs: Path | None, jobs: int, cluster: str | None, fmt: str,
           quiet: bool) -> None:
    """Explore every reachable state of GAME's configuration, breadth first, and check every
    invariant in every state.

    Also checked in every state: chance probabilities exact and summing to 1, a legal action
    wherever a player is to move, a well-formed result once the game is over; on the whole
    graph: every state can reach the end (no trap), and whether the graph is acyclic. A
    violation's shortest path from the start is written as a trace (`rulespec replay` reads
    it). Then each seat's exact win probability and the expected length under uniform random
    players (and, with --optimal, under optimal play). Reports distinct states, transitions,
    depth, time and memory; a progress line on a terminal.

    States are identified by the canonical state. A canonical state that records the past
    (turn counts, finished rounds, re-rolls) makes the graph endless; --forget leaves such
    fields out (a view), --max-states and --max-depth bound the search.
    """
    progress = _Progress(not quiet and sys.stderr.isatty())
    if published:
        if (ruling or variant or param or players or forget or view or named_view or max_depth
                or canonical or symmetry or merge_walks is not None):
            raise click.UsageError("--published verifies the published configurations as they "
                                   "are; drop the configuration options")
        sys.exit(_published(game, write_docs, fmt, progress, jobs, cluster))
    if write_docs is not None:
        raise click.UsageError("--write-docs goes with --published")
    if game is None:
        raise click.UsageError("name a GAME (see `rulespec games`), or pass --published")
    from rulespec.verify.run import Bounds
    from rulespec.verify.walks import MERGE_WALKS

    setup = _setup(game, players, ruling, variant, param)
    source = ""
    if canonical and (forget or view or named_view):
        raise click.UsageError("--canonical identifies states by the canonical state alone; "
                               "drop it, or drop --forget, --view and --views")
    if named_view is not None:
        view = _named(game, named_view) + view
    elif not (forget or view or canonical):
        view = _declared(setup)
        source = "spec" if view else ""
    bounds = Bounds(view=forget + view, max_states=max_states, max_depth=max_depth,
                    max_memory=int(max_memory * 2**30),
                    check_merges=not no_check_merges, optimal=optimal,
                    cross_check=cross_check, view_source=source,
                    symmetry=_symmetry(setup) if symmetry else None,
                    merge_walks=MERGE_WALKS if merge_walks is None else merge_walks)
    sys.exit(_one(setup, bounds, all_rulings, trace_dir, fmt, progress, jobs, cluster))


def _declared(setup: Any) -> tuple[str, ...]:
    """Return the view the spec declares beside its fields (x-verify), for this
    configuration's parameters; () when it declares none."""
    from rulespec.spec.verify_views import ViewDeclarationError, declared_view_terms

    try:
        return declared_view_terms(setup.spec, dict(setup.config().parameters))
    except ViewDeclarationError as exc:
        raise click.UsageError(f"the spec's declared view: {exc} (or pass --canonical, or "
                               "a view of your own with --forget/--view)") from None


def _symmetry(setup: Any) -> Any:
    """Return the seats' rotations the spec declares (x-verify: {rotate: ...}); None if none."""
    from rulespec.spec.verify_views import ViewDeclarationError, declared_seats
    from rulespec.verify.symmetry import Seats

    try:
        declared = declared_seats(setup.spec)
    except ViewDeclarationError as exc:
        raise click.UsageError(f"the spec's declared seat symmetry: {exc} (or drop "
                               "--symmetry)") from None
    return None if declared is None else Seats(*declared)


def _named(game: str, name: str) -> tuple[str, ...]:
    from rulespec.verify.published import load_views

    views = load_views()
    found = views.get(name)
    if found is None or found.game != game:
        mine = sorted(n for n, v in views.items() if v.game == game)
        raise click.UsageError(f"--views {name}: no published view of that name for {game}; "
                               f"its named views are {', '.join(mine) or 'none'}")
    return found.terms


def _setup(game: str, players: int | None, ruling: Sequence[str], variant: Sequence[str],
           param: Sequence[str]) -> Any:
    from rulespec.reference.core import ConfigError
    from rulespec.spec.registry import UnknownGame, get_spec
    from rulespec.verify.run import Setup

    rulings = _pairs(ruling, "--ruling", "DDO-AMB-01=d8", json_values=False)
    parameters = _pairs(param, "--param", "target_score=10", json_values=True)
    try:
        setup = Setup.of(get_spec(game), players=players, rulings=rulings,
                         variants=tuple(variant), parameters=parameters)
        setup.config()
    except (UnknownGame, ConfigError) as exc:
        raise click.UsageError(str(exc)) from None
    return setup


@contextmanager
def _executor(jobs: int, cluster: str | None) -> Iterator[Any]:
    """Yield the executor of --jobs and --cluster (None: this process), its errors as usage
    errors (Dask not installed, a scheduler out of reach)."""
    from rulespec.executors import ExecutorError, executor_for

    if jobs <= 1 and cluster is None:
        yield None
        return
    try:
        with executor_for(jobs, cluster) as executor:
            yield executor
    except ExecutorError as exc:
        raise click.UsageError(str(exc)) from None


def _workers(executor: Any, jobs: int) -> int:
    """Return how many workers ``executor`` has: ``jobs`` local processes, or the Dask
    cluster's worker threads."""
    threads = getattr(executor, "nthreads", None)
    if callable(threads):
        return max(1, int(sum(threads().values())))
    return jobs


def _one(setup: Any, bounds: Any, all_rulings: bool, trace_dir: Path, fmt: str,
         progress: _Progress, jobs: int = 1, cluster: str | None = None) -> int:
    from rulespec.verify.keys import ViewError
    from rulespec.verify.parallel import ParallelError
    from rulespec.verify.report import (
        rulings_json,
        rulings_text,
        verification_json,
        verification_text,
    )
    from rulespec.verify.run import verify, verify_rulings

    defaults = setup.spec.default_rulings()
    try:
        if all_rulings:
            with _executor(jobs, cluster) as executor:
                run = verify_rulings(
                    setup, bounds, trace_dir=trace_dir, progress=progress,
                    announce=lambda a, o: progress.label(
                        f"{'verified' if executor is not None else 'verifying'} {a}={o}"),
                    executor=executor)
            progress.clear()
            verifications = [run.baseline] + [o.verification for o in run.options
                                              if o.verification is not None]
            if fmt == "json":
                click.echo(json.dumps(rulings_json(run), indent=1))
            else:
                click.echo("\n".join(rulings_text(run, defaults)))
        else:
            with _executor(jobs, cluster) as executor:
                result = verify(setup.engine(), bounds, trace_dir=trace_dir, progress=progress,
                                executor=executor, workers=_workers(executor, jobs))
            progress.clear()
            verifications = [result]
            if fmt == "json":
                click.echo(json.dumps(verification_json(result), indent=1))
            else:
                click.echo("\n".join(verification_text(result, defaults)))
    except (ViewError, ParallelError) as exc:
        raise click.UsageError(str(exc)) from None
    return EXIT_FAILED if any(v.violations for v in verifications) else EXIT_OK


def _published(game: str | None, page: Path | None, fmt: str, progress: _Progress,
               jobs: int = 1, cluster: str | None = None) -> int:
    import platform

    from rulespec.spec.registry import game_ids, get_spec
    from rulespec.verify.published import load_published, section, write_section
    from rulespec.verify.report import rulings_json, rulings_text

    entries = [p for p in load_published() if game is None or p.game == game]
    if not entries:
        raise click.UsageError(f"no published configuration of {game!r}")
    known = set(game_ids())
    results: list[tuple[Any, Any]] = []
    documents = []
    defaults_of: dict[str, dict[str, str]] = {}
    failed = False
    with _executor(jobs, cluster) as executor:
        runs = _published_runs(entries, known, progress, executor)
        for entry in entries:
            if entry.game not in known:
                results.append((entry, f"{entry.game} is not installed"))
                continue
            defaults_of[entry.game] = get_spec(entry.game).default_rulings()
            run = next(runs)
            failed = failed or bool(run.baseline.violations) or any(
                o.verification is not None and o.verification.violations for o in run.options)
            results.append((entry, run))
            if fmt == "json":
                documents.append({"command": entry.command(), **rulings_json(run)})
            else:
                click.echo(f"$ {entry.command()}")
                click.echo("\n".join(rulings_text(run, defaults_of[entry.game])))
                click.echo()
    if fmt == "json":
        click.echo(json.dumps(documents, indent=1))
    if page is not None:
        stamp = (f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} on "
                 f"{platform.processor() or platform.machine()}, CPython "
                 f"{platform.python_version()}, by `rulespec verify --published "
                 f"{'' if game is None else game + ' '}--write-docs "
                 f"{page.as_posix()}`.")
        write_section(page, section(results, defaults_of, stamp),
                      games=None if game is None else [game])
        click.echo(f"wrote {page}", err=True)
    return EXIT_FAILED if failed else EXIT_OK


def _published_runs(entries: Sequence[Any], known: set[str], progress: _Progress,
                    executor: Any) -> Iterator[Any]:
    """Yield the runs of the installed games' published configurations, in order, each as it
    is ready: searched here one after another, or all handed to the executor at once (the same
    runs, side by side)."""
    from rulespec.reference.registry import engine_class
    from rulespec.spec.registry import get_spec
    from rulespec.verify.run import as_they_end, verify_rulings

    mine = [e for e in entries if e.game in known]
    traces = Path("rulespec-failures")
    if executor is None:
        for entry in mine:
            spec = get_spec(entry.game)
            progress.label(f"verifying {entry.command()}")
            run = verify_rulings(entry.setup(spec, engine_class(spec)), entry.bounds(),
                                 progress=progress, trace_dir=traces,
                                 announce=lambda a, o: progress.label(f"  {a}={o}"),
                                 options=entry.all_rulings)
            progress.clear()
            yield run
        return
    futures = []
    for entry in mine:
        spec = get_spec(entry.game)
        futures.append(executor.submit(verify_rulings, entry.setup(spec, engine_class(spec)),
                                       entry.bounds(), trace_dir=traces,
                                       options=entry.all_rulings))
    ready: set[int] = set()
    ended = as_they_end(futures)
    for k, future in enumerate(futures):
        while k not in ready:  # the runs are reported in order; each is announced as it ends
            done = next(ended)
            ready.add(done)
            progress.label(f"verified {mine[done].command()} ({len(ready)} of "
                           f"{len(futures)} done)")
        yield future.result()
