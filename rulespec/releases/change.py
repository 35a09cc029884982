"""One classified change between two specs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulespec.releases.rules import RULE, RuleLevel
from rulespec.releases.values import ABSENT, pair


@dataclass(frozen=True)
class Change:
    """A change: its rule's stable name, the bump it needs, where, why, and what it touches.

    ``old`` and ``new`` are the values on each side, short (``values.pair``); None where a side
    has none (an element added or removed). ``related`` names other paths the change points at
    (both elements of a possible rename).
    """

    rule: str
    level: RuleLevel
    path: str
    reason: str
    clauses: tuple[str, ...] = ()
    records: tuple[str, ...] = ()
    old: str | None = None
    new: str | None = None
    related: tuple[str, ...] = ()

    @classmethod
    def of(cls, rule: str, path: str, reason: str, clauses: tuple[str, ...] = (),
           records: tuple[str, ...] = (), *, old: Any = ABSENT, new: Any = ABSENT,
           related: tuple[str, ...] = ()) -> Change:
        """Return a change of the catalogued ``rule`` (its level comes from the catalogue),
        with its ``old`` and ``new`` values (ABSENT for a side that has none)."""
        shown_old, shown_new = pair(old, new)
        return cls(rule, RULE[rule].level, path, reason, tuple(clauses), tuple(records),
                   shown_old, shown_new, tuple(related))

    def to_json(self) -> dict[str, Any]:
        """Return the change as a JSON object."""
        out = {"rule": self.rule, "level": self.level, "category": RULE[self.rule].category,
               "path": self.path, "reason": self.reason, "clauses": list(self.clauses),
               "records": list(self.records), "old": self.old, "new": self.new}
        if self.related:
            out["related"] = list(self.related)
        return out


def clauses_of(*items: Any) -> tuple[str, ...]:
    """Return the clauses the given spec elements cite, each once, in order."""
    out: list[str] = []
    for item in items:
        if isinstance(item, Mapping):
            out.extend(str(c) for c in item.get("clauses") or [])
    return tuple(dict.fromkeys(out))
