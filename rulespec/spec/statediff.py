"""Differences between two canonical states, in the rules' terms.

A diff lists every differing field as a JSON Pointer with both values, in the order the spec's
state schema declares its properties (so ``/phase`` comes before ``/leader`` when the spec says
so, not in alphabetical order). Each field names the clauses that govern it: a state schema node
may carry an ``x-clauses`` list of clause ids (JSON Schema ignores keywords it does not know, so
the spec format stays valid); a field takes the clauses of its deepest schema node that has
some.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

#: The keyword a state schema node names its governing clauses with.
CLAUSES_KEYWORD = "x-clauses"
#: Most fields a diff collects (a runaway state should not make a runaway report).
MAX_CHANGES = 1000

ChangeKind = Literal["changed", "missing", "extra"]


@dataclass(frozen=True)
class Change:
    """One differing field: where, what the engine has, what the reference has."""

    path: str
    kind: ChangeKind
    got: Any = None
    want: Any = None
    clauses: tuple[str, ...] = ()

    def text(self) -> str:
        """Say the difference in one short sentence."""
        if self.kind == "missing":
            return f"{self.path} is missing (the reference has {self.want!r:.80})"
        if self.kind == "extra":
            return f"{self.path} = {self.got!r:.80} is extra (the reference has no such field)"
        return f"{self.path} is {self.got!r:.80} but the reference has {self.want!r:.80}"

    def to_json(self) -> dict[str, Any]:
        """Return the change as JSON (values complete)."""
        out: dict[str, Any] = {"path": self.path, "kind": self.kind}
        if self.kind != "missing":
            out["got"] = self.got
        if self.kind != "extra":
            out["want"] = self.want
        out["clauses"] = list(self.clauses)
        return out


class StateSchema:
    """A state schema read for diffs: property order and the clauses of each field."""

    def __init__(self, schema: Mapping[str, Any] | None) -> None:
        self.root: Mapping[str, Any] = schema or {}

    def _resolve(self, node: Any) -> Mapping[str, Any]:
        if not isinstance(node, Mapping):
            return {}
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/"):
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target.get(part, {}) if isinstance(target, Mapping) else {}
            return {**self._resolve(target), **{k: v for k, v in node.items() if k != "$ref"}}
        return node

    def child(self, node: Mapping[str, Any], key: str | int) -> Mapping[str, Any]:
        """Return the schema of ``key`` inside the value that ``node`` describes."""
        node = self._resolve(node)
        if isinstance(key, int):
            items = node.get("prefixItems")
            if isinstance(items, list) and key < len(items):
                return self._resolve(items[key])
            return self._resolve(node.get("items"))
        props = node.get("properties")
        if isinstance(props, Mapping) and key in props:
            return self._resolve(props[key])
        return self._resolve(node.get("additionalProperties"))

    def order(self, node: Mapping[str, Any], keys: set[str]) -> list[str]:
        """Return ``keys`` in the schema's property order, unknown ones last (sorted)."""
        props = self._resolve(node).get("properties")
        declared = [k for k in props if k in keys] if isinstance(props, Mapping) else []
        return declared + sorted(keys - set(declared))

    def clauses(self, path: Sequence[str | int]) -> tuple[str, ...]:
        """Return the clauses of the deepest schema node along ``path`` that names some."""
        node = self._resolve(self.root)
        found = _clauses_of(node)
        for key in path:
            node = self.child(node, key)
            found = _clauses_of(node) or found
        return found

    def fields(self) -> Iterator[tuple[str, tuple[str, ...]]]:
        """Yield (pointer, clauses) of every top-level property of the state."""
        props = self._resolve(self.root).get("properties", {})
        for name in props:
            yield f"/{name}", self.clauses([name])


def _clauses_of(node: Mapping[str, Any]) -> tuple[str, ...]:
    value = node.get(CLAUSES_KEYWORD)
    return tuple(str(c) for c in value) if isinstance(value, list) else ()


def _pointer(path: Sequence[str | int]) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def diff_states(got: Any, want: Any, schema: StateSchema | None = None) -> list[Change]:
    """Return every field where ``got`` differs from ``want``, in schema order.

    Objects are compared key by key and lists of equal length item by item; a list whose length
    differs is one change (its items have no counterpart to be compared with).
    """
    sch = schema or StateSchema(None)
    out: list[Change] = []
    _walk(got, want, [], sch.root, sch, out)
    return out


def _walk(got: Any, want: Any, path: list[str | int], node: Mapping[str, Any],
          sch: StateSchema, out: list[Change]) -> None:
    if len(out) >= MAX_CHANGES or (got == want and type(got) is type(want)):
        return
    if isinstance(got, dict) and isinstance(want, dict):
        for key in sch.order(node, set(got) | set(want)):
            where = [*path, key]
            if key not in got:
                out.append(Change(_pointer(where), "missing", want=want[key],
                                  clauses=sch.clauses(where)))
            elif key not in want:
                out.append(Change(_pointer(where), "extra", got=got[key],
                                  clauses=sch.clauses(where)))
            else:
                _walk(got[key], want[key], where, sch.child(node, key), sch, out)
        return
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (x, y) in enumerate(zip(got, want, strict=True)):
            _walk(x, y, [*path, i], sch.child(node, i), sch, out)
        return
    out.append(Change(_pointer(path) or "/", "changed", got, want, sch.clauses(path)))


def describe(changes: Sequence[Change], limit: int = 6) -> str:
    """Say which fields differ: every one up to ``limit``, then how many more."""
    if not changes:
        return "states differ"
    shown = "; ".join(c.text() for c in changes[:limit])
    more = len(changes) - limit
    head = "1 field differs" if len(changes) == 1 else f"{len(changes)} fields differ"
    tail = f"; and {more} more (all in the JSON report)" if more > 0 else ""
    return f"{head}: {shown}{tail}"


def governing_clauses(changes: Sequence[Change]) -> tuple[str, ...]:
    """Return the clauses of the differing fields, without repeats, first field first."""
    return tuple(dict.fromkeys(c for ch in changes for c in ch.clauses))
