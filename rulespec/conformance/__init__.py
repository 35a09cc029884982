"""The conformance kit: check any engine, in any language, against a game's spec.

This package's names are the public API of the kit (listed in ``docs/reference/api.md``); the
modules underneath are internal and may change. Python API::

    from rulespec.conformance import SubprocessAdapter, check_engine, Options
    report = check_engine(SubprocessAdapter("node my-engine.js"), "dado-de-ouro")
    print(report.ok, report.failed_checks())
"""

from __future__ import annotations

from rulespec.conformance.adapters import Adapter, InProcessAdapter, SubprocessAdapter
from rulespec.conformance.authoring import (
    perft_differences,
    random_game_problems,
    rule_example_failures,
)
from rulespec.conformance.checks import CHECKS, Failure, Report, RunResult
from rulespec.conformance.golden import differences as golden_differences
from rulespec.conformance.golden import write as write_golden
from rulespec.conformance.options import supported_configs
from rulespec.conformance.protocol import EngineFailure, Hello, Legal
from rulespec.conformance.report import render
from rulespec.conformance.runner import Conformance, Options, check_engine
from rulespec.conformance.server import serve
from rulespec.spec.registry import golden_paths

__all__ = [
    "CHECKS",
    "Adapter",
    "Conformance",
    "EngineFailure",
    "Failure",
    "Hello",
    "InProcessAdapter",
    "Legal",
    "Options",
    "Report",
    "RunResult",
    "SubprocessAdapter",
    "check_engine",
    "golden_differences",
    "golden_paths",
    "perft_differences",
    "random_game_problems",
    "render",
    "rule_example_failures",
    "serve",
    "supported_configs",
    "write_golden",
]
