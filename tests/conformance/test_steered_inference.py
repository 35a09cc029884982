"""``conform --infer`` decides where witnesses and random games do not: steered games.

OURO-AMB-17 (OURO-CARD-08: does a steal go on after the thief's accident?) has witnesses only at
3 players, and a few random games almost never reach a steal in which the thief has an accident,
so at 4-6 players the profile used to say "not told apart". The steered search
(``rulespec.conformance.profile_steer``) plays the reference under both options at once, prefers
the actions that read the record (Light Hand, the steal) and looks ahead for the action after
which the options part; the game it finds is played on the engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter
from rulespec.conformance.adapters import Adapter
from rulespec.conformance.profile_steer import Steered, reading_kinds, steer
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

from .corpus import RULING_ENGINES, SPECIFIC, BadEngine, like

SPEC = get_spec("ouro-de-tolo")
BUG = next(b for b in SPECIFIC["ouro-de-tolo"] if b.name == "steal-after-accident")


def _steer(engine: Adapter, **kw: Any) -> Steered:
    defaults = SPEC.default_rulings()
    return steer(engine, SPEC, engine_class(SPEC), record="OURO-AMB-17",
                 options=["stop", "complete"], configured=defaults, believed=defaults, **kw)


def test_the_search_prefers_the_actions_that_read_the_record() -> None:
    """OURO-AMB-17 is read by Light Hand and the steal it starts (OURO-CARD-08)."""
    assert reading_kinds(SPEC, "OURO-AMB-17") == {"play_light_hand", "steal"}


def test_a_steered_game_names_the_option_the_engine_follows() -> None:
    """The steal-after-accident bug plays OURO-AMB-17 as complete (OURO-CARD-08): at 6
    players, where no witness separates the options, a steered game names it; the same seed
    plays the same games."""
    engine = InProcessAdapter({"ouro-de-tolo": BUG.engine()}, name=BUG.name)
    found = _steer(engine, players=6, seed=2)
    assert found.option == "complete" and found.stopped == "told"
    assert "1 steered game shows complete" in found.text()
    again = _steer(engine, players=6, seed=2)
    assert replace(again, seconds=0) == replace(found, seconds=0)
    honest = _steer(InProcessAdapter(), players=6, seed=2)
    assert honest.option == "stop"


def test_a_search_that_runs_out_says_so() -> None:
    """With a budget too small to reach a steal, the options stay in question, and why."""
    found = _steer(InProcessAdapter(), players=5, seed=0, steps=200)
    assert found.option is None and found.options == ("stop", "complete")
    assert "do not tell stop, complete apart: the search's budget" in found.text()


def test_a_record_seen_astray_at_one_count_is_searched_first_at_the_others() -> None:
    """OURO-AMB-17 (OURO-CARD-08): its witness shows ``complete`` at 3 players; at 4 only a
    steered game can. That search goes first, before the many records an honest engine leaves
    open, so a short budget (a loaded machine's) still decides it. Before, it waited its turn
    in every round and the budget ran out first."""
    from rulespec.conformance.profile import infer_ruling_profile

    engine = InProcessAdapter({"ouro-de-tolo": BUG.engine()}, name=BUG.name)
    profile = infer_ruling_profile(engine, SPEC, engine_class(SPEC), players=[3, 4],
                                   play_seconds=1.0, steer_seconds=5.0)
    found = {f.players: (f.verdict, f.options, f.by) for f in profile.findings["OURO-AMB-17"]}
    assert found == {3: ("follows", ("complete",), "witness"),
                     4: ("follows", ("complete",), "steered")}
    assert [(s.players, s.record) for s in profile.steered][:2] == [(3, "OURO-AMB-17"),
                                                                     (4, "OURO-AMB-17")]


def test_a_record_about_a_variant_is_searched_with_it_on() -> None:
    """OURO-AMB-16 (OURO-VAR-04: who buys a card in the gold fever) never arises without the
    variant, so steered games without it could only run out of budget. They are played with
    the record's own variant (its ``touches``) where the engine declares it."""
    from rulespec.conformance.profile import infer_ruling_profile, record_variants

    assert record_variants(SPEC, "OURO-AMB-16", ()) == ("gold-fever",)
    assert record_variants(SPEC, "OURO-AMB-16", ("gold-fever",)) == ("gold-fever",)
    assert record_variants(SPEC, "OURO-AMB-17", ("hard-week",)) == ("hard-week",)
    bad = like("ouro-de-tolo", "OURO-AMB-16", "everyone", 4)
    engine = InProcessAdapter({"ouro-de-tolo": bad.engine()}, name=bad.name)
    profile = infer_ruling_profile(engine, SPEC, engine_class(SPEC), players=[4],
                                   play_seconds=1.0, steer_seconds=5.0)
    (found,) = profile.findings["OURO-AMB-16"]
    assert (found.verdict, found.options, found.by) == ("follows", ("everyone",), "steered")
    assert "1 steered game (variant gold-fever) shows everyone" in found.note
    (search,) = [s for s in profile.steered if s.record == "OURO-AMB-16"]
    assert search.variants == ("gold-fever",) and search.to_json()["variants"] == ["gold-fever"]


#: Every planted bug of the corpus that plays one option of one record: RULING_ENGINES, the
#: SPECIFIC bugs built with ``with_ruling`` (DDO-AMB-04's is in both), and OURO-AMB-16's.
RULING_EQUIVALENT = [
    *RULING_ENGINES,
    like("dado-de-ouro", "DDO-AMB-12", "reroll-value", 4),
    like("ouro-de-tolo", "OURO-AMB-17", "complete", 3),
    like("fool", "FOOL-AMB-05", "first-played", 4),
    like("ouro-de-tolo", "OURO-AMB-16", "everyone", 3),
]


@pytest.mark.slow
@pytest.mark.parametrize("bad", RULING_EQUIVALENT, ids=str)
def test_infer_names_every_ruling_equivalent_bug_at_every_count(bad: BadEngine) -> None:
    """Issue 41's measure: every ruling-equivalent planted bug of the repository is named
    exactly, at every player count where its option plays otherwise, with the default budgets
    (about 45 s each; ``-m slow``)."""
    from rulespec.conformance.profile import infer_ruling_profile, same_at

    assert bad.behaves_like is not None
    record, option = bad.behaves_like
    spec = get_spec(bad.game)
    engine = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    profile = infer_ruling_profile(engine, spec, engine_class(spec))
    shows = [f.players for f in profile.findings[record]
             if not same_at(spec, record, f.players, profile.configured)]
    assert shows
    found = {f.players: (f.verdict, f.options) for f in profile.findings[record]}
    assert {n: found[n] for n in shows} == {n: ("follows", (option,)) for n in shows}
    assert [d.record for d in profile.deviations()] == [record]
    assert not profile.bugs()
