"""What identifies a state: its canonical JSON, less the fields a view forgets, fingerprinted.

By default two states are the same when their canonical states are equal, as TLC identifies
states by all their variables. A *view* (TLC's ``VIEW``) forgets named fields (``turns``,
``history``, ``last_round.max_passes``): states that differ only there are merged, which turns
an endless record of the past into a finite graph. Merging is only sound when the forgotten
fields never change what can happen next, so the explorer checks every merge one step ahead
(``rulespec.verify.explore``), and an invariant whose value the key does not decide is not proven
by a merged graph (``rulespec.verify.decides`` says which).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from hashlib import blake2b
from typing import Any

from rulespec.spec.celparse import MACROS, Unsupported, parse
from rulespec.spec.expressions import Expression, ExpressionError, compile_expression, make_context
from rulespec.verify.decides import Abstraction, difference_of, reads_a_transition, subtrees

#: What a kept expression's value is in the key when it cannot be evaluated in a state (the
#: last entry of a list still empty): an empty list, where a value is kept as a list of one, so
#: no value can be taken for it.
UNDEFINED: list[Any] = []
#: The variables a kept expression may read: one state, and the configuration.
KEEP_VARIABLES = frozenset({"state", "params", "config"})
#: The variables a kept expression over a transition may read: as a transition invariant does.
EDGE_VARIABLES = frozenset({"state", "prev", "action", "params", "config"})


class ViewError(ValueError):
    """A field to forget that the state does not have."""


def split_path(path: str) -> tuple[str, ...]:
    """Return the keys of a dotted field path (``last_round.max_passes``)."""
    parts = tuple(p for p in path.split("."))
    if not path or any(not p for p in parts):
        raise ViewError(f"field path {path!r} is malformed; write top-level or dotted names, "
                        "for example turns or last_round.max_passes")
    return parts


_TERM = re.compile(r"^(?:(last|relative)\(\s*([^(),\s]+)\s*\)"
                   r"|cap\(\s*([^(),\s]+)\s*,\s*(\d+|params\.[A-Za-z_][A-Za-z0-9_]*)\s*\)"
                   r"|([^(),\s]+))$")


def _keep_term(term: str) -> str | None:
    """Return the expression of a ``keep(EXPR)`` term (None: not one)."""
    if term.startswith("keep(") and term.endswith(")"):
        return term[len("keep("):-1].strip()
    return None


def _rebuild_view(terms: tuple[str, ...], bound: Mapping[str, Any], numbers: frozenset[str],
                  ready: bool) -> View:
    view = View(terms)
    if ready and view.ceilings:
        view.bind(bound["params"], bound["config"])
    else:
        view._bound = {"params": dict(bound["params"]), "config": dict(bound["config"])}
    view._numbers = numbers
    return view


class View:
    """How a state's identity is taken from its canonical state; the identity view keeps all.

    A view is a list of terms: ``FIELD`` forgets the field; ``last(FIELD)`` keeps only the last
    item of a list; ``relative(FIELD)`` keeps a list of numbers less its least item (a number,
    not at all), so counters that grow together are merged; ``cap(FIELD, K)`` keeps a number up
    to K (``min(FIELD, K)``; a list of numbers item by item; K a whole number, or a parameter
    ``params.NAME`` of the configuration, read when the view is bound); ``keep(EXPR)`` adds the
    value of a CEL expression over ``state`` (``params``, ``config``) to the key, so a summary
    of a forgotten record (a fold over it, its last entry's winner, its length less a counter's) is
    kept while the record is not. A kept expression that reads ``prev`` or ``action`` is kept
    over a transition instead: its value labels each move (``View.edge``), and two merged
    states' moves must carry the same labels. ``rulespec.verify.decides`` says which invariants
    such a key still decides.
    """

    def __init__(self, terms: Iterable[str] = ()) -> None:
        self.terms: tuple[str, ...] = tuple(dict.fromkeys(t.strip() for t in terms))
        forget: list[str] = []
        last: list[str] = []
        relative: list[str] = []
        cap: dict[str, int | str] = {}
        capped: list[str] = []
        keep: list[str] = []
        trees: list[Any] = []
        edges: list[str] = []
        for term in self.terms:
            kept = _keep_term(term)
            if kept is not None:
                tree = _checked_keep(kept)
                if reads_a_transition(tree):
                    edges.append(kept)
                else:
                    trees.append(tree)
                keep.append(kept)
                continue
            m = _TERM.match(term)
            if m is None:
                raise ViewError(f"view term {term!r} is malformed; write FIELD, last(FIELD), "
                                "relative(FIELD), cap(FIELD, K) or keep(EXPR), for example "
                                "turns or last(last_round.max_passes)")
            kind, inner, field, ceiling, plain = m.groups()
            if plain is not None:
                split_path(plain)
                forget.append(plain)
            elif kind == "last":
                split_path(inner)
                last.append(inner)
            elif kind == "relative":
                split_path(inner)
                relative.append(inner)
            else:
                split_path(field)
                capped.append(field)
                cap[field] = int(ceiling) if ceiling.isdigit() else ceiling
        _one_term_each(forget, last, relative, capped)
        #: The fields forgotten outright.
        self.forget: tuple[str, ...] = tuple(forget)
        self.last = tuple(last)
        self.relative = tuple(relative)
        #: The ceilings of ``cap(F, K)`` as written: a whole number, or ``params.NAME``.
        self.ceilings: dict[str, int | str] = cap
        #: The ceilings as numbers (a parameter's once the view is bound).
        self.cap: dict[str, int] = {f: k for f, k in cap.items() if isinstance(k, int)}
        #: The kept expressions' sources, as written (those over a state and over a transition).
        self.keep: tuple[str, ...] = tuple(keep)
        #: The kept expressions over a transition, in the order their values label a move.
        self.edges: tuple[str, ...] = tuple(edges)
        self._kept: list[Expression] = [compile_expression(e, KEEP_VARIABLES)
                                        for e in keep if e not in edges]
        self._edges: list[Expression] = [compile_expression(e, EDGE_VARIABLES) for e in edges]
        #: The kept expressions of the form ``X - state.F`` (by index): with ``relative(F)``,
        #: ``rulespec.verify.decides`` reads X as moving with F, so they must give an integer.
        self._differences = frozenset(i for i, tree in enumerate(trees)
                                      if difference_of(tree) in relative)
        self._bound: dict[str, Any] = {"params": {}, "config": {}}
        #: The top-level fields of the state the kept expressions read (None: the whole state).
        self._reads: tuple[str, ...] | None = _reads(trees)
        self._cache: dict[str, list[Any]] = {}
        self._numbers: frozenset[str] = frozenset()
        self._ops: list[tuple[tuple[str, ...], str, int]] = []
        self._ready = True
        self._make_ops()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the terms and what was bound and checked (the kept expressions are
        compiled again on loading; ``rulespec verify -j`` hands searches back from workers)."""
        return (_rebuild_view, (self.terms, self._bound, self._numbers,
                                not self.ceilings or self._ready))

    def _missing(self) -> list[str]:
        return [f"cap({f}, {k})" for f, k in self.ceilings.items() if f not in self.cap]

    def _make_ops(self) -> None:
        #: Whether every ceiling is a number (a parameter's read by ``bind``).
        self._ready = not self._missing()
        self._ops = ([(split_path(f), "forget", 0) for f in self.forget]
                     + [(split_path(f), "last", 0) for f in self.last]
                     + [(split_path(f), "relative", 0) for f in self.relative]
                     + [(split_path(f), "cap", k) for f, k in self.cap.items()])
        #: Whether every term is on a top-level field (``key`` then keys by shape).
        self._flat = all(len(parts) == 1 for parts, _, _ in self._ops)
        self._plans: dict[tuple[str, ...], tuple[bytes, tuple[str, ...],
                                                 tuple[tuple[int, str, int], ...]]] = {}

    def _unbound(self) -> None:
        if not self._ready:
            raise ViewError(f"{', '.join(self._missing())}: the ceiling is a parameter, read "
                            "from the configuration; bind the view to one first (View.bind)")

    def __bool__(self) -> bool:
        return bool(self.terms)

    @property
    def terms_made(self) -> object:
        """Return a token of the terms as now made: another object once ``bind`` makes them
        anew (with other ceilings), so what is worked out from them can be remembered."""
        return self._ops

    def held(self, name: str) -> tuple[str, int] | None:
        """Return how the key holds the top-level field ``name``: ``("", 0)`` as it is, or the
        term that abstracts it whole (``("cap", 5)``); None when the key forgets it or a term
        reaches inside it (then the key holds only part of it)."""
        self._unbound()
        held: tuple[str, int] = ("", 0)
        for parts, kind, ceiling in self._ops:
            if parts[0] != name:
                continue
            if kind == "forget" or len(parts) > 1:
                return None
            held = (kind, ceiling)
        return held

    def reached(self) -> frozenset[str]:
        """Return the top-level fields a term forgets or abstracts (``last``, ``relative``,
        ``cap``; a dotted path's first name): two states with equal keys hold the same value in
        every other field (``keep`` terms only add to the key)."""
        return frozenset(parts[0] for parts, _, _ in self._ops)

    def describe(self) -> str:
        """Return the view's terms as a phrase (``turns forgotten, last(opening)``)."""
        return ", ".join(self.terms)

    def abstraction(self) -> Abstraction:
        """Return what ``rulespec.verify.decides`` needs to know of this view."""
        self._unbound()
        return Abstraction(self.forget, self.last, self.relative, self.cap, self._numbers,
                           self.keep)

    def bind(self, params: Mapping[str, Any], config: Mapping[str, Any]) -> None:
        """Give the kept expressions the configuration they read (``params``, ``config``),
        and read the ceilings written as ``params.NAME`` (a whole number each)."""
        ceilings = {f: k for f, k in self.ceilings.items() if isinstance(k, int)}
        for path, ceiling in self.ceilings.items():
            if isinstance(ceiling, str):
                name = ceiling.removeprefix("params.")
                if name not in params:
                    raise ViewError(f"cap({path}, {ceiling}): the configuration has no "
                                    f"parameter {name!r}; its parameters are "
                                    f"{', '.join(sorted(params)) or 'none'}")
                value = params[name]
                if type(value) is not int or value < 0:
                    raise ViewError(f"cap({path}, {ceiling}): the configuration's {name} is "
                                    f"{json.dumps(value)[:60]}, not a whole number; the "
                                    "ceiling must be one")
                ceilings[path] = value
        # Nothing changes until every ceiling is read: a refused configuration leaves the view
        # as it was.
        self.cap = ceilings
        self._make_ops()
        self._bound = {"params": dict(params), "config": dict(config)}
        self._cache.clear()  # values remembered under another configuration

    def kept(self, state: Mapping[str, Any]) -> list[Any]:
        """Return the kept expressions' values in ``state`` (``UNDEFINED`` where one cannot be
        evaluated, as the last entry of a list still empty)."""
        # The values depend only on the fields read, which change seldom (a record of the past
        # grows at the end of a round): remembered by those fields, a bounded number of them.
        # In the order the fields hold their keys: CEL's map() and filter() over a map follow
        # it, so two maps equal as JSON may give different values (found by an audit).
        read = self._reads
        seen = ORDERED_JSON(state if read is None else [[f in state, state.get(f)] for f in read])
        cached = self._cache.get(seen)
        if cached is not None:
            return cached
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.clear()
        context = make_context({"state": state, **self._bound})
        values: list[Any] = []
        for index, expression in enumerate(self._kept):
            try:
                value = expression.evaluate_in(context)
            except ExpressionError as exc:
                if index in self._differences:
                    raise ViewError(f"keep({expression.source}): a difference with a relative "
                                    f"counter must give an integer in every state; here it "
                                    f"failed ({exc})") from None
                values.append(UNDEFINED)
                continue
            if index in self._differences and (type(value) is not int):
                raise ViewError(f"keep({expression.source}): a difference with a relative "
                                f"counter must give an integer in every state; here it gave "
                                f"{value!r}")
            values.append([value])
        self._cache[seen] = values
        return values

    def edge(self, prev: Mapping[str, Any], action: Any, state: Mapping[str, Any]) -> list[Any]:
        """Return the values of the kept expressions over a transition (``UNDEFINED`` where one
        cannot be evaluated): the label of the move from ``prev`` to ``state``."""
        if not self._edges:
            return []
        context = make_context({"state": state, "prev": prev, "action": action, **self._bound})
        values: list[Any] = []
        for expression in self._edges:
            try:
                values.append([expression.evaluate_in(context)])
            except ExpressionError:
                values.append(UNDEFINED)
        return values

    def result(self, result: Any) -> Any:
        """Return a terminal result as the view keeps it: the terms on fields inside
        ``result`` (``cap(result.scores, K)``) applied, so merged terminal states must agree on
        what the key keeps of their results (the result whole when no term reaches inside)."""
        self._unbound()
        out: Any = {"result": result}
        for parts, kind, ceiling in self._ops:
            if parts[0] == "result" and len(parts) > 1:
                out = _change(out, parts, kind, ceiling)
        return out["result"]

    def check(self, state: Mapping[str, Any]) -> None:
        """Refuse a path whose top-level field the canonical state does not have, and an
        abstraction of a field that does not hold what it needs (a list for last, numbers for
        relative, a number or a list of numbers for cap)."""
        self._unbound()
        numbers: set[str] = set()
        for parts, kind, _ in self._ops:
            path = ".".join(parts)
            if parts[0] not in state:
                raise ViewError(f"view term on {path}: the canonical state has no field "
                                f"{parts[0]!r}; its fields are {', '.join(state)}")
            value = _lookup(state, parts)
            if value is None:
                continue  # not there yet (null at the start): checked when applied
            if kind == "last" and not isinstance(value, list):
                raise ViewError(f"last({path}): {path} holds {type(value).__name__}, not a list")
            if kind == "relative":
                if _is_number(value):
                    numbers.add(path)
                elif not _numbers(value):
                    raise ViewError(f"relative({path}): {path} holds neither a number nor a "
                                    "list of numbers")
            if kind == "cap" and not (_is_number(value) or _numbers(value)):
                raise ViewError(f"cap({path}, K): {path} holds {type(value).__name__}, not a "
                                "number or a list of numbers")
        self._numbers = frozenset(numbers)

    def key(self, state: Mapping[str, Any]) -> bytes:
        """Return the bytes that identify ``state`` under the view: equal for two states exactly
        when their viewed copies (``apply`` without ``@keep``) and their kept values are
        (``key_bytes([viewed, kept])``; not the same bytes).

        A state whose terms are all on top-level fields is keyed without building its viewed
        copy: by its *shape* (its fields in their order, met before), the sorted names of the
        fields kept, as JSON, then the kept values in that order, each abstracted, as one JSON
        list (with the kept expressions' values last). The names' JSON ends where the values'
        begins, so equal bytes mean equal names and equal values.
        """
        if type(state) is not dict or not self._flat:
            if not self.terms:
                return key_bytes(state)
            viewed = self.viewed(state)
            # The kept values beside the viewed copy, not in it: a field of the state named
            # like them is kept apart (found by an audit).
            return key_bytes([viewed, self.kept(state)] if self._kept else viewed)
        shape = tuple(state)
        plan = self._plans.get(shape)
        if plan is None:
            plan = self._plan(shape)
        prefix, names, abstracted = plan
        values = [state[n] for n in names]
        for position, kind, ceiling in abstracted:
            values[position] = _abstract(values[position], kind, ceiling)
        if self._kept:
            values.append(self.kept(state))
        return prefix + _VALUES_JSON(values).encode("utf-8")

    def _plan(self, shape: tuple[str, ...]) -> tuple[bytes, tuple[str, ...],
                                                     tuple[tuple[int, str, int], ...]]:
        if not self._ready:
            self._unbound()
        ops = {parts[0]: (kind, ceiling) for parts, kind, ceiling in self._ops}
        names = tuple(sorted(n for n in shape if ops.get(n, ("", 0))[0] != "forget"))
        abstracted = tuple((i, *ops[n]) for i, n in enumerate(names) if n in ops)
        prefix = key_bytes([list(names), bool(self._kept)])
        if len(self._plans) >= 256:
            self._plans.clear()
        plan = self._plans[shape] = (prefix, names, abstracted)
        return plan

    def apply(self, state: Mapping[str, Any]) -> Any:
        """Return ``state`` as the view keys it (a copy where it changes; the engine's own
        objects are never changed), the kept expressions' values under ``@keep``: for reading.
        ``key`` keeps those values apart from the state's own fields."""
        out = self.viewed(state)
        if self._kept:
            out = {**out, "@keep": self.kept(state)}
        return out

    def viewed(self, state: Mapping[str, Any]) -> Any:
        """Return ``state`` with the view's terms applied (the kept expressions aside)."""
        if not self._ready:
            self._unbound()
        out: Any = state
        ops = self._ops
        if ops and type(state) is dict:
            # One copy of the top level; a nested field's dicts are copied on the way down.
            out = dict(state)
            for parts, kind, ceiling in ops:
                if len(parts) == 1:
                    name = parts[0]
                    if name in out:
                        if kind == "forget":
                            del out[name]
                        else:
                            out[name] = _abstract(out[name], kind, ceiling)
                elif parts[0] in out:
                    out[parts[0]] = _change(out[parts[0]], parts[1:], kind, ceiling)
        else:
            for parts, kind, ceiling in ops:
                out = _change(out, parts, kind, ceiling)
        return out


#: How many field combinations ``View.kept`` remembers before it starts again.
_CACHE_SIZE = 65_536


def _one_term_each(forget: Sequence[str], last: Sequence[str], relative: Sequence[str],
                   capped: Sequence[str]) -> None:
    """Refuse two terms on one field (``last(F)`` and ``cap(F, K)``): the key would apply both,
    and ``rulespec.verify.decides`` reads a field through one term."""
    seen: dict[str, str] = {}
    for kind, paths in (("forgotten", forget), ("last", last), ("relative", relative),
                        ("cap", capped)):
        for path in paths:
            if path in seen:
                raise ViewError(f"the view has two terms on {path} ({seen[path]} and {kind}); "
                                "give a field one term")
            seen[path] = kind


def _reads(trees: Sequence[Any]) -> tuple[str, ...] | None:
    """Return the top-level state fields the trees read, sorted (None: one reads the whole
    state, or a field by a computed name)."""
    fields: set[str] = set()

    def walk(node: Any) -> bool:
        if isinstance(node, tuple) and node:
            if node[0] == "get" and node[1] == ("var", "state"):
                fields.add(node[2])
                return True
            if (node[0] == "index" and node[1] == ("var", "state")
                    and node[2][0] == "lit" and isinstance(node[2][1], str)):
                fields.add(node[2][1])
                return True
            if node == ("var", "state"):
                return False
        return all(walk(x) for x in subtrees(node))

    return tuple(sorted(fields)) if all(walk(t) for t in trees) else None


def _binds_a_root(node: Any) -> str | None:
    """Return a macro variable named like a root (state, prev, params, config, action)."""
    if (isinstance(node, tuple) and node and node[0] == "call" and node[1] in MACROS
            and len(node) == 4 and node[3] and node[3][0][0] == "var"
            and node[3][0][1] in _ROOT_NAMES):
        return str(node[3][0][1])
    for item in subtrees(node):
        found = _binds_a_root(item)
        if found:
            return found
    return None


_ROOT_NAMES = frozenset({"state", "prev", "params", "config", "action"})


def _checked_keep(source: str) -> Any:
    """Return the parsed tree of a kept expression; refuse one that does not compile (over a
    state, or over a transition), hides a root behind a macro variable, or that
    ``rulespec.verify.decides`` cannot parse (it could then never decide an invariant)."""
    if not source:
        raise ViewError("keep(): write the expression to keep, for example "
                        "keep(size(state.history) - state.round)")
    try:
        compile_expression(source, EDGE_VARIABLES)
        tree = parse(source)
    except ExpressionError as exc:
        raise ViewError(f"keep({source}): {exc}; a kept expression reads state, params and "
                        "config (and, kept over a transition, prev and action)") from None
    except Unsupported as exc:
        raise ViewError(f"keep({source}): the verifier cannot read this expression ({exc}); "
                        "write it as the invariants do") from None
    bound = _binds_a_root(tree)
    if bound is not None:
        raise ViewError(f"keep({source}): a macro variable named {bound!r} hides the "
                        f"variable of that name; rename it")
    return tree


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _numbers(value: Any) -> bool:
    """Whether ``value`` is a list of numbers (an item may be null: not there yet)."""
    return isinstance(value, list) and all(x is None or _is_number(x) for x in value)


def _lookup(value: Any, parts: Sequence[str]) -> Any:
    for part in parts:
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _abstract(value: Any, kind: str, ceiling: int) -> Any:
    if kind == "last":
        return value[-1:] if isinstance(value, list) else value
    if kind == "cap":
        if isinstance(value, list):
            return [min(x, ceiling) if _is_number(x) else x for x in value]
        return min(value, ceiling) if _is_number(value) else value
    if _is_number(value):
        return 0
    if isinstance(value, list):
        present = [x for x in value if x is not None]
        least = min(present) if present else 0
        return [None if x is None else x - least for x in value]
    return value


def _change(value: Any, parts: Sequence[str], kind: str, ceiling: int) -> Any:
    if not isinstance(value, dict) or parts[0] not in value:
        return value
    copy = dict(value)
    if len(parts) > 1:
        copy[parts[0]] = _change(copy[parts[0]], parts[1:], kind, ceiling)
    elif kind == "forget":
        del copy[parts[0]]
    else:
        copy[parts[0]] = _abstract(copy[parts[0]], kind, ceiling)
    return copy


def json_encoder(*, sort_keys: bool, ensure_ascii: bool = False) -> Callable[[Any], str]:
    """Return ``json.JSONEncoder(sort_keys=..., separators=(",", ":"), ensure_ascii=...)
    .encode``, the same text, without building the C encoder again at every call.

    ``JSONEncoder.encode`` makes a new C encoder object per call, which cost more than encoding a
    game's state. This one is made once; circular references are not looked for (a circular
    canonical state fails with RecursionError rather than ValueError), so it keeps no state
    between calls and is safe in threads.
    """
    reference = json.JSONEncoder(sort_keys=sort_keys, separators=(",", ":"),
                                 ensure_ascii=ensure_ascii)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the library's own
        return reference.encode
    strings = (json.encoder.encode_basestring_ascii if ensure_ascii
               else json.encoder.encode_basestring)
    encode = make(None, reference.default, strings, None, ":", ",", sort_keys, False, True)
    join = "".join

    def encoded(value: Any) -> str:
        return join(encode(value, 0))

    return encoded


_KEY_JSON = json_encoder(sort_keys=True)
_VALUES_JSON = _KEY_JSON
#: JSON of a value as CEL reads it: a map's keys in their order (``map()`` and ``filter()``
#: follow it), so values remembered by it are told apart where an expression could tell them.
ORDERED_JSON = json_encoder(sort_keys=False)


def key_bytes(state: Any) -> bytes:
    """Return the canonical encoding of a (viewed) state: JSON, sorted keys, no spaces."""
    return _KEY_JSON(state).encode("utf-8")


def fingerprint(data: bytes) -> int:
    """Return a 64-bit fingerprint of ``data`` (BLAKE2b: the same in every process)."""
    return int.from_bytes(blake2b(data, digest_size=8).digest(), "little")


def collision_probability(states: int) -> float:
    """Return the chance that two of ``states`` distinct states share a 64-bit fingerprint.

    TLC's "calculated (optimistic)" estimate: n (n - 1) / 2 pairs, each 2**-64.
    """
    return states * (states - 1) / 2 / 2.0**64
