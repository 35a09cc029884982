"""What the bridge tests share: the configurations to play, the plugin game, extras handling."""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rulespec.reference.core import Engine
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec
from rulespec.spec.registry import game_ids, get_spec
from rulespec.spec.validate import load_spec

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"


def require(module: str, extra: str) -> ModuleType:
    """Import ``module``; skip without the extra locally, but fail in CI (``CI`` set)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        message = (f"{module} is not installed ({exc}); install the {extra!r} extra: "
                   f"pip install -e '.[{extra}]'")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message, allow_module_level=True)


def configurations() -> list[tuple[str, int]]:
    """Return (game id, players) for every registry game at its minimum and maximum counts."""
    out: list[tuple[str, int]] = []
    for gid in game_ids():
        spec = get_spec(gid)
        out += [(gid, n) for n in sorted({spec.min_players, spec.max_players})]
    return out


def pig() -> tuple[Spec, type[Engine]]:
    """Return the example plugin game's spec and engine, imported from the source tree."""
    if str(PIG) not in sys.path:
        sys.path.insert(0, str(PIG))
    from rulespec.spec.registry import registered_in_process
    from rulespec_pig import GAME  # type: ignore[import-not-found, unused-ignore]

    spec = load_spec(PIG / "rulespec_pig" / "pig.yaml")
    # A spec file names its reference only for a registered game (docs/about/security.md):
    # Pig is registered while its engine class is looked up, as its entry point would.
    with registered_in_process("pig", GAME):
        return spec, engine_class(spec)
