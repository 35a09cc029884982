"""The negative corpus: every known-bad engine is rejected, with the check that names its bug."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.reference.trace import read_trace, replay
from rulespec.spec.registry import game_ids, get_spec

from .corpus import SPECIFIC, BadEngine, corpus, playable_games

CORPUS = corpus()
#: Checks whose failure shows in the recorded states (or an accepted illegal action), so the
#: minimal trace fails when replayed on the reference.
RECORDED_IN_STATES = {"STATE-SCHEMA", "INVARIANT", "DIFF-STATE", "DIFF-RESULT",
                      "ILLEGAL-REJECTED"}


@pytest.mark.parametrize("bad", CORPUS, ids=str)
def test_kit_rejects_known_bad_engine(bad: BadEngine, tmp_path: Path) -> None:
    """Each bad engine fails the kit with the expected check, and its minimal trace replays."""
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    options = Options(examples=25, trace_dir=tmp_path, golden=False, shrink_seconds=4,
                      shorter_seconds=0,
                      determinism_every=1 if bad.check == "DETERMINISM" else 0)
    players = bad.players or get_spec(bad.game).min_players
    report = check_engine(adapter, bad.game, players=[players], rulings=bad.rulings,
                          options=options)
    assert not report.ok, f"{bad} ({bad.breaks}) passed the kit; expected {bad.check}"
    first = report.failures[0]
    assert first.check == bad.check, (
        f"{bad} ({bad.breaks}) failed {first.check} ({first.message}), expected {bad.check}")
    if bad.subject is not None:
        assert first.subject == bad.subject, (
            f"{bad} ({bad.breaks}) broke {first.subject}, expected {bad.subject}")
    assert first.clauses or first.check in {"STATE-SCHEMA", "DETERMINISM"}, (
        f"{bad}: the failure names no clause")
    assert first.trace is not None and Path(first.trace).is_file()
    outcome = replay(read_trace(first.trace))
    if first.check in RECORDED_IN_STATES and first.step:
        assert not outcome.ok, (
            f"{bad}: the minimal trace {first.trace} replays cleanly on the reference")
    else:
        # Legal-action and chance failures are not in a state, and a trace records no initial
        # state: then the trace leads to the position where the failure shows.
        assert outcome.ok and outcome.steps == first.step, f"{bad}: {outcome.message}"


def test_every_game_has_five_known_bad_engines() -> None:
    """Issue 5: every game in the registry has at least five known-bad engines."""
    for game in playable_games():
        bad = [b for b in CORPUS if b.game == game]
        assert len(bad) >= 5, f"{game} has only {len(bad)} known-bad engines"
        assert len({b.check for b in bad}) >= 4, f"{game}: bad engines cover too few checks"


def test_specific_bad_engines_are_for_registered_games() -> None:
    """Every game-specific bad engine is for a game that exists."""
    assert set(SPECIFIC) <= set(game_ids())
