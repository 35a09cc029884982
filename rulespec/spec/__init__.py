"""Game specifications: the YAML specs, their JSON Schema, the loader and the validator."""

from __future__ import annotations

from rulespec.spec.errors import Problem, RulespecError, SpecError
from rulespec.spec.model import Spec
from rulespec.spec.registry import (
    BrokenGame,
    GamePackage,
    UnknownGame,
    all_specs,
    game_ids,
    get_spec,
    spec_paths,
)
from rulespec.spec.validate import load_spec

__all__ = [
    "BrokenGame",
    "GamePackage",
    "Problem",
    "RulespecError",
    "Spec",
    "SpecError",
    "UnknownGame",
    "all_specs",
    "game_ids",
    "get_spec",
    "load_spec",
    "spec_paths",
]
