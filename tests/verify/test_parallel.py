"""One search shared out between workers (`rulespec verify -j N`, `--cluster`; issue 42 item 4):
the states partitioned by fingerprint, the graph kept by the calling process, and the result
(states, transitions, edges, digests, verdicts, traces, exact fractions) the one-process
search's, bit for bit.

The cheap tests share the work out on the in-process executor between three "workers", with
chunks of a few states so that every configuration crosses many chunk boundaries (and the next
chunk is handed out while one is committed); the integration tests use real processes and a
Dask cluster.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec.cli import cli
from rulespec.executors import InlineExecutor, executor_for
from rulespec.games.ruby_rhino import RubyRhino
from rulespec.reference.core import CHANCE
from rulespec.verify import parallel
from rulespec.verify.explore import Exploration, Explorer, Stats
from rulespec.verify.parallel import ParallelError, ParallelExplorer, pack, unpack
from rulespec.verify.report import verification_json, verification_text
from rulespec.verify.run import Bounds, verify
from rulespec.verify.symmetry import Seats
from tests.bridges.support import pig
from tests.support import dask_cluster, without_keys
from tests.verify.support import (
    PIG_COIN,
    PIG_ON_HOLD,
    RHINO_SUMMARY,
    TIMING,
    pig_engine,
    planted_engine,
    rhino_engine,
    tie_engine,
)


@pytest.fixture(autouse=True)
def _small_chunks(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Chunks of 4 states per worker: many boundaries even in a small graph."""
    monkeypatch.setattr(parallel, "CHUNK_PER_WORKER", 4)
    yield


def _graph(found: Exploration) -> dict[str, Any]:
    store, stats = found.store, found.stats
    return {
        "stats": (stats.states, stats.transitions, stats.depth, stats.terminals, stats.queued,
                  stats.merges, stats.merges_checked, stats.digests_reused,
                  stats.rotated_merges),
        "arrays": [list(a) for a in (store.fingerprints, store.parents, store.moves,
                                     store.actors, store.winners, store.offsets, store.digests,
                                     store.targets, store.edge_probabilities)],
        "probabilities": store.probabilities,
        "stopped": found.stopped,
        "violations": [(v.kind, v.message, v.path, v.other, v.clauses) for v in found.violations],
        "levels": found.level_starts,
        "reached": sorted(found.reached),
        "memory": sorted(found.memory),
        "unchecked": found.unchecked_merges,
        "rotations": list(found.rotations),
    }


def _same(make: Any, workers: int = 3, **options: Any) -> Exploration:
    """Explore in one process and shared out; assert the two graphs are one; return it."""
    one = Explorer(make(), **options)
    alone = one.run()
    many = ParallelExplorer(make(), executor=InlineExecutor(), workers=workers, **options)
    shared = many.run()
    assert _graph(shared) == _graph(alone)
    # The engines' memories taken as one process takes them (terminal states' are not): the
    # memo's switch-off, after WORTH_AFTER of them, comes at the same one. (A search that stops
    # has planned the rest of its last chunk, past the stop.)
    if alone.complete:
        assert many._looked == one._looked
    return alone


def test_the_progress_counts_the_chunk_handed_out_as_queued(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PIG-TURN-01: every state found is expanded or still queued, and the chunk the
    workers expand while this process commits the one before counts as queued (a report every
    chunk: the clock moves on two seconds at each look)."""
    ticks = iter(range(0, 10**6, 2))
    clock = SimpleNamespace(perf_counter=lambda: float(next(ticks)),
                            process_time=time.process_time)
    monkeypatch.setattr(parallel, "time", clock)
    seen: list[tuple[int, int, int]] = []
    many = ParallelExplorer(pig_engine(), executor=InlineExecutor(), workers=2, max_states=400)

    def report(s: Stats) -> None:
        seen.append((s.states, many.store.expanded, s.queued))

    many.progress = report
    assert many.run().stopped == "max-states"
    assert len(seen) > 3
    assert all(states == expanded + queued for states, expanded, queued in seen), seen
    assert any(queued > 0 for _, _, queued in seen)


def test_a_proof_under_a_view_is_the_one_process_proof() -> None:
    """PIG-AMB-01 on-hold, PIG-INV-SCORES, PIG-INV-AT-ONCE: the coin-die Pig under its published
    view (keep terms over moves, parameter ceilings): the same graph, edges, digests and
    reused digests, proven either way."""
    found = _same(lambda: pig_engine({"PIG-AMB-01": "on-hold"}), view=PIG_ON_HOLD)
    assert found.complete and not found.violations
    assert found.stats.merges > 0 and found.stats.digests_reused > 0


def test_a_bounded_search_stops_where_the_one_process_search_stops() -> None:
    """PIG-TURN-01: without a view Pig's turn counts grow for ever; a search bounded by states
    and one bounded by depth stop at the same state, the same states left on the queue."""
    for bound in ({"max_states": 150}, {"max_depth": 7}):
        found = _same(pig_engine, **bound)
        assert found.stopped == next(iter(bound)).replace("_", "-"), found.stopped


def test_a_violation_and_its_trace_are_the_one_process_ones() -> None:
    """RR-INV-ROUND-WINNER: the planted Ruby Rhino loses a coin; shared out, the search stops at
    the same violation on the same shortest path."""
    found = _same(planted_engine, view=RHINO_SUMMARY)
    assert [v.kind for v in found.violations] == ["INVARIANT"]
    assert found.violations[0].subject == "RR-INV-ROUND-WINNER"


def test_seat_symmetry_is_the_one_process_symmetry() -> None:
    """PIG-AMB-03 chance-draw, PIG-SETUP-02: the two draws merged as rotations of each other,
    the same frames and edge rotations, so the same figures per seat."""
    spec, _ = pig()
    from rulespec.spec.verify_views import declared_seats

    declared = declared_seats(spec)
    assert declared is not None
    found = _same(lambda: pig_engine({"PIG-AMB-01": "at-once", "PIG-AMB-03": "chance-draw"}),
                  view=("relative(turns)", "cap(rolls, 1)", "last_roll"),
                  symmetry=Seats(*declared))
    assert found.complete and found.stats.rotated_merges > 0


def test_the_report_and_its_exact_fractions_are_the_one_process_report() -> None:
    """PIG-END-01, PIG-AMB-01 on-hold: the coin-die Pig's whole report (states, verdicts, exact
    win probabilities, optimal play) with the work shared out."""
    bounds = Bounds(view=PIG_ON_HOLD, cross_check=0, optimal=True)
    alone = verify(pig_engine({"PIG-AMB-01": "on-hold"}), bounds)
    shared = verify(pig_engine({"PIG-AMB-01": "on-hold"}), bounds, executor=InlineExecutor(),
                    workers=2)
    assert alone.status == "proved"
    assert (without_keys(verification_json(shared), TIMING)
            == without_keys(verification_json(alone), TIMING))


def test_the_report_counts_the_workers_memory_apart() -> None:
    """PIG-END-01: shared out, the report gives the worker processes' memory beside this
    process's peak (each worker at its largest after a task); in one process it says none."""
    bounds = Bounds(view=PIG_ON_HOLD, cross_check=0)
    alone = verify(pig_engine({"PIG-AMB-01": "on-hold"}), bounds)
    shared = verify(pig_engine({"PIG-AMB-01": "on-hold"}), bounds, executor=InlineExecutor(),
                    workers=2)
    assert verification_json(alone)["workers_rss"] is None
    assert "worker processes" not in "\n".join(verification_text(alone, {}))
    workers = verification_json(shared)["workers_rss"]
    # The inline executor's two workers are this one process.
    assert workers["processes"] == 1 and workers["bytes"] > 0
    assert "MiB in its worker process at its largest after a task;" in "\n".join(verification_text(shared, {}))


def test_a_packed_engine_is_the_engine() -> None:
    """RR-TURN-01: an engine sent to a worker as bytes (Ruby Rhino keeps its state in slots)
    comes back the same engine: the same canonical state, moves and memory, every few steps."""
    explorer = Explorer(rhino_engine())
    engine = explorer.cloner.adopt(explorer.start)
    for step in range(12):
        copy = unpack(explorer.start, pack(explorer.start, engine))
        assert copy.state() == engine.state(), step
        assert explorer.cloner.memory(copy) == explorer.cloner.memory(engine), step
        actor = engine.current_player()
        if actor is None:
            break
        moves = (engine.chance_outcomes() if actor == CHANCE
                 else [(a, 1) for a in engine.legal_actions()])
        assert [m[0] for m in moves] == [m[0] for m in (
            copy.chance_outcomes() if actor == CHANCE
            else [(a, 1) for a in copy.legal_actions()])]
        engine.apply(moves[-1][0])


def test_an_engine_that_cannot_be_sent_is_refused_clearly() -> None:
    """An engine class made inside a function cannot reach a worker: the search says so and
    what to do, before anything runs."""
    with pytest.raises(ParallelError, match="without --jobs and --cluster"):
        ParallelExplorer(tie_engine([0], [[0], [1]]), executor=InlineExecutor(), workers=2)


class HookedRhino(RubyRhino):
    """Ruby Rhino that keeps a function once play starts: fine for one process (an engine copy
    shares it), but no worker can be sent it."""

    def apply(self, action: Any) -> None:
        super().apply(action)
        self.hook = lambda: None


def test_an_engine_that_cannot_be_sent_midway_stops_the_search_clearly() -> None:
    """An engine whose state cannot be pickled stops the shared-out search with ENGINE-ERROR at
    the move that made it so, saying what to do, instead of a worker's traceback."""
    base = rhino_engine()
    found = ParallelExplorer(HookedRhino(base.spec, base.config), executor=InlineExecutor(),
                             workers=2, view=RHINO_SUMMARY).run()
    assert [v.kind for v in found.violations] == ["ENGINE-ERROR"]
    assert "without --jobs and --cluster" in found.violations[0].message
    assert len(found.violations[0].path) == 1


# Integration: starts two worker processes (2 s under load).
@pytest.mark.integration
def test_two_processes_give_the_one_process_graph() -> None:
    """PIG-AMB-01 on-hold: the coin-die Pig shared out between two local processes."""
    alone = Explorer(pig_engine({"PIG-AMB-01": "on-hold"}), view=PIG_ON_HOLD).run()
    with executor_for(2) as executor:
        shared = ParallelExplorer(pig_engine({"PIG-AMB-01": "on-hold"}), executor=executor,
                                  workers=2, view=PIG_ON_HOLD).run()
    assert _graph(shared) == _graph(alone)
    assert alone.stats.worker_processes == 0
    assert 1 <= shared.stats.worker_processes <= 2 and shared.stats.workers_rss > 0


# Integration: starts a Dask LocalCluster (3 s).
@pytest.mark.integration
def test_a_dask_cluster_gives_the_one_process_graph() -> None:
    """RR-INV-ROUND-WINNER: the planted Ruby Rhino on a local Dask cluster (two worker threads):
    the same graph and the same violation."""
    alone = Explorer(planted_engine(), view=RHINO_SUMMARY).run()
    with dask_cluster() as client:
        shared = ParallelExplorer(planted_engine(), executor=client, workers=2,
                                  view=RHINO_SUMMARY).run()
    assert _graph(shared) == _graph(alone)
    assert shared.violations


# Integration: two whole command runs, one with two worker processes.
@pytest.mark.integration
def test_the_command_line_shares_one_search_out() -> None:
    """PIG-END-01: `rulespec verify pig ... -j 2` without --all-rulings shares the one search
    out and prints the report of one process (timing aside)."""
    args = ["verify", "pig", "-n", "2", "-p", "target_score=3", "-p",
            json.dumps(PIG_COIN["die"], separators=(",", ":")).join(["die=", ""]),
            "-r", "PIG-AMB-01=at-once", "--views", "pig-at-once", "--cross-check", "200",
            "--optimal", "--format", "json", "-q"]
    pig()
    from rulespec.spec.registry import registered_in_process
    from rulespec_pig import GAME  # type: ignore[import-not-found, unused-ignore]

    with registered_in_process("pig", GAME):
        one = CliRunner().invoke(cli, args)
        two = CliRunner().invoke(cli, [*args, "-j", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert (without_keys(json.loads(two.stdout), TIMING)
            == without_keys(json.loads(one.stdout), TIMING))
    assert json.loads(one.stdout)["workers_rss"] is None
    assert json.loads(two.stdout)["workers_rss"]["bytes"] > 0


def test_digests_reused_forgotten_and_rechecked_as_one_process_does(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """PIG-AMB-01 at-once, PIG-END-01: the memo of merged engines' digests, made small enough to
    be cleared many times (Pig to 8 reuses 72 digests with the whole memo, 22 with this one),
    rechecked every second reuse, and switched off after 5 memories: the shared-out search
    reuses, forgets and rechecks the same digests as the one-process search."""
    from rulespec.verify import explore

    def make() -> Any:
        return pig_engine({"PIG-AMB-01": "at-once"}, target_score=8)

    view = ("last_roll", "cap(rolls, 1)", "relative(turns)")
    whole = _same(make, view=view)
    monkeypatch.setattr(explore, "MEMO_STATES", 20)
    for module in (explore, parallel):
        monkeypatch.setattr(module, "RECHECK_EVERY", 2)
    found = _same(make, view=view)
    assert 0 < found.stats.digests_reused < whole.stats.digests_reused
    monkeypatch.setattr(explore, "WORTH_AFTER", 5)
    switched = _same(make, view=view)
    assert switched.stats.digests_reused == 0


def test_without_the_merge_check_the_same_graph() -> None:
    """--no-check-merges: no digests, the same states and edges."""
    found = _same(pig_engine, max_states=150, check_merges=False)
    assert not found.store.digests
