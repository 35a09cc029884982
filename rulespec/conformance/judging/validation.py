"""Fast validation of canonical states against a spec's state schema.

A state schema is almost always an object schema with ``properties``; validating such an object
is the conjunction of validating its keys and each property value. Successive states of a game
share most property values, so ``StateValidator`` re-validates only the properties whose value
changed since the last valid state. Any schema that uses a root keyword outside the safe set
(``allOf``, ``if``, ``dependentSchemas``, ``unevaluatedProperties``...) is validated whole.
Every check is a compiled schema (``rulespec.spec.fastschema``), which answers as jsonschema
does; the messages of an invalid state come from jsonschema (``errors``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema

from rulespec.spec.fastschema import Check, compile_schema

#: Root keywords under which an object's validity splits property by property.
_SAFE_ROOT = frozenset({"type", "required", "additionalProperties", "properties", "$defs",
                        "description", "title", "$schema", "$id", "$comment"})
#: Keywords of an array property whose validity splits into the array's own keywords and each
#: item's validity (so a list that only grew since its last valid value checks its new items).
_SPLIT_ARRAY = frozenset({"type", "items", "minItems", "maxItems", "description", "title",
                          "$comment"})


def _keywords(schema: Mapping[str, Any]) -> set[str]:
    """Return a schema's keywords but its ``x-`` annotations (``x-clauses``, ``x-verify``: a
    view, the seats' rotation), which have no say in validity."""
    return {k for k in schema if not k.startswith("x-")}


class StateValidator:
    """Validate states against one schema, re-checking only what changed."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.whole = jsonschema.Draft202012Validator(dict(schema))
        self._whole = compile_schema(schema)
        props = schema.get("properties")
        self.split = (_keywords(schema) <= _SAFE_ROOT and schema.get("type") == "object"
                      and isinstance(props, dict)
                      and all(isinstance(s, dict) and "$defs" not in s and "$id" not in s
                              for s in props.values()))
        self._last: dict[str, Any] = {}
        self._root: Check | None = None
        self._props: dict[str, Check] = {}
        #: Array properties split as (array keywords, item) checks, and their last valid
        #: value (a copy), so an array that only grew validates just its new items.
        self._arrays: dict[str, tuple[Check, Check]] = {}
        self._grown: dict[str, list[Any]] = {}
        if self.split and isinstance(props, dict):
            defs = schema.get("$defs", {})
            root = {k: v for k, v in schema.items() if k != "properties"}
            root["properties"] = {k: True for k in props}
            self._root = compile_schema(root)
            self._props = {k: compile_schema(_inline({**sub, "$defs": defs}, defs))
                           for k, sub in props.items()}
            for key, sub in props.items():
                if (_keywords(sub) <= _SPLIT_ARRAY and sub.get("type") == "array"
                        and isinstance(sub.get("items"), dict)):
                    shell = {k: v for k, v in sub.items() if k != "items"}
                    item = _inline({**sub["items"], "$defs": defs}, defs)
                    self._arrays[key] = (compile_schema(shell), compile_schema(item))

    def is_valid(self, state: Any) -> bool:
        """Return True when ``state`` matches the schema."""
        if self._root is None:
            return self._whole(state)
        if not self._root(state):
            return False
        last = self._last
        for key, value in state.items():
            if key in last and last[key] == value:
                continue
            validator = self._props.get(key)
            if validator is None:
                continue
            split = self._arrays.get(key)
            if split is not None and isinstance(value, list):
                if not self._array_is_valid(key, value, *split):
                    return False
                continue
            if not validator(value):
                return False
        self._last = dict(state)
        return True

    def _array_is_valid(self, key: str, value: list[Any], shell: Check, item: Check) -> bool:
        """Validate an array property: its own keywords, then the items not known valid.

        An item equal to the item at the same index of the last valid value is valid (the
        array's keywords never relate two items), so an array that grew, or whose items changed
        in place (a player's hand), validates only its new and changed items.
        """
        if not shell(value):
            return False
        old = self._grown.get(key)
        if old is None:
            old = []
        known = len(old)
        for i, entry in enumerate(value):
            if i < known and old[i] == entry:
                continue
            if not item(entry):
                return False
        self._grown[key] = list(value)
        return True

    def errors(self, state: Any) -> list[jsonschema.ValidationError]:
        """Return every error of ``state`` (the slow, complete validation)."""
        return list(self.whole.iter_errors(state))


def _inline(schema: Any, defs: Mapping[str, Any], depth: int = 0) -> Any:
    """Replace local ``#/$defs/NAME`` references by their schema (faster to validate).

    Only a lone ``$ref`` is replaced (with sibling keywords merged by ``allOf``); recursive
    definitions stop being inlined after a few levels and keep their ``$ref``.
    """
    if isinstance(schema, list):
        return [_inline(s, defs, depth) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: (v if k in ("$defs", "const", "enum", "default", "examples")
               else _inline(v, defs, depth)) for k, v in schema.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and depth < 8:
        name = ref[len("#/$defs/"):]
        if name in defs and "/" not in name:
            target = _inline(defs[name], defs, depth + 1)
            rest = {k: v for k, v in out.items() if k != "$ref"}
            if not rest or set(rest) <= {"description", "title", "$comment"}:
                return target
            return {**rest, "allOf": [target]}
    return out
