"""The game registry: every game is contributed through the ``rulespec.games`` entry points.

Built-in and plugin games register the same way. A distribution declares, in its
``pyproject.toml``::

    [project.entry-points."rulespec.games"]
    pig = "rulespec_pig:GAME"

where ``GAME`` is a :class:`GamePackage` naming the spec file (and optionally the folder of
its golden traces and of the rulebook texts it cites, its rule examples file and its perft
tables file). The entry point's name is the game id.
Nothing is registered by import side effect; the reference module is the one the registered
spec names in ``game.reference`` and is imported only when a game is played.

Installed distributions are trusted; spec files are not. A plugin that cannot be used (its entry
point fails to load, its spec does not validate, or another distribution registers the same id)
is reported once, as a :class:`PluginWarning` naming the distribution, the error and the fix,
and skipped: every other game keeps working (``docs/about/security.md``).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

from rulespec.exitcodes import EXIT_USAGE
from rulespec.spec.errors import RulespecError, RulespecWarning, SpecError
from rulespec.spec.model import Spec
from rulespec.spec.validate import load_spec

#: The entry-point group through which distributions contribute games.
ENTRY_POINT_GROUP = "rulespec.games"
#: rulespec's rule-example vocabularies, which any game's examples may name.
SHARED_VOCABULARIES = "rulespec.examples.vocab"


class UnknownGame(RulespecError):
    """A game id that no installed distribution registers."""

    exit_code = EXIT_USAGE


class BrokenGame(RulespecError):
    """A registered game whose entry point cannot be loaded or is inconsistent."""

    exit_code = EXIT_USAGE


class PluginWarning(RulespecWarning):
    """A registered game that is skipped: its distribution is broken, or claims a taken id."""


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
    #: The module of its reference interpreter (None: the ``game.reference`` of the spec file
    #: above, which ships with the distribution). A spec file read from anywhere else may name
    #: this module and no other (``docs/about/security.md``).
    reference: str | None = None

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
    #: The distribution that registers it (its name), or how it was registered.
    distribution: str
    #: The module its entry point names (``rulespec_pig``); its top-level package is the code
    #: the distribution installed, which a game's files may name (a rule examples vocabulary).
    module: str = ""
    #: The version of that distribution ("" when unknown).
    version: str = ""

    @property
    def origin(self) -> str:
        """Return the distribution and its version, for messages (``rulespec-pig 0.1.0``)."""
        return f"{self.distribution} {self.version}".rstrip()

    @property
    def spec_path(self) -> Path:
        """Return the path of the game's spec file."""
        return self.package.spec


@dataclass(frozen=True)
class Registry:
    """Every registered game, and the problems of the entry points that could not be used."""

    games: dict[str, RegisteredGame]
    problems: dict[str, str]


def _distribution(ep: EntryPoint) -> str:
    """Return ``name version`` of the distribution declaring ``ep``."""
    if ep.dist is None:
        return "an unknown distribution"
    return f"{ep.dist.name} {ep.dist.version}"


def _describe(ep: EntryPoint) -> str:
    return f"entry point {ep.name!r} ({ep.value}) of {_distribution(ep)}"


def _uninstall(ep: EntryPoint) -> str:
    name = ep.dist.name if ep.dist is not None else "that distribution"
    return f"fix or uninstall that distribution (pip uninstall {name})"


def build_registry(found: Iterable[EntryPoint]) -> Registry:
    """Load the given entry points into a registry; a broken one becomes a problem, not a crash.

    A game id that two or more distributions register is a problem naming all of them, never a
    silent shadow: the id is unusable until all but one are uninstalled.
    """
    by_id: dict[str, list[EntryPoint]] = {}
    for ep in sorted(found, key=lambda e: (e.name, e.value, _distribution(e))):
        by_id.setdefault(ep.name, []).append(ep)
    games: dict[str, RegisteredGame] = {}
    problems: dict[str, str] = {}
    for game_id, eps in by_id.items():
        if len({(ep.value, _distribution(ep)) for ep in eps}) > 1:
            who = " and ".join(_describe(ep) for ep in eps)
            problems[game_id] = (f"game id {game_id!r} is registered {len(eps)} times: by {who}; "
                                 "a game id belongs to one distribution: uninstall all but one "
                                 "of them, or give the plugin's game another id")
            continue
        ep = eps[0]
        where = _describe(ep)
        try:
            package = ep.load()
        except Exception as exc:  # a plugin's import error must not take rulespec down
            problems[game_id] = (f"{where} cannot be loaded: {type(exc).__name__}: {exc}; "
                                 f"{_uninstall(ep)}")
            continue
        if not isinstance(package, GamePackage):
            problems[game_id] = (f"{where} is a {type(package).__name__}, not a "
                                 f"rulespec.spec.registry.GamePackage; {_uninstall(ep)}")
            continue
        name, version = (ep.dist.name, ep.dist.version) if ep.dist is not None else ("unknown", "")
        games[game_id] = RegisteredGame(game_id, package, name, ep.module, version)
    return Registry(games, problems)


@cache
def installed_registry() -> Registry:
    """Return the registry of the installed distributions (built once per process)."""
    return build_registry(entry_points(group=ENTRY_POINT_GROUP))


#: Games a tool registers in this process for a while (``registered_in_process``).
_IN_PROCESS: dict[str, RegisteredGame] = {}


#: Registered games whose spec does not load, found by this process: game id -> the problem.
_SPEC_PROBLEMS: dict[str, str] = {}


def registry() -> Registry:
    """Return the registry: the installed distributions' games, and those a tool registers in
    this process (which take the place of an installed game of the same id)."""
    installed = installed_registry()
    if not _IN_PROCESS and not _SPEC_PROBLEMS:
        return installed
    problems = {g: p for g, p in {**installed.problems, **_SPEC_PROBLEMS}.items()
                if g not in _IN_PROCESS}
    games = {g: e for g, e in installed.games.items() if g not in problems}
    return Registry({**games, **_IN_PROCESS}, problems)


def broken_games() -> dict[str, str]:
    """Return game id -> why it is skipped, for every registered game that cannot be used."""
    return dict(sorted(registry().problems.items()))


def warn_broken() -> dict[str, str]:
    """Warn once (a PluginWarning) for each game that is skipped, and return them."""
    broken = broken_games()
    for game_id, problem in broken.items():
        warnings.warn(PluginWarning(f"game {game_id!r} skipped: {problem}"), stacklevel=2)
    return broken


@contextmanager
def registered_in_process(game_id: str, package: GamePackage) -> Iterator[RegisteredGame]:
    """Register ``package`` as ``game_id`` in this process while the block runs, for a tool that
    works on a game before it is installed (``rulespec new-game`` writes its golden traces)."""
    module = package.reference.split(".")[0] if package.reference else ""
    entry = RegisteredGame(game_id, package, "(registered in this process)", module)
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


class UntrustedModule(RulespecError):
    """A module that a spec, rule examples or trace file names and no registered game vouches
    for: input files are untrusted, so it is not imported."""

    exit_code = EXIT_USAGE


def trusted_reference(spec: Spec) -> str:
    """Return the reference module of ``spec``'s game as its registration names it.

    The spec may be any file (a user's copy, an old release, a git revision): its
    ``game.reference`` is used only when it is the module the installed distribution registering
    ``spec.game_id`` vouches for (its ``GamePackage.reference``, or the ``game.reference`` of the
    spec file it ships). Anything else raises UntrustedModule, and nothing is imported.
    """
    named = spec.reference_module
    hint = ""
    if named.startswith("reference.games."):
        hint = (" (rulespec 0.2 moved the built-in game modules into one import package: "
                f"rulespec.games.{named.rsplit('.', 1)[1]})")
    try:
        entry = registered(spec.game_id)
    except (UnknownGame, BrokenGame) as exc:
        raise UntrustedModule(
            f"{spec.path}: game.reference {named!r}{hint} is not imported: {exc}. Spec files "
            "are untrusted input; only an installed distribution that registers the game (an "
            f"entry point in the {ENTRY_POINT_GROUP!r} group) can name its reference module: "
            "install the game's plugin (pip install -e PATH) and run again") from None
    vouched = entry.package.reference
    if vouched is None:
        same_file = spec.path.resolve() == entry.spec_path.resolve()
        vouched = named if same_file else get_spec(spec.game_id).reference_module
    if named != vouched:
        raise UntrustedModule(
            f"{spec.path}: game.reference {named!r} is not imported: game {spec.game_id!r} is "
            f"registered by {entry.origin} with the reference module {vouched!r}, and a "
            f"spec file cannot name another module{hint}; write game.reference: {vouched}")
    return vouched


def trusted_code_module(game_id: str, module: str, what: str) -> str:
    """Return ``module`` when it lies in the package of the distribution that registers
    ``game_id`` (``what`` says which file named it); raise UntrustedModule otherwise."""
    try:
        entry = registered(game_id)
    except (UnknownGame, BrokenGame) as exc:
        raise UntrustedModule(f"{what} {module!r} is not imported: {exc}; input files are "
                              "untrusted, only a registered game's own package is") from None
    root = entry.module.split(".")[0]
    # rulespec's own package holds its command line (rulespec.__main__ runs it on import): of
    # it, only the shared vocabularies may be named, by any game.
    roots = [SHARED_VOCABULARIES] if root in ("", "rulespec") else [root, SHARED_VOCABULARIES]
    if not any(module == r or module.startswith(r + ".") for r in roots):
        raise UntrustedModule(
            f"{what} {module!r} is not imported: it is in none of {', '.join(map(repr, roots))}, "
            f"the packages {entry.origin} (which registers {game_id!r}) vouches for; "
            "input files are untrusted and may name only modules of the distribution that "
            "registers their game")
    return module


def all_specs() -> list[Spec]:
    """Load every registered spec (cached) that can be used.

    A registered game whose spec does not validate, or declares another id, is skipped with a
    PluginWarning naming its distribution, its first problem and what to do; so is a game whose
    entry point is broken. ``rulespec validate`` reports such a spec's every problem.
    """
    specs: list[Spec] = []
    _SPEC_PROBLEMS.clear()  # a spec fixed since the last look is used again
    for game_id in game_ids():
        try:
            specs.append(get_spec(game_id))
        except (SpecError, BrokenGame) as exc:
            _SPEC_PROBLEMS[game_id] = _spec_problem(game_id, exc)
    warn_broken()
    return specs


def usable_game_ids() -> list[str]:
    """Return the id of every registered game whose spec loads, sorted; the others are skipped
    with a PluginWarning (as ``all_specs``)."""
    return [spec.game_id for spec in all_specs()]


def _spec_problem(game_id: str, exc: RulespecError) -> str:
    entry = registry().games[game_id]
    if isinstance(exc, SpecError) and exc.problems:
        more = len(exc.problems) - 1
        first = f"{exc.problems[0]}" + (f" (and {more} more)" if more else "")
        return (f"the spec of {entry.origin} does not validate: {first}; run "
                f"'rulespec validate {entry.spec_path}' for every problem, then fix or uninstall "
                "that distribution")
    return f"{exc}"
