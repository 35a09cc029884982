"""The behavioural half of rulespec diff: old evidence replayed on the new reference.

A change of play that the text does not show (a new record whose default overrides a
parameter, a table value) must come out as BEHAVIOUR_CHANGED, naming the golden trace, the first
step that differs and the clauses of that step's action; additions that keep play must not.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from rulespec.releases.behaviour import Evidence, evidence_of
from rulespec.releases.diff import DiffError, diff_specs
from rulespec.releases.store import release_spec
from rulespec.spec.registry import get_spec
from tests.releases.support import by_id, current_release, diff_edit

DDO = "dado-de-ouro"


def _ten_round_record(data: dict[str, Any], rounds: int) -> None:
    """Add a record DDO-AMB-90 whose default option sets rounds_per_game to ``rounds``."""
    record = copy.deepcopy(by_id(data, "ambiguities", "DDO-AMB-01"))
    record.pop("impact", None)
    record.update(id="DDO-AMB-90", title="How many rounds a game has", touches=["rounds_per_game"],
                  options=[{"id": "short", "summary": "Fewer rounds.",
                            "parameters": {"rounds_per_game": rounds}},
                           {"id": "printed", "summary": "The printed number.",
                            "parameters": {"rounds_per_game": 10}}],
                  default={**record["default"], "option": "short"}, effect="outcome")
    data["ambiguities"].append(record)
    reader = by_id(data, "parameters", "rounds_per_game")
    reader["readings"] = [*reader.get("readings", []), "DDO-AMB-90"]


def test_a_new_record_whose_default_changes_play_is_major_only_by_replay(tmp_path: Path) -> None:
    """DDO-GAME-02 / DDO-MATCH-01: a game has rounds_per_game rounds. A new record (MINOR as
    text) whose default plays 9 rounds instead of 10 changes every default game: the 1.1.0
    golden traces replayed on the new reference reveal it (MAJOR)."""
    def edit(data: dict[str, Any]) -> None:
        _ten_round_record(data, 9)

    text_only = diff_edit(tmp_path / "text", DDO, edit)
    assert [c.rule for c in text_only.changes] == ["RECORD_ADDED", "PARAMETER_TEXT_CHANGED"]
    assert text_only.level == "minor"
    full = diff_edit(tmp_path / "full", DDO, edit, behaviour=True)
    assert full.level == "major" and not full.ok
    replays = [c for c in full.changes if c.rule == "BEHAVIOUR_CHANGED"]
    traces = [c for c in replays if c.path.startswith("traces.")]
    default = next(c for c in traces if c.path == f"traces.{DDO}.p4-default.jsonl")
    roll = by_id(dict(get_spec(DDO).data), "actions", "roll")
    assert default.reason.startswith(f"{DDO}.p4-default.jsonl: step ")
    assert set(roll["clauses"]) <= set(default.clauses), default.clauses
    assert full.required_bump() == "2.0.0"


def test_the_same_record_with_the_printed_default_stays_minor(tmp_path: Path) -> None:
    """DDO-GAME-02: the same record with a default of 10 rounds keeps play: every old trace,
    example and perft table replays, so the diff stays MINOR."""
    diff = diff_edit(tmp_path, DDO, lambda data: _ten_round_record(data, 10), behaviour=True)
    assert [c.rule for c in diff.changes] == ["RECORD_ADDED", "PARAMETER_TEXT_CHANGED"], diff.changes
    assert diff.level == "minor" and diff.replayed.startswith("8 golden trace(s)")


def test_a_table_value_that_changes_play_is_caught_by_traces_and_examples(
        tmp_path: Path) -> None:
    """DDO-GAME-02: rounds_per_game is read from the printed table. Lowering it to 3 changes
    play; the replays name the traces and the rule examples that no longer hold."""
    def edit(data: dict[str, Any]) -> None:
        by_id(data, "tables", "printed_numbers")["rows"][0]["rounds_per_game"] = 3

    diff = diff_edit(tmp_path, DDO, edit, behaviour=True)
    rules = {c.rule for c in diff.changes}
    assert {"TABLE_VALUE_CHANGED", "BEHAVIOUR_CHANGED"} <= rules
    paths = {c.path.split(".", 1)[0] for c in diff.changes if c.rule == "BEHAVIOUR_CHANGED"}
    assert "traces" in paths and "examples" in paths


def test_a_default_ruling_changed_fails_an_example_that_relied_on_it(tmp_path: Path) -> None:
    """DDO-TIE-01, DDO-AMB-03: golden traces name every ruling in their header, so a new default
    does not touch them; DDO-EX-ALL-SAME-BOTH (a witness of DDO-AMB-02 that takes DDO-AMB-03's
    default) breaks the ties in the other order under min-first and no longer holds."""
    def edit(data: dict[str, Any]) -> None:
        record = by_id(data, "ambiguities", "DDO-AMB-03")
        record["default"]["option"] = "min-first"
        record.pop("impact")  # measured against the old default

    diff = diff_edit(tmp_path, DDO, edit, behaviour=True)
    failed = {c.path: c for c in diff.changes if c.rule == "BEHAVIOUR_CHANGED"}
    assert "examples.DDO-EX-ALL-SAME-BOTH" in failed, sorted(failed)
    example = failed["examples.DDO-EX-ALL-SAME-BOTH"]
    assert example.records == ("DDO-AMB-02",) and "DDO-TIE-01" in example.clauses
    assert not [p for p in failed if p.startswith("traces.")]


def test_a_removed_option_refuses_the_configurations_that_rule_it(tmp_path: Path) -> None:
    """DDO-AMB-01: a golden trace played under d8 names a ruling the new spec refuses."""
    def edit(data: dict[str, Any]) -> None:
        record = by_id(data, "ambiguities", "DDO-AMB-01")
        record["options"] = [o for o in record["options"] if o["id"] != "d8"]
        record.pop("impact")  # it measured d8

    diff = diff_edit(tmp_path, DDO, edit, behaviour=True)
    refused = [c for c in diff.changes if c.rule == "CONFIGURATION_REFUSED"]
    assert any(c.path == f"traces.{DDO}.p4-DDO-AMB-01-d8.jsonl" for c in refused), refused


def test_releases_recorded_today_replay_cleanly() -> None:
    """FOOL-DEAL-01, FOOL-AMB-15: fool 1.0.0 -> 1.1.0 added the deal-order record with the deal
    the reference always made; every 1.0.0 golden trace replays, so it is a MINOR release."""
    diff = diff_specs(release_spec("fool", "1.0.0"), release_spec("fool", "1.1.0"))
    assert diff.level == "minor" and diff.ok
    assert any(c.rule == "RECORD_ADDED" and c.records == ("FOOL-AMB-15",) for c in diff.changes)
    assert not [c for c in diff.changes if c.level == "major"]


def test_ouro_de_tolo_2_declares_the_accident_change() -> None:
    """OURO-CARD-11: no 1.0.0 trace reaches a favour drawn into an accident under OURO-AMB-06
    immediately, so 2.0.0 declares the change; the diff reports it as MAJOR."""
    diff = diff_specs(release_spec("ouro-de-tolo", "1.0.0"), release_spec("ouro-de-tolo", "2.0.0"))
    declared = [c for c in diff.changes if c.rule == "BEHAVIOUR_DECLARED"]
    assert [c.clauses for c in declared] == [("OURO-CARD-11",)]
    assert declared[0].records == ("OURO-AMB-06",) and diff.level == "major"
    assert diff.required_bump() == "2.0.0" and diff.ok


def test_a_frozen_release_carries_its_evidence() -> None:
    """The frozen 2.0.0 of Ouro de Tolo has its golden traces, rule examples and perft tables;
    the 1.0.0 freeze (from 3e44d90) has traces only, as that commit did."""
    now = evidence_of(release_spec("ouro-de-tolo", "2.0.0"))
    first = evidence_of(release_spec("ouro-de-tolo", "1.0.0"))
    assert len(now.traces) >= 9 and now.examples is not None and now.perft is not None
    assert len(first.traces) == 9 and first.examples is None and first.perft is None


def test_no_evidence_means_text_only_and_says_so(tmp_path: Path) -> None:
    """Without traces, examples or tables the diff compares text only, with a note."""
    old = current_release(DDO)
    diff = diff_specs(old, get_spec(DDO), old_evidence=Evidence())
    assert diff.level == "none" and diff.notes and "only the text" in diff.notes[0]


def test_two_games_are_not_compared() -> None:
    """A diff is between two versions of one game."""
    with pytest.raises(DiffError, match="two games"):
        diff_specs(current_release("fool"), get_spec(DDO), behaviour=False)


def test_a_changed_option_is_caught_by_its_perft_table(tmp_path: Path) -> None:
    """DDO-TURN-01, DDO-AMB-01: the d8 option rolled a die of 8 faces. Made a die of 7, the
    published perft table for d8 counts other chance outcomes from the first ply, and the d8
    golden trace meets a face the die no longer has."""
    def edit(data: dict[str, Any]) -> None:
        record = by_id(data, "ambiguities", "DDO-AMB-01")
        by_id(record, "options", "d8")["parameters"]["die_faces"] = list(range(1, 8))
        record.pop("impact")  # it measured the old d8

    diff = diff_edit(tmp_path, DDO, edit, behaviour=True)
    changed = {c.path: c for c in diff.changes if c.rule == "BEHAVIOUR_CHANGED"}
    table = changed["perft.p4-DDO-AMB-01-d8"]
    assert "at depth 1" in table.reason and "DDO-TURN-01" in table.clauses
    assert f"traces.{DDO}.p4-DDO-AMB-01-d8.jsonl" in changed
    assert "perft.p4-default" not in changed and "perft.p4-DDO-AMB-01-d10" not in changed


def test_golden_traces_with_a_state_at_every_step_are_evidence_too(tmp_path: Path) -> None:
    """Issue 31: golden traces now record the state at every step (deltas between full
    states). Frozen (gzipped) they replay as old evidence like the frozen traces written before,
    and a state recorded as a delta is checked at its own step: DDO-ROUND-02 (a round ends once
    everyone has rolled) is the round counter a tampered delta contradicts."""
    import gzip
    import json

    from rulespec.releases.behaviour import replay_trace
    from rulespec.releases.freeze import freeze
    from rulespec.releases.store import read_trace_file, release_traces

    folder = freeze(DDO, root=tmp_path)
    paths = release_traces(folder, DDO)
    spec = get_spec(DDO)
    assert paths and all(replay_trace(spec, p) is None for p in paths)
    first = read_trace_file(paths[0])
    assert first.initial is not None and all(s is not None for s in first.states())
    lines = [json.loads(x) for x in gzip.decompress(paths[0].read_bytes()).splitlines()]
    at = next(i for i, line in enumerate(lines) if "delta" in line and line["n"] > 3)
    lines[at]["delta"].append({"op": "replace", "path": "/round", "value": 99})
    paths[0].write_bytes(gzip.compress("".join(json.dumps(x) + "\n" for x in lines).encode()))
    change = replay_trace(spec, paths[0])
    assert change is not None and change.rule == "BEHAVIOUR_CHANGED"
    assert f"step {lines[at]['n']} " in change.reason and "/round" in change.reason
