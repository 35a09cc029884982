"""Game specifications: the YAML specs, their JSON Schema, the loader and the validator."""

from __future__ import annotations

from specs.errors import Problem, RulespecError, SpecError
from specs.model import Spec
from specs.registry import UnknownGame, all_specs, game_ids, get_spec, spec_paths
from specs.validate import load_spec

__all__ = [
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
