"""``write_measured`` records structured impact in a spec in place (IMPACT_FORMAT.md): only the
record's ``measured`` lines change, the result is valid, and a refusal leaves the file as it was."""

from __future__ import annotations

import copy
import difflib
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.data import specs_dir
from rulespec.impact.record import DEFAULT_TEXT, ImpactWriteError, write_measured
from rulespec.spec.validate import load_spec
from tests.impactdocs.conftest import fixture

LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
EXAMPLE = Path(__file__).parent.parent / "docs" / "example" / "toy-dice.yaml"


def copy_of(name: str, tmp_path: Path) -> Path:
    source = EXAMPLE if name == "toy-dice" else specs_dir() / f"{name}.yaml"
    target = tmp_path / f"{name}.yaml"
    shutil.copyfile(source, target)
    return target


def measured_for(record: Any, players: int) -> dict[str, Any]:
    """A measurement of any record: every option but the default, with two agents."""
    base = copy.deepcopy(fixture("ouro-de-tolo")["OURO-AMB-03"])
    template = base["results"][1]
    base["players"] = players
    base["baseline"] = record["default"]["option"]
    base["results"] = []
    for option in record["options"]:
        if option["id"] == base["baseline"]:
            continue
        for agent in ("random", "greedy"):
            result = copy.deepcopy(template)
            result.update(option=option["id"], agent=agent)
            result["seat_win_rate_change"] = result["seat_win_rate_change"][:1] * players
            base["results"].append(result)
    return dict(base)


def changed_lines(before: str, after: str) -> list[int]:
    """Return the 1-based lines of ``before`` that the edit replaced or deleted (and, for an
    insertion, the line it went before)."""
    out: list[int] = []
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    for tag, i1, i2, _, _ in matcher.get_opcodes():
        if tag != "equal":
            out += list(range(i1 + 1, i2 + 1)) or [i1 + 1]
    return out


@pytest.mark.parametrize("game", ["ouro-de-tolo", "fool", "ruby-rhino", "dado-de-ouro"])
def test_only_the_measured_lines_change(game: str, tmp_path: Path) -> None:
    """In a copy of each real spec, writing one record touches only its measured lines; every
    other record, comment and byte stays; the figures read back exactly."""
    path = copy_of(game, tmp_path)
    before_text = path.read_text(encoding="utf-8")
    before = load_spec(path)
    # The real specs keep no measurement since the sweep file took them over (issue 30): the
    # first record with an impact gets one, placed inside its impact.
    index, record = next((i, a) for i, a in enumerate(before.section("ambiguities"))
                         if a.get("impact"))
    value = measured_for(record, before.min_players)
    write_measured(path, str(record["id"]), value)
    after_text = path.read_text(encoding="utf-8")
    first = before.marks.at(("ambiguities", index, "impact"))[0]
    stop = before.marks.at(("ambiguities", index, "history"))[0]
    changed = changed_lines(before_text, after_text)
    assert changed and all(first <= line < stop for line in changed), \
        f"{game}: lines {changed} changed outside measured ({first}-{stop - 1})"
    # write_measured validated the file; compare the data with a fast plain load.
    expected = yaml.load(before_text, Loader=LOADER)
    expected["ambiguities"][index]["impact"]["measured"] = value
    assert yaml.load(after_text, Loader=LOADER) == expected, \
        f"{game}: something besides the measurement changed"


def test_writing_twice_gives_the_same_bytes(tmp_path: Path) -> None:
    """Rewriting the same measurement is a no-op; a new one replaces the old block whole."""
    path = copy_of("toy-dice", tmp_path)
    value = fixture("toy-dice")["TOY-AMB-01"]
    write_measured(path, "TOY-AMB-01", value)
    once = path.read_bytes()
    write_measured(path, "TOY-AMB-01", value)
    assert path.read_bytes() == once
    shorter = copy.deepcopy(value)
    shorter["agents"] = shorter["agents"][:1]
    shorter["results"] = [r for r in shorter["results"] if r["agent"] == "random"]
    write_measured(path, "TOY-AMB-01", shorter)
    assert load_spec(path).structured_impact("TOY-AMB-01") == shorter
    record = path.read_text("utf-8").split("id: TOY-AMB-01")[1].split("history:")[0]
    assert "greedy" not in record


def test_a_record_without_impact_gets_one(tmp_path: Path) -> None:
    """TOY-AMB-02 has no impact: one is created before ``needs`` with the documented prose."""
    path = copy_of("toy-dice", tmp_path)
    before = path.read_text(encoding="utf-8")
    value = fixture("toy-dice")["TOY-AMB-02"]
    write_measured(path, "TOY-AMB-02", value)
    spec = load_spec(path)
    record = spec.ambiguities["TOY-AMB-02"]
    assert record["impact"]["text"] == DEFAULT_TEXT
    assert spec.structured_impact("TOY-AMB-02") == value
    after = path.read_text(encoding="utf-8")
    assert after.index("    impact:\n      text:") < after.index("    needs:", after.index("TOY-AMB-02"))
    matcher = difflib.SequenceMatcher(a=before.splitlines(), b=after.splitlines(), autojunk=False)
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    assert [op[0] for op in edits] == ["insert"], "creating an impact only inserts lines"
    assert after.splitlines()[edits[0][3]] == "    impact:"


def test_comments_and_layout_are_kept(tmp_path: Path) -> None:
    """Comments inside the record, a comment above ``history`` and CRLF line ends survive."""
    path = copy_of("toy-dice", tmp_path)
    text = path.read_text(encoding="utf-8")
    text = text.replace("    impact:\n      text: Longer games.\n",
                        "    impact:  # measured by hand\n      # the prose stays\n"
                        "      text: Longer games.\n", 1)
    text = text.replace("      measured: {mean_turns: 40}\n    history:",
                        "      measured: {mean_turns: 40}  # old\n    # history follows\n"
                        "    history:", 1)
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    write_measured(path, "TOY-AMB-01", fixture("toy-dice")["TOY-AMB-01"])
    raw = path.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n"), "line ends stay CRLF"
    after = raw.decode("utf-8").replace("\r\n", "\n")
    for kept in ("    impact:  # measured by hand\n      # the prose stays\n      text: Longer games.\n",
                 "    # history follows\n    history:"):
        assert kept in after
    assert "mean_turns" not in after and "# old" not in after
    assert load_spec(path).structured_impact("TOY-AMB-01") == fixture("toy-dice")["TOY-AMB-01"]


def test_flow_style_impact_becomes_a_block(tmp_path: Path) -> None:
    """An impact written as ``{text: ..., measured: ...}`` is rewritten as a block, prose kept."""
    path = copy_of("toy-dice", tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        "    impact:\n      text: Longer games.\n      measured: {mean_turns: 40}\n",
        '    impact: {text: "Longer games: about 12 turns.", measured: {mean_turns: 40}}\n', 1)
    path.write_text(text, encoding="utf-8")
    write_measured(path, "TOY-AMB-01", fixture("toy-dice")["TOY-AMB-01"])
    spec = load_spec(path)
    assert spec.ambiguities["TOY-AMB-01"]["impact"]["text"] == "Longer games: about 12 turns."
    assert spec.structured_impact("TOY-AMB-01") == fixture("toy-dice")["TOY-AMB-01"]


def test_a_block_impact_without_measured_gets_one(tmp_path: Path) -> None:
    """A prose-only impact keeps its (folded) text; measured goes after it."""
    path = copy_of("dado-de-ouro", tmp_path)
    # The specs keep no measurement since the sweep file took them over (issue 30).
    before = load_spec(path)
    record = before.ambiguities["DDO-AMB-05"]
    assert "measured" not in record["impact"] and record["impact"]["text"]
    value = measured_for(record, 4)
    write_measured(path, "DDO-AMB-05", value)
    after = load_spec(path)
    assert after.ambiguities["DDO-AMB-05"]["impact"]["text"] == record["impact"]["text"]
    assert after.structured_impact("DDO-AMB-05") == value


REFUSALS: list[tuple[str, Any, str]] = [
    ("unknown-record", None, "no ambiguity record 'OURO-AMB-99'; the records are OURO-AMB-01"),
    ("not-a-mapping", [1, 2], "measured is list, not a mapping"),
    ("free-form", {"games": 150}, "format is None, not 'rulespec-impact/1'"),
    ("missing-key", "drop:seed", "missing key 'seed'"),
    ("unknown-key", "add:notes", "unknown key 'notes'"),
    ("missing-interval-key", "drop-low", "results[0].trigger_rate: missing key 'low'"),
    ("not-finite", "nan", "nan is not a finite number"),
    ("unordered", "unordered", "is not ordered: low <= value <= high must hold"),
    ("option-unknown", "option", "option 'gift' is not an option of this record"),
]


@pytest.mark.parametrize(("change", "expect"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_refusals_leave_the_file_untouched(change: Any, expect: str, tmp_path: Path) -> None:
    """Unknown records and malformed measurements are refused with a clear message; the file
    keeps its bytes and no temporary file is left beside it."""
    path = copy_of("ouro-de-tolo", tmp_path)
    before = path.read_bytes()
    value: Any = copy.deepcopy(fixture("ouro-de-tolo")["OURO-AMB-03"])
    record = "OURO-AMB-03"
    if change is None:
        record = "OURO-AMB-99"
    elif isinstance(change, str):
        if change.startswith("drop:"):
            del value[change[5:]]
        elif change == "add:notes":
            value["notes"] = "x"
        elif change == "drop-low":
            del value["results"][0]["trigger_rate"]["low"]
        elif change == "nan":
            value["results"][0]["length_change"]["value"] = float("nan")
        elif change == "unordered":
            value["results"][1]["outcome_change_rate"]["low"] = 0.3
        elif change == "option":
            value["results"][0]["option"] = "gift"
    else:
        value = change
    with pytest.raises(ImpactWriteError) as info:
        write_measured(path, record, value)
    assert expect in str(info.value), str(info.value)
    assert str(path) in str(info.value), "the message names the file"
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [path.name]


def test_validation_problems_point_into_the_written_text(tmp_path: Path) -> None:
    """A refusal from the validator says where in the would-be file, with the JSON path."""
    path = copy_of("ouro-de-tolo", tmp_path)
    value = copy.deepcopy(fixture("ouro-de-tolo")["OURO-AMB-03"])
    value["baseline"] = "owner"
    with pytest.raises(ImpactWriteError) as info:
        write_measured(path, "OURO-AMB-03", value)
    message = str(info.value)
    assert "(as it would be written):" in message and ".impact.measured.baseline" in message
    assert "is not the record's default option 'taker'" in message


def test_flow_style_record_is_refused(tmp_path: Path) -> None:
    """A record written as one flow mapping cannot be edited line-wise: say so, with its line."""
    path = tmp_path / "toy.yaml"
    text = (Path(__file__).parent.parent / "specs" / "valid" / "toy.yaml").read_text("utf-8")
    start = text.index("  - id: TOY-AMB-01")
    record = load_spec(Path(__file__).parent.parent / "specs" / "valid" / "toy.yaml") \
        .ambiguities["TOY-AMB-01"]
    import json

    path.write_text(text[:start] + "  - " + json.dumps(record) + "\n", encoding="utf-8")
    assert load_spec(path).ambiguities["TOY-AMB-01"] == record
    line = text[:start].count("\n") + 1
    with pytest.raises(ImpactWriteError, match=f"toy.yaml:{line}: TOY-AMB-01 is written in flow"):
        write_measured(path, "TOY-AMB-01", fixture("toy-dice")["TOY-AMB-02"])


def test_folded_text_keeps_its_trailing_blank_line(tmp_path: Path) -> None:
    """A folded ``text: >-`` ends past its blank lines; measured goes right after the prose and
    the blank line and comment before ``history`` stay where they were."""
    path = copy_of("toy-dice", tmp_path)
    text = path.read_text(encoding="utf-8").replace(
        "    impact:\n      text: Longer games.\n      measured: {mean_turns: 40}\n",
        "    impact:\n      text: >-\n        Longer games,\n        by about twelve turns.\n\n"
        "    # the history\n", 1)
    path.write_text(text, encoding="utf-8")
    write_measured(path, "TOY-AMB-01", fixture("toy-dice")["TOY-AMB-01"])
    after = path.read_text(encoding="utf-8")
    assert "        by about twelve turns.\n      measured:\n        format: rulespec-impact/1\n" \
        in after
    assert "            seat_win_rate_change: [{value: 0.07, low: 0.01, high: 0.13}, " \
        "{value: -0.07, low: -0.13, high: -0.01}]\n\n    # the history\n    history:\n" in after
    spec = load_spec(path)
    assert spec.ambiguities["TOY-AMB-01"]["impact"]["text"] == "Longer games, by about twelve turns."
