"""The catalogue of change rules: each kind of change a spec can undergo, named for good.

Like ``buf breaking``'s rules, every rule has a stable name, a category (the part of the spec it
watches) and a one-line reason; unlike buf, each also carries the version bump it requires
under the policy (docs/editors/versioning.md): an engine conformant to X.Y stays conformant to
every later X.Z when it declares X.Y.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: What a change requires: a PATCH, MINOR or MAJOR bump.
Level = Literal["patch", "minor", "major"]
#: The levels from smallest to largest.
LEVELS: tuple[Level, ...] = ("patch", "minor", "major")
#: A rule's level: a bump, or "info" for a hint that requires none (a possible rename).
RuleLevel = Literal["info", "patch", "minor", "major"]


@dataclass(frozen=True)
class Rule:
    """One kind of change: its stable name, the bump it requires, what it watches, and why."""

    name: str
    level: RuleLevel
    category: str
    reason: str


def _r(name: str, level: RuleLevel, category: str, reason: str) -> Rule:
    return Rule(name, level, category, reason)


RULES: tuple[Rule, ...] = (
    # game
    _r("FORMAT_CHANGED", "major", "game", "the spec format changed: tools of the old format cannot read it"),
    _r("PLAYERS_NARROWED", "major", "game", "a player count an engine supports is no longer allowed"),
    _r("PLAYERS_WIDENED", "minor", "game", "new player counts are allowed; the old ones play as before"),
    _r("GAME_TEXT_CHANGED", "patch", "game", "names, summary, objective, credits or the reference module's import name changed: nothing an engine does"),
    # sources
    _r("SOURCE_ADDED", "patch", "sources", "a rulebook document is cited: provenance only"),
    _r("SOURCE_REMOVED", "patch", "sources", "a rulebook document is no longer cited: provenance only"),
    _r("SOURCE_CHANGED", "patch", "sources", "a source's description, checksum or sections changed: provenance only"),
    # clauses
    _r("CLAUSE_ADDED", "minor", "clauses", "a new clause documents behaviour; if it changes play the replays show it or the release declares it"),
    _r("CLAUSE_REMOVED", "major", "clauses", "clause ids are permanent: engines, reports and other specs cite them"),
    _r("CLAUSE_STATEMENT_CHANGED", "patch", "clauses", "the English statement of a clause changed: words only"),
    _r("CLAUSE_QUOTE_CHANGED", "patch", "clauses", "a clause's citation (quote, section, note) changed: provenance only"),
    _r("CLAUSE_KIND_CHANGED", "patch", "clauses", "a clause is classified differently (rule, definition, note...); play is checked by replay"),
    # components
    _r("COMPONENT_ADDED", "major", "components", "a new kind of piece is in the box: old engines do not know it"),
    _r("COMPONENT_REMOVED", "major", "components", "a kind of piece is gone from the box"),
    _r("COMPONENT_COUNT_CHANGED", "major", "components", "the number of pieces changed: every deal and draw changes"),
    _r("COMPONENT_ATTRIBUTE_CHANGED", "major", "components", "a piece's attributes (suit, value, faces) changed"),
    _r("COMPONENT_TEXT_CHANGED", "patch", "components", "a component's name, description or clauses changed: words only"),
    # zones
    _r("ZONE_ADDED", "minor", "zones", "a new zone is named; the state schema says whether engines must report it"),
    _r("ZONE_REMOVED", "major", "zones", "a zone engines report is gone"),
    _r("ZONE_VISIBILITY_CHANGED", "major", "zones", "who may see a zone changed: observations and bridges change"),
    _r("ZONE_TEXT_CHANGED", "patch", "zones", "a zone's name, description or clauses changed: words only"),
    # tables
    _r("TABLE_ADDED", "minor", "tables", "a printed table is encoded; parameters read from it say what it changes"),
    _r("TABLE_REMOVED", "major", "tables", "a table configurations and parameters read is gone"),
    _r("TABLE_ROW_ADDED", "minor", "tables", "a table gains a row (a new key): the old rows read as before"),
    _r("TABLE_ROW_REMOVED", "major", "tables", "a table row (a key an engine may look up) is gone"),
    _r("TABLE_COLUMN_ADDED", "minor", "tables", "a table gains a column: the old columns read as before"),
    _r("TABLE_COLUMN_REMOVED", "major", "tables", "a table column is gone"),
    _r("TABLE_VALUE_CHANGED", "major", "tables", "a printed number changed: parameters read from it give other defaults"),
    _r("TABLE_TEXT_CHANGED", "patch", "tables", "a table's title, description, column titles or clauses changed: words only"),
    # parameters
    _r("PARAMETER_ADDED", "minor", "parameters", "a new knob; its default keeps the old behaviour (the replays check it)"),
    _r("PARAMETER_REMOVED", "major", "parameters", "a knob configurations set is gone: they are refused"),
    _r("PARAMETER_DEFAULT_CHANGED", "major", "parameters", "a default changed (its value or the table it is read from): the default game changes"),
    _r("PARAMETER_SCHEMA_CHANGED", "major", "parameters", "a parameter accepts other values: some old configurations are refused"),
    _r("PARAMETER_SCHEMA_WIDENED", "minor", "parameters", "a parameter accepts more values: every old configuration still holds"),
    _r("PARAMETER_TEXT_CHANGED", "patch", "parameters", "a parameter's description or clauses changed: words only"),
    # structure
    _r("STRUCTURE_CHANGED", "patch", "structure", "the structure describes in words what the reference plays; play is checked by replay"),
    _r("ORDER_CHANGED", "major", "structure", "steps of the structure, or the phases of the state's phase field, are in another order (or a step moved to another place): the order of play the spec states changed"),
    # actions
    _r("ACTION_ADDED", "minor", "actions", "a new kind of action; where the reference offers it in old configurations the replays show it"),
    _r("ACTION_REMOVED", "major", "actions", "a kind of action old engines offer is gone"),
    _r("ACTION_PARAMS_CHANGED", "major", "actions", "an action's schema changed so that an old engine's actions may be refused"),
    _r("ACTION_PARAMS_WIDENED", "minor", "actions", "an action's schema accepts more: every old action still validates"),
    _r("ACTION_ACTOR_CHANGED", "major", "actions", "who takes an action changed"),
    _r("ACTION_PROBABILITY_CHANGED", "major", "actions", "the odds of a chance action changed"),
    _r("ACTION_TEXT_CHANGED", "patch", "actions", "an action's when, effect or clauses changed in words: play is checked by replay"),
    # state
    _r("STATE_FIELD_ADDED", "minor", "state", "an optional state field: old states still validate (a reference that reports it fails the replays)"),
    _r("STATE_FIELD_REQUIRED_ADDED", "major", "state", "a required state field: an old engine's states no longer validate"),
    _r("STATE_FIELD_REMOVED", "major", "state", "a state field old engines report is no longer allowed"),
    _r("STATE_FIELD_NOW_OPTIONAL", "minor", "state", "a state field is no longer required: old states still validate"),
    _r("STATE_VALUES_CHANGED", "major", "state", "a state field's type, values or bounds changed: old states may not validate"),
    _r("STATE_VALUES_WIDENED", "minor", "state", "a state field accepts more values: old states still validate"),
    _r("STATE_CONVENTION_ADDED", "minor", "state", "a state convention is declared for an array that had none"),
    _r("STATE_CONVENTION_CHANGED", "major", "state", "an array's order or null convention changed: old engines report it the old way"),
    _r("STATE_CONVENTION_REMOVED", "major", "state", "a state convention is gone: arrays are compared differently"),
    _r("STATE_HIDDEN_CHANGED", "major", "state", "what the state hides from whom changed: observations change"),
    _r("STATE_HIDDEN_TEXT_CHANGED", "patch", "state", "a hidden entry's clauses, quotes or readings changed, its path and who sees it did not: words and provenance only"),
    _r("STATE_ANNOTATION_CHANGED", "patch", "state", "descriptions, notes, x-clauses or x-phases of the state changed: words and provenance only"),
    _r("STATE_VIEW_CHANGED", "minor", "state", "the views declared for `rulespec verify` (x-verify) changed: what it keeps of a field by default, not what an engine does"),
    # invariants, events, coverage
    _r("INVARIANT_ADDED", "minor", "invariants", "a new property; an engine that agrees with the reference holds it"),
    _r("INVARIANT_REMOVED", "minor", "invariants", "a property is no longer checked: conformant engines stay conformant"),
    _r("INVARIANT_CHANGED", "minor", "invariants", "a property's expression or scope changed; the reference holds it"),
    _r("INVARIANT_TEXT_CHANGED", "patch", "invariants", "an invariant's description or clauses changed: words only"),
    _r("EVENT_ADDED", "minor", "events", "a new rare event for coverage: no engine is asked more"),
    _r("EVENT_REMOVED", "minor", "events", "a rare event is no longer sought: no engine is asked more"),
    _r("EVENT_CHANGED", "minor", "events", "when an event is recognised changed: coverage counts change"),
    _r("EVENT_TEXT_CHANGED", "patch", "events", "an event's name, description or clauses changed: words only"),
    _r("COVERAGE_CHANGED", "patch", "coverage", "how the kit steers play changed: what engines must do is the same"),
    # variants
    _r("VARIANT_ADDED", "minor", "variants", "a new optional rule; games without it play as before"),
    _r("VARIANT_REMOVED", "major", "variants", "a variant configurations name is gone: they are refused"),
    _r("VARIANT_BEHAVIOUR_CHANGED", "major", "variants", "what a variant does changed: its parameter overrides, or whether it is a named behaviour"),
    _r("VARIANT_SETTABLE_CHANGED", "major", "variants", "a variant no longer lets a parameter be set: some configurations are refused"),
    _r("VARIANT_SETTABLE_WIDENED", "minor", "variants", "a variant lets more parameters be set"),
    _r("VARIANT_TEXT_CHANGED", "patch", "variants", "a variant's name, description or clauses changed: words only"),
    # ambiguity records
    _r("RECORD_ADDED", "minor", "records", "a new ambiguity record; its default keeps the old behaviour (the replays check it)"),
    _r("RECORD_REMOVED", "major", "records", "a record configurations rule on is gone: they are refused"),
    _r("RECORD_DEFAULT_CHANGED", "major", "records", "the default ruling changed: the default game changes"),
    _r("RECORD_STATUS_CHANGED", "patch", "records", "a record moved in its lifecycle (reported, triaged, ruled...): the default is the same"),
    _r("RECORD_IMPACT_CHANGED", "patch", "records", "a record's measured impact changed: measurements only"),
    _r("RECORD_TEXT_CHANGED", "patch", "records", "a record's wording, evidence, history or rationale changed: words only"),
    _r("OPTION_ADDED", "minor", "records", "a record gains an option; the default is the same"),
    _r("OPTION_REMOVED", "major", "records", "an option configurations may rule is gone: they are refused"),
    _r("OPTION_CHANGED", "major", "records", "what an option does (its parameter overrides or behaviour flag) changed"),
    _r("OPTION_TEXT_CHANGED", "patch", "records", "an option's summary changed: words only"),
    # rule examples
    _r("EXAMPLE_ADDED", "patch", "examples", "a rule example of existing behaviour"),
    _r("EXAMPLE_REMOVED", "patch", "examples", "a rule example is gone; what it showed is checked by replaying the old ones"),
    _r("EXAMPLE_CHANGED", "patch", "examples", "a rule example changed; the old one is replayed on the new reference"),
    # behaviour
    _r("BEHAVIOUR_CHANGED", "major", "behaviour", "an old golden trace, rule example or perft table gives another result on the new reference"),
    _r("BEHAVIOUR_DECLARED", "major", "behaviour", "the release declares a change of play no old trace, example or table shows"),
    _r("CONFIGURATION_REFUSED", "major", "behaviour", "a configuration an old trace, example or perft table uses is refused by the new spec"),
    _r("EXAMPLES_UNREADABLE", "major", "behaviour", "the old rule examples cannot be read against the new spec"),
    _r("INVARIANT_BROKEN", "major", "behaviour", "the new reference breaks a new or changed invariant on a state of an old golden trace, rule example or a random game: no conformant engine can hold it"),
    _r("EVENT_BROKEN", "major", "behaviour", "a new or changed event cannot be evaluated on a state of an old golden trace, rule example or a random game: the kit would never see it"),
    _r("EXAMPLE_BROKEN", "major", "behaviour", "a rule example the new spec adds or changes fails on the new reference: the kit fails every engine on it"),
    # releases
    _r("RELEASE_EDITED", "patch", "releases", "the spec differs from the release of its own version where no other rule looks: a released version never changes"),
    # hints
    _r("POSSIBLY_RENAMED", "info", "hints", "an element removed and one added in the same section look alike: ids are permanent, so a rename is a removal (keep the old id if it is one)"),
    # anything else
    _r("SECTION_CHANGED", "major", "other", "a part of the spec no rule knows changed: treated as breaking until a rule says otherwise"),
)

#: Rule name -> rule.
RULE: dict[str, Rule] = {r.name: r for r in RULES}


def level_rank(level: str) -> int:
    """Return 0, 1, 2 for patch, minor, major (-1 for no change, or an info hint)."""
    return LEVELS.index(level) if level in LEVELS else -1
