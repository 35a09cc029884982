"""A state as a change of the previous one: the ``delta`` of a trace step.

A trace that records the state after every step repeats most of each state: a card game's state
is a few kilobytes and a step changes a few fields of it. A step may instead carry a ``delta``:
a JSON Patch (RFC 6902) that turns the state after the previous step (the header's ``state``
before step 1) into the state after this one. Only three operations are written or read:

- ``{"op": "add", "path": P, "value": V}``: a new key of an object, or ``-`` (the end) of an
  array;
- ``{"op": "remove", "path": P}``: a key of an object, or an element of an array;
- ``{"op": "replace", "path": P, "value": V}``: the value at P (``""`` is the whole state).

Paths are JSON Pointers (RFC 6901: ``/`` between keys, ``~0`` for ``~``, ``~1`` for ``/``). Any
JSON Patch library applies a delta; :func:`apply_delta` is rulespec's, strict about every
operation. :func:`state_delta` writes the smallest delta of the simple kind: objects are
compared key by key, arrays of objects or arrays of equal length element by element, an array
that only grew at its end gets ``add`` at ``-``, anything else is replaced whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.reference.actions import strictly_equal

#: The operations a delta may use, each with the keys it must have.
OPERATIONS: dict[str, frozenset[str]] = {
    "add": frozenset({"op", "path", "value"}),
    "remove": frozenset({"op", "path"}),
    "replace": frozenset({"op", "path", "value"}),
}


class DeltaError(ValueError):
    """A delta that is malformed or does not fit the state it is applied to."""


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def state_delta(before: Any, after: Any) -> list[dict[str, Any]]:
    """Return the operations that turn ``before`` into ``after`` (none when they are equal)."""
    out: list[dict[str, Any]] = []
    _diff(before, after, "", out)
    return out


def _is_container(value: Any) -> bool:
    return isinstance(value, dict | list | tuple)


def _diff(a: Any, b: Any, path: str, out: list[dict[str, Any]]) -> None:
    if type(a) is dict and type(b) is dict:
        for key in a:
            if key not in b:
                out.append({"op": "remove", "path": f"{path}/{_escape(key)}"})
        for key, value in b.items():
            where = f"{path}/{_escape(key)}"
            if key not in a:
                out.append({"op": "add", "path": where, "value": value})
            else:
                _diff(a[key], value, where, out)
        return
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) == len(b) and any(map(_is_container, a)):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                _diff(x, y, f"{path}/{i}", out)
            return
        if len(a) < len(b) and strictly_equal(a, b[:len(a)]):
            out.extend({"op": "add", "path": f"{path}/-", "value": v} for v in b[len(a):])
            return
    if not strictly_equal(a, b):
        out.append({"op": "replace", "path": path, "value": b})


def check_delta(ops: Any) -> str | None:
    """Return what is wrong with the form of a delta (None when it is a list of operations)."""
    if not isinstance(ops, list):
        return "a delta must be a list of JSON Patch operations"
    for i, op in enumerate(ops):
        if not isinstance(op, dict) or op.get("op") not in OPERATIONS:
            return (f"operation {i} must be an object whose 'op' is add, remove or replace, not "
                    f"{op!r:.80}")
        wanted = OPERATIONS[op["op"]]
        if set(op) != wanted:
            return (f"operation {i} ({op['op']}) must have exactly the keys "
                    f"{', '.join(sorted(wanted))}, not {', '.join(sorted(op))}")
        path = op["path"]
        if not isinstance(path, str) or (path and not path.startswith("/")):
            return f"operation {i}: the path must be a JSON Pointer ('' or '/...'), not {path!r:.80}"
        if path == "" and op["op"] != "replace":
            return f"operation {i}: only replace may name the whole state (path '')"
    return None


def apply_delta(state: Any, ops: Sequence[Mapping[str, Any]]) -> Any:
    """Return ``state`` changed by ``ops``; ``state`` itself is left as it was.

    Only the objects and arrays on the changed paths are copied: the result shares everything
    else with ``state``, so treat both as read-only. DeltaError says which operation does not
    fit (a missing key, an index out of range).
    """
    fresh: set[int] = set()  # containers copied by this call, changed in place from now on
    root = state
    for i, op in enumerate(ops):
        kind, path = op["op"], str(op["path"])
        if path == "":
            root = op["value"]
            fresh.clear()
            continue
        tokens = path[1:].split("/")
        if "~" in path:
            tokens = [_unescape(t) for t in tokens]
        if id(root) not in fresh:
            root = _copy(root, i, path)
            fresh.add(id(root))
        parent = root
        for token in tokens[:-1]:
            child = _child(parent, token, i, path)
            if id(child) not in fresh:
                child = _copy(child, i, path)
                fresh.add(id(child))
                _set(parent, token, child, i, path)
            parent = child
        _change(parent, kind, tokens[-1], op.get("value"), i, path)
    return root


def _copy(value: Any, i: int, path: str) -> Any:
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list | tuple):
        return list(value)
    raise DeltaError(f"operation {i} ({path}): goes into {_kind(value)}, not an object or array")


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _index(items: list[Any], token: str, i: int, path: str, *, end: bool = False) -> int:
    if token.isdigit() and (token == "0" or not token.startswith("0")):
        index = int(token)
        if index < len(items) + (1 if end else 0):
            return index
        raise DeltaError(f"operation {i} ({path}): index {index} is past the end of an array "
                         f"of {len(items)}")
    raise DeltaError(f"operation {i} ({path}): {token!r} is not an array index")


def _child(parent: Any, token: str, i: int, path: str) -> Any:
    if isinstance(parent, dict):
        if token not in parent:
            raise DeltaError(f"operation {i} ({path}): no key {token!r} in the state")
        return parent[token]
    return parent[_index(parent, token, i, path)]


def _set(parent: Any, token: str, value: Any, i: int, path: str) -> None:
    if isinstance(parent, dict):
        parent[token] = value
    else:
        parent[_index(parent, token, i, path)] = value


def _change(parent: Any, kind: str, token: str, value: Any, i: int, path: str) -> None:
    if isinstance(parent, dict):
        if kind == "add":
            parent[token] = value
        elif token not in parent:
            raise DeltaError(f"operation {i} ({path}): no key {token!r} to {kind}")
        elif kind == "remove":
            del parent[token]
        else:
            parent[token] = value
        return
    if not isinstance(parent, list):
        raise DeltaError(f"operation {i} ({path}): goes into {_kind(parent)}, not an object or "
                         "array")
    if kind == "add":
        parent.insert(len(parent) if token == "-" else _index(parent, token, i, path, end=True),
                      value)
    elif kind == "remove":
        del parent[_index(parent, token, i, path)]
    else:
        parent[_index(parent, token, i, path)] = value
