"""Issue 9: the out-of-tree Pig game, installed for real beside a non-editable rulespec, is
picked up by every part of rulespec exactly like a built-in game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.packaging.conftest import ROOT, ChildEnv


def test_the_child_uses_its_own_installs_not_the_editable_checkout(child: ChildEnv,
                                                                   tmp_path: Path) -> None:
    """rulespec and rulespec_pig are imported from the child's site-packages, and each game is
    registered once (the parent's editable rulespec does not leak in)."""
    code = ("import json, rulespec, rulespec_pig\n"
            "from rulespec.spec.registry import registry\n"
            "reg = registry()\n"
            "print(json.dumps({'rulespec': rulespec.__file__, 'pig': rulespec_pig.__file__,\n"
            "                  'games': sorted(reg.games), 'problems': reg.problems}))")
    seen = json.loads(child.run(child.python, "-c", code, cwd=tmp_path).stdout)
    for name in ("rulespec", "pig"):
        assert Path(seen[name]).resolve().is_relative_to(child.site_packages.resolve()), seen
    assert not Path(seen["rulespec"]).resolve().is_relative_to(ROOT)
    assert seen["problems"] == {}
    assert seen["games"] == ["dado-de-ouro", "fool", "ouro-de-tolo", "pig", "ruby-rhino"]


def test_games_lists_pig(child: ChildEnv, tmp_path: Path) -> None:
    """`rulespec games` lists Pig beside the built-in games."""
    rows = json.loads(child.run(child.bin("rulespec"), "games", "--format", "json",
                                cwd=tmp_path).stdout)
    pig = next(r for r in rows if r["id"] == "pig")
    assert pig["players"] == [2, 6] and pig["ambiguities"] >= 2


def test_validate_checks_pig_against_its_own_rulebook(child: ChildEnv, tmp_path: Path) -> None:
    """`rulespec validate` checks Pig's quotes and sha256 against the rulebook folder it ships."""
    out = child.run(child.bin("rulespec"), "validate", cwd=tmp_path).stdout
    folder = child.site_packages / "rulespec_pig" / "rulebooks"
    assert f"pig.yaml: ok (quotes checked against {folder})" in out, out


def test_play_pig(child: ChildEnv, tmp_path: Path) -> None:
    """`rulespec play pig` plays a game to its result and writes a trace that replays."""
    trace = tmp_path / "pig.jsonl"
    out = child.run(child.bin("rulespec"), "play", "pig", "-n", "3", "--seed", "2", "--ruling",
                    "PIG-AMB-02=equal-turns", "--trace", trace, cwd=tmp_path).stdout
    assert "pig: result after" in out
    assert "ok" in child.run(child.bin("rulespec"), "replay", trace, cwd=tmp_path).stdout


def test_golden_check_pig(child: ChildEnv, tmp_path: Path) -> None:
    """`rulespec golden pig --check`: the installed traces are what the reference plays."""
    out = child.run(child.bin("rulespec"), "golden", "pig", "--check", cwd=tmp_path).stdout
    assert "0 difference(s)" in out


def test_conform_pig_through_the_engine_protocol(child: ChildEnv, tmp_path: Path) -> None:
    """The kit checks `rulespec serve pig` over the protocol, golden traces included."""
    serve = f"{child.bin('rulespec')} serve pig"
    out = child.run(child.bin("rulespec"), "conform", "--game", "pig", "--engine", serve,
                    "--players", "2", "--examples", "3", "--trace-dir", tmp_path / "failures",
                    cwd=tmp_path).stdout
    replayed = re.search(r"golden traces: (\d+)/(\d+) replay exactly", out)
    assert replayed and replayed[1] == replayed[2] != "0", out
    assert "CONFORMANT under rulings" in out, out


def test_matrix_checks_pig_from_the_installed_plugin(child: ChildEnv, tmp_path: Path) -> None:
    """`rulespec matrix` of an installed rulespec (its built-in engine list is package data)
    checks Pig, the plugin's engine, in-process and over the protocol, and stamps the reports
    with the plugin's distribution."""
    out = tmp_path / "matrix"
    done = child.run(child.bin("rulespec"), "matrix", "--game", "pig", "--examples", "1",
                     "--budget", "20", "-j", "1", "--out", out, cwd=tmp_path)
    assert "wrote 4 documents" in done.stdout, done.stdout + done.stderr
    for engine in ("reference", "reference-protocol"):
        report = json.loads((out / f"pig.{engine}.json").read_text(encoding="utf-8"))
        assert report["ok"] and report["matrix"]["game"]["distribution"] == "rulespec-pig 0.1.0"
        assert report["matrix"]["engine"]["list"] == "conformance/engines.yaml"


@pytest.mark.integration
def test_docs_build_has_a_pig_section(child: ChildEnv, tmp_path: Path) -> None:
    """`rulespec docs build`, run from the installed rulespec with no checkout at hand, builds the
    site strictly with Pig's pages, its rule examples and perft tables, and its register rows."""
    site = tmp_path / "site"
    out = child.run(child.bin("rulespec"), "docs", "build", "--site-dir", site, cwd=tmp_path,
                    timeout=300).stdout
    assert "pig" in out
    pig = site / "games" / "pig"
    assert (pig / "index.html").is_file() and (pig / "perft" / "index.html").is_file()
    assert "PIG-EX-BUST" in (pig / "rules" / "index.html").read_text(encoding="utf-8")
    register = (site / "ambiguities" / "index.html").read_text(encoding="utf-8")
    assert "PIG-AMB-01" in register


# Integration: pig's own test suite in a fresh environment (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
def test_pig_own_tests_pass(child: ChildEnv, tmp_path: Path) -> None:
    """Pig's own test suite passes where it is installed (non-editable)."""
    out = child.run(child.python, "-m", "pytest", "-q", child.pig_project / "tests",
                    cwd=tmp_path).stdout
    assert " passed" in out and "failed" not in out, out
