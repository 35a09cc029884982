"""The policy page (docs/editors/versioning.md) documents every rule and every release."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.releases.rules import RULES
from rulespec.releases.store import releases

PAGE = Path(__file__).resolve().parents[2] / "docs" / "editors" / "versioning.md"
ROW = re.compile(r"^\| `([A-Z_]+)` \| (INFO|PATCH|MINOR|MAJOR) \| (\w+) \| (.+) \|$")


def test_every_rule_is_on_the_policy_page_with_its_level_and_reason() -> None:
    """The table of rules is the catalogue, in its order: name, level, category, reason."""
    rows = [m.groups() for m in map(ROW.match, PAGE.read_text(encoding="utf-8").splitlines())
            if m]
    assert rows == [(r.name, r.level.upper(), r.category, r.reason) for r in RULES]


#: How the page names each game.
NAMES = {"dado-de-ouro": "Dado de Ouro", "fool": "Fool", "ouro-de-tolo": "Ouro de Tolo",
         "ruby-rhino": "Ruby Rhino"}


@pytest.mark.parametrize("game", sorted(NAMES))
def test_every_release_is_on_the_policy_page(game: str) -> None:
    """Each release of each built-in game has its row (name, version, date), and no more."""
    text = PAGE.read_text(encoding="utf-8")
    name = NAMES[game]
    assert text.count(f"| {name} | ") == len(releases(game))
    for item in releases(game):
        assert f"| {name} | {item.version} | {item.date} |" in text, (game, item.version)
