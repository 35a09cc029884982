"""Provenance: every element that enforces a rule traces to the quotes that say it and the
records that decide the rest.

An enforcing element is an action (its ``when`` and effect), a step of the structure, a
parameter (its default), a state convention or an invariant. Its ``clauses`` name what the
rulebook's text says; its ``readings`` name the ambiguity records whose rulings decide whatever
else it does. "Says it" means a reader with only the quote would reach the same rule; anything
more is a reading (``docs/editors/provenance.md``). The validator checks that every reading is a
record of the spec and that every record that is not rejected or a duplicate is read somewhere:
a record no element reads is a question whose answer the spec does not use, or an element that
settles it silently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rulespec.spec.loader import JsonPath

#: Record statuses that answer no question of play: they need no reader.
UNREAD_STATUSES = frozenset({"rejected", "duplicate"})
#: The effects a record can have (``ambiguities[].effect``).
EFFECTS = ("order", "outcome", "cosmetic")


@dataclass(frozen=True)
class Element:
    """One enforcing element of a spec, where it is, and what it rests on."""

    kind: str
    ident: str
    path: JsonPath
    clauses: tuple[str, ...]
    readings: tuple[str, ...]


def _ids(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def _steps(steps: Any, path: JsonPath) -> Iterator[Element]:
    if not isinstance(steps, list):
        return
    for i, step in enumerate(steps):
        if not isinstance(step, Mapping):
            continue
        here = (*path, i)
        yield Element("step", str(step.get("id", f"step {i + 1}")), here,
                      _ids(step.get("clauses")), _ids(step.get("readings")))
        yield from _steps(step.get("steps"), (*here, "steps"))


def elements(data: Mapping[str, Any]) -> Iterator[Element]:
    """Yield every enforcing element of a spec's data, in the spec's order."""
    for section, kind in (("parameters", "parameter"), ("actions", "action")):
        for i, item in enumerate(data.get(section) or []):
            if isinstance(item, Mapping):
                yield Element(kind, str(item.get("id")), (section, i),
                              _ids(item.get("clauses")), _ids(item.get("readings")))
    structure = data.get("structure")
    if isinstance(structure, Mapping):
        for part in ("setup", "flow", "end"):
            yield from _steps(structure.get(part), ("structure", part))
    state = data.get("state")
    conventions = state.get("conventions") if isinstance(state, Mapping) else None
    for i, item in enumerate(conventions or []):
        if isinstance(item, Mapping):
            yield Element("convention", str(item.get("path")), ("state", "conventions", i),
                          _ids(item.get("clauses")), _ids(item.get("readings")))
    for section in ("hidden", "public"):
        for i, item in enumerate((state.get(section) if isinstance(state, Mapping) else None)
                                 or []):
            if isinstance(item, Mapping):
                yield Element("sight", str(item.get("path")), ("state", section, i),
                              _ids(item.get("clauses")), _ids(item.get("readings")))
    for i, item in enumerate(data.get("invariants") or []):
        if isinstance(item, Mapping):
            yield Element("invariant", str(item.get("id")), ("invariants", i),
                          _ids(item.get("clauses")), _ids(item.get("readings")))


def readers(data: Mapping[str, Any]) -> dict[str, list[Element]]:
    """Return record id -> the elements that read it (records read by none map to [])."""
    out: dict[str, list[Element]] = {str(a.get("id")): [] for a in data.get("ambiguities") or []
                                     if isinstance(a, Mapping)}
    for element in elements(data):
        for record in element.readings:
            out.setdefault(record, []).append(element)
    return out


def check(data: Mapping[str, Any], add: Callable[[JsonPath, str], None],
          rule: Callable[[str, JsonPath, str], None] | None = None) -> None:
    """Report readings that name no record, records nobody reads, and records without effect.

    ``rule(name, path, message)`` reports the last two, which format rulespec/2 brought
    (``rulespec.spec.formats``: RECORD_READ, RECORD_EFFECT); without it they are errors.
    """
    def by_rule(name: str, path: JsonPath, message: str) -> None:
        (rule or (lambda _n, p, m: add(p, m)))(name, path, message)

    records = {str(a.get("id")): (i, a) for i, a in enumerate(data.get("ambiguities") or [])
               if isinstance(a, Mapping)}
    read: set[str] = set()
    for element in elements(data):
        for j, record in enumerate(element.readings):
            read.add(record)
            if record not in records:
                add((*element.path, "readings", j),
                    f"{element.kind} {element.ident!r} reads {record!r}, which is not a record "
                    "of this spec; fix the id or add the record")
    for record, (i, item) in records.items():
        if item.get("effect") not in EFFECTS:
            by_rule("RECORD_EFFECT", ("ambiguities", i), f"{record} says nothing of its effect; add effect: order "
                "(it only reorders play), outcome (it changes what is legal, scored or won) or "
                "cosmetic (it changes nothing an engine does)")
        if record not in read and item.get("status") not in UNREAD_STATUSES:
            by_rule("RECORD_READ", ("ambiguities", i, "id"),
                f"no element reads {record}: add it to the readings of the actions, structure "
                "steps, parameters, state conventions or invariants whose behaviour its ruling "
                "decides (or reject the record if no behaviour depends on it)")
