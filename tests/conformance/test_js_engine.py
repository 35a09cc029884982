"""The independent known-good engine: Dado de Ouro in JavaScript, run by Node.js as a separate
process. The kit must accept it, which shows an engine in any language can be checked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespec.conformance import SubprocessAdapter, check_engine
from rulespec.conformance.reports.report import render

from .corpus import playable_games
from .support import JS_ENGINE, quick

NODE = shutil.which("node")
# Integration: whole kit runs on the Node.js engine in child processes, 21 s (CI runs them as
# a step; the default run stays under five minutes).
pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(NODE is None, reason="Node.js is not installed"),
    pytest.mark.skipif("dado-de-ouro" not in playable_games(), reason="no Dado de Ouro engine"),
]


def _check(tmp_path: Path, **kw: object) -> str:
    adapter = SubprocessAdapter([str(NODE), str(JS_ENGINE)], timeout=10)
    try:
        report = check_engine(adapter, "dado-de-ouro", options=quick(tmp_path, examples=25),
                              **kw)  # type: ignore[arg-type]
    finally:
        adapter.close()
    text = render(report, "text")
    assert report.ok, text
    return text


def test_the_javascript_engine_is_conformant(tmp_path: Path) -> None:
    """Every check, golden traces included, passes for the independent JavaScript engine."""
    text = _check(tmp_path)
    assert "golden traces: " in text and "CONFORMANT under rulings" in text


def test_the_javascript_engine_under_parameter_rulings(tmp_path: Path) -> None:
    """DDO-AMB-01 (an eight-sided die) and DDO-AMB-09 (no score below zero), as declared."""
    _check(tmp_path, rulings={"DDO-AMB-01": "d8", "DDO-AMB-09": "floor-at-zero"})


def test_undeclared_rulings_are_skipped_not_failed(tmp_path: Path) -> None:
    """A ruling the engine does not declare in hello is skipped, and nothing is claimed."""
    adapter = SubprocessAdapter([str(NODE), str(JS_ENGINE)], timeout=10)
    try:
        report = check_engine(adapter, "dado-de-ouro", rulings={"DDO-AMB-12": "reroll-value"},
                              options=quick(tmp_path, golden=False))
    finally:
        adapter.close()
    assert report.runs[0].skipped and "DDO-AMB-12=reroll-value" in report.runs[0].skipped
    assert "NOTHING CHECKED" in render(report, "text")


def test_plugin_skips_golden_traces_under_undeclared_rulings(tmp_path: Path) -> None:
    """GOLDEN: the plugin skips (never passes) a golden trace whose rulings the engine does not
    declare, and replays the ones it does."""
    import os
    import subprocess
    import sys

    from .support import ROOT

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider",
         "--rulespec-engine", f"{NODE} {JS_ENGINE}", "--rulespec-game", "dado-de-ouro",
         "--rulespec-examples", "2", "-k", "golden"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False)
    out = done.stdout
    assert done.returncode == 0, out[-3000:] + done.stderr[-2000:]
    assert "ruling DDO-AMB-03=min-first is not supported" in out, out[-3000:]
    assert " passed" in out and " skipped" in out, out[-3000:]
