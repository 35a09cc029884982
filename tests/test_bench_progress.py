"""``rulespec bench``: each row printed as it finishes; a progress bar only on a terminal."""

from __future__ import annotations

import io
from typing import Any

import pytest
from click.testing import CliRunner

from rulespec.cli import cli
from rulespec.reference import bench


def test_rows_are_printed_as_each_measurement_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    seen_before: list[str] = []
    real = bench.measure

    def measure(game: str, players: int, seconds: float, **kw: Any) -> dict[str, Any]:
        seen_before.append(out.getvalue())
        return real(game, players, seconds, **kw)

    monkeypatch.setattr(bench, "measure", measure)
    monkeypatch.setattr("click.utils._default_text_stdout", lambda: out)
    result = CliRunner().invoke(cli, ["bench", "ruby-rhino", "-n", "2", "-n", "3",
                                      "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    lines = out.getvalue().splitlines()
    assert lines[0] == bench.HEADER and [line.split()[:2] for line in lines[1:]] == [
        ["ruby-rhino", "2"], ["ruby-rhino", "3"]]
    # The second measurement started after the first row was printed.
    assert seen_before[0].splitlines() == [bench.HEADER]
    assert "ruby-rhino" in seen_before[1]
    assert "\x1b[" not in out.getvalue()  # no progress display off a terminal


def test_progress_only_on_a_terminal_and_not_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stderr.isatty", lambda: False)
    assert not bench.show_progress(quiet=False)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    assert bench.show_progress(quiet=False)
    assert not bench.show_progress(quiet=True)


def test_the_progress_bar_counts_measurements() -> None:
    with bench.progress_bar(2, enabled=True) as update:
        update("ruby-rhino p2", 0.5)
        update("ruby-rhino p3", 2)
    with bench.progress_bar(2, enabled=False) as update:
        update("nothing drawn", 1)


def test_quiet_is_accepted_and_json_is_one_document() -> None:
    import json

    result = CliRunner().invoke(cli, ["bench", "dado-de-ouro", "--seconds", "0.05", "--quiet",
                                      "--format", "json"])
    assert result.exit_code == 0, result.output
    (row,) = json.loads(result.output)
    assert row["game"] == "dado-de-ouro" and row["actions"] > 0
