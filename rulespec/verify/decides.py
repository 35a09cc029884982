"""Whether a view's key decides an invariant: the same truth in every state that shares the key.

A view merges states that differ only where it looks away (``rulespec.verify.keys``): a field
forgotten, a list of which only the last item is kept (``last(F)``), counters kept only relative
to each other (``relative(F)``: a list less its least item, a number not at all), a counter
kept up to a ceiling (``cap(F, K)``: min(F, K)). An invariant is *proven* by the merged graph
only when its value cannot differ between two states with the same key; this module decides
that from the expression's syntax, soundly: an expression it cannot classify is undecided.

The classification is a small abstract interpretation over the parsed expression
(``rulespec.spec.celparse``). Each subexpression is one of:

- ``KEYED``: equal in all states with the key;
- ``("shifted", F)``: a number that is the representative's plus the same unknown c for every
  read of ``relative(F)`` in one state or one transition (``state.F`` and ``prev.F`` shift
  together: a merged state's successors are the representative's, shifted);
  ``("shifted-list", F)``: the list ``F`` itself, every item shifted by c;
- ``("last", F)``, ``("last-size", F)``, ``("last-index", F)``: the list ``F`` whose last item
  is kept, its size (known only to be zero or not), and ``size(F) - 1``;
- ``("capped", F, K)``: a number known exactly below K and only as "K or more" above, or a
  list of numbers of known length whose every item is so (an operation of the other type fails
  alike in every state with the key, so one kind serves both);
- ``UNKEYED``: anything else.

A kept expression (``keep(EXPR)``: its value is in the key) is keyed wherever it occurs, over
``state`` or, in a transition, over ``prev`` (the previous state's key keeps it); and when it is
``X - state.F`` with ``relative(F)`` a number, X is ``("shifted", F)``: it moves with F. A kept
expression that reads ``prev`` or ``action`` is kept over a transition: its value labels the
move, and the explorer checks that a merged state's moves carry its representative's labels, so
it is keyed where it occurs, as written, in a transition invariant.

``shifted - shifted`` of the same field is keyed, as are comparisons between two shifted
values of one field, ``size`` of a shifted list, ``F[size(F) - 1]`` of a ``last`` list, a
``last`` size compared with 0 (or ``>= 1``, ``< 1``), a capped number compared with a
constant below its ceiling, and the size of a capped list (its items, its greatest and least,
are capped numbers).
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

from rulespec.spec.celparse import Unsupported, parse

KEYED: tuple[str, ...] = ("keyed",)
UNKEYED: tuple[str, ...] = ("unkeyed",)
Kind = tuple[Any, ...]

ROOTS = frozenset({"state", "prev"})
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")
_MACROS = ("all", "exists", "exists_one", "map", "filter")


class Abstraction:
    """How a view treats fields: forgotten, last item kept, relative, capped."""

    def __init__(self, forget: tuple[str, ...] = (), last: tuple[str, ...] = (),
                 relative: tuple[str, ...] = (), cap: Mapping[str, int] | None = None,
                 numbers: frozenset[str] = frozenset(), keep: tuple[str, ...] = ()) -> None:
        self.forget = forget
        self.last = last
        self.relative = relative
        self.cap: dict[str, int] = dict(cap or {})
        #: The relative fields that hold a number (the others hold lists of numbers).
        self.numbers = numbers
        #: The kept expressions (``keep(EXPR)``), as written.
        self.keep = keep
        #: Parsed kept expressions over each root, with what a match is: keyed, or shifted.
        self.matches: list[tuple[Any, Kind]] = []
        for source in keep:
            try:
                tree = parse(source)
            except Unsupported:
                continue
            if reads_a_transition(tree):
                self.matches.append((tree, KEYED))  # a move's label: as written, not re-rooted
                continue
            shifts = difference_of(tree)
            for root in sorted(ROOTS):
                rooted = _reroot(tree, root)
                self.matches.append((rooted, KEYED))
                if shifts is not None and shifts in relative and shifts in numbers:
                    # X - F kept (an integer in every state: the view refuses one that is not).
                    self.matches.append((rooted[1], ("shifted", shifts)))

    def fields(self) -> list[tuple[str, str]]:
        """Return (field, treatment) for every field the view does not keep whole."""
        return ([(f, "forget") for f in self.forget] + [(f, "last") for f in self.last]
                + [(f, "relative") for f in self.relative] + [(f, "cap") for f in self.cap])


def decides(expression: str, view: Abstraction) -> bool:
    """Return True when ``expression`` has the same value in every state (or transition) whose
    states share their keys under ``view``."""
    if not view.fields() and not view.keep:
        return True
    try:
        tree = parse(expression)
    except Unsupported:
        return False
    return _kind(tree, view, {}) == KEYED


def _path(node: Any) -> str | None:
    """Return the dotted field path of a chain of member reads from ``state`` or ``prev``."""
    names: list[str] = []
    while True:
        kind = node[0]
        if kind == "get":
            names.append(node[2])
            node = node[1]
        elif kind == "index" and node[2][0] == "lit" and isinstance(node[2][1], str):
            names.append(node[2][1])
            node = node[1]
        elif kind == "var" and node[1] in ROOTS:
            return ".".join(reversed(names))
        else:
            return None


def difference_of(tree: Any) -> str | None:
    """Return the dotted path F of an expression ``X - state.F``, or None."""
    if not (isinstance(tree, tuple) and tree[0] == "-" and len(tree) == 3):
        return None
    return _path(tree[2]) or None


def reads_a_transition(tree: Any) -> bool:
    """Whether a parsed expression reads ``prev`` or ``action`` (then it is kept over a move)."""
    return _reads_a_variable(tree, ("prev", "action"))


def _reads_a_variable(node: Any, names: Container[str]) -> bool:
    """Whether a parsed tree reads a variable of one of these names."""
    if isinstance(node, tuple) and len(node) == 2 and node[0] == "var":
        return node[1] in names
    return any(_reads_a_variable(x, names) for x in subtrees(node))


def subtrees(node: Any) -> Sequence[Any]:
    """Return the parts of a parsed tree's node (a tuple's or a list's items; a leaf has none)."""
    return node if isinstance(node, tuple | list) else ()


def _same(a: Any, b: Any) -> bool:
    """Whether two parsed trees are the same expression: literals equal in type as well as
    value (``1``, ``1.0`` and ``true`` are three expressions)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) == 2 and a[0] == "lit" and b[0] == "lit":
            return type(a[1]) is type(b[1]) and repr(a[1]) == repr(b[1])
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _reroot(node: Any, root: str) -> Any:
    """Return ``node`` with every read of ``state`` made a read of ``root``."""
    if isinstance(node, tuple):
        if node == ("var", "state"):
            return ("var", root)
        return tuple(_reroot(x, root) for x in node)
    if isinstance(node, list):
        return [_reroot(x, root) for x in node]
    return node


def _within(path: str, field: str) -> bool:
    return path == field or path.startswith(field + ".")


def _classify(path: str, view: Abstraction) -> Kind:
    """The kind of a read of the whole field ``path``."""
    for field, treatment in view.fields():
        if field == path:
            if treatment == "last":
                return ("last", field)
            if treatment == "relative":
                return ("shifted", field) if field in view.numbers else ("shifted-list", field)
            if treatment == "cap":
                return ("capped", field, view.cap[field])
            return UNKEYED
        if _within(path, field) or not path or field.startswith(path + "."):
            return UNKEYED  # a part of an abstracted field, or a container of one
    return KEYED


def _presence(node: Any) -> str | None:
    """The path of ``X == null``, ``X != null`` or ``has(X)``: a read of whether X is there."""
    if node[0] in ("==", "!=") and len(node) == 3:
        a, b = node[1], node[2]
        other = b if a == ("lit", None) else a if b == ("lit", None) else None
        if isinstance(other, tuple) and other[0] in ("get", "index"):
            return _path(other)
    if node[0] == "call" and node[1] == "has" and node[2] is None and len(node[3]) == 1:
        return _path(node[3][0])
    return None


def _kind(node: Any, view: Abstraction, env: dict[str, Kind]) -> Kind:
    for kept, kind in view.matches:
        if _same(node, kept) and not _bound(node, env):
            return kind
    op = node[0]
    present = _presence(node)
    if present is not None:
        # Whether X is there: only forgetting X (or what holds it) hides that.
        hidden = any(_within(present, f) for f in view.forget)
        inside = any(present.startswith(f + ".") for f, _ in view.fields())
        return UNKEYED if hidden or inside else KEYED
    if op == "lit":
        return KEYED
    if op == "var":
        if node[1] in env:
            return env[node[1]]
        return UNKEYED if node[1] in ROOTS else KEYED
    if op in ("get", "index"):
        path = _path(node)
        if path is not None:
            return _classify(path, view)
        return _member(node, view, env)
    if op in ("list", "map"):
        items = node[1] if op == "list" else [x for pair in node[1] for x in pair]
        return KEYED if all(_kind(x, view, env) == KEYED for x in items) else UNKEYED
    if op == "cond":
        if _kind(node[1], view, env) != KEYED:
            return UNKEYED
        a, b = _kind(node[2], view, env), _kind(node[3], view, env)
        return a if a == b and a[0] in ("keyed", "shifted", "shifted-list") else UNKEYED
    if op in ("!", "neg"):
        return KEYED if _kind(node[1], view, env) == KEYED else UNKEYED
    if op == "call":
        return _call(node, view, env)
    return _binary(op, _kind(node[1], view, env), _kind(node[2], view, env), node)


def _bound(node: Any, env: dict[str, Kind]) -> bool:
    """Whether ``node`` reads a macro's variable (then it is not the kept expression's value)."""
    return _reads_a_variable(node, env)


def _member(node: Any, view: Abstraction, env: dict[str, Kind]) -> Kind:
    target = _kind(node[1], view, env)
    if node[0] == "get":
        return KEYED if target == KEYED else UNKEYED
    key = _kind(node[2], view, env)
    if target[0] == "last" and key == ("last-index", target[1]):
        return KEYED  # F[size(F) - 1]: the last item, kept whole
    if key != KEYED:
        return UNKEYED
    if target == KEYED:
        return KEYED
    if target[0] == "shifted-list":
        return ("shifted", target[1])
    if target[0] == "capped":
        return target  # an item of a capped list
    return UNKEYED


def _call(node: Any, view: Abstraction, env: dict[str, Kind]) -> Kind:
    _, name, target, args = node
    if name in _MACROS and target is not None and args and args[0][0] == "var":
        return _macro(name, _kind(target, view, env), args, view, env)
    operands = ([target] if target is not None else []) + list(args)
    kinds = [_kind(a, view, env) for a in operands]
    if all(k == KEYED for k in kinds):
        return KEYED
    if len(kinds) != 1:
        return UNKEYED
    only = kinds[0]
    if name == "size":
        if only[0] in ("shifted-list", "capped"):
            return KEYED
        if only[0] == "last":
            return ("last-size", only[1])
    if name in ("max_of", "min_of") and only[0] == "shifted-list":
        return ("shifted", only[1])
    if name in ("max_of", "min_of") and only[0] == "capped":
        return only  # min(x, K) is monotone: the greatest of capped items is the capped greatest
    return UNKEYED


def _macro(name: str, target: Kind, args: list[Any], view: Abstraction,
           env: dict[str, Kind]) -> Kind:
    if target == KEYED:
        item: Kind = KEYED
    elif target[0] == "shifted-list":
        item = ("shifted", target[1])
    elif target[0] == "capped":
        item = target
    else:
        return UNKEYED
    inner = {**env, args[0][1]: item}
    bodies = [_kind(a, view, inner) for a in args[1:]]
    if name == "map":
        *conditions, last = bodies
        if any(c != KEYED for c in conditions):
            return UNKEYED
        if last == KEYED:
            return KEYED
        return ("shifted-list", last[1]) if last[0] == "shifted" else UNKEYED
    if any(b != KEYED for b in bodies):
        return UNKEYED
    return target if name == "filter" else KEYED


def _binary(op: str, a: Kind, b: Kind, node: Any) -> Kind:
    if a == KEYED and b == KEYED:
        return KEYED
    if op == "-":
        if a[0] == "shifted" and b == a:
            return KEYED
        if a[0] == "shifted" and b == KEYED:
            return a
        if a[0] == "last-size" and node[2] == ("lit", 1):
            return ("last-index", a[1])
        return UNKEYED
    if op == "+":
        if a[0] == "shifted" and b == KEYED:
            return a
        if b[0] == "shifted" and a == KEYED:
            return b
        return UNKEYED
    if op in _COMPARE:
        if a == b and a[0] in ("shifted", "shifted-list") and (a[0] == "shifted"
                                                              or op in ("==", "!=")):
            return KEYED
        if b[0] in ("last-size", "capped") and a == KEYED:
            return _against(_MIRROR[op], b, node[1])
        if a[0] in ("last-size", "capped") and b == KEYED:
            return _against(op, a, node[2])
    return UNKEYED


_MIRROR = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _against(op: str, kind: Kind, other: Any) -> Kind:
    """A last size or a capped number compared with a constant ``other``."""
    if other[0] != "lit" or type(other[1]) is not int:
        return UNKEYED
    n = other[1]
    if kind[0] == "last-size":
        # Only "empty or not" is kept: size OP n is decided when it splits 0 from 1, 2, ...
        decided = n == 0 or (n == 1 and op in (">=", "<"))
        return KEYED if decided else UNKEYED
    ceiling = kind[2]
    # min(x, K) tells x exactly below K: x OP n is decided when n and n's neighbours are below K.
    limit = {"==": n < ceiling, "!=": n < ceiling, ">": n < ceiling, "<=": n < ceiling,
             "<": n <= ceiling, ">=": n <= ceiling}[op]
    return KEYED if limit else UNKEYED
