"""`rulespec new-game NAME`: the skeleton of a game plugin validates, plays, passes the kit and
its examples and evidence checks as written, importing only the public API (tests/packaging
installs one and runs its own tests)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulespec.cli import main
from rulespec.scaffold.newgame import names_for
from rulespec.spec.registry import registered_in_process
from tests.test_architecture import not_public

GAME = "tiny-take"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The skeleton of GAME, written by the command line."""
    folder = tmp_path_factory.mktemp("new") / "rulespec-tiny-take"
    with pytest.raises(SystemExit) as info:
        main(["new-game", GAME, "--dir", str(folder), "--title", "Tiny Take"])
    assert info.value.code == 0
    return folder


@pytest.fixture
def installed(project: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """GAME registered in this process, as its entry point would once installed."""
    monkeypatch.syspath_prepend(str(project))
    for name in [m for m in sys.modules if m.startswith("rulespec_tiny_take")]:
        monkeypatch.delitem(sys.modules, name)
    from rulespec_tiny_take import GAME as PACKAGE  # type: ignore[import-not-found]

    with registered_in_process(GAME, PACKAGE):
        yield project


def test_the_skeleton_has_every_part(project: Path) -> None:
    """Spec, rules text, engine, examples, golden traces, perft tables, tests, pyproject."""
    package = project / "rulespec_tiny_take"
    for part in ("tiny-take.yaml", "engine.py", "__init__.py", "py.typed",
                 "rulebooks/tiny-take-rules.txt", "examples/tiny-take.yaml",
                 "traces/tiny-take.perft.json", "traces/tiny-take.p2-default.jsonl"):
        assert (package / part).is_file(), part
    pyproject = (project / "pyproject.toml").read_text(encoding="utf-8")
    assert 'tiny-take = "rulespec_tiny_take:GAME"' in pyproject
    assert '"traces/*.perft.json", "examples/*.yaml"' in pyproject
    assert (project / "tests" / "test_tiny_take.py").is_file()


def test_the_skeleton_imports_only_the_public_api(project: Path) -> None:
    """The engine, the package and the tests use rulespec.reference, .spec, .conformance only."""
    for path in sorted(project.rglob("*.py")):
        assert not_public(path) == [], path


def test_the_new_game_validates_plays_and_conforms(installed: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """validate (quotes against its own rules text), play, examples with witnesses and coverage,
    golden and perft checks, and the kit in-process: all pass as written."""
    code, out, _ = _run(capsys, "validate", str(installed / "rulespec_tiny_take" / "tiny-take.yaml"))
    assert code == 0 and "ok (quotes checked against" in out, out
    code, out, _ = _run(capsys, "play", GAME, "--players", "3", "--quiet")
    assert code == 0 and "winner" in out, out
    code, out, _ = _run(capsys, "examples", GAME, "--witnesses", "--coverage")
    assert code == 0 and "(100%)" in out and "2/2 distinguish" in out, out
    code, out, _ = _run(capsys, "golden", GAME, "--check")
    assert code == 0 and "0 difference(s)" in out, out
    code, out, _ = _run(capsys, "perft", GAME, "--check-tables")
    assert code == 0 and "0 difference(s)" in out, out
    code, out, _ = _run(capsys, "conform", "--game", GAME, "--examples", "5")
    assert code == 0 and "CONFORMANT under rulings" in out, out


def test_names_come_from_the_game_id() -> None:
    """Package, distribution, clause prefix and engine class follow the id."""
    names = names_for("take-away")
    assert (names.package, names.distribution, names.prefix, names.engine_class, names.title) == (
        "rulespec_take_away", "rulespec-take-away", "TAKEAWAY", "TakeAway", "Take Away")


def test_a_bad_name_or_a_used_folder_is_refused(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """A name that is not a game id, or a folder that already holds files, exits 2."""
    code, _, err = _run(capsys, "new-game", "Take_Away", "--dir", str(tmp_path / "x"))
    assert code == 2 and "is not kebab case" in err
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, _, err = _run(capsys, "new-game", "take-away", "--dir", str(tmp_path / "used"))
    assert code == 2 and "already exists and is not empty" in err
    assert (tmp_path / "used" / "notes.txt").read_text(encoding="utf-8") == "mine\n"


# -- issue 40: refusals that leave nothing behind ------------------------------------------------


@pytest.mark.parametrize(("args", "says"), [
    (["a" * 250], "at most 64"),
    (["fool"], "is taken: rulespec"),
    (["two-lines", "--title", "one\ntwo"], "one line of printable text"),
])
def test_new_game_refuses_with_exit_2_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        args: list[str], says: str) -> None:
    """A 250-character id (which once left part of a project behind and a traceback), an id a
    built-in game has, and a title that is not one line: exit 2, a sentence, no file."""
    monkeypatch.chdir(tmp_path)
    code, _, err = _run(capsys, "new-game", *args)
    assert code == 2 and says in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_title_with_quotes_colons_and_backslashes_is_escaped(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--title goes into YAML, TOML and Python docstrings escaped for each: the skeleton's
    spec validates with the title as its name, its Python parses and its pyproject reads."""
    import ast
    import tomllib

    from rulespec.spec.validate import load_spec

    title = 'Foo: "bar" # baz \\ """x'
    folder = tmp_path / "quoted"
    code, _, err = _run(capsys, "new-game", "quoted-title", "--dir", str(folder),
                        "--title", title)
    assert code == 0, err
    spec = load_spec(folder / "rulespec_quoted_title" / "quoted-title.yaml")
    assert spec.name == title
    for source in folder.rglob("*.py"):
        ast.parse(source.read_text(encoding="utf-8"), str(source))
    project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["description"].startswith(title)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".new-game-")]
