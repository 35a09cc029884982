"""``conform --infer``: an engine's ruling profile, shown by the spec's witnesses.

A witness of an option holds under it and under no other option of its record
(docs/editors/writing-examples.md); played on an engine configured as it declares, the witness
that holds names the reading the engine follows.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rulespec.conformance import InProcessAdapter, SubprocessAdapter
from rulespec.conformance.explain.profile import (
    RulingProfile,
    infer_ruling_profile,
    same_at,
)
from rulespec.conformance.explain.witness_probes import WitnessBench
from rulespec.conformance.judging.versions import VersionView
from rulespec.conformance.reports.profile_report import counts_text, render_text, summary, to_json
from rulespec.examples.model import load_examples
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

from .corpus import DECISION_BUGS, RULING_ENGINES, BadEngine, playable_games
from .support import bad_server_command, serve_command

GAMES = playable_games()
RULINGS = [b for b in RULING_ENGINES if b.game in GAMES]
BUGS = [b for b in DECISION_BUGS if b.game in GAMES]


def _profile(bad: BadEngine | None, game: str, **kw: object) -> RulingProfile:
    spec = get_spec(game)
    adapter = (InProcessAdapter() if bad is None
               else InProcessAdapter({game: bad.engine()}, name=bad.name))
    return infer_ruling_profile(adapter, spec, engine_class(spec), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", RULINGS, ids=str)
def test_witnesses_name_the_option_at_every_count_where_it_differs(bad: BadEngine) -> None:
    """A ruling-equivalent engine is named exactly: its option where the witnesses show it,
    'options alike' where the record's readings play alike, and nothing else anywhere."""
    assert bad.behaves_like is not None
    amb, opt = bad.behaves_like
    spec = get_spec(bad.game)
    profile = _profile(bad, bad.game, play_seconds=0.0)
    deviations = profile.deviations()
    (deviation,) = [d for d in deviations if d.record == amb]
    assert (deviation.record, deviation.option) == (amb, opt)
    assert bad.players in deviation.by_witness and not deviation.unconfirmed
    # A record whose question arises only under another record's default (FOOL-AMB-16, the
    # second Fool, under FOOL-AMB-03's two Fools at 7) can have its witnesses fooled by the
    # same behaviour: witness-only profiles (no play here) may name it too, but only at the
    # counts where the engine's own deviation shows.
    for other in deviations:
        assert set(other.by_witness) <= set(deviation.by_witness), other
    assert not profile.bugs() and not profile.unreached()
    for finding in profile.findings[amb]:
        alike = same_at(spec, amb, finding.players, profile.configured)
        assert (finding.verdict == "same") == alike, finding
        assert finding.verdict in ("same", "follows", "undecided"), finding
        if finding.verdict == "follows":
            assert finding.option == opt and finding.by == "witness"
    assert f"{amb} = {opt} at {counts_text(deviation.by_witness)} player" in summary(profile)


def test_a_table_that_differs_at_one_count_is_asked_only_there() -> None:
    """FOOL-AMB-03 (FOOL-FOOL-03): one or two Fools differ only at 7 players."""
    spec = get_spec("fool")
    rulings = spec.default_rulings()
    assert [n for n in range(4, 9) if not same_at(spec, "FOOL-AMB-03", n, rulings)] == [7]
    assert not any(same_at(spec, "FOOL-AMB-05", n, rulings) for n in range(4, 9))
    bad = next(b for b in RULINGS if b.behaves_like == ("FOOL-AMB-03", "eight-only"))
    profile = _profile(bad, "fool", play_seconds=0.0)
    assert "follows the defaults except FOOL-AMB-03 = eight-only at 7 players" in summary(profile)


@pytest.mark.parametrize("bad", BUGS, ids=str)
def test_a_plain_bug_at_a_decision_point_follows_no_option(bad: BadEngine) -> None:
    """DDO-ROUND-01 read as no option of DDO-AMB-04 does: reported as a bug, never as an
    option, whether the witnesses show it or only the games played do."""
    profile = _profile(bad, bad.game)
    assert [r for r, _ in profile.bugs()] == [bad.bug_at]
    assert not profile.deviations()
    assert f"follows no option of {bad.bug_at} at {bad.players} players" in summary(profile)
    text = render_text(profile)
    assert f"follows no option of {bad.bug_at} at {bad.players} players: " in text


def test_the_witnesses_alone_catch_the_bug_they_do_not_share() -> None:
    """Each witness of DDO-AMB-04 fails on an engine passing the start two seats on."""
    bad = next(b for b in BUGS if b.name == "starter-skips-a-seat")
    profile = _profile(bad, bad.game, play_seconds=0.0)
    (finding,) = profile.findings["DDO-AMB-04"]
    assert finding.verdict == "no-option" and finding.by == ""
    failed = {w.probe.option for w in finding.witnesses if not w.holds}
    assert failed == {"game-starter", "rotate-clockwise", "previous-round-winner"}


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_follows_the_defaults(game: str) -> None:
    """The reference, in-process, follows every default it is shown at, at every count. (The
    steered games, which look for a game that parts two readings the witnesses left open, get
    two seconds: an engine that follows the defaults gives them nothing to find, and the
    default budget cost 17 s a game here; tests/conformance/test_steered_inference.py checks
    what they find.)"""
    profile = _profile(None, game, play_seconds=2.0, steer_seconds=2.0)
    assert summary(profile).startswith("follows the defaults")
    assert not profile.deviations() and not profile.bugs() and not profile.unreached()
    assert all(not p.partings for p in profile.play)


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_served_over_the_protocol_follows_the_defaults(game: str) -> None:
    """``rulespec serve GAME`` answers every witness as the defaults demand."""
    spec = get_spec(game)
    adapter = SubprocessAdapter(serve_command(game), timeout=20)
    try:
        profile = infer_ruling_profile(adapter, spec, engine_class(spec), play_seconds=1.0,
                                       steer_seconds=1.0)
    finally:
        adapter.close()
    assert summary(profile).startswith("follows the defaults"), summary(profile)
    assert not profile.deviations() and not profile.bugs() and not profile.unreached()


def test_the_witness_profile_is_deterministic() -> None:
    """The same engine gives the same profile (without the fallback play's clock)."""
    bad = next(b for b in RULINGS if b.game == "ruby-rhino")
    first, again = (to_json(_profile(bad, bad.game, play_seconds=0.0)) for _ in range(2))
    for doc in (first, again):
        doc.pop("seconds")
    assert first == again


def test_records_newer_than_the_declared_release_are_not_asked() -> None:
    """An engine checked as ruby-rhino 0.1.0 is not asked about RR-AMB-15 (added in 0.2.0)."""
    profile = _profile(None, "ruby-rhino", players=[3], spec_version="0.1.0",
                       play_seconds=0.0)
    (finding,) = profile.findings["RR-AMB-15"]
    assert finding.verdict == "newer" and not finding.witnesses
    newer = to_json(profile)["newer"]["records"]
    assert "RR-AMB-15" in newer and "RR-AMB-01" not in newer
    assert "not asked (added after 0.1.0, held at their default): RR-AMB-15" in \
        render_text(profile)


def test_witnesses_of_options_newer_than_the_release_are_not_run() -> None:
    """An option added after the declared release: its witnesses are skipped, with why."""
    spec = get_spec("dado-de-ouro")
    adapter = InProcessAdapter()
    view = VersionView(spec.game_id, "1.0.0", spec.version, "test",
                       added_options={"DDO-AMB-04": frozenset({"rotate-clockwise"})})
    bench = WitnessBench(spec, load_examples(spec), adapter.hello(), view)
    probes = bench.probes("DDO-AMB-04", 4, spec.default_rulings(), spec.default_rulings())
    assert probes.options == {"game-starter", "previous-round-winner"}
    assert "added after 1.0.0" in probes.skipped["DDO-EX-ROUND2-ROTATE"]


def test_conform_infer_prints_one_profile_as_json_and_exits_1_on_a_bug() -> None:
    """The command line, over the protocol: the JSON profile; exit 1 for a plain bug."""
    bad = next(b for b in RULINGS if b.game == "dado-de-ouro")
    ok = _infer_command(bad)
    assert ok.returncode == 0, ok.stderr
    doc = json.loads(ok.stdout)
    assert doc["format"] == "rulespec-ruling-profile/2"
    assert [(d["record"], d["option"]) for d in doc["deviations"]] == [bad.behaves_like]
    bug = next(b for b in BUGS if b.name == "starter-skips-a-seat")
    failed = _infer_command(bug)
    assert failed.returncode == 1, failed.stderr
    assert [b["record"] for b in json.loads(failed.stdout)["bugs"]] == ["DDO-AMB-04"]


def test_conform_infer_seconds_bounds_the_steered_games() -> None:
    """``--infer-seconds 0`` plays no steered game; a negative budget is a usage error."""
    bad = next(b for b in RULINGS if b.game == "dado-de-ouro")
    run = _infer_command(bad, "--infer-seconds", "0", "-n", "4")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    assert doc["steered"] == [] and [(d["record"], d["option"]) for d in doc["deviations"]] == [
        bad.behaves_like]
    refused = _infer_command(bad, "--infer-seconds", "-1")
    assert refused.returncode == 2 and "--infer-seconds" in refused.stderr


def _infer_command(bad: BadEngine, *more: str) -> subprocess.CompletedProcess[str]:
    cmd = " ".join(bad_server_command(bad.game, bad.name))
    return subprocess.run([sys.executable, "-m", "rulespec", "conform", "--engine", cmd,
                           "--game", bad.game, "--infer", "--format", "json", *more],
                          capture_output=True, text=True, timeout=120, check=False)


def test_counts_text() -> None:
    """Player counts read as ranges."""
    assert counts_text([4, 5, 6, 8]) == "4-6, 8"
    assert counts_text([7]) == "7"
