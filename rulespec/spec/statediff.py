"""Differences between two canonical states, in the rules' terms.

A diff lists every differing field as a JSON Pointer with both values, in the order the spec's
state schema declares its properties (so ``/phase`` comes before ``/leader`` when the spec says
so, not in alphabetical order). Each field names the clauses that govern it: a state schema node
may carry an ``x-clauses`` list of clause ids (JSON Schema ignores keywords it does not know, so
the spec format stays valid); a field takes the clauses of its deepest schema node that has
some.

The spec's ``state.conventions`` say what a comparison depends on: the order of each array and
when a field is null. A differing field cites its convention; an array whose order is declared
``unordered`` is compared as a multiset; an array with the same items in another order is one
change that quotes the declared order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rulespec.spec.model import Spec

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
    #: The spec's convention for this field, when it declares one.
    convention: str | None = None
    #: True when an array has the reference's items in another order.
    reordered: bool = False

    def text(self) -> str:
        """Say the difference in one short sentence."""
        if self.kind == "missing":
            said = f"{self.path} is missing (the reference has {self.want!r:.80})"
        elif self.kind == "extra":
            said = f"{self.path} = {self.got!r:.80} is extra (the reference has no such field)"
        elif self.reordered:
            said = (f"{self.path} has the reference's items in another order: {self.got!r:.80} "
                    f"instead of {self.want!r:.80}")
        else:
            said = f"{self.path} is {self.got!r:.80} but the reference has {self.want!r:.80}"
        return said + (f" (the spec's convention: {self.convention})" if self.convention else "")

    def to_json(self) -> dict[str, Any]:
        """Return the change as JSON (values complete)."""
        out: dict[str, Any] = {"path": self.path, "kind": self.kind}
        if self.kind != "missing":
            out["got"] = self.got
        if self.kind != "extra":
            out["want"] = self.want
        out["clauses"] = list(self.clauses)
        if self.convention:
            out["convention"] = self.convention
        if self.reordered:
            out["reordered"] = True
        return out


@dataclass(frozen=True)
class Convention:
    """A convention of the state: the order of an array, or when a field is null."""

    path: tuple[str, ...]
    text: str
    order: str | None = None
    clauses: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Convention:
        """Read one entry of the spec's ``state.conventions``."""
        return cls(tuple(str(data["path"]).split("/")[1:]), str(data["text"]),
                   data.get("order"), tuple(str(c) for c in data.get("clauses", [])))

    def matches(self, path: Sequence[str | int]) -> bool:
        """Return True when this convention is about ``path`` (``*`` matches any index)."""
        return len(path) == len(self.path) and all(
            want == "*" or want == str(got) for want, got in zip(self.path, path, strict=True))


class StateSchema:
    """A state schema read for diffs: property order and the clauses of each field."""

    def __init__(self, schema: Mapping[str, Any] | None,
                 conventions: Sequence[Convention] = ()) -> None:
        self.root: Mapping[str, Any] = schema or {}
        self.conventions = tuple(conventions)

    @classmethod
    def of(cls, spec: Spec) -> StateSchema:
        """Return the state schema of ``spec`` with its declared conventions."""
        state = spec.data.get("state", {})
        return cls(spec.state_schema,
                   [Convention.from_json(c) for c in state.get("conventions", [])])

    def convention(self, path: Sequence[str | int]) -> Convention | None:
        """Return the convention declared for ``path``, if any."""
        return next((c for c in self.conventions if c.matches(path)), None)

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

    def arrays(self) -> list[str]:
        """Return the pointer of every array the schema describes (``*`` for any index)."""
        out: list[str] = []
        self._arrays(self.root, "", out, 0)
        return list(dict.fromkeys(out))

    def _arrays(self, node: Any, path: str, out: list[str], depth: int) -> None:
        node = self._resolve(node)
        if depth > 12:
            return
        kind = node.get("type")
        if kind == "array" or (isinstance(kind, list) and "array" in kind) or "items" in node:
            out.append(path)
            self._arrays(node.get("items", {}), f"{path}/*", out, depth + 1)
        props = node.get("properties")
        for name, sub in (props.items() if isinstance(props, Mapping) else []):
            self._arrays(sub, f"{path}/{name}", out, depth + 1)
        for key in ("anyOf", "oneOf"):
            for sub in node.get(key, []) or []:
                self._arrays(sub, path, out, depth + 1)

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
    conv = sch.convention(path)
    if isinstance(got, list) and isinstance(want, list):
        same_items = _multiset(got) == _multiset(want)
        if same_items and conv is not None and conv.order == "unordered":
            return  # declared unordered: any order is the same state
        if same_items and len(got) > 1 and conv is not None and conv.order != "by-seat":
            out.append(_change(path, "changed", got, want, sch, conv, reordered=True))
            return
        if len(got) == len(want):
            for i, (x, y) in enumerate(zip(got, want, strict=True)):
                _walk(x, y, [*path, i], sch.child(node, i), sch, out)
            return
    out.append(_change(path, "changed", got, want, sch, conv))


def _multiset(items: list[Any]) -> list[str]:
    return sorted(json.dumps(x, sort_keys=True) for x in items)


def _change(path: list[str | int], kind: ChangeKind, got: Any, want: Any, sch: StateSchema,
            conv: Convention | None, *, reordered: bool = False) -> Change:
    clauses = sch.clauses(path)
    if conv is not None:
        clauses = tuple(dict.fromkeys([*conv.clauses, *clauses]))
    return Change(_pointer(path) or "/", kind, got, want, clauses,
                  conv.text if conv is not None else None, reordered)


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
