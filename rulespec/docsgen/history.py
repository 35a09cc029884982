"""A game's release history for the docs: each release's bulletin, today's unreleased edits,
and the release in which each clause and record appeared and last changed.

Each recorded release (``game.releases``) is compared, as ``rulespec diff`` compares it, with
the newest frozen release before it: its own frozen copy when it has one, today's spec for the
newest release when it is recorded but not frozen yet. Edits made to today's spec after the
newest frozen release are one more entry, *unreleased*. A ``DiffCache`` holds every diff of one
build, so the Changes pages, the version notes on the clause and register pages, the register's
"last change" and the feed compute each (game, old, new) diff once.

Not every change a diff finds changes a rule. :func:`is_normative` says which do; the lineage
note (``changed in``) counts only those, and an entry none of whose changes do is bookkeeping
only (:attr:`Entry.bookkeeping_only`), which the Changes pages and the feed say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from rulespec.releases.change import Change
from rulespec.releases.diff import SpecDiff, diff_specs
from rulespec.releases.store import release_spec, releases_of, releases_root
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: The label and anchor of today's edits that no release holds yet.
UNRELEASED = "unreleased"
#: The sections whose elements carry an appeared/last-changed note: clauses and records.
Section = Literal["clauses", "ambiguities"]
#: The rules whose change names, in its clauses and records, what it changed (not only what it
#: touches): a release declares that the play of these clauses and records changed.
_NAMING_RULES = frozenset({"BEHAVIOUR_DECLARED"})

# -- which changes change a rule ----------------------------------------------------------------

#: The rules of ``rulespec diff``'s catalogue (``releases/rules.py``) none of whose changes is a
#: change of rule. Measurements (RECORD_IMPACT_CHANGED); the descriptions and clause links of
#: elements whose play the spec states elsewhere and the replays check (the *_TEXT_CHANGED rules,
#: STRUCTURE_CHANGED, STATE_ANNOTATION_CHANGED); provenance (SOURCE_*, GAME_TEXT_CHANGED); what
#: the conformance kit seeks (COVERAGE_CHANGED, EVENT_*); rule examples, which show behaviour the
#: spec already has (a changed behaviour is BEHAVIOUR_CHANGED when the old ones are replayed); an
#: edit to a released version where no other rule looks (RELEASE_EDITED: annotations, the list
#: of releases). A hint (level ``info``, POSSIBLY_RENAMED) is no change at all.
_BOOKKEEPING_RULES = frozenset({
    "GAME_TEXT_CHANGED", "SOURCE_ADDED", "SOURCE_REMOVED", "SOURCE_CHANGED",
    "COMPONENT_TEXT_CHANGED", "ZONE_TEXT_CHANGED", "TABLE_TEXT_CHANGED",
    "PARAMETER_TEXT_CHANGED", "STRUCTURE_CHANGED", "ACTION_TEXT_CHANGED",
    "STATE_ANNOTATION_CHANGED", "INVARIANT_TEXT_CHANGED", "EVENT_ADDED", "EVENT_REMOVED",
    "EVENT_CHANGED", "EVENT_TEXT_CHANGED", "COVERAGE_CHANGED", "VARIANT_TEXT_CHANGED",
    "RECORD_IMPACT_CHANGED", "EXAMPLE_ADDED", "EXAMPLE_REMOVED", "EXAMPLE_CHANGED",
    "RELEASE_EDITED",
})
#: The rules whose one change may hold both what a clause or record states and what the spec
#: says about it (RECORD_TEXT_CHANGED: a record's question and its history; CLAUSE_QUOTE_CHANGED:
#: a quote and its section; a clause's other keys, its tags among them): their change is a
#: change of rule when the element differs outside :data:`_ABOUT`.
_MIXED_RULES = frozenset({"CLAUSE_STATEMENT_CHANGED", "CLAUSE_QUOTE_CHANGED",
                          "RECORD_TEXT_CHANGED"})
#: What the spec says *about* a clause or record, not what it states: a reader applies the rule
#: the same whatever these say. ``a.b`` is key ``b`` of the mapping ``a``, or of each item of
#: the list ``a``. A clause states its statement, kind and quote; a record its question, the
#: rulebook's quotes, the elements where it is asked (``touches``: its decision points), its
#: options, its default ruling and its authority, its status and what it duplicates.
_ABOUT: dict[str, tuple[str, ...]] = {
    "clauses": ("tags", "citation.source", "citation.section", "citation.note"),
    "ambiguities": ("title", "kind", "severity", "effect", "clauses", "conflicts", "evidence",
                    "needs", "rejected", "impact", "history", "default.rationale",
                    "sources.source", "sources.section", "sources.note"),
}


def is_normative(change: Change, old: Spec | None = None, new: Spec | None = None) -> bool:
    """Return whether ``change`` (from ``old`` to ``new``) changes a rule, the one place that says.

    A change of rule is what an engine or a reader of the rules would notice: a statement or
    quote of a clause, a record's options, default, status or decision points, an invariant's
    expression, anything at MINOR or MAJOR. Measurements, the wording of notes, provenance and
    fields that moved are bookkeeping: the ``changed in`` notes would otherwise mark every
    record of a game each time its measurements are redone, and an implementer could not tell
    a rule change from them. The catalogue's levels do not say it: a clause's new statement is
    PATCH (words only, for an engine) yet a reader's rule changed.

    A rule this table does not know (a new one of the catalogue) counts as a change of rule, and
    so does a mixed change (:data:`_MIXED_RULES`) whose element is not on both sides.
    """
    if change.rule in _BOOKKEEPING_RULES or change.level == "info":
        return False
    if change.rule not in _MIXED_RULES:
        return True
    parts = change.path.split(".")
    section = parts[0]
    if section not in _ABOUT or len(parts) < 2 or old is None or new is None:
        return True
    before, after = _element(old, section, parts[1]), _element(new, section, parts[1])
    if before is None or after is None:
        return True
    return _stated(before, _ABOUT[section]) != _stated(after, _ABOUT[section])


def _element(spec: Spec, section: str, ident: str) -> Mapping[str, Any] | None:
    return next((item for item in spec.section(section) if str(item.get("id")) == ident), None)


def _stated(item: Mapping[str, Any], about: Sequence[str]) -> dict[str, Any]:
    """Return ``item`` without the keys ``about`` names (dotted: in a mapping or each list item)."""
    out = dict(item)
    for key in about:
        head, _, rest = key.partition(".")
        if not rest:
            out.pop(head, None)
        elif isinstance(out.get(head), Mapping):
            out[head] = {k: v for k, v in out[head].items() if k != rest}
        elif isinstance(out.get(head), list):
            out[head] = [{k: v for k, v in x.items() if k != rest} if isinstance(x, Mapping)
                         else x for x in out[head]]
    return out


@dataclass(frozen=True, eq=False)
class Entry:
    """One entry of a game's history: a recorded release, or today's unreleased edits."""

    #: The release's version; None for today's unreleased edits.
    version: str | None
    date: str
    summary: str
    #: Whether the release has a frozen copy (today's edits never do).
    frozen: bool
    #: The spec as of this entry (its frozen copy, or today's spec); None for a release recorded
    #: but not frozen that is not the newest, which nothing holds any more.
    content: Spec | None
    #: The changes since ``previous`` (None for the first release, or without ``content``).
    diff: SpecDiff | None
    #: The version ``diff`` compares with: the newest frozen release before this one.
    previous: str | None
    #: The spec of ``previous`` (its frozen copy), which ``diff`` compares with ``content``.
    previous_content: Spec | None = None

    @cached_property
    def rule_changes(self) -> tuple[Change, ...]:
        """Return the changes of ``diff`` that change a rule (:func:`is_normative`)."""
        if self.diff is None:
            return ()
        return tuple(c for c in self.diff.changes
                     if is_normative(c, self.previous_content, self.content))

    @property
    def bookkeeping_only(self) -> bool:
        """Return whether the entry changes something but no rule (measurements, words...)."""
        return self.diff is not None and bool(self.diff.changes) and not self.rule_changes

    @property
    def label(self) -> str:
        """Return the version, or ``unreleased``."""
        return self.version or UNRELEASED

    @property
    def anchor(self) -> str:
        """Return the entry's anchor on the Changes page (``release-1.1.0``, ``unreleased``)."""
        return f"release-{self.version}" if self.version else UNRELEASED


@dataclass(frozen=True)
class Lineage:
    """When a clause or record appeared and when it last changed (None: not known)."""

    appeared: Entry | None
    changed: Entry | None


class DiffCache:
    """Every diff of one build, computed once per (game, old version, new side).

    ``behaviour`` replays the old release's golden traces, rule examples and perft tables on
    the new reference, as ``rulespec diff`` does by default.
    """

    def __init__(self, *, behaviour: bool = True) -> None:
        self.behaviour = behaviour
        self._found: dict[tuple[str, str, str], SpecDiff] = {}

    def diff(self, old: Spec, new: Spec, *, new_side: str) -> SpecDiff:
        """Return the diff from ``old`` (a frozen release) to ``new``, named by ``new_side``."""
        key = (old.game_id, old.version, new_side)
        found = self._found.get(key)
        if found is None:
            found = diff_specs(old, new, behaviour=self.behaviour, old_label=f"{old.game_id}@"
                               f"{old.version}", new_label=_side_label(new, new_side))
            self._found[key] = found
        return found

    def unreleased(self, frozen: Spec, today: Spec) -> SpecDiff | None:
        """Return the changes of ``today`` since its newest frozen release, or None if none.

        The same data and rule examples mean no change, without a diff (the usual case: any
        edit after a release needs a new version).
        """
        if frozen.data == today.data and _examples_bytes(frozen) == _examples_bytes(today):
            return None
        found = self.diff(frozen, today, new_side="today")
        return found if found.changes else None


def _side_label(spec: Spec, side: str) -> str:
    return f"specs/{spec.path.name}" if side == "today" else f"{spec.game_id}@{side}"


def _examples_bytes(spec: Spec) -> bytes | None:
    from rulespec.examples.model import examples_path

    path = examples_path(spec)
    return path.read_bytes() if path.is_file() else None


def frozen_copies(spec: Spec) -> dict[str, Spec]:
    """Return the frozen copy of each release ``spec`` records, by version (frozen ones only).

    A spec given by path whose game is not registered has none: its releases are found beside
    the registered spec file.
    """
    try:
        root = releases_root(spec.game_id)
    except RulespecError:
        return {}
    out = {}
    for item in releases_of(spec):
        if (root / item.version / f"{spec.game_id}.yaml").is_file():
            out[item.version] = release_spec(spec.game_id, item.version)
    return out


class History:
    """The releases of one game, oldest first, each with its changes; lineage of every id."""

    def __init__(self, spec: Spec, cache: DiffCache) -> None:
        self.spec = spec
        self.entries: list[Entry] = _entries(spec, cache)
        #: Each entry that holds a spec, with that spec and the ids of its clauses and records.
        self._held = [(entry, entry.content, {section: {str(item.get("id")) for item in
                                                        entry.content.section(section)}
                                              for section in ("clauses", "ambiguities")})
                      for entry in self.entries if entry.content is not None]
        self._named: dict[tuple[str, str], Entry] = {}
        for entry in self.entries:  # oldest first: the newest entry naming an id wins
            for change in entry.rule_changes:
                for key in _named_ids(change.rule, change.path, change.clauses, change.records):
                    self._named[key] = entry

    @property
    def newest_first(self) -> list[Entry]:
        """Return the entries, newest first (unreleased edits at the top)."""
        return list(reversed(self.entries))

    @property
    def releases(self) -> list[Entry]:
        """Return the recorded releases, oldest first (without unreleased edits)."""
        return [e for e in self.entries if e.version is not None]

    def lineage(self, section: Section, ident: str) -> Lineage:
        """Return the entry in which ``ident`` first appeared and the newest that changed it.

        Appeared: the first entry whose spec holds the id. Changed: the newest entry whose diff
        names a change of rule (:func:`is_normative`) at the id's path (``clauses.ID...``,
        ``ambiguities.ID...``), or declares a change of play naming it.
        """
        appeared = next((entry for entry, _, ids in self._held if ident in ids[section]), None)
        return Lineage(appeared, self._named.get((section, ident)))

    def released_with(self, record: str, event: Mapping[str, Any]) -> Entry | None:
        """Return the first entry whose spec holds the history ``event`` of ``record``.

        An event is its date and status: its note may have been reworded since.
        """
        key = (str(event.get("date")), str(event.get("status")))
        for entry, content, _ in self._held:
            held = next((a for a in content.section("ambiguities")
                         if str(a.get("id")) == record), None)
            events = (held or {}).get("history") or []
            if any((str(h.get("date")), str(h.get("status"))) == key for h in events):
                return entry
        return None


def _named_ids(rule: str, path: str, clauses: Sequence[str], records: Sequence[str]
               ) -> list[tuple[str, str]]:
    parts = path.split(".")
    found = [(parts[0], parts[1])] if parts[0] in ("clauses", "ambiguities") and \
        len(parts) > 1 else []
    if rule in _NAMING_RULES:
        found += [("clauses", c) for c in clauses] + [("ambiguities", r) for r in records]
    return found


def _entries(spec: Spec, cache: DiffCache) -> list[Entry]:
    recorded = releases_of(spec)
    frozen = frozen_copies(spec)
    entries: list[Entry] = []
    previous: Spec | None = None
    for index, item in enumerate(recorded):
        content = frozen.get(item.version)
        side = item.version
        if content is None and index == len(recorded) - 1:
            content, side = spec, "today"
        diff = None if content is None or previous is None else \
            cache.diff(previous, content, new_side=side)
        entries.append(Entry(item.version, item.date, item.summary, item.version in frozen,
                             content, diff, None if previous is None else previous.version,
                             previous))
        previous = frozen.get(item.version, previous)
    if recorded and recorded[-1].version in frozen:
        base = frozen[recorded[-1].version]
        diff = cache.unreleased(base, spec)
        if diff is not None:
            entries.append(Entry(None, "", f"Edits to specs/{spec.path.name} since "
                                 f"{base.version}, in no release yet.", False, spec, diff,
                                 base.version, base))
    return entries
