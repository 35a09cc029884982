"""The engines the kit started: each in its own process group, all ended when the kit ends.

``SubprocessAdapter`` registers every engine it starts (``start_new_session``: the engine and
its children form one process group) and unregisters it when it ends it. Whatever way the kit
stops, the engines stop with it: at interpreter exit (``atexit``), and on SIGINT, SIGTERM or
SIGHUP while ``ending_engines_on_signals()`` is active (the ``conform`` and ``conform-bench``
commands), where the handler kills every registered group before the kit exits with
128 + the signal number.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator
from types import FrameType
from typing import Any

#: Live engine processes by pid (a process group each: the pid is the group id).
_LIVE: dict[int, subprocess.Popen[bytes]] = {}

#: The signals that end the kit (and so its engines).
SIGNALS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None))
                if s is not None)


def register(proc: subprocess.Popen[bytes]) -> None:
    """Remember an engine process (started as the leader of its own process group)."""
    _LIVE[proc.pid] = proc


def unregister(proc: subprocess.Popen[bytes]) -> None:
    """Forget an engine process that has been ended."""
    _LIVE.pop(proc.pid, None)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the engine's whole process group (the engine and anything it started)."""
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        proc.kill()


def end_all(*, keep: frozenset[int] = frozenset()) -> None:
    """Kill every registered engine's process group (except the pids in ``keep``), reap them."""
    for proc in [p for pid, p in _LIVE.items() if pid not in keep]:
        kill_group(proc)
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            proc.wait(timeout=2)
        unregister(proc)


def live() -> list[int]:
    """Return the pids of the engines still registered."""
    return sorted(_LIVE)


atexit.register(end_all)


class Interrupted(BaseException):
    """The kit received a signal that ends it; ``code`` is 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"interrupted by {signal.Signals(signum).name}")
        self.code = 128 + signum


#: Not empty while an engine is being started: a signal then waits until it is registered.
_spawning: list[bool] = []
#: Signals received while an engine was being started.
_pending: list[int] = []


@contextlib.contextmanager
def spawning() -> Iterator[None]:
    """Start an engine (and ``register`` it) inside this block: a signal waits for its end.

    Without it, a signal arriving between the fork and the registration would end the kit
    and leave the new engine, in its own session, running.
    """
    _spawning.append(True)
    try:
        yield
    finally:
        _spawning.pop()
        if _pending and not _spawning:
            signum = _pending[0]
            _pending.clear()
            end_all()
            raise Interrupted(signum)


def _handler(signum: int, frame: FrameType | None) -> None:
    if _spawning:
        _pending.append(signum)
        return
    end_all()
    raise Interrupted(signum)


@contextlib.contextmanager
def ending_engines_on_signals() -> Iterator[None]:
    """End every engine at once on SIGINT/SIGTERM/SIGHUP, then raise ``Interrupted``.

    Only the main thread can set signal handlers; elsewhere this does nothing more than the
    ``atexit`` hook already does.
    """
    previous: dict[int, Any] = {}
    before = frozenset(_LIVE)  # engines of the caller's own, started before: not ours to end
    try:
        for sig in SIGNALS:
            previous[sig] = signal.signal(sig, _handler)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
        end_all(keep=before)
