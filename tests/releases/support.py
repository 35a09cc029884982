"""Helpers for the release tests: edited copies of a spec written to a folder, and diffs."""

from __future__ import annotations

import copy
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from rulespec.releases.diff import SpecDiff, diff_specs
from rulespec.releases.store import read_frozen_spec, release_spec, releases
from rulespec.spec.model import Spec
from rulespec.spec.registry import registered
from rulespec.spec.validate import load_spec

Edit = Callable[[dict[str, Any]], None]


def today_data(game: str) -> dict[str, Any]:
    """Return a fresh copy of today's spec data of ``game``."""
    data: dict[str, Any] = yaml.safe_load(registered(game).spec_path.read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def write_copy(folder: Path, game: str, data: dict[str, Any],
               examples: Edit | None = None) -> Path:
    """Write ``data`` as ``folder/<game>.yaml`` with a copy of the game's rule examples beside."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    source = registered(game).spec_path.parent / "examples" / f"{game}.yaml"
    (folder / "examples").mkdir(exist_ok=True)
    target = folder / "examples" / f"{game}.yaml"
    if examples is None:
        shutil.copy(source, target)
    else:
        found: dict[str, Any] = yaml.safe_load(source.read_text(encoding="utf-8"))
        examples(found)
        target.write_text(yaml.safe_dump(found, allow_unicode=True, sort_keys=False),
                          encoding="utf-8")
    return path


def edited(folder: Path, game: str, edit: Edit, *, validate: bool = False,
           examples: Edit | None = None) -> Spec:
    """Return today's spec of ``game`` with ``edit`` applied, written to ``folder`` and loaded.

    ``validate`` loads it through the validator (needed to run its reference); otherwise it is
    read as a frozen spec, so an edit may break what the validator demands.
    """
    data = today_data(game)
    edit(data)
    path = write_copy(folder, game, data, examples)
    return load_spec(path) if validate else read_frozen_spec(path)


def current_release(game: str) -> Spec:
    """Return the frozen copy of the release that today's spec of ``game`` carries."""
    return release_spec(game, releases(game)[-1].version)


def diff_edit(folder: Path, game: str, edit: Edit, *, behaviour: bool = False,
              examples: Edit | None = None) -> SpecDiff:
    """Diff today's frozen release of ``game`` against an edited copy of today's spec."""
    new = edited(folder, game, edit, validate=behaviour, examples=examples)
    return diff_specs(current_release(game), new, behaviour=behaviour)


def by_id(data: dict[str, Any], section: str, ident: str) -> dict[str, Any]:
    """Return the element ``ident`` of a list section of spec data (the dict itself)."""
    for item in data[section]:
        if item.get("id") == ident:
            return item  # type: ignore[no-any-return]
    raise KeyError(f"{section} has no {ident!r}")
