"""Invariant expressions in CEL (Common Expression Language): compile once, evaluate often."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cel

from rulespec.spec.celcompile import STATS, Fast, compile_cel, result
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
    """A compiled CEL expression: a Python closure (``celcompile``) with the library's program as
    the exact fallback, so results and error messages are the library's."""

    source: str
    program: Any
    #: The compiled fast path (None: the expression always runs on the library).
    fast: Fast | None = field(default=None, compare=False, repr=False)

    def evaluate(self, variables: Mapping[str, Any]) -> Any:
        """Evaluate against ``variables``; raise ExpressionError if evaluation fails."""
        if self.fast is not None:
            try:
                return result(self.fast(variables))
            except Exception:  # the library decides: an error, or a case the fast path leaves
                STATS["fallback"] += 1
        try:
            return self.program.execute(cel.Context(dict(variables), dict(FUNCTIONS)))
        except Exception as exc:
            raise ExpressionError(f"{self.source!r} failed: {exc}") from None

    def evaluate_in(self, context: Any) -> Any:
        """Evaluate in a prepared ``make_context`` context (faster for many expressions)."""
        if type(context) is Context:
            if self.fast is not None:
                try:
                    return result(self.fast(context.variables))
                except Exception:
                    STATS["fallback"] += 1
            context = context.cel()
        try:
            return self.program.execute(context)
        except Exception as exc:
            raise ExpressionError(f"{self.source!r} failed: {exc}") from None


class Context:
    """Variables shared by several evaluations; the library's context is built only if one of
    them falls back to the library (building it converts every variable to CEL values)."""

    __slots__ = ("_cel", "variables")

    def __init__(self, variables: Mapping[str, Any]) -> None:
        self.variables = dict(variables)
        self._cel: Any = None

    def cel(self) -> Any:
        """Return the ``cel.Context`` of these variables (built once)."""
        if self._cel is None:
            self._cel = cel.Context(dict(self.variables), dict(FUNCTIONS))
        return self._cel


def make_context(variables: Mapping[str, Any]) -> Context:
    """Build one evaluation context to share between expressions."""
    return Context(variables)


def compile_expression(source: str, allowed: Iterable[str]) -> Expression:
    """Compile ``source``; check it uses only the ``allowed`` variables and known functions."""
    allowed_set = frozenset(allowed)
    if not isinstance(source, str):  # not cached: the library reports it
        return _compile.__wrapped__(source, allowed_set)
    return _compile(source, allowed_set)


@lru_cache(maxsize=4096)
def _compile(source: str, allowed_set: frozenset[str]) -> Expression:
    # Cached: rule examples and trace expectations compile their expressions at every check.
    try:
        program = cel.compile(source)
    except Exception as exc:
        raise ExpressionError(f"CEL syntax error in {source!r}: {exc}; fix the expression") from None
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
    return Expression(source, program, compile_cel(source, FUNCTIONS))


_CEL_BUILTINS = frozenset({"size", "has", "all", "exists", "exists_one", "map", "filter", "int",
                           "uint", "double", "string", "bool", "bytes", "type", "dyn", "matches",
                           "contains", "startsWith", "endsWith", "duration", "timestamp",
                           "@in", "in", "@not_strictly_false", "!_", "-_"})
#: Functions people reach for that this CEL lacks (they fail only when evaluated), and ours.
_INSTEAD = {"max": "max_of(list)", "min": "min_of(list)"}


def _comprehension_vars(source: str) -> set[str]:
    import re

    return set(re.findall(r"\.(?:all|exists|exists_one|map|filter)\(\s*([A-Za-z_]\w*)\s*,", source))
