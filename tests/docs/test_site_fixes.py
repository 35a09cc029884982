"""The site fixes of issue 31 that need no browser or site build: the register's changelog of
real changes (where the code is and deploy builds: test_publishing.py)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

from rulespec.docsgen.register import changelog, register_events
from rulespec.spec import Spec, all_specs, load_spec

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
EXAMPLE = HERE / "example" / "toy-dice.yaml"


@pytest.fixture(scope="module")
def example() -> Spec:
    return load_spec(EXAMPLE)


def _with_history(spec: Spec, aid: str, history: list[dict[str, Any]]) -> Spec:
    """Return a copy of ``spec`` whose record ``aid`` has ``history``."""
    data = copy.deepcopy(dict(spec.data))
    for amb in data["ambiguities"]:
        if amb["id"] == aid:
            amb["history"] = history
    return Spec(spec.path, data, spec.marks)


# -- the changelog: real changes only ----------------------------------------------------------


def test_a_record_written_with_its_lifecycle_is_one_addition(example: Spec) -> None:
    """Reported, triaged and ruled on one day is the record's addition, in its final status; a
    later status change is a change; a day that ends where it began changed nothing."""
    spec = _with_history(example, "TOY-AMB-01", [
        {"date": "2026-01-01", "status": "reported", "note": "found"},
        {"date": "2026-01-01", "status": "triaged", "note": "quoted"},
        {"date": "2026-01-01", "status": "ruled", "note": "decided"},
        {"date": "2026-02-01", "status": "deferred", "note": "new doubt"},
        {"date": "2026-02-01", "status": "ruled", "note": "doubt settled the same day"},
        {"date": "2026-03-01", "status": "resolved", "note": "the publisher said so"}])
    record = spec.ambiguities["TOY-AMB-01"]
    events = [e for e in register_events([(spec, record)])]
    assert [(e.date, e.before, e.entry["status"]) for e in events] == [
        ("2026-01-01", None, "ruled"), ("2026-03-01", "ruled", "resolved")]
    log = changelog([(spec, record)])
    rows = [line for line in log.splitlines() if line.startswith("| <code>2026")]
    assert len(rows) == 2, log
    assert "1 record added: 1 <span class=\"rs-badge rs-status rs-status-ruled\">ruled" in rows[1]
    assert "the publisher said so" in rows[0] and "→" in rows[0]


def test_the_registers_changelog_is_shorter_than_its_histories() -> None:
    """Across the registry the changelog has a row per addition batch and per later status
    change, far fewer than the history entries (171 rows of same-day backfill once), and no
    record appears twice on one day."""
    items = [(spec, amb) for spec in all_specs() for amb in spec.section("ambiguities")]
    entries = sum(len(amb.get("history") or []) for _, amb in items)
    events = register_events(items)
    assert len({(e.spec.game_id, str(e.record["id"]), e.date) for e in events}) == len(events)
    assert sum(1 for e in events if e.before is None) == len(items), \
        "every record is added exactly once"
    rows = [line for line in changelog(items).splitlines()
            if re.match(r"\| (<code>|\[<code>)\d{4}-", line)]
    changes = sum(1 for e in events if e.before is not None)
    assert changes < len(rows) < changes + 4 * 3 * 2 + 1, "additions are grouped per game and day"
    assert len(rows) * 3 < entries, f"{len(rows)} rows for {entries} history entries"

