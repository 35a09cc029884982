"""``rulespec matrix``: run every engine of the lists on every game it plays, under each of its
configurations, in parallel, and write the dated, stamped reports the docs' matrix page shows.

Exit codes (``rulespec.exitcodes``): 0 every engine did as its list expects (an honest engine
passes every check, a planted-bug engine fails one) and every report was written; 1 one did not,
or (``--check``) the folder's reports are not fresh; 2 a usage error (a bad engine list, a
configuration naming what its game lacks, an unreachable cluster); 3 an engine failed to run
(the other reports are still written).
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from rulespec.cliargs import AT_LEAST_ONE, NON_NEGATIVE_SECONDS, output_folder
from rulespec.conformance.play.options import DEFAULT_BUDGET
from rulespec.exitcodes import EXIT_ENGINE, EXIT_FAILED, EXIT_OK

#: Where the reports go by default (beside ``rulespec-failures/``, the kit's trace folder).
DEFAULT_OUT = Path("rulespec-matrix")


class _Shown:
    """Progress on standard error: a rich bar on a terminal, and one line per finished job
    (unless quiet), printed above the bar."""

    def __init__(self, total: int, *, quiet: bool, terminal: bool) -> None:
        self.quiet = quiet
        self._lock = threading.Lock()
        self._progress: Any = None
        self._task: Any = None
        self._done = 0
        self.total = total
        if terminal and not quiet:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            self._progress = Progress(TextColumn("[bold]matrix"), BarColumn(),
                                      MofNCompleteColumn(), TextColumn("jobs"),
                                      TimeElapsedColumn(), console=Console(stderr=True),
                                      transient=True)
            self._task = self._progress.add_task("matrix", total=total)
            self._progress.start()

    def line(self, text: str) -> None:
        if self.quiet:
            return
        with self._lock:
            if self._progress is not None:
                self._progress.console.print(text, markup=False, highlight=False)
            else:
                click.echo(text, err=True)

    def done(self, text: str) -> None:
        with self._lock:
            self._done += 1
            n = self._done
            if self._progress is not None:
                self._progress.advance(self._task)
        self.line(f"[{n}/{self.total}] {text}")

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()


def _job_line(result: Any) -> str:
    job = result.job
    what = "ruling profile" if job.kind == "profile" else job.config.label()
    mark = "ok " if result.expected() else "!! "
    return (f"{mark}{job.game} · {job.engine_name} · {what}: {result.summary()} "
            f"({result.seconds:.1f} s)")


def _run(jobs: Sequence[Any], executor: Any, shown: _Shown) -> list[Any]:
    """Submit every job, show each as it finishes, and return the results in job order."""
    from rulespec.conformance.matrix.run import run_job

    results: list[Any] = [None] * len(jobs)
    finished = threading.Event()
    left = [len(jobs)]
    errors: list[BaseException] = []
    lock = threading.Lock()

    def collect(index: int) -> Callable[[Any], None]:
        def done(future: Any) -> None:
            try:
                results[index] = future.result()
                shown.done(_job_line(results[index]))
            except BaseException as exc:  # surfaced below, in the caller's thread
                errors.append(exc)
            with lock:
                left[0] -= 1
                if left[0] == 0:
                    finished.set()
        return done

    if not jobs:
        return []
    futures = []
    for i, job in enumerate(jobs):
        future = executor.submit(run_job, job)
        futures.append(future)
        future.add_done_callback(collect(i))
    while not finished.wait(0.2):
        pass
    if errors:
        raise errors[0]
    return results


@click.command()
@click.option("--engines", "lists", multiple=True, metavar="FILE",
              type=click.Path(path_type=Path, dir_okay=False),
              help="An engine list (YAML, format rulespec-engines/1) whose engines are run too "
                   "(repeatable).")
@click.option("--no-builtin", is_flag=True,
              help="Run only the engines of the --engines files, not the built-in list (the "
                   "reference in-process and over the protocol, the Node.js Dado de Ouro "
                   "engine, Pig's).")
@click.option("--out", type=click.Path(path_type=Path, file_okay=False), default=DEFAULT_OUT,
              show_default=True,
              help="The folder of the reports. An earlier matrix there is replaced (its "
                   "reports, profiles, traces and index; other files stay). With --game, only "
                   "that game's reports and index rows are replaced.")
@click.option("--game", "games", multiple=True, metavar="ID",
              help="Only this game (repeatable; default: every game an engine plays).")
@click.option("--examples", type=AT_LEAST_ONE, default=10, show_default=True,
              help="Games the kit plays per configuration of each report.")
@click.option("--budget", type=NON_NEGATIVE_SECONDS, default=DEFAULT_BUDGET, show_default=True,
              help="Wall-clock seconds for each report (rulespec conform --budget); 0: no "
                   "limit.")
@click.option("--seed", type=int, default=None, help="Hypothesis seed (default: derandomized).")
@click.option("--jobs", "-j", type=click.IntRange(1, 512), default=None,
              help="Local worker processes, each running one report at a time (default: the "
                   "cores).")
@click.option("--cluster", metavar="tcp://HOST:8786",
              help="Run the reports on a Dask distributed scheduler (extra 'cluster'); every "
                   "worker needs rulespec, the games and the engines' commands installed.")
@click.option("--check", is_flag=True,
              help="Play nothing: check that the reports in --out are fresh (one for every "
                   "engine, game and configuration of the lists, with the kit's checks, at "
                   "today's spec versions); exit 1 when not.")
@click.option("--list", "show_list", is_flag=True,
              help="Play nothing: print the jobs and the rows skipped, and why.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress (no bar on a terminal, no line per report).")
def matrix(lists: tuple[Path, ...], no_builtin: bool, out: Path, games: tuple[str, ...],
           examples: int, budget: float, seed: int | None, jobs: int | None,
           cluster: str | None, check: bool, show_list: bool, quiet: bool) -> None:
    """Produce the conformance matrix: every engine x game x configuration, dated and stamped.

    Runs the built-in engine list (and those of --engines files): for every engine, each game
    it plays and each configuration its list declares, a `rulespec conform` report, and per
    engine and game its ruling profile (`conform --infer`). Jobs run in parallel on local
    processes, or on a Dask cluster. Each report is stamped with the date (UTC), rulespec's
    version, today's spec version and the one the engine was checked at, the engine's declared
    name and version, and the kit's checks; the docs build refuses reports whose checks are
    not the kit's. Rows that cannot run here (a game not installed, a program not on the PATH)
    are skipped, saying why.

    Exits 0 when every engine did as its list expects (an honest engine passes every check, a
    planted-bug engine fails one) and every report was written; 1 when one did not, or, with
    --check, when the reports are not fresh; 2 on a usage error (a bad engine list, a
    configuration naming what its game lacks, an unreachable cluster); 3 when an engine failed
    to run (the other reports are still written).
    """
    from rulespec.conformance.engine.processes import ending_engines_on_signals
    from rulespec.conformance.matrix.engines_file import EngineList, builtin_path, load_engines
    from rulespec.conformance.matrix.run import MatrixError, plan, stale, write
    from rulespec.conformance.play.parallel import default_jobs
    from rulespec.conformance.play.progress import on_terminal
    from rulespec.executors import ExecutorError, executor_for
    from rulespec.spec.registry import UnknownGame, game_ids

    if no_builtin and not lists:
        raise click.UsageError("--no-builtin leaves no engine: give an --engines FILE")
    known = set(game_ids())
    for g in games:
        if g not in known:
            raise UnknownGame(f"unknown game {g!r}; known games: {', '.join(sorted(known))}")
    engines = EngineList((), {}, ())
    for path in ([] if no_builtin else [builtin_path()]) + list(lists):
        engines = engines + load_engines(path)
    try:
        the_plan = plan(engines, games=games, examples=examples, budget=budget or None,
                        seed=seed)
    except MatrixError as exc:
        raise click.UsageError(str(exc)) from None
    for s in the_plan.skipped:
        click.echo(f"rulespec: skipped {s.engine_name} on {s.game}: {s.why}", err=True)
    if show_list:
        for job in the_plan.jobs:
            what = "ruling profile" if job.kind == "profile" else job.config.label()
            click.echo(f"{job.name + '.json':48} {job.engine_name} · {what}")
        return
    if check:
        problems, notes = stale(out, the_plan)
        for note in notes:
            click.echo(f"rulespec: note: {note}", err=True)
        for problem in problems:
            click.echo(f"rulespec: {problem.file}: {problem.message}", err=True)
        if problems:
            click.echo(f"rulespec: the matrix in {out} is not fresh ({len(problems)} "
                       f"problem{'s' if len(problems) != 1 else ''}); produce it again with "
                       f"`rulespec matrix{_options(lists, no_builtin, out, games)}`", err=True)
            sys.exit(EXIT_FAILED)
        click.echo(f"the matrix in {out} is fresh: {len(the_plan.jobs)} documents with the "
                   "kit's checks, at today's spec versions"
                   + (f" ({len(notes)} more whose game or engine is not here: their checks "
                      "only)" if notes else ""))
        return
    output_folder(out, "--out")
    workers = jobs if jobs is not None else default_jobs()
    shown = _Shown(len(the_plan.jobs), quiet=quiet, terminal=on_terminal())
    started = time.monotonic()
    try:
        with ending_engines_on_signals(), executor_for(min(workers, max(1, len(the_plan.jobs))),
                                                       cluster) as executor:
            results = _run(the_plan.jobs, executor, shown)
    except ExecutorError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        shown.stop()
    written = write(out, the_plan, results, games=games)
    _summary(results, written, out, time.monotonic() - started)
    if any(r.error_code == EXIT_ENGINE for r in results):
        sys.exit(EXIT_ENGINE)
    sys.exit(EXIT_OK if all(r.expected() for r in results) else EXIT_FAILED)


def _options(lists: Sequence[Path], no_builtin: bool, out: Path, games: Sequence[str]) -> str:
    parts = [f" --engines {p}" for p in lists]
    parts += [" --no-builtin"] if no_builtin else []
    parts += [f" --game {g}" for g in games]
    return "".join(parts) + (f" --out {out}" if out != DEFAULT_OUT else "")


def _summary(results: Sequence[Any], written: Sequence[Path], out: Path, seconds: float) -> None:
    reports = [r for r in results if r.job.kind == "report"]
    unexpected = [r for r in results if not r.expected()]
    click.echo(f"wrote {len(written) - 1} documents and index.json into {out} in {seconds:.0f} s: "
               f"{len(reports)} reports, {len(results) - len(reports)} ruling profiles")
    for r in unexpected:
        job = r.job
        what = "ruling profile" if job.kind == "profile" else job.config.label()
        if r.document is None:
            why = r.error
        elif job.planted_bug is not None:
            why = f"a planted-bug engine ({job.planted_bug}) passed: the kit no longer finds it"
        else:
            why = r.summary()
        click.echo(f"not as expected: {job.game} · {job.engine_name} · {what}: {why}")
