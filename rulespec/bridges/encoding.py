"""A stable integer numbering of a game's actions, derived from the spec's action schemas.

Each action kind of the spec (in spec order) gets a block of ids. Inside a block, an action is a
mixed-radix number over its parameters sorted by name (the last name varies fastest); each
parameter's digit is the position of its value in the parameter's domain:

- ``const``: the one value; ``enum``: the listed values in order; ``boolean``: false, true;
- ``integer`` with ``minimum`` and ``maximum``: the integers between them, ascending;
- a parameter the schema does not require: first "absent", then its domain.

The numbering depends on the spec alone (not on the player count or the rulings), so an id means
the same action in every configuration of a game; a spec whose action parameter has no finite
domain cannot be numbered, and :class:`EncodingError` says which parameter to bound.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulespec.reference.core import Action
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

_ABSENT = object()


class EncodingError(RulespecError):
    """An action the encoding cannot number (unbounded parameter, unknown kind or value)."""


def _key(value: Any) -> tuple[type, Any]:
    # The type keeps JSON types apart: true is not 1, and 1.0 is not 1 (domains are scalars).
    return (type(value), value)


def _hashable(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


@dataclass(frozen=True)
class Param:
    """One parameter of an action kind and its ordered domain."""

    name: str
    values: tuple[Any, ...]
    optional: bool

    @property
    def size(self) -> int:
        """Return the number of digits values (absent included)."""
        return len(self.values) + (1 if self.optional else 0)


@dataclass(frozen=True)
class Kind:
    """One action kind: its first id and its parameters."""

    id: str
    offset: int
    params: tuple[Param, ...]
    index: Mapping[str, Mapping[tuple[type, Any], int]]

    @property
    def size(self) -> int:
        """Return how many ids the kind takes."""
        n = 1
        for p in self.params:
            n *= p.size
        return n


def _domain(spec: Spec, kind: str, name: str, schema: Mapping[str, Any]) -> tuple[Any, ...]:
    if "const" in schema:
        return (schema["const"],)
    if "enum" in schema:
        return tuple(schema["enum"])
    if schema.get("type") == "boolean":
        return (False, True)
    if schema.get("type") == "integer" and "minimum" in schema and "maximum" in schema:
        return tuple(range(int(schema["minimum"]), int(schema["maximum"]) + 1))
    raise EncodingError(f"{spec.path}: action {kind!r}: parameter {name!r} has no finite domain "
                        "to number; give it an enum, a const, or an integer minimum and maximum")


class ActionEncoding:
    """The numbering of one spec's actions: ``encode`` and ``decode`` are inverse."""

    def __init__(self, spec: Spec) -> None:
        kinds: list[Kind] = []
        offset = 0
        for action in spec.section("actions"):
            kid = str(action["id"])
            schema = action.get("params", {})
            required = set(schema.get("required", ()))
            params: list[Param] = []
            for name in sorted(schema.get("properties", {})):
                if name == "kind":
                    continue
                values = _domain(spec, kid, name, schema["properties"][name])
                params.append(Param(name, values, name not in required))
            index = {p.name: {_key(v): i for i, v in enumerate(p.values)} for p in params}
            kind = Kind(kid, offset, tuple(params), index)
            kinds.append(kind)
            offset += kind.size
        self.game = spec.game_id
        self.kinds: dict[str, Kind] = {k.id: k for k in kinds}
        self._order: list[Kind] = kinds
        self.size = offset

    def encode(self, action: Action) -> int:
        """Return the id of ``action``; EncodingError if it is not in the numbering."""
        kind = self.kinds.get(str(action.get("kind"))) if isinstance(action, dict) else None
        if kind is None:
            raise EncodingError(f"{self.game}: cannot number {action!r}: unknown action kind")
        extra = set(action) - {"kind"} - {p.name for p in kind.params}
        if extra:
            raise EncodingError(f"{self.game}: cannot number {action!r}: unknown keys "
                                f"{sorted(extra)!r}")
        number = 0
        for p in kind.params:
            if p.name in action:
                value = action[p.name]
                digit = kind.index[p.name].get(_key(value)) if _hashable(value) else None
                if digit is None:
                    raise EncodingError(f"{self.game}: cannot number {action!r}: {p.name} = "
                                        f"{action[p.name]!r} is outside its domain")
                digit += 1 if p.optional else 0
            elif p.optional:
                digit = 0
            else:
                raise EncodingError(f"{self.game}: cannot number {action!r}: {p.name!r} "
                                    "is missing")
            number = number * p.size + digit
        return kind.offset + number

    def decode(self, number: int) -> Action:
        """Return the action with id ``number``; EncodingError if there is none."""
        if not 0 <= number < self.size:
            raise EncodingError(f"{self.game}: action id {number!r} is outside 0..{self.size - 1}")
        kind = next(k for k in reversed(self._order) if k.offset <= number)
        rest = number - kind.offset
        values: dict[str, Any] = {}
        for p in reversed(kind.params):
            rest, digit = divmod(rest, p.size)
            if p.optional:
                if digit:
                    values[p.name] = p.values[digit - 1]
            else:
                values[p.name] = p.values[digit]
        return {"kind": kind.id, **dict(reversed(values.items()))}

    def table(self) -> list[tuple[str, int, int, Sequence[str]]]:
        """Return (kind, first id, id count, parameter names) per kind, for documentation."""
        return [(k.id, k.offset, k.size, [p.name for p in k.params]) for k in self._order]
