"""Provenance (docs/editors/provenance.md): readings name records, every live record is read,
every record says its effect, and the game pages show what the text says and what a ruling
decides. Each check is run on an edited copy of a real spec, so it cannot pass by checking
nothing."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.docsgen.pages import actions_page, rules_page
from rulespec.spec import SpecError, get_spec, load_spec
from rulespec.spec.provenance import elements, readers


def _copy(tmp_path: Path, game: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    spec = get_spec(game)
    data = copy.deepcopy(yaml.safe_load(spec.path.read_text(encoding="utf-8")))
    edit(data)
    path = tmp_path / spec.path.name
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _problems(tmp_path: Path, game: str, edit: Callable[[dict[str, Any]], None]) -> str:
    """Return the problems of the edited spec declared at format rulespec/2, whose rules these
    are (under rulespec/1 they are warnings until 0.4.0: tests/specs/test_formats.py)."""
    def at_format_2(data: dict[str, Any]) -> None:
        edit(data)
        data["format"] = "rulespec/2"

    with pytest.raises(SpecError) as info:
        load_spec(_copy(tmp_path, game, at_format_2))
    return str(info.value)


@pytest.mark.parametrize("game", ["fool", "ouro-de-tolo", "ruby-rhino", "dado-de-ouro"])
def test_every_live_record_is_read_and_every_reading_is_a_record(game: str) -> None:
    spec = get_spec(game)
    read = readers(spec.data)
    for aid, record in spec.ambiguities.items():
        if record["status"] not in ("rejected", "duplicate"):
            assert read[aid], f"{aid} is read by no element"
        assert record["effect"] in ("order", "outcome", "cosmetic")
    assert set(read) == set(spec.ambiguities)


def test_a_reading_of_no_record_is_refused(tmp_path: Path) -> None:
    """FOOL-DEAL-01's deal step may not read a record the spec does not have."""
    def edit(data: dict[str, Any]) -> None:
        data["actions"][0].setdefault("readings", []).append("FOOL-AMB-99")

    assert "reads 'FOOL-AMB-99', which is not a record of this spec" in _problems(
        tmp_path, "fool", edit)


def test_a_record_nobody_reads_is_reported(tmp_path: Path) -> None:
    """Drop every reading of FOOL-AMB-17 (the direction of play): the record is unread."""
    def edit(data: dict[str, Any]) -> None:
        def strip(node: Any) -> None:
            if isinstance(node, dict):
                if "FOOL-AMB-17" in (node.get("readings") or []):
                    node["readings"] = [r for r in node["readings"] if r != "FOOL-AMB-17"]
                    if not node["readings"]:
                        del node["readings"]
                for value in node.values():
                    strip(value)
            elif isinstance(node, list):
                for value in node:
                    strip(value)
        for section in ("actions", "parameters", "structure", "state", "invariants"):
            strip(data[section])

    assert "no element reads FOOL-AMB-17" in _problems(tmp_path, "fool", edit)


def test_a_record_without_effect_is_reported(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        del data["ambiguities"][0]["effect"]

    assert "says nothing of its effect" in _problems(tmp_path, "dado-de-ouro", edit)


def test_elements_cover_every_kind() -> None:
    kinds = {e.kind for e in elements(get_spec("ouro-de-tolo").data)}
    assert kinds == {"parameter", "action", "step", "convention", "invariant", "sight"}


def test_the_pages_say_what_the_text_says_and_what_a_ruling_decides() -> None:
    """An Ouro de Tolo action that reads records shows them with their defaults."""
    spec = get_spec("ouro-de-tolo")
    action = next(a for a in spec.section("actions") if a.get("readings"))
    page = actions_page(spec)
    block = page[page.index(f"### <code>{action['id']}</code>"):]
    block = block[:block.index("\n### ")] if "\n### " in block else block
    assert "From the text: " in block
    assert "Decided by rulings (what the quotes do not say): " in block
    first = str(action["readings"][0])
    default = spec.ambiguities[first]["default"]["option"]
    assert f"ambiguities.md#{first}" in block and f"(default <code>{default}</code>)" in block
    assert "decided by rulings: " in rules_page(spec)
