"""Pytest plugin: ``pytest --rulespec-engine CMD --rulespec-game ID`` runs the kit as tests.

Registered through the ``pytest11`` entry point, so pytest loads it in every run of every
project in an environment where rulespec is installed. It therefore only adds options, and
imports nothing of rulespec (the kit, the specs, the engines) until one of them is given.
"""

from __future__ import annotations

import argparse
import math

import pytest


def _at_least_one(text: str) -> int:
    """Parse a count of at least 1 (``--rulespec-examples``, ``--rulespec-players``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def _seconds(text: str) -> float:
    """Parse a number of seconds, more than 0 and at most a day (``--rulespec-timeout``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0 < value <= 86_400):
        raise argparse.ArgumentTypeError(f"{text!r} is not in the range 0<x<=86400")
    return value


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add the kit's options."""
    group = parser.getgroup("rulespec", "rulespec conformance kit")
    group.addoption("--rulespec-engine", metavar="CMD", default=None,
                    help="command starting the engine under test (engine protocol on stdio); "
                         "'reference' checks the reference in-process")
    group.addoption("--rulespec-game", metavar="ID", default=None, help="game id to check")
    group.addoption("--rulespec-players", metavar="N", type=_at_least_one, action="append",
                    default=[],
                    help="player count (repeatable; default every count)")
    group.addoption("--rulespec-ruling", metavar="AMB=OPT", action="append", default=[],
                    help="ruling to check under (repeatable)")
    group.addoption("--rulespec-variant", metavar="ID", action="append", default=[],
                    help="variant to enable (repeatable)")
    group.addoption("--rulespec-examples", metavar="N", type=_at_least_one, default=40,
                    help="games per configuration (default 40)")
    group.addoption("--rulespec-timeout", metavar="S", type=_seconds, default=10.0,
                    help="seconds per engine call (default 10)")
    group.addoption("--rulespec-trace-dir", metavar="DIR", default="rulespec-failures",
                    help="where minimal failing traces are written")


def _wanted(config: pytest.Config) -> bool:
    engine, game = config.getoption("rulespec_engine"), config.getoption("rulespec_game")
    if engine is None and game is None:
        return False
    if not engine or not game:
        raise pytest.UsageError("give both --rulespec-engine CMD and --rulespec-game ID")
    return True


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config,
                                  items: list[pytest.Item]) -> None:
    """Add the kit's items when --rulespec-engine and --rulespec-game are given."""
    if _wanted(config):
        from rulespec.conformance.reports import pytest_items

        pytest_items.collect(session, config, items)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Shut the engine under test down, if the kit started one."""
    import sys

    items = sys.modules.get("rulespec.conformance.reports.pytest_items")
    if items is not None:
        items.unconfigure(config)
