"""The game registry: every game is contributed through the ``rulespec.games`` entry points.

Built-in and plugin games register the same way. A distribution declares, in its
``pyproject.toml``::

    [project.entry-points."rulespec.games"]
    pig = "rulespec_pig:GAME"

where ``GAME`` is a :class:`GamePackage` naming the spec file (and optionally the folder of
its golden traces and of the rulebook texts it cites, its rule examples file and its perft
tables file). The entry point's name is the game id.
Nothing is registered by import side effect; the reference module is the one the spec names in
``game.reference`` and is imported only when a game is played.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from rulespec.exitcodes import EXIT_USAGE
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.validate import load_spec

#: The entry-point group through which distributions contribute games.
ENTRY_POINT_GROUP = "rulespec.games"


class UnknownGame(RulespecError):
    """A game id that no installed distribution registers."""

    exit_code = EXIT_USAGE


class BrokenGame(RulespecError):
    """A registered game whose entry point cannot be loaded or is inconsistent."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class GamePackage:
    """What a distribution contributes for one game.

    ``spec`` is the YAML spec file; ``traces`` the folder holding its golden traces
    (``<game>.<label>.jsonl``); ``rulebooks`` the folder holding the rulebook texts its
    sources name (used by ``rulespec validate --sources`` when no folder is given);
    ``examples`` its rule examples file (default: ``examples/<spec file name>`` beside the
    spec); ``perft`` its perft tables file (default: ``<game>.perft.json`` in ``traces``).
    Every file or folder may be missing until it is written: ``rulespec golden`` writes the
    traces, ``rulespec perft GAME --write-tables`` the perft tables, the author the examples.
    """

    #: The YAML spec file.
    spec: Path
    #: The folder of its golden traces (``<game>.<label>.jsonl``).
    traces: Path | None = None
    #: The folder of the rulebook texts its sources name (``rulespec validate --sources``).
    rulebooks: Path | None = None
    #: Its rule examples file (None: ``examples/<spec file name>`` beside the spec).
    examples: Path | None = None
    #: Its perft tables file (None: ``<game>.perft.json`` in ``traces``).
    perft: Path | None = None

    def examples_file(self) -> Path:
        """Return where the rule examples are kept (the file may not exist yet)."""
        if self.examples is not None:
            return self.examples
        return self.spec.parent / "examples" / self.spec.name


@dataclass(frozen=True)
class RegisteredGame:
    """One game of the registry: its id, its files, and who contributed it."""

    #: The game id (the entry point's name).
    id: str
    #: The game's files.
    package: GamePackage
    #: The distribution that registers it (its name and version), or how it was registered.
    distribution: str

    @property
    def spec_path(self) -> Path:
        """Return the path of the game's spec file."""
        return self.package.spec


@dataclass(frozen=True)
class Registry:
    """Every registered game, and the problems of the entry points that could not be used."""

    games: dict[str, RegisteredGame]
    problems: dict[str, str]


def _describe(ep: EntryPoint) -> str:
    dist = ep.dist.name if ep.dist is not None else "an unknown distribution"
    return f"entry point {ep.name!r} ({ep.value}) of {dist}"


def build_registry(found: Iterable[EntryPoint]) -> Registry:
    """Load the given entry points into a registry; a broken one becomes a problem, not a crash."""
    games: dict[str, RegisteredGame] = {}
    problems: dict[str, str] = {}
    for ep in sorted(found, key=lambda e: (e.name, e.value)):
        where = _describe(ep)
        try:
            package = ep.load()
        except Exception as exc:  # a plugin's import error must not take rulespec down
            problems[ep.name] = (f"{where} cannot be loaded: {type(exc).__name__}: {exc}; "
                                 "fix or uninstall that distribution")
            continue
        if not isinstance(package, GamePackage):
            problems[ep.name] = (f"{where} is a {type(package).__name__}, not a "
                                 "rulespec.spec.registry.GamePackage")
            continue
        if ep.name in games:
            other = games.pop(ep.name)
            problems[ep.name] = (f"game id {ep.name!r} is registered twice: by {where} and by "
                                 f"{other.distribution}; uninstall one of them")
            continue
        if ep.name in problems:
            continue
        dist = ep.dist.name if ep.dist is not None else "unknown"
        games[ep.name] = RegisteredGame(ep.name, package, dist)
    return Registry(games, problems)


@cache
def installed_registry() -> Registry:
    """Return the registry of the installed distributions (built once per process)."""
    return build_registry(entry_points(group=ENTRY_POINT_GROUP))


#: Games a tool registers in this process for a while (``registered_in_process``).
_IN_PROCESS: dict[str, RegisteredGame] = {}


def registry() -> Registry:
    """Return the registry: the installed distributions' games, and those a tool registers in
    this process (which take the place of an installed game of the same id)."""
    installed = installed_registry()
    if not _IN_PROCESS:
        return installed
    problems = {g: p for g, p in installed.problems.items() if g not in _IN_PROCESS}
    return Registry({**installed.games, **_IN_PROCESS}, problems)


@contextmanager
def registered_in_process(game_id: str, package: GamePackage) -> Iterator[RegisteredGame]:
    """Register ``package`` as ``game_id`` in this process while the block runs, for a tool that
    works on a game before it is installed (``rulespec new-game`` writes its golden traces)."""
    entry = RegisteredGame(game_id, package, "(registered in this process)")
    before = _IN_PROCESS.get(game_id)
    _IN_PROCESS[game_id] = entry
    try:
        yield entry
    finally:
        if before is None:
            del _IN_PROCESS[game_id]
        else:
            _IN_PROCESS[game_id] = before


def game_ids() -> list[str]:
    """Return the id of every registered game, sorted (no spec is loaded)."""
    return sorted(registry().games)


def registered(game_id: str) -> RegisteredGame:
    """Return the registry entry of ``game_id``; UnknownGame or BrokenGame says why not."""
    reg = registry()
    if game_id in reg.problems:
        raise BrokenGame(reg.problems[game_id])
    if game_id not in reg.games:
        known = ", ".join(game_ids()) or "none (is rulespec installed?)"
        raise UnknownGame(f"unknown game {game_id!r}; known games: {known}")
    return reg.games[game_id]


def golden_paths(game_id: str, directory: Path | None = None) -> list[Path]:
    """Return the golden trace files of ``game_id`` (``<game>.<label>.jsonl``), sorted.

    They are in ``directory``, or in the folder the game's package registers (a game that
    registers none has none).
    """
    if directory is None:
        folder = registered(game_id).package.traces
        if folder is None:
            return []
        directory = folder
    return sorted(directory.glob(f"{game_id}.*.jsonl"))


def perft_path(game_id: str) -> Path | None:
    """Return where the perft tables of ``game_id`` are kept: the file its package registers,
    else ``<game>.perft.json`` in its trace folder (None: it registers neither); the file may
    not exist."""
    package = registered(game_id).package
    if package.perft is not None:
        return package.perft
    return None if package.traces is None else package.traces / f"{game_id}.perft.json"


def spec_paths() -> list[Path]:
    """Return the spec file of every registered game, sorted by game id."""
    return [registered(g).spec_path for g in game_ids()]


#: Specs loaded by this process: path -> (the file's stat signature, when it was last
#: looked at, the spec).
_loaded: dict[Path, tuple[tuple[int, int, int], float, Spec]] = {}
#: Seconds between two looks at a loaded spec file (a playout starts many games a second).
RECHECK_SECONDS = 1.0


def _load(path: Path) -> Spec:
    """Load a registered spec once per process, and again if its file changed since."""
    held = _loaded.get(path)
    now = time.monotonic()
    if held is not None and now - held[1] < RECHECK_SECONDS:
        return held[2]
    try:
        st = path.stat()
        signature = (st.st_mtime_ns, st.st_size, st.st_ino)
    except OSError:
        return load_spec(path)  # says why it cannot be read
    if held is not None and held[0] == signature:
        _loaded[path] = (signature, now, held[2])
        return held[2]
    spec = load_spec(path)
    _loaded[path] = (signature, now, spec)
    return spec


def get_spec(game_id: str, *, load: Callable[[Path], Spec] = _load) -> Spec:
    """Return the spec of ``game_id``; the spec must declare the id it is registered under."""
    entry = registered(game_id)
    held = _loaded.get(entry.spec_path)
    recent = held is not None and time.monotonic() - held[1] < RECHECK_SECONDS
    if not recent and not entry.spec_path.is_file():
        raise BrokenGame(f"game {game_id!r} of {entry.distribution}: its spec file "
                         f"{entry.spec_path} does not exist; reinstall that distribution")
    spec = load(entry.spec_path)
    if spec.game_id != game_id:
        raise BrokenGame(f"{entry.spec_path}: declares game id {spec.game_id!r} but "
                         f"{entry.distribution} registers it as {game_id!r}; make them agree")
    return spec


def all_specs() -> list[Spec]:
    """Load every registered spec (cached); raise SpecError if one is invalid."""
    return [get_spec(g) for g in game_ids()]
