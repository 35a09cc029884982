"""Golden traces: committed, regenerated identically, replayed exactly by the kit."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter
from rulespec.conformance.play import golden
from rulespec.conformance.play.runner import Conformance
from rulespec.reference.trace import read_trace
from rulespec.spec.registry import golden_paths

from .corpus import playable_games

GAMES = playable_games()


@pytest.mark.parametrize("game", GAMES)
def test_golden_traces_regenerate_identically(game: str) -> None:
    """Regenerating a game's golden traces from the reference gives the committed files."""
    problems = golden.differences(games=[game])
    assert not problems, "golden traces are out of date:\n" + "\n".join(problems)


@pytest.mark.parametrize("game", GAMES)
def test_several_golden_traces_per_game(game: str) -> None:
    """Issue 5: several golden traces per game, with every player count extreme covered."""
    paths = golden_paths(game)
    assert len(paths) >= 3, f"{game} has {len(paths)} golden traces; expected several"
    counts = {read_trace(p).config["players"] for p in paths}
    from rulespec.spec.registry import get_spec

    spec = get_spec(game)
    assert {spec.min_players, spec.max_players} <= counts


@pytest.mark.parametrize("game", GAMES)
def test_golden_traces_replay_on_the_reference(game: str) -> None:
    """GOLDEN: every golden trace replays exactly through the in-process reference."""
    kit = Conformance(InProcessAdapter(), game)
    results = kit.run_golden()
    assert results and all(f is None for _, f in results), [f for _, f in results if f]


def test_a_tampered_golden_trace_fails_with_golden() -> None:
    """GOLDEN: a trace whose recorded state was changed is reported at the changed step."""
    game = GAMES[0]
    path = golden_paths(game)[0]
    trace = read_trace(path)
    index = next(i for i, s in enumerate(trace.steps) if s.state is not None)
    step = trace.steps[index]
    assert step.state is not None
    tampered_state = {**step.state, "phase": "tampered"}
    steps = list(trace.steps)
    steps[index] = replace(step, state=tampered_state)
    kit = Conformance(InProcessAdapter(), game)
    failure = kit.replay(path.name, replace(trace, steps=steps))
    assert failure is not None and failure.check == "GOLDEN"
    assert failure.step == step.n, failure.message
    assert "/phase" in failure.message


def test_a_golden_failure_names_the_file_and_writes_the_engines_trace(tmp_path: Path) -> None:
    """GOLDEN: the failure names the golden file, lists the differing fields with their
    clauses, and writes the engine's side of the replay as a trace."""
    from rulespec.conformance import Options

    game = GAMES[0]
    path = golden_paths(game)[0]
    trace = read_trace(path)
    index = next(i for i, s in enumerate(trace.steps) if s.state is not None)
    step = trace.steps[index]
    assert step.state is not None
    steps = list(trace.steps)
    steps[index] = replace(step, state={**step.state, "phase": "tampered"})
    kit = Conformance(InProcessAdapter(), game, options=Options(trace_dir=tmp_path))
    failure = kit.replay(path.name, replace(trace, steps=steps), path=path)
    assert failure is not None and str(path) in failure.message
    assert [d["path"] for d in failure.diff] == ["/phase"]
    assert failure.trace is not None and Path(failure.trace).is_file()
    written = read_trace(failure.trace)
    assert len(written.steps) == step.n
    # The engine's side: its state at every step, and what failed where.
    assert written.initial is not None and all(s is not None for s in written.states())
    assert written.failure is not None and written.failure["check"] == "GOLDEN"
    assert written.failure["step"] == step.n
    assert written.failure["expected"]["phase"] == "tampered"
    assert written.failure["actual"] == written.states()[-1]


@pytest.mark.parametrize("game", GAMES)
def test_golden_traces_record_the_state_at_every_step(game: str) -> None:
    """Issue 31: the viewer shows the state at every step of a golden trace, so each records
    the state before the first step and after every step (full every few steps, deltas
    between), and the full states stay where older readers found them."""
    from rulespec.reference.trace import keyframe_every

    for path in golden_paths(game):
        trace = read_trace(path)
        assert trace.initial is not None, path.name
        assert all(state is not None for state in trace.states()), path.name
        every = keyframe_every(len(trace.steps))
        full = [s.n for s in trace.steps if s.state is not None]
        assert full == [n for n in range(1, len(trace.steps) + 1)
                        if n % every == 0 or n == len(trace.steps)], path.name


def test_a_golden_failure_is_found_at_the_step_of_a_delta() -> None:
    """GOLDEN: a state recorded as a delta is compared at its own step, with the recorded state
    as expected and the engine's as actual."""
    game = GAMES[0]
    path = golden_paths(game)[0]
    trace = read_trace(path)
    index = next(i for i, s in enumerate(trace.steps) if s.delta and i > 2)
    step = trace.steps[index]
    assert step.delta is not None
    steps = list(trace.steps)
    steps[index] = replace(step, delta=(*step.delta, {"op": "replace", "path": "/phase",
                                                      "value": "tampered"}))
    kit = Conformance(InProcessAdapter(), game)
    failure = kit.replay(path.name, replace(trace, steps=steps))
    assert failure is not None and failure.check == "GOLDEN"
    assert failure.step == step.n, failure.message
    assert [d["path"] for d in failure.diff] == ["/phase"]
    assert failure.expected["phase"] == "tampered" and failure.actual["phase"] != "tampered"


def _without_states(text: str) -> str:
    import json

    out = []
    for line in text.splitlines():
        obj = json.loads(line)
        obj.pop("state", None)
        obj.pop("delta", None)
        out.append(json.dumps(obj, sort_keys=True, separators=(",", ":")))
    return "\n".join(out) + "\n"


def test_a_golden_trace_of_an_earlier_revision_is_up_to_date_while_it_records_the_same_play(
        ) -> None:
    """Issue 40: a golden trace written before traces recorded states (DDO-ROUND-01's play, as
    0.1 wrote it) is not a difference for `rulespec golden --check`; a changed action is, and a
    trace of today's revision must match byte for byte."""
    import json

    from rulespec.conformance.play.golden import _same_play_as_recorded

    game = "dado-de-ouro"
    name, fresh = sorted(golden.generate([game]).items())[0]
    old = _without_states(fresh)
    assert old != fresh and _same_play_as_recorded(old, fresh), name
    lines = fresh.splitlines()
    step = json.loads(lines[3])
    step["action"] = {**step["action"], "kind": "not-the-recorded-kind"}
    moved = "\n".join([*lines[:3], json.dumps(step), *lines[4:]]) + "\n"
    assert not _same_play_as_recorded(_without_states(moved), fresh)
    assert not _same_play_as_recorded(fresh + "\n", fresh), (
        "a trace that records states is today's revision: compared byte for byte")
