"""The solvers of large graphs: floating-point components iterated (not eliminated), and
optimal play by value iteration component by component, checked against the exact figures and
against value iteration over the whole graph at once."""

from __future__ import annotations

from array import array
from fractions import Fraction

import pytest

from rulespec.verify import outcomes
from rulespec.verify.explore import Explorer
from rulespec.verify.outcomes import optimal_play, uniform_outcomes
from rulespec.verify.store import CHANCE_NODE, TERMINAL_NODE, StateStore
from tests.verify.support import pig_engine, rhino_engine


def _rhino() -> StateStore:
    result = Explorer(rhino_engine(), view=("history", "relative(round)")).run()
    assert result.complete
    return result.store


def test_iterated_components_agree_with_the_exact_solution() -> None:
    """RR-END-01: the tiny Ruby Rhino's win probabilities (a component of over a thousand
    states) in floating point, iterated, within 1e-9 of the exact fractions."""
    store = _rhino()
    exact = uniform_outcomes(store, 2)
    assert exact.exact
    for dense in (False, True):  # component by component (iterated), and in dense blocks
        floating = uniform_outcomes(store, 2, exact=False, dense=dense)
        assert not floating.exact
        for a, b in zip(exact.wins, floating.wins, strict=True):
            assert abs(float(a) - float(b)) < 1e-9
        assert abs(float(exact.length) - float(floating.length)) < 1e-7


def _whole_graph_values(store: StateStore) -> array[float]:
    """Value iteration over every state at once (the solver before components)."""
    n = len(store)
    value = array("d", bytes(8 * n))
    for s in range(n):
        if store.actors[s] == TERMINAL_NODE:
            mask = store.winners[s]
            value[s] = float((mask & 1) - (mask >> 1 & 1))
    probabilities = [float(p) for p in store.probabilities]
    for _ in range(100_000):
        change = 0.0
        for s in range(n - 1, -1, -1):
            actor = store.actors[s]
            if actor == TERMINAL_NODE:
                continue
            edges = range(store.offsets[s], store.offsets[s + 1])
            if actor == CHANCE_NODE:
                v = sum(probabilities[store.edge_probabilities[k]] * value[store.targets[k]]
                        for k in edges)
            elif actor == 0:
                v = max(value[store.targets[k]] for k in edges)
            else:
                v = min(value[store.targets[k]] for k in edges)
            change = max(change, abs(v - value[s]))
            value[s] = v
        if change < 1e-13:
            return value
    raise AssertionError("no convergence")


@pytest.mark.parametrize("target", [3, 6])
def test_optimal_play_by_components_agrees_with_the_whole_graph(target: int) -> None:
    """PIG-TURN-06, PIG-TURN-07: Pig on the coin die, the value of the start by components as
    by sweeping the whole graph; to 3 the optimal first player wins 4/7."""
    result = Explorer(pig_engine(target_score=target), view=("turns",)).run()
    best = optimal_play(result.store)
    assert best.value == pytest.approx(_whole_graph_values(result.store)[0], abs=1e-12)
    if target == 3:
        assert best.outcomes.wins == (Fraction(4, 7), Fraction(3, 7))


def test_optimal_outcomes_go_to_floating_point_on_large_graphs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    result = Explorer(pig_engine(), view=("turns",)).run()
    monkeypatch.setattr(outcomes, "EXACT_OPTIMAL", 1)
    best = optimal_play(result.store)
    assert not best.outcomes.exact
    assert float(best.outcomes.wins[0]) == pytest.approx(4 / 7, abs=1e-12)


# Integration: the whole of Pig to 20 explored and solved both ways, 8 s (issue 46's budget).
@pytest.mark.integration
def test_dense_solvers_agree_with_the_sweeps_on_pig_to_20() -> None:
    """PIG-TURN-04 to PIG-TURN-08, PIG-END-01: Pig to 20 on the spec's die (12,654 states under
    the published view pig-at-once): optimal play by strategy improvement on dense blocks gives
    the value and the moves value iteration's sweeps give, and the uniform figures of both
    floating-point solvers agree."""
    from rulespec.verify.published import load_views
    from tests.bridges.support import pig

    spec, engine_type = pig()
    from rulespec.reference.core import make_config

    config = make_config(spec, players=2, rulings={"PIG-AMB-01": "at-once"},
                         parameters={"target_score": 20})
    result = Explorer(engine_type(spec, config),
                      view=load_views()["pig-at-once"].terms).run()
    assert result.complete
    swept = optimal_play(result.store, dense=False)
    dense = optimal_play(result.store)
    assert dense.value == pytest.approx(swept.value, abs=1e-11)
    assert dense.outcomes.wins == swept.outcomes.wins  # the same moves, solved exactly
    assert float(dense.outcomes.wins[0]) == pytest.approx(0.6155585498, abs=1e-10)
    a = uniform_outcomes(result.store, 2, exact=False, dense=False)
    b = uniform_outcomes(result.store, 2, exact=False)
    for x, y in zip(a.wins, b.wins, strict=True):
        assert x == pytest.approx(y, abs=1e-11)
    assert a.length == pytest.approx(b.length, rel=1e-11)


def test_a_cycle_the_moves_never_leave_is_left_to_the_sweeps() -> None:
    """Strategy improvement meets a singular system (two players passing to each other for
    ever, each preferring that to losing): it says so (None), and ``optimal_play`` sweeps
    that graph instead of trusting a solve."""
    from rulespec.verify.graph import components
    from rulespec.verify.numeric import optimal_values

    store = StateStore()
    store.add(1, -1, 0, 0)  # seat 0: pass to seat 1, or lose
    store.add(2, 0, 0, 1)  # seat 1: pass back to seat 0, or lose
    store.add(3, 0, 1, TERMINAL_NODE, 0b10)
    store.add(4, 1, 1, TERMINAL_NODE, 0b01)
    one = store.probability_id(Fraction(1, 2))
    for edges in ([(1, one), (2, one)], [(0, one), (3, one)], [], []):
        for target, p in edges:
            store.add_edge(target, p)
        store.close_expansion()
    assert optimal_values(store, components(store)) is None
