"""Merge walks: merged engines followed with their representatives past the one step the search
compares (``rulespec.verify.walks``), and the findings they made (docs/editors/verification.md,
the findings table)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec.cli import cli
from rulespec.reference.registry import engine_class
from rulespec.releases.store import release_spec
from rulespec.spec.registry import get_spec
from rulespec.spec.verify_views import declared_view_terms
from rulespec.verify.engines import replay
from rulespec.verify.explore import Explorer
from rulespec.verify.published import load_published
from rulespec.verify.report import verification_json, verification_text
from rulespec.verify.run import Bounds, Setup, verify
from rulespec.verify.walks import MERGE_WALKS, SEED, Walks, merge_edges
from tests.support import without_keys
from tests.verify.support import RHINO_SUMMARY, RHINO_TINY, TIMING, pig_engine
from tests.verify.test_symmetry import RHINO_SEATS

#: The published rr-summary view as Ruby Rhino 0.2.5 declared it: the result's count of rounds
#: kept whole while the round number is kept only in differences.
RHINO_SUMMARY_025 = tuple(t for t in RHINO_SUMMARY if t != "result.rounds")


def _rhino(option: str, **parameters: int) -> Setup:
    spec = get_spec("ruby-rhino")
    return Setup(spec, engine_class(spec), 2, {"RR-AMB-11": option}, (),
                 {**RHINO_TINY, **parameters})


def _replays_to_equal_keys(setup: Setup, view: tuple[str, ...], first: tuple[int, ...],
                           other: tuple[int, ...]) -> bool:
    explorer = Explorer(setup.engine(), view=view)
    a, b = replay(explorer.start, first), replay(explorer.start, other)
    return explorer.view.key(a.state()) == explorer.view.key(b.state())


def test_the_round_count_kept_whole_is_caught_and_the_mended_view_proves() -> None:
    """RR-ROUND-05, RR-END-01: the 0.2.5 view kept ``round`` in differences but the result's
    count of rounds whole, so states merged rounds apart end in results with different keys.
    The one-step check cannot see it (the ends are never built from the merged engine); a walk
    does, with two traces that replay to states of equal keys. Ruby Rhino 0.2.6 forgets the
    count, and the published configuration proves with its walks."""
    setup = _rhino("next-starter")
    one_step = verify(setup.engine(), Bounds(view=RHINO_SUMMARY_025, cross_check=0,
                                             merge_walks=0))
    assert one_step.status == "proved"
    walked = verify(setup.engine(), Bounds(view=RHINO_SUMMARY_025, cross_check=0))
    assert walked.status == "violated"
    found = walked.violations[0]
    assert found.kind == "KEY-BEHAVIOUR" and found.other is not None
    assert "merge walk" in found.message and "later along the same moves" in found.message
    assert _replays_to_equal_keys(setup, RHINO_SUMMARY_025, found.path, found.other)
    assert walked.uniform is None  # a violated search publishes no figures
    mended = verify(setup.engine(), Bounds(view=RHINO_SUMMARY, cross_check=0))
    assert mended.status == "proved", mended.violations
    assert mended.walks is not None and mended.walks.walked == MERGE_WALKS
    assert mended.uniform == one_step.uniform


def test_the_spec_declares_the_mended_view() -> None:
    """Ruby Rhino 0.2.6 forgets ``result.rounds`` beside the field (x-verify)."""
    assert "result.rounds" in declared_view_terms(get_spec("ruby-rhino"), {})


# Three searches of some 6,000 states with their figures: past the default run's budget.
@pytest.mark.integration
def test_a_view_that_forgets_who_started_the_round_is_caught_under_next_starter() -> None:
    """RR-AMB-11 next-starter, RR-TURN-01: the finding of 2026-12-03, fixed. A view that also
    forgets ``starter`` merges states whose next rounds start with different players; the
    one-step check said "proved" with figures unlike the published view's, and the walks say
    KEY-BEHAVIOUR."""
    setup = _rhino("next-starter", target_score=2)
    view = (*RHINO_SUMMARY, "starter")
    kept = verify(setup.engine(), Bounds(view=RHINO_SUMMARY, cross_check=0))
    one_step = verify(setup.engine(), Bounds(view=view, cross_check=0, merge_walks=0))
    forgotten = verify(setup.engine(), Bounds(view=view, cross_check=0))
    assert kept.status == one_step.status == "proved"
    assert one_step.uniform != kept.uniform  # what the finding was
    assert forgotten.status == "violated"
    found = forgotten.violations[0]
    assert found.kind == "KEY-BEHAVIOUR" and found.other is not None
    assert _replays_to_equal_keys(setup, view, found.path, found.other)


@pytest.mark.integration
def test_the_same_finding_with_the_seats_rotated() -> None:
    """RR-AMB-11 same-first-player with --symmetry: forgetting ``starter`` merges rotations
    whose rounds start with different seats; the walks follow a rotated pair in its frames."""
    setup = _rhino("same-first-player", target_score=2)
    found = verify(setup.engine(), Bounds(view=(*RHINO_SUMMARY, "starter"), cross_check=0,
                                          symmetry=RHINO_SEATS))
    assert found.status == "violated" and found.violations[0].kind == "KEY-BEHAVIOUR"
    kept = verify(setup.engine(), Bounds(view=RHINO_SUMMARY, cross_check=0,
                                         symmetry=RHINO_SEATS))
    assert kept.status == "proved", kept.violations


def test_walks_change_no_figure_of_a_sound_view() -> None:
    """PIG-END-01: where every walk agrees, the search, its verdicts and figures are the same
    with and without walks; only the report of the walks is added."""
    view = ("relative(turns)",)
    plain = verify(pig_engine({"PIG-AMB-01": "at-once"}), Bounds(view=view, merge_walks=0,
                                                                 cross_check=0))
    walked = verify(pig_engine({"PIG-AMB-01": "at-once"}), Bounds(view=view, cross_check=0))
    assert plain.walks is None and walked.walks is not None
    assert walked.status == plain.status == "proved"
    assert walked.uniform == plain.uniform
    assert walked.exploration.stats.states == plain.exploration.stats.states
    w = walked.walks
    assert w.walked == min(w.merges, MERGE_WALKS) > 0
    assert w.converged + w.ended + w.cut == w.walked


def test_the_merges_drawn_are_merges_and_the_draw_is_repeatable() -> None:
    """A merge is an edge other than the one each state was first reached by: the graph has
    edges - (states - 1) of them; the draw is seeded, so a run walks the same ones again."""
    found = Explorer(pig_engine({"PIG-AMB-01": "at-once"}, target_score=6),
                     view=("relative(turns)",)).run()
    store = found.store
    merges, every = merge_edges(found, 10**9, random.Random(SEED))
    assert merges == len(store.targets) - (len(store) - 1) == len(every)
    for parent, move, target in every:
        assert (store.parents[target], store.moves[target]) != (parent, move) or target == 0
        assert store.targets[store.offsets[parent] + move] == target
    some = merge_edges(found, 20, random.Random(SEED))
    assert some == merge_edges(found, 20, random.Random(SEED))
    assert some[0] == merges and len(some[1]) == 20 and set(some[1]) <= set(every)
    assert merge_edges(found, 0, random.Random(SEED)) == (merges, [])


def test_the_power_of_the_walks_is_the_rule_of_three() -> None:
    """n walks that find nothing rule out, at 95 %, a difference shown by a share of walks of
    1 - 0.05 ** (1 / n) or more (about 3 / n)."""
    assert Walks(merges=1000, walked=300).power == pytest.approx(0.009936, abs=1e-6)
    assert Walks().power is None


def test_the_report_says_what_the_walks_did() -> None:
    """The text report names the walks and how rare a difference they could have missed; the
    JSON report carries the counts."""
    v = verify(pig_engine({"PIG-AMB-01": "at-once"}, target_score=6),
               Bounds(view=("relative(turns)",), merge_walks=40, cross_check=0))
    text = "\n".join(verification_text(v, {}))
    assert "merge walks: 40 of" in text and "one walk in 14 would show" in text
    data = verification_json(v)["merge_walks"]
    assert data["walked"] == 40 and data["merges"] > 40 and data["power"] > 0
    json.dumps(data)


def test_the_cli_takes_a_number_of_walks(tmp_path: Path) -> None:
    """--merge-walks N (0: none); the help's default is the module's; --published runs each
    configuration with its own."""
    run = CliRunner().invoke(cli, ["verify", "ruby-rhino", "-n", "2", "-q", "--format", "json",
                                   "-p", "target_score=1", "-p", "total_coins=3", "-p",
                                   "coins_per_player=1", "--merge-walks", "0",
                                   "--cross-check", "0",
                                   "--trace-dir", str(tmp_path)])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["merge_walks"] is None
    helped = CliRunner().invoke(cli, ["verify", "--help"], terminal_width=200)
    assert f"[default: {MERGE_WALKS}]" in " ".join(helped.output.split())
    refused = CliRunner().invoke(cli, ["verify", "--published", "--merge-walks", "5"])
    assert refused.exit_code == 2 and "drop the configuration options" in refused.output


def test_a_published_command_names_walks_other_than_the_default() -> None:
    """A published configuration walks as many merges as the command line shows: none
    differs from the default today, and one that did would say so."""
    for entry in load_published():
        named = "--merge-walks" in entry.command()
        assert named == (entry.merge_walks != MERGE_WALKS), entry.anchor
        assert entry.bounds().merge_walks == entry.merge_walks


# Some 30 s: the published one-round Dado de Ouro configuration, walked, under both views.
@pytest.mark.integration
def test_the_dado_de_ouro_summary_view_survives_its_walks() -> None:
    """DDO-END-02, DDO-MATCH-01: the 1.4.0 view is refused by its walks (the final draw's last
    pass summarised by truth values that a later repetition reads with a new starter; the match
    record copying the repetitions the view caps); the 1.5.0 view, declared by the spec and
    published as ddo-summary, proves with them and gives the same figures."""
    entry = next(e for e in load_published() if e.anchor == "verify-dado-de-ouro-1")
    spec = get_spec(entry.game)
    setup = entry.setup(spec, engine_class(spec))
    old_view = declared_view_terms(release_spec("dado-de-ouro", "1.4.0"), dict(entry.parameters))
    refused = verify(setup.engine(), Bounds(view=old_view, cross_check=0))
    assert refused.status == "violated"
    assert refused.violations[0].kind == "KEY-BEHAVIOUR"
    assert entry.view_name == "ddo-summary" and entry.merge_walks == MERGE_WALKS
    found = verify(setup.engine(), Bounds(view=entry.view, cross_check=0))
    assert found.status == "proved", found.violations
    assert set(found.invariant_status.values()) == {"proven"}
    one_step = verify(setup.engine(), Bounds(view=old_view, cross_check=0, merge_walks=0))
    assert found.uniform is not None and one_step.uniform is not None
    assert found.uniform.wins == one_step.uniform.wins


def test_with_workers_the_walks_and_the_cross_check_run_beside_the_solves() -> None:
    """PIG-END-01, RR-AMB-11: given workers, the walks and the view's cross-check are tasks of
    their own, run while this process solves the outcomes; the report is the one-process
    report, and a difference the walks find drops the figures solved meanwhile."""
    from rulespec.executors import InlineExecutor

    tasks: list[str] = []

    class Counted(InlineExecutor):
        def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
            tasks.append(fn.__name__)
            return super().submit(fn, *args, **kwargs)

    def report(make: Any, bounds: Bounds, executor: Any) -> dict[str, Any]:
        found = verify(make(), bounds, executor=executor, workers=2)
        out: dict[str, Any] = without_keys(verification_json(found), TIMING)
        return out

    sound = Bounds(view=("relative(turns)", "cap(rolls, 1)"), optimal=True, cross_check=200)
    make = lambda: pig_engine({"PIG-AMB-01": "at-once"}, target_score=6)  # noqa: E731
    alone = report(make, sound, None)
    assert report(make, sound, Counted()) == alone
    assert tasks.count("_walk_drawn") == tasks.count("verify") == 1
    assert alone["merge_walks"]["walked"] > 0 and alone["uniform"] is not None
    assert alone["cross_check"] is not None
    setup = _rhino("next-starter", target_score=2)
    wrong = Bounds(view=(*RHINO_SUMMARY, "starter"), cross_check=200)
    alone = report(setup.engine, wrong, None)
    shared = report(setup.engine, wrong, InlineExecutor())
    assert shared == alone
    assert shared["status"] == "violated" and shared["uniform"] is None
