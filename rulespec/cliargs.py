"""Command-line values checked before any work: NAME=VALUE pairs, output paths, ranges.

Shared by ``rulespec/cli.py`` and ``rulespec/conformance/cli.py``; every problem is a
``click.UsageError`` (exit code 2) naming the option, the value and what is accepted.
"""

from __future__ import annotations

import math
import os
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click


class _Seconds(click.FloatRange):
    """A number of seconds: more than zero, at most a day (and never NaN)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            low = "0<x" if self.min_open else "0<=x"
            self.fail(f"{value!r} is not a number of seconds in the range {low}<=86400", param,
                      ctx)
        return number


#: ``--seconds``, ``--timeout``: more than zero, at most a day.
POSITIVE_SECONDS = _Seconds(min=0, min_open=True, max=86_400)
#: ``--budget``: zero (no limit) or more, at most a day.
NON_NEGATIVE_SECONDS = _Seconds(min=0, max=86_400)
#: ``--max-steps``, ``--examples``: at least one.
AT_LEAST_ONE = click.IntRange(min=1)
#: ``--players``: a player count is at least one (the game's own range is checked later).
PLAYER_COUNT = click.IntRange(min=1, max=1000)


def parse_pairs(values: Sequence[str], option: str, *, example: str,
                shape: str = "NAME=VALUE") -> dict[str, str]:
    """Return NAME=VALUE pairs as a dict; refuse a malformed pair or one NAME given twice."""
    out: dict[str, str] = {}
    for item in values:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key or not value:
            raise click.UsageError(f"{option} {item!r} must look like {shape}, for example "
                                   f"{option} {example}")
        if key in out and out[key] != value:
            raise click.UsageError(f"{option} gives {key} twice ({out[key]!r} and {value!r}); "
                                   "choose one")
        out[key] = value
    return out


def engine_argv(command: str | None, option: str = "--engine") -> list[str] | None:
    """Split an engine command line; refuse an empty one or unbalanced quotes."""
    if command is None:
        return None
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise click.UsageError(f"{option} {command!r} cannot be split into words ({exc}); "
                               "check its quotes") from None
    if not argv:
        raise click.UsageError(f"{option} is empty; give the command that starts your engine, "
                               "for example --engine 'node my_engine.js'")
    return argv


def output_file(path: Path | None, option: str) -> None:
    """Check that ``path`` can be written (its folder exists and is writable), before any work."""
    if path is None:
        return
    if path.is_dir():
        raise click.UsageError(f"{option} {str(path)!r} is a folder; give a file name")
    folder = path.parent
    if not folder.is_dir():
        raise click.UsageError(f"{option} {str(path)!r}: the folder {str(folder)!r} does not "
                               "exist; create it first")
    if not os.access(folder, os.W_OK):
        raise click.UsageError(f"{option} {str(path)!r}: the folder {str(folder)!r} is not "
                               "writable")


def output_folder(path: Path | None, option: str) -> None:
    """Check that ``path`` is a writable folder or can be created as one, before any work."""
    if path is None:
        return
    probe = path
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if not probe.is_dir():
        raise click.UsageError(f"{option} {str(path)!r}: {str(probe)!r} is a file, not a folder")
    if not os.access(probe, os.W_OK):
        raise click.UsageError(f"{option} {str(path)!r}: {str(probe)!r} is not writable")
