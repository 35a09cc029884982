"""Issue 40: a broken plugin is reported once and skipped, never takes the built-in games down;
two distributions registering one id fail with both named; spec and rule-example files are
untrusted input that cannot make rulespec import a module.

The plugins here are real distributions as ``importlib.metadata`` finds them (a ``.dist-info``
folder with ``entry_points.txt`` on the path of a child process), so nothing is installed into
this environment.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from rulespec.spec.registry import (
    GamePackage,
    UntrustedModule,
    registered_in_process,
    trusted_code_module,
    trusted_reference,
)
from rulespec.spec.validate import load_spec

ROOT = Path(__file__).resolve().parents[1]
FOOL = ROOT / "specs" / "fool.yaml"


def _distribution(site: Path, name: str, entry: str, files: dict[str, str]) -> None:
    """Write a distribution ``name`` 0.1.0 with one ``rulespec.games`` entry point."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[rulespec.games]\n{entry}\n")
    for relative, text in files.items():
        path = site / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of three broken plugins: one fails to import, one ships a spec that does not
    validate, one registers the built-in id ``fool``."""
    site = tmp_path_factory.mktemp("site")
    _distribution(site, "rulespec-crashes", "crashes = crashes_pkg:GAME", {
        "crashes_pkg/__init__.py": "raise RuntimeError('the plugin is broken on purpose')\n"})
    _distribution(site, "rulespec-bad-spec", "bad-spec = bad_spec_pkg:GAME", {
        "bad_spec_pkg/__init__.py": """
            from pathlib import Path
            from rulespec.spec import GamePackage
            GAME = GamePackage(spec=Path(__file__).parent / "bad-spec.yaml")
            """,
        "bad_spec_pkg/bad-spec.yaml": "format: rulespec/1\ngame: {id: bad-spec}\n"})
    _distribution(site, "rulespec-fool", "fool = shadow_pkg:GAME", {
        "shadow_pkg/__init__.py": f"""
            from pathlib import Path
            from rulespec.spec import GamePackage
            GAME = GamePackage(spec=Path({str(FOOL)!r}))
            """})
    return site


def _rulespec(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(site)])}
    return subprocess.run([sys.executable, "-m", "rulespec", *args], cwd=site, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_games_lists_every_usable_game_and_names_each_broken_plugin(site: Path) -> None:
    """`rulespec games` exits 0, lists the built-in games no plugin claims, and names each
    broken plugin: its distribution, its error and the fix."""
    done = _rulespec(site, "games")
    assert done.returncode == 0, done.stderr
    listed = {line.split()[0]: line for line in done.stdout.splitlines()}
    for game in ("dado-de-ouro", "ouro-de-tolo", "ruby-rhino"):
        assert "BROKEN" not in listed[game]
    assert "rulespec-crashes 0.1.0" in listed["crashes"] and "RuntimeError" in listed["crashes"]
    assert "pip uninstall rulespec-crashes" in listed["crashes"]
    assert "BROKEN" in listed["bad-spec"] and "does not validate" in listed["bad-spec"]
    assert "rulespec validate" in listed["bad-spec"]
    assert "of rulespec 0." in listed["fool"] and "rulespec-fool 0.1.0" in listed["fool"], (
        "two distributions registering one id are both named")


def test_commands_for_the_built_in_games_work_beside_broken_plugins(site: Path) -> None:
    """Each command that failed for every game with a broken plugin installed now works for the
    built-in games, and warns once about each skipped plugin on standard error."""
    listing = _rulespec(site, "ambiguities", "--status", "ruled")
    assert listing.returncode == 0, listing.stderr
    assert "RR-AMB-" in listing.stdout and "DDO-AMB-" in listing.stdout
    assert listing.stderr.count("game 'crashes' skipped") == 1, listing.stderr
    assert "rulespec: warning: game 'bad-spec' skipped" in listing.stderr
    played = _rulespec(site, "play", "ruby-rhino", "--seed", "3", "--quiet")
    assert played.returncode == 0 and "ruby-rhino: result" in played.stdout, played.stderr


def test_a_game_claimed_twice_is_refused_naming_both(site: Path) -> None:
    """Playing an id two distributions register exits 2 naming both: never a silent shadow."""
    done = _rulespec(site, "play", "fool", "--quiet")
    assert done.returncode == 2
    assert "registered 2 times" in done.stderr and "rulespec-fool 0.1.0" in done.stderr


def test_validate_reports_the_broken_plugins(site: Path) -> None:
    """`rulespec validate` (every registered spec) checks the built-in specs and fails, naming
    the plugin spec that does not validate and the registrations that cannot be used."""
    done = _rulespec(site, "validate")
    assert done.returncode == 1
    assert "ruby-rhino.yaml: ok" in done.stdout
    assert "bad-spec.yaml" in done.stdout and "crashes" in done.stdout
    assert "registered 2 times" in done.stdout


# -- the trust boundary -------------------------------------------------------------------------


@pytest.fixture
def marker_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An importable module whose import leaves a marker file; returns the marker's path."""
    marker = tmp_path / "IMPORTED"
    (tmp_path / "leaves_a_marker.py").write_text(
        f"open({str(marker)!r}, 'w').write('imported')\nENGINE = None\nWORDS = {{}}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return marker


def _fool_naming(tmp_path: Path, module: str, game_id: str = "fool") -> Path:
    text = FOOL.read_text(encoding="utf-8").replace(
        "  reference: rulespec.games.fool\n", f"  reference: {module}\n")
    text = text.replace("\n  id: fool\n", f"\n  id: {game_id}\n", 1)
    path = tmp_path / f"{game_id}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("game_id", ["fool", "not-registered"])
def test_a_spec_naming_another_module_is_refused_without_importing_it(
        tmp_path: Path, marker_module: Path, game_id: str) -> None:
    """FOOL-SETUP-01's spec copied with game.reference naming an installed module that is no
    registered game's reference: `rulespec validate` refuses it and the module is never
    imported (its marker file is not written), whether the id is registered or not."""
    path = _fool_naming(tmp_path, "leaves_a_marker", game_id)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    done = subprocess.run([sys.executable, "-m", "rulespec", "validate", str(path)],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "'leaves_a_marker' is not imported" in done.stdout
    assert not marker_module.exists(), "the spec made rulespec import a module it named"
    with pytest.raises(UntrustedModule):
        trusted_reference(load_spec(path))
    assert not marker_module.exists()


def test_a_copy_of_a_registered_spec_uses_the_registered_reference(tmp_path: Path) -> None:
    """A spec file outside the registry that names its game's registered module is trusted for
    that module, and only that one (FOOL-SETUP-01)."""
    path = _fool_naming(tmp_path, "rulespec.games.fool")
    assert trusted_reference(load_spec(path)) == "rulespec.games.fool"


def test_a_plugin_may_declare_its_reference_module(tmp_path: Path, marker_module: Path) -> None:
    """GamePackage.reference vouches for a module: a spec naming any other is refused."""
    path = _fool_naming(tmp_path, "leaves_a_marker", "vouched")
    spec = load_spec(path)
    with registered_in_process("vouched", GamePackage(spec=FOOL, reference="leaves_a_marker")):
        assert trusted_reference(spec) == "leaves_a_marker"
    with (registered_in_process("vouched", GamePackage(spec=FOOL, reference="rulespec.games.fool")),
          pytest.raises(UntrustedModule, match="cannot name another module")):
        trusted_reference(spec)
    assert not marker_module.exists()


def test_a_rule_examples_vocabulary_outside_the_game_package_is_not_imported(
        marker_module: Path) -> None:
    """A rule examples file is untrusted: its vocabulary must lie in the registering
    distribution's package or rulespec's shared vocabularies; rulespec.__main__ (which runs the
    command line on import) is refused too."""
    from rulespec.examples.errors import ExampleError
    from rulespec.examples.position import vocabulary

    assert trusted_code_module("fool", "rulespec.examples.vocab.fool", "vocabulary")
    for module in ("leaves_a_marker", "rulespec.__main__", "rulespec.cli"):
        with pytest.raises(ExampleError, match="is not imported"):
            vocabulary(module, "fool")
    assert not marker_module.exists()


@pytest.mark.integration
def test_the_kit_the_diff_the_matrix_and_the_docs_work_beside_broken_plugins(
        site: Path, tmp_path: Path) -> None:
    """conform (RR-END-01's game played to its end), diff --check --all, matrix and docs build:
    each failed for every game with one broken plugin installed; each now works for the
    built-in games and names the plugins it skipped."""
    conform = _rulespec(site, "conform", "--game", "ruby-rhino", "--examples", "2", "-q")
    assert conform.returncode == 0 and "CONFORMANT" in conform.stdout, conform.stderr
    diff = _rulespec(site, "diff", "--check", "--all", "--quiet")
    assert diff.returncode == 0, diff.stdout + diff.stderr
    assert "ruby-rhino" in diff.stdout and "game 'crashes' skipped" in diff.stderr
    matrix = _rulespec(site, "matrix", "--game", "ruby-rhino", "--examples", "1", "-j", "1",
                       "--out", str(tmp_path / "matrix"))
    assert matrix.returncode == 0, matrix.stdout + matrix.stderr
    docs = _rulespec(site, "docs", "build", "-d", str(tmp_path / "site"))
    assert docs.returncode == 0, docs.stdout + docs.stderr
    assert (tmp_path / "site" / "games" / "ruby-rhino").is_dir() or any(
        "ruby-rhino" in p.name for p in (tmp_path / "site").rglob("*"))
    assert "game 'bad-spec' skipped" in docs.stderr
