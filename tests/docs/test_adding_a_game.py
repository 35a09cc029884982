"""The "Adding a game" guide says what the code does: the decision-point policy, every
GamePackage field, and its steps in the order they work (what a step checks is written before)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from rulespec.spec import GamePackage

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "editors" / "adding-a-game.md").read_text(encoding="utf-8")
PIG = ROOT / "examples" / "pig"


def _step(title: str) -> int:
    """Return the number of the guide's step whose heading contains ``title``."""
    found = re.search(rf"^## (\d+)\. [^\n]*{title}", GUIDE, flags=re.M)
    assert found, f"the guide has no step about {title!r}"
    return int(found[1])


def test_the_guide_asks_rulings_at_the_branch() -> None:
    """Finding silent decisions: rulings are decision points (self.ruling/self.decide), never
    read from the configuration; the guide names config.ruling(...) only as what fails."""
    mentions = [line for line in GUIDE.splitlines() if "config.ruling" in line]
    assert all("fail" in line for line in mentions), mentions
    assert "self.decide(" in GUIDE and "self.ruling(" in GUIDE
    assert "config.ruling(" not in (PIG / "rulespec_pig" / "engine.py").read_text(encoding="utf-8")


def test_every_game_package_field_is_in_the_guide_and_pig() -> None:
    """Each GamePackage field has its row in the guide's table, and Pig sets every one."""
    pig_init = (PIG / "rulespec_pig" / "__init__.py").read_text(encoding="utf-8")
    for field in dataclasses.fields(GamePackage):
        assert f"| `{field.name}` |" in GUIDE, field.name
        assert f"{field.name}=HERE" in pig_init or f'{field.name}="' in pig_init, field.name


def test_steps_come_in_the_order_they_work() -> None:
    """The tests check the examples, golden traces and perft tables: they come after them; the
    kit and the site come after the tests."""
    order = [_step(t) for t in ("Register", "Validate", "rule examples", "golden traces",
                                "perft tables", "tests", "kit", "site")]
    assert order == sorted(order), order


def test_pig_ships_what_the_guide_says_to_ship() -> None:
    """The package-data globs of the guide are Pig's, and they match every file Pig's
    GamePackage names (rules text, golden traces, perft tables, examples)."""
    pyproject = (PIG / "pyproject.toml").read_text(encoding="utf-8")
    globs = re.search(r"^rulespec_pig = \[(.*?)\]", pyproject, flags=re.M | re.S)
    assert globs and re.sub(r"\s+", " ", globs[0]) in re.sub(r"\s+", " ", GUIDE)
    patterns = re.findall(r'"([^"]+)"', globs[1])
    package = PIG / "rulespec_pig"
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".py":
            rel = path.relative_to(package)
            assert any(rel.match(p) for p in patterns), f"{rel} would not ship"
