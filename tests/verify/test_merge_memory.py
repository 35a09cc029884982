"""Merged engines with the same memory share their one-step digest, checked by a sample.

A merge is checked one step ahead by expanding the merged engine (``rulespec.verify.explore``).
An engine whose memory (every attribute but what copies share, the decision counts and the
game's ``NARRATION``) equals one already digested is the same engine for play, so its digest is
reused; one reuse in ``RECHECK_EVERY`` is worked out again and compared, so that a game which
declares as narration something play reads is caught.
"""

from __future__ import annotations

import random
from typing import Any

from rulespec.reference.actions import is_among
from rulespec.reference.core import CHANCE, make_config
from rulespec.verify.explore import Explorer
from tests.bridges.support import pig
from tests.verify.support import PIG_ON_HOLD, RHINO_SUMMARY, rhino_engine


def _figures(explorer: Explorer) -> tuple[Any, ...]:
    ex = explorer.run()
    s = ex.stats
    return (s.states, s.transitions, s.merges, s.merges_checked, bytes(ex.store.digests),
            bytes(ex.store.targets), tuple(v.kind for v in ex.violations))


def test_reused_digests_change_nothing_on_pig() -> None:
    """PIG-TURN-04 to PIG-TURN-08: Pig to 8 on the spec's die under the published on-hold
    view: the same graph, the same digests, with and without reuse, and reuse happens."""
    reusing = Explorer(_pig(), view=PIG_ON_HOLD)
    off = Explorer(_pig(), view=PIG_ON_HOLD, remember=False)
    assert _figures(reusing) == _figures(off)
    assert reusing.stats.digests_reused > 1000
    assert off.stats.digests_reused == 0


def test_reused_digests_change_nothing_on_ruby_rhino() -> None:
    """RR-END-01: the tiny Ruby Rhino under its published view, with and without reuse."""
    assert (_figures(Explorer(rhino_engine(), view=RHINO_SUMMARY))
            == _figures(Explorer(rhino_engine(), view=RHINO_SUMMARY, remember=False)))


def test_narration_that_play_reads_is_caught() -> None:
    """PIG-TURN-05: a Pig that declares the turn total narration (it is not: a hold banks it)
    reuses the digest of an engine with another turn total: the merge check (the digest no
    longer the representative's) or the sampled recheck says so, and the search stops."""
    spec, engine_type = pig()

    class Careless(engine_type):  # type: ignore[valid-type,misc]
        NARRATION = frozenset({"_note", "_turn_total"})

    config = make_config(spec, players=2, rulings={"PIG-AMB-01": "on-hold"},
                         parameters={"target_score": 8})
    ex = Explorer(Careless(spec, config), view=PIG_ON_HOLD).run()
    assert [v.kind for v in ex.violations] in (["ENGINE-ERROR"], ["KEY-BEHAVIOUR"])
    assert ex.stats.digests_reused > 0
    honest = Explorer(_pig(), view=PIG_ON_HOLD).run()
    assert not honest.violations


def test_pigs_own_legality_test_is_the_base_one() -> None:
    """PIG-TURN-03, PIG-TURN-06, PIG-SETUP-02, PIG-COMP-01: Pig's ``is_legal`` (no list built)
    answers as the base's exact test over the legal list, on the legal actions and on near
    misses (a face as true, a float, a key too many, another phase's action), in random games
    under both first-player rulings; its ``clone`` is independent of the original."""
    spec, engine_type = pig()
    rng = random.Random(7)
    probes: list[Any] = [{"kind": "roll"}, {"kind": "hold"}, {"kind": "roll", "x": 1},
                         {"kind": "die", "face": True}, {"kind": "die", "face": 2.0},
                         {"kind": "first_player", "player": 0}, {"kind": "first_player",
                                                                  "player": 5},
                         {"kind": "die", "face": 9}, {"kind": 1}, "roll", None]
    for first in ("seat-zero", "chance-draw"):
        config = make_config(spec, players=3, rulings={"PIG-AMB-03": first},
                             parameters={"target_score": 30})
        for _ in range(6):
            engine = engine_type(spec, config)
            while engine.current_player() is not None:
                legal = engine.legal_actions()
                for action in [*legal, *probes, *({"kind": "die", "face": f} for f in range(8))]:
                    assert engine.is_legal(action) == is_among(action, legal), action
                copy = engine.clone()
                actor = engine.current_player()
                action = (rng.choice(engine.chance_outcomes())[0] if actor == CHANCE
                          else rng.choice(legal))
                before = copy.state()
                engine.apply(action)
                assert copy.state() == before  # the copy did not move with the original


def _pig() -> Any:
    """Pig to 8 on the spec's own die, under PIG-AMB-01 on-hold."""
    spec, engine_type = pig()
    return engine_type(spec, make_config(spec, players=2, rulings={"PIG-AMB-01": "on-hold"},
                                         parameters={"target_score": 8}))
