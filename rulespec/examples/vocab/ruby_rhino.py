"""The setup language of The Curse of the Ruby Rhino: the two dice of each roll."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulespec.examples.errors import ExampleError
from rulespec.examples.position import Driver, Word
from rulespec.examples.vocab.dice import rolls


def turns(driver: Driver, arg: Any) -> None:
    """Force whole rolls, both dice each: ``turns: [[rhino, coin1], [coin2, coin2]]``."""
    if not isinstance(arg, list) or not all(isinstance(t, list) and len(t) == 2 for t in arg):
        raise ExampleError(f"turns: expected a list of [die 1 face, die 2 face] pairs, not {arg!r}")
    for pair in arg:
        rolls(driver, pair)


def dice(driver: Driver, arg: Any) -> None:
    """Force one roll of both dice: ``dice: [rhino, coin1]``."""
    turns(driver, [arg])


WORDS: Mapping[str, Word] = {"rolls": rolls, "dice": dice, "turns": turns}
