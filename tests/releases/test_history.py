"""Every release of every game against the release before it: today's reference replays the
older release's evidence on the newer frozen spec, even when the code has since learned records
and parameters that the newer spec lacks (they play at today's default, which the versioning
policy makes the old behaviour), and each recorded bump is at least what its changes need."""

from __future__ import annotations

import pytest

from rulespec.releases.diff import diff_specs
from rulespec.releases.store import frozen_releases, release_spec
from rulespec.spec import game_ids

# Every release of every game replayed on the next (about 10 s of CPU): integration, so the
# default run keeps its five minutes; CI runs it, and `diff --check --all` replays the newest.
pytestmark = pytest.mark.integration

PAIRS = [(game, old.version, new.version) for game in game_ids()
         for old, new in zip(frozen_releases(game), frozen_releases(game)[1:], strict=False)]


@pytest.mark.parametrize(("game", "old", "new"), PAIRS, ids=[f"{g}@{a}-{b}" for g, a, b in PAIRS])
def test_each_release_replays_the_one_before(game: str, old: str, new: str) -> None:
    found = diff_specs(release_spec(game, old), release_spec(game, new), behaviour=True)
    assert found.ok, found.verdict()
    assert found.replayed, "the older release's evidence was not replayed"
    assert not [c for c in found.changes if c.rule == "CONFIGURATION_REFUSED"], found.verdict()


def test_there_is_history_to_replay() -> None:
    assert {game for game, _, _ in PAIRS} == set(game_ids())
