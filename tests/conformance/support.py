"""Helpers for the kit's tests: commands that start engines, and small kit options."""

from __future__ import annotations

import sys
from pathlib import Path

from rulespec.conformance import Options

ROOT = Path(__file__).resolve().parents[2]
JS_ENGINE = ROOT / "conformance" / "engines" / "dado_de_ouro.js"
NODE = Path("/usr/bin/node")


def serve_command(game: str) -> list[str]:
    """Return the command serving the reference of ``game`` (``rulespec serve GAME``)."""
    return [sys.executable, "-m", "rulespec", "serve", game]


def misbehave_command(mode: str, after: int) -> list[str]:
    """Return the command of a reference server that misbehaves after ``after`` answers."""
    return [sys.executable, "-m", "tests.conformance.engines.misbehave", mode, str(after)]


def bad_server_command(game: str, name: str) -> list[str]:
    """Return the command serving one known-bad engine of the corpus."""
    return [sys.executable, "-m", "tests.conformance.engines.bad_server", game, name]


def quick(tmp: Path | None = None, **kw: object) -> Options:
    """Return small kit options for tests."""
    base: dict[str, object] = {"examples": 6, "trace_dir": tmp, "shrink_seconds": 4.0,
                               "shorter_seconds": 1.0}
    base.update(kw)
    return Options(**base)  # type: ignore[arg-type]
