"""Explicit-state verification of small configurations (``rulespec verify``): every reachable
state explored breadth first, every invariant checked in every state, the shortest trace to a
violation, exact outcome probabilities.

Import from here::

    from rulespec.verify import Bounds, Setup, verify, verify_rulings

The names are loaded when first used, so that importing the command stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulespec.verify.explore import Exploration, Explorer, Stats
    from rulespec.verify.outcomes import OptimalPlay, Outcomes, optimal_play, uniform_outcomes
    from rulespec.verify.run import Bounds, RulingsRun, Setup, Verification, verify, verify_rulings

_WHERE = {
    "Exploration": "explore", "Explorer": "explore", "Stats": "explore",
    "OptimalPlay": "outcomes", "Outcomes": "outcomes", "optimal_play": "outcomes",
    "uniform_outcomes": "outcomes",
    "Bounds": "run", "RulingsRun": "run", "Setup": "run", "Verification": "run",
    "verify": "run", "verify_rulings": "run",
}

__all__ = ["Bounds", "Exploration", "Explorer", "OptimalPlay", "Outcomes", "RulingsRun", "Setup",
           "Stats", "Verification", "optimal_play", "uniform_outcomes", "verify",
           "verify_rulings"]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'rulespec.verify' has no attribute {name!r}")
    return getattr(import_module(f"rulespec.verify.{module}"), name)
