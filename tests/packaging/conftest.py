"""Fixtures for the packaging tests: the built wheel and a child environment that installs it.

Building and installing are done once per session. The child environment is a venv without pip
whose ``.pth`` file lists this environment's site-packages as a plain path: it sees the
dependencies already installed here (no download, no index), but not the editable install of
rulespec, whose finder lives in a ``.pth`` file of its own that a plain path line does not run.
rulespec and the Pig example are then installed into the child for real (from the wheel, and from
a copy of ``examples/pig``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: What the rulespec distribution is built from (everything else stays behind).
DIST_SOURCES = ("pyproject.toml", "README.md", "rulespec", "specs", "conformance", "mkdocs.yml",
                "docs")
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "build", "*.egg-info", ".venv")


def run(args: Sequence[str | Path], *, cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run a command and fail the test with its output if it exits non-zero."""
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(map(str, args))} exited {proc.returncode}\n"
                    f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}")
    return proc


def copy_tree(names: Sequence[str], source: Path, target: Path) -> Path:
    """Copy the named files and folders of ``source`` into ``target`` (no build leftovers)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in names:
        src = source / name
        if src.is_dir():
            shutil.copytree(src, target / name, ignore=_IGNORE)
        else:
            shutil.copy2(src, target / name)
    return target


def _pip(python: Path | str, *args: str | Path, cwd: Path) -> None:
    run([python, "-m", "pip", "--disable-pip-version-check", "-q", *args], cwd=cwd)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the rulespec wheel from a clean copy of the distribution's sources."""
    pytest.importorskip("setuptools", reason="building the wheel needs setuptools (dev extra)")
    work = tmp_path_factory.mktemp("wheel")
    source = copy_tree(DIST_SOURCES, ROOT, work / "src")
    _pip(sys.executable, "wheel", "--no-deps", "--no-build-isolation", "--no-index",
         "--wheel-dir", work / "dist", source, cwd=work)
    (built,) = (work / "dist").glob("rulespec-*.whl")
    return built


@dataclass(frozen=True)
class ChildEnv:
    """A venv where rulespec (from the wheel) and plugin projects (the session's child: Pig) are
    installed for real; ``pig_project`` is the first of those projects."""

    root: Path
    python: Path
    site_packages: Path
    env: dict[str, str]
    pig_project: Path

    def bin(self, name: str) -> Path:
        """Return the path of a console script of the child environment."""
        return self.python.parent / name

    def run(self, *args: str | Path, cwd: Path, timeout: float = 120) -> (
            subprocess.CompletedProcess[str]):
        """Run a command in the child environment."""
        return run(args, cwd=cwd, env=self.env, timeout=timeout)

    def exits(self, *args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
        """Run a command in the child environment and return whatever it exits with."""
        return subprocess.run([str(a) for a in args], cwd=cwd, env=self.env,
                              capture_output=True, text=True, timeout=120, check=False)


def make_child(root: Path, wheel: Path, *projects: Path) -> ChildEnv:
    """Create a child venv in ``root`` that sees this environment's packages, and install the
    wheel and ``projects`` (copies of plugin projects) into it."""
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=root)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    cwd=root).stdout.strip())
    parent = sysconfig.get_paths()["purelib"]
    # A plain path line: the parent's own .pth files (the editable finder) are not processed.
    (site / "_rulespec_test_parent.pth").write_text(parent + "\n", encoding="utf-8")
    _pip(python, "install", "--no-deps", "--no-build-isolation", "--no-index", wheel, *projects,
         cwd=root)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    env["PATH"] = f"{python.parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_MKDOCS_2_WARNING"] = "1"
    return ChildEnv(venv, python, site, env, projects[0] if projects else root)


@pytest.fixture(scope="session")
def child(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> ChildEnv:
    """Create the child venv, see this environment's packages, install the wheel and Pig."""
    root = tmp_path_factory.mktemp("child")
    pig = copy_tree(["pyproject.toml", "README.md", "rulespec_pig", "tests"],
                    ROOT / "examples" / "pig", root / "pig")
    return make_child(root, wheel, pig)
