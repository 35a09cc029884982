"""The setup language of Ouro de Tolo: hands dealt, the bonus card, stones drawn.

``deal: [[cards of seat 0], ...]`` forces the deal card by card to whichever seat the engine
deals next (the rest of a hand is filled with cards nobody asked for); ``bonus: favor`` turns
that card up as the insurance bonus; ``stones: [ruby, fools_gold]`` forces the next stones out
of the bag; ``draws: [ruby, quartz]`` has the players to move draw in turn, each drawing the
stone named.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.examples.errors import ExampleError
from rulespec.examples.position import Driver, Word


def deal(driver: Driver, arg: Any) -> None:
    """Force the deal so that seat p is dealt ``arg[p]`` (the rest of a hand filled in)."""
    if not isinstance(arg, list) or not all(isinstance(h, list) for h in arg):
        raise ExampleError(f"deal: expected one list of cards per seat, not {arg!r}")
    wanted = [list(h) for h in arg]
    while driver.engine.state()["phase"] == "deal":
        state = driver.engine.state()
        seat = state["pending"]["queue"][0]
        mine = wanted[seat] if seat < len(wanted) else []
        if mine:
            driver.do({"kind": "card", "card": mine.pop(0)})
            continue
        reserved = {c for h in wanted for c in h}
        legal = driver.engine.legal_actions()
        free = [a for a in legal if a.get("card") not in reserved] or legal
        driver.play(free[0])
    left = {p: h for p, h in enumerate(wanted) if h}
    if left:
        raise ExampleError(f"deal: the deal ended before these cards were dealt: {left}")


def bonus(driver: Driver, arg: Any) -> None:
    """Turn up this card as the insurance bonus: ``bonus: favor``."""
    driver.do({"kind": "card", "card": arg})


def stones(driver: Driver, arg: Any) -> None:
    """Force the next stones drawn from the bag: ``stones: [ruby, fools_gold]``."""
    for colour in arg if isinstance(arg, list) else [arg]:
        driver.do({"kind": "stone", "colour": colour})


def draws(driver: Driver, arg: Any) -> None:
    """Have the players to move draw in turn, each the stone named: ``draws: [ruby, quartz]``."""
    for colour in arg if isinstance(arg, list) else [arg]:
        driver.do({"kind": "draw"})
        driver.do({"kind": "stone", "colour": colour})


WORDS: Mapping[str, Word] = {"deal": deal, "bonus": bonus, "stones": stones, "draws": draws}
