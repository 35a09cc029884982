"""`rulespec verify -j N` and `--cluster`: the searches of one run (each other option of
`--all-rulings`, each configuration of `--published`) side by side, with the same report as one
process gives; and the traces of one run's searches under other options kept apart.

The configuration is Pig's published coin-die miniature (a die of faces 1 and 2, target 3,
PIG-AMB-01 at-once, the view `pig-on-hold` with its `keep(...)` terms and parameter ceilings),
whose other options (PIG-AMB-01 on-hold, PIG-AMB-02 equal-turns, PIG-AMB-03 chance-draw) are
each a search of their own.
"""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec.cli import cli
from rulespec.executors import executor_for
from rulespec.spec.verify_views import declared_view_terms
from rulespec.verify.published import load_views
from rulespec.verify.report import rulings_json, verification_json
from rulespec.verify.run import Bounds, Setup, verify, verify_rulings
from tests.bridges.support import pig
from tests.support import dask_cluster, without_keys
from tests.verify.support import PIG_COIN, TIMING

COIN = PIG_COIN["die"]


def _setup() -> Setup:
    spec, engine_type = pig()
    return Setup(spec, engine_type, 2, {"PIG-AMB-01": "at-once"}, (), dict(PIG_COIN))


def _bounds() -> Bounds:
    return Bounds(view=load_views()["pig-on-hold"].terms, cross_check=200, optimal=True)


def _untimed(value: Any) -> Any:
    return without_keys(value, TIMING)


def _report(executor: Any) -> Any:
    run = verify_rulings(_setup(), _bounds(), executor=executor)
    assert [(o.ambiguity, o.option) for o in run.options] == [
        ("PIG-AMB-01", "on-hold"), ("PIG-AMB-02", "equal-turns"), ("PIG-AMB-03", "chance-draw")]
    assert all(o.verification is not None for o in run.options)
    return _untimed(rulings_json(run))


def test_a_search_survives_the_trip_from_a_worker() -> None:
    """PIG-END-01: a finished search (its view's compiled keep(...) terms and bound ceilings,
    its compiled invariants) pickles, and the copy reports what the search found."""
    result = verify(_setup().engine(), _bounds())
    copy = pickle.loads(pickle.dumps(result))
    assert _untimed(verification_json(copy)) == _untimed(verification_json(result))
    assert copy.exploration.view.key(result.exploration.engine.state()) == \
        result.exploration.view.key(result.exploration.engine.state())
    assert copy.exploration.checks.unkeyed == result.exploration.checks.unkeyed


# Integration: two worker processes searching four configurations (6 s under CI's load).
@pytest.mark.integration
def test_two_local_processes_give_the_report_of_one() -> None:
    """PIG-AMB-01, PIG-AMB-02, PIG-AMB-03: each other option searched in a worker process gives
    the states, verdicts and exact fractions this process gives, in the same order."""
    with executor_for(1) as inline:
        one = _report(inline)
    with executor_for(2) as pool:
        two = _report(pool)
    assert one == two
    assert one["baseline"]["status"] == "proved"


@pytest.mark.integration
def test_a_dask_cluster_gives_the_report_of_one() -> None:
    """PIG-AMB-01 to PIG-AMB-03: the same on a Dask LocalCluster (the extra 'cluster')."""
    one = _report(None)
    with dask_cluster() as client:
        dask = _report(client)
    assert dask == one


def test_each_options_traces_have_their_own_names(tmp_path: Path) -> None:
    """PIG-AMB-02: under equal-turns the declared view's capped turn total merges a tie with a
    win (tests/verify/test_pig_equal_turns.py), and the
    merge check stops that option's search (KEY-BEHAVIOUR); its two traces name the option, so
    no other search of the run writes over them (they once shared the baseline's names)."""
    spec, engine_type = pig()
    parameters = {**PIG_COIN, "target_score": 4}
    setup = Setup(spec, engine_type, 2, {}, (), parameters)
    run = verify_rulings(setup, Bounds(view=declared_view_terms(spec, parameters),
                                       cross_check=0, outcomes=False), trace_dir=tmp_path)
    equal = next(o for o in run.options if o.option == "equal-turns")
    assert equal.verification is not None
    assert [v.kind for v in equal.verification.violations] == ["KEY-BEHAVIOUR"]
    names = sorted(p.name for p in tmp_path.glob("*.jsonl"))
    assert "verify-pig-pig-amb-02-equal-turns-key-behaviour-a.jsonl" in names, names
    assert not [n for n in names if n.startswith("verify-pig-key-behaviour")], names


# Integration: two whole command runs, one with two worker processes (5 s under CI's load).
@pytest.mark.integration
def test_the_command_line_with_two_jobs(tmp_path: Path) -> None:
    """PIG-AMB-01 to PIG-AMB-03: `rulespec verify ... --all-rulings -j 2` prints the report of
    one process (timing aside)."""
    args = ["verify", "pig", "-n", "2", "-p", "target_score=3", "-p",
            json.dumps(COIN, separators=(",", ":")).join(["die=", ""]),
            "-r", "PIG-AMB-01=at-once", "--views", "pig-on-hold", "--cross-check", "200",
            "--all-rulings", "--format", "json", "--trace-dir", str(tmp_path)]
    pig()  # the example plugin importable, and registered while the command runs
    from rulespec.spec.registry import registered_in_process
    from rulespec_pig import GAME  # type: ignore[import-not-found, unused-ignore]

    with registered_in_process("pig", GAME):
        one = CliRunner().invoke(cli, args)
        two = CliRunner().invoke(cli, [*args, "-j", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    assert _untimed(json.loads(two.stdout)) == _untimed(json.loads(one.stdout))


# Integration: two whole command runs, one with two worker processes (3 s and their children).
@pytest.mark.integration
def test_published_configurations_side_by_side(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """RR-END-01: `rulespec verify --published -j 2` searches each configuration in a worker
    and reports them in the file's order, as one process does (timing aside). (Their other
    options, 25 searches, would take a minute: the option runs on workers are checked above.)"""
    from rulespec.verify import published

    data = tmp_path / "published.yaml"
    tiny = ("  - game: ruby-rhino\n    players: 2\n"
            "    parameters: {target_score: 1, total_coins: 3, coins_per_player: 1}\n"
            "    forget: [history, round, result.rounds]\n    cross_check: 0\n")
    data.write_text("configurations:\n" + tiny + "    all_rulings: false\n"
                    + tiny.replace("target_score: 1", "target_score: 2")
                    + "    all_rulings: false\n", encoding="utf-8")
    monkeypatch.setattr(published, "DATA", data)
    runs = [CliRunner().invoke(cli, ["verify", "--published", "ruby-rhino", "--format", "json",
                                     *jobs]) for jobs in ([], ["-j", "2"])]
    for run in runs:
        assert run.exit_code == 0, run.output
    one, two = (_untimed(json.loads(r.stdout)) for r in runs)
    assert two == one
    assert [d["baseline"]["config"]["parameters"]["target_score"] for d in one] == [1, 2]
    assert one[0]["baseline"]["states"] != one[1]["baseline"]["states"]
