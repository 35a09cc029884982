"""The kit's module names before its modules were grouped by stage: they still import, with a warning.

Until rulespec 0.4.0 the kit's modules sat side by side in ``rulespec.conformance``
(``rulespec.conformance.runner``, ``rulespec.conformance.adapters`` ...). They are internal (the
public API is what ``rulespec.conformance`` itself exports), but scripts reach for them, so each
old name is an alias of the module's new place until rulespec 0.5.0: importing it gives the very
same module object and a ``RemovedIn05Warning`` that names the new place. Nothing here is loaded
from a file a user gave: the table below is the whole of what it maps.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings
from collections.abc import Sequence
from types import ModuleType

from rulespec.spec.errors import RemovedIn05Warning

__all__ = ["MOVED", "REMOVED_IN", "RemovedIn05Warning", "install", "new_name"]

PACKAGE = "rulespec.conformance"

#: Old module name (under ``rulespec.conformance``) -> its place now, under the same package.
MOVED: dict[str, str] = {
    "protocol": "engine.protocol",
    "processes": "engine.processes",
    "adapters": "engine.adapters",
    "checks": "judging.checks",
    "causes": "judging.causes",
    "budget": "judging.budget",
    "scope": "judging.scope",
    "levels": "judging.levels",
    "validation": "judging.validation",
    "verdicts": "judging.verdicts",
    "divergence": "judging.divergence",
    "versions": "judging.versions",
    "change_evidence": "judging.change_evidence",
    "inference": "explain.inference",
    "profile": "explain.profile",
    "profile_blame": "explain.profile_blame",
    "profile_play": "explain.profile_play",
    "profile_steer": "explain.profile_steer",
    "witness_probes": "explain.witness_probes",
    "options": "play.options",
    "coverage": "play.coverage",
    "steering": "play.steering",
    "probes": "play.probes",
    "tracefile": "play.tracefile",
    "progress": "play.progress",
    "playing": "play.playing",
    "replay": "play.replay",
    "perft_check": "play.perft_check",
    "examples_check": "play.examples_check",
    "runner": "play.runner",
    "parallel": "play.parallel",
    "golden": "play.golden",
    "perft_tables": "play.perft_tables",
    "authoring": "play.authoring",
    "bench": "play.bench",
    "report": "reports.report",
    "profile_report": "reports.profile_report",
    "pytest_items": "reports.pytest_items",
    "matrix_cli": "matrix.cli",
    "engines_file": "matrix.engines_file",
}

#: The release whose kit no longer answers to the old names.
REMOVED_IN = RemovedIn05Warning.removed_in


def new_name(old: str) -> str | None:
    """Return the full new name of the old full module name ``old``, or ``None`` if it did not move."""
    prefix = PACKAGE + "."
    if not old.startswith(prefix):
        return None
    moved = MOVED.get(old[len(prefix):])
    return f"{prefix}{moved}" if moved else None


class _Alias(importlib.abc.Loader):
    """Load an old name as the module at its new place (the same object, not a copy)."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.real_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        warnings.warn(
            f"{spec.name} moved to {self.target} in rulespec 0.4.0, and the old name stops "
            f"importing in rulespec {REMOVED_IN}: import {self.target} instead, or better the "
            f"names {PACKAGE} itself exports (the public API, docs/reference/api.md)",
            RemovedIn05Warning, stacklevel=2)
        module = importlib.import_module(self.target)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The import system has just pointed the module's __spec__ at the alias: point it back,
        # so that the module still says where it lives (pickling, reload, tracebacks).
        module.__spec__ = self.real_spec


class _Finder(importlib.abc.MetaPathFinder):
    """Find the kit's old module names (and nothing else)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        moved = new_name(fullname)
        if moved is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(moved))


def install() -> None:
    """Let the old names import (once per process)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.append(_Finder())
