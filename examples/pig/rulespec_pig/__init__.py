"""Pig, an out-of-tree rulespec game: its spec, rules text and golden traces, as a plugin.

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

#: What this distribution contributes: the spec, its golden traces, the rules text it cites.
GAME = GamePackage(spec=HERE / "pig.yaml", traces=HERE / "traces", rulebooks=HERE / "rulebooks")
