"""Checks every registered game passes, whatever game it is: the registry is the only list."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rulespec.cli import main
from rulespec.reference.core import CHANCE, IllegalAction
from rulespec.reference.play import check_probabilities, playout, random_policy
from rulespec.reference.registry import check_implementation, new_game
from rulespec.reference.trace import Recorder, Trace, read_trace, replay
from rulespec.spec.registry import game_ids, get_spec, registered
from rulespec.spec.validate import load_spec

GAMES = game_ids()


@pytest.mark.parametrize("game", GAMES)
def test_spec_validates_against_its_rulebook(game: str, request: pytest.FixtureRequest) -> None:
    """Every quote of the spec is verbatim in its rulebook and the sha256 matches (the rulebook
    folder the game's package registers, else the shared one)."""
    folder = registered(game).package.rulebooks or request.getfixturevalue("rulebooks")
    load_spec(get_spec(game).path, sources=folder)


@pytest.mark.parametrize("game", GAMES)
def test_reference_implements_exactly_the_behaviour_options(game: str) -> None:
    """Every ambiguity option and variant marked as behaviour is implemented, and no others."""
    problems = check_implementation(get_spec(game))
    assert not problems, "\n".join(str(p) for p in problems)


@pytest.mark.parametrize("game", GAMES)
def test_trace_round_trip_and_replay(game: str, tmp_path: Path) -> None:
    """A recorded game written as a trace reads back and replays to the same result."""
    engine = new_game(game)
    recorder = Recorder(engine, with_states=True)
    rng = random.Random(3)
    while engine.current_player() is not None:
        recorder.apply(random_policy(engine, rng))
    path = tmp_path / "game.jsonl"
    recorder.trace().write(path)
    trace = read_trace(path)
    assert trace.result == engine.result()
    outcome = replay(trace)
    assert outcome.ok, outcome.message


@pytest.mark.parametrize("game", GAMES)
def test_replay_names_the_first_illegal_step(game: str, tmp_path: Path) -> None:
    """Tampering with one recorded action makes replay stop at exactly that step."""
    engine = new_game(game)
    recorder = Recorder(engine)
    rng = random.Random(5)
    for _ in range(12):
        if engine.current_player() is None:
            break
        recorder.apply(random_policy(engine, rng))
    trace = recorder.trace()
    steps = list(trace.steps)
    bad = steps[3]
    steps[3] = type(bad)(bad.n, bad.actor, {"kind": "no-such-action"}, None, 0)
    broken = Trace(trace.game, trace.spec_version, trace.config, steps, None)
    outcome = replay(broken)
    assert not outcome.ok and outcome.step == 4, outcome.message
    assert "step 4" in outcome.message and "no-such-action" in outcome.message


@pytest.mark.parametrize("game", GAMES)
def test_illegal_action_leaves_state_unchanged(game: str) -> None:
    """An illegal action raises IllegalAction with a reason and changes nothing."""
    engine = new_game(game)
    rng = random.Random(11)
    for _ in range(30):
        if engine.current_player() is None:
            break
        before = json.dumps(engine.state(), sort_keys=True)
        for junk in ({"kind": "no-such-action"}, "roll", None, {"kind": 5}):
            with pytest.raises(IllegalAction) as info:
                engine.apply(junk)
            assert info.value.reason
            assert json.dumps(engine.state(), sort_keys=True) == before
        engine.apply(random_policy(engine, rng))


def look_alikes(action: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Yield actions Python calls equal to ``action`` that JSON does not: an integer written as
    a decimal (``1.0``) or, for 0 and 1, as a boolean; and the action with an unknown key."""
    for key, value in action.items():
        if type(value) is int:
            yield {**action, key: float(value)}
            if value in (0, 1):
                yield {**action, key: bool(value)}
    yield {**action, "unknown_key": 0}


@pytest.mark.parametrize("game", GAMES)
def test_actions_are_checked_type_strictly_against_the_action_schema(game: str) -> None:
    """Issue 9: ``true`` is not 1 and ``1.0`` is not 1. Every legal action fits its action
    schema; each look-alike is rejected citing the action schema, changes nothing, and
    ``rejection`` (what the conformance kit asks) gives the same reason as ``apply``."""
    engine = new_game(game, players=get_spec(game).max_players)
    rng = random.Random(17)
    probed = 0
    for _ in range(150):
        if engine.current_player() is None:
            break
        for action in engine.legal_actions():
            assert engine.check_action(action) is None, f"{game}: legal {action!r} misfits"
        action = random_policy(engine, rng)
        before = json.dumps(engine.state(), sort_keys=True)
        for fake in look_alikes(action):
            with pytest.raises(IllegalAction) as info:
                engine.apply(fake)
            assert "the action schema of " + action["kind"] in info.value.reason, info.value
            assert json.dumps(engine.state(), sort_keys=True) == before, f"{fake!r} changed it"
            assert engine.rejection(fake).reason == info.value.reason
            probed += 1
        engine.apply(action)
    assert probed >= 150, f"{game}: only {probed} look-alike actions tried"


@pytest.mark.parametrize("game", GAMES)
def test_clone_is_independent_and_plays_on_identically(game: str) -> None:
    """A clone shares no state with its original: playing one leaves the other as it was, and
    both play on to the same states from the same choices."""
    engine = new_game(game, players=get_spec(game).max_players)
    rng = random.Random(23)
    for _ in range(60):
        if engine.current_player() is None:
            break
        engine.apply(random_policy(engine, rng))
    snapshot = json.dumps(engine.state(), sort_keys=True)
    twin = engine.clone()
    assert type(twin) is type(engine) and twin is not engine
    assert json.dumps(twin.state(), sort_keys=True) == snapshot
    steps = [step.action for step in playout(twin, random.Random(5))]
    assert json.dumps(engine.state(), sort_keys=True) == snapshot, "playing the clone changed it"
    for action in steps:
        engine.apply(action)
    assert engine.state() == twin.state() and engine.result() == twin.result()


@pytest.mark.parametrize("game", GAMES)
def test_chance_outcomes_are_exact_and_match_legal_actions(game: str) -> None:
    """At chance nodes the outcomes are the legal actions, with Fractions summing to one."""
    engine = new_game(game, players=get_spec(game).max_players)
    rng = random.Random(2)
    seen = 0
    while engine.current_player() is not None and seen < 200:
        if engine.current_player() == CHANCE:
            outcomes = engine.chance_outcomes()
            assert check_probabilities(outcomes)
            assert [a for a, _ in outcomes] == engine.legal_actions()
            seen += 1
        engine.apply(random_policy(engine, rng))


@pytest.mark.parametrize("game", GAMES)
def test_every_player_count_plays_to_a_valid_result(game: str) -> None:
    """Each player count plays to the end; the terminal state validates and carries the result."""
    spec = get_spec(game)
    validator = jsonschema.Draft202012Validator(spec.state_schema)
    for players in range(spec.min_players, spec.max_players + 1):
        engine = new_game(game, players=players)
        rng = random.Random(players)
        while engine.current_player() is not None:
            engine.apply(random_policy(engine, rng))
        state = engine.state()
        validator.validate(state)
        assert state["to_move"] is None
        assert state["result"] == engine.result() and engine.result() is not None
        assert set(engine.result() or {}) >= {"scores", "ranking", "winners"}


@pytest.mark.parametrize("game", GAMES)
def test_cli_play_writes_a_trace_that_replays(game: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """`rulespec play --trace` then `rulespec replay` succeeds (exit 0)."""
    path = tmp_path / "t.jsonl"
    with pytest.raises(SystemExit) as info:
        main(["play", game, "--seed", "4", "--trace", str(path)])
    out = capsys.readouterr().out
    assert info.value.code == 0 and "result after" in out
    with pytest.raises(SystemExit) as info:
        main(["replay", str(path)])
    assert info.value.code == 0, capsys.readouterr()


@pytest.mark.parametrize("game", GAMES)
def test_cli_ambiguities_lists_the_register(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`rulespec ambiguities GAME --format json` lists every record of that game."""
    with pytest.raises(SystemExit) as info:
        main(["ambiguities", game, "--format", "json"])
    records = json.loads(capsys.readouterr().out)
    assert info.value.code == 0
    assert [r["id"] for r in records] == [a["id"] for a in get_spec(game).section("ambiguities")]
