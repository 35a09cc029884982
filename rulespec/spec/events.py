"""A spec's declared events (``events:``), compiled, and the CEL text helpers they use.

Below the conformance kit, so that both the kit (coverage, steering) and ``rulespec diff``
(which evaluates a new spec's events on replayed states) use one compiler.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulespec.spec.expressions import Expression, compile_expression
from rulespec.spec.model import Spec
from rulespec.spec.validate import EVENT_VARIABLES


@dataclass(frozen=True)
class Event:
    """A rare event of play the spec declares (``events:``), compiled."""

    ident: str
    name: str
    clauses: tuple[str, ...]
    description: str
    kinds: frozenset[str] | None
    when: Expression
    #: The fields of ``before`` and ``after`` the expression reads (None: the whole state).
    fields: frozenset[str] | None = None
    #: True when it can only show on the step that ends the game (``ends_a_game``).
    at_end: bool = False


def compile_events(spec: Spec) -> list[Event]:
    """Return the spec's declared events, their ``when`` expressions compiled."""
    return [Event(str(e["id"]), str(e["name"]), tuple(str(c) for c in e["clauses"]),
                  str(e["description"]), frozenset(e["kinds"]) if e.get("kinds") else None,
                  compile_expression(str(e["when"]), EVENT_VARIABLES),
                  fields_read(str(e["when"]), ("before", "after")), ends_a_game(str(e["when"])))
            for e in spec.section("events")]


def fields_read(source: str, roots: Sequence[str]) -> frozenset[str] | None:
    """Return the top-level fields of the ``roots`` variables an expression reads, or None when
    it uses one of them whole (then every field is needed).

    Evaluating an expression converts its variables to CEL values, which costs as much as the
    states are large; an event reads a few fields of them.
    """
    import re

    fields: set[str] = set()
    for match in re.finditer(r"\b(" + "|".join(roots) + r")\b(\s*\.\s*([A-Za-z_]\w*))?",
                             source):
        if match.group(3) is None:
            return None
        fields.add(match.group(3))
    return frozenset(fields)


def slim(state: Mapping[str, Any], fields: frozenset[str] | None) -> Mapping[str, Any]:
    """Return the part of ``state`` an expression reads (``fields_read``)."""
    if fields is None:
        return state
    return {k: state[k] for k in fields if k in state}


def split_or(source: str) -> list[str]:
    """Split a CEL expression at its top-level ``||`` (outside brackets and strings)."""
    return split_top(source, "||")


def ends_a_game(source: str) -> bool:
    """Return True when a CEL expression over ``after`` can hold only on a finished game: one
    of its top-level ``&&`` operands is ``after.result != null`` (and it has no top-level
    ``||`` or ``?``, which would let the other side decide)."""
    if len(split_top(source, "||")) > 1 or len(split_top(source, "?")) > 1:
        return False
    wanted = {"after.result!=null", "null!=after.result"}
    return any("".join(part.split()) in wanted for part in split_top(source, "&&"))


def split_top(source: str, operator: str) -> list[str]:
    """Split a CEL expression at ``operator`` where it stands at the top level (outside
    brackets and strings)."""
    parts: list[str] = []
    depth = 0
    quote: str | None = None
    start = i = 0
    while i < len(source):
        ch = source[i]
        if quote is not None:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth == 0 and source.startswith(operator, i):
            parts.append(source[start:i].strip())
            start = i + len(operator)
            i += len(operator) - 1
        i += 1
    parts.append(source[start:].strip())
    return parts


def premise_of(expression: str) -> str | None:
    """Return the premise of an invariant written ``A || B || C`` (``!(A || B)``: the case where
    the last part is what must hold), or None when the expression has no such guard."""
    parts = split_or(expression)
    if len(parts) < 2:
        return None
    return "!(" + " || ".join(f"({p})" for p in parts[:-1]) + ")"
