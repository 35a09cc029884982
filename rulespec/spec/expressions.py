"""Invariant expressions in CEL (Common Expression Language): compile once, evaluate often."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import cel

from rulespec.spec.errors import RulespecError


class ExpressionError(RulespecError):
    """An expression that does not compile or does not evaluate to a boolean."""


def _sum(values: list[Any]) -> Any:
    return sum(values)


def _max(values: list[Any]) -> Any:
    return max(values) if values else 0


def _min(values: list[Any]) -> Any:
    return min(values) if values else 0


def _count(values: list[Any], item: Any) -> int:
    return sum(1 for v in values if v == item)


def _distinct(values: list[Any]) -> bool:
    return len({repr(v) for v in values}) == len(values)


#: Functions CEL lacks that invariants over game states need (totals over players, counts).
FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "sum": _sum,
    "max_of": _max,
    "min_of": _min,
    "count": _count,
    "distinct": _distinct,
}

_MACRO_NAMES = frozenset({"all", "exists", "exists_one", "map", "filter", "has", "size", "int",
                          "uint", "double", "string", "bool", "type", "dyn", "matches",
                          "contains", "startsWith", "endsWith", "null", "true", "false", "in"})


@dataclass(frozen=True)
class Expression:
    """A compiled CEL expression."""

    source: str
    program: Any

    def evaluate(self, variables: Mapping[str, Any]) -> Any:
        """Evaluate against ``variables``; raise ExpressionError if evaluation fails."""
        try:
            return self.program.execute(cel.Context(dict(variables), dict(FUNCTIONS)))
        except Exception as exc:
            raise ExpressionError(f"{self.source!r} failed: {exc}") from None

    def evaluate_in(self, context: Any) -> Any:
        """Evaluate in a prepared ``make_context`` context (faster for many expressions)."""
        try:
            return self.program.execute(context)
        except Exception as exc:
            raise ExpressionError(f"{self.source!r} failed: {exc}") from None


def make_context(variables: Mapping[str, Any]) -> Any:
    """Build one evaluation context to share between expressions."""
    return cel.Context(dict(variables), dict(FUNCTIONS))


def compile_expression(source: str, allowed: Iterable[str]) -> Expression:
    """Compile ``source``; check it uses only the ``allowed`` variables and known functions."""
    try:
        program = cel.compile(source)
    except Exception as exc:
        raise ExpressionError(f"CEL syntax error in {source!r}: {exc}; fix the expression") from None
    allowed_set = set(allowed)
    try:
        refs = program.references()
    except Exception:
        refs = {"variables": [], "functions": []}
    bound = _comprehension_vars(source)
    for name in refs.get("variables", []):
        root = name.split(".")[0]
        if root not in allowed_set and root not in bound and root not in _MACRO_NAMES:
            raise ExpressionError(f"unknown variable {root!r} in {source!r}; use one of "
                                  f"{sorted(allowed_set)!r}")
    for name in refs.get("functions", []):
        if name.startswith("_") or name in FUNCTIONS or name in _MACRO_NAMES:
            continue
        if name in _CEL_BUILTINS:
            continue
        if name in _INSTEAD:
            raise ExpressionError(f"function {name!r} in {source!r} is not available in this "
                                  f"CEL; use {_INSTEAD[name]} instead")
        raise ExpressionError(f"unknown function {name!r} in {source!r}; CEL builtins and "
                              f"{sorted(FUNCTIONS)!r} are available")
    return Expression(source, program)


_CEL_BUILTINS = frozenset({"size", "has", "all", "exists", "exists_one", "map", "filter", "int",
                           "uint", "double", "string", "bool", "bytes", "type", "dyn", "matches",
                           "contains", "startsWith", "endsWith", "duration", "timestamp",
                           "@in", "in", "@not_strictly_false", "!_", "-_"})
#: Functions people reach for that this CEL lacks (they fail only when evaluated), and ours.
_INSTEAD = {"max": "max_of(list)", "min": "min_of(list)"}


def _comprehension_vars(source: str) -> set[str]:
    import re

    return set(re.findall(r"\.(?:all|exists|exists_one|map|filter)\(\s*([A-Za-z_]\w*)\s*,", source))
