"""``rulespec diff``: sides, --check, formats, and the exit codes (0 ok, 1 check, 2 input)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from rulespec.cli import main
from rulespec.releases.diff import bump
from rulespec.releases.store import parse_version
from rulespec.spec import get_spec
from tests.releases.support import by_id, today_data, write_copy

DDO = "dado-de-ouro"
#: Dado de Ouro's version today, and the MINOR release after it.
TODAY = get_spec(DDO).version
NEXT = f"{parse_version(TODAY)[0]}.{parse_version(TODAY)[1] + 1}.0"
ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """Run the command line and return its exit code, stdout and stderr."""
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return int(done.value.code or 0), out, err


def _with_variant(version: str, entry: bool) -> dict[str, Any]:
    """Today's Dado de Ouro with one more variant (a MINOR change) at ``version``."""
    data = today_data(DDO)
    data["variants"].append({**by_id(data, "variants", "single-game"), "id": "two-games",
                             "name": "Two games", "parameters": {"games_to_win": 2}})
    data["game"]["spec_version"] = version
    if entry:
        data["game"]["releases"].append({"version": version, "date": "2026-12-02",
                                         "summary": "A two-game variant."})
    return data


def test_check_fails_when_the_bump_is_too_small(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    """A new variant (VARIANT_ADDED, MINOR) without a bump: --check exits 1 and says the bump."""
    new = write_copy(tmp_path, DDO, _with_variant(TODAY, entry=False))
    code, out, _ = run(capsys, "diff", "--check", "-q", f"{DDO}@{TODAY}", str(new))
    assert code == 1
    assert "VARIANT_ADDED" in out and f"needs at least {NEXT}" in out and "too small" in out
    code, out, _ = run(capsys, "diff", "-q", f"{DDO}@{TODAY}", str(new))
    assert code == 0, "without --check the diff only reports"


def test_check_passes_with_the_right_bump(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    """The same change released as 1.2.0 passes; --against names OLD the buf way."""
    new = write_copy(tmp_path, DDO, _with_variant(NEXT, entry=True))
    code, out, _ = run(capsys, "diff", "--check", "-q", str(new), "--against", f"{DDO}@{TODAY}")
    assert code == 0 and f"needs at least {NEXT} (ok)" in out


def test_one_file_is_compared_with_its_previous_release(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    """A spec file alone is checked against its game's previous release (as pre-commit does)."""
    new = write_copy(tmp_path, DDO, _with_variant(TODAY, entry=False))
    code, out, _ = run(capsys, "diff", "--check", "-q", str(new))
    assert code == 1 and f"replayed from {DDO}@{TODAY}" in out


def test_json_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """JSON carries the level, the version needed, and each change with its rule."""
    new = write_copy(tmp_path, DDO, _with_variant(NEXT, entry=True))
    code, out, _ = run(capsys, "diff", "--format", "json", "-q", f"{DDO}@{TODAY}", str(new))
    report = json.loads(out)
    assert code == 0 and report["format"] == "rulespec-diff/1"
    assert (report["level"], report["required_version"], report["ok"]) == ("minor", NEXT, True)
    assert report["counts"] == {"VARIANT_ADDED": 1}
    (change,) = report["changes"]
    assert change["rule"] == "VARIANT_ADDED" and change["category"] == "variants"
    assert change["clauses"] == ["DDO-MATCH-02"]


def test_markdown_bulletin(capsys: pytest.CaptureFixture[str]) -> None:
    """The bulletin is headed by the release and its summary, then the changes by level."""
    code, out, _ = run(capsys, "diff", "--format", "markdown", "-q", "ouro-de-tolo@1.0.0",
                       "ouro-de-tolo@2.0.0")
    lines = out.splitlines()
    assert code == 0 and lines[0] == "# Ouro de Tolo 2.0.0 (2026-12-01)"
    assert lines[2].startswith("An accident takes every stone")
    assert out.index("## Breaking changes (MAJOR)") < out.index("## Additions (MINOR)") < \
        out.index("## Corrections and documentation (PATCH)")
    assert "- **BEHAVIOUR_DECLARED** `game.releases[2.0.0]`" in out


def test_text_lists_patch_changes_only_when_verbose(capsys: pytest.CaptureFixture[str]) -> None:
    """PATCH changes are counted by rule; --verbose lists each."""
    _, short, _ = run(capsys, "diff", "-q", "dado-de-ouro@1.0.0", "dado-de-ouro@1.1.0")
    _, full, _ = run(capsys, "diff", "-q", "-v", "dado-de-ouro@1.0.0", "dado-de-ouro@1.1.0")
    assert short.splitlines()[0].startswith("dado-de-ouro 1.0.0 -> 1.1.0:")
    assert "STATE_ANNOTATION_CHANGED x" in short and "(--verbose lists each)" in short
    assert "STATE_ANNOTATION_CHANGED state.schema" in full and len(full) > len(short)


# Integration: the same command as CI's spec-versions step (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
def test_all_games_pass_against_their_previous_release(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The CI gate: every game's spec today needs no bump beyond the version it carries."""
    code, out, _ = run(capsys, "diff", "--check", "--all", "-q")
    assert code == 0, out
    assert out.count("(ok)") == 4


@pytest.mark.parametrize(("args", "message"), [
    (["fool@9.9.9", "fool@1.1.0"], "the releases of 'fool' are 1.0.0, 1.1.0, 1.2.0"),
    (["nosuch.yaml", "fool@1.1.0"], "no such spec file: 'nosuch.yaml'"),
    (["fool@1.0.0", "dado-de-ouro@1.0.0"], "cannot compare specs of two games"),
    (["git:HEAD", "git:HEAD"], "does not say which game"),
    (["fool@1.x", "fool@1.1.0"], "version '1.x' is not MAJOR.MINOR.PATCH"),
    ([], "give OLD NEW"),
])
def test_input_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                             message: str) -> None:
    """Bad sides exit 2 with a sentence naming the value and what to do."""
    code, _, err = run(capsys, "diff", *args)
    assert code == 2 and message in err, err


def test_git_sides(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """git:REV:PATH and git:REV (with the game from the other side) read a committed spec with
    its committed evidence; the first release is the spec at 3e44d90."""
    monkeypatch.chdir(ROOT)
    if subprocess.run(["git", "cat-file", "-e", "3e44d90"], cwd=ROOT, check=False,
                      capture_output=True).returncode != 0:
        pytest.skip("not a git checkout with the first release's commit")
    code, out, _ = run(capsys, "diff", "--format", "json", "-q", "--no-behaviour",
                       "git:3e44d90:specs/fool.yaml", "fool@1.0.0")
    assert code == 0 and json.loads(out)["level"] == "none"
    # The new side's reference must run to replay the old evidence; 1.0.0 named a module
    # that rulespec 0.2 moved.
    code, _, err = run(capsys, "diff", "-q", "git:3e44d90:specs/fool.yaml", "fool@1.0.0")
    assert code == 2 and "compare with --no-behaviour, or swap the sides" in err
    code, out, _ = run(capsys, "diff", "--format", "json", "-q", "git:3e44d90", "fool@1.1.0")
    report = json.loads(out)
    assert report["level"] == "minor" and report["replayed"].startswith("6 golden trace(s)")


@pytest.mark.parametrize(("version", "level", "needed"), [
    ("1.1.0", "none", "1.1.0"), ("1.1.0", "patch", "1.1.1"), ("1.1.3", "minor", "1.2.0"),
    ("1.1.3", "major", "2.0.0"), ("0.1.0", "major", "0.2.0"), ("0.1.0", "minor", "0.1.1"),
])
def test_bump(version: str, level: str, needed: str) -> None:
    """Semver read for rules; under 1.0.0 a breaking change bumps the minor number."""
    assert bump(version, level) == needed  # type: ignore[arg-type]


def _tightened(data: dict[str, Any]) -> None:
    """DDO-GAME-02: a game has one round at most, which the reference breaks in every game."""
    invariant = by_id(data, "invariants", "DDO-INV-ROUNDS-PER-GAME")
    invariant["expression"] = invariant["expression"].replace(
        "state.rounds_played <= params.rounds_per_game", "state.rounds_played <= 1")


def _swapped(data: dict[str, Any]) -> None:
    """DDO-TIE-01, DDO-TIE-04: the min tie-break before the max one (against DDO-AMB-03)."""
    match = by_id(data["structure"], "flow", "match")
    steps = by_id(match, "steps", "round")["steps"]
    i, j = (next(n for n, s in enumerate(steps) if s["id"] == k)
            for k in ("max-tiebreak", "min-tiebreak"))
    steps[i], steps[j] = steps[j], steps[i]


@pytest.mark.parametrize(("edit", "rule", "bumped"), [
    (_tightened, "INVARIANT_BROKEN", NEXT), (_swapped, "ORDER_CHANGED", TODAY)],
    ids=["tightened invariant", "unbumped reorder"])
def test_check_refuses_a_broken_invariant_and_a_reorder(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, edit: Any, rule: str,
        bumped: str) -> None:
    """--check exits 1 on an invariant tightened so that the reference breaks it (DDO-GAME-02,
    DDO-MATCH-01), even released as a MINOR bump, and on the tie-break steps swapped in the
    frozen release without a bump (DDO-TIE-01, DDO-TIE-04): both are MAJOR."""
    data = today_data(DDO)
    edit(data)
    if bumped != TODAY:
        data["game"]["spec_version"] = bumped
        data["game"]["releases"].append({"version": bumped, "date": "2026-12-02",
                                         "summary": "One round is enough."})
    new = write_copy(tmp_path, DDO, data)
    code, out, _ = run(capsys, "diff", "--check", "-q", str(new), "--against", f"{DDO}@{TODAY}")
    assert code == 1, out
    assert rule in out and "the largest MAJOR" in out and "too small" in out
    assert "was: " in out and "now: " in out
    code, out, _ = run(capsys, "diff", "-q", "--format", "json", str(new), "--against",
                       f"{DDO}@{TODAY}")
    report = json.loads(out)
    assert code == 0 and not report["ok"] and rule in report["counts"]
    assert all("old" in c and "new" in c for c in report["changes"])


def test_check_refuses_an_edited_release_without_a_bump(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    """An edit of the frozen release no other rule looks at (its own release entry reworded)
    needs a PATCH bump, and says where the spec differs, old and new."""
    data = today_data(DDO)
    data["game"]["releases"][-1]["summary"] += " Reworded."
    new = write_copy(tmp_path, DDO, data)
    code, out, _ = run(capsys, "diff", "--check", "-q", str(new))
    where = f"game.releases[{len(data['game']['releases']) - 1}].summary"
    assert code == 1 and f"RELEASE_EDITED {where}" in out, out
    assert "now: " in out and out.count("Reworded.") >= 1


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A git repository with a text file that is not YAML and a binary file, committed."""
    if subprocess.run(["git", "--version"], capture_output=True, check=False).returncode != 0:
        pytest.skip("git is not installed")
    (tmp_path / "notes.txt").write_text("title: a: b\n  - not yaml\n", encoding="utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    (tmp_path / "list.yaml").write_text("- one\n- two\n", encoding="utf-8")
    env = ["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "."], [*env, "commit", "-q", "-m", "files"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize(("path", "message"), [
    ("notes.txt", "git:HEAD:notes.txt is not a YAML spec: it cannot be read as YAML at line 1"),
    ("image.png", "git:HEAD:image.png is a binary file, not a spec"),
    ("list.yaml", "git:HEAD:list.yaml is not a spec (it has no game.id)"),
])
def test_a_git_side_that_is_no_spec_exits_2(capsys: pytest.CaptureFixture[str], repo: Path,
                                            path: str, message: str) -> None:
    """git:REV:PATH on a non-YAML, binary or non-spec file: exit 2, a sentence naming the file
    and what to give instead, no traceback."""
    code, out, err = run(capsys, "diff", f"git:HEAD:{path}", "fool@1.2.1")
    assert code == 2 and message in err, err
    assert "give the path of a game's spec file" in err and "Traceback" not in err + out
