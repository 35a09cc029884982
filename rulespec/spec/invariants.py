"""Evaluate a spec's invariants against canonical states and transitions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rulespec.spec.expressions import Expression, ExpressionError, compile_expression, make_context
from rulespec.spec.model import Spec
from rulespec.spec.validate import INVARIANT_VARIABLES


@dataclass(frozen=True)
class Violation:
    """An invariant that did not hold, with its clauses and what happened."""

    invariant: str
    clauses: tuple[str, ...]
    description: str
    detail: str

    def __str__(self) -> str:
        return (f"invariant {self.invariant} ({', '.join(self.clauses)}) violated: "
                f"{self.description} [{self.detail}]")


@dataclass(frozen=True)
class _Compiled:
    ident: str
    scope: str
    clauses: tuple[str, ...]
    description: str
    expression: Expression


class Invariants:
    """The compiled invariants of one spec."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self._items = [
            _Compiled(str(inv["id"]), str(inv["scope"]), tuple(inv["clauses"]),
                      str(inv["description"]),
                      compile_expression(str(inv["expression"]), INVARIANT_VARIABLES[inv["scope"]]))
            for inv in spec.section("invariants")
        ]

    @property
    def ids(self) -> list[str]:
        """Return the invariant ids in spec order."""
        return [i.ident for i in self._items]

    def check(
        self,
        state: Mapping[str, Any],
        *,
        prev: Mapping[str, Any] | None = None,
        action: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        config: Mapping[str, Any] | None = None,
    ) -> list[Violation]:
        """Check the state invariants, the transition ones when ``prev`` is given, and the
        terminal ones when the state carries a result."""
        variables: dict[str, Any] = {"state": state, "params": dict(params or {}),
                                     "config": dict(config or {})}
        if prev is not None:
            variables["prev"] = prev
            variables["action"] = dict(action or {})
        context = make_context(variables)
        terminal = state.get("result") is not None
        out: list[Violation] = []
        for item in self._items:
            if item.scope == "transition" and prev is None:
                continue
            if item.scope == "terminal" and not terminal:
                continue
            try:
                value = item.expression.evaluate_in(context)
            except ExpressionError as exc:
                out.append(Violation(item.ident, item.clauses, item.description,
                                     f"could not evaluate: {exc}"))
                continue
            if value is not True:
                out.append(Violation(item.ident, item.clauses, item.description,
                                     f"expression {item.expression.source!r} gave {value!r}"))
        return out
