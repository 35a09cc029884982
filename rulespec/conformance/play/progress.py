"""What the kit is doing, shown on a terminal while ``conform`` and ``conform-bench`` run.

The kit tells a ``KitListener`` what it starts (rule examples, a configuration's games, the
golden traces), when a configuration is finished, (from parallel workers) how many steps they
checked, and each failure as soon as it is confirmed. ``KitProgress`` draws that with rich on
standard error when it is a terminal, and prints each failure above the progress line; off a
terminal nothing is drawn, and failures are printed on standard error as plain lines.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Protocol

from rulespec.conformance.judging.checks import Failure, RunResult

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

    def failure(self, failure: Failure) -> None:
        """A failure was confirmed (shrunk and written): it may be shown at once."""
        ...


#: Turns a confirmed failure into the text to print at once (None: nothing, e.g. a cause
#: already printed).
FoundText = Callable[[Failure], "str | None"]


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
                 console: Any = None, unit: str = "configurations",
                 found: FoundText | None = None) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self._steps_here = steps_here
        self._found = found
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

    def failure(self, failure: Failure) -> None:
        """Print the failure above the progress line, as soon as it is confirmed."""
        text = None if self._found is None else self._found(failure)
        if text:
            self._progress.console.print(text, markup=False, highlight=False, soft_wrap=True)


class _Printer:
    """A listener without a display: it prints each failure on standard error, nothing else."""

    def __init__(self, found: FoundText, stream: IO[str] | None = None) -> None:
        self._found = found
        self._stream = stream

    def activity(self, text: str) -> None:
        """Nothing is displayed."""

    def config_done(self, index: int, result: RunResult) -> None:
        """Nothing is displayed."""

    def steps(self, count: int) -> None:
        """Nothing is displayed."""

    def failure(self, failure: Failure) -> None:
        """Print the failure's text at once."""
        text = self._found(failure)
        if text:
            out = self._stream or sys.stderr
            out.write(text if text.endswith("\n") else text + "\n")
            out.flush()


@contextmanager
def kit_progress(kit: Any, title: str, configs: int, *, show: bool,
                 on_failure: FoundText | None = None) -> Iterator[None]:
    """Show the progress of ``kit`` (a ``Conformance``) while the block runs, when ``show``;
    print what ``on_failure`` says of each failure as it is found (above the progress line, or
    on standard error without one)."""
    if not show:
        if on_failure is not None:
            kit.listener = _Printer(on_failure)
        try:
            yield
        finally:
            kit.listener = None
        return
    with KitProgress(title, configs, lambda: int(kit.steps_checked),
                     found=on_failure) as progress:
        kit.listener = progress
        try:
            yield
        finally:
            kit.listener = None
