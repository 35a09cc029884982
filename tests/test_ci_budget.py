"""The test budget's CI step (``.ci/test_budget.py``): it prints the slowest tests and fails a run
whose CPU time is past the budget by more than the margin (issue 46)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / ".ci" / "test_budget.py"
#: A command that spends about half a second of CPU and writes three tests' durations.
BURN = ("import json, os, time\n"
        "end = time.process_time() + 0.5\n"
        "while time.process_time() < end: pass\n"
        "json.dump({'t.py::slow': 3.0, 't.py::fast': 0.1, 't.py::mid': 1.5},\n"
        "          open(os.environ['RULESPEC_TEST_DURATIONS'], 'w'))\n")


def _budget(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120, check=False, cwd=ROOT)


def test_a_run_past_its_budget_fails_and_names_the_slowest() -> None:
    result = _budget("--budget-seconds", "0.05", "--margin", "0.1", "--slowest", "2", "--",
                     sys.executable, "-c", BURN)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "OVER" in result.stderr
    lines = [line.split()[-1] for line in result.stdout.splitlines() if "t.py::" in line]
    assert lines == ["t.py::slow", "t.py::mid"]
    assert "4.6  t.py" in result.stdout  # the file's tests together


def test_a_run_inside_its_budget_passes() -> None:
    result = _budget("--budget-seconds", "600", "--", sys.executable, "-c", BURN)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "budget 600 s of CPU" in result.stdout


def test_a_failing_run_keeps_its_own_status() -> None:
    result = _budget("--budget-seconds", "600", "--", sys.executable, "-c", "raise SystemExit(3)")
    assert result.returncode == 3


def test_the_project_declares_its_budget() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import test_budget  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(SCRIPT.parent))
    budget = test_budget.budget_from(ROOT / "pyproject.toml")
    assert 0 < budget["cpu-seconds"] <= 600 and 0 <= budget["margin"] < 0.5


def test_the_conftest_writes_each_tests_duration(tmp_path: Path) -> None:
    out = tmp_path / "durations.json"
    node = "tests/test_architecture.py::test_the_circle_finder_finds_circles"
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", node],
                            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
                            env={**os.environ, "RULESPEC_TEST_DURATIONS": str(out)})
    assert result.returncode == 0, result.stdout + result.stderr
    durations = json.loads(out.read_text(encoding="utf-8"))
    assert list(durations) == [node] and durations[node] >= 0


def _conftest() -> Any:
    """Return the conftest module pytest loaded (the one that marks the tests)."""
    for module in list(sys.modules.values()):
        if str(getattr(module, "__file__", "")).endswith(os.path.join("tests", "conftest.py")):
            return module
    raise AssertionError("pytest did not load tests/conftest.py")


def test_every_test_moved_out_of_the_default_run_exists() -> None:
    """A name in ``INTEGRATION_TESTS`` or ``SAMPLED`` that no longer names a test would move
    nothing, and the default run would grow again unseen."""
    conftest = _conftest()
    for name in [*conftest.INTEGRATION_TESTS, *conftest.SAMPLED]:
        path, function = name.split("::")
        text = (ROOT / path).read_text(encoding="utf-8")
        assert f"def {function}(" in text, f"{name} names no test"
    for name, (every, reason) in conftest.SAMPLED.items():
        assert every >= 2 and reason, name
    for name in [*conftest.INTEGRATION_TESTS, *conftest.SAMPLED]:
        assert name.split("::")[0] not in conftest.INTEGRATION_FILES, \
            f"{name} is in a file that moves whole: the entry does nothing"


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


def test_a_sampled_test_keeps_every_kth_case_and_at_least_one() -> None:
    conftest = _conftest()
    base = next(iter(conftest.SAMPLED))
    every = conftest.SAMPLED[base][0]
    items = [_Item(f"{base}[{k}]") for k in range(3 * every + 1)]
    items.append(_Item("tests/other.py::test_elsewhere[0]"))
    out = conftest._sampled_out(items)
    kept = [item.nodeid for item in items if item.nodeid not in out]
    assert len(kept) in (4, 5) and "tests/other.py::test_elsewhere[0]" in kept
    # a test with fewer cases than k still keeps one
    few = [_Item(f"{base}[{k}]") for k in range(1)]
    assert conftest._sampled_out(few) == set()
