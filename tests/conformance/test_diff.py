"""Diffs in the rules' terms: every differing field, in the spec's order, with its clauses."""

from __future__ import annotations

import json
from pathlib import Path

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.report import render_json, render_text
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
                          options=Options(examples=10, trace_dir=tmp_path, golden=False,
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
                          options=Options(examples=10, trace_dir=tmp_path, golden=False,
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
