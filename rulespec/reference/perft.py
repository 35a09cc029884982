"""Perft: exact counts of a game's tree, depth by depth, as chess programmers count moves.

From a position, ``perft`` counts the nodes at each depth: every action sequence of that
length, chance outcomes included as moves, transpositions not merged (plain tree counts). It
also sums, at each depth, the probability of reaching each node (player moves weigh 1, a chance
outcome its exact probability): the *weighted* count, an exact fraction that is the expected
number of action sequences of that length. Two engines whose legal actions or chance
distributions differ anywhere in the first ``d`` plies give different tables, and ``divide``
(the count under each first action) finds the branch where they part.

Only nodes above the last depth are expanded: the last level is counted from its parent's
legal actions (the "bulk counting" of chess perft), so depth ``d`` costs the nodes of ``d-1``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulespec.reference.core import CHANCE, Action, Engine

#: Perft tables deeper than this are refused (the counts grow exponentially).
MAX_DEPTH = 12


@dataclass
class PerftRow:
    """The counts at one depth."""

    depth: int
    nodes: int = 0
    weighted: Fraction = field(default_factory=Fraction)
    #: Nodes at this depth where the game is over (None at the last depth, whose nodes are
    #: counted from their parent's moves without being played).
    terminal: int | None = 0

    def to_json(self) -> dict[str, Any]:
        """Return the row as JSON (the weighted count as an exact fraction string)."""
        return {"depth": self.depth, "nodes": self.nodes, "weighted": str(self.weighted),
                "terminal": self.terminal}


@dataclass
class PerftResult:
    """A perft table: one row per depth from 1, and how long it took."""

    rows: list[PerftRow]
    expanded: int = 0
    seconds: float = 0.0

    @property
    def nodes_per_second(self) -> float:
        """Return the nodes counted per second (all depths)."""
        total = sum(r.nodes for r in self.rows)
        return total / self.seconds if self.seconds > 0 else float("inf")


def children(engine: Engine) -> list[tuple[Action, Fraction]]:
    """Return the moves from this node with their weights: chance outcomes or legal actions."""
    actor = engine.current_player()
    if actor is None:
        return []
    if actor == CHANCE:
        return engine.chance_outcomes()
    one = Fraction(1)
    return [(a, one) for a in engine.legal_actions()]


def child(engine: Engine, action: Action) -> Engine:
    """Return a copy of ``engine`` with ``action`` (one of its legal moves) applied."""
    copy = engine.clone()
    copy.apply(action)
    return copy


def perft(engine: Engine, depth: int, *,
          progress: Callable[[int], None] | None = None) -> PerftResult:
    """Count the tree below ``engine`` to ``depth`` plies; the engine itself is not changed.

    ``progress`` is called with the number of nodes expanded so far, now and then.
    """
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"perft depth must be between 0 and {MAX_DEPTH}, not {depth!r}")
    rows = [PerftRow(d) for d in range(1, depth + 1)]
    sums = [_WeightedSum() for _ in rows]
    totals = _Totals()
    started = time.perf_counter()
    expanded = 0
    # Depth-first with an explicit stack of (node, its depth, its weight): no recursion limit.
    stack: list[tuple[Engine, int, Fraction]] = [(engine, 0, Fraction(1))] if depth else []
    while stack:
        node, d, weight = stack.pop()
        moves = children(node)
        expanded += 1
        if progress is not None and expanded % 1024 == 0:
            progress(expanded)
        if not moves:
            rows[d - 1].terminal = (rows[d - 1].terminal or 0) + 1
            continue
        rows[d].nodes += len(moves)
        first = moves[0][1]
        if all(p is first for _, p in moves):
            # One probability object for every move (a fair die's, a player's moves' one):
            # the node adds weight * first * len(moves), summed by identity (``_WeightedSum``),
            # and every child weighs weight * first, multiplied once.
            sums[d].add(weight, first, len(moves))
            if d + 1 < depth:
                each = weight * first
                stack.extend((child(node, action), d + 1, each) for action, _ in reversed(moves))
            continue
        # Several probabilities (a loaded die, a deck's counts): the node adds weight * their
        # sum, the sum remembered for the same probability objects (an engine's precomputed
        # outcomes), and a child's weight is multiplied once per probability object.
        sums[d].add(weight, totals.sum_of(moves), 1)
        if d + 1 < depth:
            products: dict[int, Fraction] = {}
            for action, p in reversed(moves):
                known = products.get(id(p))
                if known is None:
                    known = products[id(p)] = weight * p
                stack.append((child(node, action), d + 1, known))
    for row, pending in zip(rows, sums, strict=True):
        row.weighted += pending.total()
    if rows:
        rows[-1].terminal = None
    return PerftResult(rows, expanded, time.perf_counter() - started)


class _WeightedSum:
    """An exact sum of products ``weight * p * count``, with the terms of the same ``weight``
    and ``p`` objects (siblings share their parent's weight, a fair die its probability)
    gathered by identity first: one multiplication per group instead of two fractions' worth
    of arithmetic per node. The groups hold their objects, so no identity is reused."""

    #: Groups gathered before they are added up (bounds the memory a deep count holds).
    LIMIT = 4096

    def __init__(self) -> None:
        self._groups: dict[tuple[int, int], list[Any]] = {}
        self._sum = Fraction(0)

    def add(self, weight: Fraction, p: Fraction, count: int) -> None:
        """Add ``weight * p * count``."""
        key = (id(weight), id(p))
        group = self._groups.get(key)
        if group is not None:
            group[2] += count
            return
        if len(self._groups) >= self.LIMIT:
            self._flush()
        self._groups[key] = [weight, p, count]

    def _flush(self) -> None:
        self._sum += sum((w * p if k == 1 else w * p * k for w, p, k in self._groups.values()),
                         Fraction(0))
        self._groups.clear()

    def total(self) -> Fraction:
        """Return the exact sum of every term added."""
        self._flush()
        return self._sum


def divide(engine: Engine, depth: int) -> Iterator[tuple[Action, Fraction, PerftResult]]:
    """Yield each first move with its weight and the perft of its subtree to ``depth - 1``."""
    if depth < 1:
        raise ValueError(f"divide needs a depth of at least 1, not {depth!r}")
    for action, p in children(engine):
        yield action, p, perft(child(engine, action), depth - 1)


class _Totals:
    """The exact sum of moves' probabilities, remembered by the identity of the probability
    objects (which the memo holds, so no identity is reused): an engine that hands out its
    precomputed outcomes has them summed once."""

    #: Sums remembered at most (then forgotten all at once).
    LIMIT = 4096

    def __init__(self) -> None:
        self._known: dict[tuple[int, ...], tuple[tuple[Fraction, ...], Fraction]] = {}

    def sum_of(self, moves: list[tuple[Action, Fraction]]) -> Fraction:
        """Return the sum of the probabilities of ``moves``."""
        probabilities = tuple(p for _, p in moves)
        key = tuple(map(id, probabilities))
        known = self._known.get(key)
        if known is not None:
            return known[1]
        total = sum(probabilities, Fraction(0))
        if len(self._known) >= self.LIMIT:
            self._known.clear()
        self._known[key] = (probabilities, total)
        return total
