"""The reference interpreter: the engine core, the registry, traces, and one module per game.

This package's names are the public API for game authors (a reference module such as
``rulespec.games.fool`` or a plugin such as Pig) and for code that plays or replays games. They
are listed in ``docs/reference/api.md``; the modules underneath are internal and may change.
Import from here::

    from rulespec.reference import CHANCE, Action, Engine, Rejection, new_game, playout
"""

from __future__ import annotations

from rulespec.reference.actions import is_among, strictly_equal
from rulespec.reference.core import (
    CHANCE,
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    IllegalAction,
    Rejection,
    StepMemo,
    config_from_json,
    config_tables,
    equal_weights,
    inlines_apply,
    lead_over_others,
    make_config,
    ranking,
    shared_tables,
)
from rulespec.reference.decisions import decision_point_problems, unreached_records
from rulespec.reference.determinise import deal_unseen, items_of, tally
from rulespec.reference.play import Step, playout, random_policy, sample_chance
from rulespec.reference.registry import check_implementation, engine_class, new_game
from rulespec.reference.trace import ReplayOutcome, Trace, TraceError, TraceStep, read_trace, replay

__all__ = [
    "CHANCE",
    "Action",
    "Actor",
    "Config",
    "ConfigError",
    "Engine",
    "IllegalAction",
    "Rejection",
    "ReplayOutcome",
    "Step",
    "StepMemo",
    "Trace",
    "TraceError",
    "TraceStep",
    "check_implementation",
    "config_from_json",
    "config_tables",
    "deal_unseen",
    "decision_point_problems",
    "engine_class",
    "equal_weights",
    "inlines_apply",
    "is_among",
    "items_of",
    "lead_over_others",
    "make_config",
    "new_game",
    "playout",
    "random_policy",
    "ranking",
    "read_trace",
    "replay",
    "sample_chance",
    "shared_tables",
    "strictly_equal",
    "tally",
    "unreached_records",
]
