"""rulespec verify: exploration, checks, shortest traces and outcome probabilities (issue 32)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from rulespec.reference.core import make_config
from rulespec.reference.trace import read_trace
from rulespec.spec.invariants import Invariants
from rulespec.verify.checks import StateChecks
from rulespec.verify.engines import replay
from rulespec.verify.explore import Explorer
from rulespec.verify.keys import View
from rulespec.verify.run import Bounds, verify
from tests.bridges.support import pig
from tests.verify.support import (
    PIG_ON_HOLD,
    RHINO_HISTORY,
    RHINO_SUMMARY,
    deep_log_engine,
    first_violation_distance,
    greedy_hold_engine,
    pig_engine,
    planted_engine,
    rhino_engine,
    tie_engine,
)

PIG_VIEW = Bounds(view=("turns",), optimal=True, cross_check=0)
#: The tiny Ruby Rhino with its record of rounds forgotten, no cross-check (kept short).
RHINO_VIEW = Bounds(view=RHINO_HISTORY, cross_check=0)


def test_pig_is_proved_with_turn_counts_forgotten() -> None:
    """PIG-TURN-01..08, PIG-END-01: with turn counts forgotten the coin-die Pig to 3 has 25
    states; every invariant not reading ``turns`` is proven, the others only checked."""
    result = verify(pig_engine(), PIG_VIEW)
    stats = result.exploration.stats
    assert result.status == "proved"
    assert (stats.states, stats.transitions, stats.terminals) == (25, 42, 4)
    assert not result.violations and not result.trap_states
    checked = {i for i, s in result.invariant_status.items() if s == "checked"}
    assert checked == {"PIG-INV-PLAYERS", "PIG-INV-TURNS", "PIG-INV-EQUAL-TURNS"}
    assert not result.acyclic  # a bust returns the turn to a state already found


def test_pig_outcomes_are_exact_and_agree_with_the_canonical_search() -> None:
    """Seat 0 wins 244/429 under uniform random players; the search on canonical states (no
    view, bounded) agrees to within the probability it leaves unexplored."""
    viewed = verify(pig_engine(), PIG_VIEW)
    assert viewed.uniform is not None and viewed.uniform.exact
    assert viewed.uniform.wins == (Fraction(244, 429), Fraction(185, 429))
    assert viewed.uniform.length == Fraction(82, 11)
    assert viewed.optimal is not None
    assert viewed.optimal.outcomes.wins == (Fraction(4, 7), Fraction(3, 7))
    bounded = verify(pig_engine(), Bounds(max_states=800))
    assert bounded.status == "bounded"
    assert bounded.uniform is not None
    assert not bounded.uniform.exact  # a bounded search is solved in floating point
    slack = bounded.uniform.unexplored
    assert 0 < slack < 1e-9
    for exact, low in zip(viewed.uniform.wins, bounded.uniform.wins, strict=True):
        assert low - 1e-12 <= exact <= low + slack + 1e-12
    assert set(bounded.invariant_status.values()) == {"checked"}


def test_pig_on_hold_is_proved_with_the_turn_total_and_scores_capped() -> None:
    """PIG-AMB-01 on-hold, PIG-TURN-06, PIG-TURN-07, PIG-END-01: a player may roll on past the
    target for ever, but with the turn total, the rolls and the scores kept up to the target
    (and what the invariants read of them kept over states and moves) the graph is finite:
    every invariant is proven, merged states and terminals behave alike (their results agree on
    what the key keeps), and the search on canonical states agrees with the view's outcomes."""
    result = verify(pig_engine({"PIG-AMB-01": "on-hold"}),
                    Bounds(view=PIG_ON_HOLD, optimal=True, cross_check=4_000))
    stats = result.exploration.stats
    assert result.status == "proved", result.violations
    assert (stats.states, stats.transitions, stats.terminals) == (49, 90, 4)
    assert set(result.invariant_status.values()) == {"proven"}
    assert not result.trap_states and result.canonical is not None
    assert result.uniform is not None and result.uniform.exact
    assert result.uniform.wins == (Fraction(1101, 2000), Fraction(899, 2000))
    # The view merges states that differ in the turn total, the scores and the results' scores.
    assert {"_turn_total", "_scores", "_result"} <= result.exploration.memory


def test_a_move_whose_label_differs_is_caught_one_step_ahead() -> None:
    """PIG-INV-SCORES: a hold from a turn total of 6 banks a point too many. The merged search
    meets that hold only one step ahead of a merge, where no invariant is evaluated; the kept
    expression over the move labels it, and the labels differ: KEY-BEHAVIOUR. Without the
    labels the invariant is only checked, and the merged search sees nothing wrong."""
    result = verify(greedy_hold_engine(6), Bounds(view=PIG_ON_HOLD, cross_check=0))
    assert result.status == "violated"
    assert [v.kind for v in result.violations] == ["KEY-BEHAVIOUR"]
    unlabelled = tuple(t for t in PIG_ON_HOLD if "prev" not in t and "action" not in t)
    blind = verify(greedy_hold_engine(6), Bounds(view=unlabelled, cross_check=0))
    assert not blind.violations
    assert blind.invariant_status["PIG-INV-SCORES"] == "checked"


def test_a_move_two_steps_past_a_merge_is_caught_by_the_canonical_search() -> None:
    """PIG-INV-SCORES broken only from a turn total of 8, which the merged graph never meets:
    the one-step merge check alone says "proved"; the merge walks (which follow merged engines
    on) and the canonical search each find it."""
    blind = verify(greedy_hold_engine(8), Bounds(view=PIG_ON_HOLD, cross_check=0,
                                                 merge_walks=0))
    assert blind.status == "proved"
    walked = verify(greedy_hold_engine(8), Bounds(view=PIG_ON_HOLD, cross_check=0))
    assert walked.status == "violated"
    assert [v.kind for v in walked.violations] == ["KEY-BEHAVIOUR"]
    assert walked.violations[0].other is not None
    result = verify(greedy_hold_engine(8), Bounds(view=PIG_ON_HOLD, cross_check=20_000,
                                                  merge_walks=0))
    assert result.status == "violated"
    assert [(v.kind, v.subject) for v in result.violations] == [("INVARIANT", "PIG-INV-SCORES")]


def test_scores_capped_where_they_still_matter_are_caught_one_step_ahead() -> None:
    """PIG-AMB-02 equal-turns, PIG-END-01: with the spec's own die a score banked at once can
    pass the target, and the last players must then beat it; the view that keeps scores only up
    to the target merges such scores, and the merge check says the key does not decide the
    future (the published configuration with this die verifies the defaults alone)."""
    spec, engine_type = pig()
    config = make_config(spec, players=2, parameters={"target_score": 10},
                         rulings={"PIG-AMB-01": "at-once", "PIG-AMB-02": "equal-turns"})
    result = verify(engine_type(spec, config), Bounds(view=PIG_ON_HOLD, cross_check=0))
    assert [v.kind for v in result.violations] == ["KEY-BEHAVIOUR"]
    a, b = (replay(engine_type(spec, config), p).state()
            for p in (result.violations[0].path, result.violations[0].other or ()))
    assert a["scores"] != b["scores"] and min(max(a["scores"]), max(b["scores"])) >= 10


@pytest.mark.parametrize("view", [("relative(turns)",),
                                  ("relative(turns)", "result.winners", "result.ranking")])
def test_merged_terminals_must_agree_on_their_winners_and_have_a_sound_result(
        view: tuple[str, ...]) -> None:
    """PIG-END-01: the outcome figures read the winners of the first terminal state found with
    a key, so a merged terminal must have the same winners even where the view forgets them
    (KEY-BEHAVIOUR), and its result is checked as its representative's was (RESULT), even
    where the view lets it differ (an independent review found both unchecked)."""
    wrong = verify(tie_engine([0], [[0], [1]]), Bounds(view=view, cross_check=0))
    assert [v.kind for v in wrong.violations] == ["KEY-BEHAVIOUR"]
    malformed = verify(tie_engine([0, 0], [[0, 0]]), Bounds(view=view, cross_check=0))
    assert [v.kind for v in malformed.violations] == ["RESULT"]


def test_a_merged_state_is_still_checked_against_the_state_schema() -> None:
    """A view may merge a value the schema refuses with one it allows (a capped turn total of
    -1 and 0 are not, but 3 and 300 are): a merged state's schema is checked, not assumed."""
    engine = pig_engine()
    checks = StateChecks(engine, View(["cap(turn_total, 3)"]).abstraction())
    broken = {**engine.state(), "turn_total": -1}
    problem = checks.state(broken, only_unkeyed=True)
    assert problem is not None and problem.kind == "STATE-SCHEMA"
    assert checks.state(engine.state(), only_unkeyed=True) is None


def test_every_state_is_checked_once_and_the_levels_are_breadth_first() -> None:
    """States are numbered in BFS order: parents come before children, one level deeper."""
    ex = Explorer(rhino_engine(), view=RHINO_HISTORY).run()
    assert ex.complete and not ex.violations
    store = ex.store
    for i in range(1, len(store)):
        parent = store.parents[i]
        assert parent < i
        assert ex.depth_of(i) == ex.depth_of(parent) + 1
    assert ex.stats.merges == ex.stats.merges_checked
    assert ex.stats.transitions == len(store.targets)


def test_ruby_rhino_tiny_is_proved_and_sums_to_one() -> None:
    """RR-ROUND-01, RR-END-01: one winner per game, so the win probabilities sum to exactly 1."""
    result = verify(rhino_engine(), RHINO_VIEW)
    assert result.status == "proved"
    assert result.uniform is not None and result.uniform.exact
    assert sum(result.uniform.wins) == 1
    proven = {i for i, s in result.invariant_status.items() if s == "proven"}
    assert "RR-INV-COINS" in proven and "RR-INV-ROUND-COUNT" not in proven


def test_the_record_of_rounds_summarised_proves_every_invariant() -> None:
    """RR-ROUND-01, RR-ROUND-03, RR-ROUND-04, RR-ROUND-05, RR-END-01: with the record of rounds
    forgotten and what the invariants read of it kept (its length against the round number, its
    folds, its last entry), every invariant is proven, and the win probabilities are the ones
    the view that forgets the record gives (keeping a summary merges no fewer outcomes)."""
    summary = verify(rhino_engine(), Bounds(view=RHINO_SUMMARY, cross_check=0))
    assert summary.status == "proved" and not summary.violations
    assert set(summary.invariant_status.values()) == {"proven"}
    assert len(summary.invariant_status) == len(rhino_engine().spec.section("invariants"))
    forgotten = verify(rhino_engine(), Bounds(view=("history", "result.rounds", "relative(round)"),
                                              cross_check=0))
    undecided = {i for i, s in forgotten.invariant_status.items() if s != "proven"}
    assert undecided == {"RR-INV-ROUND-WINNER", "RR-INV-ROUND-COUNT", "RR-INV-SCORES-FROM-ROUNDS",
                         "RR-INV-SCORE-CHANGE", "RR-INV-WINNER"}
    assert summary.uniform is not None and forgotten.uniform is not None
    assert summary.uniform.wins == forgotten.uniform.wins
    assert summary.exploration.stats.states > forgotten.exploration.stats.states


def test_a_bug_only_a_long_record_reaches_is_caught_by_the_canonical_search() -> None:
    """RR-INV-ROUND-WINNER: an engine that breaks the record only from its third round on reads
    the field the view forgets; the merged graph never meets such a round, and the one-step
    merge check cannot see it, but the search on canonical states does: the view proves nothing
    then."""
    blind = verify(deep_log_engine(), Bounds(view=RHINO_SUMMARY, cross_check=0, merge_walks=0))
    assert blind.status == "proved"  # without the cross-check the view's assumption is all
    result = verify(deep_log_engine(), Bounds(view=RHINO_SUMMARY, cross_check=20_000,
                                              merge_walks=0))
    assert result.status == "violated", result.violations
    violation = result.violations[0]
    assert violation.kind == "INVARIANT" and violation.subject == "RR-INV-ROUND-WINNER"
    # The merge walks follow a merged engine into its third round: its record there differs
    # from the representative's, so equal keys lead to different ones.
    walked = verify(deep_log_engine(), Bounds(view=RHINO_SUMMARY, cross_check=0))
    assert [v.kind for v in walked.violations] == ["KEY-BEHAVIOUR"]


def test_a_planted_bug_is_found_by_its_shortest_trace(tmp_path: Path) -> None:
    """RR-INV-ROUND-WINNER: a coin vanishing on a rare round end (the round's record no longer
    adds up to every coin) is found, the trace replays to it on the planted engine, and no
    shorter path reaches a violation (an independent BFS over canonical states says so)."""
    engine = planted_engine()
    result = verify(engine, RHINO_VIEW, trace_dir=tmp_path)
    assert result.status == "violated"
    violation = result.violations[0]
    assert violation.kind == "INVARIANT" and violation.subject == "RR-INV-ROUND-WINNER"
    depth = len(violation.path)
    assert depth == first_violation_distance(planted_engine(), depth)
    assert first_violation_distance(planted_engine(), depth - 1) is None
    assert result.exploration.depth_of(len(result.exploration.store) - 1) <= depth
    (trace_file,) = violation.traces
    trace = read_trace(trace_file)
    assert len(trace.steps) == depth
    end = replay(engine, violation.path)
    prev = replay(engine, violation.path[:-1])
    found = Invariants(engine.spec).check(end.state(), prev=prev.state(),
                                          action=trace.steps[-1].action,
                                          params=dict(engine.config.parameters),
                                          config=engine.config.to_json())
    assert [v.invariant for v in found] == ["RR-INV-ROUND-WINNER"]
    assert trace.steps[-1].state == end.state()
    # Issue 31: the trace records every state on the way (deltas between full states), as the
    # golden traces do, so the viewer shows each; every one is the planted engine's.
    assert trace.initial == planted_engine().state()
    assert trace.states()[-2] == prev.state()
    assert all(state is not None for state in trace.states())


def test_merged_states_that_move_differently_are_caught_one_step_ahead(tmp_path: Path) -> None:
    """RR-TURN-02: forgetting the dice merges the positions after different first dice, whose
    second die then does different things: KEY-BEHAVIOUR, with a trace to each state."""
    result = verify(rhino_engine(), Bounds(view=(*RHINO_HISTORY, "dice"), cross_check=0),
                    trace_dir=tmp_path)
    assert result.status == "violated"
    violation = result.violations[0]
    assert violation.kind == "KEY-BEHAVIOUR"
    assert violation.other is not None and len(violation.traces) == 2
    a, b = (replay(rhino_engine(), p).state() for p in (violation.path, violation.other))
    assert a["dice"] != b["dice"]


def test_a_view_whose_fields_matter_later_is_caught_by_the_canonical_search() -> None:
    """RR-RHINO-01, RR-ROUND-01: who holds the Rhino decides when a round ends, many steps after
    the states merge; the one-step check misses it, the outcome cross-check does not, and the
    merge walks (which follow merged engines on) do not either."""
    view = (*RHINO_HISTORY, "rhino")
    result = verify(rhino_engine(), Bounds(view=view, cross_check=6_000, merge_walks=0))
    kinds = [v.kind for v in result.violations]
    assert kinds == ["VIEW"], result.violations
    assert "seat 0" in result.violations[0].message
    walked = verify(rhino_engine(), Bounds(view=view, cross_check=0))
    assert [v.kind for v in walked.violations] == ["KEY-BEHAVIOUR"]
    sound = verify(rhino_engine(), Bounds(view=RHINO_HISTORY, cross_check=3_000))
    assert not sound.violations and sound.canonical is not None


def test_hidden_engine_memory_is_named() -> None:
    """Engines merged under one key differ only in what never decides the future: narration
    and decision counts (the merges behaved alike)."""
    ex = Explorer(rhino_engine(), view=RHINO_HISTORY).run()
    assert ex.memory and not ex.violations
    assert "_coins" not in ex.memory and "_chest" not in ex.memory
    assert ex.memory <= {"_decisions", "_history", "_round", "_last_action", "_last_complete",
                         "_last_count", "_last_effect", "_last_roller", "_last_winner"}


def test_bounds_stop_the_search_and_say_so() -> None:
    """--max-depth leaves the deeper states unexpanded; the report is bounded, not a proof."""
    result = verify(rhino_engine(), Bounds(max_depth=4))
    ex = result.exploration
    assert ex.stopped == "max-depth" and result.status == "bounded"
    assert all(ex.depth_of(i) <= 4 for i in range(len(ex.store)))
    assert all(ex.depth_of(i) < 4 for i in range(ex.store.expanded))


def test_the_search_stops_before_memory_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """--max-memory: the queued engines grow the process; the search stops, bounded. The budget
    is the search's own: memory the process held before it started (the graphs of earlier
    searches, kept for a report) does not count, as it once did when Ouro de Tolo's published
    search stopped after 3 states behind Fool's."""
    from rulespec.verify import explore

    held = iter(range(10 * 2**30, 11 * 2**30, 4096))
    monkeypatch.setattr(explore, "current_rss", lambda: next(held))
    monkeypatch.setattr(explore, "_MEMORY_EVERY", 64)  # looks every 64 states found
    ex = Explorer(rhino_engine(), max_memory=1).run()
    assert ex.stopped == "max-memory" and not ex.complete
    # Looked at by states found, not expanded: a level of wide expansions (a deal) cannot run
    # far past the budget between two looks.
    assert explore._MEMORY_EVERY <= len(ex.store) < explore._MEMORY_EVERY + 64
    looks: list[int] = []

    def look() -> int:
        looks.append(1)
        return 10 * 2**30

    monkeypatch.setattr(explore, "current_rss", look)
    ex = Explorer(rhino_engine(), max_memory=2**30, max_states=640).run()
    assert ex.stopped == "max-states"  # 10 GiB held before the search: not this search's
    # One look at the start, then one per 64 states found, not one per expansion after that.
    assert len(looks) <= 1 + len(ex.store) // 64 < ex.store.expanded
