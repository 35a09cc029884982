"""The kit's commands: ``rulespec conform``, ``rulespec serve``, ``rulespec conform-bench``.

They are click commands registered on the ``rulespec`` group by ``rulespec/cli.py``. Exit codes
follow the CLI's (``rulespec.exitcodes``): 0 conformant, 1 a check failed, 2 a usage error,
3 the engine under test failed to run.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from rulespec.cliargs import (
    AT_LEAST_ONE,
    NON_NEGATIVE_SECONDS,
    PLAYER_COUNT,
    POSITIVE_SECONDS,
    engine_argv,
    output_file,
    output_folder,
    parse_pairs,
)
from rulespec.conformance.play.options import DEFAULT_BUDGET
from rulespec.exitcodes import EXIT_ENGINE, EXIT_FAILED, EXIT_OK, exit_code_for


def _pairs(values: Sequence[str], what: str) -> dict[str, str]:
    return parse_pairs(values, what, example="DDO-AMB-01=d8", shape="AMBIGUITY=OPTION")


def _params(values: Sequence[str]) -> dict[str, Any]:
    """Return --param NAME=VALUE pairs, each VALUE read as JSON (a bare word is a string)."""
    out: dict[str, Any] = {}
    for key, text in parse_pairs(values, "--param", example="target_score=30").items():
        try:
            out[key] = json.loads(text)
        except json.JSONDecodeError:
            out[key] = text
    return out


@click.command()
@click.option("--engine", "engine_cmd", metavar="CMD",
              help="Command that starts the engine under test (it speaks the engine protocol on "
                   "stdin/stdout). Without it, the reference is checked in-process.")
@click.option("--game", required=True, metavar="ID", help="Game id from `rulespec games`.")
@click.option("--players", "-n", type=PLAYER_COUNT, multiple=True,
              help="Player count to check (repeatable; default: every count). Like --ruling, "
                   "--variant and --param, it narrows every stage: configurations, rule "
                   "examples and golden traces.")
@click.option("--ruling", "-r", multiple=True, metavar="AMB=OPT",
              help="Ruling to check under (repeatable; others take their default).")
@click.option("--variant", "-v", multiple=True, metavar="ID", help="Variant to enable (repeatable).")
@click.option("--param", "-p", "param", multiple=True, metavar="NAME=VALUE",
              help="Parameter override, VALUE in JSON (a bare word is a string); repeatable. "
                   "Played only if the engine's hello declares the parameter and the value is "
                   "in its range (an engine that declares no parameters is sent none).")
@click.option("--examples", type=AT_LEAST_ONE, default=40, show_default=True,
              help="Games Hypothesis plays per configuration (at least 1), as far as the "
                   "--budget allows.")
@click.option("--budget", type=NON_NEGATIVE_SECONDS, default=DEFAULT_BUDGET, show_default=True,
              help="Wall-clock seconds for the run, spent by priority: rule examples, golden "
                   "traces and PERFT first, then games in rounds over every configuration, then "
                   "games sought for what play missed. A failure found is still shrunk. "
                   "0: no limit (every game of --examples is played).")
@click.option("--fail-fast", "-x", is_flag=True,
              help="Stop at the first failure (once it is shrunk and written).")
@click.option("--max-steps", type=AT_LEAST_ONE, default=3000, show_default=True,
              help="Longest game played, in actions (at least 1).")
@click.option("--timeout", type=POSITIVE_SECONDS, default=10.0, show_default=True,
              help="Seconds the engine may take to answer one call (more than 0).")
@click.option("--seed", type=int, default=None, help="Hypothesis seed (default: derandomized).")
@click.option("--report", "report_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Also write the report to this file.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "junit"]), default="text",
              show_default=True, help="Report format.")
@click.option("--trace-dir", type=click.Path(path_type=Path, file_okay=False),
              default=Path("rulespec-failures"), show_default=True,
              help="Where minimal failing traces are written.")
@click.option("--no-golden", is_flag=True, help="Skip the golden trace replays.")
@click.option("--full", is_flag=True,
              help="Check the state schema and every invariant on every state (slower; by "
                   "default on every state that differs from the reference's, every terminal "
                   "state and a sample of the others).")
@click.option("--declared", is_flag=True,
              help="Play every ruling option the engine declares in hello, each at least once "
                   "and every pair of options of two ambiguities in some configuration (a "
                   "covering array over the player counts), instead of the defaults only.")
@click.option("--infer", is_flag=True,
              help="Instead of checking, report the engine's ruling profile: per ambiguity record "
                   "and player count, the option it follows, shown by the spec's witnesses (the "
                   "example of each option that holds under it alone), or that it follows none "
                   "(a bug: exit 1). It also plays --examples games (at most 3) per player count "
                   "on the engine alone, within a few seconds in all, for what no witness "
                   "decides and to check what they show.")
@click.option("--infer-seconds", type=NON_NEGATIVE_SECONDS, default=None,
              help="With --infer: wall-clock seconds the steered games may take in all, where "
                   "neither witness nor random game tells a record's options apart (default: "
                   "40). The records the engine was seen to play otherwise at another player "
                   "count are searched first. The games depend only on --seed, the record and "
                   "the count; a search the time cut short says so, and a larger budget (or a "
                   "less busy machine) goes further. 0: no steered games.")
@click.option("--jobs", "-j", type=AT_LEAST_ONE, default=None,
              help="Engine processes checking configurations at once (at least 1; default: the "
                   "cores). The report is the same whatever the number.")
@click.option("--spec-version", metavar="VERSION", default=None,
              help="Check the engine as this release of the spec (`rulespec releases GAME`), "
                   "whatever its hello declares: records added later are held at their "
                   "default and not sent, what needs them is skipped and counted, and the "
                   "MAJOR changes since are named (default: the spec_version the engine "
                   "declares; none declared: today's).")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress display (there is none off a terminal either).")
def conform(engine_cmd: str | None, game: str, players: tuple[int, ...], ruling: tuple[str, ...],
            variant: tuple[str, ...], examples: int, budget: float, fail_fast: bool,
            max_steps: int, timeout: float, seed: int | None, report_path: Path | None,
            fmt: str, trace_dir: Path, no_golden: bool, full: bool, infer: bool,
            param: tuple[str, ...], declared: bool, infer_seconds: float | None,
            jobs: int | None, spec_version: str | None, quiet: bool) -> None:
    """Check an engine against a game's spec, rule by rule.

    Each failure is printed on standard error as soon as it is found (once per cause); the
    report follows at the end. Exits 0 when conformant, 1 when a check failed, 2 on a usage
    error, 3 when the engine cannot be started or never answers hello. The engine runs in its
    own process group and is ended with the kit, however the kit ends (SIGINT, SIGTERM,
    SIGHUP, an error).
    """
    from rulespec.conformance.engine.adapters import InProcessAdapter, SubprocessAdapter
    from rulespec.conformance.engine.processes import ending_engines_on_signals
    from rulespec.conformance.play.parallel import default_jobs
    from rulespec.conformance.play.progress import on_terminal
    from rulespec.conformance.play.runner import Options, check_engine
    from rulespec.conformance.reports.report import FoundStream, render
    from rulespec.reference.core import ConfigError
    from rulespec.spec.errors import RulespecError
    from rulespec.spec.registry import UnknownGame, get_spec

    try:
        spec = get_spec(game)
    except UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    for n in players:
        if not spec.min_players <= n <= spec.max_players:
            raise click.UsageError(f"{game} is for {spec.min_players} to {spec.max_players} "
                                   f"players, not {n}")
    if examples < 1:
        raise click.UsageError("--examples must be at least 1")
    rulings = _pairs(ruling, "--ruling")
    parameters = _params(param)
    argv = engine_argv(engine_cmd)
    output_file(report_path, "--report")
    output_folder(trace_dir, "--trace-dir")
    adapter: Any
    if argv is not None and engine_cmd is not None:
        adapter = SubprocessAdapter(argv, timeout=timeout)
        name = engine_cmd
    else:
        adapter = InProcessAdapter()
        name = "reference (in-process)"
    if infer:
        with ending_engines_on_signals():
            try:
                _handshake(adapter)
                _infer(adapter, game, players, rulings, variant, min(examples, 10),
                       min(max_steps, 500), seed or 0, fmt, report_path, engine_name=name,
                       spec_version=spec_version, steer_seconds=infer_seconds)
            finally:
                adapter.close()
        return
    options = Options(examples=examples, max_steps=max_steps, seed=seed, trace_dir=trace_dir,
                      golden=not no_golden, full=full, spec_version=spec_version,
                      jobs=default_jobs() if jobs is None else jobs,
                      budget=budget or None, fail_fast=fail_fast)
    with ending_engines_on_signals():
        try:
            _handshake(adapter)
            _asked_is_declared(adapter, spec, players, rulings, variant, parameters, spec_version)
            report = check_engine(adapter, game, players=players or None, rulings=rulings,
                                  variants=variant, options=options, engine_name=name,
                                  parameters=parameters, declared=declared,
                                  show_progress=not quiet and on_terminal(),
                                  on_failure=None if quiet else FoundStream(
                                      fail_fast=fail_fast))
        except ConfigError as exc:
            raise click.UsageError(str(exc)) from None
        except RulespecError as exc:
            click.echo(f"rulespec: {exc}", err=True)
            sys.exit(exit_code_for(exc))
        finally:
            adapter.close()
    text = render(report, fmt)
    if report_path is not None:
        report_path.write_text(text, encoding="utf-8")
    click.echo(text, nl=False)  # in the format asked for, so `--format json` pipes into tools
    checked = any(r.skipped is None for r in report.runs)
    sys.exit(EXIT_OK if report.ok and checked else EXIT_FAILED)


def _infer(adapter: Any, game: str, players: Sequence[int], rulings: dict[str, str],
           variants: Sequence[str], games: int, max_steps: int, seed: int, fmt: str,
           report_path: Path | None, *, engine_name: str = "engine",
           spec_version: str | None = None, steer_seconds: float | None = None) -> None:
    """Print the ruling profile of the engine behind ``adapter`` (``conform --infer``).

    The spec's witnesses decide first (``rulespec.conformance.explain.profile``); ``games`` games of at
    most ``max_steps`` actions are played per player count only for what they leave open. Exits
    1 when the engine follows no option of a record (a plain bug).
    """
    from rulespec.conformance.engine.protocol import EngineError, EngineFailure
    from rulespec.conformance.explain.profile import PLAY_GAMES, PLAY_STEPS, infer_ruling_profile
    from rulespec.conformance.reports.profile_report import render_text, to_json
    from rulespec.reference.core import ConfigError
    from rulespec.reference.registry import engine_class
    from rulespec.spec.errors import RulespecError
    from rulespec.spec.registry import get_spec

    spec = get_spec(game)
    try:
        profile = infer_ruling_profile(adapter, spec, engine_class(spec), players=players,
                                       rulings=rulings, variants=variants,
                                       engine_name=engine_name, spec_version=spec_version,
                                       games=min(games, PLAY_GAMES),
                                       max_steps=min(max_steps, PLAY_STEPS), seed=seed,
                                       steer_seconds=steer_seconds)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    except (EngineFailure, EngineError) as exc:
        click.echo(f"rulespec: the engine broke down while profiling: {exc}; run the kit "
                   "without --infer to see where", err=True)
        sys.exit(EXIT_FAILED)
    except RulespecError as exc:
        click.echo(f"rulespec: {exc}", err=True)
        sys.exit(exit_code_for(exc))
    text = (json.dumps(to_json(profile), indent=2) + "\n" if fmt == "json"
            else render_text(profile))
    if report_path is not None:
        report_path.write_text(text, encoding="utf-8")
    click.echo(text, nl=False)
    if profile.bugs():
        sys.exit(EXIT_FAILED)


def _asked_is_declared(adapter: Any, spec: Any, players: Sequence[int], rulings: dict[str, str],
                       variants: Sequence[str], parameters: dict[str, Any],
                       spec_version: str | None) -> None:
    """Refuse (exit 2) a --ruling, --variant or --param the engine's hello does not declare:
    nothing could be checked under it. The error names what to add to hello."""
    from rulespec.conformance.judging.scope import NotDeclared, Scope, asked_undeclared
    from rulespec.conformance.judging.versions import view_for

    if not (rulings or variants or parameters):
        return
    hello = adapter.hello()
    scope = Scope(frozenset(players), rulings, tuple(variants) if variants else None,
                  parameters)
    problem = asked_undeclared(spec, hello, scope,
                               view_for(spec, hello, override=spec_version).newer)
    if problem is not None:
        raise NotDeclared(problem)


def _handshake(adapter: Any) -> None:
    """Say hello to the engine first: one that cannot start or answer it exits with code 3."""
    from rulespec.conformance.engine.protocol import EngineFailure

    try:
        adapter.hello()
    except EngineFailure as exc:
        adapter.close()
        click.echo(f"rulespec: the engine under test failed to run: {exc}", err=True)
        sys.exit(EXIT_ENGINE)


@click.command()
@click.argument("games", nargs=-1)
def serve(games: tuple[str, ...]) -> None:
    """Serve the reference engine of GAMES (default: all) over the engine protocol."""
    from rulespec.conformance.engine.adapters import InProcessAdapter
    from rulespec.conformance.engine.server import serve as run_server
    from rulespec.reference.registry import engine_class
    from rulespec.spec.registry import UnknownGame, get_spec

    try:
        engines = {g: engine_class(get_spec(g)) for g in games} if games else None
    except UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(run_server(InProcessAdapter(engines, name="rulespec-reference")))


@click.command("conform-bench")
@click.argument("games", nargs=-1)
@click.option("--engine", "engine_cmd", metavar="CMD",
              help="Engine command for the protocol figure (default: `rulespec serve GAME`).")
@click.option("--examples", type=AT_LEAST_ONE, default=30, show_default=True,
              help="Games per configuration and path (at least 1).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True,
              help="text: a row per path as soon as it is measured; json: every figure with its "
                   "goal, at the end.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress display (there is none off a terminal either).")
def conform_bench(games: tuple[str, ...], engine_cmd: str | None, examples: int,
                  fmt: str, quiet: bool) -> None:
    """Print how many steps per second the kit checks, in-process and over the protocol."""
    from rulespec.conformance.engine.processes import ending_engines_on_signals
    from rulespec.conformance.play.bench import PATHS, bench
    from rulespec.conformance.play.progress import on_terminal
    from rulespec.spec.registry import UnknownGame, game_ids, get_spec

    engine_argv(engine_cmd)
    try:
        for g in games:
            get_spec(g)
    except UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    ids = list(games or game_ids())
    if fmt == "text":
        click.echo(f"{'game':14} {'path/mode':24} {'steps':>8} {'seconds':>8} {'steps/s':>9} "
                   f"{'goal':>8}")

    def row(game: str, path: str, r: dict[str, Any]) -> None:
        if fmt != "text":
            return
        goal = (f"{r['goal']:8d}{'' if r['meets_goal'] else ' (not met)'}" if "goal" in r
                else f"{'-':>8}")
        click.echo(f"{game:14} {path:24} {r['steps']:8d} {r['seconds']:8.2f} "
                   f"{r['steps_per_second']:9.0f} {goal}")

    with ending_engines_on_signals(), _BenchProgress(len(ids) * len(PATHS),
                                                     not quiet and on_terminal()) as shown:

        def measured(game: str, path: str, figures: dict[str, Any]) -> None:
            shown.done()
            row(game, path, figures)

        rows = [bench(g, engine_cmd=engine_cmd, examples=examples, on_start=shown.start,
                      on_row=measured) for g in ids]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))


class _BenchProgress:
    """The progress of ``conform-bench`` on standard error: paths measured, steps, current."""

    def __init__(self, total: int, show: bool) -> None:
        self.total = total
        self.show = show
        self._stack: Any = None
        self._progress: Any = None

    def __enter__(self) -> _BenchProgress:
        if self.show:
            from contextlib import ExitStack

            from rulespec.conformance.play.progress import KitProgress

            self._stack = ExitStack()
            self._kit: Any = None
            self._progress = self._stack.enter_context(KitProgress(
                "conform-bench", self.total,
                lambda: 0 if self._kit is None else int(self._kit.steps_checked),
                unit="paths"))
        return self

    def __exit__(self, *exc: object) -> None:
        if self._stack is not None:
            self._stack.close()

    def start(self, game: str, path: str, kit: Any) -> None:
        if self._progress is not None:
            self._kit = kit
            self._progress.activity(f"{game} {path}")

    def done(self) -> None:
        if self._progress is not None:
            self._progress.advance()


COMMANDS = (conform, serve, conform_bench)
