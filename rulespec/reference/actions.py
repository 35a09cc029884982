"""Action shapes: every action is checked against its JSON Schema in the spec, type-strictly.

Python says ``True == 1 == 1.0``, and JSON Schema counts ``1.0`` as an integer. An action that
says ``"die": true`` or ``"die": 1.0`` is still not the action ``"die": 1``: engines in other
languages tell them apart, so the reference must too. Here ``integer`` means a JSON integer
(not a boolean, not a number written with a decimal point), and ``enum`` / ``const`` compare
values together with their JSON types.

This module knows nothing of engines: it answers "is this action well formed for the spec?"
with sentences, and "is this action exactly one of these?" cheaply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

from rulespec.spec.model import Spec


def strictly_equal(a: Any, b: Any) -> bool:
    """Return True when ``a`` and ``b`` are the same JSON value, JSON types included.

    ``True`` is not ``1`` and ``1.0`` is not ``1``; a list and a tuple are both JSON arrays.
    """
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        if kind in _ARRAYS and type(b) in _ARRAYS:
            return len(a) == len(b) and all(map(strictly_equal, a, b))
        return False
    if kind is dict:
        return a.keys() == b.keys() and all(strictly_equal(v, b[k]) for k, v in a.items())
    if kind in _ARRAYS:
        return len(a) == len(b) and all(map(strictly_equal, a, b))
    return bool(a == b)


_ARRAYS = (list, tuple)


def is_among(action: Any, legal: Sequence[Any]) -> bool:
    """Return True when ``action`` is exactly (type-strictly) one of ``legal``.

    The common case costs one C-level scan: the action is one of the legal action objects
    themselves (a random player picks from that very list). Otherwise the loosely equal
    candidates are compared strictly.
    """
    try:
        first = legal.index(action)
    except ValueError:
        return False
    found = legal[first]
    if found is action or _same_types(found, action):
        return True
    return any(a == action and _same_types(a, action) for a in legal[first + 1:])


def _same_types(a: Any, b: Any) -> bool:
    """Return True when the loosely equal ``a`` and ``b`` have the same JSON type everywhere."""
    kind = type(a)
    if kind is not type(b):
        return kind in _ARRAYS and type(b) in _ARRAYS and all(map(_same_types, a, b))
    if kind is dict:
        for key, value in a.items():
            other = b[key]
            if ((type(value) is not type(other) or type(value) in _CONTAINERS)
                    and not _same_types(value, other)):
                return False
        return True
    if kind in _ARRAYS:
        return all(map(_same_types, a, b))
    return True


_CONTAINERS = (dict, list, tuple)


# -- the strict dialect of JSON Schema ------------------------------------------------------------


def _is_integer(_checker: object, value: object) -> bool:
    return type(value) is int


def _is_number(_checker: object, value: object) -> bool:
    return type(value) is int or type(value) is float


def _enum(validator: Validator, enums: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not any(strictly_equal(instance, e) for e in enums):
        yield ValidationError(f"{instance!r} is not one of {enums!r}")


def _const(validator: Validator, const: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
    if not strictly_equal(instance, const):
        yield ValidationError(f"{const!r} was expected")


_STRICT_TYPES = Draft202012Validator.TYPE_CHECKER.redefine_many(
    {"integer": _is_integer, "number": _is_number})

#: JSON Schema 2020-12 where JSON types are strict: true is not 1, 1.0 is not 1.
StrictValidator: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator, validators={"enum": _enum, "const": _const}, type_checker=_STRICT_TYPES)


# -- sentences --------------------------------------------------------------------------------------

_TYPE_NAMES = {
    "integer": "an integer", "number": "a number", "string": "a string", "boolean": "a boolean",
    "null": "null", "array": "an array", "object": "an object",
}


def json_text(value: Any) -> str:
    """Return ``value`` as it is written in JSON when it is a scalar, else its Python repr."""
    if value is None:
        return "null"
    if type(value) is bool:
        return "true" if value else "false"
    return repr(value)


def json_type(value: Any) -> str:
    """Return the JSON type of ``value`` in words (``1.0`` is a decimal number)."""
    kind = type(value)
    if kind is bool:
        return "a boolean"
    if kind is int:
        return "an integer"
    if kind is float:
        return "a decimal number"
    if kind is str:
        return "a string"
    if value is None:
        return "null"
    if kind is list or kind is tuple:
        return "an array"
    if kind is dict:
        return "an object"
    return f"a {kind.__name__}, not a JSON value"


def _where(path: Iterable[Any]) -> str:
    parts = list(path)
    if not parts:
        return "the action"
    head, rest = parts[0], parts[1:]
    return repr(str(head)) + "".join(f"[{p!r}]" for p in rest)


def _wanted(schema_type: Any) -> str:
    types = schema_type if isinstance(schema_type, list) else [schema_type]
    return " or ".join(_TYPE_NAMES.get(str(t), repr(t)) for t in types)


def _sentence(error: ValidationError, schema_name: str) -> str:
    """Say in one clause what is wrong, naming the action schema and what it wants."""
    where = _where(error.absolute_path)
    value = error.instance
    rule = error.validator
    arg: Any = error.validator_value
    if rule == "type":
        return f"{where} is {json_text(value)}, {json_type(value)}; {schema_name} wants {_wanted(arg)}"
    if rule == "additionalProperties" and isinstance(value, dict):
        schema = error.schema if isinstance(error.schema, Mapping) else {}
        allowed = list(schema.get("properties", {}))
        extra = [k for k in value if k not in allowed]
        keys = ", ".join(repr(k) for k in extra)
        return (f"unknown key{'s' if len(extra) > 1 else ''} {keys}; {schema_name} allows only "
                f"{', '.join(allowed)}")
    if rule == "required" and isinstance(value, dict):
        missing = [k for k in arg if k not in value]
        return (f"{', '.join(repr(k) for k in missing)} {'are' if len(missing) > 1 else 'is'} "
                f"missing; {schema_name} requires {', '.join(arg)}")
    if rule in ("enum", "const"):
        choices = arg if rule == "enum" else [arg]
        # Name the type only when it is what is wrong (true among integers, 1.0 among 1, 2).
        what = "" if json_type(value) in map(json_type, choices) else f", {json_type(value)}"
        return (f"{where} is {json_text(value)}{what}; {schema_name} allows only "
                f"{', '.join(json_text(c) for c in choices)}")
    if rule in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        bound = {"minimum": "at least", "exclusiveMinimum": "more than",
                 "maximum": "at most", "exclusiveMaximum": "less than"}[rule]
        return f"{where} is {json_text(value)}; {schema_name} wants {bound} {json_text(arg)}"
    return f"{where}: {error.message} ({schema_name}, {rule!r})"


# -- the common case, without jsonschema ------------------------------------------------------------

Check = Callable[[Any], bool]

#: Keywords that only document a schema.
_NOTES = frozenset({"description", "title", "$comment", "examples"})
_SCALAR_TYPES: dict[str, Check] = {
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) is int or type(v) is float,
    "string": lambda v: type(v) is str,
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}
_BOUNDS: dict[str, Callable[[Any, Any], bool]] = {
    "minimum": lambda v, b: v >= b, "maximum": lambda v, b: v <= b,
    "exclusiveMinimum": lambda v, b: v > b, "exclusiveMaximum": lambda v, b: v < b,
}


def _value_check(schema: Any) -> Check | None:
    """Return a test that is True only for values ``schema`` accepts (strict types), or None
    when the schema uses a keyword this shortcut does not know."""
    if not isinstance(schema, dict) or not set(schema) <= (
            _NOTES | {"type", "enum", "const"} | set(_BOUNDS)):
        return None
    checks: list[Check] = []
    kind = schema.get("type")
    if kind is not None:
        if not isinstance(kind, str) or kind not in _SCALAR_TYPES:
            return None
        checks.append(_SCALAR_TYPES[kind])
    if "enum" in schema:
        enums = schema["enum"]
        if not isinstance(enums, list):
            return None
        if all(type(e) is str for e in enums):
            names = frozenset(enums)
            checks.append(lambda v: type(v) is str and v in names)
        else:
            checks.append(lambda v: any(strictly_equal(v, e) for e in enums))
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda v: strictly_equal(v, const))
    for keyword, holds in _BOUNDS.items():
        if keyword in schema:
            bound = schema[keyword]
            if type(bound) not in (int, float):
                return None
            checks.append(_bounded(holds, bound))
    return _all_of(checks)


def _all_of(checks: list[Check]) -> Check:
    """Return the test that every one of ``checks`` holds (one, two or three called directly:
    probes of a malformed action go through these many times)."""
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)
    if len(checks) == 3:
        first, second, third = checks
        return lambda v: first(v) and second(v) and third(v)
    return lambda v: all(check(v) for check in checks)


def _bounded(holds: Callable[[Any, Any], bool], bound: Any) -> Check:
    """Return the test of one bound: it only constrains numbers (a boolean is not one here)."""
    return lambda v: type(v) not in (int, float) or holds(v, bound)


def _flat(schema: Any) -> tuple[dict[str, Check], frozenset[str], bool] | None:
    """Return the checks of a flat object schema of scalar properties (by key), its required
    keys and whether it allows other keys; None for any other schema."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or not set(schema) <= (
            _NOTES | {"type", "additionalProperties", "required", "properties"}):
        return None
    extra = schema.get("additionalProperties", True)
    required = schema.get("required", [])
    properties = schema.get("properties", {})
    if (type(extra) is not bool or not isinstance(required, list)
            or not isinstance(properties, dict)):
        return None
    checks: dict[str, Check] = {}
    for key, sub in properties.items():
        check = _value_check(sub)
        if check is None:
            return None
        checks[key] = check
    return checks, frozenset(required), extra


def fast_check(schema: Any) -> Check | None:
    """Return a test that is True only for actions ``schema`` accepts, or None when the schema
    is not a flat object of scalar properties (then only the validator can say).

    False means "ask the validator": the validator alone words what is wrong.
    """
    flat = _flat(schema)
    if flat is None:
        return None
    checks, needed, extra = flat
    allowed = frozenset(checks)

    def fits(action: Any) -> bool:
        if type(action) is not dict:
            return False
        keys = action.keys()
        if not needed <= keys or (not extra and not keys <= allowed):
            return False
        for key, value in action.items():
            check = checks.get(key)
            if check is not None and not check(value):
                return False
        return True

    return fits


def wording_key(schema: Any) -> Callable[[Mapping[str, Any]], Any] | None:
    """Return a key of an action by all that the validator's sentences about it depend on, or
    None when the schema is not flat (``fast_check``).

    The key is the action's keys in order, each with the ``repr`` of its value unless the value
    passes its property's check: for a flat schema an error is a key missing, keys not allowed
    (named in order), or a property's value, which is named only when it fails. So actions that
    differ only in values that fit are worded alike, and are worded once.
    """
    flat = _flat(schema)
    if flat is None:
        return None
    get = flat[0].get

    def key(action: Mapping[str, Any]) -> Any:
        return tuple([(k, None if (check := get(k)) is not None and check(v) else repr(v))
                      for k, v in action.items()])

    return key


@dataclass(frozen=True)
class ActionSchema:
    """One action kind of a spec: its compiled schema, where it is written, its clauses."""

    kind: str
    validator: Validator
    location: str
    clauses: tuple[str, ...]
    #: A quick test that is True only for actions that fit (``fast_check``), or None.
    fits: Check | None = None
    #: What the sentences about a malformed action depend on (``wording_key``), or None: then
    #: they are remembered by the action's ``repr``.
    wording: Callable[[Mapping[str, Any]], Any] | None = None
    #: The sentences said about malformed actions, by ``wording`` key or else ``repr`` (both
    #: exact: ``True``, ``1`` and ``1.0`` differ): the conformance kit sends the same malformed
    #: probes again and again, and wording a refusal through jsonschema costs far more than
    #: checking.
    _said: dict[Any, list[str]] = field(default_factory=dict, compare=False, repr=False)

    def problems(self, action: Mapping[str, Any]) -> list[str]:
        """Return every way ``action`` breaks this schema, one sentence each (none: it fits)."""
        if self.fits is not None and self.fits(action):
            return []
        key = repr(action) if self.wording is None else self.wording(action)
        said = self._said.get(key)
        if said is not None:
            return list(said)
        name = f"the action schema of {self.kind} ({self.location})"
        errors = sorted(self.validator.iter_errors(action),
                        key=lambda e: ([str(p) for p in e.absolute_path], str(e.validator)))
        said = [_sentence(e, name) for e in errors]
        if len(self._said) >= _SAID_MAX:
            self._said.clear()
        self._said[key] = said
        return list(said)


#: Most refusals remembered per action kind (``ActionSchema._said``).
_SAID_MAX = 4096


class ActionSchemas:
    """The action schemas of one spec, compiled once."""

    def __init__(self, spec: Spec) -> None:
        file = Path(spec.marks.file).name
        self.by_kind: dict[str, ActionSchema] = {}
        for i, entry in enumerate(spec.section("actions")):
            line, _ = spec.marks.at(("actions", i, "params"))
            kind = str(entry["id"])
            params = entry.get("params", {})
            self.by_kind[kind] = ActionSchema(
                kind, StrictValidator(params), f"{file}:{line}",
                tuple(str(c) for c in entry.get("clauses", ())), fast_check(params),
                wording_key(params))

    def problem(self, action: Any) -> tuple[str, tuple[str, ...]] | None:
        """Return why ``action`` is malformed and the clauses of its kind, or None if it fits."""
        if type(action) is not dict:
            return (f"an action must be a JSON object with a 'kind', not {json_text(action)}, "
                    f"{json_type(action)}", ())
        kind = action.get("kind")
        schema = self.by_kind.get(kind) if type(kind) is str else None
        if schema is None:
            return (f"unknown action kind {json_text(kind)}; kinds: "
                    f"{', '.join(sorted(self.by_kind))}", ())
        problems = schema.problems(action)
        if not problems:
            return None
        return "; ".join(problems), schema.clauses


_CACHE: dict[int, tuple[Spec, ActionSchemas]] = {}
_CACHE_MAX = 64


def action_schemas(spec: Spec) -> ActionSchemas:
    """Return the compiled action schemas of ``spec`` (compiled once per spec object)."""
    cached = _CACHE.get(id(spec))
    if cached is not None and cached[0] is spec:
        return cached[1]
    schemas = ActionSchemas(spec)
    if len(_CACHE) >= _CACHE_MAX:
        _CACHE.clear()
    _CACHE[id(spec)] = (spec, schemas)
    return schemas
