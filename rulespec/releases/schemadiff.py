"""Compare two JSON Schemas (a state, an action's parameters, a parameter's values).

Each difference is said as what it does to the set of documents the schema accepts: a field
added, made required, removed or made optional; values widened (every old document still
validates) or changed (some old document may not); or annotations only (descriptions, titles,
``x-`` keywords).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

Kind = Literal["field-added", "field-required-added", "field-removed", "field-now-optional",
               "widened", "changed", "annotation"]

#: Keywords that describe without constraining.
ANNOTATIONS = frozenset({"description", "title", "$comment", "examples", "default", "deprecated",
                         "readOnly", "writeOnly", "$schema", "$id"})
#: Keywords whose smaller value accepts more.
_LOWER_BOUNDS = frozenset({"minimum", "exclusiveMinimum", "minLength", "minItems",
                           "minProperties", "minContains"})
#: Keywords whose larger value accepts more.
_UPPER_BOUNDS = frozenset({"maximum", "exclusiveMaximum", "maxLength", "maxItems",
                           "maxProperties", "maxContains"})
#: Keywords holding one subschema.
_ONE_SCHEMA = frozenset({"items", "additionalProperties", "contains", "not", "if", "then",
                         "else", "propertyNames", "unevaluatedProperties", "unevaluatedItems",
                         "additionalItems"})
#: Keywords holding a list of subschemas where more alternatives accept more.
_ALTERNATIVES = frozenset({"oneOf", "anyOf"})
#: Keywords holding a mapping of name -> subschema that are not properties.
_NAMED_SCHEMAS = frozenset({"patternProperties", "dependentSchemas"})
_HANDLED = frozenset({"properties", "required", "$defs", "definitions", "enum", "type"}) | \
    _LOWER_BOUNDS | _UPPER_BOUNDS | _ONE_SCHEMA | _ALTERNATIVES | _NAMED_SCHEMAS | ANNOTATIONS


@dataclass(frozen=True)
class SchemaChange:
    """One difference: what kind, where (``/hands/items``), the nearest x-clauses, and detail."""

    kind: Kind
    path: str
    detail: str
    clauses: tuple[str, ...] = ()


def is_annotation(key: str) -> bool:
    """Return True for a keyword that constrains nothing."""
    return key in ANNOTATIONS or key.startswith("x-")


def compare(old: Any, new: Any, path: str = "", clauses: Sequence[str] = ()) -> Iterator[SchemaChange]:
    """Yield every difference between two schemas, outermost first."""
    if old == new:
        return
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        yield from _compare_atoms(old, new, path, clauses)
        return
    here = tuple(new.get("x-clauses") or old.get("x-clauses") or clauses)
    yield from _properties(old, new, path, here)
    for key in ("$defs", "definitions", *sorted(_NAMED_SCHEMAS)):
        yield from _named(old.get(key) or {}, new.get(key) or {}, f"{path}/{key}", here,
                          defs=key in ("$defs", "definitions"))
    yield from _enum_and_type(old, new, path, here)
    for key in sorted(_LOWER_BOUNDS | _UPPER_BOUNDS):
        yield from _bound(key, old.get(key), new.get(key), path, here)
    for key in sorted(_ONE_SCHEMA):
        if key in old or key in new:
            yield from _one_schema(key, old.get(key), new.get(key), f"{path}/{key}", here)
    for key in sorted(_ALTERNATIVES | {"allOf", "prefixItems"}):
        if key in old or key in new:
            yield from _list(key, old.get(key) or [], new.get(key) or [], f"{path}/{key}", here)
    others = sorted((set(old) | set(new)) - _HANDLED - {"allOf", "prefixItems"})
    for key in others:
        if old.get(key) != new.get(key):
            kind: Kind = "annotation" if is_annotation(key) else "changed"
            yield SchemaChange(kind, path or "/", f"{key} {_show(old.get(key))} -> "
                               f"{_show(new.get(key))}", here)
    for key in sorted(ANNOTATIONS & (set(old) | set(new))):
        if old.get(key) != new.get(key):
            yield SchemaChange("annotation", path or "/", f"{key} changed", here)


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _compare_atoms(old: Any, new: Any, path: str, clauses: Sequence[str]) -> Iterator[SchemaChange]:
    # Boolean schemas: true accepts everything, false nothing.
    if new is True or old is False:
        yield SchemaChange("widened", path or "/", f"{_show(old)} -> {_show(new)}", tuple(clauses))
    else:
        yield SchemaChange("changed", path or "/", f"{_show(old)} -> {_show(new)}", tuple(clauses))


def _properties(old: Mapping[str, Any], new: Mapping[str, Any], path: str,
                clauses: tuple[str, ...]) -> Iterator[SchemaChange]:
    op, np = old.get("properties") or {}, new.get("properties") or {}
    oreq, nreq = set(old.get("required") or []), set(new.get("required") or [])
    for name in np:
        where = f"{path}/{name}"
        sub = tuple((np[name] or {}).get("x-clauses") or clauses) if isinstance(
            np[name], Mapping) else clauses
        if name not in op:
            kind: Kind = "field-required-added" if name in nreq else "field-added"
            yield SchemaChange(kind, where, f"field {name!r} added" +
                               (" (required)" if name in nreq else " (optional)"), sub)
            continue
        if name in nreq and name not in oreq:
            yield SchemaChange("field-required-added", where, f"field {name!r} is now required",
                               sub)
        if name in oreq and name not in nreq:
            yield SchemaChange("field-now-optional", where, f"field {name!r} is now optional",
                               sub)
        yield from compare(op[name], np[name], where, sub)
    for name in op:
        if name not in np:
            yield SchemaChange("field-removed", f"{path}/{name}", f"field {name!r} removed",
                               clauses)
    loose_old, loose_new = oreq - set(op), nreq - set(np)
    if loose_new - loose_old:
        yield SchemaChange("changed", path or "/", f"required {sorted(loose_new - loose_old)}",
                           clauses)
    if loose_old - loose_new:
        yield SchemaChange("widened", path or "/", f"no longer required "
                           f"{sorted(loose_old - loose_new)}", clauses)


def _named(old: Mapping[str, Any], new: Mapping[str, Any], path: str, clauses: tuple[str, ...],
           *, defs: bool) -> Iterator[SchemaChange]:
    for name in sorted(set(old) | set(new)):
        where = f"{path}/{name}"
        if name not in old:
            # A new definition constrains nothing until something refers to it.
            yield SchemaChange("annotation" if defs else "widened", where, f"{name!r} added",
                               clauses)
        elif name not in new:
            yield SchemaChange("annotation" if defs else "changed", where, f"{name!r} removed",
                               clauses)
        else:
            yield from compare(old[name], new[name], where, clauses)


def _as_set(value: Any) -> set[str] | None:
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    return {repr(v) for v in items}


def _enum_and_type(old: Mapping[str, Any], new: Mapping[str, Any], path: str,
                   clauses: tuple[str, ...]) -> Iterator[SchemaChange]:
    for key in ("enum", "type"):
        before, after = _as_set(old.get(key)), _as_set(new.get(key))
        if before == after:
            continue
        widened = after is None or (before is not None and before <= after)
        yield SchemaChange("widened" if widened else "changed", path or "/",
                           f"{key} {_show(old.get(key))} -> {_show(new.get(key))}", clauses)


def _bound(key: str, before: Any, after: Any, path: str,
           clauses: tuple[str, ...]) -> Iterator[SchemaChange]:
    if before == after:
        return
    if after is None:
        widened = True
    elif before is None:
        widened = False
    else:
        widened = after < before if key in _LOWER_BOUNDS else after > before
    said = (f"{key} {_show(after)} (none before)" if before is None else
            f"no {key} (was {_show(before)})" if after is None else
            f"{key} {_show(before)} -> {_show(after)}")
    yield SchemaChange("widened" if widened else "changed", path or "/", said, clauses)


def _one_schema(key: str, before: Any, after: Any, path: str,
                clauses: tuple[str, ...]) -> Iterator[SchemaChange]:
    if before is None:
        # A new constraint (additionalProperties: true constrains nothing).
        kind: Kind = "widened" if after is True else "changed"
        yield SchemaChange(kind, path, f"{key} added", clauses)
    elif after is None:
        kind = "widened" if key not in ("not",) else "changed"
        yield SchemaChange(kind, path, f"{key} removed", clauses)
    else:
        yield from compare(before, after, path, clauses)


def _list(key: str, before: list[Any], after: list[Any], path: str,
          clauses: tuple[str, ...]) -> Iterator[SchemaChange]:
    if len(before) == len(after):
        for i, (a, b) in enumerate(zip(before, after, strict=True)):
            yield from compare(a, b, f"{path}/{i}", clauses)
        return
    kept = all(item in after for item in before)
    widened = key in _ALTERNATIVES and kept and len(after) > len(before)
    yield SchemaChange("widened" if widened else "changed", path,
                       f"{key} has {len(after)} entries instead of {len(before)}", clauses)
