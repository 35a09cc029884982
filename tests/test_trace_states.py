"""States at every step of a trace: deltas (JSON Patch), the header's state, the failure record.

Issue 31, part 4: a trace records the state before the first step and after every step, in full
every few steps and as a delta of the state before it elsewhere; readers old and new keep
working (the fields are additive), and every writer of rulespec goes through
``recorded_steps``.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulespec.reference import new_game, random_policy, strictly_equal
from rulespec.reference.delta import DeltaError, apply_delta, check_delta, state_delta
from rulespec.reference.trace import (
    TRACE_FORMAT,
    Recorder,
    TraceError,
    keyframe_every,
    read_trace,
    recorded_steps,
    replay,
)
from rulespec.spec.registry import game_ids, registered

KEYS = st.sampled_from(["a", "b", "c", "x/y", "t~0", ""])
SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([1.0, 0.5]) | \
    st.text(max_size=3)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(KEYS, inner, max_size=4), max_leaves=20)
STATES = st.dictionaries(KEYS, VALUES, max_size=5)


def _frozen(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@given(STATES, STATES)
def test_a_delta_turns_the_state_before_into_the_state_after(before: dict[str, Any],
                                                             after: dict[str, Any]) -> None:
    """apply(before, delta(before, after)) is after, JSON types included (1 is not 1.0 nor
    true), and ``before`` is not changed; keys with ``/`` and ``~`` are escaped."""
    kept = _frozen(before)
    ops = state_delta(before, after)
    assert check_delta(ops) is None
    rebuilt = apply_delta(before, json.loads(json.dumps(ops)))
    assert strictly_equal(rebuilt, after), (before, after, ops)
    assert _frozen(before) == kept
    assert (ops == []) == strictly_equal(before, after)


@pytest.mark.parametrize("game", game_ids())
def test_deltas_rebuild_every_state_of_a_real_game(game: str) -> None:
    """Each game's random playout: every state rebuilt from the deltas is the engine's state,
    and for the built-in games (whose states are large beside a step's change) the deltas take
    less than half the bytes of the states they stand for. An installed game may have states
    so small that a delta is longer than the state (Pig's are: 1.4 times)."""
    engine = new_game(game)
    rng = random.Random(7)
    before = engine.state()
    sizes = []
    while engine.current_player() is not None:
        engine.apply(random_policy(engine, rng))
        after = engine.state()
        ops = state_delta(before, after)
        assert strictly_equal(apply_delta(before, ops), after)
        sizes.append((len(json.dumps(ops)), len(json.dumps(after))))
        before = after
    if registered(game).distribution == "rulespec":
        assert sum(d for d, _ in sizes) * 2 < sum(s for _, s in sizes), game


@pytest.mark.parametrize(("ops", "message"), [
    ({"op": "add"}, "a list of JSON Patch operations"),
    ([{"op": "move", "from": "/a", "path": "/b"}], "add, remove or replace"),
    ([{"op": "add", "path": "/a"}], "exactly the keys op, path, value"),
    ([{"op": "remove", "path": "/a", "value": 1}], "exactly the keys op, path"),
    ([{"op": "replace", "path": "a", "value": 1}], "JSON Pointer"),
    ([{"op": "remove", "path": ""}], "only replace may name the whole state"),
])
def test_a_malformed_delta_is_named(ops: Any, message: str) -> None:
    """Only add, remove and replace, each with exactly its keys, on JSON Pointer paths."""
    problem = check_delta(ops)
    assert problem is not None and message in problem


@pytest.mark.parametrize(("ops", "message"), [
    ([{"op": "replace", "path": "/nope", "value": 1}], "no key 'nope'"),
    ([{"op": "remove", "path": "/list/5"}], "index 5 is past the end"),
    ([{"op": "replace", "path": "/list/01", "value": 1}], "'01' is not an array index"),
    ([{"op": "add", "path": "/n/x", "value": 1}], "goes into int"),
])
def test_a_delta_that_does_not_fit_is_refused(ops: Any, message: str) -> None:
    """A delta naming what the state does not have is a DeltaError saying what is missing."""
    with pytest.raises(DeltaError, match=message):
        apply_delta({"list": [1, 2], "n": 3}, ops)


def test_recorded_steps_keeps_full_states_every_few_steps() -> None:
    """Full states every ``keyframe_every`` steps, after the last and after a step without a
    state; deltas elsewhere; nothing for a step whose state is unknown."""
    states = [{"n": i, "fixed": list(range(20))} for i in range(1, 26)]
    played: list[tuple[Any, dict[str, Any], dict[str, Any] | None]] = [
        (0, {"kind": "tick"}, s) for s in states]
    played[14] = (0, {"kind": "tick"}, None)
    steps = recorded_steps(played, {"n": 0, "fixed": list(range(20))})
    assert keyframe_every(25) == 10
    full = [s.n for s in steps if s.state is not None]
    assert full == [10, 16, 20, 25]
    assert steps[14].state is None and steps[14].delta is None
    assert all(s.delta == ({"op": "replace", "path": "/n", "value": s.n},) for s in steps
               if s.state is None and s.n != 15)
    assert keyframe_every(3486) == 140


def _write(tmp_path: Path, lines: list[dict[str, Any]]) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _recorded_game(game: str = "dado-de-ouro", steps: int = 25) -> list[dict[str, Any]]:
    engine = new_game(game)
    recorder = Recorder(engine, with_states=True)
    rng = random.Random(1)
    for _ in range(steps):
        recorder.apply(random_policy(engine, rng))
    return [json.loads(line) for line in recorder.trace().lines()]


def test_a_recorded_trace_has_a_state_at_every_step_and_replays(tmp_path: Path) -> None:
    """The header's state and every step's state (full or delta) read back as the engine's
    states, and the trace replays on the reference."""
    lines = _recorded_game()
    assert "state" in lines[0]
    kinds = [("state" in line, "delta" in line) for line in lines if line["type"] == "step"]
    assert all(a != b for a, b in kinds) and sum(b for _, b in kinds) > 20
    trace = read_trace(_write(tmp_path, lines))
    assert trace.initial is not None and all(s is not None for s in trace.states())
    outcome = replay(trace)
    assert outcome.ok, outcome.message


def test_replay_names_the_step_whose_delta_differs(tmp_path: Path) -> None:
    """A delta that records another state is caught at its own step, not at the next full
    state."""
    lines = _recorded_game()
    at = next(i for i, line in enumerate(lines) if line.get("n") == 4)
    assert "delta" in lines[at]
    lines[at]["delta"] = [*lines[at]["delta"], {"op": "replace", "path": "/round", "value": 99}]
    outcome = replay(read_trace(_write(tmp_path, lines)))
    assert not outcome.ok and outcome.step == 4, outcome.message
    assert "/round" in outcome.message


def test_replay_checks_the_header_state(tmp_path: Path) -> None:
    """The state before the first step is the reference's initial state, or the replay says
    so at the header."""
    lines = _recorded_game()
    lines[0]["state"] = {**lines[0]["state"], "round": 7}
    outcome = replay(read_trace(_write(tmp_path, lines)))
    assert not outcome.ok and outcome.step == 0 and "header" in outcome.message


@pytest.mark.parametrize(("change", "message"), [
    (lambda ls: ls[0].pop("state"), "no state before it"),
    (lambda ls: ls[2].update(state={"x": 1}), "a state or a delta, not both"),
    (lambda ls: ls[2].update(delta=[{"op": "remove", "path": "/nope"}]), "does not fit"),
    (lambda ls: ls[2].update(delta={"op": "x"}), "a list of JSON Patch operations"),
    (lambda ls: ls[2].update(delta=[{"op": "replace", "path": "", "value": 3}]), "not an object"),
    (lambda ls: ls[0].update(state=[1]), "the header's state must be an object"),
    (lambda ls: ls[-1].update(failure={"check": "DIFF-STATE"}), "a 'check' and a 'message'"),
    (lambda ls: ls[-1].update(failure={"check": "X", "message": "m", "why": 1}), "'why'"),
    (lambda ls: ls[-1].update(failure={"check": "X", "message": "m", "step": 99}),
     "failure.step must be a step number from 0 to 25"),
])
def test_broken_states_name_the_line(tmp_path: Path, change: Any, message: str) -> None:
    """Each malformed new field is refused with the line and what is wrong."""
    lines = _recorded_game()
    if "delta" not in lines[2]:
        pytest.skip("step 2 records a full state")
    change(lines)
    with pytest.raises(TraceError, match=message) as info:
        read_trace(_write(tmp_path, lines))
    assert "t.jsonl:" in str(info.value)


def test_a_failure_record_reads_back(tmp_path: Path) -> None:
    """The result line's failure (check, step, message, expected, actual) reads back as is."""
    lines = _recorded_game(steps=3)
    failure = {"check": "DIFF-LEGAL", "step": 0, "message": "legal actions differ",
               "expected": {"actor": 0, "actions": [{"kind": "a"}, {"kind": "b"}]},
               "actual": {"actor": 0, "actions": [{"kind": "b"}, {"kind": "a"}]},
               "clauses": ["X-1"], "title": "t"}
    lines[-1]["failure"] = failure
    trace = read_trace(_write(tmp_path, lines))
    assert trace.failure == failure
    assert json.loads(list(trace.lines())[-1])["failure"] == failure


def test_an_old_trace_without_the_new_fields_still_reads_and_replays() -> None:
    """A trace written before the header's state and deltas (states every few steps, none
    before the first step) reads with unknown states as None and replays."""
    lines = _recorded_game(steps=12)
    old = [{k: v for k, v in lines[0].items() if k != "state"}, *lines[1:]]
    for line in old:
        line.pop("delta", None)
    assert old[0]["format"] == TRACE_FORMAT
    trace = read_trace(io.StringIO("".join(json.dumps(x) + "\n" for x in old)))
    states = trace.states()
    assert trace.initial is None and states[0] is None and states[-1] is not None
    assert replay(trace).ok


def test_play_records_states_by_default(tmp_path: Path) -> None:
    """``rulespec play --trace`` records every state (``--no-states``: the actions only)."""
    from click.testing import CliRunner

    from rulespec.cli import cli

    with_states, without = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    runner = CliRunner()
    for path, extra in ((with_states, []), (without, ["--no-states"])):
        result = runner.invoke(cli, ["play", "dado-de-ouro", "-q", "--trace", str(path), *extra])
        assert result.exit_code == 0, result.output
    full = read_trace(with_states)
    assert full.initial is not None and all(s is not None for s in full.states())
    bare = read_trace(without)
    assert bare.initial is None and all(s is None for s in bare.states())
    assert [s.action for s in full.steps] == [s.action for s in bare.steps]


def test_traces_old_and_new_match_the_trace_schema(tmp_path: Path) -> None:
    """conformance/schema/trace.json describes every line rulespec writes (golden traces with a
    state at every step, a failure record) and every line it wrote before (a frozen release's
    golden trace), and refuses a step with both a state and a delta."""
    import gzip

    from jsonschema import Draft202012Validator

    from rulespec.data import kit_dir
    from rulespec.releases.store import release_traces, releases_root

    schema = json.loads((kit_dir() / "schema" / "trace.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    from rulespec.spec.registry import golden_paths

    texts = [p.read_text(encoding="utf-8") for g in game_ids() for p in golden_paths(g)[:2]]
    frozen = release_traces(releases_root("fool") / "1.0.0", "fool")
    assert frozen, "the first frozen release of Fool has golden traces"
    texts.append(gzip.decompress(frozen[0].read_bytes()).decode("utf-8"))
    lines = _recorded_game(steps=3)
    lines[-1]["failure"] = {"check": "DIFF-STATE", "step": 2, "message": "m", "expected": {},
                            "actual": {}, "clauses": [], "diff": [{"path": "/x"}]}
    texts.append("".join(json.dumps(line) + "\n" for line in lines))
    for text in texts:
        for line in text.splitlines():
            errors = list(validator.iter_errors(json.loads(line)))
            assert not errors, (line[:200], errors[0].message)
    both = {**lines[2], "state": {}, "delta": []}
    assert not validator.is_valid(both)


def test_replay_prints_the_failure_a_trace_records(tmp_path: Path) -> None:
    """A failure not in any state (legal actions in another order, at the first position)
    replays cleanly; ``rulespec replay`` then says what the trace records, and its JSON has it."""
    from click.testing import CliRunner

    from rulespec.cli import cli

    lines = _recorded_game(steps=0)
    failure = {"check": "DIFF-LEGAL", "step": 0, "message": "legal actions are the "
               "reference's but not in canonical order", "expected": {"actor": "chance"},
               "actual": {"actor": "chance"}}
    lines[-1]["failure"] = failure
    path = _write(tmp_path, lines)
    result = CliRunner().invoke(cli, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert ("the trace records the kit's DIFF-LEGAL failure at step 0: legal actions are the "
            "reference's but not in canonical order") in result.output
    result = CliRunner().invoke(cli, ["replay", str(path), "--format", "json"])
    assert json.loads(result.output)["recorded_failure"] == failure
