"""The register policy, as far as a machine can check it (docs/editors/register-policy.md).

Each rule returns problems as ``(json path, message)`` pairs; the validator adds the file
positions. The rules are about what a record must carry for its status, what counts as
evidence, and the history of status changes; they never judge the reading itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from rulespec.spec.loader import JsonPath

#: Which status may follow which in a record's history. An entry may also repeat the status,
#: to record another change of the record (its severity, its default) with its reason.
TRANSITIONS: Mapping[str, frozenset[str]] = {
    "reported": frozenset({"triaged", "rejected", "duplicate"}),
    "triaged": frozenset({"ruled", "deferred", "resolved", "rejected", "duplicate"}),
    "ruled": frozenset({"triaged", "deferred", "resolved"}),
    "deferred": frozenset({"triaged", "ruled", "resolved"}),
    "resolved": frozenset({"triaged"}),
    "rejected": frozenset({"reported"}),
    "duplicate": frozenset({"reported"}),
}
#: Statuses that must name what would decide the question.
PENDING = frozenset({"triaged", "deferred"})
#: Evidence kinds that can settle a question (``resolved``, authority ``publisher``).
AUTHORITATIVE = frozenset({"publisher", "designer"})
_NOTHING_FOUND = re.compile(r"\bno (public )?source\b|\bnothing (was )?found\b|\bnot found\b",
                            re.IGNORECASE)

Found = Iterator[tuple[JsonPath, str]]


def register_problems(ambiguities: Sequence[Mapping[str, Any]],
                      source_ids: set[str]) -> list[tuple[JsonPath, str]]:
    """Check every record of the register against the policy."""
    out: list[tuple[JsonPath, str]] = []
    for i, amb in enumerate(ambiguities):
        if not isinstance(amb, Mapping):
            continue
        path: JsonPath = ("ambiguities", i)
        for rule in (_status_fields, _evidence, _history):
            out.extend(rule(amb, path, source_ids))
    return out


def _status_fields(amb: Mapping[str, Any], path: JsonPath, _sources: set[str]) -> Found:
    status = amb.get("status")
    default = amb.get("default") or {}
    authority = default.get("authority")
    kinds = {e.get("kind") for e in amb.get("evidence", []) if isinstance(e, Mapping)}
    if status in PENDING and not amb.get("needs"):
        yield path, (f"a {status} record needs 'needs': say which evidence (or which measurement) "
                     "would decide it; add needs: <text>")
    if status in ("ruled", "resolved") and amb.get("needs"):
        yield (*path, "needs"), (f"a {status} record is decided and waits for nothing; remove "
                                 "'needs' or set the status back to triaged or deferred")
    if status == "deferred" and authority in ("publisher", "designer"):
        yield (*path, "default", "authority"), ("a deferred record cannot have an outside "
                                                 f"authority ({authority!r}) for its default: if "
                                                 "that source decides it, the record is resolved")
    if status == "resolved" and authority not in ("printed", "publisher", "designer"):
        yield (*path, "default", "authority"), ("a resolved record is decided by the printed "
                                                 "text, the publisher or the designer; set that "
                                                 f"authority (not {authority!r}) or mark it ruled")
    if authority in AUTHORITATIVE and authority not in kinds:
        yield (*path, "default", "authority"), (f"authority {authority!r} needs an evidence item "
                                                 f"of kind {authority!r} that says so; add it "
                                                 "under evidence or change the authority")
    if authority == "community" and not kinds & {"review", "forum", "fan-site"}:
        yield (*path, "default", "authority"), ("authority 'community' needs an evidence item "
                                                 "of kind review, forum or fan-site")


def _evidence(amb: Mapping[str, Any], path: JsonPath, sources: set[str]) -> Found:
    for j, item in enumerate(amb.get("evidence", [])):
        if not isinstance(item, Mapping):
            continue
        where = (*path, "evidence", j)
        if "kind" not in item:
            yield where, ("evidence needs a kind (publisher, designer, review, forum, fan-site, "
                          "retailer): say what the outside source is; add kind: <one of them>")
        if not item.get("source"):
            yield where, "evidence needs a source (an address or a bibliographic reference)"
        elif item.get("source") in sources:
            yield (*where, "source"), (f"{item['source']!r} is this spec's own rulebook, which "
                                       "is not evidence; quote it under sources instead")
        if _NOTHING_FOUND.search(str(item.get("text", ""))):
            yield (*where, "text"), ("a search that found nothing is not evidence; say what "
                                     "would decide the question under needs, and record the "
                                     "search in the history note")


def _history(amb: Mapping[str, Any], path: JsonPath, _sources: set[str]) -> Found:
    history = amb.get("history")
    status = amb.get("status")
    if not history:
        yield path, ("the record has no history; add history: with one entry per status change "
                     "(date, status, note saying why), starting with status reported")
        return
    previous: str | None = None
    last_date = ""
    for j, entry in enumerate(history):
        if not isinstance(entry, Mapping):
            continue
        where = (*path, "history", j)
        if not entry.get("note"):
            yield where, "a history entry needs a note that says why the status changed"
        date = str(entry.get("date", ""))
        if date < last_date:
            yield (*where, "date"), f"history dates go forward: {date} is before {last_date}"
        last_date = max(last_date, date)
        current = entry.get("status")
        if previous is None and current != "reported":
            yield (*where, "status"), ("the history starts with status reported (when and by "
                                       "what the question was found)")
        elif (previous is not None and current != previous
              and current not in TRANSITIONS.get(previous, frozenset())):
            allowed = ", ".join(sorted(TRANSITIONS.get(previous, frozenset())))
            yield (*where, "status"), (f"{previous} cannot become {current!r}; from {previous} a "
                                       f"record goes to {allowed}")
        previous = str(current)
    if previous != status:
        yield (*path, "status"), (f"status {status!r} is not the last status of the history "
                                  f"({previous!r}); add a history entry for the change")


def null_keys(schema: Any, path: JsonPath) -> Iterator[JsonPath]:
    """Yield the paths of null-valued keys in a JSON Schema (``a: b, c: d`` in YAML flow)."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if value is None:
                yield (*path, str(key))
            else:
                yield from null_keys(value, (*path, str(key)))
    elif isinstance(schema, list):
        for k, value in enumerate(schema):
            yield from null_keys(value, (*path, k))
