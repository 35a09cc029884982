"""Expectation lines in traces: a hand-written trace can assert outcomes, not just legality.

A line ``{"type": "expect", "that": CEL, "because": sentence}`` holds for the position after
the step line it follows (after the header: the initial position). ``that`` sees ``state``,
``prev`` (the state before that step, or after step ``since`` when the line gives it), ``result``, ``legal`` and ``actor``, as rule examples
do. The lines are additive: a trace without them reads and replays as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulespec.spec.errors import RulespecError
from rulespec.spec.expressions import ExpressionError, compile_expression

#: The variables an expectation line may use.
EXPECT_VARIABLES = ("state", "prev", "result", "legal", "actor")


@dataclass(frozen=True)
class TraceExpectation:
    """What must hold after step ``after`` (0: the initial position)."""

    after: int
    that: str
    because: str
    line: int = 0
    #: ``prev`` is the state after this step (None: the step before ``after``).
    since: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the expectation's JSON line object."""
        out: dict[str, Any] = {"type": "expect", "that": self.that, "because": self.because}
        if self.since is not None:
            out["since"] = self.since
        return out

    def prev_step(self) -> int:
        """Return the step after which ``prev`` is taken."""
        return max(self.after - 1, 0) if self.since is None else self.since

    def failure(self, variables: Mapping[str, Any]) -> str | None:
        """Return why the expectation does not hold (None when it holds)."""
        try:
            value = compile_expression(self.that, EXPECT_VARIABLES).evaluate(variables)
        except ExpressionError as exc:
            return f"line {self.line}: {self.because} (cannot evaluate: {exc})"
        if value is not True:
            return f"line {self.line}: {self.because} (expected {self.that!r} after step {self.after})"
        return None


def parse_expectation(obj: Mapping[str, Any], where: str, after: int, line: int
                      ) -> TraceExpectation:
    """Read an expect line; raise the error class the caller gives (a TraceError) if bad."""
    that, because = obj.get("that"), obj.get("because")
    if not isinstance(that, str) or not isinstance(because, str) or not because:
        raise ExpectLineError(f"{where}: an expect line needs 'that' (a CEL expression) and "
                              "'because' (the rule's demand as a sentence)")
    since = obj.get("since")
    if since is not None and (type(since) is not int or not 0 <= since <= after):
        raise ExpectLineError(f"{where}: 'since' must be a step number from 0 to {after}, not "
                              f"{since!r}")
    try:
        compile_expression(that, EXPECT_VARIABLES)
    except ExpressionError as exc:
        raise ExpectLineError(f"{where}: {exc}") from None
    return TraceExpectation(after, that, because, line, since)


class ExpectLineError(RulespecError):
    """A malformed expect line (the trace reader reports it as a TraceError)."""
