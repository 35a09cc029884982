"""The independent known-good engine: Dado de Ouro in JavaScript, run by Node.js as a separate
process. The kit must accept it, which shows an engine in any language can be checked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance import SubprocessAdapter, check_engine
from conformance.report import render

from .corpus import playable_games
from .support import JS_ENGINE, quick

NODE = shutil.which("node")
pytestmark = [
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
