"""The version notes say ``changed in`` only where a rule changed, and a release that changes no
rule says it is bookkeeping only (no site build: the generator functions are called directly).

Edits are made to a copy of a game's newest frozen release, which never changes, so others'
edits to today's specs do not move these tests.
"""

from __future__ import annotations

import copy
import re
import shutil
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.docsgen.changes import BOOKKEEPING_ONLY, changes_page
from rulespec.docsgen.feed import ATOM, BOOKKEEPING_TERM, feed_xml
from rulespec.docsgen.history import (
    _ABOUT,
    _BOOKKEEPING_RULES,
    _MIXED_RULES,
    DiffCache,
    Entry,
    History,
    Section,
    is_normative,
)
from rulespec.docsgen.pages import ambiguities_page, rules_page
from rulespec.examples.model import examples_path
from rulespec.releases.change import Change
from rulespec.releases.rules import RULE
from rulespec.releases.store import frozen_releases, parse_version, release_spec
from rulespec.spec import Spec, load_spec

A = f"{{{ATOM}}}"
GAMES = ("fool", "ouro-de-tolo", "dado-de-ouro", "ruby-rhino")
Edit = Callable[[dict[str, Any]], None]


def section(page: str, anchor: str) -> str:
    """Return the part of a page from the heading anchored ``anchor`` to the next one as high."""
    head = re.search(rf"^(#+) .*\{{ #{re.escape(anchor)} \}}$", page, re.MULTILINE)
    assert head, f"no heading anchored #{anchor}"
    level = len(head.group(1))
    rest = page[head.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.MULTILINE)
    return rest[:end.start()] if end else rest


def badge(version: str) -> str:
    """Return the ``changed in`` note of the version notes, linked to its Changes entry."""
    return f"changed in [<code>{version}</code>](changes.md#{_anchor(version)})"


def _anchor(version: str) -> str:
    return "unreleased" if version == "unreleased" else f"release-{version}"


def newest(game: str) -> Spec:
    """Return the newest frozen release of ``game``."""
    return release_spec(game, frozen_releases(game)[-1].version)


def next_patch(version: str) -> str:
    """Return the PATCH version after ``version``."""
    major, minor, patch = parse_version(version)
    return f"{major}.{minor}.{patch + 1}"


def edited(tmp_path: Path, edit: Edit, *, game: str = "fool", release: bool = False) -> Spec:
    """Return the newest frozen release of ``game`` edited by ``edit(data)``, with its examples.

    With ``release`` the edits are a new release, recorded and not frozen (the feed lists it);
    without, they are today's unreleased edits.
    """
    base = newest(game)
    data: dict[str, Any] = copy.deepcopy(dict(base.data))
    edit(data)
    if release:
        version = next_patch(base.version)
        data["game"]["spec_version"] = version
        data["game"]["releases"].append({"version": version, "date": "2099-02-01",
                                         "summary": "The edits of this test."})
    path = tmp_path / base.path.name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    (tmp_path / "examples").mkdir(exist_ok=True)
    shutil.copy(examples_path(base), tmp_path / "examples" / base.path.name)
    return load_spec(path)


def record(data: dict[str, Any], ident: str) -> dict[str, Any]:
    """Return the record ``ident`` of a spec's data."""
    found: dict[str, Any] = next(a for a in data["ambiguities"] if a["id"] == ident)
    return found


def clause(data: dict[str, Any], ident: str) -> dict[str, Any]:
    """Return the clause ``ident`` of a spec's data."""
    found: dict[str, Any] = next(c for c in data["clauses"] if c["id"] == ident)
    return found


def history_of(spec: Spec) -> tuple[History, Entry]:
    """Return the history of ``spec`` (no replays) and its newest entry."""
    history = History(spec, DiffCache(behaviour=False))
    return history, history.newest_first[0]


# -- the measurement releases -------------------------------------------------------------------


def measurement_releases(history: History) -> list[Entry]:
    """Return the releases whose only changes are measured impacts (RECORD_IMPACT_CHANGED)."""
    return [e for e in history.releases if e.diff is not None and e.diff.changes
            and {c.rule for c in e.diff.changes} == {"RECORD_IMPACT_CHANGED"}]


@pytest.mark.parametrize("game", GAMES)
def test_moving_the_measurements_out_changed_no_record(game: str) -> None:
    """Each game's release that moved the measured figures out of the spec touched every record's
    impact and no rule: no record or clause says it changed there, the release is bookkeeping
    only, and the records changed by an earlier release still say so."""
    spec = newest(game)
    history = History(spec, DiffCache(behaviour=False))
    moved = measurement_releases(history)
    assert moved, f"{game}: no release changes only measured impacts"
    pages = {"ambiguities": ambiguities_page(spec, history), "clauses": rules_page(spec, history)}
    for entry in moved:
        assert entry.bookkeeping_only and not entry.rule_changes, entry.label
        assert entry.diff is not None
        touched = {c.path.split(".")[1] for c in entry.diff.changes}
        assert touched <= {str(a["id"]) for a in spec.section("ambiguities")}
        for name, page in pages.items():
            assert badge(str(entry.version)) not in page, f"{game} {name}: {entry.version}"
        for ident in touched:
            changed = history.lineage("ambiguities", ident).changed
            assert changed is not entry, f"{ident} says it changed in {entry.version}"
    kept = [e for e in history.releases if e.rule_changes]
    assert kept and not any(e.bookkeeping_only for e in kept)
    page = changes_page(spec, history).markdown
    for entry in history.releases:
        body = section(page, entry.anchor)
        assert (f"**{BOOKKEEPING_ONLY}.**" in body) is entry.bookkeeping_only, entry.label


def test_the_earlier_changes_of_a_record_still_show() -> None:
    """Fool 1.2.0 reworded the summaries of FOOL-AMB-15's options and 1.2.1 moved its measured
    impact: it says it changed in 1.2.0, not 1.2.1."""
    spec = newest("fool")
    history = History(spec, DiffCache(behaviour=False))
    changed = history.lineage("ambiguities", "FOOL-AMB-15").changed
    assert changed is not None and changed.version == "1.2.0"
    block = section(ambiguities_page(spec, history), "FOOL-AMB-15")
    assert f"since [<code>1.1.0</code>](changes.md#release-1.1.0) · {badge('1.2.0')}" in block


# -- a moved measurement and a changed option set -------------------------------------------------


def move_measurement(data: dict[str, Any]) -> None:
    """Move FOOL-AMB-15's measured figures: its impact text and figures change, nothing else."""
    impact = record(data, "FOOL-AMB-15")["impact"]
    impact["text"] = "The figures moved to specs/impact/fool.json."
    impact["measured"] = {"games": 100, "seed": 0, "outcome_changed": 0.5}


def add_option(data: dict[str, Any]) -> None:
    """Give FOOL-AMB-15 one option more (its default the same)."""
    options = record(data, "FOOL-AMB-15")["options"]
    options.append({**copy.deepcopy(options[-1]), "id": "test-reading",
                    "summary": "A reading this test adds."})


def test_a_record_whose_only_change_is_a_moved_measurement_says_no_change(
        tmp_path: Path) -> None:
    """A release whose only change is a record's measurements: the record's note says when it
    appeared and not that it changed; the release is bookkeeping only on the Changes page (its
    entry and the summary table) and in the feed (title, content, category)."""
    spec = edited(tmp_path, move_measurement, release=True)
    history, entry = history_of(spec)
    assert entry.version == spec.version and not entry.frozen
    assert entry.diff is not None
    assert [c.rule for c in entry.diff.changes] == ["RECORD_IMPACT_CHANGED"]
    assert history.lineage("ambiguities", "FOOL-AMB-15").changed is not entry
    block = section(ambiguities_page(spec, history), "FOOL-AMB-15")
    assert badge(spec.version) not in block and "since [<code>1.1.0</code>]" in block
    assert entry.bookkeeping_only

    page = changes_page(spec, history).markdown
    assert f"**{BOOKKEEPING_ONLY}.**" in section(page, entry.anchor)
    row = next(line for line in page.splitlines()
               if line.startswith(f"| [<code>{spec.version}</code>]"))
    assert "PATCH (bookkeeping only)" in row, row

    root = ET.fromstring(feed_xml([history], site_url=None))
    item = root.find(f"{A}entry")
    assert item is not None
    assert item.findtext(f"{A}title") == f"Fool! {spec.version} (bookkeeping only)"
    assert f"<strong>{BOOKKEEPING_ONLY}.</strong>" in str(item.findtext(f"{A}content"))
    terms = [c.get("term") for c in item.findall(f"{A}category")]
    assert BOOKKEEPING_TERM in terms, terms


def test_a_record_whose_option_set_changed_says_so(tmp_path: Path) -> None:
    """A release that gives a record an option: the record says it changed in that release, and
    neither the Changes page nor the feed calls the release bookkeeping."""
    spec = edited(tmp_path, add_option, release=True)
    history, entry = history_of(spec)
    assert entry.diff is not None and any(c.rule == "OPTION_ADDED" for c in entry.diff.changes)
    assert history.lineage("ambiguities", "FOOL-AMB-15").changed is entry
    assert badge(spec.version) in section(ambiguities_page(spec, history), "FOOL-AMB-15")
    assert not entry.bookkeeping_only
    assert BOOKKEEPING_ONLY not in section(changes_page(spec, history).markdown, entry.anchor)
    item = ET.fromstring(feed_xml([history], site_url=None)).find(f"{A}entry")
    assert item is not None and item.findtext(f"{A}title") == f"Fool! {spec.version}"
    assert BOOKKEEPING_ONLY not in str(item.findtext(f"{A}content"))
    assert BOOKKEEPING_TERM not in [c.get("term") for c in item.findall(f"{A}category")]


# -- what counts, field by field ------------------------------------------------------------------


def _set(path: str, value: Any) -> Edit:
    """Return an edit setting ``RECORD|CLAUSE/key.key[index].key`` to ``value``."""
    ident, _, keys = path.partition("/")

    def edit(data: dict[str, Any]) -> None:
        target: Any = record(data, ident) if "-AMB-" in ident else clause(data, ident)
        parts = re.findall(r"[^.\[\]]+|\[\d+\]", keys)
        for part in parts[:-1]:
            target = target[int(part[1:-1])] if part.startswith("[") else target[part]
        last = parts[-1]
        if callable(value):
            value(target, last)
        else:
            target[last] = value
    return edit


def _append(item: Any) -> Callable[[Any, str], None]:
    def add(target: Any, key: str) -> None:
        target[key] = [*target.get(key, []), item]
    return add


def _both(*edits: Edit) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for one in edits:
            one(data)
    return edit


def _reword(target: Any, key: str) -> None:
    target[key] = str(target[key]) + " (Reworded.)"


#: (what is edited, the element that may say it changed, whether it is a change of rule).
CASES: list[tuple[str, Edit, Section, str, bool]] = [
    # what a record states
    ("question", _set("FOOL-AMB-15/question", _reword), "ambiguities", "FOOL-AMB-15", True),
    ("a source's quote", _set("FOOL-AMB-02/sources[0].quote", _reword), "ambiguities",
     "FOOL-AMB-02", True),
    ("decision points (touches)", _set("FOOL-AMB-02/touches", _append("lead")), "ambiguities",
     "FOOL-AMB-02", True),
    ("status", _both(_set("FOOL-AMB-02/status", "triaged"), _set("FOOL-AMB-02/history", _append(
        {"date": "2099-01-01", "status": "triaged", "note": "again"}))),
     "ambiguities", "FOOL-AMB-02", True),
    ("default option", _set("FOOL-AMB-02/default.option", "whole-deck"), "ambiguities",
     "FOOL-AMB-02", True),
    ("default authority", _set("FOOL-AMB-04/default.authority", "editor"), "ambiguities",
     "FOOL-AMB-04", True),
    ("an option's summary", _set("FOOL-AMB-02/options[0].summary", _reword), "ambiguities",
     "FOOL-AMB-02", True),
    # what the spec says about a record
    ("history", _set("FOOL-AMB-02/history", _append(
        {"date": "2099-01-01", "status": "deferred", "note": "looked again"})), "ambiguities",
     "FOOL-AMB-02", False),
    ("effect and severity", _both(_set("FOOL-AMB-02/effect", "order"),
                                  _set("FOOL-AMB-02/severity", "cosmetic")),
     "ambiguities", "FOOL-AMB-02", False),
    ("rationale", _set("FOOL-AMB-02/default.rationale", _reword), "ambiguities", "FOOL-AMB-02",
     False),
    ("needs", _set("FOOL-AMB-02/needs", _reword), "ambiguities", "FOOL-AMB-02", False),
    ("a source's section", _set("FOOL-AMB-02/sources[0].section", "play"), "ambiguities",
     "FOOL-AMB-02", False),
    ("impact", _set("FOOL-AMB-02/impact.text", _reword), "ambiguities", "FOOL-AMB-02", False),
    # a clause
    ("statement", _set("FOOL-DEAL-01/statement", _reword), "clauses", "FOOL-DEAL-01", True),
    ("quote", _set("FOOL-DEAL-01/citation.quote", _reword), "clauses", "FOOL-DEAL-01", True),
    ("kind", _set("FOOL-DEAL-01/kind", "summary"), "clauses", "FOOL-DEAL-01", True),
    ("citation note", _set("FOOL-DEAL-01/citation.note", "A note."), "clauses",
     "FOOL-DEAL-01", False),
    ("tags", _set("FOOL-DEAL-01/tags", ["deal"]), "clauses", "FOOL-DEAL-01", False),
]


@pytest.mark.parametrize(("edit", "where", "ident", "rule"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_what_an_element_states_changes_it_and_what_is_said_about_it_does_not(
        tmp_path: Path, edit: Edit, where: Section, ident: str, rule: bool) -> None:
    """Unreleased edits of one field: the element says it changed in them exactly when the
    field is part of what it states, and the edits are bookkeeping only exactly when not."""
    spec = edited(tmp_path, edit)
    history, entry = history_of(spec)
    assert entry.version is None and entry.diff is not None and entry.diff.changes
    assert (history.lineage(where, ident).changed is entry) is rule, entry.diff.changes
    assert entry.bookkeeping_only is not rule
    page = rules_page(spec, history) if where == "clauses" else ambiguities_page(spec, history)
    assert (badge("unreleased") in section(page, ident)) is rule


def test_an_invariants_expression_is_a_rule_and_its_words_are_not(tmp_path: Path) -> None:
    """An invariant's new expression is a change of rule; a reworded description is not."""
    def expression(data: dict[str, Any]) -> None:
        data["invariants"][0]["expression"] = f"({data['invariants'][0]['expression']}) || true"

    def words(data: dict[str, Any]) -> None:
        _reword(data["invariants"][0], "description")

    for edit, rule in ((expression, True), (words, False)):
        folder = tmp_path / edit.__name__
        folder.mkdir()
        _, entry = history_of(edited(folder, edit))
        assert entry.diff is not None and entry.diff.changes, edit.__name__
        assert entry.bookkeeping_only is not rule, entry.diff.changes


def test_the_classification_names_rules_of_the_catalogue() -> None:
    """Every rule the classification names is one ``rulespec diff`` has (a renamed rule would
    leave a stale name, and its changes would count as changes of rule); the fields said about
    an element are of clauses and records, the sections that carry version notes."""
    assert not (_BOOKKEEPING_RULES | _MIXED_RULES) - set(RULE)
    assert not _BOOKKEEPING_RULES & _MIXED_RULES
    assert set(_ABOUT) == {"clauses", "ambiguities"}


def test_a_rule_the_classification_does_not_know_is_a_change_of_rule() -> None:
    """A rule added to the catalogue later counts as a change of rule until it is classified (a
    false 'changed in' is better than a hidden one); a hint is none, nor is an edit where no
    other rule looks; a mixed change whose element is missing on a side counts."""
    assert is_normative(Change("A_RULE_NOT_YET_CLASSIFIED", "patch", "clauses.X-01", "new"))
    assert not is_normative(Change.of("POSSIBLY_RENAMED", "clauses.X-02", "X-01 renamed?"))
    assert not is_normative(Change.of("RELEASE_EDITED", "game.x-note", "edited"))
    assert is_normative(Change.of("RECORD_TEXT_CHANGED", "ambiguities.X-AMB-01", "words"))
