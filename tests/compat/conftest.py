"""Fixtures of the compatibility corpus (tests/compat/README.md): where the frozen artifacts
are, and how today's ``rulespec`` is run on them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.packaging.conftest import wheel

__all__ = ["wheel"]  # tests/packaging's fixture: the rulespec wheel, built once per session

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PLUGINS = HERE / "plugins"
TRACES = HERE / "traces"
REPORTS = HERE / "reports"
FILES = HERE / "files"
ENGINES = HERE / "engines"
#: The planted-bug engine the frozen reports were produced with (tests/conformance/corpus.py).
PLANTED = [sys.executable, "-m", "tests.conformance.engines.bad_server", "dado-de-ouro",
           "rotating-starter"]

# The frozen plugin projects carry their own tests, written against their release's API: they
# run inside a child environment where the plugin is installed (test_plugins.py), never here.
collect_ignore_glob = ["plugins/*"]


def rulespec(*args: str | Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run today's ``rulespec`` (this environment's) from the checkout; return what it did."""
    return subprocess.run([sys.executable, "-m", "rulespec", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout, check=False)


#: Keys whose values are a game's data (states, actions, configurations, a record's options),
#: not the report's own shape: the key is part of the consumer view, what is under it is not.
OPAQUE = frozenset({"expected", "actual", "action", "rulings", "parameters", "configured",
                    "state", "got", "want", "config", "records", "options", "follows",
                    "defaults", "legal", "value", "matches", "counts"})


def key_paths(value: Any, prefix: str = "$") -> Iterator[str]:
    """Yield every key path of a JSON document (``$.failures[].diff[].path``): list items are
    merged under ``[]``, so the paths are what a consumer may read, not the data; nothing under
    an ``OPAQUE`` key (a game's data) is a path."""
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{prefix}.{key}"
            yield path
            if key not in OPAQUE:
                yield from key_paths(item, path)
    elif isinstance(value, list):
        for item in value:
            yield from key_paths(item, f"{prefix}[]")


def xml_paths(element: Any, prefix: str = "") -> Iterator[str]:
    """Yield every element and attribute path of an XML tree (``testsuites/testsuite@name``)."""
    path = f"{prefix}/{element.tag}" if prefix else str(element.tag)
    yield path
    for name in element.attrib:
        yield f"{path}@{name}"
    for child in element:
        yield from xml_paths(child, path)
