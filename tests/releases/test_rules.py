"""Each kind of spec edit is named by its rule and needs the bump the policy gives it.

Every row edits a copy of today's spec (written to tmp_path) and diffs it against the game's
frozen current release: the edit must produce exactly the expected rule(s), and the diff's level
must be the expected one (docs/editors/versioning.md). Text only here; test_behaviour.py replays.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulespec.releases.rules import RULE
from tests.releases.support import Edit, diff_edit

Key = str | int


def _walk(data: Any, path: tuple[Key, ...]) -> Any:
    """Follow ``path``; a key "#ID" picks the element of a list whose id is ID."""
    for key in path:
        if isinstance(key, str) and key.startswith("#"):
            data = next(item for item in data if item.get("id") == key[1:])
        else:
            data = data[key]
    return data


def put(*path: Key, value: Any) -> Edit:
    """Set the value at ``path``."""
    def edit(data: dict[str, Any]) -> None:
        parent = _walk(data, path[:-1])
        last = path[-1]
        if isinstance(last, str) and last.startswith("#"):
            index = next(i for i, item in enumerate(parent) if item.get("id") == last[1:])
            parent[index] = value
        else:
            parent[last] = value
    return edit


def change(*path: Key, how: Callable[[Any], Any]) -> Edit:
    """Replace the value at ``path`` with ``how(value)``."""
    def edit(data: dict[str, Any]) -> None:
        put(*path, value=how(copy.deepcopy(_walk(data, path))))(data)
    return edit


def drop(*path: Key) -> Edit:
    """Delete the key or list element (``#ID``) at ``path``."""
    def edit(data: dict[str, Any]) -> None:
        parent = _walk(data, path[:-1])
        last = path[-1]
        if isinstance(last, str) and last.startswith("#"):
            parent[:] = [item for item in parent if item.get("id") != last[1:]]
        elif isinstance(parent, list):
            del parent[int(last)]
        else:
            del parent[last]
    return edit


def add(*path: Key, value: Any) -> Edit:
    """Append ``value`` to the list at ``path``."""
    def edit(data: dict[str, Any]) -> None:
        _walk(data, path).append(copy.deepcopy(value))
    return edit


def copy_of(*path: Key, **changes: Any) -> Callable[[dict[str, Any]], Any]:
    """Return a function giving a copy of the element at ``path`` with ``changes`` applied."""
    def make(data: dict[str, Any]) -> Any:
        item = copy.deepcopy(_walk(data, path))
        item.update(changes)
        return item
    return make


def add_copy(section: tuple[Key, ...], ident: str, **changes: Any) -> Edit:
    """Append to ``section`` a copy of its element ``ident`` with ``changes``."""
    def edit(data: dict[str, Any]) -> None:
        _walk(data, section).append(copy_of(*section, f"#{ident}", **changes)(data))
    return edit


def both(*edits: Edit) -> Edit:
    """Apply several edits in turn."""
    def edit(data: dict[str, Any]) -> None:
        for one in edits:
            one(data)
    return edit


def suffix(text: str) -> Callable[[Any], Any]:
    return lambda value: f"{value} {text}"


DDO, FOOL, OURO, RR = "dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"
STATE = ("state", "schema", "properties")
PHASE = (*STATE, "phase")
ROLL = ("actions", "#roll", "params", "properties")
NEW_FIELD = {"type": ["string", "null"], "description": "A note."}

#: (label, game, edit, the rules it must produce, the level of the diff).
ROWS: list[tuple[str, str, Edit, set[str], str]] = [
    # game
    ("summary", DDO, change("game", "summary", how=suffix("Edited.")), {"GAME_TEXT_CHANGED"}, "patch"),
    ("format", DDO, put("format", value="rulespec/2"), {"FORMAT_CHANGED"}, "major"),
    ("players narrowed", FOOL, put("game", "players", "max", value=7), {"PLAYERS_NARROWED"}, "major"),
    ("players widened", FOOL, put("game", "players", "max", value=9), {"PLAYERS_WIDENED"}, "minor"),
    # sources
    ("source title", DDO, change("sources", 0, "title", how=suffix("(2nd)")), {"SOURCE_CHANGED"}, "patch"),
    ("source added", DDO, add_copy(("sources",), "rulebook", id="scan"), {"SOURCE_ADDED"}, "patch"),
    ("source removed", DDO, drop("sources", "#rulebook"), {"SOURCE_REMOVED"}, "patch"),
    # clauses
    ("clause added", DDO, add_copy(("clauses",), "DDO-DIE-01", id="DDO-DIE-99"), {"CLAUSE_ADDED"}, "minor"),
    ("clause removed", DDO, drop("clauses", "#DDO-DIE-01"), {"CLAUSE_REMOVED"}, "major"),
    ("clause statement", DDO, change("clauses", "#DDO-DIE-01", "statement", how=suffix("Really.")),
     {"CLAUSE_STATEMENT_CHANGED"}, "patch"),
    ("clause quote", DDO, change("clauses", "#DDO-DIE-01", "citation", "quote", how=suffix("!")),
     {"CLAUSE_QUOTE_CHANGED"}, "patch"),
    ("clause kind", DDO, put("clauses", "#DDO-DIE-01", "kind", value="note"), {"CLAUSE_KIND_CHANGED"}, "patch"),
    # components
    ("component count", DDO, put("components", "#die", "count", value=2), {"COMPONENT_COUNT_CHANGED"}, "major"),
    ("component text", DDO, change("components", "#die", "description", how=suffix("Ivory.")),
     {"COMPONENT_TEXT_CHANGED"}, "patch"),
    ("component attribute", FOOL, put("components", "#cards", "parts", 0, "attributes", "suit", value="teal"),
     {"COMPONENT_ATTRIBUTE_CHANGED"}, "major"),
    ("component added", DDO, add_copy(("components",), "die", id="spare-die"), {"COMPONENT_ADDED"}, "major"),
    ("component removed", DDO, drop("components", "#die"), {"COMPONENT_REMOVED"}, "major"),
    # zones
    ("zone visibility", DDO, put("zones", "#table", "visibility", value="hidden"), {"ZONE_VISIBILITY_CHANGED"}, "major"),
    ("zone text", DDO, change("zones", "#table", "name", how=suffix("top")), {"ZONE_TEXT_CHANGED"}, "patch"),
    ("zone added", DDO, add_copy(("zones",), "table", id="box"), {"ZONE_ADDED"}, "minor"),
    ("zone removed", DDO, drop("zones", "#table"), {"ZONE_REMOVED"}, "major"),
    # tables
    ("table value", DDO, put("tables", "#printed_numbers", "rows", 0, "rounds_per_game", value=9),
     {"TABLE_VALUE_CHANGED"}, "major"),
    ("table row added", DDO, add("tables", "#printed_numbers", "rows", value={
        "players": 5, "rounds_per_game": 10, "games_to_win": 3, "tiebreak_rolls": 5, "starting_score": 0}),
     {"TABLE_ROW_ADDED"}, "minor"),
    ("table row removed", FOOL, change("tables", "#overview", "rows", how=lambda rows: rows[:-1]),
     {"TABLE_ROW_REMOVED"}, "major"),
    ("table added", DDO, add_copy(("tables",), "printed_numbers", id="house_numbers"),
     {"TABLE_ADDED"}, "minor"),
    ("table removed", FOOL, drop("tables", "#overview"), {"TABLE_REMOVED"}, "major"),
    ("table column added", DDO, both(
        add("tables", "#printed_numbers", "columns", value={"id": "box", "title": "Box", "type": "string"}),
        put("tables", "#printed_numbers", "rows", 0, "box", value="small")), {"TABLE_COLUMN_ADDED"}, "minor"),
    ("table column removed", DDO, both(
        change("tables", "#printed_numbers", "columns", how=lambda cols: cols[:-1]),
        drop("tables", "#printed_numbers", "rows", 0, "starting_score")), {"TABLE_COLUMN_REMOVED"}, "major"),
    ("table title", DDO, change("tables", "#printed_numbers", "title", how=suffix("(page 1)")),
     {"TABLE_TEXT_CHANGED"}, "patch"),
    # parameters
    ("parameter default", DDO, put("parameters", "#die_faces", "default", value=[1, 2, 3, 4, 5]),
     {"PARAMETER_DEFAULT_CHANGED"}, "major"),
    ("parameter schema narrowed", DDO, put("parameters", "#rounds_per_game", "schema", "maximum", value=50),
     {"PARAMETER_SCHEMA_CHANGED"}, "major"),
    ("parameter schema widened", DDO, put("parameters", "#rounds_per_game", "schema", "maximum", value=200),
     {"PARAMETER_SCHEMA_WIDENED"}, "minor"),
    ("parameter text", DDO, put("parameters", "#score_floor", "description", value="A floor."),
     {"PARAMETER_TEXT_CHANGED"}, "patch"),
    ("parameter added", DDO, add("parameters", value={"id": "table_talk", "default": False,
                                                      "schema": {"type": "boolean"}}),
     {"PARAMETER_ADDED"}, "minor"),
    ("parameter removed", DDO, drop("parameters", "#score_floor"), {"PARAMETER_REMOVED"}, "major"),
    # structure
    ("structure text", DDO, change("structure", "setup", 0, "text", how=suffix("Sit down.")),
     {"STRUCTURE_CHANGED"}, "patch"),
    # actions
    ("action text", DDO, change("actions", "#roll", "effect", how=suffix("Loudly.")), {"ACTION_TEXT_CHANGED"}, "patch"),
    ("action params narrowed", DDO, put(*ROLL, "face", "minimum", value=2), {"ACTION_PARAMS_CHANGED"}, "major"),
    ("action param required", DDO, both(put(*ROLL, "note", value=NEW_FIELD),
                                        add("actions", "#roll", "params", "required", value="note")),
     {"ACTION_PARAMS_CHANGED"}, "major"),
    ("action params widened", DDO, put(*ROLL, "note", value=NEW_FIELD), {"ACTION_PARAMS_WIDENED"}, "minor"),
    ("action actor", DDO, put("actions", "#roll", "actor", value="current"), {"ACTION_ACTOR_CHANGED"}, "major"),
    ("action odds", DDO, put("actions", "#roll", "probability", value="Loaded: six comes up half the time."),
     {"ACTION_PROBABILITY_CHANGED"}, "major"),
    ("action added", DDO, add_copy(("actions",), "roll", id="reroll"), {"ACTION_ADDED"}, "minor"),
    ("action removed", FOOL, drop("actions", "#choose_dealer"), {"ACTION_REMOVED"}, "major"),
    # state
    ("state field added", DDO, put(*STATE, "note", value=NEW_FIELD), {"STATE_FIELD_ADDED"}, "minor"),
    ("state field required", DDO, both(put(*STATE, "note", value=NEW_FIELD),
                                       add("state", "schema", "required", value="note")),
     {"STATE_FIELD_REQUIRED_ADDED"}, "major"),
    ("state field removed", DDO, both(drop(*STATE, "final"), change(
        "state", "schema", "required", how=lambda req: [r for r in req if r != "final"])),
     {"STATE_FIELD_REMOVED"}, "major"),
    ("state field optional", DDO, change("state", "schema", "required",
                                         how=lambda req: [r for r in req if r != "final"]),
     {"STATE_FIELD_NOW_OPTIONAL"}, "minor"),
    ("state values narrowed", DDO, change(*PHASE, "enum", how=lambda e: [v for v in e if v != "final_draw"]),
     {"STATE_VALUES_CHANGED"}, "major"),
    ("state values widened", DDO, change(*PHASE, "enum", how=lambda e: [*e, "intermission"]),
     {"STATE_VALUES_WIDENED"}, "minor"),
    ("state description", DDO, change(*PHASE, "description", how=suffix("Mostly.")),
     {"STATE_ANNOTATION_CHANGED"}, "patch"),
    ("state x-clauses", DDO, change(*PHASE, "x-clauses", how=lambda c: c[:-1]), {"STATE_ANNOTATION_CHANGED"}, "patch"),
    ("state convention changed", DDO, put("state", "conventions", 0, "order", value="as-played"),
     {"STATE_CONVENTION_CHANGED"}, "major"),
    ("state convention added", DDO, add("state", "conventions", value={
        "path": "/note", "order": "as-played", "text": "as written"}), {"STATE_CONVENTION_ADDED"}, "minor"),
    ("state convention removed", DDO, drop("state", "conventions", 0), {"STATE_CONVENTION_REMOVED"}, "major"),
    ("state convention reads a record", DDO, put("state", "conventions", 0, "readings",
                                                 value=["DDO-AMB-04"]),
     {"STATE_ANNOTATION_CHANGED"}, "patch"),
    ("action reads a record", DDO, put("actions", 0, "readings", value=["DDO-AMB-04"]),
     {"ACTION_TEXT_CHANGED"}, "patch"),
    ("record says its effect", DDO, put("ambiguities", 0, "effect", value="order"),
     {"RECORD_TEXT_CHANGED"}, "patch"),
    ("state hidden", FOOL, drop("state", "hidden", 0), {"STATE_HIDDEN_CHANGED"}, "major"),
    # invariants, events, coverage
    ("invariant expression", DDO, change("invariants", "#DDO-INV-TO-MOVE", "expression",
                                         how=lambda e: f"({e}) && true"), {"INVARIANT_CHANGED"}, "minor"),
    ("invariant text", DDO, change("invariants", "#DDO-INV-TO-MOVE", "description", how=suffix("Always.")),
     {"INVARIANT_TEXT_CHANGED"}, "patch"),
    ("invariant added", DDO, add_copy(("invariants",), "DDO-INV-TO-MOVE", id="DDO-INV-AGAIN"),
     {"INVARIANT_ADDED"}, "minor"),
    ("invariant removed", DDO, drop("invariants", "#DDO-INV-TO-MOVE"), {"INVARIANT_REMOVED"}, "minor"),
    ("event changed", DDO, change("events", "#DDO-EV-TIE-HIGH", "when", how=lambda w: f"({w}) && true"),
     {"EVENT_CHANGED"}, "minor"),
    ("event text", DDO, change("events", "#DDO-EV-TIE-HIGH", "name", how=suffix("again")),
     {"EVENT_TEXT_CHANGED"}, "patch"),
    ("event added", DDO, add_copy(("events",), "DDO-EV-TIE-HIGH", id="DDO-EV-AGAIN"), {"EVENT_ADDED"}, "minor"),
    ("event removed", DDO, drop("events", "#DDO-EV-TIE-HIGH"), {"EVENT_REMOVED"}, "minor"),
    ("coverage", FOOL, change("coverage", 0, "why", how=suffix("Rarely.")), {"COVERAGE_CHANGED"}, "patch"),
    # variants
    ("variant added", DDO, add_copy(("variants",), "single-game", id="two-games",
                                    parameters={"games_to_win": 2}), {"VARIANT_ADDED"}, "minor"),
    ("variant removed", DDO, drop("variants", "#short-game"), {"VARIANT_REMOVED"}, "major"),
    ("variant overrides", DDO, put("variants", "#short-game", "parameters", "rounds_per_game", value=6),
     {"VARIANT_BEHAVIOUR_CHANGED"}, "major"),
    ("variant settable narrowed", DDO, change("variants", "#custom-length", "settable", how=lambda s: s[:1]),
     {"VARIANT_SETTABLE_CHANGED"}, "major"),
    ("variant settable widened", DDO, change("variants", "#custom-length", "settable",
                                             how=lambda s: [*s, "starting_score"]),
     {"VARIANT_SETTABLE_WIDENED"}, "minor"),
    ("variant text", DDO, change("variants", "#short-game", "name", how=suffix("indeed")),
     {"VARIANT_TEXT_CHANGED"}, "patch"),
    # ambiguity records
    ("record default", DDO, put("ambiguities", "#DDO-AMB-03", "default", "option", value="min-first"),
     {"RECORD_DEFAULT_CHANGED"}, "major"),
    ("record status", DDO, put("ambiguities", "#DDO-AMB-03", "status", value="deferred"),
     {"RECORD_STATUS_CHANGED"}, "patch"),
    ("record title", DDO, change("ambiguities", "#DDO-AMB-03", "title", how=suffix("(again)")),
     {"RECORD_TEXT_CHANGED"}, "patch"),
    ("record rationale", DDO, change("ambiguities", "#DDO-AMB-03", "default", "rationale", how=suffix("Also.")),
     {"RECORD_TEXT_CHANGED"}, "patch"),
    ("record impact", DDO, drop("ambiguities", "#DDO-AMB-03", "impact"), {"RECORD_IMPACT_CHANGED"}, "patch"),
    ("record added", DDO, add_copy(("ambiguities",), "DDO-AMB-03", id="DDO-AMB-90"), {"RECORD_ADDED"}, "minor"),
    ("record removed", DDO, drop("ambiguities", "#DDO-AMB-03"), {"RECORD_REMOVED"}, "major"),
    ("option added", DDO, add("ambiguities", "#DDO-AMB-01", "options", value={
        "id": "d12", "summary": "A twelve-sided die.", "parameters": {"die_faces": list(range(1, 13))}}),
     {"OPTION_ADDED"}, "minor"),
    ("option removed", DDO, drop("ambiguities", "#DDO-AMB-01", "options", "#d10"), {"OPTION_REMOVED"}, "major"),
    ("option changed", DDO, put("ambiguities", "#DDO-AMB-01", "options", "#d8", "parameters", "die_faces",
                                value=list(range(1, 8))), {"OPTION_CHANGED"}, "major"),
    ("option text", DDO, change("ambiguities", "#DDO-AMB-01", "options", "#d8", "summary", how=suffix("Rare.")),
     {"OPTION_TEXT_CHANGED"}, "patch"),
    # anything else
    ("unknown section", DDO, put("errata", value=["page 2"]), {"SECTION_CHANGED"}, "major"),
    ("x- section", DDO, put("x-editor", value="anyone"), set(), "none"),
]


@pytest.mark.parametrize(("label", "game", "edit", "rules", "level"), ROWS,
                         ids=[row[0] for row in ROWS])
def test_an_edit_is_named_by_its_rule_and_level(label: str, game: str, edit: Edit,
                                                rules: set[str], level: str,
                                                tmp_path: Path) -> None:
    """The edit gives exactly the expected rules, and the diff's level is theirs."""
    diff = diff_edit(tmp_path, game, edit)
    found = {c.rule for c in diff.changes}
    assert found == rules, f"{label}: {[(c.rule, c.reason) for c in diff.changes]}"
    assert diff.level == level
    assert all(c.level == RULE[c.rule].level for c in diff.changes)


EXAMPLE_ROWS: list[tuple[str, Edit, str]] = [
    ("example added", lambda ex: ex["examples"].append({**copy.deepcopy(ex["examples"][0]),
                                                        "id": "DDO-EX-NEW"}), "EXAMPLE_ADDED"),
    ("example removed", lambda ex: ex["examples"].pop(), "EXAMPLE_REMOVED"),
    ("example changed", lambda ex: ex["examples"][0].update(title="Retitled"), "EXAMPLE_CHANGED"),
]


@pytest.mark.parametrize(("label", "edit", "rule"), EXAMPLE_ROWS, ids=[r[0] for r in EXAMPLE_ROWS])
def test_rule_examples_are_patch_changes(label: str, edit: Edit, rule: str,
                                         tmp_path: Path) -> None:
    """Rule examples of existing behaviour are PATCH: added, removed or reworded."""
    diff = diff_edit(tmp_path, DDO, lambda data: None, examples=edit)
    assert [c.rule for c in diff.changes] == [rule] and diff.level == "patch"


def test_the_table_covers_at_least_forty_edits_and_every_textual_rule() -> None:
    """The table is wide: 40 edits or more, and every rule outside the behaviour category is
    produced by at least one edit (test_behaviour.py covers that category)."""
    assert len(ROWS) + len(EXAMPLE_ROWS) >= 40
    exercised = {r for row in ROWS for r in row[3]} | {row[2] for row in EXAMPLE_ROWS}
    behavioural = {r for r in RULE if RULE[r].category == "behaviour"}
    missing = set(RULE) - exercised - behavioural
    assert not missing, f"rules no edit exercises: {sorted(missing)}"
