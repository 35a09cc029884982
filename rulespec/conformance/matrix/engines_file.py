"""The engine list of the conformance matrix: a YAML file (``rulespec-engines/1``).

Each entry names an engine (the reference in this process, or a command that speaks the engine
protocol), the games it plays and the configurations it is checked under; ``rulespec matrix``
runs every engine x game x configuration. The built-in list (``conformance/engines.yaml``,
installed with rulespec) holds the reference, in-process and over the protocol, the Node.js Dado
de Ouro engine and the Pig plugin's game; ``--engines FILE`` adds a user's. The format is
documented in ``docs/implementers/conformance.md`` ("The conformance matrix")::

    format: rulespec-engines/1
    games:                      # games to cover even when not installed (then skipped, saying how)
      pig: {install: "pip install -e examples/pig"}
    engines:
      - id: node                # [a-z0-9-]+, unique; names the report files
        name: "Node.js: dado_de_ouro.js"
        command: node engines/dado_de_ouro.js   # run in this file's folder ({python}, {game})
        needs: [node]           # programs on the PATH; skipped, saying so, without them
        games: [dado-de-ouro]   # or: all (every registered game)
        configurations:         # per game; a game not listed: the defaults only
          dado-de-ouro:
            - {}                                  # the defaults, every player count
            - {id: d8, rulings: {DDO-AMB-01: d8}}
"""

from __future__ import annotations

import re
import shlex
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulespec.data import kit_dir
from rulespec.spec.errors import Problem, SpecError
from rulespec.spec.loader import JsonPath, Marks, load_yaml, read_text

FORMAT = "rulespec-engines/1"
#: The built-in engine list's file name, in the kit's data folder (``conformance/``).
BUILTIN_NAME = "engines.yaml"
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")
_ENGINE_KEYS = {"id", "name", "command", "in_process", "games", "configurations", "needs",
                "planted_bug", "timeout", "cwd", "env"}
_CONFIG_KEYS = {"id", "players", "rulings", "variants", "parameters", "declared"}


class EnginesFileError(SpecError):
    """An engine list that cannot be used; every problem found, each with its line."""


@dataclass(frozen=True)
class Configuration:
    """One configuration an engine is checked under: ``rulespec conform``'s scope options."""

    id: str = "default"
    players: tuple[int, ...] = ()
    rulings: Mapping[str, str] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)
    #: Every ruling option the engine declares in hello, pairwise (``conform --declared``).
    declared: bool = False

    def label(self) -> str:
        """Return the configuration in words: ``defaults``, ``DDO-AMB-01=d8, 4 players``."""
        parts = [f"{k}={v}" for k, v in sorted(self.rulings.items())]
        parts += [f"variant {v}" for v in self.variants]
        parts += [f"{k}={v!r}" for k, v in sorted(self.parameters.items())]
        if self.declared:
            parts.append("every declared ruling option, pairwise")
        if self.players:
            counts = ", ".join(str(n) for n in self.players)
            parts.append(f"{counts} player{'s' if self.players != (1,) else ''}")
        return ", ".join(parts) or "defaults"

    def conform_options(self) -> list[str]:
        """Return the ``rulespec conform`` options that ask for this configuration."""
        out = [f"-n {n}" for n in self.players]
        out += [f"-r {k}={v}" for k, v in sorted(self.rulings.items())]
        out += [f"-v {v}" for v in self.variants]
        out += [f"-p {k}={shlex.quote(_json(v))}" for k, v in sorted(self.parameters.items())]
        return out + (["--declared"] if self.declared else [])


def _json(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))


DEFAULT = Configuration()


@dataclass(frozen=True)
class EngineEntry:
    """One engine of a list."""

    id: str
    name: str
    #: The command line, split; None for the reference checked in this process.
    command: tuple[str, ...] | None
    #: "all" (every registered game) or the game ids.
    games: str | tuple[str, ...]
    configurations: Mapping[str, tuple[Configuration, ...]]
    needs: tuple[str, ...] = ()
    #: A planted-bug engine (the kit's negative corpus): what it gets wrong. It must fail.
    planted_bug: str | None = None
    timeout: float = 10.0
    #: The folder the command runs in (the list file's folder unless the entry says otherwise).
    cwd: str | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    #: The list file it comes from.
    source: str = ""

    def configurations_of(self, game: str) -> tuple[Configuration, ...]:
        """Return the configurations ``game`` is checked under (the defaults if none listed)."""
        return self.configurations.get(game, (DEFAULT,))

    def argv(self, game: str) -> list[str] | None:
        """Return the command for ``game`` with its placeholders filled (None: in-process)."""
        if self.command is None:
            return None
        fill = {"python": sys.executable, "game": game}
        out: list[str] = []
        for word in self.command:
            if word == "{rulespec}":
                out += [sys.executable, "-m", "rulespec"]
            else:
                out.append(word.format(**fill))
        return out


@dataclass(frozen=True)
class EngineList:
    """The engines of one or more list files, and the games they say to cover."""

    engines: tuple[EngineEntry, ...]
    #: Game id -> how to install it, for games covered even when not installed.
    games: Mapping[str, str]
    files: tuple[str, ...]

    def __add__(self, other: EngineList) -> EngineList:
        seen = {e.id: e.source for e in self.engines}
        for entry in other.engines:
            if entry.id in seen:
                raise EnginesFileError([Problem(entry.source, 0, 0, "$.engines", (
                    f"engine id {entry.id!r} is also in {seen[entry.id]}; give each engine "
                    "its own id"))])
        return EngineList(self.engines + other.engines, {**self.games, **other.games},
                          self.files + other.files)


def builtin_path() -> Path:
    """Return the built-in engine list (``conformance/engines.yaml``)."""
    return kit_dir() / BUILTIN_NAME


def load_engines(path: Path) -> EngineList:
    """Read and check an engine list; raise EnginesFileError with every problem found."""
    shown = shown_path(path)
    try:
        text = read_text(path)
    except OSError as exc:
        raise EnginesFileError([Problem(shown, 0, 0, "$", f"cannot be read: {exc}")]) from None
    data, marks = load_yaml(text, shown)
    return parse_engines(data, marks, folder=path.resolve().parent)


def shown_path(path: Path) -> str:
    """Return how reports name a list file: the built-in list as ``conformance/engines.yaml``,
    another relative to the current folder when it is inside it (no machine's paths)."""
    resolved = path.resolve()
    if resolved == builtin_path().resolve():
        return f"conformance/{BUILTIN_NAME}"
    try:
        return resolved.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def parse_engines(data: Any, marks: Marks, *, folder: Path) -> EngineList:
    """Check a loaded engine list; raise EnginesFileError with every problem found."""
    problems: list[Problem] = []

    def bad(where: JsonPath, message: str) -> None:
        problems.append(marks.problem(where, message))

    if not isinstance(data, dict):
        raise EnginesFileError([marks.problem((), "an engine list is a mapping with format, "
                                                   "engines and (optionally) games")])
    if data.get("format") != FORMAT:
        bad(("format",), f"say format: {FORMAT} (found {data.get('format')!r})")
    for key in sorted(set(data) - {"format", "engines", "games"}):
        bad((key,), f"unknown key {key!r}; an engine list has format, engines and games")
    games: dict[str, str] = {}
    raw_games = data.get("games", {})
    if not isinstance(raw_games, dict):
        bad(("games",), "games maps a game id to {install: how to install it}")
    else:
        for gid, info in raw_games.items():
            install = info.get("install") if isinstance(info, dict) else None
            if not isinstance(install, str) or not install.strip():
                bad(("games", gid), "give {install: the command that installs this game}")
            else:
                games[str(gid)] = install.strip()
    raw = data.get("engines")
    if not isinstance(raw, list) or not raw:
        bad(("engines",), "engines is a list of engine entries (at least one)")
        raw = []
    engines: list[EngineEntry] = []
    seen: set[str] = set()
    for i, item in enumerate(raw):
        entry = _engine(item, ("engines", i), bad, folder, marks.file)
        if entry is None:
            continue
        if entry.id in seen:
            bad(("engines", i, "id"), f"engine id {entry.id!r} is given twice; ids name the "
                                      "report files, so each must be its own")
        seen.add(entry.id)
        engines.append(entry)
    if problems:
        raise EnginesFileError(problems)
    return EngineList(tuple(engines), games, (marks.file,))


def _engine(item: Any, at: JsonPath, bad: Any, folder: Path, file: str) -> EngineEntry | None:
    if not isinstance(item, dict):
        bad(at, "an engine entry is a mapping (id, name, command or in_process, games...)")
        return None
    for key in sorted(set(item) - _ENGINE_KEYS):
        bad((*at, key), f"unknown key {key!r}; an engine has {', '.join(sorted(_ENGINE_KEYS))}")
    eid = item.get("id")
    if not isinstance(eid, str) or not _ID.match(eid):
        bad((*at, "id"), "give an id of letters, digits and '-' (it names the report files), "
                         "for example id: my-engine")
        return None
    command = item.get("command")
    in_process = item.get("in_process")
    argv: tuple[str, ...] | None = None
    if (command is None) == (in_process is None):
        bad(at, "give either command (the engine's command line) or in_process: reference")
    elif in_process is not None and in_process != "reference":
        bad((*at, "in_process"), "in_process can only be 'reference' (the reference "
                                 "interpreter checked in this process)")
    elif command is not None:
        try:
            argv = tuple(shlex.split(str(command)))
        except ValueError as exc:
            bad((*at, "command"), f"cannot be split into words ({exc}); check its quotes")
        if argv is not None and not argv:
            bad((*at, "command"), "is empty; give the command that starts the engine")
    games_value = item.get("games", "all")
    games: str | tuple[str, ...]
    if games_value == "all":
        games = "all"
    elif isinstance(games_value, list) and games_value and all(
            isinstance(g, str) for g in games_value):
        games = tuple(games_value)
    else:
        bad((*at, "games"), "games is 'all' or a list of game ids")
        games = ()
    configurations: dict[str, tuple[Configuration, ...]] = {}
    raw_configs = item.get("configurations", {})
    if not isinstance(raw_configs, dict):
        bad((*at, "configurations"), "configurations maps a game id to a list of "
                                      "configurations")
    else:
        for gid, listed in raw_configs.items():
            configurations[str(gid)] = _configurations(listed, (*at, "configurations", gid), bad)
    needs = item.get("needs", [])
    if not isinstance(needs, list) or not all(isinstance(n, str) and n for n in needs):
        bad((*at, "needs"), "needs is a list of programs the command needs on the PATH")
        needs = []
    planted = item.get("planted_bug")
    if planted is not None and (not isinstance(planted, str) or not planted.strip()):
        bad((*at, "planted_bug"), "planted_bug says, in words, what the engine gets wrong")
        planted = None
    timeout = item.get("timeout", 10.0)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not (
            0 < timeout <= 3600):
        bad((*at, "timeout"), "timeout is the seconds one call may take: more than 0, at most "
                              "3600")
        timeout = 10.0
    cwd = item.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        bad((*at, "cwd"), "cwd is a folder, relative to this file's folder")
        cwd = None
    env = item.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        bad((*at, "env"), "env maps variable names to strings")
        env = {}
    name = item.get("name", eid)
    return EngineEntry(
        eid, str(name), argv, games, configurations, tuple(needs),
        planted.strip() if isinstance(planted, str) else None, float(timeout),
        str((folder / cwd).resolve()) if cwd is not None else str(folder),
        {str(k): str(v) for k, v in env.items()}, file)


def _configurations(listed: Any, at: JsonPath, bad: Any) -> tuple[Configuration, ...]:
    if not isinstance(listed, list) or not listed:
        bad(at, "list the configurations (at least one; {} is the defaults)")
        return ()
    out: list[Configuration] = []
    for j, raw in enumerate(listed):
        where = (*at, j)
        if not isinstance(raw, dict):
            bad(where, "a configuration is a mapping ({} for the defaults)")
            continue
        for key in sorted(set(raw) - _CONFIG_KEYS):
            bad((*where, key), f"unknown key {key!r}; a configuration has "
                               f"{', '.join(sorted(_CONFIG_KEYS))}")
        players = raw.get("players", [])
        if isinstance(players, int) and not isinstance(players, bool):
            players = [players]
        if not isinstance(players, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in players):
            bad((*where, "players"), "players is a player count or a list of them")
            players = []
        rulings = raw.get("rulings", {})
        if not isinstance(rulings, dict) or not all(isinstance(v, str) for v in rulings.values()):
            bad((*where, "rulings"), "rulings maps an ambiguity id to one of its options")
            rulings = {}
        variants = raw.get("variants", [])
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            bad((*where, "variants"), "variants is a list of variant ids")
            variants = []
        parameters = raw.get("parameters", {})
        if not isinstance(parameters, dict):
            bad((*where, "parameters"), "parameters maps a parameter id to its value")
            parameters = {}
        declared = raw.get("declared", False)
        if not isinstance(declared, bool) or (declared and rulings):
            bad((*where, "declared"), "declared is true or false, and true takes no rulings "
                                      "(it plays every option the engine declares)")
            declared = False
        config = Configuration("", tuple(players), {str(k): v for k, v in rulings.items()},
                               tuple(variants), dict(parameters), declared)
        cid = raw.get("id", _derived_id(config))
        if not isinstance(cid, str) or not _ID.match(cid):
            bad((*where, "id"), "a configuration id is letters, digits and '-' (it names the "
                                "report file)")
            continue
        if any(c.id == cid for c in out):
            bad((*where, "id"), f"configuration id {cid!r} is given twice for this game; name "
                                "each (id: ...)")
        out.append(Configuration(cid, *_fields(config)))
    return tuple(out)


def _fields(config: Configuration) -> tuple[Any, ...]:
    return (config.players, config.rulings, config.variants, config.parameters, config.declared)


def _derived_id(config: Configuration) -> str:
    """Return a file-name id for a configuration: ``default``, ``DDO-AMB-01-d8``, ``p4``..."""
    parts = [f"{k}-{v}" for k, v in sorted(config.rulings.items())]
    parts += [f"variant-{v}" for v in config.variants]
    parts += [f"param-{k}" for k in sorted(config.parameters)]
    parts += ["declared"] if config.declared else []
    parts += [f"p{n}" for n in config.players]
    slug = re.sub(r"[^A-Za-z0-9]+", "-", "-".join(parts)).strip("-")
    return slug or "default"


