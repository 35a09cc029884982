"""Merge walks: merged engines followed with their representatives past the one step the search
compares.

The search merges an engine into the state that has its key once their next step looks the
same (who moves, the moves and their probabilities, the successors' keys and labels). A view
that forgets a field play reads only several moves later passes that check: who started a
Ruby Rhino round is read when the round ends (``docs/editors/verification.md``, the findings).

So after the search, a sample of its merges is walked. For each, the engine the search merged
and the first engine found with the same key are rebuilt from their paths; both take the same
moves, drawn at random (seeded, so a run is repeatable), and at every state on the way their
next steps are compared as the search compares a merge. A walk ends when the two engines hold
the same memory (the same engine from there on: ``Cloner.memory``), when the game ends for
both, or at a step limit. Two engines with equal keys whose next steps differ, however far
along, are a ``KEY-BEHAVIOUR`` violation, with the two paths as traces.

A sample is not a proof: ``Walks.power`` says how rare a difference this many walks would
still have missed (the rule of three, one-sided, 95 %).
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulespec.verify.checks import Problem, Violation
from rulespec.verify.engines import replay

if TYPE_CHECKING:
    from rulespec.verify.explore import Exploration, Explorer

#: Merges walked after a search unless told otherwise (``--merge-walks``).
MERGE_WALKS = 300
#: Moves a walk takes at most before it is cut.
WALK_STEPS = 2000
#: The seed of the moves drawn (one run walks the same merges the same way every time).
SEED = 20261203


@dataclass
class Walks:
    """What the merge walks of one search did."""

    #: Merges in the graph (edges that are not the first way a state was reached).
    merges: int = 0
    walked: int = 0
    #: Moves taken by the walks (each by both engines).
    steps: int = 0
    #: Walks whose two engines came to the same memory (at once, or after some moves).
    converged: int = 0
    #: Walks that reached the end of the game with both engines alike.
    ended: int = 0
    #: Walks cut at ``WALK_STEPS`` moves with the engines still alike but not the same.
    cut: int = 0

    @property
    def power(self) -> float | None:
        """Return the least share of walks that must show a difference for these walks to
        have found one with probability 95 % (the rule of three, exactly: ``1 - 0.05 **
        (1 / n)``); None when nothing was walked."""
        if not self.walked:
            return None
        return float(1 - 0.05 ** (1 / self.walked))

    def to_json(self) -> dict[str, Any]:
        return {"merges": self.merges, "walked": self.walked, "steps": self.steps,
                "converged": self.converged, "ended": self.ended, "cut": self.cut,
                "power": self.power}


def merge_edges(exploration: Exploration, count: int,
                rng: random.Random) -> tuple[int, list[tuple[int, int, int]]]:
    """Return how many merges the graph has and up to ``count`` of them drawn at random
    without repeats, each as (parent, move, target), in the order of the graph's edges."""
    store = exploration.store
    offsets, targets, parents, moves = store.offsets, store.targets, store.parents, store.moves
    edges = offsets[-1]
    # Every state but the start was first reached by one edge; the other edges are merges.
    merges = edges - (len(store) - 1)
    if merges <= 0 or count <= 0:
        return max(merges, 0), []

    def edge(e: int) -> tuple[int, int, int] | None:
        parent = bisect_right(offsets, e) - 1
        move = e - offsets[parent]
        target = targets[e]
        if target != 0 and parents[target] == parent and moves[target] == move:
            return None  # the way the target was first reached
        return parent, move, target

    if merges <= count or merges * 4 <= edges:
        # Few merges, or few edges are merges: go through every edge (drawn from the list).
        found = [m for e in range(edges) if (m := edge(e)) is not None]
        picked = found if len(found) <= count else rng.sample(found, count)
        return merges, sorted(picked)
    chosen: dict[int, tuple[int, int, int]] = {}
    while len(chosen) < count:
        e = rng.randrange(edges)
        if e not in chosen and (m := edge(e)) is not None:
            chosen[e] = m
    return merges, [chosen[e] for e in sorted(chosen)]


@dataclass(frozen=True)
class Drawn:
    """The merges drawn to walk, as paths: what a walker needs of the search (it can be sent
    to another process without the graph)."""

    #: Merges in the graph.
    merges: int
    #: Each merge drawn: the path to the state first found with its key, and the path by
    #: which the merged engine came to it.
    paths: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    #: The random generator's state after the draw, from which the walks draw their moves.
    rng: Any


def draw_merges(exploration: Exploration, count: int) -> Drawn:
    """Draw up to ``count`` merges of ``exploration`` to walk (seeded: the same every run)."""
    rng = random.Random(SEED)
    merges, picked = merge_edges(exploration, count, rng)
    store = exploration.store
    return Drawn(merges, tuple((tuple(store.path(target)), (*store.path(parent), move))
                               for parent, move, target in picked), rng.getstate())


def walk_drawn(explorer: Explorer, drawn: Drawn,
               steps: int = WALK_STEPS) -> tuple[Walks, Violation | None]:
    """Walk the merges drawn (``draw_merges``; see the module) with ``explorer``'s view, keys
    and digests (an explorer of the same configuration, not run); return what the walks did
    and the first difference found."""
    rng = random.Random()
    rng.setstate(drawn.rng)
    walks = Walks()
    walks.merges = drawn.merges
    for first_path, other_path in drawn.paths:
        first, other = [*first_path], [*other_path]
        walks.walked += 1
        problem, taken = _walk(explorer, first, other, steps, rng, walks)
        if problem is not None:
            return walks, Violation(problem.kind, problem.message, tuple(first + taken),
                                    problem.clauses, problem.subject,
                                    tuple(other + taken) if problem.kind == "KEY-BEHAVIOUR"
                                    else None)
    return walks, None


def _walk(explorer: Explorer, first_path: list[int], other_path: list[int], limit: int,
          rng: random.Random, walks: Walks) -> tuple[Problem | None, list[int]]:
    """Walk one merge: return what went wrong (None: nothing) and the moves taken to it."""
    try:
        first = replay(explorer.start, first_path)
        other = replay(explorer.start, other_path)
    except Exception as exc:  # the search applied the same moves: an engine that is not stable
        return Problem("ENGINE-ERROR", f"replaying a merged state's path raised "
                       f"{type(exc).__name__}: {exc}"), []
    memory = explorer.cloner.memory
    taken: list[int] = []
    while True:
        mine = memory(first)
        if mine is not None and mine == memory(other):
            walks.converged += 1
            return None, taken
        if len(taken) >= limit:
            walks.cut += 1
            return None, taken
        # Each in its own frame: with seat symmetry the two may be rotations of each other.
        a = explorer._next(first, explorer._canon(first.state())[1], spend=False)
        b = explorer._next(other, explorer._canon(other.state())[1], spend=False)
        if isinstance(b, Problem):
            return b, taken
        if isinstance(a, Problem):
            return a, taken
        if a[0] != b[0]:
            return Problem("KEY-BEHAVIOUR", _message(explorer, len(taken))), taken
        moves = a[1]
        if not moves:
            walks.ended += 1
            return None, taken
        k = rng.randrange(len(moves))
        try:
            first.apply(moves[k][0])
            other.apply(b[1][k][0])
        except Exception as exc:
            return Problem("ENGINE-ERROR", f"a move of a merged state raised "
                           f"{type(exc).__name__}: {exc}"), taken
        taken.append(k)
        walks.steps += 1


def _message(explorer: Explorer, taken: int) -> str:
    text = ("a merged state and the state first found with its key (equal keys, alike one step "
            f"ahead) behave differently {taken} move(s) later along the same moves (who moves, "
            "the moves or their probabilities, the keys they lead to, or the result): the key "
            "does not determine the future, a merge walk found it")
    if explorer.view:
        text += f" under the view {explorer.view.describe()}"
    return text
