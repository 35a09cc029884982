"""What identifies a state: its canonical JSON, less the fields a view forgets, fingerprinted.

By default two states are the same when their canonical states are equal, as TLC identifies
states by all their variables. A *view* (TLC's ``VIEW``) forgets named fields (``turns``,
``history``, ``last_round.max_passes``): states that differ only there are merged, which turns
an endless record of the past into a finite graph. Merging is only sound when the forgotten
fields never change what can happen next, so the explorer checks every merge one step ahead
(``rulespec.verify.explore``), and an invariant that reads a forgotten field is not proven by a
merged graph (``reads`` says which fields an invariant's expression reads).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from hashlib import blake2b
from typing import Any

from rulespec.spec.celparse import Unsupported, parse


class ViewError(ValueError):
    """A field to forget that the state does not have."""


def split_path(path: str) -> tuple[str, ...]:
    """Return the keys of a dotted field path (``last_round.max_passes``)."""
    parts = tuple(p for p in path.split("."))
    if not path or any(not p for p in parts):
        raise ViewError(f"field path {path!r} is malformed; write top-level or dotted names, "
                        "for example turns or last_round.max_passes")
    return parts


class View:
    """The state fields to forget; the identity view forgets none."""

    def __init__(self, forget: Iterable[str] = ()) -> None:
        self.forget: tuple[str, ...] = tuple(dict.fromkeys(forget))
        self._paths = [split_path(p) for p in self.forget]

    def __bool__(self) -> bool:
        return bool(self.forget)

    def check(self, state: Mapping[str, Any]) -> None:
        """Refuse a path whose top-level field the canonical state does not have."""
        for path, parts in zip(self.forget, self._paths, strict=True):
            if parts[0] not in state:
                raise ViewError(f"--forget {path}: the canonical state has no field "
                                f"{parts[0]!r}; its fields are {', '.join(state)}")

    def apply(self, state: Mapping[str, Any]) -> Any:
        """Return ``state`` without the forgotten fields (a copy where it changes; the engine's
        own objects are never changed)."""
        out: Any = state
        for parts in self._paths:
            out = _without(out, parts)
        return out


def _without(value: Any, parts: Sequence[str]) -> Any:
    if not isinstance(value, dict) or parts[0] not in value:
        return value
    copy = dict(value)
    if len(parts) == 1:
        del copy[parts[0]]
    else:
        copy[parts[0]] = _without(copy[parts[0]], parts[1:])
    return copy


def key_bytes(state: Any) -> bytes:
    """Return the canonical encoding of a (viewed) state: JSON, sorted keys, no spaces."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"),
                      ensure_ascii=False).encode("utf-8")


def fingerprint(data: bytes) -> int:
    """Return a 64-bit fingerprint of ``data`` (BLAKE2b: the same in every process)."""
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "little")


def collision_probability(states: int) -> float:
    """Return the chance that two of ``states`` distinct states share a 64-bit fingerprint.

    TLC's "calculated (optimistic)" estimate: n (n - 1) / 2 pairs, each 2**-64.
    """
    return states * (states - 1) / 2 / 2.0**64


#: An invariant reads everything (the whole state passed on, or an expression not parsed).
EVERYTHING: frozenset[str] = frozenset({"*"})


def reads(expression: str, roots: Iterable[str] = ("state", "prev")) -> frozenset[str]:
    """Return the dotted state fields ``expression`` reads through ``roots`` (``EVERYTHING``
    when it uses a whole state, or when it cannot be parsed); ``X?`` when it only asks whether
    X is null (``X == null``, ``X != null``, ``has(X)``)."""
    try:
        tree = parse(expression)
    except Unsupported:
        return EVERYTHING
    found: set[str] = set()
    _collect(tree, frozenset(roots), found)
    return frozenset(found)


def _chain(node: Any, roots: frozenset[str]) -> list[str] | None:
    """Return the field names of a chain of member reads from a root variable, else None."""
    names: list[str] = []
    while True:
        kind = node[0]
        if kind == "get":
            names.append(node[2])
            node = node[1]
        elif kind == "index" and node[2][0] == "lit" and isinstance(node[2][1], str):
            names.append(node[2][1])
            node = node[1]
        elif kind == "var" and node[1] in roots:
            names.reverse()
            return names
        else:
            return None


def _presence(node: Any, roots: frozenset[str]) -> list[str] | None:
    """Return the field chain of ``X == null``, ``X != null`` or ``has(X)``: a read of whether
    X is there, not of what it holds."""
    if node[0] in ("==", "!=") and len(node) == 3:
        a, b = node[1], node[2]
        other = b if a == ("lit", None) else a if b == ("lit", None) else None
        if other is not None and isinstance(other, tuple) and other[0] in ("get", "index"):
            return _chain(other, roots)
    if node[0] == "call" and node[1] == "has" and node[2] is None and len(node[3]) == 1:
        return _chain(node[3][0], roots)
    return None


def _collect(node: Any, roots: frozenset[str], found: set[str]) -> None:
    if not isinstance(node, tuple) or not node:
        return
    present = _presence(node, roots)
    if present:
        found.add(".".join(present) + "?")
        return
    if node[0] in ("get", "index", "var"):
        chain = _chain(node, roots)
        if chain is not None:
            found.add(".".join(chain) if chain else "*")
            return
    for child in node[1:]:
        if isinstance(child, tuple):
            _collect(child, roots, found)
        elif isinstance(child, list):
            for item in child:
                if isinstance(item, tuple) and item and isinstance(item[0], tuple):
                    for part in item:  # a map literal's (key, value) pairs
                        _collect(part, roots, found)
                else:
                    _collect(item, roots, found)


def overlaps(read: frozenset[str], forget: Iterable[str]) -> bool:
    """Return True when a field read and a forgotten field overlap (one contains the other).

    A read of whether a field is there (``X?``, from ``X == null`` or ``has(X)``) overlaps only
    when X itself or a field containing it is forgotten: forgetting a part of X leaves it there.
    """
    if "*" in read:
        return True
    for f in forget:
        for r in read:
            if r.endswith("?"):
                base = r[:-1]
                if base == f or base.startswith(f + "."):
                    return True
            elif r == f or r.startswith(f + ".") or f.startswith(r + "."):
                return True
    return False
