"""The frozen plugin packages (tests/compat/plugins/README.md), installed for real into a child
environment with rulespec from the wheel (tests/packaging's fixtures), each in its own: the
``rulespec.games`` entry point, the spec format ``rulespec/1``, the public API their code and
tests import, and the commands their README tells authors to run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compat.conftest import PLUGINS
from tests.packaging.conftest import ChildEnv, copy_tree, make_child

_PROJECT = ["pyproject.toml", "README.md", "tests"]


def _child(root: Path, wheel: Path, folder: str, package: str) -> ChildEnv:
    project = copy_tree([*_PROJECT, package], PLUGINS / folder, root / folder)
    return make_child(root, wheel, project)


@pytest.fixture(scope="module")
def tally_ho(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> ChildEnv:
    """A child with rulespec and the plugin new-game wrote in 0.2.0 (edited as the docs say)."""
    return _child(tmp_path_factory.mktemp("tally-ho"), wheel, "rulespec-tally-ho",
                  "rulespec_tally_ho")


@pytest.fixture(scope="module")
def tally_old(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> ChildEnv:
    """A child with rulespec and the plugin new-game wrote before the provenance rules."""
    return _child(tmp_path_factory.mktemp("tally-old"), wheel, "rulespec-tally-old",
                  "rulespec_tally_old")


@pytest.mark.integration
def test_the_0_2_0_plugin_works_installed(tally_ho: ChildEnv, tmp_path: Path) -> None:
    """rulespec-tally-ho, frozen: listed, valid (quotes against its own rulebook), plays,
    conforms (rule examples TALLYHO-EX-*, golden traces, perft tables included: TALLYHO-TURN-02
    with a pile of twenty-one), its golden traces are current and replay, and its own tests
    pass."""
    rs = tally_ho.bin("rulespec")
    assert "tally-ho" in tally_ho.run(rs, "games", cwd=tmp_path).stdout
    out = tally_ho.run(rs, "validate", cwd=tmp_path).stdout
    assert "tally-ho.yaml: ok (quotes checked against" in out, out
    assert "winner" in tally_ho.run(rs, "play", "tally-ho", "-q", cwd=tmp_path).stdout
    out = tally_ho.run(rs, "conform", "--game", "tally-ho", "--examples", "3", "-q",
                       cwd=tmp_path).stdout
    assert "CONFORMANT under rulings" in out, out
    tally_ho.run(rs, "golden", "tally-ho", "--check", cwd=tmp_path)
    for trace in sorted((PLUGINS / "rulespec-tally-ho").glob("*/traces/*.jsonl")):
        tally_ho.run(rs, "replay", trace, cwd=tmp_path)
    out = tally_ho.run(tally_ho.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                       tally_ho.pig_project / "tests", cwd=tally_ho.pig_project).stdout
    assert " passed" in out and "failed" not in out, out


@pytest.mark.integration
def test_the_0_2_0_plugin_type_checks_against_todays_api(tally_ho: ChildEnv) -> None:
    """The public API's annotations are a contract too: the frozen plugin's package and tests
    pass mypy --strict against today's rulespec, as they did against 0.2.0's."""
    project = tally_ho.pig_project
    tally_ho.run(tally_ho.python, "-m", "mypy", "--strict", "rulespec_tally_ho", "tests",
                 cwd=project)


@pytest.mark.integration
def test_the_0_2_0_plugin_builds_into_the_docs(tally_ho: ChildEnv, tmp_path: Path) -> None:
    """``rulespec docs build`` (the docs extra) builds the site with the frozen plugin's pages."""
    pytest.importorskip("mkdocs", reason="rulespec docs build needs the docs extra")
    site = tmp_path / "site"
    tally_ho.run(tally_ho.bin("rulespec"), "docs", "build", "--site-dir", site, cwd=tmp_path,
                 timeout=600)
    assert any("tally-ho" in str(p) for p in site.rglob("*.html")), "the plugin has pages"


@pytest.mark.integration
def test_the_pre_provenance_plugin_validates_with_warnings(tally_old: ChildEnv,
                                                           tmp_path: Path) -> None:
    """rulespec-tally-old, written before 57a4313 required every ambiguity record to declare
    ``effect`` and to be named in some element's ``readings`` (TALLYOLD-AMB-01 does neither):
    deprecated, not refused (refused from rulespec 0.4.0, the changelog's ``Deprecated``), so it
    validates with warnings naming both fields and the fix, and still lists, plays, conforms
    and passes its own tests."""
    rs = tally_old.bin("rulespec")
    proc = tally_old.exits(rs, "validate", cwd=tmp_path)
    said = proc.stdout + proc.stderr
    assert proc.returncode == 0, said
    assert "effect" in said and "readings" in said and "0.4.0" in said, said
    assert "add effect:" in said and "add it to the readings" in said, said
    assert "tally-old" in tally_old.run(rs, "games", cwd=tmp_path).stdout
    assert "winner" in tally_old.run(rs, "play", "tally-old", "-q", cwd=tmp_path).stdout
    out = tally_old.run(rs, "conform", "--game", "tally-old", "--examples", "3", "-q",
                        cwd=tmp_path).stdout
    assert "CONFORMANT under rulings" in out, out
    out = tally_old.run(tally_old.python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        tally_old.pig_project / "tests", cwd=tally_old.pig_project).stdout
    assert " passed" in out and "failed" not in out, out


def test_the_frozen_plugins_have_no_build_leftovers() -> None:
    """A frozen plugin is its source only: no egg-info, build folder or bytecode."""
    left = [p for p in PLUGINS.rglob("*") if p.name.endswith(".egg-info")
            or p.name in ("build", "__pycache__", ".pytest_cache")]
    assert not left, left
