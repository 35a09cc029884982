"""No silent rulings: every branch on a ruling is a counted decision point, every record is reached.

The static check reads each built-in game module; the sweeps play random games under every
option of every ambiguity (and every variant) and fail on a record no game ever reached.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from rulespec.reference.core import make_config
from rulespec.reference.decisions import (
    dead_records,
    live_ambiguities,
    scan_source,
    static_problems,
    sweep,
    sweep_configs,
)
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

GAMES = ["dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"]

#: Records whose question comes up rarely in random play, or only under other non-default
#: rulings: the sweeps also play these seeded games, in which the question is known to come up.
#: ambiguity -> (game, players, rulings, seed, games).
SEEDED: dict[str, tuple[str, int, dict[str, str], int, int]] = {
    # A double accident from one favor: about one game in 800 at 3 players.
    "OURO-AMB-15": ("ouro-de-tolo", 3, {}, 3, 200),
    # The same double accident with the bonus still unclaimed (the third player had an accident
    # too): rarer still, about one game in 20,000 at 3 players.
    "OURO-AMB-27": ("ouro-de-tolo", 3, {}, 113, 200),
    # A stone reaching a player after their accident matters only under OURO-AMB-06 immediately,
    # and arrives only through a favour asked of oneself (OURO-AMB-12) or a completed steal.
    "OURO-AMB-29": ("ouro-de-tolo", 3, {"OURO-AMB-06": "immediately",
                                        "OURO-AMB-12": "self-allowed"}, 0, 5),
    # The winner is among the worst cards only when a led 1 declares a colour nobody follows
    # and the 1s are the worst cards (FOOL-AMB-07 leader-declares with FOOL-AMB-04 wild-worst).
    "FOOL-AMB-14": ("fool", 4, {"FOOL-AMB-07": "leader-declares",
                                "FOOL-AMB-04": "wild-worst"}, 2, 3),
}


def _seeded(game: str) -> Counter[str]:
    spec = get_spec(game)
    total: Counter[str] = Counter()
    for seeded_game, players, rulings, seed, games in SEEDED.values():
        if seeded_game == game:
            config = make_config(spec, players=players, rulings=rulings)
            total.update(sweep(spec, [config], games=games, seed=seed))
    return total


@pytest.mark.parametrize("game", GAMES)
def test_every_branch_on_a_ruling_is_a_decision_point(game: str) -> None:
    """No module reads config.rulings; every live record has a decision point; options exist."""
    spec = get_spec(game)
    assert static_problems(spec) == []


def test_the_static_check_catches_a_silent_ruling() -> None:
    """A direct read of the rulings, or a ruling asked of the configuration, is refused."""
    source = (
        'AMB = "X-AMB-01"\n'
        "class E:\n"
        "    def f(self):\n"
        "        a = self.config.rulings[AMB]\n"
        "        b = self.config.ruling(AMB)\n"
        "        c = self.decide(AMB, 'yes')\n"
        "        d = self.ruling(name)\n"
    )
    calls, problems = scan_source(source, "toy")
    assert [(c.method, c.ambiguity, c.option) for c in calls] == [("decide", "X-AMB-01", "yes")]
    assert len(problems) == 3, problems
    for expected in ("reads .rulings directly", "not on the engine", "module constant"):
        assert any(expected in p for p in problems), (expected, problems)


def test_a_wrong_option_name_is_caught() -> None:
    """A decision point testing an option the record does not have is a silent typo."""
    spec = get_spec("fool")
    source = 'class E:\n    def f(self):\n        return self.decide("FOOL-AMB-04", "wild-best")\n'
    problems = static_problems(spec, source)
    assert any("has no option 'wild-best'" in p for p in problems), problems


def test_decisions_are_counted_per_engine() -> None:
    """Each engine counts its own decision points; a fresh engine has every record at zero."""
    spec = get_spec("fool")
    config = make_config(spec, players=4)
    engine = engine_class(spec)(spec, config)
    assert set(engine.decisions) == set(spec.ambiguities)
    before = engine.decisions["FOOL-AMB-08"]
    engine.decide("FOOL-AMB-08", "dealer-rotates")
    assert engine.decisions["FOOL-AMB-08"] == before + 1
    assert engine.clone().decisions == engine.decisions
    other = engine_class(spec)(spec, config)
    assert other.decisions["FOOL-AMB-08"] == before


@pytest.mark.parametrize("game", GAMES)
def test_every_record_is_reached_in_random_play(game: str) -> None:
    """A few random games per option and variant, at the least and most players, reach every
    live record (the rare ones in their SEEDED games)."""
    spec = get_spec(game)
    counts = sweep(spec, sweep_configs(spec, [spec.min_players, spec.max_players]), games=3,
                   seed=2026)
    counts.update(_seeded(game))
    assert dead_records(spec, counts) == []


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RULESPEC_SLOW"),
                    reason="the full sweep takes minutes; run with RULESPEC_SLOW=1 pytest -m slow")
@pytest.mark.parametrize("game", GAMES)
def test_every_record_is_reached_at_every_player_count(game: str) -> None:
    """The slow sweep: many random games per option, variant and player count."""
    spec = get_spec(game)
    counts = sweep(spec, sweep_configs(spec, range(spec.min_players, spec.max_players + 1)),
                   games=20, seed=13)
    counts.update(_seeded(game))
    assert dead_records(spec, counts) == [], {a: counts[a] for a in live_ambiguities(spec)}
