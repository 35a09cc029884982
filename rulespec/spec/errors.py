"""The exception tree shared by every rulespec package, and the problem record."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rulespec.exitcodes import EXIT_FAILED, EXIT_USAGE


class RulespecError(Exception):
    """Base of every error rulespec raises on purpose."""

    #: The exit code of a command this error ends (``rulespec.exitcodes``): a check failed.
    exit_code: ClassVar[int] = EXIT_FAILED


class RulespecWarning(UserWarning):
    """Base of every warning rulespec gives on purpose (the CLI prints them as one line each)."""


class RulespecDeprecationWarning(RulespecWarning, FutureWarning):
    """Something that works today and will be refused by a named later release.

    Each subclass names that release, as pytest's ``PytestRemovedInXWarning`` do; the message
    says what to change. ``docs/about/compatibility.md`` is the policy.
    """

    #: The rulespec release that will refuse what this warning is about.
    removed_in: ClassVar[str] = ""


class RemovedIn04Warning(RulespecDeprecationWarning):
    """Refused from rulespec 0.4.0 on."""

    removed_in = "0.4.0"


class RemovedIn05Warning(RulespecDeprecationWarning):
    """Refused from rulespec 0.5.0 on."""

    removed_in = "0.5.0"


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with an input file, with where it is and what to do."""

    #: The file the problem is in.
    file: str
    #: The line in the file, from 1 (0: no line is known).
    line: int
    #: The column in that line, from 1.
    column: int
    #: The JSON path of the offending value in the document (``/clauses/3/citation``).
    path: str
    #: What is wrong and what to do about it.
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}"

    def to_json(self) -> dict[str, str | int]:
        """Return the problem as a JSON object."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": self.path,
            "message": self.message,
        }


class SpecError(RulespecError):
    """A spec file that cannot be used; carries every problem found, not just the first."""

    exit_code = EXIT_USAGE

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: Sequence[Problem] = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
