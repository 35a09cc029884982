"""Explanations in the declared release's terms (docs/implementers/conformance.md, sections 6-7).

An engine that declares an older release is checked as that release: its explanations (the
rulings line, its advice, ``--infer``) name only the records and options of that release, a
later release's only as "also possible if you move to X"; and a failure says "this behaviour
changed in X" only when the change can produce it, never because it shares a clause.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rulespec.conformance import Options, check_engine
from rulespec.conformance.judging.checks import Failure
from rulespec.conformance.judging.versions import ALSO_LATER, view_for
from rulespec.conformance.reports.report import FoundStream, render
from rulespec.spec.registry import get_spec

from .corpus import RULING_ENGINES, SPECIFIC, corpus
from .engines.older_release import OLDER_BEHAVIOUR, Declared

QUICK = Options(examples=3, max_steps=400, golden=False, jobs=1, shorter_seconds=0,
                shrink_seconds=2, seek_steps=0, perft_seconds=0, infer_seconds=5)


def _failure(check: str = "DIFF-STATE", **kw: Any) -> Failure:
    config = {"game": "ouro-de-tolo", "players": 3,
              "rulings": get_spec("ouro-de-tolo").default_rulings(), "variants": [],
              "parameters": {}}
    return replace(Failure(check, ("OURO-CARD-01",), "it differs", config), **kw)


# Integration: a whole --infer run, 10 s (issue 46's budget).
@pytest.mark.integration
def test_a_ruling_of_a_later_release_is_only_also_possible() -> None:
    """OURO-AMB-32 and OURO-AMB-10's day-order came in 2.1.0 (OURO-DRAW-05, OURO-CARD-07): an
    engine of 1.0.0 is not told it behaves like them, only that they would explain it there."""
    view = view_for(get_spec("ouro-de-tolo"), None, override="1.0.0")
    failure = _failure(matches=({"OURO-AMB-32": "kept"}, {"OURO-AMB-10": "day-order"},
                                {"OURO-AMB-17": "complete"}), inference="tried 60 single options")
    shown = view.explain(failure)
    assert shown.matches == ({"OURO-AMB-17": "complete"},)
    assert shown.inference == ("tried 60 single options; also possible if you move to 2.1.0: "
                               "OURO-AMB-32 = kept or OURO-AMB-10 = day-order (not in 1.0.0)")
    text = render_failure(shown)
    assert "--ruling OURO-AMB-17=complete" in text and "--ruling OURO-AMB-32" not in text
    assert f"rulings: {ALSO_LATER}2.1.0: OURO-AMB-32 = kept or OURO-AMB-10" in text


def test_a_failure_only_a_later_release_explains_has_no_ruling_of_its_own() -> None:
    """RR-AMB-06's void-keep-roll-again came in 0.2.1 (RR-DICE-07): for an engine of 0.1.0 the
    advice never asks for ``--ruling RR-AMB-06=void-keep-roll-again``."""
    view = view_for(get_spec("ruby-rhino"), None, override="0.1.0")
    config = {"game": "ruby-rhino", "players": 2,
              "rulings": get_spec("ruby-rhino").default_rulings(), "variants": [],
              "parameters": {}}
    failure = Failure("DIFF-STATE", ("RR-DICE-07",), "it differs", config,
                      matches=({"RR-AMB-06": "void-keep-roll-again"},),
                      inference="tried 30 single options")
    shown = view.explain(failure)
    assert shown.matches == ()
    text = render_failure(shown)
    assert "--ruling" not in text and "behaves like" not in text
    assert "also possible if you move to 0.2.1: RR-AMB-06 = void-keep-roll-again" in text


def render_failure(failure: Failure) -> str:
    """Return the text report's lines of one failure."""
    from rulespec.conformance.reports.report import _failure_text

    return "\n".join(_failure_text(failure))


def test_a_shared_clause_is_not_evidence_of_a_change() -> None:
    """A Gold-worth-6 bug shares OURO-CARD-01 with the 2.0.0 cap on play_favor's target: no
    'changed in' line; an out-of-range target the cap refuses is one."""
    view = view_for(get_spec("ouro-de-tolo"), None, override="1.0.0")
    unrelated = _failure(diff=({"path": "/players/0/money", "kind": "changed", "got": 6,
                                "want": 5, "clauses": ["OURO-EOD-03"]},))
    assert view.explain(unrelated).changed == ()
    probe = _failure("ILLEGAL-REJECTED", actions=(("0", {"kind": "play_favor", "target": 7}),),
                     step=0, expected={"action": {"kind": "play_favor", "target": 7},
                                       "accepted": False})
    (line,) = view.explain(probe).changed
    assert line.startswith("this behaviour changed in 2.0.0 (ACTION_PARAMS_CHANGED): play_favor")


def test_a_declared_behaviour_change_needs_its_option_and_its_decision_point() -> None:
    """2.0.0 changed OURO-AMB-06 immediately (OURO-CARD-11): a failure at that clause under
    end-of-day (the default) is not the change's."""
    view = view_for(get_spec("ouro-de-tolo"), None, override="1.0.0")
    failure = _failure("INVARIANT", clauses=("OURO-CARD-11", "OURO-EOD-02"))
    assert view.explain(failure).changed == ()


def test_an_engine_of_ouro_1_0_0_is_told_it_follows_its_release_there() -> None:
    """An engine that plays OURO-AMB-06 immediately as 1.0.0 specified it (late stones kept,
    OURO-CARD-11) fails today's rule example; the failure says 2.0.0 changed that behaviour,
    and names OURO-AMB-29 (added in 2.1.0) only as possible after a move to 2.1.0."""
    (bad,) = OLDER_BEHAVIOUR
    engine = Declared("ouro-de-tolo", "1.0.0", bad.engine(),
                      only={"OURO-AMB-06": ["immediately"]})
    printed: list[str] = []
    stream = FoundStream()

    def found(failure: Failure) -> None:
        printed.append(stream(failure) or "")

    report = check_engine(engine, "ouro-de-tolo", players=[3], rulings=dict(bad.rulings),
                          options=QUICK, on_failure=found)
    assert not report.ok
    # Printed as found, before the report, in the same terms.
    assert printed and "behaves like OURO-AMB-29" not in "".join(printed)
    assert "this behaviour changed in 2.0.0 (BEHAVIOUR_DECLARED)" in "".join(printed)
    text = render(report, "text")
    assert "this behaviour changed in 2.0.0 (BEHAVIOUR_DECLARED)" in text
    assert "The engine may follow what 1.0.0 specified here" in text
    assert "ACTION_PARAMS_CHANGED" not in text.split("rule examples:")[1]
    assert "behaves like OURO-AMB-29" not in text
    assert not any("OURO-AMB-29" in m for f in report.failures for m in f.matches)
    assert any("also possible if you move to 2.1.0: OURO-AMB-29 = at-settlement"
               in (f.inference or "") for f in report.failures)


def test_a_planted_bug_of_ouro_1_0_0_carries_no_change_and_no_later_ruling() -> None:
    """Ouro's third-fools-gold bug (OURO-DRAW-05) declared as 1.0.0: before, its failures
    carried 'changed in 2.0.0' lines of the action caps and named OURO-AMB-32 = kept (2.1.0)."""
    bad = next(b for b in SPECIFIC["ouro-de-tolo"] if b.name == "third-fools-gold")
    engine = Declared("ouro-de-tolo", "1.0.0", bad.engine())
    report = check_engine(engine, "ouro-de-tolo", players=[3], options=QUICK)
    view = report.checked_as
    assert not report.ok
    for failure in report.failures:
        assert not failure.changed, failure
        assert all(view.in_release(m) for m in failure.matches), failure


def _older_profile(version: str) -> Any:
    from rulespec.conformance.explain.profile import infer_ruling_profile
    from rulespec.reference.registry import engine_class

    (bad,) = OLDER_BEHAVIOUR
    spec = get_spec("ouro-de-tolo")
    engine = Declared("ouro-de-tolo", version, bad.engine(),
                      only={"OURO-AMB-06": ["immediately"]})
    return infer_ruling_profile(engine, spec, engine_class(spec), players=[3, 5],
                                steer_seconds=2.0)


def test_infer_judges_an_engine_of_1_0_0_by_its_release_where_2_0_0_changed_an_option() -> None:
    """OURO-AMB-06 immediately as 1.0.0 specified it (OURO-CARD-11): today's witness of it
    fails, but 2.0.0 changed that option, so --infer says the engine follows 1.0.0 there and
    calls it no bug; OURO-AMB-29 (2.1.0) is not asked."""
    from rulespec.conformance.reports.profile_report import render_text, summary, to_json

    profile = _older_profile("1.0.0")
    assert not profile.bugs()
    ((record, found),) = profile.older()
    assert record == "OURO-AMB-06" and {f.players for f in found} == {3, 5}
    assert "follows OURO-AMB-06 = immediately as 1.0.0 specified it at 3, 5 players" in \
        summary(profile)
    assert "(a bug, not a ruling)" not in summary(profile)
    assert {f.verdict for f in profile.findings["OURO-AMB-29"]} == {"newer"}
    assert to_json(profile)["older"][0]["record"] == "OURO-AMB-06"
    assert "2.0.0 changed it (BEHAVIOUR_DECLARED" in render_text(profile)


def test_the_same_behaviour_declared_as_today_is_a_bug() -> None:
    """Declaring today's release, the same engine follows no option of OURO-AMB-06."""
    today = get_spec("ouro-de-tolo").version
    profile = _older_profile(today)
    assert [r for r, _ in profile.bugs()] == ["OURO-AMB-06"] and not profile.older()


@pytest.mark.slow
@pytest.mark.parametrize(("game", "version"), [("ouro-de-tolo", "1.0.0"),
                                               ("ruby-rhino", "0.1.0"), ("fool", "1.1.0")])
def test_no_planted_bug_of_an_older_release_is_explained_by_a_later_one(game: str,
                                                                        version: str) -> None:
    """Every planted bug of the negative corpus, declared as an older release: no failure
    names a ruling of a later release as the engine's, and none says 'changed in' (no change
    since produces a planted bug); the Ouro 1.0.0 engine of OURO-AMB-06 immediately is the one
    a change explains (OURO-CARD-11)."""
    bugs = [*corpus([game]), *(b for b in RULING_ENGINES if b.game == game)]
    for bad in bugs:
        engine = Declared(game, version, bad.engine())
        report = check_engine(engine, game, players=[bad.players] if bad.players else None,
                              options=replace(QUICK, golden=True, budget=30))
        view = report.checked_as
        assert not report.ok, bad
        for failure in report.failures:
            assert not failure.changed, (bad, failure.changed)
            assert all(view.in_release(m) for m in failure.matches), (bad, failure.matches)
