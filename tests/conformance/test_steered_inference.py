"""``conform --infer`` decides where witnesses and random games do not: steered games.

OURO-AMB-17 (OURO-CARD-08: does a steal go on after the thief's accident?) has witnesses only at
3 players, and a few random games almost never reach a steal in which the thief has an accident,
so at 4-6 players the profile used to say "not told apart". The steered search
(``rulespec.conformance.explain.profile_steer``) plays the reference under both options at once, prefers
the actions that read the record (Light Hand, the steal) and looks ahead for the action after
which the options part; the game it finds is played on the engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter
from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.explain.profile import STEER_ROUNDS
from rulespec.conformance.explain.profile_steer import Steered, reading_kinds, steer
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


class _Recorded:
    """A stand-in for ``profile.steer`` that records each search and finds nothing at once, so
    the order and the variants of the searches are seen without spending their time."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str, int, tuple[str, ...]]] = []

    def __call__(self, adapter: Adapter, spec: Any, reference: Any, *, record: str,
                 players: int, options: Any, variants: Any = (), steps: int = 0,
                 **kw: Any) -> Steered:
        self.calls.append((players, record, steps, tuple(variants)))
        return Steered(record, players, tuple(options), 0, steps, "budget", 0.0, reached=1,
                       variants=tuple(variants))


def test_a_record_seen_astray_at_one_count_is_searched_first_at_the_others(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """OURO-AMB-17 (OURO-CARD-08): its witness shows ``complete`` at 3 players; at 4 only a
    steered game can. That search goes first, through every round, before the many records an
    honest engine leaves open, so a short budget (a loaded machine's) still reaches it. Before,
    it waited its turn in every round and the budget ran out first. (Order only: the searches
    are stood in for; the next test and the slow one play them.)"""
    from rulespec.conformance.explain import profile as profile_module

    recorded = _Recorded()
    monkeypatch.setattr(profile_module, "steer", recorded)
    engine = InProcessAdapter({"ouro-de-tolo": BUG.engine()}, name=BUG.name)
    found = profile_module.infer_ruling_profile(engine, SPEC, engine_class(SPEC), players=[3, 4],
                                                play_seconds=1.0, steer_seconds=600.0)
    assert found.findings["OURO-AMB-17"][0].options == ("complete",)
    rounds = [(n, r, steps) for n, r, steps, _ in recorded.calls if steps != STEER_ROUNDS[1]
              or r != "OURO-AMB-17" or n != 3]  # the witness's confirming search at 3 first
    assert rounds[:len(STEER_ROUNDS)] == [(4, "OURO-AMB-17", s) for s in STEER_ROUNDS]
    assert {r for _, r, _ in rounds[len(STEER_ROUNDS):]} - {"OURO-AMB-17"}


def test_a_steered_game_with_the_records_variant_names_it() -> None:
    """OURO-AMB-16 (OURO-VAR-04: who buys a card in the gold fever) never arises without the
    variant; with it on, a steered game at 4 players (no witness there) names ``everyone``.
    The search is bounded by its reference actions, not the clock."""
    bad = like("ouro-de-tolo", "OURO-AMB-16", "everyone", 4)
    engine = InProcessAdapter({"ouro-de-tolo": bad.engine()}, name=bad.name)
    defaults = SPEC.default_rulings()
    found = steer(engine, SPEC, engine_class(SPEC), record="OURO-AMB-16",
                  options=["by-choice", "everyone"], configured=defaults, believed=defaults,
                  players=4, seed=0, variants=("gold-fever",))
    assert found.option == "everyone" and found.variants == ("gold-fever",)
    assert "(variant gold-fever) shows everyone" in found.text()
    assert found.to_json()["variants"] == ["gold-fever"]


def test_a_record_about_a_variant_is_searched_with_it_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its steered games are played with the record's own variant (its ``touches``) where the
    engine declares it; without a variant the record never arises, and the search could only
    spend its budget."""
    from rulespec.conformance.explain import profile as profile_module
    from rulespec.conformance.explain.profile import record_variants

    assert record_variants(SPEC, "OURO-AMB-16", ()) == ("gold-fever",)
    assert record_variants(SPEC, "OURO-AMB-16", ("gold-fever",)) == ("gold-fever",)
    assert record_variants(SPEC, "OURO-AMB-17", ("hard-week",)) == ("hard-week",)
    recorded = _Recorded()
    monkeypatch.setattr(profile_module, "steer", recorded)
    bad = like("ouro-de-tolo", "OURO-AMB-16", "everyone", 4)
    engine = InProcessAdapter({"ouro-de-tolo": bad.engine()}, name=bad.name)
    profile_module.infer_ruling_profile(engine, SPEC, engine_class(SPEC), players=[4],
                                        play_seconds=1.0, steer_seconds=600.0)
    used = {r: v for _, r, _, v in recorded.calls}
    assert used["OURO-AMB-16"] == ("gold-fever",) and used.get("OURO-AMB-17", ()) == ()


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
    from rulespec.conformance.explain.profile import infer_ruling_profile, same_at

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
