"""``rulespec diff``, ``rulespec releases`` and ``rulespec freeze``.

Registered on the ``rulespec`` group through ``LAZY_COMMANDS`` in ``rulespec/cli.py``. Exit
codes: 0 ok; 1 ``--check`` failed (a new version smaller than its changes need); 2 a usage or
input error (unknown game or release, unreadable file, bad git revision).
"""

from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path
from typing import NoReturn

import click

from rulespec.exitcodes import EXIT_FAILED, EXIT_USAGE
from rulespec.releases.sides import Side
from rulespec.spec.errors import RulespecError


def _usage(message: str) -> NoReturn:
    click.echo(f"rulespec: {message}", err=True)
    sys.exit(EXIT_USAGE)


class _Progress:
    """Say on stderr what is being replayed, once the replay has taken more than a moment."""

    def __init__(self, *, quiet: bool, after: float = 1.0, every: float = 0.5) -> None:
        self.quiet = quiet
        self.start = time.monotonic()
        self.after, self.every = after, every
        self.last = 0.0
        self.tty = sys.stderr.isatty()

    def __call__(self, what: str) -> None:
        now = time.monotonic()
        if self.quiet or now - self.start < self.after or now - self.last < self.every:
            return
        self.last = now
        line = f"rulespec diff: {now - self.start:.0f}s, replaying {what}"
        if self.tty:
            click.echo(f"\r\033[K{line}", err=True, nl=False)
        else:
            click.echo(line, err=True)

    def done(self) -> None:
        if self.tty and self.last:
            click.echo("\r\033[K", err=True, nl=False)


def _plan(sides: tuple[str, ...], against: str | None, every: bool,
          previous: bool) -> list[tuple[str | None, str]]:
    """Return (old side or None for the previous release, new side) pairs to compare."""
    from rulespec.spec.registry import usable_game_ids

    if every:
        if sides or against:
            _usage("--all compares every game with its previous release; give no sides with it")
        return [(None, g) for g in usable_game_ids()]
    if previous:
        if against is not None or not sides:
            _usage("--previous compares each GAME or spec FILE given with its previous release; "
                   "give at least one and no --against")
        return [(None, side) for side in sides]
    if len(sides) == 2:
        if against is not None:
            _usage("give OLD NEW, or NEW --against OLD, not both")
        return [(sides[0], sides[1])]
    if len(sides) == 1 and against is not None:
        return [(against, sides[0])]
    if len(sides) == 1:
        return [(None, sides[0])]
    _usage("give OLD NEW (each a spec file, GAME@VERSION, git:REV:PATH or git:REV), NEW "
           "--against OLD, a game id or spec file to compare with its previous release, or --all")


def _previous(new: Side) -> str | None:
    """Return the release side today's ``new`` spec is checked against, or None."""
    from rulespec.releases.store import release_before

    found = release_before(new.spec.game_id, new.spec.version)
    return None if found is None else f"{new.spec.game_id}@{found.version}"


def _resolve_new(text: str, game: str | None, stack: contextlib.ExitStack) -> Side:
    """Resolve NEW; a bare game id is today's registered spec of that game."""
    from rulespec.releases.sides import resolve
    from rulespec.spec.registry import game_ids, get_spec

    if text in game_ids():
        spec = get_spec(text)
        return Side(spec, str(spec.path))
    return resolve(text, game=game, stack=stack)


@click.command("diff")
@click.argument("sides", nargs=-1)
@click.option("--against", metavar="OLD", help="Compare the one side given (NEW) against OLD.")
@click.option("--game", metavar="GAME", help="The game of a git:REV side that says none.")
@click.option("--all", "every", is_flag=True,
              help="Compare today's spec of every game with its previous release.")
@click.option("--previous", is_flag=True, help="Compare each GAME or spec FILE given with its "
              "game's previous release (for pre-commit, which passes file names).")
@click.option("--check", is_flag=True, help="Exit 1 when NEW's version is smaller than its "
              "changes need.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]),
              default="text", show_default=True, help="text for people, markdown for the "
              "bulletin, json for tools.")
@click.option("--no-behaviour", "no_behaviour", is_flag=True,
              help="Compare the text only: do not replay OLD's traces, examples and perft tables.")
@click.option("--verbose", "-v", is_flag=True, help="List every PATCH change (text format).")
@click.option("--quiet", "-q", is_flag=True, help="No progress on stderr.")
@click.option("--for-implementers", "for_implementers", is_flag=True,
              help="Say what an engine of OLD must add to its hello (records, options, "
              "parameters, variants) and change in behaviour (the MAJOR changes) to claim NEW.")
def diff(sides: tuple[str, ...], against: str | None, game: str | None, every: bool,
         previous: bool, check: bool, fmt: str, no_behaviour: bool, verbose: bool, quiet: bool,
         for_implementers: bool = False) -> None:
    """Classify every change from OLD to NEW and the version bump it needs.

    Each side is a spec file, a release GAME@VERSION, git:REV:PATH, or git:REV (with --game or
    a game from the other side). With one side alone (a game id stands for today's spec), with
    --previous, or with --all, NEW is compared with its previous release: the frozen copy of
    its spec_version, else the newest frozen release before it. Every change has a stable rule name and a level (docs/editors/versioning.md);
    OLD's golden traces, rule examples and perft tables are replayed on NEW's reference.

    Exit codes: 0 ok; 1 with --check, NEW's version is smaller than its changes need; 2 a usage
    or input error.
    """
    from rulespec.releases.diff import diff_specs
    from rulespec.releases.report import render
    from rulespec.releases.sides import game_of, resolve

    failed = False
    outputs: list[str] = []
    try:
        for given_old, new_text in _plan(sides, against, every, previous):
            old_text = given_old
            hint = game or game_of(new_text) or (game_of(old_text) if old_text else None)
            progress = _Progress(quiet=quiet)
            with contextlib.ExitStack() as stack:
                new_side = _resolve_new(new_text, hint, stack)
                if old_text is None:
                    old_text = _previous(new_side)
                    if old_text is None:
                        message = (f"{new_side.spec.game_id}: no frozen release to compare "
                                   f"{new_side.label} against (its spec records none in "
                                   "game.releases, or none is frozen)")
                        if every or previous:
                            click.echo(f"rulespec diff: {message}; not checked", err=True)
                            continue
                        _usage(f"{message}; record and freeze one (docs/editors/versioning.md)"
                               " or give OLD NEW")
                old_side = resolve(old_text, game=hint or new_side.spec.game_id, stack=stack)
                result = diff_specs(old_side.spec, new_side.spec, behaviour=not no_behaviour,
                                    progress=progress, old_label=old_side.label,
                                    new_label=new_side.label)
                progress.done()
                if for_implementers:
                    from rulespec.releases.implementers import migration
                    from rulespec.releases.implementers import render as render_migration

                    outputs.append(render_migration(migration(
                        old_side.spec, new_side.spec, result, new_label=new_side.spec.version),
                        fmt).rstrip("\n"))
                else:
                    outputs.append(render(result, fmt, new=new_side.spec, verbose=verbose))
            failed = failed or not result.ok
    except RulespecError as exc:
        _usage(str(exc))
    if fmt == "json" and len(outputs) > 1:
        click.echo("[" + ",\n".join(outputs) + "]")
    elif outputs:
        click.echo("\n\n".join(outputs))
    if check and failed:
        sys.exit(EXIT_FAILED)


@click.command("releases")
@click.argument("game")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
def releases_command(game: str, fmt: str) -> None:
    """List the releases of GAME (oldest first) and whether each is frozen.

    Exit codes: 0 listed (a game that records none says so); 2 an unknown game.
    """
    import json

    from rulespec.releases.store import frozen_releases, releases

    try:
        listed = releases(game)
        frozen = {r.version for r in frozen_releases(game)}
    except RulespecError as exc:
        _usage(str(exc))
    if fmt == "json":
        click.echo(json.dumps([{"game": r.game, "version": r.version, "date": r.date,
                                "summary": r.summary, "frozen": r.version in frozen}
                               for r in listed], indent=2, ensure_ascii=False))
        return
    if not listed:
        click.echo(f"{game} records no releases (no game.releases in its spec)")
    for r in listed:
        mark = "" if r.version in frozen else "  (not frozen)"
        click.echo(f"{r.version:<8} {r.date}  {r.summary}{mark}")


@click.command("freeze")
@click.argument("game")
@click.option("--git", "rev", metavar="REV", help="Freeze the spec as it was at this git "
              "revision (default: the work tree).")
@click.option("--output", type=click.Path(path_type=Path, file_okay=False),
              help="Write the release under this folder (OUTPUT/GAME/VERSION) instead of beside "
                   "the game's spec.")
def freeze_command(game: str, rev: str | None, output: Path | None) -> None:
    """Freeze GAME's current spec_version as a release: spec, examples, traces, perft tables.

    A release never changes: freezing a version that is already frozen is refused. Exit codes:
    0 frozen; 2 a usage or input error (unknown game, already frozen, bad git revision).
    """
    from rulespec.releases.freeze import freeze

    try:
        folder = freeze(game, rev=rev, root=output)
    except RulespecError as exc:
        _usage(str(exc))
    click.echo(f"froze {game} in {folder}")


#: The commands this module adds to ``rulespec``.
COMMANDS = (diff, releases_command, freeze_command)
