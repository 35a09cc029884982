"""Helpers for a game's ``redeal`` hook: deal again what one player cannot see.

A determinising player (the impact lab's MCTS, ``rulespec.impact.agents``) plays many copies of a
game in which the cards hidden from it are dealt again. The games hold their cards as counts per
card type or as lists of types; these helpers turn counts into items and back, and deal a shuffled
pile of unseen items into places of given sizes, so a game's ``redeal`` says only which places
are hidden and how many items each holds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence


def items_of(counts: Sequence[int]) -> list[int]:
    """Return one item per count: type ``t`` repeated ``counts[t]`` times, in type order."""
    return [t for t, k in enumerate(counts) for _ in range(k)]


def tally(items: Iterable[int], kinds: int) -> list[int]:
    """Return how many of each of ``kinds`` types ``items`` holds."""
    counts = [0] * kinds
    for t in items:
        counts[t] += 1
    return counts


def deal_unseen(unseen: Iterable[int], sizes: Sequence[int],
                rng: random.Random) -> list[list[int]]:
    """Shuffle ``unseen`` and deal it into places of ``sizes``; the last list holds the rest.

    The items are sorted before the shuffle, so the deal depends only on which items are unseen
    (what the player knows) and on ``rng``, never on where they were. Returns ``len(sizes) + 1``
    lists, the places in order, then what is left over.
    """
    pile = sorted(unseen)
    rng.shuffle(pile)
    places: list[list[int]] = []
    at = 0
    for size in sizes:
        places.append(pile[at:at + size])
        at += size
    places.append(pile[at:])
    return places
