"""The setup language of Fool!: hands dealt, and cards played, written as a player says them.

Cards are ``"green 5"``, ``"red 12"``, ``"wild"`` (a wild 1). ``hands`` forces the deal card by
card: whoever the engine deals to next gets the next card of their listed hand; a seat whose
list is used up (or not given) gets the first card nobody asked for. So an example says what
each player holds, never in which order the dealer hands the cards out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.examples.errors import ExampleError
from rulespec.examples.position import Driver, Word

WILD = "wild"


def card(text: Any) -> dict[str, Any]:
    """Return the fields of the card written ``text`` (``"green 5"``, ``"wild"``)."""
    if not isinstance(text, str):
        raise ExampleError(f"a card is written like 'green 5' or 'wild', not {text!r}")
    parts = text.split()
    if parts and parts[0] == WILD and len(parts) <= 2:
        return {"suit": WILD}
    if len(parts) == 2 and parts[1].isdigit():
        return {"suit": parts[0], "value": int(parts[1])}
    raise ExampleError(f"a card is written like 'green 5' or 'wild', not {text!r}")


def _matches(action: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    return all(action.get(k) == v for k, v in want.items())


def hands(driver: Driver, arg: Any) -> None:
    """Force the deal so that seat p holds ``arg[p]`` (the rest of a hand is filled in)."""
    if not isinstance(arg, list) or not all(isinstance(h, list) for h in arg):
        raise ExampleError(f"hands: expected one list of cards per seat, not {arg!r}")
    wanted = [[card(c) for c in h] for h in arg]
    while True:
        legal = driver.engine.legal_actions()
        if not legal or legal[0].get("kind") != "deal":
            break
        seat = legal[0]["player"]
        mine = wanted[seat] if seat < len(wanted) else []
        if mine:
            want = mine.pop(0)
            found = [a for a in legal if _matches(a, want)]
            if not found:
                raise ExampleError(f"hands: {want} cannot be dealt to player {seat} (not in the "
                                   "cards in play, or already dealt)")
            driver.play(found[0])
            continue
        reserved = [w for h in wanted for w in h]
        free = [a for a in legal if not any(_matches(a, w) for w in reserved)]
        if not free:
            raise ExampleError(f"hands: no card left for player {seat} that nobody asked for")
        driver.play(free[0])
    left = {p: h for p, h in enumerate(wanted) if h}
    if left:
        raise ExampleError(f"hands: the deal ended before these cards were dealt: {left}")


def play(driver: Driver, arg: Any) -> None:
    """Play these cards in turn, each by whoever is to play: ``play: [green 5, wild]``."""
    if not isinstance(arg, list):
        raise ExampleError(f"play: expected a list of cards, not {arg!r}")
    for text in arg:
        driver.do(card(text))


WORDS: Mapping[str, Word] = {"hands": hands, "play": play}
