"""The sequential sweep (issue 44 item 2): open records first, each to a target half-width,
with the looks in the correction; the same seeds give the same sweep.

Cites RR-AMB-01 (deferred: the five identical rolls, RR-ROLL-04) and RR-AMB-04 (ruled: who
chooses the coins, RR-CURSE-02) as one open and one settled record of Ruby Rhino.
"""

from __future__ import annotations

import functools
import json
import math
import time
from statistics import NormalDist
from typing import Any

import pytest

from rulespec.executors import executor_for
from rulespec.impact.measure import ROUND_BATCHES
from rulespec.impact.sequential import (
    FIRST_ROUND,
    MAX_LOOKS,
    TARGETS,
    _Looks,
    is_open,
    planned_intervals,
    sequential_sweep,
    target,
)
from rulespec.impact.sweep import Probed, Setting, finish
from rulespec.spec.registry import get_spec

SPEC = get_spec("ruby-rhino")
TWO = Setting(2)


def _probed() -> Probed:
    where: dict[str, list[Setting]] = {a: [] for a in SPEC.ambiguities}
    where["RR-AMB-01"] = [TWO]
    where["RR-AMB-04"] = [TWO]
    reached = {TWO: {a: (50 if where[a] else 0) for a in SPEC.ambiguities}}
    return Probed(SPEC, [TWO], [], reached, ["random"], where, 50)


def _sweep(deadline: float, max_looks: int) -> dict[str, Any]:
    with executor_for(1, None) as executor:
        return sequential_sweep(_probed(), seed=3, batch_size=5, executor=executor,
                                deadline=deadline, max_looks=max_looks)


@functools.cache
def _one_look() -> str:
    """A one-look sweep (seed 3), as JSON: made once, shared by the tests that read it."""
    return json.dumps(_sweep(time.monotonic() + 600, 1))


def test_open_records_first_and_the_strongest_agent_aims_lower() -> None:
    assert is_open(SPEC, "RR-AMB-01") and not is_open(SPEC, "RR-AMB-04")
    assert target("random", ["random", "greedy", "mcts"], "open") == TARGETS["open"]["random"]
    assert target("mcts", ["random", "greedy", "mcts"], "open") == TARGETS["open"]["strongest"]
    assert target("greedy", ["random", "greedy"], "settled") == TARGETS["settled"]["strongest"]
    assert target("random", ["random"], "open") == TARGETS["open"]["random"]
    # one seat interval per seat, option other than the default, setting and agent
    options = len(SPEC.ambiguities["RR-AMB-01"]["options"]) - 1
    assert planned_intervals(SPEC, {"RR-AMB-01": [TWO, Setting(3)]}, ["random"]) == 5 * options


def test_a_measurement_stops_at_its_target_its_looks_or_the_time() -> None:
    class Tally:
        def __init__(self, half: float) -> None:
            self.half = half

        def measured(self, on: str, *, tests: bool) -> dict[str, Any]:
            iv = {"value": 0.0, "low": -self.half, "high": self.half}
            return {"R": {"results": [{"trigger_rate": {"value": 1.0}, "games": 400,
                                       "seat_win_rate_change": [iv]}]}}

    far = time.monotonic() + 3600
    looks = _Looks(aim=0.5, z=2.0, deadline=far, max_looks=3)
    assert looks.enough(Tally(0.01)) and looks.stopped == "precision"  # type: ignore[arg-type]
    looks = _Looks(aim=0.001, z=2.0, deadline=far, max_looks=2)
    assert not looks.enough(Tally(0.5))  # type: ignore[arg-type]
    assert looks.enough(Tally(0.5)) and looks.stopped == "looks"  # type: ignore[arg-type]
    looks = _Looks(aim=0.001, z=2.0, deadline=time.monotonic() - 1, max_looks=9)
    assert looks.enough(Tally(0.5)) and looks.stopped == "budget"  # type: ignore[arg-type]


def test_the_sweep_measures_open_then_settled_and_corrects_over_the_looks() -> None:
    data = _sweep(time.monotonic() + 600, max_looks=2)
    first, second = (data["records"][a]["precision"][0] for a in ("RR-AMB-01", "RR-AMB-04"))
    assert first["group"] == "open" and second["group"] == "settled"
    assert first["target"] == TARGETS["open"]["random"]
    assert first["stopped"] == "looks" and first["looks"] == 2
    assert first["games"] == 5 * (FIRST_ROUND + ROUND_BATCHES)
    assert data["design"]["looks"] == 2 and data["design"]["intervals"] > 0
    assert data["records"]["RR-AMB-05"]["measurements"] == []
    finish({"ruby-rhino": data})
    seats = data["correction"]["seat_intervals"]
    assert data["correction"]["looks"] == 2
    assert data["correction"]["seat_level"] == pytest.approx(0.05 / (seats * 2), rel=1e-3)
    # the corrected interval uses the level over the looks: wider than over the seats alone
    r = data["records"]["RR-AMB-01"]["measurements"][0]["results"][0]
    iv, wide = r["seat_win_rate_change"][0], r["seat_win_rate_change_corrected"][0]
    z_seats = NormalDist().inv_cdf(1 - 0.05 / (2 * seats))
    if iv["high"] > iv["low"]:
        assert wide["high"] - wide["value"] > z_seats / 1.97 * (iv["high"] - iv["value"])


def test_the_same_seed_gives_the_same_sweep_and_the_time_stops_it() -> None:
    one, two = json.loads(_one_look()), _sweep(time.monotonic() + 600, 1)
    for data in (one, two):
        data.pop("measured_on")
    assert one == two
    late = _sweep(time.monotonic() - 1, MAX_LOOKS)
    assert {p["stopped"] for a in ("RR-AMB-01", "RR-AMB-04")
            for p in late["records"][a]["precision"]} == {"budget"}


# Integration: a Dask cluster started and three sweeps, 6 s (issue 46's budget).
@pytest.mark.integration
def test_local_processes_and_a_dask_cluster_give_the_same_sequential_sweep() -> None:
    """Done-when of issue 44: the sequential design's sweep file is the same, byte for byte,
    whatever runs its batches (this process, two local processes, a Dask LocalCluster)."""
    import json

    from tests.support import dask_distributed

    def sweep(workers: int, cluster: str | None) -> str:
        with executor_for(workers, cluster) as executor:
            data = sequential_sweep(_probed(), seed=3, batch_size=5, executor=executor,
                                    deadline=time.monotonic() + 600, max_looks=3)
        data.pop("measured_on")
        return json.dumps(data, sort_keys=True)

    inline = sweep(1, None)
    assert sweep(2, None) == inline
    distributed = dask_distributed()
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       dashboard_address=None)
    try:
        assert sweep(1, cluster.scheduler_address) == inline
    finally:
        cluster.close()
    measured = json.loads(inline)["records"]["RR-AMB-01"]
    assert measured["precision"] and measured["measurements"][0]["results"]


def test_rounds_grow_toward_the_games_the_aim_needs() -> None:
    """Fixed rounds of 200 games stopped Dado de Ouro's open record at ±2.9 points after its
    25 looks; a round now asks for the games the aim needs, at most doubling what was played."""
    looks = _Looks(aim=0.02, z=3.0, deadline=time.monotonic() + 60, max_looks=MAX_LOOKS)
    looks.half_width = 0.04  # four times the games needed: capped at doubling
    assert looks.next_round(200, 50) == 200 // 50
    assert looks.next_round(5000, 50) == 5000 // 50
    looks.half_width = 0.022  # 1.21 times the games: 210 more of 1,000, five batches of 50
    assert looks.next_round(1000, 50) == 5
    looks.half_width = 0.0201  # a few games short: never fewer than a round
    assert looks.next_round(1000, 50) == 4
    looks.half_width = 0.019  # reached: the round size stays the default
    assert looks.next_round(1000, 50) == 4
    assert looks.next_round(0, 50) == 4


def test_open_then_settled_in_two_passes_is_the_one_call_sweep() -> None:
    """``rulespec impact --reached --sequential`` measures every game's open records before any
    settled one; done in two passes (``groups``, ``into``) the sweep is the one-call sweep."""
    deadline = time.monotonic() + 600
    with executor_for(1, None) as executor:
        whole = sequential_sweep(_probed(), seed=3, batch_size=5, executor=executor,
                                 deadline=deadline, max_looks=2)
        opened = sequential_sweep(_probed(), seed=3, batch_size=5, executor=executor,
                                  deadline=deadline, max_looks=2, groups=("open",))
        assert [p["group"] for p in opened["records"]["RR-AMB-01"]["precision"]] == ["open"]
        assert opened["records"]["RR-AMB-04"]["precision"] == []
        both = sequential_sweep(_probed(), seed=3, batch_size=5, executor=executor,
                                deadline=deadline, max_looks=2, groups=("settled",), into=opened)
    for data in (whole, both):
        data.pop("measured_on")
    assert json.dumps(both, sort_keys=True) == json.dumps(whole, sort_keys=True)


class _Clock:
    """A clock that moves a tenth of a second each time it is read: the sweep's time
    decisions, made on it, do not depend on how busy the machine is."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now = round(self.now + 0.1, 6)
        return self.now


def test_the_time_is_shared_so_no_measurement_takes_it_all(monkeypatch: Any) -> None:
    """Two open measurements of RR-AMB-01 (2 and 3 players) whose target needs far more than the
    two (clock) seconds given: each gets a share and plays, the second is not starved by the
    first (Fool's first open measurement had taken a whole 58-minute sweep). On the wall clock
    this failed on a busy machine, where the first round alone took both seconds."""
    from rulespec.impact import sequential

    clock = _Clock()
    monkeypatch.setattr(sequential, "time", clock)
    three = Setting(3)
    where: dict[str, list[Setting]] = {a: [] for a in SPEC.ambiguities}
    where["RR-AMB-01"] = [TWO, three]
    reached = {s: {a: (50 if s in where[a] else 0) for a in SPEC.ambiguities}
               for s in (TWO, three)}
    probed = Probed(SPEC, [TWO, three], [], reached, ["random"], where, 50)
    with executor_for(1, None) as executor:
        data = sequential_sweep(probed, seed=3, batch_size=5, executor=executor,
                                deadline=2.0, max_looks=MAX_LOOKS)
    stops = data["records"]["RR-AMB-01"]["precision"]
    assert [s["players"] for s in stops] == [2, 3]
    assert all(s["games"] > 0 for s in stops), stops
    assert stops[0]["stopped"] == "budget", stops


def test_a_sweep_of_the_open_records_keeps_the_settled_ones_as_saved() -> None:
    """``--open-only``: RR-AMB-01 (deferred) is measured again, RR-AMB-04 (ruled) keeps the
    saved sweep's measurement, marked with when it was made, and both are corrected together;
    a saved sweep lacking a settled record is refused with what to do."""
    from rulespec.impact.sequential import keep_saved, open_records

    saved = json.loads(_one_look())
    saved.update(measured_on="2026-12-01", rulespec="0.3.0")
    with executor_for(1, None) as executor:
        start = keep_saved(_probed(), saved, open_records(SPEC))
        assert start["records"]["RR-AMB-01"]["measurements"] == []
        kept = start["records"]["RR-AMB-04"]
        assert kept["measurements"] == saved["records"]["RR-AMB-04"]["measurements"] != []
        assert kept["kept"]["measured_on"] == "2026-12-01"
        again = sequential_sweep(_probed(), seed=4, batch_size=5, executor=executor,
                                 deadline=time.monotonic() + 600, max_looks=1,
                                 groups=("open",), into=start)
    assert [p["group"] for p in again["records"]["RR-AMB-01"]["precision"]] == ["open"]
    assert again["records"]["RR-AMB-01"]["measurements"] != \
        saved["records"]["RR-AMB-01"]["measurements"]  # seed 4, not the saved seed 3
    assert again["records"]["RR-AMB-04"]["kept"]["rulespec"] == "0.3.0"
    finish({"ruby-rhino": again})
    assert again["records"]["RR-AMB-04"]["verdict"]["status"] in ("none", "effect",
                                                                    "distribution")
    del saved["records"]["RR-AMB-04"]
    with pytest.raises(ValueError, match=r"no measurement of RR-AMB-04; .*measure those too"):
        keep_saved(_probed(), saved, open_records(SPEC))
    # --only RR-AMB-04: measured, so nothing is missing
    assert keep_saved(_probed(), saved, {"RR-AMB-04"})["records"]["RR-AMB-04"]["measurements"] == []


def test_a_record_the_time_left_unplayed_keeps_its_saved_figures() -> None:
    """``--only RR-AMB-04`` with no time left: no game is played, and the record keeps the saved
    measurement (with the budget stops beside it) instead of turning into "never reached"; a
    sweep with nothing saved calls it unmeasured, not unreached."""
    from rulespec.impact.sequential import keep_saved, restore_unplayed
    from rulespec.impact.sweep import verdict

    saved = json.loads(_one_look())
    with executor_for(1, None) as executor:
        late = sequential_sweep(_probed(), seed=3, batch_size=5, executor=executor,
                                deadline=time.monotonic() - 1, max_looks=1,
                                into=keep_saved(_probed(), saved, {"RR-AMB-04"}))
    record = late["records"]["RR-AMB-04"]
    assert record["measurements"] == [] and verdict(record)["status"] == "unmeasured"
    assert restore_unplayed(late, saved) == ["RR-AMB-04"]
    record = late["records"]["RR-AMB-04"]
    assert record["measurements"] == saved["records"]["RR-AMB-04"]["measurements"] != []
    assert [p["stopped"] for p in record["precision"]][-1] == "budget"
    assert record["precision"][-1]["superseded"] is True
    assert restore_unplayed(late, saved) == []


def test_a_record_measured_less_than_saved_keeps_its_saved_figures() -> None:
    """The attempt played fewer pairs than the saved figures at every setting and agent (a busy
    machine's short budget): the saved ones stay; with as many or more, the new ones do."""
    from rulespec.impact.sequential import restore_unplayed

    saved = json.loads(_one_look())
    fewer = json.loads(_one_look())
    for m in fewer["records"]["RR-AMB-01"]["measurements"]:
        for r in m["results"]:
            r["games"] = int(r["games"]) - 5
    assert restore_unplayed(fewer, saved) == ["RR-AMB-01"]
    assert fewer["records"]["RR-AMB-01"]["measurements"] == \
        saved["records"]["RR-AMB-01"]["measurements"]
    assert fewer["records"]["RR-AMB-01"]["kept"]["seed"] == 3
    same = json.loads(_one_look())
    assert restore_unplayed(same, saved) == []


def test_a_round_is_cut_to_the_time_left_at_the_measured_pace(monkeypatch: Any) -> None:
    """Ten clock seconds for the first 100 games (two batches of 50): with 10 seconds left, a
    round the aim would make 4 batches long is cut to the 2 that fit, and to 1 (never none)
    when less than a batch's time is left."""
    from rulespec.impact import sequential

    clock = _Clock()
    monkeypatch.setattr(sequential, "time", clock)
    looks = _Looks(aim=0.02, z=3.0, deadline=20.0, max_looks=MAX_LOOKS, started=0.0)
    looks.half_width = 0.04
    clock.now = 9.9  # read once more: 10.0
    assert looks.next_round(100, 50) == 2
    clock.now = 31.9
    assert looks.next_round(100, 50) == 1
    looks.started = None  # pace unknown: the aim alone
    assert looks.next_round(100, 50) == 4


def test_pairs_all_alike_do_not_make_a_change_known_exactly() -> None:
    """Twenty pairs that never differ (FOOL-AMB-03 at 4 players) give a seat change of 0 with no
    spread; the half-width is still the bound on the share of pairs that may differ, not 0."""
    from rulespec.impact.sequential import widest_half_width

    iv = {"value": 0.0, "low": 0.0, "high": 0.0}
    result = {"trigger_rate": {"value": 1.0}, "games": 20, "seat_win_rate_change": [iv]}
    z = 3.0
    half = widest_half_width({"R": {"results": [result]}}, z)
    assert half == pytest.approx(-math.log(2 * (1 - NormalDist().cdf(z))) / 20)
    assert widest_half_width({"R": {"results": [{**result, "games": 2000}]}}, z) < half


def test_a_record_named_with_only_is_replaced_even_by_fewer_games() -> None:
    """``--only FOOL-AMB-03`` asks for the record measured again: its new figures replace the
    saved ones (fewer games or not), unless no game was played at all."""
    from rulespec.impact.sequential import restore_unplayed

    saved = json.loads(_one_look())
    fewer = json.loads(_one_look())
    for m in fewer["records"]["RR-AMB-01"]["measurements"]:
        for r in m["results"]:
            r["games"] = int(r["games"]) - 5
    assert restore_unplayed(fewer, saved, replace={"RR-AMB-01"}) == []
    fewer["records"]["RR-AMB-01"]["measurements"] = []
    assert restore_unplayed(fewer, saved, replace={"RR-AMB-01"}) == ["RR-AMB-01"]
