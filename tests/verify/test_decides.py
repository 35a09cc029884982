"""Which invariants a view's key still decides (``rulespec.verify.decides``), and how the view
keys a state (``rulespec.verify.keys.View``).

The cases are the forms the specs' invariants use: Pig's turn counts (PIG-INV-TURNS,
PIG-INV-EQUAL-TURNS), Dado de Ouro's last re-roll pass (DDO-INV-MAX-TIEBREAK,
DDO-INV-OPENING-WINNER) and draw repetition (DDO-INV-DRAW-WINNER), the Ruby Rhino's round
number (RR-INV-ROUND-STEP); the Ruby Rhino's record of finished rounds summarised by kept
expressions (RR-INV-ROUND-WINNER, RR-INV-ROUND-COUNT, RR-INV-SCORES-FROM-ROUNDS,
RR-INV-SCORE-CHANGE, RR-INV-WINNER); Pig's turn total and scores capped at the target, with
what PIG-INV-SCORES, PIG-INV-ADD and PIG-INV-WINNER read of them kept over states and moves; and
forms that look alike but are not decided.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from rulespec.spec.expressions import compile_expression
from rulespec.verify.decides import Abstraction, decides
from rulespec.verify.keys import View, ViewError

TURNS = Abstraction(relative=("turns",))
ROUND = Abstraction(relative=("round",), numbers=frozenset({"round"}))
LAST = Abstraction(last=("passes",))
CAP = Abstraction(cap={"repetition": 2})
#: The Ruby Rhino's record of rounds forgotten, a summary of it kept (the published view).
LOG = Abstraction(forget=("history",), relative=("round",), numbers=frozenset({"round"}),
                  keep=("size(state.history) - state.round",
                        "state.history.all(h, h.coins_at_end[h.winner] == 0)",
                        "sum(state.history.map(h, h.points))",
                        "state.history[size(state.history) - 1].points"))


@pytest.mark.parametrize(("expression", "view"), [
    ("size(state.turns) == 2", TURNS),
    ("max_of(state.turns) - min_of(state.turns) <= 1", TURNS),  # PIG-INV-TURNS
    ("config.x != 'y' || max_of(state.turns) == min_of(state.turns)", TURNS),
    ("state.turns[0] - state.turns[1] < 2 && state.turns.all(t, t - state.turns[0] >= -1)", TURNS),
    ("state.turns == prev.turns || state.turns[1] == prev.turns[1] + 1", TURNS),
    ("state.round == prev.round || state.round == prev.round + 1", ROUND),  # RR-INV-ROUND-STEP
    ("size(state.passes) == 0 || state.passes[size(state.passes) - 1][0] == "
     "max_of(state.passes[size(state.passes) - 1].filter(f, f != null))", LAST),
    ("size(state.passes) > 0 && 0 < size(state.passes) && size(state.passes) >= 1", LAST),
    ("state.repetition > 1 && state.repetition != 0 && state.repetition < 2", CAP),
    ("state.other + 1 == 3 && has(state.turns)", TURNS),
    ("state.history.all(h,  h.coins_at_end[h.winner]==0) && config.players > 1", LOG),
    ("size(state.history) == state.round - 1 + (state.result != null ? 1 : 0)", LOG),
    ("sum(state.scores) == sum(state.history.map(h, h.points))", LOG),
    ("size(state.history) == size(prev.history) ? sum(state.scores) == sum(prev.scores)"
     " : sum(state.scores) == sum(prev.scores) + state.history[size(state.history) - 1].points",
     LOG),  # RR-INV-SCORE-CHANGE: the sizes move with the round, the last points are kept
    ("prev.history.all(h, h.coins_at_end[h.winner] == 0)", LOG),
])
def test_a_key_decides_what_reads_only_what_it_keeps(expression: str, view: Abstraction) -> None:
    assert decides(expression, view)


@pytest.mark.parametrize(("expression", "view"), [
    ("state.turns[0] <= 3", TURNS),  # a shifted count against a constant
    ("sum(state.turns) == 4", TURNS),
    ("state.turns.all(t, t >= 0)", TURNS),
    ("state.round == 1", ROUND),
    ("state.round - size(state.turns) == 0", Abstraction(relative=("round", "turns"),
                                                         numbers=frozenset({"round"}))),
    ("size(state.passes) == 2", LAST),
    ("state.passes[0] == 1", LAST),
    ("state.passes.all(p, p != null)", LAST),
    ("state.repetition > 2 || state.repetition == 5", CAP),
    ("state == prev", TURNS),  # the whole state
    ("has(state.turns.x)", TURNS),
    ("state.x.y", Abstraction(forget=("x",))),
    ("size(state) > 0 ? state.x : 1", Abstraction(forget=("x.y",))),
    ("state.round +", ROUND),  # not parsed: not decided
    ("state.history.all(h, h.coins_at_end[h.winner] == 1)", LOG),  # not the kept expression
    ("size(state.history) == 3", LOG),  # moves with the round: only differences are kept
    ("sum(state.history.map(h, h.reward))", LOG),
    ("state.history[0].points == 1", LOG),
    ("state.x.all(h, state.history.all(h, h.coins_at_end[h.winner] == 0))", LOG),
])
def test_a_key_leaves_undecided_what_reads_past_it(expression: str, view: Abstraction) -> None:
    assert not decides(expression, view)


def test_a_forgotten_fields_presence_is_decided_only_if_a_part_of_it_is_forgotten() -> None:
    assert decides("state.x != null", Abstraction(forget=("x.y",)))
    assert not decides("state.x != null", Abstraction(forget=("x",)))


def _random_state(rng: random.Random) -> dict[str, Any]:
    size = rng.randint(0, 3)
    return {"turns": [rng.randint(0, 3) for _ in range(2)],
            "passes": [[rng.randint(1, 2), rng.choice([None, 1, 2])] for _ in range(size)],
            "repetition": rng.randint(0, 4)}


EXPRESSIONS = [
    "max_of(state.turns) - min_of(state.turns) <= 1",
    "state.turns[0] <= 2",
    "size(state.passes) == 0 || state.passes[size(state.passes) - 1][0] == 2",
    "size(state.passes) == 1",
    "state.repetition > 1",
    "state.repetition > 2",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_what_is_decided_agrees_on_every_pair_of_states_with_one_key(expression: str) -> None:
    """Semantic check of the syntactic rule: when ``decides`` says yes, no two states with equal
    keys disagree; when it says no, some pair does (on these small states)."""
    view = View(["relative(turns)", "last(passes)", "cap(repetition, 2)"])
    states = [_random_state(random.Random(seed)) for seed in range(400)]
    view.check(states[0])
    compiled = compile_expression(expression, ["state"])
    by_key: dict[str, set[Any]] = {}
    for state in states:
        key = repr(view.apply(state))
        by_key.setdefault(key, set()).add(compiled.evaluate({"state": state}))
    split = any(len(values) > 1 for values in by_key.values())
    assert decides(expression, view.abstraction()) == (not split)


def _random_log(rng: random.Random) -> dict[str, Any]:
    rounds = rng.randint(0, 3)
    return {"round": rounds + rng.randint(1, 2),
            "history": [{"winner": rng.randint(0, 1), "points": rng.randint(0, 2)}
                        for _ in range(rounds)]}


LOG_KEEP = ["history", "relative(round)", "keep(size(state.history) - state.round)",
            "keep(state.history.all(h, h.points > 0))",
            "keep(state.history[size(state.history) - 1].winner)"]


@pytest.mark.parametrize("expression", [
    "state.history.all(h, h.points > 0)",
    "state.history[size(state.history) - 1].winner == 1",
    "size(state.history) == state.round - 1",
    "state.history.all(h, h.points > 1)",
    "size(state.history) == 2",
    "state.history[0].winner == 1",
])
def test_kept_expressions_decide_exactly_on_random_states(expression: str) -> None:
    """The same semantic check for ``keep(EXPR)``: a kept expression (or a difference it keeps
    against a relative counter) is decided, and a look-alike is not."""
    view = View(LOG_KEEP)
    states = [_random_log(random.Random(seed)) for seed in range(600)]
    view.check(states[0])
    compiled = compile_expression(expression, ["state"])
    by_key: dict[str, set[Any]] = {}
    for state in states:
        try:
            value = compiled.evaluate({"state": state})
        except Exception:
            value = "error"
        by_key.setdefault(repr(view.apply(state)), set()).add(repr(value))
    split = any(len(values) > 1 for values in by_key.values())
    assert decides(expression, view.abstraction()) == (not split)


def test_a_kept_expression_goes_into_the_key_and_is_undefined_where_it_fails() -> None:
    view = View(["history", "keep(state.history[size(state.history) - 1].winner)",
                 "keep(size(state.history) * params.k)"])
    view.bind({"k": 10}, {})
    # A value is kept as a list of one, a failure as an empty list: no value can pass for one.
    assert view.apply({"history": [], "round": 1}) == {"round": 1, "@keep": [[], [0]]}
    assert view.apply({"history": [{"winner": 1}], "round": 2})["@keep"] == [[1], [10]]
    assert view.apply({"history": [{"winner": []}], "round": 2})["@keep"] == [[[]], [10]]
    assert view.keep == ("state.history[size(state.history) - 1].winner",
                         "size(state.history) * params.k")


@pytest.mark.parametrize(("term", "message"), [
    ("keep()", "write the expression"),
    ("keep(next.round == 1)", "reads state, params and config"),
    ("keep(state.round +)", "keep"),
    ("keep(state.h.all(prev, prev.a > state.r))", "macro variable named 'prev'"),
    ("keep(state.h.map(state, state.a))", "macro variable named 'state'"),
])
def test_a_kept_expression_that_cannot_be_kept_is_refused(term: str, message: str) -> None:
    with pytest.raises(ViewError, match=message):
        View([term])


def test_a_view_keys_a_state_by_what_it_keeps() -> None:
    state: dict[str, Any] = {"turns": [3, 5], "passes": [[1, 2], [2, None]], "repetition": 7, "round": 9,
             "x": {"y": 1, "z": 2}}
    view = View(["relative(turns)", "last(passes)", "cap(repetition, 2)", "relative(round)",
                 "x.y"])
    view.check(state)
    assert view.apply(state) == {"turns": [0, 2], "passes": [[2, None]], "repetition": 2,
                                 "round": 0, "x": {"z": 2}}
    assert state["turns"] == [3, 5] and len(state["passes"]) == 2  # untouched
    assert view.abstraction().numbers == frozenset({"round"})
    assert view.describe() == "relative(turns), last(passes), cap(repetition, 2), relative(round), x.y"


@pytest.mark.parametrize(("terms", "message"), [
    (["last(turns"], "malformed"),
    (["cap(repetition)"], "malformed"),
    (["last(repetition)"], "not a list"),
    (["relative(passes)"], "neither a number nor a list of numbers"),
    (["cap(passes, 2)"], "not a number"),
    (["last(nope)"], "no field 'nope'"),
    (["last(passes)", "cap(passes, 2)"], "two terms on passes"),
    (["relative(turns)", "cap(turns, 3)"], "two terms on turns"),
    (["last(turns)", "relative(turns)"], "two terms on turns"),
    (["cap(repetition, 2)", "cap(repetition, 3)"], "two terms on repetition"),
])
def test_a_view_term_that_does_not_fit_the_state_is_refused(terms: list[str], message: str) -> None:
    state = {"turns": [1, 2], "passes": [[1]], "repetition": 1}
    with pytest.raises(ViewError, match=message):
        View(terms).check(state)


def test_every_combination_of_term_kinds_parses() -> None:
    for kinds in itertools.product(["a", "last(a)", "relative(a)", "cap(a, 3)"], repeat=1):
        assert View(kinds).terms == kinds


def test_a_kept_expression_matches_only_literals_of_its_own_type() -> None:
    """``1``, ``1.0`` and ``true`` are different expressions (Python would call them equal)."""
    view = Abstraction(forget=("h",), keep=("state.h.all(x, x.n == 1)",))
    assert decides("state.h.all(x, x.n == 1)", view)
    assert not decides("state.h.all(x, x.n == true)", view)
    assert not decides("state.h.all(x, x.n == 1.0)", view)


def test_a_kept_difference_with_a_relative_counter_must_be_an_integer() -> None:
    """X of ``keep(X - state.F)`` is read as moving with F only because the view refuses a
    state where the difference fails or is not an integer."""
    view = View(["x", "relative(round)", "keep(state.x - state.round)"])
    view.check({"x": 1, "round": 3})
    assert view.apply({"x": 5, "round": 3})["@keep"] == [[2]]
    for bad in ({"x": 1.5, "round": 3}, {"x": "a", "round": 3}):
        with pytest.raises(ViewError, match="must give an integer"):
            View(["x", "relative(round)", "keep(state.x - state.round)"]).apply(bad)


def test_kept_values_are_remembered_apart_for_a_missing_and_a_null_field() -> None:
    view = View(["x", "keep(has(state.x))"])
    assert view.apply({"x": None, "y": 1})["@keep"] == [[True]]
    assert view.apply({"y": 1})["@keep"] == [[False]]


#: Pig under PIG-AMB-01 on-hold, as published: scores capped at the target, the score arithmetic
#: of PIG-INV-SCORES kept over each move, PIG-INV-WINNER's over each state.
CAPPED = Abstraction(cap={"scores": 3, "result.scores": 3, "turn_total": 3},
                     keep=("state.scores == prev.scores",
                           "state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total",
                           "state.result.scores == state.scores"))


@pytest.mark.parametrize(("expression", "decided"), [
    ("size(state.scores) == config.players", True),  # PIG-INV-PLAYERS: the length is kept
    ("max_of(state.scores) >= 3 && min_of(state.scores) < 3", True),
    ("size(state.scores) == size(prev.scores)", True),
    ("state.scores.all(s, s < 2) && state.scores.exists(s, s == 0)", True),
    ("state.scores.filter(s, s > 1).all(s, s >= 2)", True),
    ("state.scores[1] == 2 && state.result.scores[0] > 0", True),
    ("state.turn_total > 0 || state.turn_total == 0", True),  # PIG-INV-TURN-TOTAL
    ("state.scores == prev.scores", True),  # kept over the move (PIG-INV-BUST)
    ("state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total", True),
    ("state.result.scores == state.scores", True),
    ("state.result != null", True),
    ("max_of(state.scores) >= 4", False),  # past the ceiling
    ("state.scores[0] == 3", False),  # 3 is "3 or more"
    ("sum(state.scores) == 4", False),
    ("state.scores[0] + 1 == 3", False),
    ("state.scores.map(s, s + 1)[0] == 2", False),
    ("prev.scores == state.scores", False),  # not the kept expression as written
    ("state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total + 1", False),
    ("state.result == prev.result", False),
    ("state.result.scores == prev.scores", False),
])
def test_a_capped_list_and_a_move_keep_decide_what_they_keep(expression: str,
                                                            decided: bool) -> None:
    assert decides(expression, CAPPED) is decided


def _random_pig(rng: random.Random) -> dict[str, Any]:
    return {"turn": rng.randint(0, 1), "turn_total": rng.choice([0, 2, 3, 4, 6]),
            "scores": [rng.choice([0, 2, 3, 4, 6]) for _ in range(2)]}


CAPPED_TERMS = ["cap(turn_total, 3)", "cap(scores, 3)",
                "keep(state.scores == prev.scores)",
                "keep(state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total)"]


@pytest.mark.parametrize("expression", [
    "size(state.scores) == 2",
    "max_of(state.scores) >= 3",
    "state.scores.all(s, s < 3)",
    "state.scores[0] == 2 || state.turn_total > 2",
    "state.scores == prev.scores",
    "state.scores[prev.turn] == prev.scores[prev.turn] + prev.turn_total",
    "max_of(state.scores) >= 4",
    "state.turn_total == 4",
    "sum(state.scores) == sum(prev.scores) + prev.turn_total",
    "state.turn_total == prev.turn_total + 2",
])
def test_capped_lists_and_move_labels_decide_exactly_on_random_moves(expression: str) -> None:
    """The semantic check for a capped list and a kept expression over a move: every pair of
    random moves whose states' keys and whose labels are equal agree on a decided expression;
    an undecided one splits some pair."""
    view = View(CAPPED_TERMS)
    states = [_random_pig(random.Random(seed)) for seed in range(300)]
    view.check(states[0])
    assert view.edges == tuple(t[len("keep("):-1] for t in CAPPED_TERMS[2:])
    compiled = compile_expression(expression, ["state", "prev", "action"])
    by_key: dict[str, set[Any]] = {}
    rng = random.Random(7)
    for _ in range(6000):
        prev, state = rng.choice(states), rng.choice(states)
        action = {"kind": "hold"}
        key = repr((view.apply(prev), view.apply(state), view.edge(prev, action, state)))
        value = compiled.evaluate({"state": state, "prev": prev, "action": action})
        by_key.setdefault(key, set()).add(value)
    split = any(len(values) > 1 for values in by_key.values())
    assert decides(expression, view.abstraction()) == (not split)


def test_a_view_caps_a_list_item_by_item_and_a_result_as_it_keys_it() -> None:
    view = View(["cap(scores, 3)", "cap(result.scores, 3)", "keep(state.x == prev.x)"])
    view.check({"scores": [0, 5], "result": None, "x": 1})
    assert view.apply({"scores": [0, 5], "result": None, "x": 1}) == {
        "scores": [0, 3], "result": None, "x": 1}  # no kept value of a state
    result = {"scores": [4, 1], "winners": [0]}
    assert view.result(result) == {"scores": [3, 1], "winners": [0]}
    assert result["scores"] == [4, 1]  # untouched
    assert View(["scores"]).result(result) == result  # no term inside the result: kept whole
    assert view.edges == ("state.x == prev.x",)
    assert view.edge({"x": 1}, {}, {"x": 1}) == [[True]]
    assert view.edge({"x": 1}, {}, {}) == [[]]  # cannot be evaluated: no value passes for it
    # A capped number and a capped list are one kind to decides: what fits one type fails
    # alike on the other in every state with the key.
    assert decides("size(state.n) == 1 && state.n[0] < 2 && state.n.all(x, x == 0)",
                   Abstraction(cap={"n": 3}))
    with pytest.raises(ViewError, match="not a number or a list of numbers"):
        View(["cap(scores, 3)"]).check({"scores": ["a"]})


def test_a_ceiling_may_be_a_parameter_of_the_configuration() -> None:
    """``cap(F, params.NAME)``: the ceiling follows the configuration (Pig's target), read when
    the view is bound; a view not bound yet, or a parameter that is not a whole number, is
    refused with the term and what to do."""
    view = View(["cap(scores, params.target_score)"])
    assert view.ceilings == {"scores": "params.target_score"} and view.cap == {}
    with pytest.raises(ViewError, match="bind the view"):
        view.apply({"scores": [4]})
    view.bind({"target_score": 3}, {})
    view.check({"scores": [0, 0]})
    assert view.apply({"scores": [4, 2]}) == {"scores": [3, 2]}
    assert view.abstraction().cap == {"scores": 3}
    for params, message in (({"target": 3}, "no parameter 'target_score'; its parameters are "
                                            "target"),
                            ({"target_score": [1]}, "not a whole number"),
                            ({"target_score": True}, "not a whole number")):
        with pytest.raises(ViewError, match=message):
            View(["cap(scores, params.target_score)"]).bind(params, {})
    # A configuration refused part-way leaves the view as it was bound before.
    both = View(["cap(a, params.x)", "cap(b, params.y)"])
    both.bind({"x": 1, "y": 1}, {})
    with pytest.raises(ViewError, match="no parameter 'y'"):
        both.bind({"x": 5}, {})
    assert both.cap == {"a": 1, "b": 1} == both.abstraction().cap
    assert both.apply({"a": 2, "b": 0}) == {"a": 1, "b": 0}
