"""Perft's weighted counts, summed by identity of the weights and probabilities, against the
plain sum of every node's probability (the definition), for dice, deals and player moves."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rulespec.reference.core import CHANCE, Engine
from rulespec.reference.perft import _Totals, _WeightedSum, perft
from rulespec.reference.registry import new_game


def plain(engine: Engine, depth: int) -> list[tuple[int, Fraction]]:
    """Return each depth's node count and weighted count, one fraction added per node."""
    nodes = [0] * depth
    weighted = [Fraction(0)] * depth

    def walk(node: Engine, d: int, weight: Fraction) -> None:
        actor = node.current_player()
        if actor is None or d == depth:
            return
        moves = (node.chance_outcomes() if actor == CHANCE
                 else [(a, Fraction(1)) for a in node.legal_actions()])
        for action, p in moves:
            nodes[d] += 1
            weighted[d] += weight * p
            child = node.clone()
            child.apply(action)
            walk(child, d + 1, weight * p)

    walk(engine, 0, Fraction(1))
    return list(zip(nodes, weighted, strict=True))


@pytest.mark.parametrize(("game", "players", "rulings", "depth"), [
    ("dado-de-ouro", None, {}, 3),  # DDO-DIE-01: a fair die, one probability object
    ("ruby-rhino", 2, {"RR-AMB-10": "random-first-player"}, 4),  # RR-DICE-01: faces' counts
    ("fool", 4, {}, 2),  # FOOL-DEAL-01: a deal weighs a card's count in the deck
    ("ouro-de-tolo", 3, {}, 3),  # OURO-DRAW-01: stones drawn by their counts in the bag
])
def test_weighted_counts_are_the_plain_sums(game: str, players: int | None,
                                            rulings: dict[str, str], depth: int) -> None:
    engine = new_game(game, players=players, rulings=rulings)
    got = [(r.nodes, r.weighted) for r in perft(engine, depth).rows]
    assert got == plain(engine, depth)


def test_sums_stay_exact_past_their_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gathered groups and remembered totals are flushed or forgotten at their limits, and the
    sums stay exact; fresh objects equal to earlier ones are never confused by identity."""
    monkeypatch.setattr(_WeightedSum, "LIMIT", 3)
    monkeypatch.setattr(_Totals, "LIMIT", 2)
    rng = random.Random(7)
    total = _WeightedSum()
    totals = _Totals()
    expected = Fraction(0)
    shared = Fraction(1, 6)
    for _ in range(200):
        weight = Fraction(rng.randint(1, 9), rng.randint(1, 9))
        p = shared if rng.random() < 0.5 else Fraction(rng.randint(1, 5), 7)
        count = rng.randint(1, 4)
        total.add(weight, p, count)
        expected += weight * p * count
        moves = [({"kind": "x"}, p), ({"kind": "y"}, Fraction(rng.randint(0, 3), 11))]
        assert totals.sum_of(moves) == moves[0][1] + moves[1][1]
    assert total.total() == expected
