"""``rulespec impact``: usage errors exit 2 with a sentence, before any game is played; JSON
output is the rulespec-impact/1 report; --from re-reads it; --write and --chart are wired."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulespec.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(["impact", *args])
    out, err = capsys.readouterr()
    code = info.value.code
    return (code if isinstance(code, int) else 1), out, err


@pytest.mark.parametrize(("args", "words"), [
    (["no-such-game"], "unknown game 'no-such-game'"),
    (["fool", "FOOL-AMB-99"], "unknown ambiguity 'FOOL-AMB-99'"),
    (["fool", "--agents", "random,clever"], "unknown agent 'clever'"),
    (["fool", "--agents", ""], "--agents is empty"),
    (["--all", "fool"], "give no GAME"),
    ([], "give a GAME"),
    (["ruby-rhino", "--players", "9"], "ruby-rhino is for"),
    (["fool", "--games", "0"], "--games"),
    (["fool", "--precision", "1.5"], "--precision"),
    (["fool", "--reached", "--open-only"], "--open-only is a way of measuring --sequential"),
    (["fool", "--reached", "--only", "FOOL-AMB-03"], "--only is a way of measuring"),
    (["fool", "--reached", "--sequential", "1", "--only", "FOOL-AMB-99"],
     "--only names 'FOOL-AMB-99', not a record of fool"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                             words: str) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2, err
    assert words in err
    assert "Traceback" not in err


def test_json_report_and_from(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                              monkeypatch: pytest.MonkeyPatch) -> None:
    """DDO-AMB-01 (the die's faces) with random players: a rulespec-impact/1 report whose
    figures every DDO game reaches; --from prints the same and hands each record to --write."""
    code, out, err = run(capsys, "dado-de-ouro", "DDO-AMB-01", "--agents", "random",
                         "--games", "4", "--batch-size", "2", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["format"] == "rulespec-impact/1" and report["game"] == "dado-de-ouro"
    record = report["records"]["DDO-AMB-01"]
    assert record["players"] == 4 and record["agents"][0]["id"] == "random"
    assert [r["option"] for r in record["results"]] == ["d8", "d10"]
    for result in record["results"]:
        assert result["games"] == 4 and result["trigger_rate"]["value"] == 1.0
        for seat in result["seat_win_rate_change"]:
            assert -1 <= seat["low"] <= seat["value"] <= seat["high"] <= 1
    assert out == json.dumps(report, sort_keys=True, indent=2, ensure_ascii=False) + "\n"
    saved = tmp_path / "impact.json"
    saved.write_text(out, encoding="utf-8")
    written: list[tuple[Path, str, Any]] = []
    import rulespec.impact.record as record_module

    monkeypatch.setattr(record_module, "write_measured",
                        lambda path, amb, measured: written.append((path, amb, measured)))
    chart = tmp_path / "forest.svg"
    code, again, err = run(capsys, "--from", str(saved), "--format", "json", "--write",
                           "--chart", str(chart))
    assert code == 0, err
    assert again == out
    assert [(p.name, a) for p, a, _ in written] == [("dado-de-ouro.yaml", "DDO-AMB-01")]
    # The spec keeps its format's figures; the distribution figures are the sweep file's.
    from rulespec.impact.record import RESULT_KEYS

    assert written[0][2] == dict(record, results=[{k: r[k] for k in RESULT_KEYS}
                                                  for r in record["results"]])
    assert "distribution_test" in record["results"][0]
    assert chart.read_text(encoding="utf-8").startswith("<svg")


def test_mcts_searches_are_in_the_report(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    """With the mcts agent the JSON carries ``search`` (searched decisions and fallbacks to
    the greedy player), --from keeps it, and the text report says it. Dado de Ouro's players
    never choose (every action is a die roll, DDO-AMB-01's faces), so nothing is searched."""
    code, out, err = run(capsys, "dado-de-ouro", "DDO-AMB-01", "--agents", "random,mcts",
                         "--games", "2", "--batch-size", "2", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["search"] == {"mcts": {"games": 6, "searches": 0, "fallbacks": 0,
                                         "fallback_rate": None}}
    saved = tmp_path / "impact.json"
    saved.write_text(out, encoding="utf-8")
    code, again, err = run(capsys, "--from", str(saved), "--format", "json")
    assert code == 0 and again == out, err
    code, shown, err = run(capsys, "--from", str(saved))
    assert code == 0, err
    assert "dado-de-ouro searches:\n  mcts over 6 games: no decision to search" in shown
    code, out, err = run(capsys, "dado-de-ouro", "DDO-AMB-01", "--agents", "random",
                         "--games", "2", "--batch-size", "2", "--format", "json")
    assert code == 0 and "search" not in json.loads(out), err


def test_from_refuses_other_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('{"format": "other"}', encoding="utf-8")
    code, _, err = run(capsys, "--from", str(bad))
    assert code == 2 and "not a rulespec-impact/1 report" in err
