"""Views declared in the spec: what ``rulespec verify`` keeps of each field (issue 42 item 2).

A canonical state that records the past without bound (Pig's turn counts, Ruby Rhino's finished
rounds, Dado de Ouro's re-rolls) makes the state graph endless; a *view* says what the verifier
keeps of such a field. The spec declares it once, beside the field, as an ``x-verify``
annotation of the state schema (JSON Schema ignores ``x-`` keywords), a list of terms:

- ``forget``: the field is left out of the state's identity;
- ``last``: only a list's last item is kept;
- ``relative``: a list of numbers less its least item is kept (counters that grow together);
- ``cap(K)``: a number is kept up to K (a list of numbers item by item); K is a whole number
  or ``params.NAME``, a parameter of the game read from the configuration;
- ``keep(EXPR)``: the value of a CEL expression is kept, over a state (reading ``state``,
  ``params``, ``config``) or, when it reads ``prev`` or ``action``, over each move; it
  summarises the field it stands beside, so it must read that field (``state.F`` or
  ``prev.F``).

Seat symmetry (issue 42 item 3) is declared once, on the state schema itself: ``x-verify:
{rotate: {seats: [PATH...], seat: [PATH...]}}`` says the seats are interchangeable up to the
turn order, so ``rulespec verify`` merges states equal up to a rotation of the seats
(``rulespec.verify.symmetry``). ``seats`` lists the fields holding a list with one item per
seat (rotated), ``seat`` the fields that name seats (a seat number, or lists of them:
relabelled); a path is dotted, ``*`` standing for every item of a list
(``history.*.winner``), and must name a property of the schema. :func:`declared_seats` reads
it; :func:`check_views` checks it with the rest.

A field takes at most one of forget, last, relative and cap, and any number of keep terms. An
annotation sits on a property of an object (the state, or an object inside it reached through
``properties`` and ``oneOf``/``anyOf``/``allOf``), never inside an array's ``items``: a view
names a field by its dotted path (``last_round.max_passes``).

:func:`declared_view_terms` returns the terms in the syntax ``rulespec verify --view`` takes
(``relative(turns)``, ``cap(scores, params.target_score)``, a plain ``FIELD`` to forget);
:func:`check_views` is the validator's check. Both only read the spec: nothing in it is run.
This module checks the syntax itself, since the verifier's own parser sits on a floor above
this package; the verifier parses the terms again when it builds the view.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from rulespec.spec.errors import RulespecError

#: The annotation's key in the state schema.
KEYWORD = "x-verify"

#: The variables a kept expression may read (those of a kept expression over a move).
_VARIABLES = frozenset({"state", "prev", "action", "params", "config"})

_FIELD_TERM = re.compile(r"^(forget|last|relative)$|^cap\(\s*(\d+|params\.([A-Za-z_][A-Za-z0-9_]*))"
                         r"\s*\)$")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_SYNTAX = ("write forget, last, relative, cap(K) (K a whole number or params.NAME) or "
           "keep(EXPR), for example cap(params.target_score) or keep(size(state.history))")


class ViewDeclarationError(RulespecError):
    """An ``x-verify`` annotation that cannot be read, or a parameter its ``cap`` needs that the
    configuration lacks."""


@dataclass(frozen=True)
class Declared:
    """One ``x-verify`` term as the spec writes it, and where."""

    #: The dotted field path (``final.draw``).
    field: str
    #: Where the annotation is in the state schema (keys and indexes below ``state.schema``).
    where: tuple[str | int, ...]
    #: Its position in the annotation's list.
    index: int
    #: The term as written (``cap(params.target_score)``).
    text: str


def _annotations(schema: Any, prefix: tuple[str, ...] = (),
                 where: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str, ...],
                                                                tuple[str | int, ...], Any]]:
    """Yield (field path, schema location, annotation value) for every ``x-verify`` on a
    property reachable through ``properties`` and the schema combinators, document order."""
    if not isinstance(schema, Mapping):
        return
    for key in ("oneOf", "anyOf", "allOf"):
        branches = schema.get(key)
        if isinstance(branches, list):
            for i, branch in enumerate(branches):
                yield from _annotations(branch, prefix, (*where, key, i))
    properties = schema.get("properties")
    if isinstance(properties, Mapping):
        for name, sub in properties.items():
            here = (*where, "properties", str(name))
            if isinstance(sub, Mapping) and KEYWORD in sub:
                yield (*prefix, str(name)), (*here, KEYWORD), sub[KEYWORD]
            yield from _annotations(sub, (*prefix, str(name)), here)


def _stray(schema: Any, where: tuple[str | int, ...] = (), under_items: bool = False,
           ) -> Iterator[tuple[str | int, ...]]:
    """Yield the locations of ``x-verify`` annotations a dotted path cannot name: inside an
    array's items (or ``$defs``), or on the state schema itself."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            inner = under_items or key in ("items", "prefixItems", "$defs", "additionalProperties")
            if key == KEYWORD and not where:
                continue  # the state schema's own: seat symmetry (``_rotate_problems``)
            if key == KEYWORD and (under_items or where[-2:-1] != ("properties",)):
                yield (*where, key)
            elif key != KEYWORD:
                yield from _stray(value, (*where, key), inner)
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from _stray(value, (*where, i), under_items)


def declarations(data: Mapping[str, Any]) -> tuple[list[Declared], list[tuple[tuple[str | int, ...],
                                                                              str]]]:
    """Return the ``x-verify`` terms of spec ``data`` and (location, message) for each
    annotation that is not a list of strings or sits where no field path can name it."""
    schema = (data.get("state") or {}).get("schema") or {}
    terms: list[Declared] = []
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for where in _stray(schema):
        problems.append((where, "x-verify sits where a view cannot name the field (inside an "
                                "array's items or $defs); put it on the property of an object, "
                                "for example properties.history (on the state schema itself "
                                "it declares seat symmetry)"))
    for path, where, value in _annotations(schema):
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items or not all(isinstance(t, str) for t in items):
            problems.append((where, f"x-verify of {'.'.join(path)} must be a term or a list of "
                                    f"terms (strings); {_SYNTAX}"))
            continue
        terms += [Declared(".".join(path), where, i, t.strip()) for i, t in enumerate(items)]
    return terms, problems


def view_terms(data: Mapping[str, Any]) -> list[list[str]]:
    """Return each ``x-verify`` term of spec ``data`` as [field, term as written], in order (what
    ``rulespec diff`` compares: STATE_VIEW_CHANGED)."""
    rotate = _rotate(data)
    declared = ([] if rotate is None else
                [["", f"rotate {kind} {path}"] for kind in _SEAT_KINDS
                 for path in (rotate.get(kind) or []) if isinstance(rotate, Mapping)])
    return declared + [[t.field, t.text] for t in declarations(data)[0]]


#: The lists of ``x-verify: {rotate: ...}``: lists by seat, and fields naming seats.
_SEAT_KINDS = ("seats", "seat")
_ROTATE_SYNTAX = ("write x-verify: {rotate: {seats: [PATH, ...], seat: [PATH, ...]}}, for "
                  "example {rotate: {seats: [scores], seat: [turn, result.winners]}}")


def _rotate(data: Mapping[str, Any]) -> Any:
    """Return the state schema's ``x-verify`` (its ``rotate``; None when it has none)."""
    schema = (data.get("state") or {}).get("schema") or {}
    if not isinstance(schema, Mapping) or KEYWORD not in schema:
        return None
    own = schema[KEYWORD]
    return own.get("rotate", own) if isinstance(own, Mapping) and set(own) == {"rotate"} else own


def _names_property(schema: Any, parts: list[str]) -> bool:
    """Return whether a dotted path (``*``: every item of a list) names a property of the
    schema, through ``properties``, ``items`` and the combinators."""
    if not parts:
        return True
    if not isinstance(schema, Mapping):
        return False
    for key in ("oneOf", "anyOf", "allOf"):
        branches = schema.get(key)
        if isinstance(branches, list) and any(_names_property(b, parts) for b in branches):
            return True
    head, rest = parts[0], parts[1:]
    if head == "*":
        return _names_property(schema.get("items"), rest)
    properties = schema.get("properties")
    return isinstance(properties, Mapping) and head in properties and _names_property(
        properties[head], rest)


def _rotate_problems(data: Mapping[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    """Return the problems of the seat symmetry declared on the state schema itself."""
    schema = (data.get("state") or {}).get("schema") or {}
    if not isinstance(schema, Mapping) or KEYWORD not in schema:
        return []
    own = schema[KEYWORD]
    where: tuple[str | int, ...] = (KEYWORD,)
    if not isinstance(own, Mapping) or set(own) != {"rotate"}:
        return [(where, "the state schema's own x-verify declares seat symmetry; "
                        + _ROTATE_SYNTAX)]
    rotate = own["rotate"]
    where = (KEYWORD, "rotate")
    if (not isinstance(rotate, Mapping) or not set(rotate) <= set(_SEAT_KINDS)
            or not all(isinstance(v, list) and all(isinstance(p, str) for p in v)
                       for v in rotate.values())):
        return [(where, "rotate must map seats and seat to lists of field paths; "
                        + _ROTATE_SYNTAX)]
    problems: list[tuple[tuple[str | int, ...], str]] = []
    seen: dict[str, str] = {}
    for kind in _SEAT_KINDS:
        for i, path in enumerate(rotate.get(kind) or []):
            parts = path.split(".")
            if not path or not all(parts) or not _names_property(schema, parts):
                problems.append(((*where, kind, i), f"rotate {kind}: {path!r} names no property "
                                 "of the state schema; write a dotted path, * for every item of "
                                 "a list, for example result.scores or history.*.winner"))
            elif path in seen:
                problems.append(((*where, kind, i), f"rotate lists {path} twice ({seen[path]} and "
                                 f"{kind}); a field is a list by seat or names seats"))
            seen.setdefault(path, kind)
    if not seen and not problems:
        problems.append((where, "rotate lists no field: name the lists by seat (seats) and the "
                                "fields that name seats (seat), or the rotation changes nothing"))
    return problems


def declared_seats(spec: Any) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Return the seat fields of a spec that declares its seats interchangeable up to the turn
    order: (lists by seat, fields naming seats); None when it does not declare it."""
    data: Mapping[str, Any] = spec if isinstance(spec, Mapping) else spec.data
    problems = _rotate_problems(data)
    if problems:
        where, message = problems[0]
        raise ViewDeclarationError(f"state.schema.{'.'.join(map(str, where))}: {message}")
    rotate = _rotate(data)
    if rotate is None:
        return None
    return (tuple(rotate.get("seats") or ()), tuple(rotate.get("seat") or ()))


def _keep_source(text: str) -> str | None:
    if text.startswith("keep(") and text.endswith(")"):
        return text[len("keep("):-1].strip()
    return None


def _term_problem(term: Declared, parameters: frozenset[str]) -> str | None:
    """Return what is wrong with one term (None: it reads)."""
    source = _keep_source(term.text)
    if source is not None:
        return _keep_problem(term, source)
    match = _FIELD_TERM.match(term.text)
    if match is None:
        return f"x-verify term {term.text!r} of {term.field} cannot be read; {_SYNTAX}"
    name = match.group(3)
    if name is not None and name not in parameters:
        return (f"x-verify term {term.text!r} of {term.field}: the game has no parameter "
                f"{name!r}; its parameters are {', '.join(sorted(parameters)) or 'none'}")
    return None


def _keep_problem(term: Declared, source: str) -> str | None:
    from rulespec.spec.celparse import Unsupported, parse
    from rulespec.spec.expressions import ExpressionError, compile_expression

    if not source:
        return (f"x-verify term keep() of {term.field}: write the expression to keep, for "
                f"example keep(size(state.{term.field}))")
    try:
        compile_expression(source, _VARIABLES)
        parse(source)
    except ExpressionError as exc:
        return (f"x-verify term keep({source}) of {term.field}: {exc}; a kept expression reads "
                "state, params and config (and, kept over a move, prev and action)")
    except Unsupported as exc:
        return (f"x-verify term keep({source}) of {term.field}: the verifier cannot read this "
                f"expression ({exc}); write it as the invariants do")
    reads = re.compile(rf"\b(?:state|prev)\.{re.escape(term.field)}\b")
    if not reads.search(source):
        return (f"x-verify term keep({source}) stands beside {term.field} but does not read it "
                f"(state.{term.field} or prev.{term.field}); put a kept summary beside the "
                "field it summarises")
    return None


def check_views(data: Mapping[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    """Return (location below ``state.schema``, message) for each ``x-verify`` problem: a term
    that does not parse, a ``cap`` naming no parameter of the game, a ``keep`` that does not
    compile or does not read its field, two field terms on one field."""
    terms, problems = declarations(data)
    problems += _rotate_problems(data)
    parameters = frozenset(str(p.get("id")) for p in data.get("parameters") or []
                           if isinstance(p, Mapping))
    kinds: dict[str, str] = {}
    for term in terms:
        where = (*term.where, term.index)
        problem = _term_problem(term, parameters)
        if problem is not None:
            problems.append((where, problem))
            continue
        if _keep_source(term.text) is None:
            kind = term.text.split("(")[0]
            if term.field in kinds:
                problems.append((where, f"x-verify gives {term.field} two terms ({kinds[term.field]} "
                                        f"and {kind}); a field takes one of forget, last, "
                                        "relative and cap, and any number of keep"))
            kinds.setdefault(term.field, kind)
    return problems


def _as_view_term(term: Declared, params: Mapping[str, Any]) -> str:
    if _keep_source(term.text) is not None:
        return term.text
    match = _FIELD_TERM.match(term.text)
    if match is None:
        raise ViewDeclarationError(f"x-verify term {term.text!r} of {term.field} cannot be "
                                   f"read; {_SYNTAX}")
    kind, ceiling, name = match.groups()
    if kind == "forget":
        return term.field
    if kind is not None:
        return f"{kind}({term.field})"
    if name is not None:
        value = params.get(name)
        if type(value) is not int or value < 0:
            shown = "absent" if name not in params else repr(value)[:60]
            raise ViewDeclarationError(f"x-verify term {term.text!r} of {term.field}: the "
                                       f"configuration's parameter {name} is {shown}, not a "
                                       "whole number; pass the configuration's parameters "
                                       "with the defaults filled in")
    return f"cap({term.field}, {ceiling})"


def declared_view_terms(spec: Any, params: Mapping[str, Any]) -> tuple[str, ...]:
    """Return the view the spec declares, as ``rulespec verify --view`` terms, state schema order.

    ``spec`` is a :class:`rulespec.spec.Spec` (or its ``data`` mapping); ``params`` are the
    configuration's parameters with defaults filled in: a ``cap(params.NAME)`` needs NAME to be
    a whole number there (ViewDeclarationError says which is not). The ceiling is returned as
    written (``cap(scores, params.target_score)``); the verifier reads it when it binds the
    view. () when the spec declares no view.
    """
    data: Mapping[str, Any] = spec if isinstance(spec, Mapping) else spec.data
    terms, problems = declarations(data)
    if problems:
        where, message = problems[0]
        raise ViewDeclarationError(f"state.schema.{'.'.join(map(str, where))}: {message}")
    return tuple(dict.fromkeys(_as_view_term(t, params) for t in terms))
