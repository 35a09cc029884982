"""The textual half of a spec diff: every section compared element by element, by id.

Each function compares one section of two specs' data and returns ``Change`` records named
after the rules of ``rules.RULES``. Nothing here runs a game; ``behaviour`` does that.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from rulespec.releases.change import Change
from rulespec.releases.change import clauses_of as _clauses
from rulespec.releases.order import flat_steps, leaf, moved_steps, step_lists, step_order
from rulespec.releases.renames import renames
from rulespec.releases.schemadiff import SchemaChange, compare, is_annotation
from rulespec.releases.values import ABSENT
from rulespec.spec.verify_views import view_terms
from rulespec.spec.visibility import who_sees_by_default

Data = Mapping[str, Any]

#: Keys of the game section that the policy does not watch (the version is what is checked;
#: the releases list is the history itself).
_GAME_UNWATCHED = frozenset({"spec_version", "releases"})


def _ids(items: Any) -> dict[str, Data]:
    if not isinstance(items, list):
        return {}
    return {str(item.get("id")): item for item in items if isinstance(item, Mapping)}


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True) if not isinstance(
        value, str) else repr(value)
    return text if len(text) <= 70 else text[:67] + "..."


def _changed_keys(old: Data, new: Data, keys: Iterable[str]) -> list[str]:
    return [k for k in keys if old.get(k) != new.get(k)]


def _text_keys(old: Data, new: Data, watched: Iterable[str]) -> list[str]:
    """Return the keys that differ other than the ``watched`` ones (words, clauses...)."""
    skip = set(watched)
    return sorted(k for k in set(old) | set(new) if k not in skip and old.get(k) != new.get(k))


def _sub(item: Any, keys: Sequence[str]) -> Any:
    """Return what ``item`` holds at ``keys``: the value of one key, a mapping of several."""
    if not isinstance(item, Mapping):
        return item
    if len(keys) == 1:
        return item.get(keys[0], ABSENT)
    return {k: item[k] for k in keys if k in item}


def diff_by_id(section: str, old: Any, new: Any, *, added: str, removed: str,
               both: Callable[[str, Data, Data], Iterator[Change]],
               records: Callable[[Data], tuple[str, ...]] = lambda _: ()) -> Iterator[Change]:
    """Compare a list section by id: added, removed, and ``both`` on the ones kept."""
    before, after = _ids(old), _ids(new)
    for ident, item in after.items():
        if ident not in before:
            yield Change.of(added, f"{section}.{ident}", f"{ident} added", _clauses(item),
                            records(item), new=item)
    for ident, item in before.items():
        if ident not in after:
            yield Change.of(removed, f"{section}.{ident}", f"{ident} removed", _clauses(item),
                            records(item), old=item)
    for ident in after:
        if ident in before and before[ident] != after[ident]:
            yield from both(ident, before[ident], after[ident])
    yield from renames(section, {i: v for i, v in before.items() if i not in after},
                       {i: v for i, v in after.items() if i not in before}, records)


def _text_change(rule: str, path: str, ident: str, old: Data, new: Data,
                 watched: Iterable[str] = ("id",), records: tuple[str, ...] = ()) -> Iterator[Change]:
    keys = _text_keys(old, new, watched)
    if keys:
        yield Change.of(rule, path, f"{ident}: {', '.join(keys)} changed", _clauses(old, new),
                        records, old=_sub(old, keys), new=_sub(new, keys))


# -- game and sources ----------------------------------------------------------------------------


def game(old: Data, new: Data) -> Iterator[Change]:
    """Compare the game sections (and the format line)."""
    og, ng = old.get("game") or {}, new.get("game") or {}
    if old.get("format") != new.get("format"):
        yield Change.of("FORMAT_CHANGED", "format",
                        f"format {_short(old.get('format'))} -> {_short(new.get('format'))}",
                        old=old.get("format"), new=new.get("format"))
    op, np = og.get("players") or {}, ng.get("players") or {}
    lo_old, hi_old = int(op.get("min", 0)), int(op.get("max", 0))
    lo_new, hi_new = int(np.get("min", 0)), int(np.get("max", 0))
    if (lo_old, hi_old) != (lo_new, hi_new):
        narrowed = lo_new > lo_old or hi_new < hi_old
        yield Change.of("PLAYERS_NARROWED" if narrowed else "PLAYERS_WIDENED", "game.players",
                        f"players {lo_old}-{hi_old} -> {lo_new}-{hi_new}", _clauses(np),
                        old=f"{lo_old}-{hi_old}", new=f"{lo_new}-{hi_new}")
    keys = _text_keys(og, ng, {"id", "players", *_GAME_UNWATCHED})
    if op.get("clauses") != np.get("clauses"):
        keys.append("players.clauses")
    if keys:
        shown = sorted(keys)
        yield Change.of("GAME_TEXT_CHANGED", "game", f"{', '.join(shown)} changed",
                        _clauses(og, ng), old=_game_values(og, op, shown),
                        new=_game_values(ng, np, shown))


def _game_values(game_data: Data, players: Data, keys: Sequence[str]) -> Any:
    values = {k: (players.get("clauses") if k == "players.clauses" else game_data.get(k))
              for k in keys}
    return next(iter(values.values())) if len(values) == 1 else values


def sources(old: Data, new: Data) -> Iterator[Change]:
    """Compare the rulebook documents."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        keys = _text_keys(a, b, ("id",))
        yield Change.of("SOURCE_CHANGED", f"sources.{ident}", f"{ident}: {', '.join(keys)} "
                        "changed", old=_sub(a, keys), new=_sub(b, keys))

    yield from diff_by_id("sources", old.get("sources"), new.get("sources"),
                          added="SOURCE_ADDED", removed="SOURCE_REMOVED", both=both)


# -- clauses ---------------------------------------------------------------------------------------


def clauses(old: Data, new: Data) -> Iterator[Change]:
    """Compare the clauses: statement, citation, kind."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path, cited = f"clauses.{ident}", (ident,)
        if a.get("statement") != b.get("statement"):
            yield Change.of("CLAUSE_STATEMENT_CHANGED", f"{path}.statement",
                            f"{ident}: the statement changed", cited,
                            old=a.get("statement"), new=b.get("statement"))
        if a.get("citation") != b.get("citation"):
            parts = _text_keys(a.get("citation") or {}, b.get("citation") or {}, ())
            yield Change.of("CLAUSE_QUOTE_CHANGED", f"{path}.citation",
                            f"{ident}: the citation's {', '.join(parts)} changed", cited,
                            old=_sub(a.get("citation") or {}, parts),
                            new=_sub(b.get("citation") or {}, parts))
        if a.get("kind") != b.get("kind"):
            yield Change.of("CLAUSE_KIND_CHANGED", f"{path}.kind",
                            f"{ident}: kind {a.get('kind')!r} -> {b.get('kind')!r}", cited,
                            old=a.get("kind"), new=b.get("kind"))
        rest = _text_keys(a, b, ("id", "statement", "citation", "kind"))
        if rest:
            yield Change.of("CLAUSE_STATEMENT_CHANGED", path, f"{ident}: {', '.join(rest)} "
                            "changed", cited, old=_sub(a, rest), new=_sub(b, rest))

    def added(ident: str) -> tuple[str, ...]:
        return (ident,)

    before, after = _ids(old.get("clauses")), _ids(new.get("clauses"))
    for ident, item in after.items():
        if ident not in before:
            yield Change.of("CLAUSE_ADDED", f"clauses.{ident}",
                            f"{ident} added ({item.get('kind', 'clause')})", added(ident),
                            new=item.get("statement", item))
    for ident in before:
        if ident not in after:
            yield Change.of("CLAUSE_REMOVED", f"clauses.{ident}", f"{ident} removed", (ident,),
                            old=before[ident].get("statement", before[ident]))
    for ident in after:
        if ident in before and before[ident] != after[ident]:
            yield from both(ident, before[ident], after[ident])
    yield from renames("clauses", {i: v for i, v in before.items() if i not in after},
                       {i: v for i, v in after.items() if i not in before}, cite_ids=True)


# -- components, zones, tables -------------------------------------------------------------------


def components(old: Data, new: Data) -> Iterator[Change]:
    """Compare the components: counts and the parts' attributes."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path = f"components.{ident}"
        counts_a = (a.get("count"), [(p.get("id"), p.get("count")) for p in a.get("parts") or []])
        counts_b = (b.get("count"), [(p.get("id"), p.get("count")) for p in b.get("parts") or []])
        if counts_a != counts_b:
            yield Change.of("COMPONENT_COUNT_CHANGED", f"{path}.count",
                            f"{ident}: counts {_short(counts_a)} -> {_short(counts_b)}",
                            _clauses(a, b), old=counts_a, new=counts_b)
        attrs_a = [(p.get("id"), p.get("attributes")) for p in a.get("parts") or []]
        attrs_b = [(p.get("id"), p.get("attributes")) for p in b.get("parts") or []]
        if attrs_a != attrs_b:
            yield Change.of("COMPONENT_ATTRIBUTE_CHANGED", f"{path}.parts",
                            f"{ident}: the parts' attributes changed", _clauses(a, b),
                            old=_differing(attrs_a, attrs_b), new=_differing(attrs_b, attrs_a))
        words = _text_keys(a, b, ("id", "count", "parts"))
        parts_text = [
            p.get("id") for p, q in zip(a.get("parts") or [], b.get("parts") or [], strict=False)
            if _text_keys(p, q, ("id", "count", "attributes"))]
        if words or parts_text:
            yield Change.of("COMPONENT_TEXT_CHANGED", path,
                            f"{ident}: {', '.join([*words, *map(str, parts_text)])} changed",
                            _clauses(a, b), old=_sub(a, words) if words else a.get("parts"),
                            new=_sub(b, words) if words else b.get("parts"))

    yield from diff_by_id("components", old.get("components"), new.get("components"),
                          added="COMPONENT_ADDED", removed="COMPONENT_REMOVED", both=both)


def _differing(mine: Sequence[Any], theirs: Sequence[Any]) -> list[Any]:
    """Return the items of ``mine`` that ``theirs`` does not have at the same place."""
    out = [item for i, item in enumerate(mine) if i >= len(theirs) or theirs[i] != item]
    return out or list(mine)


def zones(old: Data, new: Data) -> Iterator[Change]:
    """Compare the zones: visibility and owner."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        changed = _changed_keys(a, b, ("visibility", "owner"))
        if changed:
            yield Change.of("ZONE_VISIBILITY_CHANGED", f"zones.{ident}",
                            f"{ident}: " + ", ".join(f"{k} {a.get(k)!r} -> {b.get(k)!r}"
                                                     for k in changed), _clauses(a, b),
                            old=_sub(a, changed), new=_sub(b, changed))
        yield from _text_change("ZONE_TEXT_CHANGED", f"zones.{ident}", ident, a, b,
                                ("id", "visibility", "owner"))

    yield from diff_by_id("zones", old.get("zones"), new.get("zones"), added="ZONE_ADDED",
                          removed="ZONE_REMOVED", both=both)


def tables(old: Data, new: Data) -> Iterator[Change]:
    """Compare the tables: rows by key, columns, every printed value."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path, cited = f"tables.{ident}", _clauses(a, b)
        cols_a = [str(c.get("id")) for c in a.get("columns") or []]
        cols_b = [str(c.get("id")) for c in b.get("columns") or []]
        for col in cols_b:
            if col not in cols_a:
                yield Change.of("TABLE_COLUMN_ADDED", f"{path}.columns.{col}",
                                f"{ident}: column {col!r} added", cited,
                                new=_ids(b.get("columns")).get(col))
        for col in cols_a:
            if col not in cols_b:
                yield Change.of("TABLE_COLUMN_REMOVED", f"{path}.columns.{col}",
                                f"{ident}: column {col!r} removed", cited,
                                old=_ids(a.get("columns")).get(col))
        key_a, key_b = a.get("key"), b.get("key")
        rows_a = {json.dumps(r.get(key_a)): r for r in a.get("rows") or []}
        rows_b = {json.dumps(r.get(key_b)): r for r in b.get("rows") or []}
        if key_a != key_b:
            yield Change.of("TABLE_VALUE_CHANGED", f"{path}.key",
                            f"{ident}: keyed by {key_a!r} -> {key_b!r}", cited,
                            old=key_a, new=key_b)
        for key, row in rows_b.items():
            if key not in rows_a:
                yield Change.of("TABLE_ROW_ADDED", f"{path}.rows[{key}]",
                                f"{ident}: row {key} added", cited, new=row)
            else:
                shared = [c for c in cols_a if c in cols_b]
                diff = [c for c in shared if rows_a[key].get(c) != row.get(c)]
                if diff:
                    yield Change.of("TABLE_VALUE_CHANGED", f"{path}.rows[{key}]", f"{ident}: "
                                    f"row {key}: " + ", ".join(
                                        f"{c} {_short(rows_a[key].get(c))} -> {_short(row.get(c))}"
                                        for c in diff), cited,
                                    old=_sub(rows_a[key], diff), new=_sub(row, diff))
        for key, gone in rows_a.items():
            if key not in rows_b:
                yield Change.of("TABLE_ROW_REMOVED", f"{path}.rows[{key}]",
                                f"{ident}: row {key} removed", cited, old=gone)
        titles = [c for c, d in zip(a.get("columns") or [], b.get("columns") or [], strict=False)
                  if c.get("id") == d.get("id") and c != d]
        words = _text_keys(a, b, ("id", "columns", "rows", "key"))
        if words or titles:
            named = [*words, *(f"column {c.get('id')}" for c in titles)]
            yield Change.of("TABLE_TEXT_CHANGED", path, f"{ident}: {', '.join(named)} changed",
                            cited, old=_sub(a, words) if words else a.get("columns"),
                            new=_sub(b, words) if words else b.get("columns"))

    yield from diff_by_id("tables", old.get("tables"), new.get("tables"), added="TABLE_ADDED",
                          removed="TABLE_REMOVED", both=both)


# -- parameters ------------------------------------------------------------------------------------


def _at(schema: Any, path: str) -> Any:
    """Return the part of a JSON Schema at a ``SchemaChange`` path (``/hands/items``): a
    property name steps into ``properties``, a keyword into itself; ABSENT when it has none."""
    here = schema
    for part in [p for p in path.split("/") if p]:
        if not isinstance(here, Mapping) and not isinstance(here, list):
            return ABSENT
        if isinstance(here, list):
            here = here[int(part)] if part.isdigit() and int(part) < len(here) else ABSENT
        elif isinstance(here.get("properties"), Mapping) and part in here["properties"]:
            here = here["properties"][part]
        elif part in here:
            here = here[part]
        else:
            return ABSENT
        if here is ABSENT:
            return ABSENT
    return here


def _schema_rules(changes: Iterable[SchemaChange], *, widened: str, changed: str, text: str,
                  added: str | None = None, required: str | None = None,
                  removed: str | None = None, optional: str | None = None) -> Iterator[
                      tuple[str, SchemaChange]]:
    table = {"widened": widened, "changed": changed, "annotation": text,
             "field-added": added or widened, "field-required-added": required or changed,
             "field-removed": removed or changed, "field-now-optional": optional or widened}
    for change in changes:
        yield table[change.kind], change


def parameters(old: Data, new: Data) -> Iterator[Change]:
    """Compare the parameters: defaults (value or table source), value schemas."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path, cited = f"parameters.{ident}", _clauses(a, b)
        if _changed_keys(a, b, ("default", "from_table")):
            before = a.get("default", a.get("from_table"))
            after = b.get("default", b.get("from_table"))
            yield Change.of("PARAMETER_DEFAULT_CHANGED", f"{path}.default",
                            f"{ident}: default {_short(before)} -> {_short(after)}", cited,
                            old=before, new=after)
        for rule, change in _schema_rules(compare(a.get("schema"), b.get("schema")),
                                          widened="PARAMETER_SCHEMA_WIDENED",
                                          changed="PARAMETER_SCHEMA_CHANGED",
                                          text="PARAMETER_TEXT_CHANGED"):
            yield Change.of(rule, f"{path}.schema{change.path}", f"{ident}: {change.detail}",
                            cited, old=_at(a.get("schema"), change.path),
                            new=_at(b.get("schema"), change.path))
        yield from _text_change("PARAMETER_TEXT_CHANGED", path, ident, a, b,
                                ("id", "default", "from_table", "schema"))

    yield from diff_by_id("parameters", old.get("parameters"), new.get("parameters"),
                          added="PARAMETER_ADDED", removed="PARAMETER_REMOVED", both=both)


# -- structure and actions -------------------------------------------------------------------------


def structure(old: Data, new: Data) -> Iterator[Change]:
    """Compare the structure (setup, flow, end) step by step, and the order of the steps.

    Steps are matched by their dotted ids; the steps of one list kept on both sides must come
    in the same order (ORDER_CHANGED otherwise), and a step whose id left one list for another
    moved (ORDER_CHANGED too, not a removal and an addition).
    """
    a, b = old.get("structure") or {}, new.get("structure") or {}
    for part in sorted(set(a) | set(b)):
        steps_a, steps_b = dict(flat_steps(a.get(part), part)), dict(flat_steps(b.get(part), part))
        yield from step_order(step_lists(a.get(part), part), step_lists(b.get(part), part),
                               steps_a, steps_b)
        moved = moved_steps(steps_a, steps_b)
        arrived = {there: here for here, there in moved.items()}
        for here, there in moved.items():
            parent_a, parent_b = here.rpartition(".")[0], there.rpartition(".")[0]
            if moved.get(parent_a) != parent_b:
                yield Change.of("ORDER_CHANGED", f"structure.{there}",
                                f"step {leaf(here)} moved from {parent_a} to {parent_b}",
                                _clauses(steps_a[here], steps_b[there]), old=here, new=there)
            if steps_a[here] != steps_b[there]:
                keys = _text_keys(steps_a[here], steps_b[there], ("id", "steps"))
                yield Change.of("STRUCTURE_CHANGED", f"structure.{there}",
                                f"step {there}: {', '.join(keys)} changed",
                                _clauses(steps_a[here], steps_b[there]),
                                old=_sub(steps_a[here], keys), new=_sub(steps_b[there], keys))
        gone: dict[str, Data] = {}
        new_steps: dict[str, Data] = {}
        for where, step in steps_b.items():
            was = steps_a.get(where)
            if where in arrived:
                continue
            if was is None:
                new_steps[where] = step
                yield Change.of("STRUCTURE_CHANGED", f"structure.{where}", f"step {where} added",
                                _clauses(step), new=step)
            elif was != step:
                keys = _text_keys(was, step, ("id", "steps"))
                yield Change.of("STRUCTURE_CHANGED", f"structure.{where}",
                                f"step {where}: {', '.join(keys)} changed", _clauses(was, step),
                                old=_sub(was, keys), new=_sub(step, keys))
        for where, was in steps_a.items():
            if where not in steps_b and where not in moved:
                gone[where] = was
                yield Change.of("STRUCTURE_CHANGED", f"structure.{where}",
                                f"step {where} removed", _clauses(was), old=was)
        yield from renames("structure", gone, new_steps)


def actions(old: Data, new: Data) -> Iterator[Change]:
    """Compare the actions: actor, chance odds, parameter schemas, words."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path, cited = f"actions.{ident}", _clauses(a, b)
        if a.get("actor") != b.get("actor"):
            yield Change.of("ACTION_ACTOR_CHANGED", f"{path}.actor",
                            f"{ident}: actor {a.get('actor')!r} -> {b.get('actor')!r}", cited,
                            old=a.get("actor"), new=b.get("actor"))
        if a.get("probability") != b.get("probability"):
            yield Change.of("ACTION_PROBABILITY_CHANGED", f"{path}.probability",
                            f"{ident}: probability {_short(a.get('probability'))} -> "
                            f"{_short(b.get('probability'))}", cited,
                            old=a.get("probability"), new=b.get("probability"))
        for rule, change in _schema_rules(compare(a.get("params"), b.get("params")),
                                          widened="ACTION_PARAMS_WIDENED",
                                          changed="ACTION_PARAMS_CHANGED",
                                          text="ACTION_TEXT_CHANGED"):
            yield Change.of(rule, f"{path}.params{change.path}", f"{ident}: {change.detail}",
                            cited, old=_at(a.get("params"), change.path),
                            new=_at(b.get("params"), change.path))
        yield from _text_change("ACTION_TEXT_CHANGED", path, ident, a, b,
                                ("id", "actor", "probability", "params"))

    yield from diff_by_id("actions", old.get("actions"), new.get("actions"),
                          added="ACTION_ADDED", removed="ACTION_REMOVED", both=both)


# -- state -----------------------------------------------------------------------------------------


def state(old: Data, new: Data) -> Iterator[Change]:
    """Compare the state: its schema, conventions, hidden paths and notes."""
    a, b = old.get("state") or {}, new.get("state") or {}
    for rule, change in _schema_rules(compare(a.get("schema"), b.get("schema")),
                                      widened="STATE_VALUES_WIDENED",
                                      changed="STATE_VALUES_CHANGED",
                                      text="STATE_ANNOTATION_CHANGED",
                                      added="STATE_FIELD_ADDED",
                                      required="STATE_FIELD_REQUIRED_ADDED",
                                      removed="STATE_FIELD_REMOVED",
                                      optional="STATE_FIELD_NOW_OPTIONAL"):
        yield Change.of(rule, f"state.schema{change.path}", change.detail, change.clauses,
                        old=_at(a.get("schema"), change.path),
                        new=_at(b.get("schema"), change.path))
    yield from _phase_order(a.get("schema"), b.get("schema"))
    if view_terms(old) != view_terms(new):
        yield Change.of("STATE_VIEW_CHANGED", "state.schema", "the declared views (x-verify) "
                        "changed", old=view_terms(old), new=view_terms(new))
    yield from _conventions(a.get("conventions"), b.get("conventions"))
    if a.get("hidden") != b.get("hidden"):
        # What is hidden from whom is each entry's path and visible_to; the rest of an entry
        # (clauses, a citation, the records that read it) is its provenance.
        same = who_sees_by_default(old) == who_sees_by_default(new)
        yield Change.of("STATE_HIDDEN_TEXT_CHANGED" if same else "STATE_HIDDEN_CHANGED",
                        "state.hidden", "the hidden entries' provenance changed" if same
                        else "the hidden paths changed",
                        _clauses(*(a.get("hidden") or []), *(b.get("hidden") or [])),
                        old=a.get("hidden", ABSENT), new=b.get("hidden", ABSENT))
    rest = _text_keys(a, b, ("schema", "conventions", "hidden"))
    if rest:
        yield Change.of("STATE_ANNOTATION_CHANGED", "state", f"{', '.join(rest)} changed",
                        old=_sub(a, rest), new=_sub(b, rest))


def _phase_order(old: Any, new: Any) -> Iterator[Change]:
    """Yield ORDER_CHANGED when the state's phases (the ``phase`` field's enum, which lists
    them in the order of play) are the same but in another order."""
    def phases(schema: Any) -> list[Any]:
        field = _at(schema, "/phase")
        found = field.get("enum") if isinstance(field, Mapping) else None
        return list(found) if isinstance(found, list) else []

    before, after = phases(old), phases(new)
    kept_a = [p for p in before if p in after]
    kept_b = [p for p in after if p in before]
    if kept_a != kept_b:
        field = _at(new, "/phase")
        cited = tuple(str(c) for c in field.get("x-clauses") or []) if isinstance(
            field, Mapping) else ()
        yield Change.of("ORDER_CHANGED", "state.schema/phase/enum", "the phases are listed in "
                        "another order; they are listed in the order of play", cited,
                        old=" -> ".join(map(str, before)), new=" -> ".join(map(str, after)))


#: What a state convention says in words and provenance: changing it changes no comparison.
_CONVENTION_WORDS = ("text", "clauses", "readings")


def _conventions(old: Any, new: Any) -> Iterator[Change]:
    def index(items: Any) -> dict[str, Data]:
        return {str(c.get("path")): c for c in items or [] if isinstance(c, Mapping)}

    before, after = index(old), index(new)
    for path, conv in after.items():
        if path not in before:
            yield Change.of("STATE_CONVENTION_ADDED", f"state.conventions[{path}]",
                            f"{path}: {_short({k: v for k, v in conv.items() if k != 'text'})}",
                            _clauses(conv), new=conv)
        else:
            rules = {k: v for k, v in conv.items() if k not in _CONVENTION_WORDS}
            was = {k: v for k, v in before[path].items() if k not in _CONVENTION_WORDS}
            if rules != was:
                yield Change.of("STATE_CONVENTION_CHANGED", f"state.conventions[{path}]",
                                f"{path}: {_short(was)} -> {_short(rules)}", _clauses(conv),
                                old=was, new=rules)
            elif conv != before[path]:
                words = _text_keys(before[path], conv, ("path",))
                yield Change.of("STATE_ANNOTATION_CHANGED", f"state.conventions[{path}]",
                                f"{path}: the convention's words changed", _clauses(conv),
                                old=_sub(before[path], words), new=_sub(conv, words))
    for path, conv in before.items():
        if path not in after:
            yield Change.of("STATE_CONVENTION_REMOVED", f"state.conventions[{path}]",
                            f"{path}: convention removed", _clauses(conv), old=conv)


# -- invariants, events, coverage, variants ----------------------------------------------------------


def invariants(old: Data, new: Data) -> Iterator[Change]:
    """Compare the invariants: expression and scope, words."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        changed = _changed_keys(a, b, ("expression", "scope"))
        if changed:
            yield Change.of("INVARIANT_CHANGED", f"invariants.{ident}",
                            f"{ident}: {', '.join(changed)} changed", _clauses(a, b),
                            old=_sub(a, changed), new=_sub(b, changed))
        yield from _text_change("INVARIANT_TEXT_CHANGED", f"invariants.{ident}", ident, a, b,
                                ("id", "expression", "scope"))

    yield from diff_by_id("invariants", old.get("invariants"), new.get("invariants"),
                          added="INVARIANT_ADDED", removed="INVARIANT_REMOVED", both=both)


def events(old: Data, new: Data) -> Iterator[Change]:
    """Compare the rare events the kit seeks."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        changed = _changed_keys(a, b, ("when", "kinds"))
        if changed:
            yield Change.of("EVENT_CHANGED", f"events.{ident}",
                            f"{ident}: {', '.join(changed)} changed", _clauses(a, b),
                            old=_sub(a, changed), new=_sub(b, changed))
        yield from _text_change("EVENT_TEXT_CHANGED", f"events.{ident}", ident, a, b,
                                ("id", "when", "kinds"))

    yield from diff_by_id("events", old.get("events"), new.get("events"), added="EVENT_ADDED",
                          removed="EVENT_REMOVED", both=both)


def coverage(old: Data, new: Data) -> Iterator[Change]:
    """Compare the coverage declarations (one change when they differ)."""
    if old.get("coverage") != new.get("coverage"):
        yield Change.of("COVERAGE_CHANGED", "coverage", "the coverage declarations changed",
                        old=old.get("coverage", ABSENT), new=new.get("coverage", ABSENT))


def variants(old: Data, new: Data) -> Iterator[Change]:
    """Compare the variants: behaviour flag, settable parameters, words."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path, cited = f"variants.{ident}", _clauses(a, b)
        if bool(a.get("behaviour")) != bool(b.get("behaviour")):
            yield Change.of("VARIANT_BEHAVIOUR_CHANGED", f"{path}.behaviour",
                            f"{ident}: behaviour {a.get('behaviour')!r} -> {b.get('behaviour')!r}",
                            cited, old=a.get("behaviour", ABSENT), new=b.get("behaviour", ABSENT))
        before, after = set(a.get("settable") or []), set(b.get("settable") or [])
        if before - after:
            yield Change.of("VARIANT_SETTABLE_CHANGED", f"{path}.settable",
                            f"{ident}: no longer sets {sorted(before - after)}", cited,
                            old=a.get("settable", ABSENT), new=b.get("settable", ABSENT))
        if after - before:
            yield Change.of("VARIANT_SETTABLE_WIDENED", f"{path}.settable",
                            f"{ident}: also sets {sorted(after - before)}", cited,
                            old=a.get("settable", ABSENT), new=b.get("settable", ABSENT))
        rest = _text_keys(a, b, ("id", "behaviour", "settable"))
        if "parameters" in rest:
            rest.remove("parameters")
            yield Change.of("VARIANT_BEHAVIOUR_CHANGED", f"{path}.parameters",
                            f"{ident}: its parameter overrides changed", cited,
                            old=a.get("parameters", ABSENT), new=b.get("parameters", ABSENT))
        if rest:
            yield Change.of("VARIANT_TEXT_CHANGED", path, f"{ident}: {', '.join(rest)} changed",
                            cited, old=_sub(a, rest), new=_sub(b, rest))

    yield from diff_by_id("variants", old.get("variants"), new.get("variants"),
                          added="VARIANT_ADDED", removed="VARIANT_REMOVED", both=both)


# -- ambiguity records -------------------------------------------------------------------------------


def _record_id(item: Data) -> tuple[str, ...]:
    return (str(item.get("id")),)


def ambiguities(old: Data, new: Data) -> Iterator[Change]:
    """Compare the ambiguity register: options, default, status, impact, words."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        path, cited, rec = f"ambiguities.{ident}", _clauses(a, b), (ident,)
        da, db = (a.get("default") or {}), (b.get("default") or {})
        if da.get("option") != db.get("option"):
            yield Change.of("RECORD_DEFAULT_CHANGED", f"{path}.default.option",
                            f"{ident}: default {da.get('option')!r} -> {db.get('option')!r}",
                            cited, rec, old=da.get("option"), new=db.get("option"))
        if a.get("status") != b.get("status"):
            yield Change.of("RECORD_STATUS_CHANGED", f"{path}.status",
                            f"{ident}: status {a.get('status')!r} -> {b.get('status')!r}",
                            cited, rec, old=a.get("status"), new=b.get("status"))
        if a.get("impact") != b.get("impact"):
            yield Change.of("RECORD_IMPACT_CHANGED", f"{path}.impact",
                            f"{ident}: the measured impact changed", cited, rec,
                            old=a.get("impact", ABSENT), new=b.get("impact", ABSENT))
        yield from _options(ident, a.get("options"), b.get("options"), cited)
        words = _text_keys(a, b, ("id", "default", "status", "impact", "options"))
        old_words, new_words = _sub(a, words) if words else {}, _sub(b, words) if words else {}
        default_words = _text_keys(da, db, ("option",))
        if default_words:
            words.append("default." + "/".join(default_words))
            if len(words) == 1:
                old_words, new_words = _sub(da, default_words), _sub(db, default_words)
        if words:
            yield Change.of("RECORD_TEXT_CHANGED", path, f"{ident}: {', '.join(sorted(words))} "
                            "changed", cited, rec, old=old_words, new=new_words)

    yield from diff_by_id("ambiguities", old.get("ambiguities"), new.get("ambiguities"),
                          added="RECORD_ADDED", removed="RECORD_REMOVED", both=both,
                          records=_record_id)


def _options(record: str, old: Any, new: Any, cited: tuple[str, ...]) -> Iterator[Change]:
    before, after = _ids(old), _ids(new)
    rec = (record,)
    for ident in after:
        path = f"ambiguities.{record}.options.{ident}"
        if ident not in before:
            yield Change.of("OPTION_ADDED", path, f"{record}: option {ident!r} added", cited, rec,
                            new=after[ident])
            continue
        a, b = before[ident], after[ident]
        what = _changed_keys(a, b, ("parameters", "behaviour"))
        if what:
            yield Change.of("OPTION_CHANGED", path, f"{record}: option {ident!r}: "
                            f"{', '.join(what)} changed", cited, rec, old=_sub(a, what),
                            new=_sub(b, what))
        words = _text_keys(a, b, ("id", "parameters", "behaviour"))
        if words:
            yield Change.of("OPTION_TEXT_CHANGED", path, f"{record}: option {ident!r}: "
                            f"{', '.join(words)} changed", cited, rec, old=_sub(a, words),
                            new=_sub(b, words))
    for ident in before:
        if ident not in after:
            yield Change.of("OPTION_REMOVED", f"ambiguities.{record}.options.{ident}",
                            f"{record}: option {ident!r} removed", cited, rec,
                            old=before[ident])
    yield from renames(f"ambiguities.{record}.options",
                       {i: v for i, v in before.items() if i not in after},
                       {i: v for i, v in after.items() if i not in before},
                       lambda _: rec)


# -- rule examples -----------------------------------------------------------------------------------


def examples(old: Sequence[Data], new: Sequence[Data]) -> Iterator[Change]:
    """Compare two lists of rule examples by id."""
    def both(ident: str, a: Data, b: Data) -> Iterator[Change]:
        keys = _text_keys(a, b, ("id",))
        yield Change.of("EXAMPLE_CHANGED", f"examples.{ident}",
                        f"{ident}: {', '.join(keys)} changed",
                        _clauses(a, b), _witnessed(a, b), old=_sub(a, keys), new=_sub(b, keys))

    yield from diff_by_id("examples", list(old), list(new), added="EXAMPLE_ADDED",
                          removed="EXAMPLE_REMOVED", both=both,
                          records=_witnessed)


def _witnessed(*items: Data) -> tuple[str, ...]:
    found = [str(i["witness"]["ambiguity"]) for i in items
             if isinstance(i.get("witness"), Mapping) and "ambiguity" in i["witness"]]
    return tuple(dict.fromkeys(found))


#: The sections each comparer watches, in the spec's order.
SECTIONS: tuple[tuple[tuple[str, ...], Callable[[Data, Data], Iterator[Change]]], ...] = (
    (("format", "game"), game), (("sources",), sources), (("clauses",), clauses),
    (("components",), components), (("zones",), zones), (("tables",), tables),
    (("parameters",), parameters), (("structure",), structure), (("actions",), actions),
    (("state",), state), (("invariants",), invariants), (("events",), events),
    (("coverage",), coverage), (("variants",), variants), (("ambiguities",), ambiguities),
)


def spec_changes(old: Data, new: Data) -> list[Change]:
    """Return every textual change between two specs' data, section by section."""
    out: list[Change] = []
    known: set[str] = set()
    for keys, compare_section in SECTIONS:
        known.update(keys)
        out.extend(compare_section(old, new))
    for key in sorted((set(old) | set(new)) - known):
        if old.get(key) != new.get(key) and not is_annotation(key):
            out.append(Change.of("SECTION_CHANGED", key, f"section {key!r} changed",
                                 old=old.get(key, ABSENT), new=new.get(key, ABSENT)))
    return out
