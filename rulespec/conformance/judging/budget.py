"""When the kit stops: a wall-clock budget spent by priority, and ``-x`` after the first cause.

``rulespec conform --budget SECONDS`` gives the whole run a deadline. The kit spends it in order
of how much a second buys: the rule examples first, then the golden traces, then per
configuration the PERFT check, a few games of every configuration, more games of each in turn,
and last the games sought for what play has not reached (``rulespec.conformance.play.runner``). Work
is never cut in the middle: a game in progress is finished, and a failure found before the
deadline is still shrunk (for at least ``MIN_SHRINK`` seconds) and explained, so the verdict it
gives is as readable as without a budget. What the budget left out is said in the report.

``--fail-fast`` (``-x``) stops the run once the first failure is confirmed (shrunk and written).
Both conditions are read by forked workers too: the deadline is a point on the monotonic clock,
which a fork shares, and the stop flag is a process-shared event.
"""

from __future__ import annotations

import math
import multiprocessing
import time
from typing import Any

#: Seconds a failure found near the deadline may still be shrunk, at least.
MIN_SHRINK = 3.0


class Budget:
    """The run's deadline and its stop flag; ``reason()`` says why the kit stops (or None)."""

    def __init__(self, seconds: float | None = None, *, fail_fast: bool = False) -> None:
        self.seconds = seconds
        self.fail_fast = fail_fast
        self.started = time.monotonic()
        self.deadline = math.inf if not seconds else self.started + seconds
        self._stop: Any = multiprocessing.get_context("fork").Event() if fail_fast else None
        #: What was left out because the kit stopped ("golden traces", a configuration...).
        self.left_out: list[str] = []
        #: Why the kit stopped, once it left something out (None: it left nothing out).
        self.why: str | None = None

    @property
    def limited(self) -> bool:
        """Return True when the run has a deadline."""
        return self.deadline != math.inf

    def elapsed(self) -> float:
        """Return the seconds since the run began."""
        return time.monotonic() - self.started

    def remaining(self) -> float:
        """Return the seconds left before the deadline (infinite without a budget)."""
        return self.deadline - time.monotonic()

    def stopped(self) -> bool:
        """Return True when ``-x`` stopped the run (a failure was confirmed)."""
        return self._stop is not None and self._stop.is_set()

    def reason(self) -> str | None:
        """Say why no new work may start now (None: it may); the first reason given is what
        the report says stopped the run."""
        why = None
        if self.stopped():
            why = "stopped at the first failure (-x/--fail-fast)"
        elif time.monotonic() > self.deadline:
            why = f"the budget of {self.seconds:g} s was spent"
        if why is not None and self.why is None:
            self.why = why
        return why

    def found(self) -> None:
        """Record that a failure was confirmed: under ``-x``, everything stops."""
        if self._stop is not None:
            self._stop.set()

    def allow(self, seconds: float) -> float:
        """Return how long a step that wants ``seconds`` may take (shrinking, inference):
        as long as it wants while the budget lasts, ``MIN_SHRINK`` at least once it is spent."""
        return max(min(seconds, self.remaining()), min(seconds, MIN_SHRINK))

    def skip(self, what: str) -> bool:
        """Return True (and note ``what`` as left out) when no new work may start now."""
        if self.reason() is None:
            return False
        if what not in self.left_out:
            self.left_out.append(what)
        return True

    def to_json(self) -> dict[str, Any]:
        """Return the budget as the JSON report's ``budget`` object."""
        return {"seconds": self.seconds, "spent": round(self.elapsed(), 3),
                "fail_fast": self.fail_fast, "stopped": self.why,
                "left_out": list(self.left_out)}
