"""Entry points: `rulespec conform` (text, JSON, JUnit; exit codes), replaying its minimal
trace with `rulespec replay`, and the pytest plugin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from rulespec.spec.registry import get_spec

from .corpus import playable_games
from .support import ROOT, bad_server_command, serve_command

GAME = "dado-de-ouro" if "dado-de-ouro" in playable_games() else playable_games()[0]
BAD = "tie-gains-reroll" if GAME == "dado-de-ouro" else "biased-chance"


def _rulespec(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rulespec", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def _players() -> str:
    return str(get_spec(GAME).min_players)


def test_conform_accepts_the_served_reference(tmp_path: Path) -> None:
    """`rulespec conform --engine "rulespec serve GAME"` exits 0 and writes a JSON report."""
    engine = " ".join(serve_command(GAME))
    report = tmp_path / "report.json"
    done = _rulespec("conform", "--engine", engine, "--game", GAME, "--players", _players(),
                     "--examples", "3", "--format", "json", "--report", str(report),
                     cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    doc = json.loads(report.read_text())
    assert doc["format"] == "rulespec-conformance/1" and doc["ok"] is True
    assert {c["id"]: c["status"] for c in doc["checks"]}["DIFF-STATE"] == "passed"
    assert json.loads(done.stdout) == doc, "--format json prints the JSON report on stdout too"


def test_conform_rejects_a_bad_engine_and_its_trace_replays(tmp_path: Path) -> None:
    """A bad engine: exit 1, the failed check and clauses in the report, a replayable trace."""
    engine = " ".join(bad_server_command(GAME, BAD))
    junit = tmp_path / "report.xml"
    done = _rulespec("conform", "--engine", engine, "--game", GAME, "--players", _players(),
                     "--examples", "10", "--format", "junit", "--report", str(junit),
                     "--trace-dir", str(tmp_path / "failures"), "--no-golden", cwd=tmp_path)
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout == junit.read_text(), "--format junit prints the XML on stdout too"
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and int(suite.get("failures", "0")) >= 1
    traces = sorted((tmp_path / "failures").glob("*.jsonl"))
    assert traces, "no minimal failing trace was written"
    replayed = _rulespec("replay", str(traces[0]), cwd=tmp_path)
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr


def test_conform_usage_errors_exit_2(tmp_path: Path) -> None:
    """An unknown game, a bad ruling, a bad player count: exit 2 with a sentence."""
    assert _rulespec("conform", "--game", "no-such-game", cwd=tmp_path).returncode == 2
    bad_ruling = _rulespec("conform", "--game", GAME, "--ruling", "nonsense", cwd=tmp_path)
    assert bad_ruling.returncode == 2 and "AMBIGUITY=OPTION" in bad_ruling.stderr
    unknown = _rulespec("conform", "--game", GAME, "--ruling", "XX-AMB-99=a", cwd=tmp_path)
    assert unknown.returncode == 2 and "unknown ambiguity" in unknown.stderr
    players = _rulespec("conform", "--game", GAME, "--players", "99", cwd=tmp_path)
    assert players.returncode == 2


def _pytest(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTEST_ADDOPTS", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


# Integration: a child pytest run of the kit's items, 10 s (issue 46's budget).
@pytest.mark.integration
def test_pytest_plugin_runs_the_kit_as_tests(tmp_path: Path) -> None:
    """`pytest --rulespec-engine CMD --rulespec-game ID` passes for the reference."""
    done = _pytest("--rulespec-engine", " ".join(serve_command(GAME)), "--rulespec-game", GAME,
                   "--rulespec-players", _players(), "--rulespec-examples", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "passed" in done.stdout


def test_pytest_plugin_reports_the_failed_check(tmp_path: Path) -> None:
    """The plugin fails an item of a bad engine and shows the check and clauses."""
    done = _pytest("--rulespec-engine", " ".join(bad_server_command(GAME, BAD)),
                   "--rulespec-game", GAME, "--rulespec-players", _players(),
                   "--rulespec-examples", "10", "-k", "conform", cwd=tmp_path)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-2000:]
    assert "FAIL " in done.stdout and "clauses:" in done.stdout


# Integration: a whole benchmark run in a child process, 12 s (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
def test_conform_bench_prints_figures(tmp_path: Path) -> None:
    """`rulespec conform-bench` prints checked steps per second per path (no time asserted)."""
    done = _rulespec("conform-bench", GAME, "--examples", "2", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = json.loads(done.stdout)
    paths = {k for k in rows[0] if k != "game"}
    assert {"in-process/default", "in-process/full", "protocol/default"} <= paths
    assert all(rows[0][p]["steps"] > 0 and rows[0][p]["ok"] for p in paths)


def test_an_engine_that_cannot_start_fails_golden_too(tmp_path: Path) -> None:
    """GOLDEN: when the engine cannot even say hello, no golden trace was replayed: failed."""
    from rulespec.conformance.engine.adapters import SubprocessAdapter
    from rulespec.conformance.play.runner import Conformance, Options

    adapter = SubprocessAdapter("/nonexistent/engine-binary")
    try:
        report = Conformance(adapter, "dado-de-ouro",
                             options=Options(examples=1, trace_dir=tmp_path)).run([])
    finally:
        adapter.close()
    assert not report.ok
    status = report.check_status()
    assert status["GOLDEN"] == "failed", status
    assert status["PROTOCOL"] == "failed", status
    assert status["INVARIANT"] == "not run", status
