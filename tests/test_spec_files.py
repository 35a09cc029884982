"""Valid and invalid example specs, turned into tests automatically.

Each ``tests/specs/invalid/*.case.yaml`` describes one broken spec: either whole ``content`` or
``replace`` edits of the valid toy spec, the message it must produce (``expect``) and, where it
matters, the ``line:column`` the message must point at (``at``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.spec.errors import SpecError
from rulespec.spec.validate import load_spec

HERE = Path(__file__).parent / "specs"
VALID = sorted((HERE / "valid").glob("*.yaml"))
CASES = sorted((HERE / "invalid").glob("*.case.yaml"))
SOURCES = HERE / "sources"


def _build(case: dict[str, Any]) -> str:
    if "content" in case:
        return str(case["content"])
    text = (HERE / "valid" / "toy.yaml").read_text(encoding="utf-8")
    for edit in case["replace"]:
        if edit["old"] not in text:
            raise AssertionError(f"case edit {edit['old']!r} does not match the toy spec")
        text = text.replace(edit["old"], edit["new"], 1)
    return text


def _rejected(target: Path, text: str, *, sources: Path | None = None) -> SpecError:
    """Write ``text`` to ``target``, load it, and return the SpecError it must raise."""
    target.write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_spec(target, sources=sources)
    return info.value


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_specs_load(path: Path) -> None:
    """Every valid example loads, quotes checked against its sources."""
    spec = load_spec(path, sources=SOURCES)
    assert spec.section("clauses"), f"{path} loaded without clauses"


@pytest.mark.parametrize("case_path", CASES, ids=[p.name.removesuffix(".case.yaml") for p in CASES])
def test_invalid_spec_is_rejected_with_its_message(case_path: Path, tmp_path: Path) -> None:
    """Every invalid example is rejected, with the expected sentence at the expected place."""
    case = yaml.safe_load(case_path.read_text(encoding="utf-8"))
    target = tmp_path / (case_path.name.removesuffix(".case.yaml") + ".yaml")
    error = _rejected(target, _build(case), sources=SOURCES if case.get("sources") else None)
    text = str(error)
    assert case["expect"] in text, f"expected {case['expect']!r} in:\n{text}"
    matching = [p for p in error.problems if case["expect"] in str(p)]
    assert matching, text
    assert all(str(p).startswith(str(target)) for p in error.problems)
    if "at" in case:
        line, _, col = str(case["at"]).partition(":")
        problem = matching[0]
        assert problem.line == int(line), f"{problem} is not on line {line}"
        if col:
            assert problem.column == int(col), f"{problem} is not at column {col}"


def test_every_error_is_reported_at_once(tmp_path: Path) -> None:
    """Several problems in one file are all reported, each with file:line:col and a path."""
    text = _build({"replace": [
        {"old": "{players: 3, coins: 3}", "new": "{players: 3, coins: three}"},
        {"old": "visibility: public, owner: none", "new": "visibility: secret, owner: none"},
    ]})
    error = _rejected(tmp_path / "two.yaml", text)
    assert len(error.problems) == 2, str(error)
    for problem in error.problems:
        assert problem.line > 0 and problem.column > 0 and problem.path.startswith("$")


def test_semantic_problems_are_all_reported(tmp_path: Path) -> None:
    """Semantic checks collect every problem rather than stopping at the first."""
    text = _build({"replace": [
        {"old": "    clauses: [TOY-SETUP-01]\nzones:", "new": "    clauses: [TOY-NOPE-01]\nzones:"},
        {"old": "default: {option: pay-nothing,", "new": "default: {option: ignore,"},
    ]})
    error = _rejected(tmp_path / "sem.yaml", text)
    messages = "\n".join(str(p) for p in error.problems)
    assert "TOY-NOPE-01" in messages and "'ignore'" in messages


def test_missing_file_says_so(tmp_path: Path) -> None:
    """A path that does not exist is a clear error, not a traceback."""
    with pytest.raises(SpecError, match="no such file"):
        load_spec(tmp_path / "nope.yaml")


def test_dates_stay_text() -> None:
    """YAML timestamps are kept as strings: a spec is JSON data."""
    from rulespec.spec.loader import load_yaml

    data, _ = load_yaml("when: 2026-11-29\n", "x.yaml")
    assert data == {"when": "2026-11-29"}


def test_recursive_alias_is_rejected() -> None:
    """A self-referencing alias cannot hang or crash the loader."""
    from rulespec.spec.loader import load_yaml

    with pytest.raises(SpecError, match="alias"):
        load_yaml("a: &a [*a]\n", "x.yaml")
