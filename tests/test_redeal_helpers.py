"""The helpers behind the games' ``redeal`` hooks (``rulespec.reference.determinise``).

The hooks deal again what a player cannot see (FOOL-DEAL-01's hand sizes, Ouro de Tolo's hands
and deck); these tests pin what the helpers promise them.
"""

from __future__ import annotations

import random

import pytest

from rulespec.reference import deal_unseen, items_of, tally


def test_items_and_tally_are_inverse() -> None:
    counts = [2, 0, 3, 1]
    items = items_of(counts)
    assert items == [0, 0, 2, 2, 2, 3]
    assert tally(items, len(counts)) == counts


def test_items_of_a_bytearray_of_counts() -> None:
    assert items_of(bytearray([1, 2])) == [0, 1, 1]


@pytest.mark.parametrize("sizes", [[], [0], [2, 3], [1, 1, 1, 1]])
def test_deal_keeps_every_item_and_every_size(sizes: list[int]) -> None:
    unseen = [5, 1, 1, 4, 3, 3, 0, 2]
    places = deal_unseen(unseen, sizes, random.Random(3))
    assert len(places) == len(sizes) + 1
    assert [len(p) for p in places[:-1]] == sizes
    assert sorted(x for p in places for x in p) == sorted(unseen)


def test_deal_depends_on_what_is_unseen_not_on_its_order() -> None:
    a = deal_unseen([3, 1, 2, 2, 0], [2, 2], random.Random(7))
    b = deal_unseen([2, 0, 2, 3, 1], [2, 2], random.Random(7))
    assert a == b


def test_deal_depends_on_the_generator() -> None:
    deals = {tuple(map(tuple, deal_unseen(range(12), [4, 4], random.Random(s)))) for s in range(8)}
    assert len(deals) > 1
