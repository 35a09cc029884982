"""The house's rules (docs/about/design.md): floors, no import circles, short modules, one public API.

The floors are an import-linter contract in ``pyproject.toml``; circles are found on grimp's
graph of every module (imports inside functions included, as import-linter counts them). Each
checker is also run on a small package built to break it, so none of these tests can pass by
checking nothing.
"""

from __future__ import annotations

import ast
import dataclasses
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import grimp
import pytest

import rulespec.conformance
import rulespec.reference
import rulespec.spec

ROOT = Path(__file__).resolve().parents[1]
PUBLIC = {"rulespec.reference": rulespec.reference, "rulespec.spec": rulespec.spec,
          "rulespec.conformance": rulespec.conformance}
#: The one limit every module outside the game modules keeps (a game is one module by design).
MAX_LINES = 700


def circles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Return every set of two or more modules that import each other, directly or not."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        on_stack.add(module)
        for other in imports.get(module, ()):
            if other not in order:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], order[other])
        if low[module] == order[module]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(imports):
        if module not in order:
            visit(module)
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Return module -> the modules of ``package`` it imports (grimp's reading)."""
    graph = grimp.build_graph(package, include_external_packages=False, cache_dir=None)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def _package(tmp_path: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return tmp_path


def _lint(folder: Path, config: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(folder)}
    code = "import sys; from importlinter.cli import lint_imports; " \
           f"sys.exit(lint_imports(config_filename={str(config)!r}, no_cache=True))"
    return subprocess.run([sys.executable, "-c", code], cwd=folder, env=env, text=True,
                          capture_output=True, check=False, timeout=120)


def test_the_floors_contract_holds() -> None:
    result = _lint(ROOT, ROOT / "pyproject.toml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout


def test_the_floors_contract_catches_an_upward_import(tmp_path: Path) -> None:
    folder = _package(tmp_path, {
        "house/__init__.py": "",
        "house/top.py": "import house.bottom\n",
        "house/bottom.py": "import house.top\n",
        "setup.toml": """\
            [tool.importlinter]
            root_package = "house"
            [[tool.importlinter.contracts]]
            name = "floors"
            type = "layers"
            layers = ["house.top", "house.bottom"]
            """,
    })
    result = _lint(folder, folder / "setup.toml")
    assert result.returncode != 0
    assert "house.bottom -> house.top" in result.stdout


def _contracts() -> list[dict[str, Any]]:
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = data["tool"]["importlinter"]["contracts"]
    return contracts


KIT = ROOT / "rulespec" / "conformance"


def test_the_kit_is_grouped_by_stage() -> None:
    """The kit's top level is a handful of modules; every other module is in a stage the
    ``kit-stages`` contract names, and each stage says what it is for and what it may use."""
    top = sorted(p.name for p in KIT.glob("*.py"))
    assert len(top) <= 10, top
    stages = sorted(p.name for p in KIT.iterdir() if (p / "__init__.py").is_file())
    (contract,) = [c for c in _contracts() if c.get("id") == "kit-stages"]
    assert contract["containers"] == ["rulespec.conformance"]
    layers = {name.strip() for layer in contract["layers"] for name in str(layer).split("|")}
    assert set(stages) <= layers, set(stages) - layers
    for stage in stages:
        doc = ast.get_docstring(ast.parse((KIT / stage / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "May use:" in doc, f"rulespec/conformance/{stage}/__init__.py"
        assert not any(p.is_dir() and (p / "__init__.py").is_file() for p in (KIT / stage).iterdir()), stage


def test_the_stages_contract_catches_an_import_from_a_stage_above(tmp_path: Path) -> None:
    (contract,) = [c for c in _contracts() if c.get("id") == "kit-stages"]
    layers = [str(layer) for layer in contract["layers"]]
    folder = _package(tmp_path, {
        "kit/__init__.py": "",
        **{f"kit/{name.strip()}/__init__.py": "" for layer in layers for name in layer.split("|")},
        "kit/engine/low.py": "import kit.play.high\n",
        "kit/play/high.py": "",
        "setup.toml": "[tool.importlinter]\nroot_package = \"kit\"\n"
                      "[[tool.importlinter.contracts]]\nname = \"stages\"\ntype = \"layers\"\n"
                      "containers = [\"kit\"]\nlayers = " + repr(layers).replace("'", '"') + "\n",
    })
    result = _lint(folder, folder / "setup.toml")
    assert result.returncode != 0
    assert "kit.engine.low -> kit.play.high" in result.stdout


def test_no_import_circles() -> None:
    found = circles(import_graph("rulespec"))
    assert not found, "modules that import each other: " + "; ".join(map(", ".join, found))


def test_the_circle_finder_finds_circles() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": set()}
    assert circles(imports) == [["a", "b", "c"]]
    assert circles({"x": {"y"}, "y": set()}) == []


def test_no_module_outside_the_games_is_over_the_limit() -> None:
    long = {}
    for path in sorted((ROOT / "rulespec").rglob("*.py")):
        if path.parent.name == "games":
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES:
            long[str(path.relative_to(ROOT))] = lines
    assert not long, f"modules over {MAX_LINES} lines (split them by job): {long}"


def rulespec_imports(path: Path) -> list[tuple[str, str | None]]:
    """Return (module, name) for every import of rulespec in a file (name None: whole module)."""
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(a.name, None) for a in node.names if a.name.split(".")[0] == "rulespec"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                and node.module.split(".")[0] == "rulespec":
            found += [(node.module, a.name) for a in node.names]
    return found


def not_public(path: Path) -> list[str]:
    """Return the imports of rulespec in ``path`` that are not names of the public API."""
    bad = []
    for module, name in rulespec_imports(path):
        package = PUBLIC.get(module)
        if package is None or name is None or name not in package.__all__:
            bad.append(f"{module}.{name}" if name else module)
    return bad


PIG_FILES = sorted((ROOT / "examples" / "pig").rglob("*.py"))


@pytest.mark.parametrize("path", PIG_FILES, ids=[p.name for p in PIG_FILES])
def test_pig_imports_only_the_public_api(path: Path) -> None:
    assert not_public(path) == [], f"{path.name} imports internal names"


def test_the_public_api_check_sees_an_internal_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from rulespec.reference import Engine\n"
                      "from rulespec.reference.core import Rejection\n"
                      "from rulespec.spec import load_spec, _private\n"
                      "import rulespec.conformance.play.runner\n", encoding="utf-8")
    assert not_public(sample) == ["rulespec.reference.core.Rejection", "rulespec.spec._private",
                                  "rulespec.conformance.play.runner"]


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_name_exists_and_is_documented(name: str) -> None:
    package = PUBLIC[name]
    page = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: (rulespec\.[\w.]+)", page, flags=re.M))
    for public in package.__all__:
        assert hasattr(package, public), f"{name}.__all__ names {public!r}, which is not there"
        assert f"{name}.{public}" in documented, f"{name}.{public} is missing from api.md"
    for entry in documented:
        module, _, public = entry.rpartition(".")
        if module in PUBLIC:
            assert public in PUBLIC[module].__all__, f"api.md documents {entry}, not exported"


def _documented_fields(package: str) -> dict[str, list[str]]:
    """Return, per exported dataclass of ``package``, its fields the API reference shows no
    docstring for (Griffe reading ``#:`` comments as mkdocs.yml has it do)."""
    griffe = pytest.importorskip("griffe", reason="the docs extra (griffe) is not installed")
    from rulespec.docsgen.griffe_comments import CommentDocstrings

    loaded = griffe.load(package, extensions=griffe.load_extensions(CommentDocstrings()),
                         resolve_aliases=True)
    missing = {}
    for public in PUBLIC[package].__all__:
        obj = getattr(PUBLIC[package], public)
        if isinstance(obj, type) and dataclasses.is_dataclass(obj):
            members = loaded[public].members
            missing[public] = [f.name for f in dataclasses.fields(obj)
                               if not f.name.startswith("_")
                               and (f.name not in members or members[f.name].docstring is None)]
    return missing


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_field_of_the_public_api_is_documented(name: str) -> None:
    """The API reference shows every field of every exported dataclass with what it means
    (Options, Report, Failure and TraceStep once showed none)."""
    missing = {cls: fields for cls, fields in _documented_fields(name).items() if fields}
    assert not missing, f"fields without a #: comment or docstring: {missing}"


def test_a_comment_is_an_attributes_docstring() -> None:
    from rulespec.docsgen.griffe_comments import comment_docstring

    lines = ["class A:", "    #: First line,", "    #: second line.", "    x: int = 1",
             "    y: int = 2  #: At the end.", "    z: int = 3", "    # not a doc comment",
             "    w: int = 4"]
    assert comment_docstring(lines, 4) == "First line,\nsecond line."
    assert comment_docstring(lines, 5) == "At the end."
    assert comment_docstring(lines, 6) is None and comment_docstring(lines, 8) is None


def test_the_docs_extra_formats_signatures() -> None:
    """mkdocstrings prints long signatures on one line unless ruff or black is installed."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"]["docs"]
    assert any(re.match(r"(ruff|black)\b", d) for d in extras), extras
