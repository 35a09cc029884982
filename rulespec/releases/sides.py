"""Turn a command-line side of ``rulespec diff`` into a spec: a file, ``GAME@VERSION``, git.

A side is one of:

- a spec file path (validated; a file inside a frozen release folder is read as frozen);
- ``GAME@VERSION``: a frozen release;
- ``git:REV:PATH``: the spec file at PATH (from the work tree's top) at git revision REV;
- ``git:REV``: the spec of a game at REV, where the game comes from the other side or --game.

Git sides are written to a temporary folder in the frozen layout (spec, rule examples, golden
traces, perft tables), so their evidence can be replayed like a release's.
"""

from __future__ import annotations

import contextlib
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from rulespec.releases.freeze import Snapshot, snapshot_git, write_snapshot
from rulespec.releases.store import (
    RELEASES_FOLDER,
    TRACES_FOLDER,
    read_frozen_spec,
    release_spec,
)
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec


class SideError(RulespecError):
    """A side that names nothing that can be compared."""


@dataclass(frozen=True)
class Side:
    """A resolved side: the spec and how it was named."""

    spec: Spec
    label: str


def needs_game(text: str) -> bool:
    """Return True for a side that cannot say its game by itself (``git:REV``)."""
    return text.startswith("git:") and ":" not in text[4:]


def game_of(text: str) -> str | None:
    """Return the game a side names without loading it, when it says (``GAME@VERSION``)."""
    if "@" in text and not text.startswith("git:") and not Path(text).exists():
        return text.split("@", 1)[0]
    return None


def _frozen_layout(path: Path) -> bool:
    parent = path.parent
    return (parent / TRACES_FOLDER).is_dir() or parent.parent.parent.name == RELEASES_FOLDER


def resolve(text: str, *, game: str | None, stack: contextlib.ExitStack) -> Side:
    """Resolve one side; temporary folders live as long as ``stack``."""
    if text.startswith("git:"):
        return _git_side(text, game, stack)
    path = Path(text)
    if path.is_file():
        if _frozen_layout(path):
            return Side(read_frozen_spec(path), text)
        from rulespec.spec.validate import load_spec

        return Side(load_spec(path), text)
    if "@" in text:
        name, _, version = text.partition("@")
        return Side(release_spec(name, version), text)
    if path.suffix in (".yaml", ".yml") or "/" in text:
        raise SideError(f"no such spec file: {text!r}; give a spec file, GAME@VERSION, "
                        "git:REV:PATH or git:REV")
    raise SideError(f"{text!r} is not a spec file, GAME@VERSION, git:REV:PATH or git:REV; "
                    f"to compare today's spec of a game with its previous release, give the "
                    "game alone")


def _git_side(text: str, game: str | None, stack: contextlib.ExitStack) -> Side:
    rev, _, path = text[4:].partition(":")
    if not rev:
        raise SideError(f"{text!r} names no revision; write git:REV or git:REV:PATH")
    if path:
        snapshot = _snapshot_path(rev, path, game)
    elif game is None:
        raise SideError(f"{text!r} does not say which game; give --game GAME, or a file "
                        "or release as the other side")
    else:
        snapshot = snapshot_git(game, rev)
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rulespec-diff-")))
    write_snapshot(snapshot, folder)
    return Side(read_frozen_spec(folder / f"{snapshot.game}.yaml"), text)


def _snapshot_path(rev: str, path: str, game: str | None) -> Snapshot:
    from rulespec.releases import gitsource
    from rulespec.spec.registry import game_ids, registered

    root = gitsource.repo_root(Path.cwd())
    side = f"git:{rev}:{path}"
    hint = ("give the path of a game's spec file at that revision, from the top of the work "
            "tree (such as git:REV:specs/fool.yaml), or git:REV with --game GAME")
    raw = gitsource.show(gitsource.resolve(rev, root), path, root)
    if b"\0" in raw[:8192]:
        raise SideError(f"{side} is a binary file, not a spec; {hint}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SideError(f"{side} is not UTF-8 text ({exc.reason} at byte {exc.start}), so not "
                        f"a spec; {hint}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or type(exc).__name__
        raise SideError(f"{side} is not a YAML spec: it cannot be read as YAML{at} "
                        f"({problem}); {hint}") from None
    found = data.get("game", {}).get("id") if isinstance(data, dict) and isinstance(
        data.get("game"), dict) else None
    if not isinstance(found, str):
        raise SideError(f"{side} is not a spec (it has no game.id); {hint}")
    if game is not None and found != game:
        raise SideError(f"git:{rev}:{path} is a spec of {found!r}, not {game!r}")
    if found in game_ids():
        spec_path = registered(found).spec_path.resolve()
        if spec_path.is_relative_to(root) and spec_path.relative_to(root).as_posix() == path:
            return snapshot_git(found, rev)
    return snapshot_git(found, rev, spec_path=path)
