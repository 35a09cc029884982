"""Game specifications: the YAML specs, their JSON Schema, the loader and the validator.

This package's names are the public API for specs (listed in ``docs/reference/api.md``); the
modules underneath are internal and may change.
"""

from __future__ import annotations

from rulespec.spec.errors import Problem, RulespecError, SpecError
from rulespec.spec.invariants import Invariants
from rulespec.spec.model import Spec
from rulespec.spec.registry import (
    BrokenGame,
    GamePackage,
    RegisteredGame,
    UnknownGame,
    all_specs,
    game_ids,
    get_spec,
    registered,
    spec_paths,
)
from rulespec.spec.validate import load_spec

__all__ = [
    "BrokenGame",
    "GamePackage",
    "Invariants",
    "Problem",
    "RegisteredGame",
    "RulespecError",
    "Spec",
    "SpecError",
    "UnknownGame",
    "all_specs",
    "game_ids",
    "get_spec",
    "load_spec",
    "registered",
    "spec_paths",
]
