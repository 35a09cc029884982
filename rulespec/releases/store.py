"""The releases of a spec and their frozen copies, readable offline from an installed wheel.

A spec lists its releases in ``game.releases`` (oldest first; the last is ``spec_version``).
Each release is frozen beside the spec, in the same layout as the repository::

    releases/<game>/<version>/<game>.yaml                 the spec as released
    releases/<game>/<version>/examples/<game>.yaml        its rule examples (if it had any)
    releases/<game>/<version>/traces/<game>.<label>.jsonl.gz   its golden traces, gzipped
    releases/<game>/<version>/traces/<game>.perft.json    its perft tables (if it had any)

For the built-in games ``releases/`` is ``rulespec.data.specs/releases`` (package data); a
plugin game may keep one beside its own spec file, or have none.

A frozen spec is a historical document: it was valid under the tools of its day, so it is read
(safe YAML, duplicate keys refused, marks kept) but not validated again against today's schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from rulespec.spec.errors import RulespecError, SpecError
from rulespec.spec.loader import load_yaml, read_text
from rulespec.spec.model import Spec

if TYPE_CHECKING:
    from rulespec.reference.trace import Trace

#: The folder, beside a game's spec file, that holds its frozen releases.
RELEASES_FOLDER = "releases"
#: The folder of a frozen release that holds its golden traces and perft tables.
TRACES_FOLDER = "traces"
#: How a frozen golden trace is named after its game (the text is gzipped JSON Lines).
TRACE_SUFFIX = ".jsonl.gz"


class UnknownRelease(RulespecError):
    """A release a game does not record, or has not frozen; the message names its releases."""


class BadVersion(RulespecError, ValueError):
    """A text that is not a MAJOR.MINOR.PATCH version."""


@dataclass(frozen=True)
class Release:
    """One release of a game's spec, as its ``game.releases`` entry records it."""

    game: str
    version: str
    date: str
    summary: str

    @property
    def key(self) -> tuple[int, int, int]:
        """Return the version as numbers, for ordering."""
        return parse_version(self.version)


@dataclass(frozen=True)
class DeclaredChange:
    """A change of play a release declares because no old trace, example or table shows it."""

    version: str
    clauses: tuple[str, ...]
    records: tuple[str, ...]
    reason: str


def parse_version(text: str) -> tuple[int, int, int]:
    """Return ``MAJOR.MINOR.PATCH`` as three numbers; BadVersion says what is wrong."""
    parts = text.split(".") if isinstance(text, str) else []
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts) or any(
            len(p) > 1 and p.startswith("0") for p in parts):
        raise BadVersion(f"version {text!r} is not MAJOR.MINOR.PATCH (three whole numbers "
                         "without leading zeros, such as 1.2.0); write it that way")
    return int(parts[0]), int(parts[1]), int(parts[2])


def format_version(key: tuple[int, int, int]) -> str:
    """Return the text of a version given as three numbers."""
    return ".".join(str(n) for n in key)


# -- what a spec records ---------------------------------------------------------------------


def releases_of(spec: Spec) -> list[Release]:
    """Return the releases ``spec`` records, oldest first (none when it records none)."""
    entries = spec.data["game"].get("releases") or []
    return [Release(spec.game_id, str(e["version"]), str(e["date"]), str(e["summary"]))
            for e in entries]


def declared_changes(spec: Spec) -> list[DeclaredChange]:
    """Return the behaviour changes the releases of ``spec`` declare, oldest release first."""
    out = []
    for entry in spec.data["game"].get("releases") or []:
        for change in entry.get("behaviour_changes") or []:
            out.append(DeclaredChange(str(entry["version"]), tuple(change["clauses"]),
                                      tuple(change.get("records", ())), str(change["reason"])))
    return out


def releases(game: str) -> list[Release]:
    """Return the releases of ``game`` from its current spec's ``game.releases``, oldest first."""
    from rulespec.spec.registry import get_spec

    return releases_of(get_spec(game))


# -- where the frozen copies are ---------------------------------------------------------------


def releases_root(game: str) -> Path:
    """Return the folder of ``game``'s frozen releases (it may not exist)."""
    from rulespec.spec.registry import registered

    return registered(game).spec_path.parent / RELEASES_FOLDER / game


def _known(game: str, listed: Sequence[Release]) -> str:
    if not listed:
        return (f"game {game!r} records no releases (its spec has no game.releases); "
                "see docs/editors/versioning.md to release it")
    return f"the releases of {game!r} are {', '.join(r.version for r in listed)}"


def release(game: str, version: str) -> Release:
    """Return the recorded release ``version`` of ``game``; UnknownRelease names the others."""
    parse_version(version)
    listed = releases(game)
    for item in listed:
        if item.version == version:
            return item
    raise UnknownRelease(f"{game} has no release {version!r}; {_known(game, listed)}")


def release_dir(game: str, version: str) -> Path:
    """Return the frozen folder of a recorded release: its spec, examples and traces."""
    release(game, version)
    folder = releases_root(game) / version
    if not (folder / f"{game}.yaml").is_file():
        raise UnknownRelease(f"release {version} of {game} is recorded but not frozen (no "
                             f"{folder / (game + '.yaml')}); freeze it with rulespec freeze "
                             f"{game}, or reinstall rulespec")
    return folder


def frozen_releases(game: str) -> list[Release]:
    """Return the recorded releases of ``game`` that are frozen, oldest first."""
    root = releases_root(game)
    return [r for r in releases(game) if (root / r.version / f"{game}.yaml").is_file()]


def previous_release(game: str) -> Release | None:
    """Return the release today's spec of ``game`` is checked against, or None if none is frozen.

    That is the frozen copy of ``spec_version`` itself when it is frozen (so any edit since
    needs a bump), else the newest frozen release older than ``spec_version``.
    """
    from rulespec.spec.registry import get_spec

    return release_before(game, get_spec(game).version)


def release_before(game: str, version: str) -> Release | None:
    """Return the newest frozen release of ``game`` not after ``version``, or None."""
    current = parse_version(version)
    older = [r for r in frozen_releases(game) if r.key <= current]
    return older[-1] if older else None


# -- reading a frozen release -------------------------------------------------------------------


def read_frozen_spec(path: Path) -> Spec:
    """Read a frozen spec file (safe YAML with marks; not validated against today's schema)."""
    data, marks = load_yaml(read_text(path), str(path))
    if not isinstance(data, dict) or not isinstance(data.get("game"), dict):
        raise SpecError([marks.problem((), "a frozen spec must be a mapping with a game "
                                           "section; restore the file from the release")])
    for key in ("id", "spec_version"):
        if not isinstance(data["game"].get(key), str):
            raise SpecError([marks.problem(("game", key), f"a frozen spec needs game.{key} as "
                                                          "a string; restore the file")])
    return Spec(path=path, data=data, marks=marks)


@lru_cache(maxsize=32)
def _cached_spec(path: Path, mtime_ns: int) -> Spec:
    return read_frozen_spec(path)


def release_spec(game: str, version: str) -> Spec:
    """Return the frozen spec of release ``version`` of ``game`` (cached)."""
    path = release_dir(game, version) / f"{game}.yaml"
    spec = _cached_spec(path, path.stat().st_mtime_ns)
    if spec.game_id != game or spec.version != version:
        raise UnknownRelease(f"{path}: the frozen spec says {spec.game_id} "
                             f"{spec.version}, not {game} {version}; restore the release folder")
    return spec


def release_traces(folder: Path, game: str) -> list[Path]:
    """Return the golden traces of a frozen release folder, sorted (gzipped or plain)."""
    traces = folder / TRACES_FOLDER
    if not traces.is_dir():
        return []
    return sorted([*traces.glob(f"{game}.*{TRACE_SUFFIX}"), *traces.glob(f"{game}.*.jsonl")])


def read_trace_file(path: Path) -> Trace:
    """Read a golden trace, gzipped (``.jsonl.gz``) or plain, as a ``Trace`` (``read_trace``
    reads both); a frozen file that is not readable gzip is to be restored from the release."""
    from rulespec.reference.trace import TraceError, read_trace

    try:
        return read_trace(path)
    except TraceError as exc:
        if not str(exc).startswith(f"{path}: not a readable gzip file"):
            raise
        raise TraceError(f"{exc}; restore it from the release") from None


def perft_file(folder: Path, game: str) -> Path | None:
    """Return the perft tables of a frozen release folder, or None when it has none."""
    path = folder / TRACES_FOLDER / f"{game}.perft.json"
    return path if path.is_file() else None
