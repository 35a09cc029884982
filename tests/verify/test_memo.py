"""Checks remembered by what they read (``rulespec.verify.memo``): the memo never gives one
value's verdict to another a check could tell apart, and the schema checked property by
property agrees with the whole schema."""

from __future__ import annotations

import random
from typing import Any

from rulespec.reference.core import CHANCE
from rulespec.reference.registry import new_game
from rulespec.spec.celparse import disjuncts
from rulespec.spec.fastschema import compile_schema
from rulespec.spec.registry import get_spec
from rulespec.verify.checks import StateChecks
from rulespec.verify.explore import Explorer
from rulespec.verify.memo import Fields, SchemaByProperty, frozen, guard_of, reads
from tests.verify.support import planted_engine


def test_values_a_check_tells_apart_are_remembered_apart() -> None:
    assert frozen(True) != frozen(1) and frozen(False) != frozen(0)
    assert frozen([True]) != frozen([1]) and frozen([1.0]) != frozen([1])
    assert frozen({"a": 1, "b": 2}) != frozen({"b": 2, "a": 1})  # a map's keys in order
    assert frozen("[1]") != frozen([1]) and frozen(None) != frozen("null")
    assert Fields({"x": None}).get("x") is None and Fields({}).get("x") is not None


def test_the_fields_an_expression_reads() -> None:
    assert reads("state.a + prev.b == size(state.c) && action.kind == 'x'") == (
        ("a", "c"), ("b",), ("kind",))
    assert reads("size(state) == 3") is None  # the whole state
    assert reads("state.h.all(state, state > 0)") is None  # a macro variable hides state


def _states(game: str, players: int, count: int) -> list[Any]:
    rng = random.Random(1)
    out: list[Any] = []
    while len(out) < count:
        engine = new_game(game, players=players)
        while engine.current_player() is not None and len(out) < count:
            out.append(engine.state())
            if engine.current_player() == CHANCE:
                outcomes = engine.chance_outcomes()
                engine.apply(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = engine.legal_actions()
                engine.apply(legal[rng.randrange(len(legal))])
    return out


def _corrupted(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    copy = dict(state)
    name = rng.choice(sorted(copy))
    copy[name] = rng.choice([True, -1, 1.5, "x", None, [None], {"k": 1}, [True]])
    if rng.random() < 0.1:
        copy.pop(name)
    if rng.random() < 0.1:
        copy["unknown"] = 1
    return copy


def test_the_schema_by_property_agrees_with_the_whole_schema() -> None:
    rng = random.Random(2)
    for game, players in (("dado-de-ouro", 4), ("ruby-rhino", 2), ("fool", 4)):
        schema = get_spec(game).state_schema
        split = SchemaByProperty.of(schema)
        assert split is not None, game
        whole = compile_schema(schema)
        for state in _states(game, players, 300):
            for candidate in (state, _corrupted(state, rng), _corrupted(state, rng)):
                assert split(candidate, Fields(candidate)) == whole(candidate), (game, candidate)


def test_a_violation_is_found_as_without_the_memo() -> None:
    """RR-INV-ROUND-WINNER: the planted Ruby Rhino's violation, its kind, invariant and
    shortest path, alike with the memo and without."""
    found = []
    for remember in (True, False):
        explorer = Explorer(planted_engine(), view=("history", "relative(round)"))
        explorer.checks = StateChecks(explorer.start, explorer.view.abstraction(),
                                      remember=remember)
        explorer._result.checks = explorer.checks
        result = explorer.run()
        found.append([(v.kind, v.subject, v.path) for v in result.violations])
    assert found[0] == found[1] and found[0] and found[0][0][1] == "RR-INV-ROUND-WINNER"


def test_an_annotated_schema_is_still_checked_by_property() -> None:
    """An ``x-`` keyword at the schema's root is an annotation that validation ignores (Pig
    0.1.2 declares its seats' rotation there, ``x-verify``): the schema is still split by
    property, and agrees with the whole. It was not, and every Pig state was validated whole
    again (a Pig search took 1/0.96 of its CPU time)."""
    rng = random.Random(3)
    plain = get_spec("ruby-rhino").state_schema
    schema = {**plain, "x-verify": {"rotate": {"seats": ["coins"], "seat": ["turn"]}}}
    split = SchemaByProperty.of(schema)
    assert split is not None
    whole = compile_schema(schema)
    for state in _states("ruby-rhino", 2, 100):
        for candidate in (state, _corrupted(state, rng)):
            assert split(candidate, Fields(candidate)) == whole(candidate), candidate
    assert SchemaByProperty.of({**plain, "oneOf": [{}]}) is None  # a keyword that ties them


# -- guards: the first operands of an invariant's ||, remembered -----------------------------------


def test_an_invariant_is_split_at_its_top_level_or_only() -> None:
    assert disjuncts('a || (b || c) && d || f(x, y || z) || "||" == e') == [
        "a", "(b || c) && d", "f(x, y || z)", '"||" == e']
    assert disjuncts("a || b ? c : d") is None  # the conditional holds the whole chain
    assert disjuncts("a && b") is None and disjuncts("a ||") is None


def test_a_guard_reads_fewer_fields_than_its_invariant() -> None:
    """RR-INV-ROLL-FACE's guard reads the action alone; an invariant whose first operand reads
    everything it does has none."""
    guard = guard_of('action.kind != "roll" || state.x == prev.x + action.face', str)
    assert guard is not None and guard.source == '(action.kind != "roll")'
    assert guard_of("state.x == prev.x || state.x == prev.x + 1", str) is None
    assert guard_of("state.x > 0 || state.y > 0", str) is not None  # x alone: fewer
    assert guard_of("state.x > 0", str) is None


def _transitions(game: str, players: int, count: int) -> list[tuple[Any, Any, Any]]:
    rng = random.Random(4)
    out: list[tuple[Any, Any, Any]] = []
    while len(out) < count:
        engine = new_game(game, players=players)
        while engine.current_player() is not None and len(out) < count:
            prev = engine.state()
            if engine.current_player() == CHANCE:
                outcomes = engine.chance_outcomes()
                action = outcomes[rng.randrange(len(outcomes))][0]
            else:
                legal = engine.legal_actions()
                action = legal[rng.randrange(len(legal))]
            engine.apply(action)
            out.append((prev, action, engine.state()))
    return out


def test_guards_and_memos_give_the_verdicts_of_evaluating_every_invariant() -> None:
    """DDO-INV-*, RR-INV-*, FOOL-INV-*, OURO-INV-*: on real transitions and on transitions with
    a field of either state corrupted, the checks with their memos and guards find what
    evaluating every invariant every time finds, the same invariant first."""
    rng = random.Random(5)
    for game, players in (("dado-de-ouro", 4), ("ruby-rhino", 2), ("fool", 4),
                          ("ouro-de-tolo", 3)):
        start = new_game(game, players=players)
        fast, slow = StateChecks(start), StateChecks(start, remember=False)
        for prev, action, state in _transitions(game, players, 400):
            for before, after in ((prev, state), (_corrupted(prev, rng), state),
                                  (prev, _corrupted(state, rng))):
                found = [(p.kind, p.subject) if p else None
                         for p in (checks.transition(before, action, after) for checks in
                                   (fast, slow))]
                assert found[0] == found[1], (game, before, action, after)
                states = [(p.kind, p.subject) if p else None
                          for p in (checks.state(after) for checks in (fast, slow))]
                assert states[0] == states[1], (game, after)
        guarded = sum(g.looks - g.misses for g in fast._guards.values() if g is not None)
        assert guarded > 100, game  # the guards did spare evaluations
