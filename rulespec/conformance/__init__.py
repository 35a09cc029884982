"""The conformance kit: check any engine, in any language, against a game's spec.

Python API::

    from rulespec.conformance import SubprocessAdapter, check_engine, Options
    report = check_engine(SubprocessAdapter("node my-engine.js"), "dado-de-ouro")
    print(report.ok, report.failed_checks())
"""

from __future__ import annotations

from rulespec.conformance.adapters import Adapter, InProcessAdapter, SubprocessAdapter
from rulespec.conformance.checks import CHECKS, Failure, Report, RunResult
from rulespec.conformance.protocol import EngineFailure, Hello, Legal
from rulespec.conformance.runner import Conformance, Options, check_engine

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
]
