"""Run the README's test command inside the test budget: its CPU time, and the 20 slowest tests.

    python3 .ci/test_budget.py [--budget-seconds S] [--margin F] [--slowest N] -- COMMAND ...

Runs COMMAND unchanged (CI passes the README's test command), with ``RULESPEC_TEST_DURATIONS``
pointing at a file where ``tests/conftest.py`` writes every test's duration. Then it prints the
CPU time of the whole run (every process it started, pytest's workers included, measured by the
kernel: on a shared machine the CPU time moves far less than the wall clock) against the budget
in ``pyproject.toml`` (``[tool.rulespec.test-budget]``), and the slowest tests. It exits with
COMMAND's status if that failed, 1 if the CPU time is past the budget by more than the margin,
and 0 otherwise. Standard library only: CI runs it before anything else is installed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = "RULESPEC_TEST_DURATIONS"


def budget_from(pyproject: Path) -> dict[str, float]:
    """Return ``cpu-seconds`` and ``margin`` from ``[tool.rulespec.test-budget]``."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    table = data.get("tool", {}).get("rulespec", {}).get("test-budget")
    if not isinstance(table, dict) or "cpu-seconds" not in table or "margin" not in table:
        raise SystemExit(f"{pyproject}: [tool.rulespec.test-budget] needs cpu-seconds and margin")
    return {"cpu-seconds": float(table["cpu-seconds"]), "margin": float(table["margin"])}


def read_durations(path: Path) -> dict[str, float]:
    """Return each test's duration from the file ``tests/conftest.py`` wrote (none if it did not)."""
    try:
        durations = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(name): float(seconds) for name, seconds in durations.items()}


def slowest(durations: dict[str, float], count: int) -> list[tuple[str, float]]:
    """Return the ``count`` slowest tests."""
    ranked = sorted(durations.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:count]


def by_file(durations: dict[str, float], count: int) -> list[tuple[str, float]]:
    """Return the ``count`` test files whose tests took longest together."""
    files: dict[str, float] = {}
    for name, seconds in durations.items():
        files[name.split("::")[0]] = files.get(name.split("::")[0], 0.0) + seconds
    return sorted(files.items(), key=lambda item: (-item[1], item[0]))[:count]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget-seconds", type=float, help="CPU seconds (default: pyproject)")
    parser.add_argument("--margin", type=float, help="allowed overrun, a fraction (default: pyproject)")
    parser.add_argument("--slowest", type=int, default=20)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    budget = budget_from(ROOT / "pyproject.toml")
    cpu_budget = budget["cpu-seconds"] if args.budget_seconds is None else args.budget_seconds
    margin = budget["margin"] if args.margin is None else args.margin

    with tempfile.TemporaryDirectory() as folder:
        durations = Path(folder) / "durations.json"
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.monotonic()
        status = subprocess.run(command, env={**os.environ, ENV: str(durations)}, check=False).returncode
        wall = time.monotonic() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        measured = read_durations(durations)
    ranked = slowest(measured, args.slowest)
    files = by_file(measured, 10)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    print(f"\n== test budget: {len(ranked)} slowest tests (seconds, setup + call + teardown)")
    for name, seconds in ranked:
        print(f"{seconds:8.1f}  {name}")
    if files:
        print("== test budget: the 10 test files that took longest, all their tests together")
        for name, seconds in files:
            print(f"{seconds:8.1f}  {name}")
    limit = cpu_budget * (1 + margin)
    print(f"== test budget: CPU {cpu:.0f} s over {wall:.0f} s of wall clock; budget {cpu_budget:.0f} s "
          f"of CPU, refused past {limit:.0f} s (margin {margin:.0%})")
    if status != 0:
        return status
    if cpu > limit:
        print(f"== test budget: OVER by {cpu - cpu_budget:.0f} s of CPU. Make the slowest tests above "
              "cheaper, or mark the long ones slow or integration with the reason "
              "(README, 'Set up'); raise the budget in pyproject.toml only with a reason in the "
              "commit.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
