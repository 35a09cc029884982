"""JSON Schemas compiled to Python closures: the same yes/no as jsonschema, many times faster.

The kit validates a canonical state at every sampled step (every step with ``--full``); with
``jsonschema`` each value costs a walk through its generic validator (an object built and a
generator run per keyword). ``compile_schema`` turns a Draft 2020-12 schema into one closure
per subschema instead, for the keywords the specs use (``type``, ``properties``, ``required``,
``additionalProperties``, ``items``, ``enum``, ``const``, bounds, ``anyOf``/``oneOf``/``allOf``,
local ``$ref``...), each written to give exactly jsonschema's answer (``true`` is not ``1``,
``1.0`` is an integer, bounds apply only to numbers). A subschema using any other keyword is
handed to jsonschema itself (the same validator, so its references resolve alike), and a
schema that moves its base URI (``$id``, anchors, dynamic references) is validated by jsonschema
whole. Only the verdict is compiled: the messages of an invalid value still come from
jsonschema (``Draft202012Validator.iter_errors``).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping, Sized
from typing import Any

import jsonschema

_equal: Callable[[Any, Any], Any] | None
_uniq: Callable[[Any], Any] | None
try:  # jsonschema's own equality (true is not 1; 1 is 1.0) and uniqueness, so both agree
    from jsonschema._utils import equal as _equal
    from jsonschema._utils import uniq as _uniq
except ImportError:  # pragma: no cover - another jsonschema: validate with it whole
    _equal = _uniq = None

#: A compiled schema: True when the value is valid.
Check = Callable[[Any], bool]

#: Keywords with no say on validity (annotations, and ``format``, which Draft 2020-12 only
#: annotates unless a format checker is given; the kit gives none).
_ANNOTATIONS = frozenset({"$schema", "$comment", "$defs", "definitions", "title", "description",
                          "default", "examples", "deprecated", "readOnly", "writeOnly",
                          "format", "contentMediaType", "contentEncoding", "contentSchema"})
#: Keywords that move the base URI or resolve dynamically: jsonschema validates the schema whole.
_WHOLE = frozenset({"$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef",
                    "$recursiveAnchor", "$vocabulary"})


def _valid(_: Any) -> bool:
    return True


def _invalid(_: Any) -> bool:
    return False


def _is_number(x: Any) -> bool:
    kind = type(x)
    if kind is int or kind is float:  # the usual answers first: the ABC check is slow
        return True
    return kind is not bool and isinstance(x, numbers.Number)


_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "integer": lambda x: ((isinstance(x, int) and not isinstance(x, bool))
                          or (isinstance(x, float) and x.is_integer())),
    "number": _is_number,
}


def compile_schema(schema: Mapping[str, Any] | bool) -> Check:
    """Return a function giving ``Draft202012Validator(schema).is_valid``'s answer, faster."""
    whole = jsonschema.Draft202012Validator(schema if isinstance(schema, bool) else dict(schema))
    if _equal is None or _moves_base(schema):
        return _bound(whole.is_valid)
    return _Compiler(schema, whole).compile(schema)


def _bound(method: Callable[[Any], Any]) -> Check:
    def check(x: Any) -> bool:
        return bool(method(x))

    return check


def _moves_base(node: Any) -> bool:
    """Return True when a keyword anywhere in ``node`` resolves references its own way."""
    if isinstance(node, list):
        return any(_moves_base(n) for n in node)
    if not isinstance(node, dict):
        return False
    return any(k in _WHOLE or (k not in ("const", "enum", "default", "examples")
                               and _moves_base(v)) for k, v in node.items())


class _Compiler:
    """Compile the subschemas of one root schema (``$ref`` targets once each)."""

    def __init__(self, root: Mapping[str, Any] | bool, whole: Any) -> None:
        self.root = root
        self.whole = whole
        self._refs: dict[str, Check] = {}

    def compile(self, node: Any) -> Check:
        """Return the check of one subschema."""
        if node is True:
            return _valid
        if node is False:
            return _invalid
        if not isinstance(node, dict):
            return self._fallback(node)
        checks: list[Check] = []
        for key, value in node.items():
            if key in _ANNOTATIONS or key.startswith("x-"):
                continue
            make = _KEYWORDS.get(key)
            check = make(self, value, node) if make is not None else None
            if check is None:  # a keyword (or form of one) not compiled: jsonschema decides
                return self._fallback(node)
            if check is not _valid:
                checks.append(check)
        return _integer_range(node, _all(checks))

    def _fallback(self, node: Any) -> Check:
        return _bound(self.whole.evolve(schema=node).is_valid)

    def ref(self, ref: Any) -> Check | None:
        """Return the check of a local reference (``#`` or ``#/$defs/NAME``), compiled once."""
        if not isinstance(ref, str) or not (ref == "#" or re.fullmatch(r"#/\$defs/[\w-]+", ref)):
            return None
        if ref in self._refs:
            return self._refs[ref]
        if ref == "#":
            target: Any = self.root
        else:
            defs = self.root.get("$defs") if isinstance(self.root, Mapping) else None
            name = ref[len("#/$defs/"):]
            if not isinstance(defs, Mapping) or name not in defs:
                return None  # jsonschema says what is wrong with it
            target = defs[name]
        compiled: list[Check] = []

        def late(x: Any) -> bool:  # a recursive reference calls itself through this
            return compiled[0](x)

        self._refs[ref] = late
        compiled.append(self.compile(target))
        self._refs[ref] = compiled[0]
        return compiled[0]


def _integer_range(node: Mapping[str, Any], check: Check) -> Check:
    """Return ``check`` with a shortcut for a plain ``int`` when ``node`` is an integer range
    (``{"type": "integer", "minimum": a, "maximum": b}``, the commonest state field)."""
    keys = {k for k in node if k not in _ANNOTATIONS and not k.startswith("x-")}
    if node.get("type") != "integer" or not keys <= {"type", "minimum", "maximum"}:
        return check
    low, high = node.get("minimum"), node.get("maximum")
    if not all(b is None or type(b) is int for b in (low, high)):
        return check
    lo = -float("inf") if low is None else low
    hi = float("inf") if high is None else high

    def integer(x: Any) -> bool:
        if type(x) is int:
            return bool(lo <= x <= hi)
        return check(x)

    return integer


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _valid
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks

        def both(x: Any) -> bool:
            return first(x) and second(x)

        return both
    frozen = tuple(checks)

    def every(x: Any) -> bool:
        for check in frozen:  # noqa: SIM110 - a loop: all() of a generator costs more per value
            if not check(x):
                return False
        return True

    return every


# -- keywords: each returns a check, _valid when it cannot fail, None when not compiled --------

Keyword = Callable[[_Compiler, Any, Mapping[str, Any]], Check | None]


def _type(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not all(isinstance(n, str) and n in _TYPES for n in names):
        return None
    tests = tuple(_TYPES[n] for n in names)
    if len(tests) == 1:
        return tests[0]

    def any_type(x: Any) -> bool:
        return any(t(x) for t in tests)

    return any_type


def _properties(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    if not isinstance(value, dict):
        return None
    pairs = tuple((k, c.compile(v)) for k, v in value.items())
    pairs = tuple((k, check) for k, check in pairs if check is not _valid)
    if not pairs:
        return _valid

    def properties(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for key, check in pairs:  # noqa: SIM110 - a loop: all() of a generator costs more per value
            if key in x and not check(x[key]):
                return False
        return True

    return properties


def _required(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    if not isinstance(value, list):
        return None
    keys = tuple(value)

    def required(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for key in keys:  # noqa: SIM110 - a loop: all() of a generator costs more per value
            if key not in x:
                return False
        return True

    return required


def _additional(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    if "patternProperties" in node:
        return None
    props = node.get("properties", {})
    known = frozenset(props) if isinstance(props, dict) else frozenset()
    extra = c.compile(value)
    if extra is _valid:
        return _valid
    if extra is _invalid:
        def closed(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            for key in x:  # noqa: SIM110 - a loop: all() of a generator costs more per value
                if key not in known:
                    return False
            return True

        return closed

    def additional(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        for key, item in x.items():  # noqa: SIM110 - a loop: all() of a generator costs more per value
            if key not in known and not extra(item):
                return False
        return True

    return additional


def _items(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    if "prefixItems" in node or not isinstance(value, dict | bool):
        return None
    item = c.compile(value)
    if item is _valid:
        return _valid

    def items(x: Any) -> bool:
        if not isinstance(x, list):
            return True
        for entry in x:  # noqa: SIM110 - a loop: all() of a generator costs more per value
            if not item(entry):
                return False
        return True

    return items


def _count(kind: type[Sized], compare: Callable[[int, int], bool]) -> Keyword:
    def keyword(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        bound = value

        def count(x: Any) -> bool:
            return not isinstance(x, kind) or compare(len(x), bound)

        return count

    return keyword


def _bound_of(compare: Callable[[Any, Any], bool]) -> Keyword:
    def keyword(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
        if not _is_number(value):
            return None
        bound = value

        def within(x: Any) -> bool:
            return not _is_number(x) or compare(x, bound)

        return within

    return keyword


def _const(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    equal = _equal
    if equal is None:  # pragma: no cover - compile_schema validates whole then
        return None

    def const(x: Any) -> bool:
        return bool(equal(x, value))

    return const


def _enum(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    equal = _equal
    if not isinstance(value, list) or equal is None:
        return None
    options = tuple(value)
    # Strings compare with == under jsonschema's equality; a set answers for them at once.
    strings = frozenset(o for o in options if isinstance(o, str))

    def enum(x: Any) -> bool:
        if isinstance(x, str) and type(x) is str:
            return x in strings
        return any(equal(o, x) for o in options)

    return enum


def _unique(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    uniq = _uniq
    if uniq is None:  # pragma: no cover
        return None
    if not value:
        return _valid

    def unique(x: Any) -> bool:
        return not isinstance(x, list) or bool(uniq(x))

    return unique


def _of(mode: str) -> Keyword:
    def keyword(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
        if not isinstance(value, list) or not value:
            return None
        subs = tuple(c.compile(v) for v in value)
        if mode == "all":
            return _all(list(subs))
        if mode == "any":
            def any_of(x: Any) -> bool:
                for sub in subs:  # noqa: SIM110 - a loop: all() of a generator costs more per value
                    if sub(x):
                        return True
                return False

            return any_of

        def one_of(x: Any) -> bool:
            found = False
            for sub in subs:
                if sub(x):
                    if found:
                        return False
                    found = True
            return found

        return one_of

    return keyword


def _not(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    sub = c.compile(value)

    def negated(x: Any) -> bool:
        return not sub(x)

    return negated


def _ref(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    return c.ref(value)


def _pattern(c: _Compiler, value: Any, node: Mapping[str, Any]) -> Check | None:
    if not isinstance(value, str):
        return None
    try:
        compiled = re.compile(value)
    except re.error:
        return None

    def pattern(x: Any) -> bool:
        return not isinstance(x, str) or compiled.search(x) is not None

    return pattern


_KEYWORDS: dict[str, Keyword] = {
    "type": _type,
    "properties": _properties,
    "required": _required,
    "additionalProperties": _additional,
    "items": _items,
    "minItems": _count(list, lambda n, b: n >= b),
    "maxItems": _count(list, lambda n, b: n <= b),
    "minLength": _count(str, lambda n, b: n >= b),
    "maxLength": _count(str, lambda n, b: n <= b),
    "minProperties": _count(dict, lambda n, b: n >= b),
    "maxProperties": _count(dict, lambda n, b: n <= b),
    "minimum": _bound_of(lambda x, b: not x < b),
    "maximum": _bound_of(lambda x, b: not x > b),
    "exclusiveMinimum": _bound_of(lambda x, b: not x <= b),
    "exclusiveMaximum": _bound_of(lambda x, b: not x >= b),
    "const": _const,
    "enum": _enum,
    "uniqueItems": _unique,
    "allOf": _of("all"),
    "anyOf": _of("any"),
    "oneOf": _of("one"),
    "not": _not,
    "$ref": _ref,
    "pattern": _pattern,
}
