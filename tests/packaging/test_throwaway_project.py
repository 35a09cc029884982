"""Issue 9: a project with its own specs, reference and conformance packages keeps working
with rulespec installed beside it, under both ``pytest`` and ``python -m pytest``."""

from __future__ import annotations

from pathlib import Path

from tests.packaging.conftest import ChildEnv

FILES = {
    "pyproject.toml": '[tool.pytest.ini_options]\npythonpath = ["."]\ntestpaths = ["tests"]\n'
                      'addopts = "-p no:cacheprovider"\n',
    "specs/__init__.py": "",
    "specs/helpers.py": "def answer() -> int:\n    return 42\n",
    "reference/__init__.py": "",
    "reference/core.py": "NAME = 'my own reference'\n",
    "conformance/__init__.py": "KIT = 'my own conformance'\n",
    "tests/test_mine.py": '''
import sys
from pathlib import Path

import conformance
import reference.core
import specs.helpers

PROJECT = Path(__file__).resolve().parent.parent


def test_my_packages_are_mine():
    assert specs.helpers.answer() == 42
    assert reference.core.NAME == "my own reference"
    assert conformance.KIT == "my own conformance"
    for module in (specs, reference, conformance):
        assert Path(module.__file__).resolve().is_relative_to(PROJECT), module.__file__


def test_the_rulespec_plugin_is_loaded_but_imports_nothing_heavy(request):
    assert request.config.pluginmanager.has_plugin("rulespec")
    heavy = [m for m in sys.modules if m.startswith(("rulespec.conformance", "rulespec.reference",
                                                     "rulespec.spec", "rulespec.games"))]
    assert heavy == []
''',
}

#: What pip writes as the ``pytest`` console script; the child venv gets pytest from this
#: environment through its .pth file, so it has the package but not the script.
PYTEST_SCRIPT = "#!{python}\nimport sys\nfrom pytest import console_main\nsys.exit(console_main())\n"


def _project(root: Path) -> Path:
    for name, text in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_plain_pytest_passes(child: ChildEnv, tmp_path: Path) -> None:
    """`pytest` in the project: its own packages import, the rulespec plugin stays light."""
    project = _project(tmp_path / "project")
    script = tmp_path / "pytest"
    script.write_text(PYTEST_SCRIPT.format(python=child.python), encoding="utf-8")
    script.chmod(0o755)
    out = child.run(script, "-q", cwd=project).stdout
    assert "2 passed" in out, out


def test_python_m_pytest_passes(child: ChildEnv, tmp_path: Path) -> None:
    """`python -m pytest` in the project (cwd on sys.path first) passes too."""
    project = _project(tmp_path / "project")
    out = child.run(child.python, "-m", "pytest", "-q", cwd=project).stdout
    assert "2 passed" in out, out
