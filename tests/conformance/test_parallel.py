"""``conform --jobs N``: configurations checked in N engine processes give the same report."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.engine.adapters import SubprocessAdapter
from rulespec.conformance.reports.report import render
from tests.hardening.corpus import ENGINE
from tests.hardening.test_engines_end import RULESPEC, _engine_groups, _gone
from tests.support import without_keys

from .corpus import corpus

#: Report fields that measure time, the only ones allowed to differ between --jobs counts.
TIMING = {"seconds", "spent", "found_after"}


def _without_timing(value: Any) -> Any:
    return without_keys(value, TIMING)


def _report(adapter: Any, game: str, players: list[int], jobs: int, trace_dir: Path,
            **kw: Any) -> dict[str, Any]:
    options = Options(examples=3, seed=7, golden=False, perft_seconds=0, trace_dir=trace_dir,
                      shrink_seconds=2, shorter_seconds=0, jobs=jobs, **kw)
    report = check_engine(adapter, game, players=players, options=options)
    data: dict[str, Any] = json.loads(render(report, "json"))
    return data


def test_jobs_1_and_2_give_the_same_report_for_the_reference(tmp_path: Path) -> None:
    """Issue 11: the same JSON report (timings aside) checking RR-SETUP-01's player counts in
    one process or in two, under a fixed seed; every configuration's games are played."""
    one = _report(InProcessAdapter(), "ruby-rhino", [2, 3, 4], 1, tmp_path / "one")
    two = _report(InProcessAdapter(), "ruby-rhino", [2, 3, 4], 2, tmp_path / "two")
    assert one["ok"] and [r["steps"] for r in one["runs"]] == [r["steps"] for r in two["runs"]]
    assert all(r["steps"] > 0 for r in two["runs"])
    assert _without_timing(one) == _without_timing(two)


def test_jobs_give_the_same_failures_and_trace_names(tmp_path: Path) -> None:
    """A bad engine fails every configuration the same way with --jobs 2 as with --jobs 1, and
    its minimal traces get the same file names (the sequential kit's numbering)."""
    bad = next(b for b in corpus(["ruby-rhino"]) if b.check == "DIFF-STATE")
    reports = []
    for jobs, folder in ((1, tmp_path / "one"), (2, tmp_path / "two")):
        adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
        report = _report(adapter, bad.game, [2, 3], jobs, folder, rule_examples=False)
        assert not report["ok"]
        traces = [f["trace"] for f in report["failures"]]
        assert traces and all(Path(t).is_file() and Path(t).parent == folder for t in traces)
        reports.append(report)
    one, two = (json.loads(json.dumps(r).replace(str(tmp_path / d), "DIR"))
                for r, d in zip(reports, ("one", "two"), strict=True))
    assert _without_timing(one) == _without_timing(two)


def test_jobs_over_the_protocol_match_in_process(tmp_path: Path) -> None:
    """Two engine processes over the protocol check what one in-process kit checks."""
    cmd = [sys.executable, "-m", "rulespec.conformance.server", "ruby-rhino"]
    sub = SubprocessAdapter(cmd)
    try:
        two = _report(sub, "ruby-rhino", [2, 3], 2, tmp_path, rule_examples=False)
    finally:
        sub.close()
    one = _report(InProcessAdapter(), "ruby-rhino", [2, 3], 1, tmp_path, rule_examples=False)
    assert [r["steps"] for r in one["runs"]] == [r["steps"] for r in two["runs"]]
    assert two["ok"]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_ends_every_engine_of_every_job(tmp_path: Path, sig: signal.Signals) -> None:
    """SIGTERM/SIGINT to `conform --jobs 2` end the kit (128 + signal), its workers and the
    engine of each worker; none is left behind."""
    marker = f"marker-jobs-{sig.name}-{os.getpid()}"
    # The engine answers correctly for far longer than the test runs.
    cmd = [*RULESPEC, "conform", "--engine", f"{ENGINE} sleepy-child 1000000 {marker}", "--game",
           "ruby-rhino", "--players", "2", "--players", "3", "--examples", "1000",
           "--trace-dir", str(tmp_path), "--jobs", "2"]
    kit = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        # The kit's own engine (its handshake) and one per worker.
        while len(_engine_groups(marker)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        assert len(_engine_groups(marker)) >= 3, "the workers' engines never started"
        kit.send_signal(sig)
        _, err = kit.communicate(timeout=30)
    finally:
        if kit.poll() is None:
            kit.kill()
    assert kit.returncode == 128 + sig, err
    assert "Traceback" not in err
    assert _gone(marker), f"engine processes left behind: {_engine_groups(marker)}"
