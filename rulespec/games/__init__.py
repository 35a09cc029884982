"""The built-in games, registered through the ``rulespec.games`` entry points like any plugin.

Each constant below is what one entry point in ``pyproject.toml`` names; the reference modules
(one per game, named by each spec's ``game.reference``) are imported only when a game is played.
"""

from __future__ import annotations

from rulespec.data import kit_dir, specs_dir
from rulespec.spec.registry import GamePackage


def _builtin(game_id: str) -> GamePackage:
    return GamePackage(spec=specs_dir() / f"{game_id}.yaml", traces=kit_dir() / "traces")


DADO_DE_OURO = _builtin("dado-de-ouro")
FOOL = _builtin("fool")
OURO_DE_TOLO = _builtin("ouro-de-tolo")
RUBY_RHINO = _builtin("ruby-rhino")
