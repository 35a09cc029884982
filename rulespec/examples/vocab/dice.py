"""Words shared by games where chance rolls dice whose outcomes name a ``face`` (and a roller)."""

from __future__ import annotations

from typing import Any

from rulespec.examples.errors import ExampleError
from rulespec.examples.position import Driver


def rolls(driver: Driver, arg: Any) -> None:
    """Force the next rolls to show these faces, in order: ``rolls: [6, 2, 3, 4]``."""
    if not isinstance(arg, list):
        raise ExampleError(f"rolls: expected a list of faces, not {arg!r}")
    for face in arg:
        driver.do({"face": face})


def seats(driver: Driver, arg: Any) -> None:
    """Force one roll per seat, in whatever order the seats roll: ``seats: [6, 4, 4, 2]``.

    ``seats[p]`` is the face player ``p`` rolls (null: that seat does not roll now). The rolls
    are forced as the engine asks for them, so the order of play need not be spelled out.
    """
    if not isinstance(arg, list):
        raise ExampleError(f"seats: expected a list of faces, one per seat, not {arg!r}")
    wanted = {p: f for p, f in enumerate(arg) if f is not None}
    while wanted:
        legal = driver.engine.legal_actions()
        if not legal or "player" not in legal[0]:
            raise ExampleError(f"seats: seats {sorted(wanted)} still to roll but chance is not "
                               "rolling for a player")
        player = legal[0]["player"]
        if player not in wanted:
            raise ExampleError(f"seats: player {player} is to roll, but the seats left to roll "
                               f"are {sorted(wanted)}")
        driver.do({"player": player, "face": wanted.pop(player)})


def rounds(driver: Driver, arg: Any) -> None:
    """Play several rounds by seat: ``rounds: [[6, 4, 3, 2], [1, 2, 3, 5]]``."""
    if not isinstance(arg, list):
        raise ExampleError(f"rounds: expected a list of rounds, not {arg!r}")
    for faces in arg:
        seats(driver, faces)
