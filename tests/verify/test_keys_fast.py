"""rulespec verify (issue 42): the faster key, JSON encoder, merge schema check and move caches
identify, encode and refuse exactly what the slow paths they replace do."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from typing import Any

from rulespec.verify.checks import StateChecks, _chance_problem, _distinct, encode_action
from rulespec.verify.keys import View, json_encoder, key_bytes
from rulespec.verify.store import StateStore
from tests.verify.support import pig_engine

_VIEWS = (
    (),
    ("last_roll",),
    ("last_roll", "cap(rolls, 1)", "relative(turns)"),
    ("last(turns)", "cap(scores, 2)"),
    ("relative(turns)", "keep(size(state.turns) - state.turn)"),
    # A nested term: keyed by the viewed copy, the kept values beside it.
    ("cap(result.scores, 5)", "keep(state.turn)"),
    # A ceiling read from the configuration, on a nested field: known only once bound.
    ("cap(scores, params.target_score)", "cap(result.scores, params.target_score)"),
)


def _random_state(rng: random.Random, base: dict[str, Any]) -> dict[str, Any]:
    # Few values each, so that many pairs of states are merged by a view and many are not.
    state = dict(base)
    state["turns"] = rng.choice([[0, 0], [1, 1], [0, 1]])
    state["scores"] = rng.choice([[0, 1], [1, 1], [True, 1], [5, 1]])
    state["rolls"] = rng.choice([1, 2, 1.0])
    state["last_roll"] = rng.choice([None, 2])
    state["result"] = rng.choice([None, {"scores": [5, 3], "winners": [0]},
                                  {"scores": [7, 3], "winners": [0]}])
    if rng.random() < 0.2:
        state = dict(reversed(list(state.items())))  # another order of the same fields
    if rng.random() < 0.1:
        del state["last_roll"]
    if rng.random() < 0.2:  # a field named as the kept values are shown (``View.apply``)
        state["@keep"] = rng.choice([0, 1])
    return state


def test_the_key_tells_states_apart_as_the_viewed_json_does() -> None:
    """Two states have equal ``View.key`` exactly when the JSON of their viewed copies and their
    kept values are equal (field order aside, true apart from 1, a forgotten field absent or
    present, a field named ``@keep`` kept apart from the kept values)."""
    engine = pig_engine()
    base = engine.state()
    rng = random.Random(42)
    states = [_random_state(rng, base) for _ in range(300)]
    for terms in _VIEWS:
        view = View(terms)
        view.bind(dict(engine.config.parameters), engine.config.to_json())
        slow = [key_bytes([view.viewed(s), view.kept(s)] if "keep(" in repr(terms)
                          else view.viewed(s)) for s in states]
        fast = [view.key(s) for s in states]
        assert 10 < len(set(slow)) < len(states)  # states merged, and told apart
        for i in range(0, len(states), 15):
            for j in range(len(states)):
                assert (slow[i] == slow[j]) == (fast[i] == fast[j]), (terms, states[i], states[j])


def test_a_kept_value_is_remembered_by_its_fields_in_their_order() -> None:
    """Found by an audit: CEL's ``map()`` over a map follows the order of its keys, so a kept
    value is remembered by the fields it reads as they are ordered; a state met after another
    whose map holds the same keys in another order gets its own value."""
    terms = ("t", "keep(state.m.map(k, k)[0])")
    first, second = {"m": {"a": 1, "b": 2}, "t": 1}, {"m": {"b": 2, "a": 1}, "t": 2}
    fresh = View(terms)
    expected = fresh.key(second)
    used = View(terms)
    used.key(first)
    assert used.key(second) == expected
    assert used.kept(second) == [["b"]]  # each kept value is a list


def test_a_field_named_keep_is_not_the_kept_values() -> None:
    """Found by an audit: the kept values were written into the viewed copy as ``@keep``, over a
    field of that name, so two states differing there had equal keys under a nested term."""
    one = {"x": 1, "a": {"b": 1}, "@keep": "ok"}
    other = {"x": 1, "a": {"b": 1}, "@keep": "anything"}
    for terms in (["a", "keep(state.x)"], ["a.b", "keep(state.x)"]):
        view = View(terms)
        assert view.key(one) != view.key(other), terms
        assert view.key(one) == view.key(dict(one)), terms


def test_the_encoder_made_once_writes_what_json_writes() -> None:
    """Sorted keys, no spaces, non-ASCII kept (or escaped), NaN, -0.0, true apart from 1."""
    value = {"b": [1, 2.5, None, True, {"z": "é", "a": -0.0}], "a": float("nan"), "c": 'x"y'}
    for ascii_only in (False, True):
        for sort in (False, True):
            reference = json.JSONEncoder(sort_keys=sort, separators=(",", ":"),
                                         ensure_ascii=ascii_only).encode
            assert json_encoder(sort_keys=sort, ensure_ascii=ascii_only)(value) == reference(value)
    assert encode_action({"kind": "die", "face": 3}) == '{"face":3,"kind":"die"}'


def test_a_merged_state_is_schema_checked_in_the_fields_its_view_reaches() -> None:
    """A merged state equals its representative outside the fields the view's terms reach, so
    only those are checked; a value the schema refuses there is still found (STATE-SCHEMA)."""
    engine = pig_engine()
    view = View(["cap(turn_total, 3)"])
    checks = StateChecks(engine, view.abstraction())
    changed = view.reached()
    assert changed == frozenset({"turn_total"})
    broken = {**engine.state(), "turn_total": -1}
    problem = checks.state(broken, only_unkeyed=True, changed=changed)
    assert problem is not None and problem.kind == "STATE-SCHEMA"
    assert checks.state(engine.state(), only_unkeyed=True, changed=changed) is None


def test_the_move_caches_refuse_what_the_checks_refuse() -> None:
    """CHANCE: a list of outcomes met well formed is passed again; one that differs only in a
    probability's type (a float), a repeated outcome or true for 1 is checked, and refused."""
    die = [({"kind": "die", "face": 1}, Fraction(1, 2)), ({"kind": "die", "face": 2}, Fraction(1, 2))]
    legal = [a for a, _ in die]
    assert _chance_problem(die, legal) is None
    assert _chance_problem(die, legal) is None
    floats = [(a, 0.5) for a, _ in die]
    assert _chance_problem(floats, legal) is not None
    twice = [die[0], die[0]]
    assert _chance_problem(twice, [legal[0], legal[0]]) is not None
    assert _distinct([{"kind": "roll"}, {"kind": "hold"}])
    assert not _distinct([{"kind": "roll"}, {"kind": "roll"}])
    assert _distinct([{"face": 1}, {"face": True}])


def test_the_store_numbers_equal_probabilities_once() -> None:
    """Edges of equal probability share one number, whichever object carries it."""
    store = StateStore()
    half = Fraction(1, 2)
    first = store.probability_id(half)
    assert store.probability_id(half) == first
    assert store.probability_id(Fraction(2, 4)) == first
    assert store.probability_id(Fraction(1, 3)) != first
    assert store.probabilities[first] == half
