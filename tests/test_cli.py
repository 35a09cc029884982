"""The command line: exit codes (0 ok, 1 check failed, 2 usage or input error, 3 engine failed) and clear messages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespec.cli import main
from rulespec.spec.registry import game_ids

SPECS = Path(__file__).parent / "specs"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the CLI in-process; return exit code, stdout, stderr."""
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


def test_validate_valid_example(capsys: pytest.CaptureFixture[str]) -> None:
    """A valid spec validates with exit 0 (its reference module is not checked when absent)."""
    code, out, _ = run(capsys, "validate", str(SPECS / "valid" / "toy.yaml"), "--sources",
                       str(SPECS / "sources"))
    assert "problem" in out
    # The toy spec names a module that does not exist: that is reported, exit 1.
    assert code == 1 and "rulespec.games.toy_coin" in out


def test_validate_reports_every_problem_as_json(capsys: pytest.CaptureFixture[str],
                                                tmp_path: Path) -> None:
    """--format json lists each problem with file, line, column, path and message."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: rulespec/1\nformat: again\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(bad), "--format", "json")
    assert code == 1
    report = json.loads(out)
    problem = report[0]["problems"][0]
    assert problem["line"] == 2 and "duplicate key 'format'" in problem["message"]


def test_validate_sources_must_be_a_folder(capsys: pytest.CaptureFixture[str]) -> None:
    """A --sources that is not a folder is a usage error."""
    code, _, err = run(capsys, "validate", "--sources", "/nonexistent/folder")
    assert code == 2 and "--sources" in err


@pytest.mark.parametrize("command", [["play", "nosuch"], ["ambiguities", "nosuch"],
                                     ["bench", "nosuch"]])
def test_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                       command: list[str]) -> None:
    """An unknown game id exits 2 and lists the known games."""
    code, _, err = run(capsys, *command)
    assert code == 2 and "unknown game 'nosuch'" in err and "known games" in err


def test_replay_missing_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Replaying a file that does not exist exits 2."""
    code, _, err = run(capsys, "replay", "/nonexistent/trace.jsonl")
    assert code == 2 and "no such trace file" in err


def test_replay_corrupted_trace_fails_with_the_line(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    """A corrupted trace is an input error: exit 2, naming the bad line."""
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"type": "header"\n', encoding="utf-8")
    code, _, err = run(capsys, "replay", str(broken))
    assert code == 2 and "broken.jsonl:1: not valid JSON" in err


def test_bad_option_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """A malformed --ruling is a usage error."""
    if not game_ids():
        pytest.skip("no game registered yet")
    code, _, err = run(capsys, "play", game_ids()[0], "--ruling", "no-equals-sign")
    assert code == 2 and "NAME=VALUE" in err


def test_play_needs_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    """play without a game and without --all says what to do."""
    code, _, err = run(capsys, "play")
    assert code == 2 and "--all" in err


def test_validate_accepts_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A folder argument validates every *.yaml in it; an empty folder is a usage error."""
    code, out, _ = run(capsys, "validate", str(SPECS / "valid"), "--sources", str(SPECS / "sources"))
    assert "toy.yaml" in out and "1 spec(s) checked" in out
    assert code == 1  # the toy spec's reference module does not exist (see above)
    code, _, err = run(capsys, "validate", str(tmp_path))
    assert code == 2 and "holds no *.yaml spec files" in err
