"""The negative corpus: every known-bad engine is rejected, with the check that names its bug."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.reference.trace import read_trace, replay
from rulespec.spec.registry import game_ids, get_spec
from rulespec.spec.validate import load_spec

from .corpus import GENERIC, SPECIFIC, BadEngine, corpus, generic, playable_games
from .engines.pig import pig_spec

CORPUS = corpus()
TOY = Path(__file__).parents[1] / "specs" / "valid" / "toy.yaml"
#: Checks whose failure shows in the recorded states (or an accepted illegal action), so the
#: minimal trace fails when replayed on the reference.
RECORDED_IN_STATES = {"STATE-SCHEMA", "INVARIANT", "DIFF-STATE", "DIFF-RESULT",
                      "ILLEGAL-REJECTED"}


@pytest.mark.parametrize("bad", CORPUS, ids=str)
def test_kit_rejects_known_bad_engine(bad: BadEngine, tmp_path: Path) -> None:
    """Each bad engine fails the kit with the expected check, and its minimal trace replays."""
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    # PERFT is off: it would catch the bugs of the first plies before the check under test.
    options = Options(examples=25, trace_dir=tmp_path, golden=False, shrink_seconds=4,
                      shorter_seconds=0, perft_seconds=0,
                      determinism_every=1 if bad.check == "DETERMINISM" else 0,
                      # Steering changes which game meets a bug first; an engine planted for an
                      # invariant is played on Hypothesis's games alone, so that the invariant
                      # (not the state diff a steered game may reach first) is what is tested.
                      # test_steered_run_rejects_engines_planted_for_an_invariant plays them
                      # steered, as a default run does.
                      steer=bad.check != "INVARIANT")
    players = bad.players or get_spec(bad.game).min_players
    report = check_engine(adapter, bad.game, players=[players], rulings=bad.rulings,
                          options=options)
    assert not report.ok, f"{bad} ({bad.breaks}) passed the kit; expected {bad.check}"
    # Rule examples (check EXAMPLE) run first and catch many rule bugs; tests/examples checks
    # them. Here the check under test must still find the bug on its own.
    first = next((f for f in report.failures if f.check != "EXAMPLE"), report.failures[0])
    assert first.check == bad.check, (
        f"{bad} ({bad.breaks}) failed {first.check} ({first.message}), expected {bad.check}")
    if bad.subject is not None:
        assert first.subject == bad.subject, (
            f"{bad} ({bad.breaks}) broke {first.subject}, expected {bad.subject}")
    assert first.clauses or first.check in {"STATE-SCHEMA", "DETERMINISM"}, (
        f"{bad}: the failure names no clause")
    assert first.trace is not None and Path(first.trace).is_file()
    trace = read_trace(first.trace)
    # Issue 31: the trace shows the engine's state before the first step and after every step
    # (but the last, after an illegal action the engine accepted), and says what failed where,
    # with what was expected and what the engine did instead.
    assert trace.initial is not None, f"{bad}: the failure trace records no initial state"
    shown = trace.states()[:-1] if first.check == "ILLEGAL-REJECTED" else trace.states()
    assert all(state is not None for state in shown), f"{bad}: a step without its state"
    assert trace.failure is not None and trace.failure["check"] == first.check
    assert trace.failure["step"] == first.step and trace.failure["message"] == first.message
    assert first.expected is not None and first.actual is not None, (
        f"{bad}: {first.check} records no expected and actual")
    assert trace.failure["expected"] == json.loads(json.dumps(first.expected))
    outcome = replay(trace)
    if first.check in RECORDED_IN_STATES:
        assert not outcome.ok, (
            f"{bad}: the minimal trace {first.trace} replays cleanly on the reference")
    else:
        # Legal-action and chance failures are not in a state: the trace leads to the position
        # where the failure shows, and its failure record says what differs there.
        assert outcome.ok and outcome.steps == first.step, f"{bad}: {outcome.message}"


@pytest.mark.parametrize("bad", [b for b in CORPUS if b.check == "INVARIANT"], ids=str)
def test_steered_run_rejects_engines_planted_for_an_invariant(bad: BadEngine,
                                                              tmp_path: Path) -> None:
    """Issue 19: steered play (on by default) must not let a bug through that Hypothesis's games
    alone catch. Steering may meet the bug first in a game where the state has already parted
    from the reference's before the invariant breaks (DDO-TIE-02 under tie-gains-reroll), so
    the check may be the state diff; but the games themselves, not only the rule examples,
    must reject the engine."""
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    options = Options(examples=25, trace_dir=tmp_path, golden=False, shrink_seconds=4,
                      shorter_seconds=0, perft_seconds=0, determinism_every=0, steer=True)
    players = bad.players or get_spec(bad.game).min_players
    report = check_engine(adapter, bad.game, players=[players], rulings=bad.rulings,
                          options=options)
    played = {f.check for f in report.failures if f.check != "EXAMPLE"}
    assert played & {"INVARIANT", "DIFF-STATE", "DIFF-RESULT"}, (
        f"{bad} ({bad.breaks}): the steered games found {sorted(played) or 'nothing'}")


def test_every_game_has_five_known_bad_engines() -> None:
    """Issue 5: every built-in game has at least five known-bad engines (a plugin game gets the
    generic ones that fit it)."""
    for game in [g for g in playable_games() if g in SPECIFIC]:
        bad = [b for b in CORPUS if b.game == game]
        assert len(bad) >= 5, f"{game} has only {len(bad)} known-bad engines"
        assert len({b.check for b in bad}) >= 4, f"{game}: bad engines cover too few checks"


def test_specific_bad_engines_are_for_registered_games() -> None:
    """Every game-specific bad engine is for a game that exists."""
    assert set(SPECIFIC) <= set(game_ids())


def test_generic_bad_engines_run_only_on_games_they_fit() -> None:
    """Issue 9: lax-apply accepts an illegal action by ignoring a field; in Pig, whose actions
    carry no player (roll, hold, and chance's die face, every face legal when the die rolls),
    no action of a legal kind is ever illegal, so it is not run there. The built-in games get
    all five generic bad engines."""
    from rulespec.spec.registry import GamePackage, registered_in_process

    pig = pig_spec(load_spec(TOY))
    # A spec names its reference only for a registered game: register the toy Pig as a plugin
    # would, vouching for its module.
    with registered_in_process("pig", GamePackage(spec=TOY, reference=pig.reference_module)):
        names = {b.name for b in generic("pig", pig)}
    assert "lax-apply" not in names, names
    assert {"biased-chance", "reversed-order", "stale-memo"} <= names, names
    for game in SPECIFIC:
        assert len(generic(game)) == len(GENERIC), f"{game}: a generic bad engine does not fit"


#: Bad engines whose bug shows in the first plies of every game: PERFT, run first, names it.
EARLY = [b for b in CORPUS if b.name in {"biased-chance", "one-dynamite-short"}]


@pytest.mark.parametrize("bad", EARLY, ids=str)
def test_perft_names_bugs_of_the_first_plies_first(bad: BadEngine, tmp_path: Path) -> None:
    """PERFT: a chance distribution wrong from the start is caught before any game is played."""
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    options = Options(examples=1, trace_dir=tmp_path, golden=False, shrink=False)
    players = bad.players or get_spec(bad.game).min_players
    report = check_engine(adapter, bad.game, players=[players], rulings=bad.rulings,
                          options=options)
    # Rule examples (EXAMPLE) are reported before the configurations; PERFT leads those.
    first = next(f for f in report.failures if f.check != "EXAMPLE")
    assert first.check == "PERFT" and first.subject == "CHANCE-DIST", first
    assert "probabilities differ" in first.message and first.clauses, first.message
    assert first.trace is not None and replay(read_trace(first.trace)).ok
