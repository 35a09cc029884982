"""The `rulespec verify` command: reports, exit codes, usage errors, the published table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulespec.cli import cli
from rulespec.verify import published
from rulespec.verify.published import Published, load_published, write_section

TINY = ["ruby-rhino", "-n", "2", "-p", "target_score=1", "-p", "total_coins=3",
        "-p", "coins_per_player=1", "--forget", "history", "--forget", "round",
        "--forget", "result.rounds",
        "--cross-check", "2000"]


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["verify", *args])
    return result.exit_code, result.output


def test_a_proof_is_reported_with_the_figures() -> None:
    code, out = run(*TINY)
    assert code == 0, out
    assert "544 distinct states, 2,200 transitions, depth 13, 16 terminal" in out
    assert "invariant(s) proven in every reachable state" in out
    assert "merges checked one step ahead: equal keys behaved alike" in out
    assert "seat 0 wins:" in out and "expected length" in out


def test_json_report(tmp_path: Path) -> None:
    code, out = run(*TINY, "--format", "json")
    assert code == 0, out
    data = json.loads(out)
    assert data["status"] == "proved" and data["states"] == 544
    assert data["uniform"]["exact"] and data["violations"] == []
    assert set(data["invariants"].values()) == {"proven", "checked"}


# Integration: a search run to its state bound through the command line, 8 s (issue 46's budget).
@pytest.mark.integration
def test_a_bounded_search_says_so() -> None:
    code, out = run("ruby-rhino", "-n", "2", "--max-states", "300")
    assert code == 0, out
    assert "BOUNDED: the search stopped at --max-states" in out
    assert "unexplored:" in out


def test_a_violation_exits_1_with_its_trace(tmp_path: Path) -> None:
    """Forgetting the dice merges states that behave differently: exit 1, two traces."""
    code, out = run(*TINY, "--forget", "dice", "--trace-dir", str(tmp_path))
    assert code == 1, out
    assert "VIOLATION KEY-BEHAVIOUR" in out
    assert len(list(tmp_path.glob("verify-ruby-rhino-key-behaviour-*.jsonl"))) == 2
    replayed = CliRunner().invoke(cli, ["replay", str(next(tmp_path.glob("*-a.jsonl")))])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize(("args", "message"), [
    (["ruby-rhino", "--forget", "nope"], "no field 'nope'"),
    (["ruby-rhino", "-p", "target_score=0"], "target_score"),
    (["nogame"], "nogame"),
    (["ruby-rhino", "--write-docs", "x.md"], "--write-docs goes with --published"),
    (["--published", "ruby-rhino", "-n", "3"], "drop the configuration options"),
    ([], "name a GAME"),
])
def test_usage_errors_exit_2(args: list[str], message: str) -> None:
    code, out = run(*args)
    assert code == 2, out
    assert message in out


def test_every_published_configuration_resolves_against_its_spec() -> None:
    """Published configurations use only the specs' parameters, rulings and variants."""
    from rulespec.reference.core import make_config
    from rulespec.spec.registry import game_ids, get_spec
    from rulespec.verify.keys import View

    entries = load_published()
    assert {e.game for e in entries} >= {"dado-de-ouro", "ruby-rhino", "pig"}
    for entry in entries:
        if entry.game not in game_ids():
            continue
        spec = get_spec(entry.game)
        make_config(spec, players=entry.players, rulings=dict(entry.rulings),
                    variants=entry.variants, parameters=dict(entry.parameters))
        state_fields = spec.state_schema["properties"]
        view = View(entry.view)
        assert all(f.split(".")[0] in state_fields
                   for f in (*view.forget, *view.last, *view.relative, *view.cap)), entry


def test_the_published_table_is_written_between_markers(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "published.yaml"
    data.write_text("configurations:\n  - game: ruby-rhino\n    players: 2\n"
                    "    parameters: {target_score: 1, total_coins: 3, coins_per_player: 1}\n"
                    "    forget: [history, round, result.rounds]\n    cross_check: 0\n"
                    "    all_rulings: false\n", encoding="utf-8")
    monkeypatch.setattr(published, "DATA", data)
    page = tmp_path / "page.md"
    page.write_text(f"intro\n{published.BEGIN}\nold\n{published.END}\nafter\n", encoding="utf-8")
    code, out = run("--published", "--write-docs", str(page))
    assert code == 0, out
    text = page.read_text(encoding="utf-8")
    assert "old" not in text and text.startswith("intro\n") and text.endswith("after\n")
    assert "| baseline (the defaults) | proved | 544 | 2,200 |" in text
    assert "rulespec verify ruby-rhino -n 2" in text


def test_one_games_tables_replace_only_that_games_part(tmp_path: Path) -> None:
    """`rulespec verify --published GAME --write-docs PAGE` re-measures one game and leaves the
    others' tables (and their stamps) as they were."""
    page = tmp_path / "page.md"
    page.write_text(f"intro\n{published.BEGIN}\n### fool\n\nfool table\n\nMeasured then.\n\n"
                    f"### pig\n\nold pig\n\nMeasured then.\n{published.END}\nafter\n",
                    encoding="utf-8")
    write_section(page, "### pig\n\nnew pig\n\nMeasured now.", games=["pig"])
    text = page.read_text(encoding="utf-8")
    assert "fool table" in text and "new pig" in text and "old pig" not in text
    assert text.index("### fool") < text.index("### pig") and text.endswith("after\n")
    assert text.count("Measured then.") == 1 and "Measured now." in text


def test_a_page_without_markers_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(ValueError, match="markers"):
        write_section(page, "x")


def test_a_published_command_line_reproduces_the_configuration() -> None:
    entry = Published("pig", 2, {"target_score": 3}, {"PIG-AMB-01": "at-once"},
                      view=("turns",), max_depth=40, optimal=True)
    assert entry.command() == ("rulespec verify pig -n 2 -p target_score=3 -r "
                               "PIG-AMB-01=at-once --forget turns --max-depth 40 --optimal "
                               "--all-rulings")


def test_the_command_and_the_api_share_the_state_cap() -> None:
    from rulespec.verify import cli as command
    from rulespec.verify import run as api

    assert command.MAX_STATES == api.MAX_STATES == api.Bounds().max_states


RHINO_TINY = ["ruby-rhino", "-n", "2", "-p", "target_score=1", "-p", "total_coins=3",
              "-p", "coins_per_player=1", "--cross-check", "2000"]


def test_without_a_view_the_specs_declared_view_is_used() -> None:
    """RR-END-01, issue 42 item 2: with neither --view nor --views, the view Ruby Rhino's spec
    declares beside its fields (x-verify) is used, the report says so, and the search is the
    one the published named view gives; --canonical searches canonical states instead."""
    code, out = run(*RHINO_TINY, "--format", "json")
    assert code == 0, out
    declared = json.loads(out)
    assert declared["view_source"] == "spec" and declared["status"] == "proved"
    code, out = run(*RHINO_TINY, "--views", "rr-summary", "--format", "json")
    assert code == 0, out
    named = json.loads(out)
    assert named["view_source"] == "command"
    assert sorted(declared["forget"] + declared["view"]) == sorted(named["forget"] + named["view"])
    assert declared["states"] == named["states"] and declared["uniform"] == named["uniform"]
    code, out = run(*RHINO_TINY)
    assert "the view the spec declares beside its fields" in out, out
    code, out = run(*RHINO_TINY, "--canonical", "--max-states", "300")
    assert code == 0, out
    assert "states identified by the canonical state\n" in out


def test_canonical_and_a_view_are_refused_together() -> None:
    code, out = run(*RHINO_TINY, "--canonical", "--forget", "history")
    assert code == 2 and "--canonical" in out, out


def test_the_progress_line_says_what_follows_the_search(
        capsys: pytest.CaptureFixture[str]) -> None:
    """PIG-END-01: after the search a terminal's progress line names each step that follows
    (the trap search, the walks, the solves, the cross-check), so a long solve is not a silent
    pause; each in place of the last, and the line is cleared before the report."""
    from rulespec.verify.cli import _Progress
    from rulespec.verify.run import Bounds, verify
    from tests.verify.support import pig_engine

    said: list[str] = []

    class Recorded(_Progress):
        def stage(self, text: str) -> None:
            said.append(text)
            super().stage(text)

    progress = Recorded(True)
    result = verify(pig_engine(), Bounds(view=("turns",), optimal=True, cross_check=50,
                                         merge_walks=5), progress=progress)
    assert result.uniform is not None and result.optimal is not None
    states = f"{result.exploration.stats.states:,} states"
    assert said == [f"searched {states}: can every state reach the end?",
                    f"searched {states}: walking 5 merges",
                    f"searched {states}: solving the outcomes under uniform random players in "
                    "exact fractions",
                    f"searched {states}: solving optimal play",
                    f"searched {states}: checking the view against up to 50 canonical states"]
    progress.clear()
    err = capsys.readouterr().err
    # (click leaves out the escape that clears the line when stderr is not a terminal)
    assert err.endswith("canonical states\r")
    assert err.count("\rsearched") == len(said)
