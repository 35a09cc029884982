"""The spec schema and validator accept structured impact (rulespec-impact/1) and refuse it
when it is malformed, with file:line and what to fix; free-form ``measured`` still validates."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulespec.impact.record import render_measured
from rulespec.spec.errors import SpecError
from rulespec.spec.impact import structured_impact, top_outcome_change
from rulespec.spec.validate import load_spec

TOY = Path(__file__).parent.parent / "specs" / "valid" / "toy.yaml"
NEEDS = "    needs: \"a measurement of the options' impact, or the publisher's word\"\n"


def measured() -> dict[str, Any]:
    """A measurement of TOY-AMB-01 (options pay-nothing, out) with two agents, 3 players."""
    def iv(value: float, low: float, high: float) -> dict[str, float]:
        return {"value": value, "low": low, "high": high}

    def result(agent: str, rate: float) -> dict[str, Any]:
        return {"option": "out", "agent": agent, "games": 300,
                "trigger_rate": iv(0.4, 0.35, 0.46), "triggers_per_game": iv(0.9, 0.8, 1.0),
                "outcome_change_rate": iv(rate, rate - 0.03, rate + 0.04),
                "length_change": iv(-2.5, -3.1, -1.9), "margin_change": None,
                "seat_win_rate_change": [iv(0.01, -0.02, 0.04)] * 3}

    return {"format": "rulespec-impact/1", "rulespec": "0.3.0", "measured_on": "2026-11-30",
            "players": 3, "baseline": "pay-nothing", "confidence": 0.95, "seed": 0,
            "batch_size": 50,
            "agents": [{"id": "random", "description": "uniform random"},
                       {"id": "greedy", "description": "one-ply heuristic"}],
            "results": [result("random", 0.1), result("greedy", 0.25)]}


def toy_text(value: dict[str, Any] | None = None, *, raw: str | None = None) -> str:
    """The valid toy spec with ``impact.measured`` added to TOY-AMB-01."""
    block = raw if raw is not None else render_measured(value if value is not None else measured())
    impact = "    impact:\n      text: Measured.\n      measured:\n" + "".join(
        "        " + line + "\n" for line in block.splitlines())
    text = TOY.read_text(encoding="utf-8")
    assert NEEDS in text
    return text.replace(NEEDS, impact + NEEDS, 1)


def load(tmp_path: Path, text: str) -> Any:
    path = tmp_path / "toy.yaml"
    path.write_text(text, encoding="utf-8")
    return load_spec(path)


def test_structured_impact_is_accepted(tmp_path: Path) -> None:
    """A well-formed measurement validates and reads back through the model accessors."""
    spec = load(tmp_path, toy_text())
    record = spec.ambiguities["TOY-AMB-01"]
    got = structured_impact(record)
    assert got is not None and got == measured()
    assert spec.structured_impact("TOY-AMB-01") == got
    best = top_outcome_change(got)
    assert best is not None and best["agent"] == "greedy"


def test_free_form_measured_still_validates(tmp_path: Path) -> None:
    """Old blobs without ``format`` stay valid (the change is additive)."""
    spec = load(tmp_path, toy_text(raw="games: 150\nd6: {mean: 19.4, ties: 21}\n"))
    assert structured_impact(spec.ambiguities["TOY-AMB-01"]) is None
    assert spec.structured_impact("TOY-AMB-01") is None


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(doc: dict[str, Any]) -> None:
        node: Any = doc
        for key in path[:-1]:
            node = node[key]
        if value is _DROP:
            del node[path[-1]]
        else:
            node[path[-1]] = value
    return edit


_DROP = object()

#: (case id, edit, the message expected, the JSON path the problem is at)
REFUSED: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("interval-unordered", _set(("results", 0, "length_change", "low"), -1.0),
     "is not ordered: low <= value <= high must hold", "results[0].length_change"),
    ("value-above-high", _set(("results", 1, "outcome_change_rate", "value"), 0.5),
     "is not ordered", "results[1].outcome_change_rate"),
    ("rate-above-one", _set(("results", 0, "trigger_rate", "high"), 1.2),
     "1.2 is greater than the maximum of 1", "results[0].trigger_rate.high"),
    ("unknown-option", _set(("results", 0, "option"), "pay-twice"),
     "option 'pay-twice' is not an option of this record ['pay-nothing', 'out']",
     "results[0].option"),
    ("baseline-as-option", _set(("results", 0, "option"), "pay-nothing"),
     "option 'pay-nothing' is the baseline", "results[0].option"),
    ("baseline-not-default", _set(("baseline",), "out"),
     "baseline 'out' is not the record's default option 'pay-nothing'", "baseline"),
    ("agent-not-listed", _set(("results", 1, "agent"), "mcts"),
     "agent 'mcts' is not listed under agents ['random', 'greedy']", "results[1].agent"),
    ("agent-twice", _set(("agents", 1, "id"), "random"),
     "agent 'random' is listed twice", "agents[1].id"),
    ("result-missing", lambda d: d["results"].pop(),
     "no result for option 'out' with agent 'greedy'", "results"),
    ("missing-key", _set(("results", 0, "games"), _DROP),
     "missing required key 'games'; add it", "results[0]"),
    ("unknown-key", _set(("results", 0, "notes"), "x"),
     "('notes' was unexpected); remove it or fix its spelling", "results[0]"),
    ("wrong-format", _set(("format",), "rulespec-impact/2"),
     "'rulespec-impact/2' must be 'rulespec-impact/1'", "format"),
    ("players-outside-range", _set(("players",), 5),
     "5 players is outside the game's range 2-3", "players"),
    ("seats-miscounted", _set(("results", 0, "seat_win_rate_change"), []),
     "0 seats for a 3-player measurement", "results[0].seat_win_rate_change"),
    ("bad-date", _set(("measured_on",), "30/11/2026"), "'30/11/2026' does not match",
     "measured_on"),
    ("interval-not-numbers", _set(("results", 0, "length_change", "value"), "big"),
     "'big' is not of type 'number'", "results[0].length_change.value"),
]


@pytest.mark.parametrize(("edit", "expect", "where"), [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
def test_malformed_structured_impact_is_refused(tmp_path: Path, edit: Callable[[dict[str, Any]], None],
                                                expect: str, where: str) -> None:
    """Each malformed measurement is refused with a sentence at its file:line and JSON path."""
    doc = copy.deepcopy(measured())
    edit(doc)
    text = toy_text(raw=_dump(doc))
    with pytest.raises(SpecError) as info:
        load(tmp_path, text)
    matching = [p for p in info.value.problems if expect in p.message]
    assert matching, f"expected {expect!r} in:\n{info.value}"
    problem = matching[0]
    path = "$.ambiguities[0].impact.measured." + where
    assert problem.path == path, f"{problem} is not at {path}"
    assert problem.file.endswith("toy.yaml") and problem.line > 0
    # The line is the one of that JSON path in the file, not the record's.
    lines = text.splitlines()
    assert lines[problem.line - 1].strip(), problem
    assert problem.line > text[:text.index("measured:")].count("\n"), \
        f"{problem} should point inside measured"


def _dump(doc: dict[str, Any]) -> str:
    """Render a (possibly malformed) measurement as block YAML without the writer's checks."""
    import yaml

    return str(yaml.safe_dump(doc, sort_keys=False, default_flow_style=False))
