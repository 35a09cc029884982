"""Conformance levels: an engine may expose less than the whole state and still be checked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.judging.levels import projection
from rulespec.conformance.reports.report import render_text
from rulespec.reference.core import Engine
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

from .corpus import reversed_order, with_parameter


def _exposing(level: str, base: type[Engine]) -> type[Engine]:
    keep = projection(get_spec("fool"), level)

    def state(self: Engine) -> dict[str, Any]:
        out: dict[str, Any] = keep(base.state(self))
        return out

    return type(f"{level.title()}Engine", (base,), {"state": state})


class Declaring(InProcessAdapter):
    """Serve one Fool engine class and declare a conformance level for it."""

    def __init__(self, cls: type[Engine], level: str) -> None:
        super().__init__({"fool": cls}, name=f"{level}-engine")
        self.level = level

    def hello(self) -> Hello:
        base = super().hello()
        games = {g: {**info, "level": self.level} for g, info in base.games.items()}
        return Hello(base.name, base.version, games, base.capabilities)


def _check(level: str, bug: Callable[[type[Engine]], type[Engine]] | None,
           tmp_path: Path) -> Any:
    base = engine_class(get_spec("fool"))
    cls = _exposing(level, bug(base) if bug else base)
    return check_engine(Declaring(cls, level), "fool", players=[4],
                        options=Options(examples=8, trace_dir=tmp_path, shrink_seconds=2))


def test_observable_engine_without_hidden_fields_is_conformant(tmp_path: Path) -> None:
    """FOOL-DEAL-01: hands, deck and cards aside are hidden; an engine that leaves them out and
    declares the observable level passes, and the report says which level was checked."""
    report = _check("observable", None, tmp_path)
    assert report.ok, [f.message for f in report.failures]
    assert report.runs[0].level == "observable"
    assert "at level observable" in render_text(report)


def test_observable_level_still_finds_a_visible_bug(tmp_path: Path) -> None:
    """FOOL-SCORE-01: a wrong score is public, so it is found at the observable level too."""
    bug = with_parameter("going_out_points", lambda n: n + 1)
    report = _check("observable", bug, tmp_path)
    # A rule example (listed first) or the differential checks name the visible bug.
    assert not report.ok and report.failures[0].check in {"EXAMPLE", "DIFF-STATE", "DIFF-RESULT"}
    diff = next(f for f in report.failures if f.check in {"DIFF-STATE", "DIFF-RESULT"})
    assert "/scores" in diff.message or "result" in diff.message


def test_level_none_checks_legal_actions_and_results(tmp_path: Path) -> None:
    """An engine exposing no state is conformant when its actions and results are right, and a
    legal-action bug is still found."""
    report = _check("none", None, tmp_path)
    assert report.ok, [f.message for f in report.failures]
    bad = _check("none", reversed_order, tmp_path)
    first = bad.failures[0]
    # PERFT, run first, finds the order in the first plies and names the check it amounts to.
    assert not bad.ok and (first.subject if first.check == "PERFT" else first.check) == (
        "DIFF-LEGAL"), first
