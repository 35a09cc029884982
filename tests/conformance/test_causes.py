"""The pieces of a short verdict, each alone: causes, labels, the scope, what an example needs,
and the budget."""

from __future__ import annotations

import time

from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.judging.budget import MIN_SHRINK, Budget
from rulespec.conformance.judging.causes import group, signatures
from rulespec.conformance.judging.checks import Failure
from rulespec.conformance.judging.scope import Scope, label, needs, sent_because
from rulespec.reference.core import make_config
from rulespec.spec.registry import get_spec


def _failure(check: str, **kw: object) -> Failure:
    return Failure(check, (), "message", {"game": "fool", "players": 4}, **kw)  # type: ignore[arg-type]


def test_failures_sharing_any_signature_are_one_cause() -> None:
    """A rule example refused a legal deal; a golden trace refused the same deal and its state
    differed in the same fields as a configuration's: three failures, one cause, in order."""
    refused = "refused a legal 'deal': the cards are dealt"
    diff = ({"path": "/phase", "clauses": ["FOOL-DEAL-01"]},)
    example = _failure("EXAMPLE", subject="FOOL-EX-DEAL-12", cause=refused)
    golden = _failure("GOLDEN", subject="fool.p4-default.jsonl", cause=refused, diff=diff)
    played = _failure("DIFF-STATE", diff=diff)
    other = _failure("INVARIANT", subject="FOOL-INV-FOOL-COUNT")
    causes = group([("a", example), ("b", other), ("c", golden), ("d", played)])
    assert [len(c.occurrences) for c in causes] == [3, 1]
    assert causes[0].failures == [example, golden, played]
    assert signatures(played) == ["state differs in phase"]


def test_a_ruling_that_explains_failures_makes_them_one_cause() -> None:
    """Whatever the check, failures one ruling explains share a cause; rulings are named only
    when every failure whose inference ran is explained by them."""
    ruled = {"FOOL-AMB-03": "eight-only"}
    one = _failure("EXAMPLE", subject="FOOL-EX-TWO-FOOLS-7", matches=(ruled,), inference="x")
    two = _failure("INVARIANT", subject="FOOL-INV-FOOL-COUNT", matches=(ruled,), inference="y")
    cause, = group([("a", one), ("b", two)])
    assert cause.rulings() == [ruled]
    plain = _failure("INVARIANT", subject="FOOL-INV-FOOL-COUNT", inference="tried 16")
    cause, = group([("a", two), ("b", plain)])
    assert cause.rulings() == []


def test_a_configuration_is_named_short_by_what_differs_from_the_defaults() -> None:
    spec = get_spec("fool")
    config = make_config(spec, players=7, rulings={"FOOL-AMB-03": "eight-only"}).to_json()
    assert label(spec, config) == "fool p7, defaults except FOOL-AMB-03=eight-only"
    assert label(spec, make_config(spec, players=4).to_json()) == "fool p4, defaults"
    with_param = {**make_config(spec, players=4).to_json(), "parameters": {"wild_count": 2}}
    assert label(spec, with_param) == "fool p4, defaults except wild_count=2"


def test_what_an_example_needs_is_said_short() -> None:
    """Each sentence of Hello.supports, read back as the thing that is missing."""
    assert needs("ruling OURO-AMB-03=owner is not supported (supported: taker)") == \
        "OURO-AMB-03=owner"
    assert needs("parameter card_counts is not declared by the engine (its hello declares "
                 "no parameters)") == "parameter card_counts"
    assert needs("parameter target_score=500 is outside 10..100, the range its hello "
                 "declares") == "parameter target_score"
    assert needs("variant 'hard-week' is not supported") == "variant hard-week"
    assert needs("the engine plays ruby-rhino with 2 to 4 players, not 5") == "5 players"


def test_no_declared_parameters_means_no_parameter_is_sent() -> None:
    """The protocol: a parameter not listed is not to be overridden, also when the engine lists
    none at all (the kit used to send rule examples' overrides then)."""
    hello = Hello("e", "1", {"ouro-de-tolo": {"rulings": {}, "variants": []}})
    problems = hello.supports("ouro-de-tolo", {}, [], parameters={"card_counts": {}})
    assert problems == ["parameter card_counts is not declared by the engine (its hello "
                        "declares no parameters)"]
    declared = Hello("e", "1", {"ruby-rhino": {"parameters": {"target_score": {"values": [30]}}}})
    assert declared.supports("ruby-rhino", {}, [], parameters={"target_score": 30}) == []
    assert declared.supports("ruby-rhino", {}, [], parameters={"target_score": 30.0}), \
        "30.0 is not 30"


def test_the_scope_says_what_puts_a_configuration_outside_it() -> None:
    spec = get_spec("fool")
    scope = Scope(players=frozenset({4}), rulings={"FOOL-AMB-03": "eight-only"})
    assert scope.outside(make_config(spec, players=5)) == "5 players"
    assert scope.outside(make_config(spec, players=4)) == "FOOL-AMB-03=seven-and-eight"
    assert scope.outside(make_config(spec, players=4,
                                     rulings={"FOOL-AMB-03": "eight-only"})) is None
    assert scope.text() == "4 players, FOOL-AMB-03=eight-only"
    derived = Scope.of([{"players": 4, "rulings": {"A": "x"}}, {"players": 5, "rulings": {}}])
    assert derived.players == {4, 5} and derived.rulings == {}


def test_why_the_kit_sent_a_configuration() -> None:
    spec = get_spec("dado-de-ouro")
    hello = Hello("e", "1", {"dado-de-ouro": {
        "rulings": {"DDO-AMB-01": ["d6", "d8"]}, "players": [4],
        "parameters": {"rounds_per_game": {"minimum": 1, "maximum": 100}}}})
    config = make_config(spec, players=4, rulings={"DDO-AMB-01": "d8",
                                                   "DDO-AMB-04": "rotate-clockwise"},
                         parameters={"rounds_per_game": 1}).to_json()
    assert sent_because(spec, hello, config) == (
        "4 players (hello declares 4); DDO-AMB-01=d8 (hello declares d6, d8); "
        "DDO-AMB-04=rotate-clockwise (hello does not list DDO-AMB-04: any option); "
        "parameter rounds_per_game=1 (hello declares rounds_per_game 1..100)")


def test_the_budget_stops_new_work_and_still_grants_a_shrink() -> None:
    unlimited = Budget()
    assert unlimited.reason() is None and not unlimited.skip("x") and unlimited.allow(15) == 15
    spent = Budget(0.01)
    time.sleep(0.02)
    assert spent.reason() == "the budget of 0.01 s was spent"
    assert spent.skip("golden traces") and spent.left_out == ["golden traces"]
    assert spent.allow(15) == MIN_SHRINK and spent.allow(1) == 1
    fast = Budget(None, fail_fast=True)
    assert fast.reason() is None
    fast.found()
    assert fast.to_json()["stopped"] is None, "nothing was left out yet"
    assert fast.skip("rule examples")
    assert fast.to_json()["stopped"] == "stopped at the first failure (-x/--fail-fast)"
