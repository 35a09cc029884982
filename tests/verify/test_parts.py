"""The parts of rulespec verify on hand-built graphs: the store, keys and views, the graph
checks and the outcome solver."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from rulespec.verify import outcomes
from rulespec.verify.checks import result_problem
from rulespec.verify.decides import Abstraction, decides
from rulespec.verify.graph import components, cyclic_components, traps
from rulespec.verify.keys import View, ViewError
from rulespec.verify.outcomes import optimal_play, uniform_outcomes
from rulespec.verify.store import CHANCE_NODE, TERMINAL_NODE, StateStore

Edge = tuple[int, Fraction]


def graph(nodes: Sequence[tuple[int, int, Sequence[Edge]]]) -> StateStore:
    """Build a store from (actor, winners mask, edges) per state, expanded in order."""
    store = StateStore()
    for i, (actor, winners, _) in enumerate(nodes):
        store.add(1000 + i, max(i - 1, -1), 0, actor, winners)
    for _, _, edges in nodes:
        for target, p in edges:
            store.add_edge(target, store.probability_id(p))
        store.close_expansion()
    return store


THIRD = Fraction(1, 3)
#: Chance: a third seat 0 wins, a third seat 1 wins, a third the same state again.
LOOP = graph([(CHANCE_NODE, 0, [(1, THIRD), (2, THIRD), (0, THIRD)]),
              (TERMINAL_NODE, 0b01, []), (TERMINAL_NODE, 0b10, [])])


def test_the_fingerprint_table_grows_and_finds_every_state() -> None:
    store = StateStore()
    for i in range(5000):
        assert store.find(i * 7919) == -1
        assert store.add(i * 7919, i - 1, 0, 0) == i
    assert all(store.find(i * 7919) == i for i in range(5000))
    assert store.path(3) == [0, 0, 0]
    assert 20 < store.bytes_used() / len(store) < 60


def test_a_loop_is_solved_exactly() -> None:
    """x = 1/3 + x/3 gives 1/2 each; the expected length 1 + L/3 gives 3/2."""
    result = uniform_outcomes(LOOP, 2)
    assert result.exact
    assert result.wins == (Fraction(1, 2), Fraction(1, 2))
    assert result.length == Fraction(3, 2) and result.unexplored == 0
    groups = components(LOOP)
    assert [len(g) for g in cyclic_components(LOOP, groups)] == [1]
    assert groups.index([0]) > groups.index([1])  # sinks first


def test_components_are_found_once_per_graph_and_again_when_it_grows() -> None:
    """The solvers of one verification ask for a graph's components up to four times (6 s
    each on Pig to 100): the same list comes back while the graph is unchanged, and a graph
    that has grown since is searched again."""
    store = graph([(CHANCE_NODE, 0, [(1, THIRD), (2, THIRD), (0, THIRD)]),
                   (TERMINAL_NODE, 0b01, []), (TERMINAL_NODE, 0b10, [])])
    first = components(store)
    assert components(store) is first
    assert components(LOOP) is not first and components(LOOP) == first  # another graph
    store.add(2000, 0, 3, TERMINAL_NODE, 0b11)  # a state found later
    again = components(store)
    assert again is not first and sorted(map(sorted, again)) == [[0], [1], [2], [3]]


def test_over_budget_components_are_solved_in_floating_point(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    monkeypatch.setattr(outcomes, "EXACT_BUDGET", 0)
    result = uniform_outcomes(LOOP, 2)
    assert not result.exact
    assert result.wins == pytest.approx((0.5, 0.5), abs=1e-12)


def test_a_cycle_without_a_way_out_is_a_trap() -> None:
    """States 1 and 2 send each other back and forth for ever: both are traps, 0 is not."""
    store = graph([(0, 0, [(1, Fraction(1, 2)), (3, Fraction(1, 2))]),
                   (0, 0, [(2, Fraction(1))]), (1, 0, [(1, Fraction(1))]),
                   (TERMINAL_NODE, 1, [])])
    assert traps(store) == [1, 2]


def test_unexpanded_states_count_as_unexplored_mass() -> None:
    store = graph([(CHANCE_NODE, 0, [(1, Fraction(1, 4)), (2, Fraction(3, 4))]),
                   (TERMINAL_NODE, 1, [])])
    store.add(9, 0, 1, CHANCE_NODE)  # state 2, never expanded
    result = uniform_outcomes(store, 1)
    assert result.wins == (Fraction(1, 4),) and result.unexplored == Fraction(3, 4)
    assert traps(store) == []


def test_value_iteration_picks_the_better_move() -> None:
    """Seat 0 chooses between a sure win and a coin toss."""
    store = graph([(0, 0, [(1, Fraction(1, 2)), (2, Fraction(1, 2))]),
                   (TERMINAL_NODE, 0b01, []),
                   (CHANCE_NODE, 0, [(1, Fraction(1, 2)), (3, Fraction(1, 2))]),
                   (TERMINAL_NODE, 0b10, [])])
    best = optimal_play(store)
    assert best.value == pytest.approx(1.0)
    assert best.outcomes.wins == (Fraction(1), Fraction(0))
    assert uniform_outcomes(store, 2).wins == (Fraction(3, 4), Fraction(1, 4))


def test_forgetting_a_field_leaves_undecided_what_reads_it() -> None:
    """What a forgotten field hides: its reads, reads of what holds it, reads of its parts; but
    not whether a field containing it is there, and nothing that reads elsewhere."""
    def forgetting(*fields: str) -> Abstraction:
        return Abstraction(forget=fields)

    turns = "max_of(state.turns) - min_of(state.turns) <= 1"
    assert not decides(turns, forgetting("turns")) and decides(turns, forgetting("history"))
    history = "state.history.all(h, h.points >= 0) && prev.round < state.round"
    assert not decides(history, forgetting("history"))
    assert not decides(history, forgetting("round")) and decides(history, forgetting("x"))
    passes = "state.last_round == null || state.last_round.max_passes[0] != null"
    assert not decides(passes, forgetting("last_round.max_passes"))
    assert not decides(passes, forgetting("last_round"))
    assert decides(passes, forgetting("last_round.gain"))
    final = "has(state.final) && state.final.draw != null"
    assert not decides(final, forgetting("final.draw")) and decides(final, forgetting("final.draw.x"))
    assert decides('config.rulings["PIG-AMB-01"] == "at-once"', forgetting("turns"))
    assert not decides("size(state) > 0", forgetting("turns"))  # the whole state
    assert not decides("state.x in [1, 2", forgetting("y"))  # not parsed: undecided
    # Whether last_round is null survives forgetting a part of it, not forgetting it whole.
    assert decides("state.last_round == null", forgetting("last_round.max_passes"))
    assert not decides("state.last_round == null", forgetting("last_round"))
    assert not decides("state.last_round.max_passes == null", forgetting("last_round"))
    # A read of a field holding a forgotten one, or of a part of a forgotten one.
    assert not decides("size(state.last_round) > 0", forgetting("last_round.max_passes"))
    assert not decides("state.last_round.max_passes[0] == 1", forgetting("last_round"))


def test_a_view_forgets_fields_without_touching_the_state() -> None:
    state = {"a": 1, "b": {"c": [1], "d": 2}}
    view = View(["b.c", "a"])
    assert view.apply(state) == {"b": {"d": 2}}
    assert state == {"a": 1, "b": {"c": [1], "d": 2}}
    with pytest.raises(ViewError, match="no field 'z'"):
        View(["z"]).check(state)
    with pytest.raises(ViewError, match="malformed"):
        View(["b..c"])


@pytest.mark.parametrize(("result", "problem"), [
    ({"winners": [0], "ranking": [[0], [1]], "scores": [3, 1]}, None),
    ({"winners": []}, "at least one"),
    ({"winners": [0, 0]}, "distinct seats"),
    ({"winners": [2]}, "distinct seats"),
    ({"winners": [0], "ranking": [[1], [0]]}, "first place"),
    ({"winners": [0], "ranking": [[0], [0]]}, "disjoint"),
    ({"winners": [0], "scores": [1]}, "one per seat"),
    ([0], "not an object"),
])
def test_a_result_is_well_formed(result: object, problem: str | None) -> None:
    found = result_problem(result, 2)
    assert (found is None) if problem is None else (found is not None and problem in found.message)
