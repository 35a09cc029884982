"""Each kind of spec edit is named by its rule and needs the bump the policy gives it.

Every row edits a copy of today's spec (written to tmp_path) and diffs it against the game's
frozen current release: the edit must produce exactly the expected rule(s) (the POSSIBLY_RENAMED
hints among them), and the diff's level must be the expected one (docs/editors/versioning.md).
Text only, except the rows about invariants, events and behaviour, which replay the release's
evidence too (test_behaviour.py covers the rest of the replays).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulespec.releases.rules import RULE
from rulespec.spec.registry import get_spec
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


def swap(first: str, second: str) -> Callable[[Any], Any]:
    """Return a function swapping two items of a list: ids of steps, or values."""
    def how(items: list[Any]) -> list[Any]:
        keys = [item.get("id") if isinstance(item, dict) else item for item in items]
        i, j = keys.index(first), keys.index(second)
        items[i], items[j] = items[j], items[i]
        return items
    return how


def move_step(ident: str, *, to: tuple[Key, ...]) -> Edit:
    """Move the step ``ident`` of Dado de Ouro's round to the end of the steps at ``to``."""
    def edit(data: dict[str, Any]) -> None:
        steps = _walk(data, ROUND)
        step = next(s for s in steps if s.get("id") == ident)
        steps.remove(step)
        _walk(data, to).append(step)
    return edit


def rename_option(record: str, old: str, new: str) -> Edit:
    """Give the option ``old`` of ``record`` the id ``new``, nothing else changed."""
    return change("ambiguities", f"#{record}", "options", f"#{old}",
                  how=lambda option: {**option, "id": new})


DDO, FOOL, OURO, RR = "dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"
STATE = ("state", "schema", "properties")
PHASE = (*STATE, "phase")
ROLL = ("actions", "#roll", "params", "properties")
NEW_FIELD = {"type": ["string", "null"], "description": "A note."}
#: Dado de Ouro's round (DDO-ROUND-01): roll, the two tie-breaks (DDO-TIE-01, DDO-TIE-04), score.
MATCH = ("structure", "flow", "#match", "steps")
ROUND = (*MATCH, "#round", "steps")
#: DDO-GAME-02: a game has ten rounds. Tightened to one, which the reference breaks in the
#: second round of every game (at about the twelfth roll).
ONE_ROUND = ("state.rounds_played <= params.rounds_per_game", "state.rounds_played <= 1")
#: DDO-TIE-02 reversed in meaning: the tied highest roller "does not gain".
REVERSED = (" gains the points", " does not gain the points")

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
    # DDO-TIE-02 reversed in meaning: words only by the rules (PATCH), shown old and new.
    ("clause statement reversed", DDO, change("clauses", "#DDO-TIE-02", "statement",
                                              how=lambda s: s.replace(*REVERSED)),
     {"CLAUSE_STATEMENT_CHANGED"}, "patch"),
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
    # DDO-TIE-01, DDO-TIE-04: the min tie-break played before the max one, against DDO-AMB-03's
    # default (max-first); the steps keep their ids, so only their order tells.
    ("tie-break steps swapped", DDO, change(*ROUND, how=swap("max-tiebreak", "min-tiebreak")),
     {"ORDER_CHANGED"}, "major"),
    # DDO-SCORE-02: scoring moved out of the round, after the game's end.
    ("step moved", DDO, move_step("round-score", to=(*MATCH, "#game-end", "steps")),
     {"ORDER_CHANGED"}, "major"),
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
     # The view declared beside final.draw and final.repetition goes with the field.
     {"STATE_FIELD_REMOVED", "STATE_VIEW_CHANGED"}, "major"),
    ("state field optional", DDO, change("state", "schema", "required",
                                         how=lambda req: [r for r in req if r != "final"]),
     {"STATE_FIELD_NOW_OPTIONAL"}, "minor"),
    ("state values narrowed", DDO, change(*PHASE, "enum", how=lambda e: [v for v in e if v != "final_draw"]),
     {"STATE_VALUES_CHANGED"}, "major"),
    ("state values widened", DDO, change(*PHASE, "enum", how=lambda e: [*e, "intermission"]),
     {"STATE_VALUES_WIDENED"}, "minor"),
    # DDO-TIE-01, DDO-TIE-04: the phases list the tie-breaks in the order of play.
    ("phases reordered", DDO, change(*PHASE, "enum", how=swap("max_tiebreak", "min_tiebreak")),
     {"ORDER_CHANGED"}, "major"),
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
    ("state hidden now the owner's too", FOOL, put("state", "hidden", 1, "visible_to",
                                                   value="owner"), {"STATE_HIDDEN_CHANGED"}, "major"),
    # FOOL-DEAL-01: who sees a hand is its path and visible_to; its quote and clauses are words.
    ("state hidden cites another clause", FOOL, put("state", "hidden", 1, "clauses",
                                                    value=["FOOL-DEAL-01", "FOOL-DEAL-02"]),
     {"STATE_HIDDEN_TEXT_CHANGED"}, "patch"),
    # FOOL-AMB-21: the hand entry holds under its default (hidden); under open it is shown.
    ("state hidden under a record's other option", FOOL, put(
        "state", "hidden", 0, "when", value={"FOOL-AMB-21": ["open"]}),
     {"STATE_HIDDEN_CHANGED"}, "major"),
    # DDO-ROUND-02: what `rulespec verify` keeps of the rounds played by default (issue 42).
    ("state view declared", DDO, put(*STATE, "rounds_played", "x-verify", value=["relative"]),
     {"STATE_VIEW_CHANGED", "STATE_ANNOTATION_CHANGED"}, "minor"),
    # invariants, events, coverage
    ("invariant expression", DDO, change("invariants", "#DDO-INV-TO-MOVE", "expression",
                                         how=lambda e: f"({e}) && true"), {"INVARIANT_CHANGED"}, "minor"),
    # DDO-GAME-02, DDO-MATCH-01: tightened so that the reference breaks it: MAJOR, never MINOR.
    ("invariant tightened the reference breaks", DDO, change(
        "invariants", "#DDO-INV-ROUNDS-PER-GAME", "expression", how=lambda e: e.replace(*ONE_ROUND)),
     {"INVARIANT_CHANGED", "INVARIANT_BROKEN"}, "major"),
    # DDO-TURN-01: an invariant added that only the random games break (a 4-player match).
    ("invariant added the reference breaks", DDO, add("invariants", value={
        "id": "DDO-INV-FEW-PLAYERS", "scope": "state", "clauses": ["DDO-TURN-01"],
        "description": "At most three players.", "expression": "config.players <= 3"}),
     {"INVARIANT_ADDED", "INVARIANT_BROKEN"}, "major"),
    ("invariant text", DDO, change("invariants", "#DDO-INV-TO-MOVE", "description", how=suffix("Always.")),
     {"INVARIANT_TEXT_CHANGED"}, "patch"),
    ("invariant added", DDO, add_copy(("invariants",), "DDO-INV-TO-MOVE", id="DDO-INV-AGAIN"),
     {"INVARIANT_ADDED"}, "minor"),
    ("invariant removed", DDO, drop("invariants", "#DDO-INV-TO-MOVE"), {"INVARIANT_REMOVED"}, "minor"),
    ("event changed", DDO, change("events", "#DDO-EV-TIE-HIGH", "when", how=lambda w: f"({w}) && true"),
     {"EVENT_CHANGED"}, "minor"),
    # DDO-TIE-01, DDO-TIE-02: an event reading a field no state has never shows.
    ("event the reference cannot evaluate", DDO, put("events", "#DDO-EV-TIE-HIGH", "when",
                                                     value="after.no_such_field > 0"),
     {"EVENT_CHANGED", "EVENT_BROKEN"}, "major"),
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
    # DDO-DIE-01: an option renamed is a removal and an addition, hinted as one rename.
    ("option renamed", DDO, rename_option("DDO-AMB-01", "d8", "eight-sided"),
     {"OPTION_REMOVED", "OPTION_ADDED", "POSSIBLY_RENAMED"}, "major"),
    ("clause renamed", DDO, change("clauses", "#DDO-DIE-01", how=lambda c: {**c, "id": "DDO-DIE-09"}),
     {"CLAUSE_REMOVED", "CLAUSE_ADDED", "POSSIBLY_RENAMED"}, "major"),
    # anything else
    ("unknown section", DDO, put("errata", value=["page 2"]), {"SECTION_CHANGED"}, "major"),
    # The release 1.2.1 is frozen: any edit of it needs a bump, even one no other rule sees.
    ("x- section", DDO, put("x-editor", value="anyone"), {"RELEASE_EDITED"}, "patch"),
    ("release entry reworded", DDO, change("game", "releases", -1, "summary", how=suffix("Really.")),
     {"RELEASE_EDITED"}, "patch"),
]


@pytest.mark.parametrize(("label", "game", "edit", "rules", "level"), ROWS,
                         ids=[row[0] for row in ROWS])
def test_an_edit_is_named_by_its_rule_and_level(label: str, game: str, edit: Edit,
                                                rules: set[str], level: str,
                                                tmp_path: Path) -> None:
    """The edit gives exactly the expected rules, and the diff's level is theirs; every change
    carries its old or new value, or both."""
    replay = any(RULE[r].category in REPLAYED for r in rules)
    diff = diff_edit(tmp_path, game, edit, behaviour=replay)
    found = {c.rule for c in (*diff.changes, *diff.hints)}
    assert found == rules, f"{label}: {[(c.rule, c.reason) for c in diff.changes]}"
    assert diff.level == level
    assert all(c.level == RULE[c.rule].level for c in (*diff.changes, *diff.hints))
    assert all(c.old is not None or c.new is not None for c in (*diff.changes, *diff.hints))
    assert all(c.level == "info" for c in diff.hints)


#: The rows whose rules are about these categories replay the release's evidence too: what
#: the new reference does to the new invariants and events is part of their level.
REPLAYED = frozenset({"behaviour", "invariants", "events"})


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


def _wrong_opening(examples: dict[str, Any]) -> None:
    """DDO-EX-OPENING-HIGHEST says seat 2 starts, though seat 1 rolled the highest (5)."""
    example = next(e for e in examples["examples"] if e["id"] == "DDO-EX-OPENING-HIGHEST")
    example["expect"][0]["that"] = "state.game_starter == 2"


def test_a_changed_rule_example_that_fails_on_the_reference_is_broken(tmp_path: Path) -> None:
    """DDO-SETUP-02 (the highest opening roll starts): an example the new spec changes so that
    its reference fails it is EXAMPLE_BROKEN (MAJOR), not a PATCH rewording."""
    diff = diff_edit(tmp_path, DDO, lambda data: None, examples=_wrong_opening, behaviour=True)
    assert {c.rule for c in diff.changes} == {"EXAMPLE_CHANGED", "EXAMPLE_BROKEN"}
    broken = next(c for c in diff.changes if c.rule == "EXAMPLE_BROKEN")
    assert diff.level == "major" and broken.path == "examples.DDO-EX-OPENING-HIGHEST"
    assert broken.clauses == ("DDO-SETUP-02", "DDO-ROUND-01")
    assert broken.old == "expected: state.game_starter == 2"


def test_a_broken_invariant_is_reported_at_its_step(tmp_path: Path) -> None:
    """DDO-GAME-02, DDO-MATCH-01: the tightened invariant is reported at the first golden trace
    and step where the reference breaks it, with its clauses, the sources that break it and
    both expressions."""
    diff = diff_edit(tmp_path, DDO, change("invariants", "#DDO-INV-ROUNDS-PER-GAME", "expression",
                                           how=lambda e: e.replace(*ONE_ROUND)), behaviour=True)
    broken = next(c for c in diff.changes if c.rule == "INVARIANT_BROKEN")
    assert broken.path == "invariants.DDO-INV-ROUNDS-PER-GAME"
    assert broken.clauses == ("DDO-GAME-02", "DDO-MATCH-01")
    assert "golden trace dado-de-ouro." in broken.reason and ", step " in broken.reason
    assert "of 8 golden traces" in broken.reason and "3 of 3 random games" in broken.reason
    assert broken.old is not None and "<= params.rounds_per_game" in broken.old
    assert broken.new is not None and "state.rounds_played <= 1" in broken.new
    assert not diff.ok and diff.required_bump() == "2.0.0"


def test_a_reversed_statement_shows_old_and_new_in_every_format(tmp_path: Path) -> None:
    """DDO-TIE-02 reversed ("does not gain"): the text report lists it without --verbose, and
    text, markdown and JSON all show the old and the new statement."""
    from rulespec.releases.report import render

    diff = diff_edit(tmp_path, DDO, change("clauses", "#DDO-TIE-02", "statement",
                                           how=lambda s: s.replace(*REVERSED)))
    (found,) = diff.changes
    assert found.old is not None and "gains the points" in found.old
    assert found.new is not None and "does not gain the points" in found.new
    text = render(diff, "text")
    assert f"was: {found.old}" in text and f"now: {found.new}" in text
    markdown = render(diff, "markdown")
    assert "    - was: The one who gets" in markdown and "does not gain" in markdown
    (change_json,) = json.loads(render(diff, "json"))["changes"]
    assert (change_json["old"], change_json["new"]) == (found.old, found.new)
    assert change_json["rule"] == "CLAUSE_STATEMENT_CHANGED"  # the old fields are all there
    assert {"level", "category", "path", "reason", "clauses", "records"} <= set(change_json)


def test_a_rename_hint_points_at_both_elements(tmp_path: Path) -> None:
    """DDO-DIE-01: option d8 of DDO-AMB-01 renamed: the hint names both paths and both ids, is
    listed apart from the changes (INFO, no bump) and in JSON under hints."""
    from rulespec.releases.report import render

    diff = diff_edit(tmp_path, DDO, rename_option("DDO-AMB-01", "d8", "eight-sided"))
    (hint,) = diff.hints
    assert hint.rule == "POSSIBLY_RENAMED" and (hint.old, hint.new) == ("d8", "eight-sided")
    assert hint.related == ("ambiguities.DDO-AMB-01.options.d8",
                            "ambiguities.DDO-AMB-01.options.eight-sided")
    assert hint.records == ("DDO-AMB-01",)
    report = json.loads(render(diff, "json"))
    assert report["hints"][0]["related"] == list(hint.related)
    assert "POSSIBLY_RENAMED" not in report["counts"]
    assert "INFO (1, no bump needed):" in render(diff, "text")
    assert "## Possible renames (no bump needed)" in render(diff, "markdown")


def test_unlike_elements_are_not_hinted_as_renames(tmp_path: Path) -> None:
    """DDO-DIE-01 and DDO-TIE-02: a clause removed and an unrelated one added are not a rename."""
    def edit(data: dict[str, Any]) -> None:
        drop("clauses", "#DDO-DIE-01")(data)
        add_copy(("clauses",), "DDO-TIE-02", id="DDO-NEW-01", statement="Something else.",
                 citation={"source": "rulebook", "quote": "else"})(data)

    diff = diff_edit(tmp_path, DDO, edit)
    assert {c.rule for c in diff.changes} == {"CLAUSE_REMOVED", "CLAUSE_ADDED"}
    assert diff.hints == ()


def test_a_long_value_is_cut_around_its_difference() -> None:
    """A long clause statement changed near its end shows that end on both sides."""
    from rulespec.releases.values import WIDTH, pair

    text = "The players roll in turn. " * 20
    old, new = pair(text + "The highest gains.", text + "The highest does not gain.")
    assert old is not None and new is not None
    assert old.endswith("The highest gains.") and new.endswith("The highest does not gain.")
    assert old.startswith("...") and len(new) <= WIDTH + 6


def test_annotations_are_no_change_between_two_versions(tmp_path: Path) -> None:
    """An x- section is no change once the version is bumped (RELEASE_EDITED is only for an
    edited release)."""
    major, minor, patch = (int(x) for x in get_spec("dado-de-ouro").version.split("."))
    bumped = f"{major}.{minor}.{patch + 1}"  # the next version, whatever today's is

    def edit(data: dict[str, Any]) -> None:
        data["x-editor"] = "anyone"
        data["game"]["spec_version"] = bumped
        data["game"]["releases"].append({"version": bumped, "date": "2026-12-03",
                                         "summary": "Nothing."})

    diff = diff_edit(tmp_path, DDO, edit)
    assert diff.changes == () and diff.level == "none" and diff.ok


def test_bounds_read_as_words_not_python() -> None:
    """A bound that appears or goes reads "maximum 5 (none before)" / "no maximum (was 5)" on
    the command line too, not ``maximum None -> 5`` (issue 45)."""
    from rulespec.releases.schemadiff import _bound

    (added,) = _bound("maximum", None, 5, "/roll", ())
    (gone,) = _bound("maximum", 5, None, "/roll", ())
    (moved,) = _bound("maximum", 5, 6, "/roll", ())
    assert (added.detail, gone.detail, moved.detail) == (
        "maximum 5 (none before)", "no maximum (was 5)", "maximum 5 -> 6")
    assert gone.kind == "widened" and added.kind == "changed"
