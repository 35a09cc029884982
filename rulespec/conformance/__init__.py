"""The conformance kit: check any engine, in any language, against a game's spec.

This package's names are the public API of the kit (listed in ``docs/reference/api.md``); the
modules underneath are internal and may change. Python API::

    from rulespec.conformance import SubprocessAdapter, check_engine, Options
    report = check_engine(SubprocessAdapter("node my-engine.js"), "dado-de-ouro")
    print(report.ok, report.failed_checks())

Underneath, the kit is five stages, each a subpackage that imports only the stages below it
(the ``kit-stages`` contract in ``pyproject.toml``; ``docs/about/design.md`` draws them):

- ``matrix``: every engine of a list on every game it plays, stamped reports;
- ``reports``: findings as text, JSON, JUnit XML, ruling profiles and pytest items;
- ``play``: the driver and everything it plays an engine through;
- ``explain``: which reading an engine follows, and which record is to blame;
- ``judging``: the checks, the step verdicts and their causes;
- ``engine``: the engine protocol, processes and adapters.

Beside them: ``cli`` (``conform``, ``serve``, ``conform-bench``) and ``server`` (``python -m
rulespec.conformance.server GAME`` serves the reference over the protocol). The modules' names
before the stages still import, with a warning, until rulespec 0.5.0 (``_moved``).
"""

from __future__ import annotations

from rulespec.conformance import _moved
from rulespec.conformance.engine.adapters import Adapter, InProcessAdapter, SubprocessAdapter
from rulespec.conformance.engine.protocol import EngineFailure, Hello, Legal
from rulespec.conformance.engine.server import serve
from rulespec.conformance.judging.checks import CHECKS, Failure, Report, RunResult
from rulespec.conformance.play.authoring import (
    perft_differences,
    random_game_problems,
    rule_example_failures,
)
from rulespec.conformance.play.golden import differences as golden_differences
from rulespec.conformance.play.golden import write as write_golden
from rulespec.conformance.play.options import supported_configs
from rulespec.conformance.play.runner import Conformance, Options, check_engine
from rulespec.conformance.reports.report import render
from rulespec.spec.registry import golden_paths

_moved.install()

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
