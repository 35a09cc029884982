"""Checks remembered by what they read: an invariant or a schema property checked once per value.

A CEL invariant is a pure function of the variables it reads. Most read a few top-level fields
of the state (Dado de Ouro's arithmetic of the last round reads ``state.last_round`` alone,
which changes once a round), so its verdict is remembered by the values of those fields: a
state whose fields hold values it has passed with before passes again, without evaluating it.
The state schema is remembered the same way, property by property, when the schema is a plain
object schema whose properties are checked independently of each other.

The values are remembered *type-strictly*: a number, a string or null stands for itself, a
boolean for one of two markers (``True == 1`` in Python, not in CEL or JSON), anything else for
its JSON, keys in their order (which tells ``true`` from ``1``, ``1.0`` from ``1``, and one
order of a map's keys from another, as a comprehension sees them), so two values are
remembered as one only when every check gives them the same answer. Only passing verdicts
are remembered: a failing one stops the search.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from time import perf_counter
from typing import Any

from rulespec.spec.celparse import MACROS, Unsupported, disjuncts, parse
from rulespec.spec.fastschema import compile_schema
from rulespec.verify.decides import subtrees
from rulespec.verify.keys import ORDERED_JSON

#: How many distinct value combinations one check remembers before it starts again.
LIMIT = 1 << 18

_TRUE = object()
_FALSE = object()
#: Not computed yet (``Fields``).
ABSENT = object()
#: A field the state does not have (not the same as a field holding null).
_MISSING = object()
#: Keys in their order, not sorted: a comprehension over a map reads its keys in order.
_dumps = ORDERED_JSON


def frozen(value: Any) -> Any:
    """Return a hashable stand-in for a JSON value: equal only for values every check treats
    alike (see the module)."""
    kind = type(value)
    if kind is int or kind is str or value is None:
        return value
    if value is True:
        return _TRUE
    if value is False:
        return _FALSE
    return (_dumps(value),)


class Fields:
    """The frozen fields of one state (or action), each computed once when first asked for."""

    __slots__ = ("_done", "value")

    def __init__(self, value: Any) -> None:
        self.value = value
        self._done: dict[str, Any] = {}

    def get(self, name: str) -> Any:
        """Return the frozen value of field ``name`` (a marker of its own when there is none)."""
        done = self._done
        out = done.get(name, ABSENT)
        if out is not ABSENT:
            return out
        value = self.value
        if type(value) is not dict or name not in value:
            out = _MISSING
        else:
            item = value[name]
            kind = type(item)
            if kind is int or kind is str or item is None:
                out = item
            elif item is True:
                out = _TRUE
            elif item is False:
                out = _FALSE
            else:
                out = (_dumps(item),)
        done[name] = out
        return out


_ROOTS = ("state", "prev", "action")
_ROOT_NAMES = frozenset({"state", "prev", "action", "params", "config"})


def reads(source: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]] | None:
    """Return the top-level fields an expression reads of ``state``, ``prev`` and ``action``
    (None: it reads one of them whole, or by a computed name, or cannot be parsed, or a macro
    variable hides one of them)."""
    try:
        tree = parse(source)
    except (Unsupported, RecursionError, SyntaxError):
        return None
    fields: dict[str, set[str]] = {root: set() for root in _ROOTS}

    def walk(node: Any) -> bool:
        if isinstance(node, tuple) and node:
            if node[0] == "get" and isinstance(node[1], tuple) and node[1][:1] == ("var",) \
                    and node[1][1] in fields:
                fields[node[1][1]].add(node[2])
                return True
            if (node[0] == "index" and isinstance(node[1], tuple) and node[1][:1] == ("var",)
                    and node[1][1] in fields and isinstance(node[2], tuple)
                    and node[2][:1] == ("lit",) and isinstance(node[2][1], str)):
                fields[node[1][1]].add(node[2][1])
                return True
            if node[0] == "var" and len(node) > 1 and node[1] in fields:
                return False
            if (node[0] == "call" and node[1] in MACROS and len(node) == 4 and node[3]
                    and isinstance(node[3][0], tuple) and node[3][0][:1] == ("var",)
                    and node[3][0][1] in _ROOT_NAMES):
                return False
        return all(walk(x) for x in subtrees(node))

    if not walk(tree):
        return None
    return (tuple(sorted(fields["state"])), tuple(sorted(fields["prev"])),
            tuple(sorted(fields["action"])))


#: Lookups during which a memo is timed: afterwards it is kept only if building its keys cost
#: less than the evaluations its hits saved (a key of large fields can cost more than a check).
TRIAL = 512


class Remembered:
    """The passing verdicts of one check, by the frozen fields it reads."""

    __slots__ = (
        "action",
        "hits",
        "keep",
        "key_seconds",
        "looks",
        "miss_seconds",
        "misses",
        "passed",
        "prev",
        "state",
    )

    def __init__(self, read: tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]) -> None:
        self.state, self.prev, self.action = read
        self.passed: set[tuple[Any, ...]] = set()
        self.looks = 0
        self.hits = 0
        self.misses = 0
        self.key_seconds = 0.0
        self.miss_seconds = 0.0
        #: None while on trial; then whether the memo is used.
        self.keep: bool | None = None

    def timed(self) -> bool:
        """Return whether the memo is on trial (its lookups and evaluations timed)."""
        return self.keep is None

    def worth(self) -> bool:
        """Return whether the memo is used (always while on trial)."""
        return self.keep is not False

    def judge(self) -> None:
        """After the trial: keep the memo when its keys cost less than the hits saved."""
        if self.keep is None and self.looks >= TRIAL:
            per_evaluation = self.miss_seconds / max(1, self.misses)
            self.keep = self.key_seconds < self.hits * per_evaluation

    def seen(self, key: tuple[Any, ...]) -> bool:
        """Return whether the check passed with these values before (and count the look)."""
        self.looks += 1
        if key in self.passed:
            self.hits += 1
            return True
        return False

    def key(self, state: Fields, prev: Fields | None, action: Fields | None) -> tuple[Any, ...]:
        """Return the values this check reads in one state (or transition)."""
        names = self.state
        if (prev is None or not self.prev) and (action is None or not self.action):
            return tuple(map(state.get, names))  # reads the state alone
        get = state.get
        out = [get(n) for n in names]
        if prev is not None and self.prev:
            get = prev.get
            out += [get(n) for n in self.prev]
        if action is not None and self.action:
            get = action.get
            out += [get(n) for n in self.action]
        return tuple(out)

    def remember(self, key: tuple[Any, ...]) -> None:
        """Remember that the check passed with these values."""
        passed = self.passed
        if len(passed) >= LIMIT:
            passed.clear()
        passed.add(key)


class Guard:
    """The first operands ``G`` of an invariant ``G || REST`` that read fewer fields than the
    whole: wherever G is true the invariant is (CEL's ``||`` is true when either side is,
    whatever the other gives, an error included), so G's value, remembered by the fields it
    reads (false and errors too: G is a pure function of them), spares evaluating the
    invariant. Pig's ``action.kind != "die" || ...`` holds on every hold without reading the
    scores. Given up after its trial when its fields seldom repeat."""

    __slots__ = ("expression", "looks", "misses", "read", "source", "used", "values")

    def __init__(self, source: str, read: tuple[tuple[str, ...], tuple[str, ...],
                                               tuple[str, ...]], expression: Any) -> None:
        self.source = source
        self.read = Remembered(read)
        self.expression = expression
        self.values: dict[tuple[Any, ...], bool] = {}
        self.looks = 0
        self.misses = 0
        #: False once given up.
        self.used = True

    def holds(self, state: Fields, prev: Fields | None, action: Fields | None,
              context: Any) -> bool:
        """Return whether G is true in this state (or transition); ``context``: the CEL
        variables, to evaluate G with when its fields are new."""
        key = self.read.key(state, prev, action)
        value = self.values.get(key)
        self.looks += 1
        if value is None:
            self.misses += 1
            try:
                value = self.expression.evaluate_in(context) is True
            except Exception:  # an error is not true: the invariant is evaluated
                value = False
            if len(self.values) >= LIMIT:
                self.values.clear()
            self.values[key] = value
            if self.looks >= TRIAL and self.misses * 4 > self.looks:
                self.used = False  # most fields new: the key costs more than it spares
        return value


def guard_of(source: str, compile: Callable[[str], Any]) -> Guard | None:
    """Return the guard of an invariant (``Guard``): its longest chain of first ``||``
    operands reading fewer top-level fields than it does (None: there is none)."""
    parts = disjuncts(source)
    if parts is None:
        return None
    whole = reads(source)
    found = None
    for k in range(1, len(parts)):
        text = " || ".join(f"({p})" for p in parts[:k])
        read = reads(text)
        if read is None or (whole is not None and not _fewer(read, whole)):
            break
        found = (text, read)
    if found is None:
        return None
    try:
        return Guard(found[0], found[1], compile(found[0]))
    except Exception:  # the library refuses it alone: no guard
        return None


def _fewer(part: tuple[tuple[str, ...], ...], whole: tuple[tuple[str, ...], ...]) -> bool:
    """Whether ``part`` reads some of ``whole``'s fields and not all of them."""
    return (all(set(p) <= set(w) for p, w in zip(part, whole, strict=True))
            and sum(map(len, part)) < sum(map(len, whole)))


#: The keywords of a plain object schema, whose properties are checked one by one.
_PLAIN = frozenset({"$schema", "$id", "$comment", "title", "description", "type",
                    "properties", "required", "additionalProperties", "$defs"})
_REF = re.compile(r'"\$ref":"([^"]*)"')


class SchemaByProperty:
    """A plain object schema checked property by property, each value once."""

    def __init__(self, properties: Mapping[str, Callable[[Any], bool]],
                 required: Sequence[str], closed: bool) -> None:
        self._checks = dict(properties)
        self._required = tuple(required)
        self._closed = closed
        self._passed: dict[str, set[Any]] = {name: set() for name in properties}
        self._looks: dict[str, int] = dict.fromkeys(properties, 0)
        self._hits: dict[str, int] = dict.fromkeys(properties, 0)
        self._misses: dict[str, int] = dict.fromkeys(properties, 0)
        self._key_seconds: dict[str, float] = dict.fromkeys(properties, 0.0)
        self._check_seconds: dict[str, float] = dict.fromkeys(properties, 0.0)
        #: The properties whose memo passed its trial (the others are on trial, or given up).
        self._kept: set[str] = set()

    def _judge(self, name: str) -> None:
        """After a property's trial, keep its memo when its keys cost less than the checks
        its hits saved; else give it up."""
        if self._looks[name] < TRIAL:
            return
        per_check = self._check_seconds[name] / max(1, self._misses[name])
        if self._key_seconds[name] < self._hits[name] * per_check:
            self._kept.add(name)
        else:
            del self._passed[name]

    @classmethod
    def of(cls, schema: Any) -> SchemaByProperty | None:
        """Return the schema split by property (None: it is not a plain object schema: a
        keyword other than properties, required and additionalProperties ties its
        properties together, or a reference needs the whole document)."""
        # ``x-`` keywords are annotations (``x-verify``: a view, the seats' rotation), which
        # validation ignores, as ``rulespec.spec.fastschema`` does.
        if not isinstance(schema, dict) or not {k for k in schema
                                                if not k.startswith("x-")} <= _PLAIN:
            return None
        if schema.get("type", "object") != "object":
            return None
        additional = schema.get("additionalProperties", True)
        properties = schema.get("properties", {})
        if additional not in (True, False) or not isinstance(properties, dict):
            return None
        defs = schema.get("$defs")
        text = _dumps(schema)
        # A property's references must all be to the definitions, which go with it.
        if (not all(isinstance(s, bool) or (isinstance(s, dict) and "$id" not in s
                                            and "$defs" not in s) for s in properties.values())
                or text.count('"$ref"') != len(_REF.findall(text))
                or not all(r.startswith("#/$defs/") for r in _REF.findall(text))
                or not (defs is None or isinstance(defs, dict))):
            return None
        return cls({name: compile_schema(
                        {**sub, "$defs": defs} if defs and isinstance(sub, dict) else sub)
                    for name, sub in properties.items()},
                   list(schema.get("required", [])), additional is False)

    def __call__(self, state: Any, fields: Fields, only: frozenset[str] | None = None) -> bool:
        """Return whether ``state`` matches the schema (``fields``: its frozen fields; ``only``:
        check these top-level properties alone, their presence and values, when every other
        property is known to hold the value of a state that matched)."""
        if type(state) is not dict:
            return False
        for name in self._required:
            if name not in state and (only is None or name in only):
                return False
        checks, passed, looks = self._checks, self._passed, self._looks
        items = (state.items() if only is None
                 else [(n, state[n]) for n in only if n in state])
        for name, value in items:
            check = checks.get(name)
            if check is None:
                if self._closed:
                    return False
                continue
            seen = passed.get(name)
            if seen is None:  # its memo was given up: checked every time
                if not check(value):
                    return False
                continue
            if name not in self._kept:  # on trial: the key and the check timed
                started = perf_counter()
                key = fields.get(name)
                hit = key in seen
                looked = perf_counter()
                self._key_seconds[name] += looked - started
                looks[name] += 1
                if hit:
                    self._hits[name] += 1
                    self._judge(name)
                    continue
                if not check(value):
                    return False
                self._check_seconds[name] += perf_counter() - looked
                self._misses[name] += 1
                seen.add(key)
                self._judge(name)
                continue
            key = fields.get(name)
            if key in seen:
                continue
            if not check(value):
                return False
            if len(seen) >= LIMIT:
                seen.clear()
            seen.add(key)
        return True
