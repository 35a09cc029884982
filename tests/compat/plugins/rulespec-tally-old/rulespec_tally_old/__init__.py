"""Tally Old, a rulespec game plugin: its spec, rules text, traces, examples and perft tables.

rulespec finds it through the entry point this distribution declares in ``pyproject.toml``::

    [project.entry-points."rulespec.games"]
    tally-old = "rulespec_tally_old:GAME"

The reference interpreter is ``rulespec_tally_old.engine`` (the spec's ``game.reference``); it is
imported only when a game is played.
"""

from __future__ import annotations

from pathlib import Path

from rulespec.spec import GamePackage

HERE = Path(__file__).resolve().parent

#: What this distribution contributes; every file it names ships as package data (pyproject.toml).
GAME = GamePackage(
    spec=HERE / "tally-old.yaml",
    rulebooks=HERE / "rulebooks",
    traces=HERE / "traces",
    examples=HERE / "examples" / "tally-old.yaml",
    perft=HERE / "traces" / "tally-old.perft.json",
)
