"""Floating-point outcomes of a large graph, solved in blocks of states by dense linear algebra.

The exact solver (``rulespec.verify.outcomes``) eliminates one strongly connected component at a
time in fractions; past its budget it fell back to Gauss-Seidel sweeps in Python over dicts,
which took most of a big search's time (Pig to 60: minutes for 400,000 states). Here the same
equations ``x_s = sum_t p(s, t) x_t + b_s`` are solved with numpy.

The components come out of Tarjan's algorithm sinks first, so any run of consecutive components
is closed: every edge out of the run leads to a state solved before it. The runs are cut into
*blocks* of about ``BLOCK`` states (a component larger than that is a block of its own), and each
block is one dense system ``(I - M) x = b + E v``, solved by LU with partial pivoting; ``M``
holds the block's inner edges, ``E v`` the solved values its other edges read. The result is the
solution of the same linear system the exact solver solves, to about 1e-12; a test compares
both on graphs the exact solver can still do.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

if "numpy" not in sys.modules:
    # Blocks are small: OpenBLAS's threads cost more than they save, and on a busy machine
    # their spinning made each solve 20 times slower (5.5 ms against 0.23 ms at 192 states).
    # Read when numpy is first imported, so only set if it was not yet.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from rulespec.verify.store import TERMINAL_NODE, StateStore

#: States per block (a larger component is a block of its own): dense LU is cubic in it.
BLOCK = 192
#: A component larger than this is not solved densely (the caller falls back).
LARGEST = 6000


def arrays(store: StateStore) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Return the store's actors, offsets, edge targets and edge probabilities (floats) as numpy
    arrays (the first three without copying)."""
    actors = np.frombuffer(store.actors, dtype=np.int8) if len(store) else np.zeros(0, np.int8)
    offsets = np.frombuffer(store.offsets, dtype=np.uint32).astype(np.int64)
    targets = (np.frombuffer(store.targets, dtype=np.uint32).astype(np.int64)
               if len(store.targets) else np.zeros(0, np.int64))
    table = np.array([float(p) for p in store.probabilities] or [0.0])
    probs = (table[np.frombuffer(store.edge_probabilities, dtype=np.uint16)]
             if len(store.edge_probabilities) else np.zeros(0))
    return actors, offsets, targets, probs


def blocks(groups: Sequence[Sequence[int]], size: int = BLOCK) -> list[np.ndarray]:
    """Return runs of consecutive components of about ``size`` states each, as state arrays."""
    out: list[np.ndarray] = []
    run: list[int] = []
    for group in groups:
        if run and len(run) + len(group) > size:
            out.append(np.array(run, dtype=np.int64))
            run = []
        run.extend(group)
    if run:
        out.append(np.array(run, dtype=np.int64))
    return out


def edge_rows(offsets: np.ndarray, states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return, for the expanded ``states``, each edge's index and the position of its source in
    ``states``."""
    starts, ends = offsets[states], offsets[states + 1]
    counts = ends - starts
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    rows = np.repeat(np.arange(len(states)), counts)
    first = np.repeat(starts - np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
    return first + np.arange(total), rows


def solve_linear(store: StateStore, players: int, groups: Sequence[Sequence[int]],
                 choice: Sequence[int] | None = None) -> np.ndarray | None:
    """Return every state's ``(win_0, ..., win_{n-1}, unexplored, length)`` in floating point
    (rows in state order), or None when a component is larger than ``LARGEST``.

    A player's state moves uniformly (the store's edge probabilities), or by ``choice[s]`` (an
    edge index) when it is given and not -1; a chance state by its probabilities.
    """
    if any(len(g) > LARGEST for g in groups):
        return None
    n = len(store)
    width = players + 2
    actors, offsets, targets, probs = arrays(store)
    expanded = store.expanded
    values = np.zeros((n, width))
    terminal = np.flatnonzero(actors == TERMINAL_NODE)
    winners = np.frombuffer(store.winners, dtype=np.uint32).astype(np.int64)[terminal]
    for seat in range(players):
        values[terminal, seat] = (winners >> seat) & 1
    values[expanded:, players] = 1.0  # never expanded: all of it unexplored
    picked = None if choice is None else np.asarray(choice, dtype=np.int64)
    position = np.zeros(n, dtype=np.int64)
    member = np.zeros(n, dtype=bool)
    for block in blocks(groups):
        inner = block[(block < expanded) & (actors[block] != TERMINAL_NODE)]
        if len(inner) == 0:
            continue
        edges, rows = edge_rows(offsets, inner)
        p = probs[edges]
        if picked is not None:
            mine = picked[inner][rows]
            chosen = (actors[inner][rows] >= 0) & (mine >= 0)
            p = np.where(chosen, (edges == mine).astype(float), p)
        k = len(inner)
        position[inner] = np.arange(k)
        t = targets[edges]
        member[inner] = True  # only the block's inner states are unknowns
        inside = member[t]
        member[inner] = False
        rhs = np.zeros((k, width))
        rhs[:, -1] = 1.0
        out = ~inside
        np.add.at(rhs, rows[out], p[out, None] * values[t[out]])
        if inside.any():
            matrix = np.eye(k)
            np.add.at(matrix, (rows[inside], position[t[inside]]), -p[inside])
            values[inner] = np.linalg.solve(matrix, rhs)
        else:
            values[inner] = rhs
    return values


__all__ = ["BLOCK", "LARGEST", "arrays", "blocks", "edge_rows", "solve_linear"]


#: Strategy-improvement rounds a component may take before it is swept instead.
MAX_ROUNDS = 60
#: A player switches to another move only when it is better by more than this.
SWITCH = 1e-12


def optimal_values(store: StateStore, groups: Sequence[Sequence[int]]) -> tuple[np.ndarray, int] | None:
    """Return seat 0's value of every state of a complete two-player graph under optimal play
    (seat 0 maximises, seat 1 minimises; a terminal state is worth +1, -1 or 0) and the most
    improvement rounds a component took; None when a component is larger than ``LARGEST`` or
    does not settle (the caller then sweeps it).

    Each cyclic component is solved by strategy improvement: from one Gauss-Seidel sweep's
    values, each player takes the move best by the current values (keeping its move on a tie),
    the component's linear system under those moves is solved exactly (dense LU), and again
    until no player switches. The values are then a fixed point of the Bellman operator with
    each state's own move attaining it, which is what value iteration converges to; a
    component that does not settle within ``MAX_ROUNDS`` rounds, or whose moves lead to a
    singular system (a cycle the moves never leave), makes this return None.
    """
    if any(len(g) > LARGEST for g in groups):
        return None
    n = len(store)
    actors, offsets, targets, probs = arrays(store)
    values = np.zeros(n)
    winners = np.frombuffer(store.winners, dtype=np.uint32).astype(np.int64) if n else None
    terminal = actors == TERMINAL_NODE
    if winners is not None:
        values[terminal] = ((winners & 1) - ((winners >> 1) & 1))[terminal]
    position = np.zeros(n, dtype=np.int64)
    member = np.zeros(n, dtype=bool)
    most = 0
    for group in groups:
        states = np.array(sorted(group, reverse=True), dtype=np.int64)
        states = states[actors[states] != TERMINAL_NODE]
        if len(states) == 0:
            continue
        edges, rows = edge_rows(offsets, states)
        t = targets[edges]
        p = probs[edges]
        kind = actors[states]  # CHANCE_NODE, 0 or 1
        # One Gauss-Seidel sweep, states found last first: exact for a state without a loop.
        _sweep(values, states, kind, offsets, targets, probs)
        k = len(states)
        member[states] = True
        inside = member[t]
        member[states] = False
        if k == 1 and not inside.any():
            continue
        position[states] = np.arange(k)
        chance = kind[rows] == CHANCE
        rounds = _improve(values, states, kind, rows, t, p, chance, inside, position, k)
        if rounds is None:
            return None
        most = max(most, rounds)
    return values, most


CHANCE = -1


def _sweep(values: np.ndarray, states: np.ndarray, kind: np.ndarray, offsets: np.ndarray,
           targets: np.ndarray, probs: np.ndarray) -> None:
    for s, actor in zip(states.tolist(), kind.tolist(), strict=True):
        a, b = int(offsets[s]), int(offsets[s + 1])
        reach = values[targets[a:b]]
        if actor == CHANCE:
            values[s] = float(np.dot(probs[a:b], reach))
        elif actor == 0:
            values[s] = float(reach.max())
        else:
            values[s] = float(reach.min())


def _improve(values: np.ndarray, states: np.ndarray, kind: np.ndarray, rows: np.ndarray,
             t: np.ndarray, p: np.ndarray, chance: np.ndarray, inside: np.ndarray,
             position: np.ndarray, k: int) -> int | None:
    """Strategy improvement on one component; return its rounds, or None (see above)."""
    player = ~chance
    sign = np.where(kind[rows] == 0, 1.0, -1.0)  # seat 1 maximises minus the value
    chosen: np.ndarray | None = None
    for rounds in range(1, MAX_ROUNDS + 1):
        score = sign * values[t]
        score[chance] = -np.inf
        best = np.full(k, -np.inf)
        np.maximum.at(best, rows, score)
        # A player's move: its current one unless another beats it by more than SWITCH.
        good = player & (score >= best[rows] - SWITCH)
        if chosen is not None:
            keep = good & chosen
            kept = np.zeros(k, dtype=bool)
            kept[rows[keep]] = True
            good &= ~kept[rows] | chosen
        first = np.full(k, len(rows))
        np.minimum.at(first, rows[good], np.flatnonzero(good))
        pick = np.zeros(len(rows), dtype=bool)
        pick[first[first < len(rows)]] = True
        if chosen is not None and np.array_equal(pick, chosen):
            return rounds
        chosen = pick
        weight = np.where(chance, p, pick.astype(float))
        rhs = np.zeros(k)
        out = ~inside
        np.add.at(rhs, rows[out], weight[out] * values[t[out]])
        matrix = np.eye(k)
        np.add.at(matrix, (rows[inside], position[t[inside]]), -weight[inside])
        try:
            solved = np.linalg.solve(matrix, rhs)
        except np.linalg.LinAlgError:
            return None
        if not np.all(np.isfinite(solved)):
            return None
        values[states] = solved
    return None
