"""Write a game plugin's skeleton from the templates, then its golden traces and perft tables."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from importlib import invalidate_caches
from pathlib import Path
from string import Template

import click

from rulespec.data import installed_version
from rulespec.spec.errors import RulespecError

TEMPLATES = Path(__file__).resolve().parent / "templates"
#: A game id: kebab case, as the spec schema's ``game.id``.
GAME_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
#: The longest game id a skeleton takes: the id is in file names (``<id>.<label>.jsonl``,
#: ``rulespec-<id>``), which file systems cap at 255 bytes.
MAX_GAME_ID = 64
#: The longest title: it is a one-line name in menus, file headers and docstrings.
MAX_TITLE = 120


class ScaffoldError(RulespecError):
    """A skeleton that cannot be written (a bad name, a folder already there)."""

    exit_code = 2


@dataclass(frozen=True)
class Names:
    """Every name the templates use, derived from the game id."""

    game_id: str
    title: str

    @property
    def package(self) -> str:
        """Return the import package: ``rulespec_`` and the id in snake case."""
        return "rulespec_" + self.game_id.replace("-", "_")

    @property
    def distribution(self) -> str:
        """Return the distribution name: ``rulespec-`` and the id."""
        return f"rulespec-{self.game_id}"

    @property
    def prefix(self) -> str:
        """Return the clause prefix: the id in upper case, without hyphens."""
        return self.game_id.replace("-", "").upper()

    @property
    def engine_class(self) -> str:
        """Return the engine class name: the id in CamelCase."""
        return "".join(part.capitalize() for part in self.game_id.split("-"))

    def substitutions(self, rules_sha256: str) -> dict[str, str]:
        """Return the template variables (the title escaped for each kind of file it goes in)."""
        rulespec_version = installed_version("0")
        # A JSON string is a YAML double-quoted scalar and a TOML basic string.
        quoted = json.dumps(self.title, ensure_ascii=False)
        return {"game_id": self.game_id, "title": self.title, "package": self.package,
                "title_yaml": quoted,
                "rules_title_yaml": json.dumps(f"{self.title} (rules text)", ensure_ascii=False),
                "title_doc": self.title.replace("\\", "\\\\").replace('"', '\\"'),
                "description_toml": json.dumps(f"{self.title} as a rulespec game plugin.",
                                               ensure_ascii=False),
                "package_pad": " " * (len(self.package) + 4),
                "distribution": self.distribution, "prefix": self.prefix,
                "engine_class": self.engine_class, "sha256": rules_sha256,
                "today": date.today().isoformat(), "rulespec_version": rulespec_version}


def names_for(game_id: str, title: str | None = None) -> Names:
    """Return the names of a new game; ScaffoldError when ``game_id`` is not a game id or the
    title cannot be a one-line name."""
    if not GAME_ID.match(game_id):
        raise ScaffoldError(f"game id {game_id!r} is not kebab case (letters, digits and single "
                            "hyphens, starting with a letter), e.g. 'take-away'")
    if len(game_id) > MAX_GAME_ID:
        raise ScaffoldError(f"game id {game_id[:20]!r}... is {len(game_id)} characters long; a "
                            f"game id has at most {MAX_GAME_ID} (it names files and folders): "
                            "choose a shorter one")
    if title is not None:
        bad = next((c for c in title if not c.isprintable()), None)
        if bad is not None or not title.strip():
            raise ScaffoldError(f"--title {title!r} must be one line of printable text"
                                + (f" (it holds {bad!r})" if bad is not None else ""))
        if len(title) > MAX_TITLE:
            raise ScaffoldError(f"--title is {len(title)} characters long; a title has at most "
                                f"{MAX_TITLE}")
    return Names(game_id, title or game_id.replace("-", " ").title())


def refuse_taken(game_id: str) -> None:
    """Raise ScaffoldError when ``game_id`` is built in or registered by an installed
    distribution (two distributions registering one id make that id unusable)."""
    from rulespec.spec.registry import installed_registry

    reg = installed_registry()
    if game_id in reg.games:
        raise ScaffoldError(f"game id {game_id!r} is taken: {reg.games[game_id].origin} "
                            "registers it; choose another id (a plugin cannot replace an "
                            "installed game)")
    if game_id in reg.problems:
        raise ScaffoldError(f"game id {game_id!r} is taken: {reg.problems[game_id]}")


#: Template -> where it is written, relative to the project folder (``{p}`` the package, ``{g}``
#: the game id).
LAYOUT = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "init.py.tmpl": "{p}/__init__.py",
    "spec.yaml.tmpl": "{p}/{g}.yaml",
    "engine.py.tmpl": "{p}/engine.py",
    "examples.yaml.tmpl": "{p}/examples/{g}.yaml",
    "test_game.py.tmpl": "tests/test_{s}.py",
}


def write_project(folder: Path, names: Names) -> list[Path]:
    """Write the skeleton into ``folder`` (which must not exist or be empty); return the files."""
    if folder.exists() and any(folder.iterdir()):
        raise ScaffoldError(f"{folder} already exists and is not empty; choose another --dir or "
                            "remove it")
    package = folder / names.package
    rules = _render("rules.txt.tmpl", {"title": names.title}).encode("utf-8")
    written = [_write(package / "rulebooks" / f"{names.game_id}-rules.txt", rules)]
    values = names.substitutions(hashlib.sha256(rules).hexdigest())
    for template, target in LAYOUT.items():
        relative = target.format(p=names.package, g=names.game_id,
                                 s=names.game_id.replace("-", "_"))
        written.append(_write(folder / relative, _render(template, values).encode("utf-8")))
    written.append(_write(package / "py.typed", b""))
    (package / "traces").mkdir()
    return written


def _render(template: str, values: dict[str, str]) -> str:
    return Template((TEMPLATES / template).read_text(encoding="utf-8")).substitute(values)


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@contextmanager
def _importable(folder: Path, package: str) -> Iterator[None]:
    """Make the project's package importable from ``folder`` while the block runs (it is not
    installed yet), never a module of the same name imported before from elsewhere."""
    def forget() -> None:
        for name in [m for m in sys.modules if m == package or m.startswith(f"{package}.")]:
            del sys.modules[name]

    forget()
    sys.path.insert(0, str(folder))
    invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(folder))
        forget()


def write_evidence(folder: Path, names: Names) -> list[Path]:
    """Check the new game as ``rulespec validate`` would, then write its golden traces and perft
    tables with the game registered in this process; return the files written."""
    from importlib import import_module

    from rulespec.conformance.play import golden, perft_tables
    from rulespec.examples.model import example_problems
    from rulespec.reference.registry import check_implementation
    from rulespec.spec.registry import get_spec, registered_in_process
    from rulespec.spec.validate import load_spec

    with _importable(folder, names.package):
        package = import_module(names.package).GAME
        with registered_in_process(names.game_id, package):
            load_spec(package.spec, sources=package.rulebooks)
            spec = get_spec(names.game_id)
            problems = [*map(str, check_implementation(spec)), *map(str, example_problems(spec))]
            if problems:  # the templates are broken: nothing an author did
                raise ScaffoldError("the skeleton does not validate; please report it:\n"
                                    + "\n".join(problems))
            return [*golden.write(games=[names.game_id]),
                    *perft_tables.write([names.game_id])]


def write_atomically(target: Path, names: Names) -> list[Path]:
    """Write the whole project into a scratch folder beside ``target`` and move it into place
    only once it is complete; on any failure nothing is left behind. Return the files written,
    relative to ``target``."""
    if target.exists() and any(target.iterdir()):
        raise ScaffoldError(f"{target} already exists and is not empty; choose another --dir or "
                            "remove it")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=".new-game-", dir=target.parent))
    except OSError as exc:
        raise ScaffoldError(f"cannot write into {target.parent}: {exc.strerror}; choose another "
                            "--dir") from None
    work = scratch / "project"
    try:
        files = write_project(work, names) + write_evidence(work, names)
        relative = [f.relative_to(work) for f in files]
        if target.exists():
            target.rmdir()  # empty, checked above
        work.rename(target)
    except OSError as exc:
        raise ScaffoldError(f"cannot write the project into {target}: {exc.strerror} "
                            f"({exc.filename}); nothing was written") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return relative


@click.command("new-game")
@click.argument("game_id", metavar="NAME")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path),
              help="Folder to write the project into (default: ./rulespec-NAME).")
@click.option("--title", help="The game's name in the docs (default: NAME in title case).")
def new_game(game_id: str, folder: Path | None, title: str | None) -> None:
    """Write the skeleton of a game plugin NAME: spec, rules text, engine, examples, tests.

    The skeleton is a small counter-taking game that validates, plays and passes the kit and
    its own tests once installed (its golden traces and perft tables are written too); replace
    it with your game step by step, as the docs' "Adding a game" shows.
    """
    names = names_for(game_id, title)
    refuse_taken(game_id)
    target = (folder if folder is not None else Path(f"rulespec-{game_id}")).resolve()
    files = [target / p for p in write_atomically(target, names)]
    click.echo(f"wrote {len(files)} files of {names.distribution} into {target}:")
    for path in sorted(files):
        click.echo(f"  {path.relative_to(target).as_posix()}")
    click.echo("next: pip install -e " + str(target) + f"; rulespec validate; rulespec play "
               f"{game_id}; rulespec conform --game {game_id}; python -m pytest {target}")
