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


def test_exact_figures_that_outgrow_their_bits_are_solved_in_floating_point() -> None:
    """RR-END-01: the tiny Ruby Rhino's exact figures need more than 64 bits; allowed 64, the
    solver stops the fractions and gives the floating-point figures, saying what it passed;
    allowed any size, it gives the fractions as before."""
    store = _rhino()
    exact = uniform_outcomes(store, 2, exact_bits=None)
    assert exact.exact and exact.outgrew == 0
    assert max(w.denominator.bit_length() for w in exact.wins) > 64  # type: ignore[union-attr]
    small = uniform_outcomes(store, 2, exact_bits=64)
    assert not small.exact
    assert small.outgrew > 64
    assert all(isinstance(w, float) for w in small.wins)
    for a, b in zip(exact.wins, small.wins, strict=True):
        assert abs(float(a) - b) < 1e-9
    assert abs(float(exact.length) - float(small.length)) < 1e-7
    assert small.to_json()["exact_bits_passed"] == small.outgrew
    assert exact.to_json()["exact_bits_passed"] is None
    # The default allows far more than this graph needs: its figures stay exact.
    assert uniform_outcomes(store, 2) == exact


def test_the_report_says_why_asked_for_fractions_it_gives_floating_point() -> None:
    from rulespec.verify.report import outcomes_text

    grown = outcomes.Outcomes((0.25, 0.75), 0.0, 3.5, False, outgrew=12_345)
    heading = outcomes_text("uniform random players", grown)[0]
    assert "floating point, since the exact fractions passed 12,000 bits" in heading
    plain = outcomes_text("uniform random players",
                          outcomes.Outcomes((0.25, 0.75), 0.0, 3.5, False))[0]
    assert plain.endswith("(to about 1e-12):")


def test_a_change_past_the_bits_a_report_writes_is_given_by_its_size() -> None:
    """RR-END-01: a change in win probability between two large fractions (an option's against
    its baseline) can have a denominator past what ``str`` converts (4,300 digits); the JSON
    report gives its size and value instead of failing."""
    import copy

    from rulespec.verify.report import rulings_json
    from rulespec.verify.run import Bounds, OptionRun, RulingsRun, verify

    baseline = verify(rhino_engine(), Bounds(view=("history", "relative(round)"),
                                             cross_check=0, merge_walks=0))
    assert baseline.uniform is not None
    other = copy.copy(baseline)
    a, b = Fraction(1, 3 ** 6_000), Fraction(1, 5 ** 5_000)  # each under EXACT_BITS
    other.uniform = outcomes.Outcomes((a, 1 - a), Fraction(0), Fraction(3), True)
    baseline.uniform = outcomes.Outcomes((b, 1 - b), Fraction(0), Fraction(3), True)
    run = RulingsRun(baseline, [OptionRun("RR-AMB-01", "other", other)], ["RR-AMB-01"])
    changes = rulings_json(run)["options"][0]["win_changes"]
    assert changes[0] == {"exact": None, "value": float(a - b),
                          "exact_digits": outcomes.decimal_digits((a - b).denominator)}
    assert (a - b).denominator.bit_length() > outcomes.EXACT_BITS
    assert outcomes.number_json(Fraction(-3, 7)) == {"exact": "-3/7", "value": -3 / 7}
