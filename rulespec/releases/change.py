"""One classified change between two specs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.releases.rules import RULE, Level


@dataclass(frozen=True)
class Change:
    """A change: its rule's stable name, the bump it needs, where, why, and what it touches."""

    rule: str
    level: Level
    path: str
    reason: str
    clauses: tuple[str, ...] = ()
    records: tuple[str, ...] = ()

    @classmethod
    def of(cls, rule: str, path: str, reason: str, clauses: tuple[str, ...] = (),
           records: tuple[str, ...] = ()) -> Change:
        """Return a change of the catalogued ``rule`` (its level comes from the catalogue)."""
        return cls(rule, RULE[rule].level, path, reason, tuple(clauses), tuple(records))

    def to_json(self) -> dict[str, Any]:
        """Return the change as a JSON object."""
        return {"rule": self.rule, "level": self.level, "category": RULE[self.rule].category,
                "path": self.path, "reason": self.reason, "clauses": list(self.clauses),
                "records": list(self.records)}
