"""Read files of a git revision without a checkout (``git show REV:path``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from rulespec.spec.errors import RulespecError


class GitError(RulespecError):
    """A git revision or file that cannot be read."""


def _git(args: list[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError:
        raise GitError("git is not installed; install it or compare spec files or releases "
                       "instead of git revisions") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"git {' '.join(args)!r} failed in {cwd}: "
                       f"{message[-1] if message else 'no message'}")
    return done.stdout


def repo_root(start: Path) -> Path:
    """Return the top folder of the git work tree holding ``start``."""
    folder = start if start.is_dir() else start.parent
    return Path(_git(["rev-parse", "--show-toplevel"], folder).decode().strip())


def resolve(rev: str, root: Path) -> str:
    """Return the commit id ``rev`` names; GitError when it names none."""
    if rev.startswith("-"):
        raise GitError(f"revision {rev!r} starts with '-'; name a commit, branch or tag")
    return _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], root).decode().strip()


def show(rev: str, path: str, root: Path) -> bytes:
    """Return the bytes of ``path`` (relative to the work tree's top) at revision ``rev``."""
    return _git(["show", f"{rev}:{path}"], root)


def exists(rev: str, path: str, root: Path) -> bool:
    """Return True when ``path`` is a file at revision ``rev``."""
    try:
        _git(["cat-file", "-e", f"{rev}:{path}"], root)
    except GitError:
        return False
    return True


def list_files(rev: str, folder: str, root: Path) -> list[str]:
    """Return the paths of the files directly in ``folder`` at revision ``rev``, sorted."""
    out = _git(["ls-tree", "--name-only", f"{rev}:{folder}"], root).decode("utf-8")
    return sorted(f"{folder}/{name}" for name in out.splitlines() if name)


def commit_date(rev: str, root: Path) -> str:
    """Return the day (YYYY-MM-DD, UTC) of revision ``rev``'s commit."""
    out = _git(["show", "-s", "--format=%cd", "--date=format-local:%Y-%m-%d", rev], root)
    return out.decode().strip()
