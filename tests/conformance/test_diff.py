"""Diffs in the rules' terms: every differing field, in the spec's order, with its clauses."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.reports.report import render_json, render_text
from rulespec.reference.core import Engine
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec
from rulespec.spec.statediff import StateSchema, describe, diff_states

from .corpus import corpus


def test_diff_lists_every_field_in_the_spec_order() -> None:
    """Fool's schema lists phase before leader: the diff says /phase first, not alphabetically."""
    schema = StateSchema(get_spec("fool").state_schema)
    got = {"leader": 1, "phase": "deal", "scores": [0, 3, 0, 0], "extra": True}
    want = {"leader": 2, "phase": "play", "scores": [0, 0, 0, 0], "fools": []}
    changes = diff_states(got, want, schema)
    assert [c.path for c in changes] == ["/phase", "/leader", "/fools", "/scores/1", "/extra"]
    assert [c.kind for c in changes] == ["changed", "changed", "missing", "changed", "extra"]
    assert "FOOL-SCORE-01" in changes[3].clauses
    assert describe(changes, limit=2).endswith("and 3 more (all in the JSON report)")


def test_every_state_property_names_its_clauses() -> None:
    """Issue 10: the important state fields of every built-in game name the clauses governing them."""
    for game in ("dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"):
        if game not in game_ids():
            continue
        fields = dict(StateSchema(get_spec(game).state_schema).fields())
        named = [f for f, clauses in fields.items() if clauses]
        assert len(named) >= len(fields) // 2, f"{game}: only {named} name their clauses"
        assert fields["/phase"], f"{game}: /phase names no clause"


def test_state_failure_cites_the_fields_clauses_not_the_last_actions(tmp_path: Path) -> None:
    """DDO-ROUND-01: a rotating round starter is reported at /round_starter, citing DDO-ROUND-01
    first (the roll action's own clauses come after), with every field in the JSON report."""
    bad = next(b for b in corpus(["dado-de-ouro"]) if b.name == "rotating-starter")
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    report = check_engine(adapter, bad.game, players=[4],
                          options=Options(examples=10, trace_dir=tmp_path, golden=False, rule_examples=False,
                                          shrink_seconds=4))
    failure = report.failures[0]
    assert failure.check == "DIFF-STATE"
    assert failure.clauses[0] == "DDO-ROUND-01", failure.clauses
    paths = [d["path"] for d in failure.diff]
    assert "/round_starter" in paths and len(paths) > 1, paths
    doc = json.loads(render_json(report))
    assert [d["path"] for d in doc["failures"][0]["diff"]] == paths
    assert doc["failures"][0]["shrunk_from"] >= len(failure.actions)
    assert "fields differ" in render_text(report)


def test_replay_names_the_step_the_fields_and_their_clauses(tmp_path: Path) -> None:
    """`rulespec replay` of a minimal failing trace says which fields differ and which clauses
    govern them (DDO-ROUND-01 for the round starter), in text and in JSON."""
    from click.testing import CliRunner

    from rulespec.cli import cli

    bad = next(b for b in corpus(["dado-de-ouro"]) if b.name == "rotating-starter")
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    report = check_engine(adapter, bad.game, players=[4],
                          options=Options(examples=10, trace_dir=tmp_path, golden=False, rule_examples=False,
                                          shrink_seconds=4))
    trace = report.failures[0].trace
    assert trace is not None
    text = CliRunner().invoke(cli, ["replay", trace])
    assert text.exit_code == 1
    assert f"step {report.failures[0].step}" in text.output
    assert "/round_starter" in text.output and "DDO-ROUND-01" in text.output
    doc = json.loads(CliRunner().invoke(cli, ["replay", trace, "--format", "json"]).output)
    assert "/round_starter" in [d["path"] for d in doc["diff"]]
    assert doc["clauses"][0] == "DDO-ROUND-01"


def test_every_state_array_declares_its_order() -> None:
    """Issue 10: the state schema states every convention a comparison depends on; every array
    of every built-in game's state has a declared order."""
    for game in ("dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"):
        if game not in game_ids():
            continue
        schema = StateSchema.of(get_spec(game))
        declared = {"/" + "/".join(c.path): c.order for c in schema.conventions}
        missing = [p for p in schema.arrays() if not declared.get(p)]
        assert not missing, f"{game}: arrays with no declared order: {missing}"


def _fool_with_state(change: Callable[[dict[str, Any]], dict[str, Any]]) -> type[Engine]:
    base = engine_class(get_spec("fool"))

    def state(self: Engine) -> dict[str, Any]:
        return change(base.state(self))

    return type("ConventionFool", (base,), {"state": state})


def _first_failure(cls: type[Engine], players: int, tmp_path: Path) -> Any:
    report = check_engine(InProcessAdapter({"fool": cls}), "fool", players=[players],
                          options=Options(examples=30, trace_dir=tmp_path, golden=False, rule_examples=False,
                                          shrink_seconds=2, infer_rulings=False))
    assert not report.ok
    return report.failures[0]


def test_fools_listed_worst_first_fail_citing_the_declared_order(tmp_path: Path) -> None:
    """FOOL-FOOL-03: with two Fools per trick, listing them in another order than the declared
    one (ascending seats) fails at /fools, quoting that convention."""
    def worst_first(st: dict[str, Any]) -> dict[str, Any]:
        last = st["last_trick"]
        if last is not None:
            last = {**last, "fools": sorted(last["fools"], reverse=True)}
        return {**st, "fools": sorted(st["fools"], reverse=True), "last_trick": last}

    failure = _first_failure(_fool_with_state(worst_first), 8, tmp_path)
    assert failure.check == "DIFF-STATE", failure.message
    assert "/fools has the reference's items in another order" in failure.message
    assert "ascending seat order" in failure.message and "FOOL-FOOL-01" in failure.clauses


def test_leader_set_during_the_deal_fails_citing_the_declared_convention(tmp_path: Path) -> None:
    """FOOL-LEAD-01: a leader set while dealing fails at /leader, quoting when it is null."""
    def early_leader(st: dict[str, Any]) -> dict[str, Any]:
        if st["phase"] == "deal" and st["dealer"] is not None:
            return {**st, "leader": (st["dealer"] + 1) % len(st["scores"])}
        return st

    failure = _first_failure(_fool_with_state(early_leader), 4, tmp_path)
    assert failure.check == "DIFF-STATE", failure.message
    assert failure.diff[0]["path"] == "/leader" and "convention" in failure.diff[0]
    assert "null while the dealer is chosen" in failure.message
    assert failure.clauses[0] == "FOOL-LEAD-01"


@pytest.mark.parametrize("steer", [False, True], ids=["hypothesis", "steered"])
def test_a_shorter_failing_game_is_searched_for(steer: bool, tmp_path: Path) -> None:
    """DDO-TIE-02: after shrinking, other games capped below the failing one's length are tried;
    the tie-break bug shows in a ten-roll game (an opening roll, a tie, a re-roll). Steered (the
    default), the first game to meet the bug parts from the reference's states before the
    invariant breaks, so the state diff names it; the search for a shorter game works the same."""
    bad = next(b for b in corpus(["dado-de-ouro"]) if b.name == "tie-gains-reroll")
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    report = check_engine(adapter, bad.game, players=[4],
                          options=Options(examples=25, trace_dir=tmp_path, golden=False, rule_examples=False,
                                          shrink_seconds=4, shorter_seconds=5,
                                          determinism_every=0, steer=steer))
    failure = report.failures[0]
    assert failure.check == ("DIFF-STATE" if steer else "INVARIANT"), failure.message
    assert failure.shrunk_from is not None and len(failure.actions) < failure.shrunk_from
    assert len(failure.actions) <= 10, len(failure.actions)
