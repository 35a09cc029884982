"""The game registry: the spec files shipped in this package, one per game."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from specs.errors import RulespecError
from specs.model import Spec
from specs.validate import load_spec

SPEC_DIR = Path(__file__).parent


class UnknownGame(RulespecError):
    """A game id that no spec in the registry declares."""


def spec_paths() -> list[Path]:
    """Return the path of every shipped spec, sorted by file name."""
    return sorted(SPEC_DIR.glob("*.yaml"))


@cache
def _load(path: Path) -> Spec:
    return load_spec(path)


def all_specs() -> list[Spec]:
    """Load every shipped spec (cached); raise SpecError if one is invalid."""
    return [_load(p) for p in spec_paths()]


def game_ids() -> list[str]:
    """Return the id of every registered game, from the spec file names."""
    return [p.stem for p in spec_paths()]


def get_spec(game_id: str) -> Spec:
    """Return the spec of ``game_id``; UnknownGame lists the known ones."""
    path = SPEC_DIR / f"{game_id}.yaml"
    if not path.is_file():
        raise UnknownGame(f"unknown game {game_id!r}; known games: {', '.join(game_ids())}")
    spec = _load(path)
    if spec.game_id != game_id:
        raise UnknownGame(f"{path}: declares game id {spec.game_id!r} but the file is named "
                          f"{game_id!r}; rename one of them")
    return spec
