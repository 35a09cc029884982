"""CEL expressions: what compiles, what is refused at compile time, and the custom functions."""

from __future__ import annotations

import pytest

from rulespec.spec.expressions import ExpressionError, compile_expression, make_context


@pytest.mark.parametrize(("name", "instead"), [("max", "max_of"), ("min", "min_of")])
def test_max_and_min_are_refused_at_compile_time_with_the_function_to_use(
        name: str, instead: str) -> None:
    """CEL's max/min are not in this CEL: a spec using them must fail validation, not play."""
    with pytest.raises(ExpressionError, match=instead):
        compile_expression(f"{name}([1, 2]) == 2", ["state"])


def test_custom_functions_evaluate() -> None:
    """sum, max_of, min_of, count and distinct work on lists from the state."""
    expr = compile_expression(
        "sum(state.xs) == 6 && max_of(state.xs) == 3 && min_of(state.xs) == 1 "
        "&& count(state.xs, 2) == 1 && distinct(state.xs)", ["state"])
    assert expr.evaluate({"state": {"xs": [1, 2, 3]}}) is True
    assert expr.evaluate_in(make_context({"state": {"xs": [1, 2, 2]}})) is False
