"""Verdicts a person reads in a minute (issue 29): one cause reported once, a short text report,
rulings named only where they explain, failures printed as they are found, ``-x`` and a budget."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.judging.causes import report_causes
from rulespec.conformance.judging.scope import label
from rulespec.conformance.reports.report import FoundStream, render_json, render_text
from rulespec.spec.registry import get_spec

from .corpus import RULING_ENGINES, SPECIFIC, BadEngine
from .support import ROOT, bad_server_command

#: The longest text report of a failure with one cause (issue 29: "under 60 lines").
MOST_LINES = 60


def _bad(game: str, name: str) -> BadEngine:
    return next(b for b in [*SPECIFIC.get(game, []), *RULING_ENGINES]
                if b.game == game and b.name == name)


def _check(bad: BadEngine, tmp: Path, **kw: object) -> object:
    options = Options(**{"trace_dir": tmp, "jobs": 1, "budget": 30.0, **kw})  # type: ignore[arg-type]
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    return check_engine(adapter, bad.game, players=[bad.players] if bad.players else None,
                        options=options)


#: Planted bugs of three games, each one cause: a ruling misread (its rule examples, play and
#: golden traces all fail), a coin too many (every example about the chest fails), and Fool's
#: two Fools read as eight-players-only.
SINGLE_CAUSE = [("dado-de-ouro", "tie-gains-reroll"), ("ruby-rhino", "twenty-one-coins"),
                ("fool", "like-FOOL-AMB-03")]


@pytest.mark.parametrize(("game", "name"), SINGLE_CAUSE, ids=[n for _, n in SINGLE_CAUSE])
def test_a_single_cause_fits_on_one_screen(game: str, name: str, tmp_path: Path) -> None:
    """One cause, once: every failure the planted bug causes (rule examples, configurations,
    golden traces) is one entry with its count and where; the text is under 60 lines and
    the JSON report keeps every failure, each in one cause."""
    report = _check(_bad(game, name), tmp_path)
    text = render_text(report)  # type: ignore[arg-type]
    causes = report_causes(report, lambda c: label(get_spec(game), c))  # type: ignore[arg-type]
    assert len(causes) == 1, [c.key for c in causes]
    assert len(text.splitlines()) < MOST_LINES, text
    assert "1 cause of failure" in text and text.count("\n[1] FAIL ") == 1, text
    doc = json.loads(render_json(report))  # type: ignore[arg-type]
    assert len(doc["causes"]) == 1 and doc["causes"][0]["count"] == len(doc["failures"]) > 1
    assert sorted(doc["causes"][0]["failures"]) == list(range(len(doc["failures"])))
    # Printed once, short: no configuration spelled out ruling by ruling.
    assert max(len(line) for line in text.splitlines()) < 160, text


def test_a_single_cause_over_the_protocol_fits_on_one_screen(tmp_path: Path) -> None:
    """The same from the command line, the bad engine served over the protocol, default run:
    the report on standard output is under 60 lines; the failure was printed on standard
    error as soon as it was found, once for its cause."""
    engine = " ".join(bad_server_command("dado-de-ouro", "tie-gains-reroll"))
    done = subprocess.run([sys.executable, "-m", "rulespec", "conform", "--engine", engine,
                           "--game", "dado-de-ouro", "--trace-dir", str(tmp_path)],
                          capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert done.returncode == 1, done.stderr[-2000:]
    assert len(done.stdout.splitlines()) < MOST_LINES, done.stdout
    assert "1 cause of failure" in done.stdout
    assert done.stderr.count("found after") == 1, done.stderr[-3000:]
    assert "behaves like DDO-AMB-12 = reroll-value" in done.stderr


#: Plain bugs: a wrong number no ruling of the spec produces.
PLAIN = [("dado-de-ouro", "eleven-rounds"), ("fool", "deals-eleven"),
         ("ouro-de-tolo", "dynamite-four-stones"), ("ruby-rhino", "seven-coins-each")]


@pytest.mark.parametrize(("game", "name"), PLAIN, ids=[n for _, n in PLAIN])
def test_no_rulings_line_on_a_plain_bug(game: str, name: str, tmp_path: Path) -> None:
    """A rulings line appears only when an alternative ruling reproduces the failure: a plain
    bug gets none, and never the line saying that no ruling explains it."""
    report = _check(_bad(game, name), tmp_path)
    assert not report.ok  # type: ignore[attr-defined]
    text = render_text(report)  # type: ignore[arg-type]
    assert all(not f.matches for f in report.failures), [  # type: ignore[attr-defined]
        (f.check, f.matches) for f in report.failures]  # type: ignore[attr-defined]
    assert "rulings:" not in text and "no alternative option" not in text, text


def test_rule_example_failures_get_the_ruling_inference(tmp_path: Path) -> None:
    """The rule example a ruling engine fails names the ruling, as a failure in play does."""
    report = _check(_bad("fool", "like-FOOL-AMB-03"), tmp_path, golden=False)
    examples = report.examples.failures  # type: ignore[attr-defined]
    assert examples and all({"FOOL-AMB-03": "eight-only"} in [dict(m) for m in f.matches]
                            for f in examples), [(f.subject, f.inference) for f in examples]


def test_fail_fast_stops_at_the_first_cause(tmp_path: Path) -> None:
    """-x: the run stops once the first failure is confirmed; what was not run is said."""
    report = _check(_bad("ruby-rhino", "twenty-one-coins"), tmp_path, fail_fast=True,
                    golden=True)
    assert len(report.failures) == 1, [f.subject for f in report.failures]  # type: ignore[attr-defined]
    budget = report.budget  # type: ignore[attr-defined]
    assert budget["stopped"] == "stopped at the first failure (-x/--fail-fast)", budget
    assert "golden traces" in budget["left_out"]
    assert all(r.cut or r.failures for r in report.runs)  # type: ignore[attr-defined]
    assert "stopped at the first failure" in render_text(report)  # type: ignore[arg-type]


# Integration: a 6 s wall-clock budget spent whole; its game counts depend on the machine's load (issue 46's budget).
@pytest.mark.integration
def test_budget_bounds_an_honest_run(tmp_path: Path) -> None:
    """--budget: an honest engine asked for far more games than fit is stopped at the budget,
    every configuration having had its first games; the report says what was cut."""
    started = time.monotonic()
    report = check_engine(InProcessAdapter(), "ruby-rhino", players=[2, 5],
                          options=Options(examples=10_000, budget=6, jobs=1, trace_dir=tmp_path))
    spent = time.monotonic() - started
    assert report.ok and spent < 6 + 8, spent  # the game in progress at the deadline finishes
    assert all(r.examples >= 3 and r.cut for r in report.runs), [
        (r.examples, r.cut) for r in report.runs]
    assert report.budget is not None and report.budget["stopped"].startswith("the budget")
    assert "cut short: the budget of 6 s was spent" in render_text(report)


def test_failures_of_parallel_workers_are_told_as_found(tmp_path: Path) -> None:
    """With --jobs 2 the workers send each failure to the kit's process as it is confirmed."""
    stream = FoundStream()
    told: list[str] = []

    def found(failure: object) -> str | None:
        text = stream(failure)  # type: ignore[arg-type]
        told.append(text or "")
        return text

    bad = _bad("ruby-rhino", "twenty-one-coins")
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    report = check_engine(adapter, bad.game, players=[2, 3],
                          options=Options(examples=4, jobs=2, trace_dir=tmp_path, golden=False,
                                          rule_examples=False, shrink_seconds=2,
                                          shorter_seconds=0),
                          on_failure=found)
    assert len(told) == len(report.failures) == 2
    assert sum(1 for t in told if t.startswith("found after")) == 1, told  # one cause


def test_a_failure_found_is_printed_above_the_progress_line() -> None:
    """On a terminal the failure is printed through the progress display's console (above the
    line that keeps counting), once per cause."""
    import io

    from rich.console import Console

    from rulespec.conformance.judging.checks import Failure
    from rulespec.conformance.play.progress import KitProgress

    out = io.StringIO()
    failure = Failure("INVARIANT", ("DDO-TIE-02",), "the gain is wrong",
                      {"game": "dado-de-ouro", "players": 4}, subject="DDO-INV-GAINER-HIGHEST",
                      found_after=1.5)
    with KitProgress("conform dado-de-ouro", 1, lambda: 0,
                     console=Console(file=out, force_terminal=True, width=120),
                     found=FoundStream()) as progress:
        progress.failure(failure)
        progress.failure(failure)
    text = out.getvalue()
    assert text.count("found after 1.5 s") == 1, text
    assert "FAIL INVARIANT" in text and "DDO-INV-GAINER-HIGHEST" in text
