"""The explored state graph, stored compactly: fingerprints, parents, moves and edges in arrays.

A state is not kept as an engine or a JSON document once it is expanded: what stays is its
64-bit fingerprint (TLC keeps fingerprints too), the state it was first reached from and by
which move (enough to rebuild the shortest path and replay it), who moves in it, the winners
when it is terminal, and its outgoing edges (target state, probability). States are numbered
in the order breadth-first search finds them, so a state's number orders it by depth and the
expanded states are always the first ones.

The fingerprint set is an open-addressing table of state numbers (``array('i')``, kept at most
half full) whose entries are compared through the fingerprint array, so a state costs a handful
of machine words instead of the hundred-odd bytes a Python ``dict`` of ``int`` keys spends.
``bytes_used`` adds up every array's buffer: the figure ``rulespec verify`` reports per state.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from fractions import Fraction

#: ``actors`` value of a chance node; a player is their seat (0 and up).
CHANCE_NODE = -1
#: ``actors`` value of a terminal state.
TERMINAL_NODE = -2

_EMPTY = -1
_FIRST_SIZE = 1 << 10


class CapacityError(Exception):
    """The graph outgrew what its arrays can number (2**31 states or 2**32 edges)."""


class StateStore:
    """Every distinct state found, its first parent and move, and the edges of expanded ones."""

    def __init__(self) -> None:
        self.fingerprints = array("Q")
        self.parents = array("i")
        self.moves = array("I")
        self.actors = array("b")
        #: Winners of a terminal state as a bit mask of seats (0 elsewhere).
        self.winners = array("I")
        #: ``offsets[i]:offsets[i + 1]`` are the edges of expanded state ``i``.
        self.offsets = array("I", [0])
        #: What each closed state does one step ahead, hashed (kept only when merges are checked).
        self.digests = array("Q")
        self.targets = array("I")
        self.edge_probabilities = array("H")
        #: Distinct edge probabilities; an edge stores the index of its own.
        self.probabilities: list[Fraction] = []
        self._probability_ids: dict[Fraction, int] = {}
        self._by_object: dict[int, tuple[Fraction, int]] = {}
        self._table = array("i", [_EMPTY]) * _FIRST_SIZE
        self._mask = _FIRST_SIZE - 1

    # -- the fingerprint set ----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.fingerprints)

    def find(self, fingerprint: int) -> int:
        """Return the number of the state with ``fingerprint``, or -1 when there is none."""
        table, fps, mask = self._table, self.fingerprints, self._mask
        slot = fingerprint & mask
        while True:
            index = table[slot]
            if index == _EMPTY or fps[index] == fingerprint:
                return index
            slot = (slot + 1) & mask

    def add(self, fingerprint: int, parent: int, move: int, actor: int, winners: int = 0) -> int:
        """Record a new state (its fingerprint must not be known) and return its number."""
        index = len(self.fingerprints)
        if index >= 2**31 - 1:
            raise CapacityError("more than 2**31 states: beyond what this store numbers")
        self.fingerprints.append(fingerprint)
        self.parents.append(parent)
        self.moves.append(move)
        self.actors.append(actor)
        self.winners.append(winners)
        if 2 * (index + 1) > len(self._table):
            self._grow()
        else:
            self._place(index)
        return index

    def _place(self, index: int) -> None:
        table, mask = self._table, self._mask
        slot = self.fingerprints[index] & mask
        while table[slot] != _EMPTY:
            slot = (slot + 1) & mask
        table[slot] = index

    def _grow(self) -> None:
        size = len(self._table) * 2
        self._table = array("i", [_EMPTY]) * size
        self._mask = size - 1
        for index in range(len(self.fingerprints)):
            self._place(index)

    # -- edges -------------------------------------------------------------------------------------

    @property
    def expanded(self) -> int:
        """Return how many states are expanded (always states ``0 .. expanded - 1``)."""
        return len(self.offsets) - 1

    def probability_id(self, p: Fraction) -> int:
        """Return the index of probability ``p`` in ``probabilities`` (added if new)."""
        # By the object first: engines hand out the same few Fraction objects again and again,
        # and a Fraction's hash is computed in Python at every lookup. Each entry keeps its
        # object alive, so its id is not reused meanwhile.
        known = self._by_object.get(id(p))
        if known is not None and known[0] is p:
            return known[1]
        found = self._probability_ids.get(p)
        if len(self._by_object) < 4096:
            self._by_object[id(p)] = (p, found if found is not None else len(self.probabilities))
        if found is None:
            found = self._probability_ids[p] = len(self.probabilities)
            if found >= 2**16:
                raise CapacityError("more than 65,536 distinct move probabilities")
            self.probabilities.append(p)
        return found

    def add_edge(self, target: int, probability_id: int) -> None:
        """Add an edge of the state being expanded."""
        self.targets.append(target)
        self.edge_probabilities.append(probability_id)

    def close_expansion(self) -> None:
        """Mark the state being expanded as done (its edges are the ones added since)."""
        if len(self.targets) >= 2**32:
            raise CapacityError("more than 2**32 transitions: beyond what this store numbers")
        self.offsets.append(len(self.targets))

    def edges(self, index: int) -> Iterator[tuple[int, Fraction]]:
        """Yield the edges of an expanded state: (target, exact probability)."""
        probabilities = self.probabilities
        for k in range(self.offsets[index], self.offsets[index + 1]):
            yield self.targets[k], probabilities[self.edge_probabilities[k]]

    def path(self, index: int) -> list[int]:
        """Return the move numbers from the start to ``index`` (the BFS tree's path)."""
        moves: list[int] = []
        while index > 0:
            moves.append(self.moves[index])
            index = self.parents[index]
        moves.reverse()
        return moves

    def bytes_used(self) -> int:
        """Return the bytes of every array buffer (the probability table aside)."""
        arrays = (self.fingerprints, self.parents, self.moves, self.actors, self.winners,
                  self.offsets, self.digests, self.targets, self.edge_probabilities, self._table)
        return sum(a.buffer_info()[1] * a.itemsize for a in arrays)


def winners_mask(winners: object, players: int) -> int:
    """Return the seats of a result's ``winners`` list as a bit mask (0 if it is not one)."""
    mask = 0
    if isinstance(winners, list):
        for w in winners:
            if type(w) is int and 0 <= w < players:
                mask |= 1 << w
    return mask
