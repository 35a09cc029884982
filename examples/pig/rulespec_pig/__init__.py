"""Pig, an out-of-tree rulespec game: its spec, rules text, traces and examples, as a plugin.

rulespec finds it through the entry point this distribution declares in ``pyproject.toml``::

    [project.entry-points."rulespec.games"]
    pig = "rulespec_pig:GAME"

The reference interpreter is ``rulespec_pig.engine`` (the spec's ``game.reference``); it is
imported only when a game is played.
"""

from __future__ import annotations

from pathlib import Path

from rulespec.spec import GamePackage

HERE = Path(__file__).resolve().parent

#: What this distribution contributes: the spec, the rules text it cites, its golden traces, its
#: rule examples and its perft tables (each file ships as package data: see pyproject.toml).
GAME = GamePackage(
    spec=HERE / "pig.yaml",
    rulebooks=HERE / "rulebooks",
    traces=HERE / "traces",
    examples=HERE / "examples" / "pig.yaml",
    perft=HERE / "traces" / "pig.perft.json",
    reference="rulespec_pig.engine",
)
