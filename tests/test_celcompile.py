"""The CEL compiler's semantic corners: each case is one a plain Python translation gets wrong.

Every case is checked three ways: the compiled fast path alone (it must give the value itself, or
refuse), the public ``Expression.evaluate`` and the ``cel`` library (the two must agree, error
message included)."""

from __future__ import annotations

import re
from typing import Any

import cel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespec.spec.celcompile import STATS, compile_cel
from rulespec.spec.expressions import FUNCTIONS, ExpressionError, compile_expression, make_context
from tests.support import benchmark_script, same_json

VARS: dict[str, Any] = {
    "state": {"xs": [1, 2, 3], "flag": True, "none": None, "big": 2 ** 62, "name": "héllo",
              "m": {"b": 1, "a": 2}, "half": 0.5, "players": [{"seat": 0}, {"seat": 1}]},
}

#: (expression, the value CEL gives): the fast path must give it without the library.
VALUES = [
    ("-7 / 2", -3),                  # Python's // floors to -4
    ("7 / -2", -3),
    ("-7 % 2", -1),                  # Python's % gives 1
    ("7 % -2", 1),                   # Python's % gives -1
    ("true == 1", False),            # Python: True == 1
    ("1 in [true]", False),          # Python: 1 in [True]
    ("state.flag == 1", False),
    ("1 == null", False),
    ("state.none == null", True),
    ("[1, 2] + [3] == [1, 2, 3]", True),
    ("{'a': 1} == {'a': 1}", True),
    ("[0, 1].exists(x, x == 1)", True),
    ("[1, 0].all(x, 1 / x > 5)", False),   # stops at the first false, as the library does
    ("state.players.map(p, p.seat > 0, p.seat * 10)", [10]),
    ("[1, 2, 3].filter(x, x % 2 == 1)", [1, 3]),
    ("[1, 1].exists_one(x, x == 1)", False),
    ("string(-3) + 'x'", "-3x"),
    ("has(state.m.a) && !has(state.m.c)", True),
    ("size(state.xs) + state.xs.size()", 6),
    ("'abc'.startsWith('ab') && 'abc'.endsWith('bc') && 'abc'.contains('b')", True),
    ("-9223372036854775808 < 0", True),
    ("sum(state.xs) == 6 && max_of(state.xs) == 3 && count(state.xs, 2) == 1", True),
    ("state.half + 0.25", 0.75),
    ("true ? 'y' : 1 / 0", "y"),     # the branch not taken is not evaluated
    ("'a' < 'b' && false < true", True),
]

#: Expressions the library fails on: the fast path must refuse them too, and the public error
#: is the library's.
ERRORS = [
    "1 + 1.0",                       # no int/double mixing in arithmetic (Python: 2.0)
    "2 * state.half",
    "true + 1",                      # bool is not a number (Python: 2)
    "true < 1",
    "9223372036854775807 + 1",       # 64-bit overflow (Python: a big int)
    "state.big * 4",
    "-9223372036854775807 - 2",
    "5 / 0",
    "5 % 0",
    "3.0 % 2.0",                     # no double modulo
    "state.missing",                 # a missing field is an error (not null)
    "{'a': 1}['b']",
    "[1, 2][-1]",                    # no negative index (Python: 2)
    "[1, 2][2]",
    "[1, 2][true]",                  # bool is not an index (Python: [1, 2][True] == 2)
    "!5",                            # ! takes a bool only (Python: not 5 is False)
    "5 ? 1 : 2",
    "true && 5",                     # && takes bools (Python: 5)
    "false || 5",
    "[0, 1].all(x, 1 / x > 5)",      # the library does not absorb errors in comprehensions
    "[1, 2].all(x, 5)",
    "[1, 0].exists_one(x, 1 / x == 1)",
    "'a' + 1",
    "size(5)",
    "1 < 2 < 3",                     # relations do not chain (Python: True)
    "unknown_var == 1",
]

#: Errors ``&&``/``||`` absorb when the other side decides, and non-bools they ignore then.
ABSORBED = [
    ("false && 1 / 0 == 1", False),
    ("1 / 0 == 1 && false", False),          # a left-to-right Python `and` raises here
    ("state.missing == 1 && false", False),
    ("state.missing == 1 || true", True),
    ("5 && false", False),
    ("5 || true", True),
    ("(state.none.x == 1 || state.xs[0] == 1) && size(state.xs) == 3", True),
    # Two values that are not literals: same-type scalars compare inline, the rest via _eq.
    ("state.xs[0] == state.m.b", True),
    ("state.xs[1] != state.m.a", False),
    ("state.name == state.name", True),
    ("state.name != state.players[0].seat", True),
    ("state.flag == state.xs[0]", False),    # Python: True == 1
    ("state.none == state.none", True),
    ("state.half == state.half", True),
    ("state.xs == state.xs", True),
    ("state.players[0] != state.players[1]", True),
]

#: Cases the fast path hands to the library, which decides (a value here, not an error).
DELEGATED = [
    ("1 == 1.0", True),                      # int and double compare by value
    ("[1] == [1.0]", True),
    ("1 < 1.5", True),                       # the library orders int against double
    ("size(state.name)", 6),                 # the library counts a string's UTF-8 bytes
    ("1 in [1.0]", True),
]


def library(source: str) -> tuple[bool, Any]:
    try:
        return True, cel.compile(source).execute(cel.Context(dict(VARS), dict(FUNCTIONS)))
    except Exception as exc:
        return False, str(exc)


def same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


@pytest.mark.parametrize(("source", "want"), VALUES)
def test_the_fast_path_computes_cel_values(source: str, want: Any) -> None:
    fast = compile_cel(source, FUNCTIONS)
    assert fast is not None
    assert same(fast(VARS), want)
    assert library(source) == (True, want)
    assert same(compile_expression(source, ["state"]).evaluate(VARS), want)


@pytest.mark.parametrize("source", ERRORS)
def test_cel_errors_are_refused_and_reported_as_the_library_does(source: str) -> None:
    fast = compile_cel(source, FUNCTIONS)
    assert fast is not None
    with pytest.raises(Exception):  # noqa: B017 - any refusal: the library then decides
        fast(VARS)
    ok, message = library(source)
    assert not ok
    expr = compile_expression(source, ["state", "unknown_var"])
    for evaluate in (expr.evaluate, lambda v: expr.evaluate_in(make_context(v))):
        with pytest.raises(ExpressionError) as info:
            evaluate(VARS)
        assert str(info.value) == f"{source!r} failed: {message}"


@pytest.mark.parametrize(("source", "want"), ABSORBED)
def test_and_or_absorb_an_error_the_other_side_decides(source: str, want: bool) -> None:
    fast = compile_cel(source, FUNCTIONS)
    assert fast is not None
    assert fast(VARS) is want  # the second, absorbing closure decides without the library
    assert library(source) == (True, want)
    assert compile_expression(source, ["state"]).evaluate(VARS) is want


@pytest.mark.parametrize(("source", "want"), DELEGATED)
def test_cases_the_fast_path_does_not_model_go_to_the_library(source: str, want: Any) -> None:
    fast = compile_cel(source, FUNCTIONS)
    assert fast is not None
    with pytest.raises(Exception):  # noqa: B017
        fast(VARS)
    assert library(source) == (True, want)
    before = STATS["fallback"]
    assert same(compile_expression(source, ["state"]).evaluate(VARS), want)
    assert STATS["fallback"] == before + 1


@pytest.mark.parametrize("source", ["1u + 2u == 3u", "b'ab' == b'ab'", "type(1) == int",
                                    "'abc'.matches('b')"])
def test_constructs_left_to_the_library_still_evaluate(source: str) -> None:
    before = STATS["unsupported"]
    assert compile_cel(source, FUNCTIONS) is None
    assert STATS["unsupported"] == before + 1
    ok, want = library(source)
    assert ok
    assert same(compile_expression(source, []).evaluate({}), want)


@pytest.mark.parametrize(("source", "want"), [
    ("'a\\n\\x41\\u00e9\\101' == \"a\\nA\u00e9A\"", True),
    ("r'a\\n' == 'a\\\\n'", True),
    ("'''it's''' == \"it's\"", True),
    ("0x10 == 16 && 1e2 == 100.0 && .5 == 0.5", True),
    ("[1, 2,].size() == 2 && {'a': 1,}.size() == 1", True),
    ("!!true && --2 == 2", True),
    ("1 + 2 * 3 - 4 / 2 % 3 == 5", True),
    ("true || false && false", True),
    ("false ? 1 : true ? 2 : 3", 2),
    ("[[1, 2], [3]][0][1]", 2),
])
def test_literals_and_precedence_parse_as_cel_does(source: str, want: Any) -> None:
    fast = compile_cel(source, FUNCTIONS)
    assert fast is not None
    assert same(fast({}), want)
    assert library(source) == (True, want)


def test_a_comprehension_over_a_map_runs_over_its_keys_in_insertion_order() -> None:
    """The library takes a Python dict's keys in its hash map's order, which changes from one
    evaluation to the next; the compiled code takes the dict's order, one the library can give."""
    fast = compile_cel("state.m.map(k, k)", FUNCTIONS)
    assert fast is not None
    assert fast(VARS) == ["b", "a"]
    ok, value = library("state.m.map(k, k)")
    assert ok and sorted(value) == ["a", "b"]


def test_results_are_copies_not_the_callers_state() -> None:
    expr = compile_expression("state.xs", ["state"])
    value = expr.evaluate(VARS)
    assert value == [1, 2, 3] and value is not VARS["state"]["xs"]


def test_the_library_context_is_built_only_for_a_fallback() -> None:
    context = make_context(VARS)
    assert compile_expression("size(state.xs) == 3", ["state"]).evaluate_in(context) is True
    assert context._cel is None
    assert compile_expression("1 == 1.0", []).evaluate_in(context) is True
    assert context._cel is not None


# -- random expressions: compiled and library agree, errors included ------------------------------

RANDOM_VARS: dict[str, Any] = {
    "i": 3, "j": -7, "z": 0, "big": 2 ** 62, "f": 2.5, "t": True, "n": None, "s": "ab",
    "xs": [1, 2, 3], "ys": [1.0, True, "x", None], "m": {"a": 1, "b": [2]}, "e": [],
}
_ATOMS = ["i", "j", "z", "big", "f", "t", "n", "s", "xs", "ys", "m", "e", "0", "1", "-1", "2.0",
          "true", "false", "null", "'a'", "'ab'", "[]", "[1, 2]", "{'a': 1}", "m.a", "m.b",
          "m.c", "xs[0]", "xs[3]", "m['a']"]


def _bind(body: str) -> str:
    """Make the comprehension's body read its variable (the first ``i`` becomes ``x``)."""
    return re.sub(r"\bi\b", "x", body, count=1)


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "in", "+", "-", "*", "/",
                                  "%", "&&", "||"])
        return st.one_of(
            st.tuples(inner, binary, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(["!", "-"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} ? {t[1]} : {t[2]})"),
            st.tuples(st.sampled_from(["xs", "ys", "e", "[i, j]"]),
                      st.sampled_from(["all", "exists", "exists_one", "map", "filter"]),
                      inner).map(lambda t: f"{t[0]}.{t[1]}(x, {_bind(t[2])})"),
            st.tuples(st.sampled_from(["size", "string", "sum", "max_of", "count"]),
                      inner).map(lambda t: f"{t[0]}({t[1]}{', 1' if t[0] == 'count' else ''})"),
            st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}][{t[0]}]"),
        )
    return st.recursive(st.sampled_from(_ATOMS), extend, max_leaves=5)


@settings(max_examples=300, deadline=None)
@given(_expressions())
def test_random_expressions_evaluate_as_the_library_does(source: str) -> None:
    try:
        program = cel.compile(source)
    except Exception:
        return  # not CEL: compile_expression reports it before any evaluation
    try:
        ok, want = True, program.execute(cel.Context(dict(RANDOM_VARS), dict(FUNCTIONS)))
    except Exception as exc:
        ok, want = False, str(exc)
    expr = compile_expression(source, list(RANDOM_VARS))
    assert expr.fast is not None, source
    try:
        got = expr.evaluate(RANDOM_VARS)
    except ExpressionError as exc:
        assert not ok and str(exc) == f"{source!r} failed: {want}", source
    else:
        assert ok and same_json(got, want), (source, got, want)




def test_the_micro_benchmark_prints_a_row_per_game(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/cel_eval.py on a tiny budget: both ways measured, no fallback on a real state."""
    module = benchmark_script("cel_eval")
    assert module.main(["ruby-rhino", "--seconds", "0.01", "--rounds", "1", "--at", "10"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.startswith("ruby-rhino"))
    _, count, slow, fast, ratio, fallbacks = row.split()
    assert int(count) > 0 and float(fallbacks) == 0
    assert float(ratio) == pytest.approx(float(slow) / float(fast), rel=0.1, abs=0.1)
