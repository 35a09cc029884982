"""The kit ends the engines it starts: on SIGTERM, on SIGINT, and when it exits normally.

The engine under test answers ``hello`` and then goes silent, having started a child that
ignores SIGTERM; the kit runs it in its own process group and must leave no process of that
group behind however it is stopped.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rulespec.conformance.engine import processes
from rulespec.conformance.engine.adapters import SubprocessAdapter
from tests.hardening.corpus import ENGINE

RULESPEC = [sys.executable, "-m", "rulespec"]


def _engine_groups(marker: str) -> set[int]:
    """Return the process groups of live processes whose command line holds ``marker``."""
    groups = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            if marker in cmd and "pytest" not in cmd:
                groups.add(os.getpgid(int(proc.name)))
        except (OSError, ProcessLookupError):
            continue
    return groups


def _gone(marker: str, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _engine_groups(marker):
            return True
        time.sleep(0.1)
    return False


def _conform(tmp_path: Path, marker: str) -> list[str]:
    # The marker (a unique argument the engine ignores) finds this test's processes only.
    return [*RULESPEC, "conform", "--engine", f"{ENGINE} sleepy-child 1 {marker}", "--game",
            "ruby-rhino", "--players", "2", "--timeout", "60", "--trace-dir", str(tmp_path)]


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("timeout") is None, reason="needs coreutils timeout")
def test_sigterm_from_timeout_leaves_no_engine(tmp_path: Path) -> None:
    """`timeout -s TERM 10 rulespec conform --engine ...` leaves no process of the engine.

    Ten seconds, not less: on a loaded machine the kit can take several seconds to import and
    install its handlers, and a TERM before that ends it without the message asserted here."""
    marker = f"marker-term-{os.getpid()}"
    # -k 30: should the kit ignore the TERM, timeout kills it 30 s later (exit 137, a failure)
    done = subprocess.run(["timeout", "-k", "30", "-s", "TERM", "10", *_conform(tmp_path, marker)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 124, done.stderr  # timeout's own code: it had to stop the kit
    assert "interrupted by SIGTERM" in done.stderr and "Traceback" not in done.stderr
    assert _gone(marker), f"engine processes left behind: {_engine_groups(marker)}"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_signal_ends_engine_and_exits_128_plus_signal(tmp_path: Path,
                                                     sig: signal.Signals) -> None:
    """SIGINT and SIGTERM end the kit with 128 + the signal number and end the engine group."""
    marker = f"marker-{sig.name}-{os.getpid()}"
    kit = subprocess.Popen(_conform(tmp_path, marker), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while len(_engine_groups(marker)) == 0 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # the engine has started its child and gone silent
        assert _engine_groups(marker), "the engine never started"
        kit.send_signal(sig)
        _, err = kit.communicate(timeout=30)
    finally:
        if kit.poll() is None:
            kit.kill()
    assert kit.returncode == 128 + sig, err
    assert f"interrupted by {sig.name}" in err and "Traceback" not in err
    assert _gone(marker), f"engine processes left behind: {_engine_groups(marker)}"


def test_adapter_close_and_exit_end_the_group() -> None:
    """Closing the adapter (as the kit does on every exit path) ends the engine's group."""
    marker = f"marker-close-{os.getpid()}"
    adapter = SubprocessAdapter(f"{ENGINE} sleepy-child 1 {marker}", timeout=0.5)
    adapter.hello()
    with pytest.raises(Exception, match="no answer"):
        adapter.call("legal_actions")  # starts the child, then the engine goes silent
    assert adapter.proc is None and not processes.live()
    assert _gone(marker)
    adapter.close()


def test_the_signal_guard_ends_only_the_engines_started_inside_it() -> None:
    """Leaving ``ending_engines_on_signals`` ends its own engines, not the caller's older ones."""
    outside = SubprocessAdapter(f"{ENGINE} silent 1", timeout=5)
    inside = SubprocessAdapter(f"{ENGINE} silent 1", timeout=5)
    try:
        outside.hello()
        with processes.ending_engines_on_signals():
            inside.hello()
            assert inside.proc is not None and inside.proc.pid in processes.live()
        assert inside.proc is not None and inside.proc.poll() is not None
        assert outside.proc is not None and outside.proc.poll() is None
    finally:
        inside.close()
        outside.close()
    assert not processes.live()
