"""The built wheel holds one import package, rulespec, with all of its code and data."""

from __future__ import annotations

import zipfile
from pathlib import Path

from tests.packaging.conftest import ROOT

#: Repository folder -> where its files land in the wheel.
DATA = {"specs": "rulespec/data/specs", "conformance": "rulespec/data/conformance"}
DATA_SUFFIXES = (".yaml", ".json", ".jsonl", ".js", ".py")


def _names(wheel: Path) -> set[str]:
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def test_the_only_top_level_entries_are_rulespec_and_its_dist_info(wheel: Path) -> None:
    """A library must not install generic top-level names such as specs or reference."""
    tops = {name.split("/", 1)[0] for name in _names(wheel)}
    dist_info = {t for t in tops if t.endswith(".dist-info")}
    assert len(dist_info) == 1 and dist_info.pop().startswith("rulespec-")
    assert tops - {t for t in tops if t.endswith(".dist-info")} == {"rulespec"}


def test_every_module_of_the_package_is_in_the_wheel(wheel: Path) -> None:
    """Every .py file under the repository's rulespec/ is shipped, and py.typed with it."""
    names = _names(wheel)
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "rulespec").rglob("*.py")}
    assert modules, "no modules found under rulespec/"
    assert not modules - names, f"missing from the wheel: {sorted(modules - names)}"
    assert "rulespec/py.typed" in names


def test_specs_schemas_and_golden_traces_are_in_the_wheel(wheel: Path) -> None:
    """The YAML specs, the JSON Schemas, the golden traces and the JS engine are package data."""
    names = _names(wheel)
    wanted = set()
    for folder, target in DATA.items():
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in DATA_SUFFIXES and "__pycache__" not in path.parts:
                wanted.add(f"{target}/{path.relative_to(ROOT / folder).as_posix()}")
    assert any(n.endswith(".jsonl") for n in wanted) and any(n.endswith(".yaml") for n in wanted)
    assert "rulespec/data/specs/schema/spec.schema.json" in wanted
    assert not wanted - names, f"missing from the wheel: {sorted(wanted - names)}"


def test_the_docs_site_sources_are_in_the_wheel(wheel: Path) -> None:
    """mkdocs.yml, README.md and every file of docs/ ship as rulespec/data/site, so that
    `rulespec docs build` works without the repository; nothing else of the top folder does."""
    names = _names(wheel)
    wanted = {f"rulespec/data/site/{p.relative_to(ROOT).as_posix()}"
              for p in (ROOT / "docs").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts}
    wanted |= {"rulespec/data/site/mkdocs.yml", "rulespec/data/site/README.md"}
    assert "rulespec/data/site/docs/hooks/rulespec_docs.py" in wanted
    assert not wanted - names, f"missing from the wheel: {sorted(wanted - names)}"
    shipped = {n for n in names if n.startswith("rulespec/data/site/")}
    assert not shipped - wanted, f"shipped by mistake: {sorted(shipped - wanted)}"


def test_the_entry_points_register_the_games_and_the_light_plugin(wheel: Path) -> None:
    """The games come through rulespec.games, the pytest plugin through pytest11."""
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = archive.read(name).decode()
    assert "[rulespec.games]" in text and "ruby-rhino = rulespec.games:RUBY_RHINO" in text
    assert "[pytest11]" in text and "rulespec = rulespec.pytest_plugin" in text
