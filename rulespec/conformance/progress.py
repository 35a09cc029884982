"""What the kit is doing, shown on a terminal while ``conform`` and ``conform-bench`` run.

The kit tells a ``KitListener`` what it starts (rule examples, a configuration's games, the
golden traces), when a configuration is finished, and (from parallel workers) how many steps
they checked. ``KitProgress`` draws that with rich on standard error when it is a terminal;
off a terminal, or with ``--quiet``, nothing is drawn and nothing is printed.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Protocol

from rulespec.conformance.checks import RunResult

#: Seconds between two refreshes of the steps counter.
_REFRESH = 0.25


class KitListener(Protocol):
    """Told by the kit what it is doing."""

    def activity(self, text: str) -> None:
        """The kit starts ``text`` (a phase, or a configuration's games)."""
        ...

    def config_done(self, index: int, result: RunResult) -> None:
        """Configuration ``index`` is finished."""
        ...

    def steps(self, count: int) -> None:
        """A worker process checked ``count`` more steps."""
        ...


def on_terminal(stream: IO[str] | None = None) -> bool:
    """Return True when ``stream`` (default: standard error) is an interactive terminal."""
    out = sys.stderr if stream is None else stream
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError):
        return False


class KitProgress:
    """A rich progress line: configurations done, steps checked, what is being checked."""

    def __init__(self, title: str, configs: int, steps_here: Callable[[], int],
                 console: Any = None, unit: str = "configurations") -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._steps_here = steps_here
        self._from_workers = 0
        self._done = 0
        self._progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn(unit + " · {task.fields[steps]:,} steps checked · {task.fields[now]}"),
            TimeElapsedColumn(),
            console=console or Console(stderr=True), transient=True)
        self._task = self._progress.add_task(title, total=configs or None, steps=0, now="")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> KitProgress:
        self._progress.start()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self._progress.stop()

    def _tick(self) -> None:
        while not self._stop.wait(_REFRESH):
            self._progress.update(self._task, steps=self._steps_here() + self._from_workers)

    def activity(self, text: str) -> None:
        """Show what the kit does now."""
        self._progress.update(self._task, now=text)

    def config_done(self, index: int, result: RunResult) -> None:
        """Count a finished configuration."""
        self.advance()

    def advance(self) -> None:
        """Count one more unit done."""
        self._done += 1
        self._progress.update(self._task, completed=self._done)

    def steps(self, count: int) -> None:
        """Count steps checked by a worker (taken back, negative, once the kit adds them)."""
        self._from_workers += count


@contextmanager
def kit_progress(kit: Any, title: str, configs: int, *, show: bool) -> Iterator[None]:
    """Show the progress of ``kit`` (a ``Conformance``) while the block runs, when ``show``."""
    if not show:
        yield
        return
    with KitProgress(title, configs, lambda: int(kit.steps_checked)) as progress:
        kit.listener = progress
        try:
            yield
        finally:
            kit.listener = None
