"""The ``rulespec`` command: games, validate, golden, play, replay, ambiguities, bench.

Exit codes (``rulespec.exitcodes``): 0 ok, 1 a check failed, 2 a usage or input error (unknown
game, bad option, missing or unreadable file), 3 the engine under test failed to run.
"""

from __future__ import annotations

import json
import random
import sys
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

import click

from rulespec.cliargs import AT_LEAST_ONE, PLAYER_COUNT, POSITIVE_SECONDS, output_file
from rulespec.exitcodes import EXIT_FAILED, EXIT_OK, EXIT_USAGE, exit_code_for
from rulespec.spec.errors import RulespecError, SpecError


class UsageError(click.UsageError):
    """A usage error that exits with code 2 and a sentence saying what to do."""


def _fail(message: str, code: int = EXIT_FAILED) -> NoReturn:
    click.echo(f"rulespec: {message}", err=True)
    sys.exit(code)


def _parse_pairs(values: Sequence[str], what: str, *, json_values: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    raw: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key or not value:
            raise UsageError(f"{what} {item!r} must look like NAME=VALUE")
        if raw.setdefault(key, value) != value:
            raise UsageError(f"{what} gives {key} twice ({raw[key]!r} and {value!r}); choose one")
        if json_values:
            try:
                out[key] = json.loads(value)
            except json.JSONDecodeError:
                out[key] = value
        else:
            out[key] = value
    return out


#: Commands defined in other modules, imported only when one of them is asked for (or the
#: whole list is, for --help): "module:attribute", the attribute a command or a tuple of them.
LAZY_COMMANDS = ("rulespec.conformance.cli:COMMANDS", "rulespec.conformance.matrix.cli:matrix",
                 "rulespec.perft_cli:perft",
                 "rulespec.examples.cli:examples", "rulespec.impact.cli:impact",
                 "rulespec.releases.cli:COMMANDS", "rulespec.docsgen.command:docs",
                 "rulespec.scaffold.newgame:new_game", "rulespec.verify.cli:verify")


class _LazyGroup(click.Group):
    """A group that imports the modules of its other commands only when they are needed, so
    that ``rulespec games`` does not pay for the conformance kit's imports."""

    _lazy_loaded = False

    def _load_lazy(self) -> None:
        if self._lazy_loaded:
            return
        self._lazy_loaded = True
        from importlib import import_module

        for ref in LAZY_COMMANDS:
            module, _, attr = ref.partition(":")
            found = getattr(import_module(module), attr)
            for command in found if isinstance(found, tuple) else (found,):
                self.add_command(command)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands:
            self._load_lazy()
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_lazy()
        return super().list_commands(ctx)


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rulespec")
def cli() -> None:
    """Machine-checkable specifications of printed tabletop rulebooks.

    Exit codes, for every command: 0 ok; 1 a check failed (a spec problem, a conformance
    failure, a replay that disagrees); 2 a usage or input error (bad option or value, unknown
    game, missing or unreadable file, a malformed trace), reported before any work is done;
    3 the engine under test failed to run (cannot be started, or never answered hello);
    130 or 143 when interrupted by SIGINT or SIGTERM.
    """


# -- games ------------------------------------------------------------------------------------


@cli.command()
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
def games(fmt: str) -> None:
    """List the games in the registry, and any registered game that cannot be used, with why.

    A broken plugin (one that fails to load or validate, or registers an id another
    distribution has) is named in the text listing and on standard error; the JSON listing
    holds the usable games only, as before.
    """
    from rulespec.spec.registry import PluginWarning, all_specs, broken_games

    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PluginWarning)  # listed below, as BROKEN
        specs = all_specs()
    for spec in specs:
        rows.append({
            "id": spec.game_id,
            "name": spec.name,
            "english": spec.data["game"]["names"]["english"],
            "players": [spec.min_players, spec.max_players],
            "spec_version": spec.version,
            "clauses": len(spec.section("clauses")),
            "ambiguities": len(spec.section("ambiguities")),
            "variants": len(spec.section("variants")),
        })
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        name = r["name"] if r["english"] == r["name"] else f"{r['name']} ({r['english']})"
        low, high = r["players"]
        count = f"{low}" if low == high else f"{low}-{high}"
        click.echo(f"{r['id']:<14} {name}, {count} players, spec {r['spec_version']}: "
                   f"{r['clauses']} clauses, {_plural(r['ambiguities'], 'ambiguity', 'ambiguities')}"
                   f", {_plural(r['variants'], 'variant', 'variants')}")
    for game_id, problem in broken_games().items():
        click.echo(f"{game_id:<14} BROKEN, skipped: {problem}")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


# -- validate ---------------------------------------------------------------------------------


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--sources", type=click.Path(path_type=Path, file_okay=False),
              help="Folder of rulebook texts: check every quote is verbatim in its source "
                   "(default: the folder the game's package registers, if any).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
def validate(paths: tuple[Path, ...], sources: Path | None, fmt: str) -> None:
    """Validate spec files or folders of them (default: every spec in the registry).

    Checks the JSON Schema, then ids, references, tables, component counts, expressions and
    that the reference implements every ambiguity option; then every quote and the sha256 of
    every source, against --sources or else the rulebook folder the game registers.
    """
    from rulespec.examples.model import example_problems
    from rulespec.reference.registry import check_implementation
    from rulespec.spec.errors import Problem, RulespecDeprecationWarning
    from rulespec.spec.registry import installed_registry, spec_paths
    from rulespec.spec.validate import load_spec

    if sources is not None and not sources.is_dir():
        raise UsageError(f"--sources {str(sources)!r} is not a folder")
    targets: list[Path] = []
    for path in paths:
        if not path.exists():
            raise UsageError(f"no such file or folder: {str(path)!r}")
        if path.is_dir():
            found = sorted(path.glob("*.yaml"))
            if not found:
                raise UsageError(f"folder {str(path)!r} holds no *.yaml spec files")
            targets += found
        else:
            targets.append(path)
    report: list[dict[str, Any]] = []
    if not targets:  # every registered spec, and every registration that cannot be used
        targets = spec_paths()
        for game_id, why in installed_registry().problems.items():
            problem = Problem(f"game {game_id!r}", 0, 0, "$", why)
            report.append({"file": f"game {game_id!r}", "ok": False, "sources": None,
                           "problems": [problem.to_json()], "text": [str(problem)]})
    if not targets and not report:
        raise UsageError("no spec files to validate")
    registered_rulebooks = _registered_rulebooks() if sources is None else {}
    for path in targets:
        folder = sources or registered_rulebooks.get(_key(path))
        problems: list[Any] = []
        outdated: list[Any] = []
        try:
            with warnings.catch_warnings():  # each place is listed below, as a warning
                warnings.simplefilter("ignore", RulespecDeprecationWarning)
                spec = load_spec(path, sources=folder)
            outdated = list(spec.warnings)
            if spec.data["game"]["reference"]:
                problems += check_implementation(spec)
            problems += example_problems(spec)
        except SpecError as exc:
            problems += list(exc.problems)
        report.append({"file": str(path), "ok": not problems,
                       "sources": None if folder is None else str(folder),
                       "problems": [p.to_json() for p in problems],
                       "warnings": [p.to_json() for p in outdated],
                       "text": [str(p) for p in problems]
                       + [f"warning: {p}" for p in outdated]})
    failed = any(not r["ok"] for r in report)
    if fmt == "json":
        click.echo(json.dumps([{k: v for k, v in r.items() if k != "text"} for r in report],
                              indent=2, ensure_ascii=False))
    else:
        for r in report:
            where = (f"quotes checked against {r['sources']}" if r["sources"] else
                     "quotes not checked: no rulebook folder registered, pass --sources DIR")
            status = "ok" if r["ok"] else f"{len(r['problems'])} problem(s)"
            if r.get("warnings"):
                status += f", {len(r['warnings'])} warning(s)"
            click.echo(f"{r['file']}: {status} ({where})")
            for line in r["text"]:
                click.echo(line)
        bad = sum(len(r["problems"]) for r in report)
        warned = sum(len(r.get("warnings", [])) for r in report)
        click.echo(f"{len(report)} spec(s) checked, {bad} problem(s)"
                   + (f", {warned} warning(s): run 'rulespec upgrade SPEC'" if warned else ""))
    sys.exit(EXIT_FAILED if failed else EXIT_OK)


@cli.command()
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option("--dry-run", is_flag=True, help="Print the rewrite as a diff; write nothing.")
def upgrade(paths: tuple[Path, ...], dry_run: bool) -> None:
    """Rewrite spec files of an older format to the current one.

    Mechanical changes are made; what a person must decide (a record's effect, which elements
    read a record) is written the cautious way and marked TODO(rulespec upgrade). The result is
    validated before it is written, and written whole. A spec that still needs a person keeps
    its format, with the mechanical edits made. Exit 0 when every spec is at the current format,
    1 when some need a person, 2 when one cannot be read or rewritten (nothing written).
    """
    from rulespec.spec.upgrade import plan, write

    behind = 0
    for path in paths:
        result = plan(path)
        if not result.changed:
            click.echo(f"{path}: format {result.declared}, nothing to do")
            continue
        if dry_run:
            click.echo(result.diff(), nl=False)
        else:
            write(result)
        verb = "would be" if dry_run else "was"
        reached = not result.todo
        click.echo(f"{path}: {verb} rewritten from {result.declared}"
                   + (f" to {result.target}" if reached else f" (still {result.declared})"))
        for line in result.done:
            click.echo(f"  done: {line}")
        for line in result.todo:
            click.echo(f"  to do: {line}")
        behind += not reached
    sys.exit(EXIT_FAILED if behind else EXIT_OK)


def _key(path: Path) -> str:
    """Return a spelling of ``path`` that two names of one file share."""
    return str(path.resolve())


def _registered_rulebooks() -> dict[str, Path]:
    """Return spec file -> the rulebook folder its game's package registers (games with one)."""
    from rulespec.spec.registry import registry

    return {_key(g.spec_path): g.package.rulebooks for g in registry().games.values()
            if g.package.rulebooks is not None}


# -- golden -----------------------------------------------------------------------------------


@cli.command()
@click.argument("games", nargs=-1, metavar="[GAME]...")
@click.option("--check", is_flag=True,
              help="Write nothing: compare the committed traces with fresh playouts; exit 1 "
                   "on any difference.")
def golden(games: tuple[str, ...], check: bool) -> None:
    """Write (or --check) the golden traces of GAMEs into the folder each game registers.

    Default: every registered game that registers a trace folder. The traces are reference
    games chosen from the spec (player counts, ruling options, variants) with fixed seeds, so
    writing twice gives the same files; commit them, and run --check in CI.
    """
    from rulespec.conformance.play import golden as traces
    from rulespec.reference.core import ConfigError
    from rulespec.spec.registry import UnknownGame, registered, usable_game_ids

    try:
        chosen = list(games) or [g for g in usable_game_ids() if registered(g).package.traces]
        for game in chosen:
            traces.trace_dir(game)
    except (UnknownGame, ConfigError) as exc:
        raise UsageError(str(exc)) from None
    if check:
        problems = traces.differences(games=chosen)
        for problem in problems:
            click.echo(problem)
        click.echo(f"{len(chosen)} game(s) checked, {len(problems)} difference(s)")
        sys.exit(EXIT_FAILED if problems else EXIT_OK)
    for path in traces.write(games=chosen):
        click.echo(f"wrote {path}")
    for note in traces.skipped(chosen):
        click.echo(f"skipped {note}")


# -- play -------------------------------------------------------------------------------------


def _engine_from_options(game: str, players: int | None, ruling: Sequence[str],
                         variant: Sequence[str], param: Sequence[str]) -> Any:
    from rulespec.reference.core import ConfigError
    from rulespec.reference.registry import new_game
    from rulespec.spec.registry import UnknownGame

    try:
        return new_game(game, players=players, rulings=_parse_pairs(ruling, "--ruling"),
                        variants=list(variant),
                        parameters=_parse_pairs(param, "--param", json_values=True))
    except (UnknownGame, ConfigError) as exc:
        raise UsageError(str(exc)) from None


_config_options = [
    click.option("--players", "-n", type=PLAYER_COUNT,
                 help="Number of players (default: the minimum)."),
    click.option("--ruling", "-r", multiple=True, metavar="AMB=OPTION",
                 help="Choose an option of an ambiguity (repeatable)."),
    click.option("--variant", "-v", multiple=True, metavar="VARIANT",
                 help="Play a variant (repeatable)."),
    click.option("--param", "-p", multiple=True, metavar="NAME=VALUE",
                 help="Override a parameter; VALUE is JSON (repeatable)."),
]


def config_options(func: Any) -> Any:
    """Add the configuration options shared by commands that start a game."""
    for option in reversed(_config_options):
        func = option(func)
    return func


@cli.command()
@click.argument("game", required=False)
@config_options
@click.option("--all", "all_games", is_flag=True,
              help="Play one game of every registered game (with their defaults).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--trace", "trace_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the game as a JSON Lines trace.")
@click.option("--states/--no-states", default=True, show_default=True,
              help="Record the state before and after every step in the --trace file (in full "
                   "every few steps, as deltas between); --no-states records the actions only.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the result.")
@click.option("--max-steps", type=AT_LEAST_ONE, default=1_000_000, show_default=True,
              help="Give up after this many actions (at least 1).")
def play(game: str | None, players: int | None, ruling: tuple[str, ...],
         variant: tuple[str, ...], param: tuple[str, ...], all_games: bool, seed: int,
         trace_path: Path | None, states: bool, quiet: bool, max_steps: int) -> None:
    """Play one game with random decisions and narrate it."""
    from rulespec.spec.registry import usable_game_ids

    if all_games:
        if game or players or ruling or variant or param or trace_path:
            raise UsageError("--all plays every game with its defaults; give no GAME or options")
        for gid in usable_game_ids():
            _play_one(gid, None, (), (), (), seed, None, quiet, max_steps)
        return
    if game is None:
        raise UsageError("name a GAME (see 'rulespec games') or pass --all")
    output_file(trace_path, "--trace")
    _play_one(game, players, ruling, variant, param, seed, trace_path, quiet, max_steps,
              states=states)


def _play_one(game: str, players: int | None, ruling: Sequence[str], variant: Sequence[str],
              param: Sequence[str], seed: int, trace_path: Path | None, quiet: bool,
              max_steps: int, *, states: bool = True) -> None:
    from rulespec.reference.play import random_policy
    from rulespec.reference.trace import Recorder

    engine = _engine_from_options(game, players, ruling, variant, param)
    # States cost a state per step; only a trace file needs them.
    recorder = Recorder(engine, with_states=states and trace_path is not None)
    rng = random.Random(seed)
    rulings = ", ".join(f"{k}={v}" for k, v in sorted(engine.config.rulings.items()))
    if not quiet:
        click.echo(f"{engine.spec.name}: {engine.players} players, seed {seed}")
        click.echo(f"rulings: {rulings or 'none'}")
        if engine.config.variants:
            click.echo(f"variants: {', '.join(engine.config.variants)}")
    for _ in range(max_steps):
        actor = engine.current_player()
        if actor is None:
            break
        action = random_policy(engine, rng)
        recorder.apply(action)
        if not quiet:
            click.echo(f"{len(recorder.steps):>6}  {engine.describe(action, actor)}")
    else:
        _fail(f"the game did not end within {max_steps} actions; raise --max-steps")
    result = engine.result()
    click.echo(f"{game}: result after {len(recorder.steps)} actions: {_result_text(result)}")
    if trace_path is not None:
        try:
            recorder.trace().write(trace_path)
        except OSError as exc:
            _fail(f"--trace {str(trace_path)!r}: cannot write: {exc.strerror}", EXIT_USAGE)
        click.echo(f"trace written to {trace_path}")


def _result_text(result: Mapping[str, Any] | None) -> str:
    if result is None:
        return "none"
    winners = result.get("winners", [])
    scores = result.get("scores", [])
    names = ", ".join(f"player {w}" for w in winners) or "nobody"
    return f"winner(s): {names}; scores: {scores}"


# -- replay -----------------------------------------------------------------------------------


@cli.command()
@click.argument("trace_path", metavar="TRACE", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
def replay(trace_path: Path, fmt: str) -> None:
    """Re-run a trace on the reference engine and name the first step that disagrees."""
    from rulespec.reference.trace import TraceError, read_trace
    from rulespec.reference.trace import replay as run_replay
    from rulespec.spec.registry import UnknownGame

    if not trace_path.exists():
        raise UsageError(f"no such trace file: {str(trace_path)!r}")
    try:
        trace = read_trace(trace_path)
        outcome = run_replay(trace)
    except TraceError as exc:
        if fmt == "json":
            click.echo(json.dumps({"ok": False, "error": str(exc)}))
        _fail(str(exc), EXIT_USAGE)
    except UnknownGame as exc:
        _fail(f"{trace_path}: {exc}", EXIT_USAGE)
    if fmt == "json":
        click.echo(json.dumps({"ok": outcome.ok, "steps": outcome.steps, "step": outcome.step,
                               "message": outcome.message, "diff": list(outcome.diff),
                               "clauses": list(outcome.clauses),
                               "recorded_failure": trace.failure}))
    else:
        click.echo(f"{trace_path}: {'ok' if outcome.ok else 'FAILED'}: {outcome.message}")
        if trace.failure is not None:
            # A failure the kit wrote: what the engine did wrong may not be in a state (a
            # legal-action or chance difference), so say what the trace records.
            at = trace.failure.get("step")
            where = "" if at is None else f" at step {at}"
            click.echo(f"the trace records the kit's {trace.failure['check']} failure{where}: "
                       f"{trace.failure['message']}")
    sys.exit(EXIT_OK if outcome.ok else EXIT_FAILED)


# -- ambiguities ------------------------------------------------------------------------------


STATUSES = ["reported", "triaged", "ruled", "deferred", "resolved", "rejected", "duplicate"]


@cli.command()
@click.argument("game", required=False)
@click.option("--status", type=click.Choice(STATUSES), multiple=True,
              help="Only records with this status (repeatable).")
@click.option("--severity", type=click.Choice(["outcome", "cosmetic"]),
              help="Only records of this severity.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text",
              show_default=True, help="Output format.")
def ambiguities(game: str | None, status: tuple[str, ...], severity: str | None, fmt: str) -> None:
    """List the ambiguity register of one game or of all of them."""
    from rulespec.spec.registry import UnknownGame, all_specs, get_spec

    try:
        specs = [get_spec(game)] if game else all_specs()
    except UnknownGame as exc:
        raise UsageError(str(exc)) from None
    records: list[dict[str, Any]] = []
    for spec in specs:
        for amb in spec.section("ambiguities"):
            if status and amb["status"] not in status:
                continue
            if severity and amb["severity"] != severity:
                continue
            records.append({"game": spec.game_id, **amb})
    if not records and fmt != "json":
        # Say so on stderr: an empty table alone looks like a broken command.
        wanted = ", ".join([*status, *([severity] if severity else [])])
        click.echo(f"rulespec: no ambiguity record is {wanted or 'registered'}; statuses in use: "
                   f"{', '.join(sorted({a['status'] for s in specs for a in s.section('ambiguities')}))}",
                   err=True)
    if fmt == "json":
        click.echo(json.dumps(records, indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        click.echo("| game | id | title | kind | severity | status | default |")
        click.echo("|---|---|---|---|---|---|---|")
        for r in records:
            title = str(r["title"]).replace("|", "\\|")
            click.echo(f"| {r['game']} | {r['id']} | {title} | {r['kind']} | {r['severity']} | "
                       f"{r['status']} | {r['default']['option']} |")
    else:
        for r in records:
            options = ", ".join(
                f"{o['id']}{'*' if o['id'] == r['default']['option'] else ''}" for o in r["options"])
            click.echo(f"{r['id']:<14} [{r['status']}, {r['severity']}, {r['kind']}] {r['title']}")
            click.echo(f"{'':<14} options: {options}")
        click.echo(f"{len(records)} record(s); * marks the default option")


# -- bench ------------------------------------------------------------------------------------


@cli.command()
@click.argument("games", nargs=-1)
@click.option("--players", "-n", type=PLAYER_COUNT, multiple=True,
              help="Player counts to measure (repeatable; default: the minimum and maximum).")
@click.option("--seconds", type=POSITIVE_SECONDS, default=2.0, show_default=True,
              help="Time to spend on each game and player count (more than 0).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress display (there is none off a terminal either).")
def bench(games: tuple[str, ...], players: tuple[int, ...], seconds: float, fmt: str,
          quiet: bool) -> None:
    """Measure random-playout speed of the reference engines (actions/s and games/s).

    Also the perft speed: tree nodes counted per second to ply 3 from the start. Text rows
    are printed as each measurement finishes; on a terminal a progress bar shows the rest.
    """
    from rulespec.reference.bench import HEADER, measure, progress_bar, row_text, show_progress
    from rulespec.reference.core import ConfigError
    from rulespec.reference.registry import new_game
    from rulespec.spec.registry import UnknownGame, game_ids, get_spec

    plan: list[tuple[str, int]] = []
    for game in games or game_ids():
        try:
            spec = get_spec(game)
        except UnknownGame as exc:
            raise UsageError(str(exc)) from None
        for n in players or tuple(sorted({spec.min_players, spec.max_players})):
            try:
                new_game(game, players=n)
            except ConfigError as exc:
                raise UsageError(str(exc)) from None
            plan.append((game, n))
    rows = []
    with progress_bar(len(plan), show_progress(quiet)) as update:
        if fmt == "text":
            click.echo(HEADER)
        for i, (game, n) in enumerate(plan):
            label = f"{game} p{n}"
            update(label, i)

            def tick(done: float, i: int = i, label: str = label) -> None:
                update(label, i + done)

            row = measure(game, n, seconds, tick=tick)
            rows.append(row)
            if fmt == "text":
                click.echo(row_text(row))
        update("done", len(plan))
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2))


# -- entry point ------------------------------------------------------------------------------


# -- the conformance kit: conform, serve, conform-bench (implemented in conformance/cli.py) -----
# -- perft and examples too: the group imports them when asked for (LAZY_COMMANDS). ----------


def _interrupted(exc: BaseException) -> int | None:
    """Return the exit code if ``exc`` is the kit's Interrupted (only a loaded kit raises it:
    the kit is not imported to find out)."""
    module = sys.modules.get("rulespec.conformance.engine.processes")
    kind = getattr(module, "Interrupted", None)
    if isinstance(kind, type) and isinstance(exc, kind):
        return int(getattr(exc, "code", EXIT_FAILED))
    return None


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """Print rulespec's own warnings as one line each on standard error; others as Python does."""
    from rulespec.spec.errors import RulespecWarning

    if issubclass(category, RulespecWarning):
        kind = "deprecated" if issubclass(category, FutureWarning) else "warning"
        click.echo(f"rulespec: {kind}: {message}", err=True)
        return
    _PYTHON_SHOWWARNING(message, category, filename, lineno, file, line)


_PYTHON_SHOWWARNING = warnings.showwarning


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line; turn every rulespec error into a message and an exit code."""
    warnings.showwarning = _show_warning
    try:
        try:
            cli.main(args=list(argv) if argv is not None else None, prog_name="rulespec",
                     standalone_mode=False)
        except BaseException as exc:
            code = _interrupted(exc)
            if code is not None:
                _fail(f"{exc}; engines ended", code)
            raise
    except (click.exceptions.Abort, KeyboardInterrupt):
        _fail("interrupted", 130)
    except click.UsageError as exc:
        # One line: the problem, then where the command's help is.
        path = exc.ctx.command_path if exc.ctx is not None else "rulespec"
        click.echo(f"rulespec: {exc.format_message()} (see '{path} --help')", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        click.echo(f"rulespec: {exc.format_message()}", err=True)
        sys.exit(EXIT_USAGE)
    except RulespecError as exc:
        _fail(str(exc), exit_code_for(exc))
    except BrokenPipeError:
        sys.exit(EXIT_OK)
    sys.exit(EXIT_OK)
