"""Seat symmetry: states equal up to a rotation of the seats are one state (issue 42 item 3).

A game whose seats are interchangeable up to the turn order declares it on its state schema
(``x-verify: {rotate: {seats: [...], seat: [...]}}``: the lists with one item per seat, and the
fields that name seats; ``rulespec.spec.verify_views``). TLC calls this a symmetry set.
Rotating a state by ``r`` relabels seat ``j + r`` as seat ``j``: a list indexed by seat becomes
``L[r:] + L[:r]`` and a seat number ``s`` becomes ``(s - r) mod n``.

The key of a state is the least of its rotations' keys (each taken under the view, kept
expressions evaluated on the rotated state); the rotation that gives it is the state's *frame*.
Engines are never rotated: the explorer keeps the engine first found with a key and records, on
each edge, the rotation between the child reached and that representative, so ``unfold`` can
rebuild the graph of states as reached, with every seat's own figures, for the outcome solvers.
Whether the game really is symmetric is checked as merges are (``rulespec.verify.explore``):
an engine merged into a rotated representative must behave as the representative does, rotated,
one step ahead; and the invariants that read a seat field are checked on every rotation of each
state found (an over-approximation: a rotation no play reaches is checked too).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from rulespec.verify.keys import View, ViewError, _abstract, _lookup, split_path
from rulespec.verify.store import CHANCE_NODE, TERMINAL_NODE, StateStore


class SymmetryError(ViewError):
    """A seat field that does not hold what its declaration says."""


@dataclass(frozen=True)
class Seats:
    """The fields a rotation of the seats changes: lists indexed by seat, and seat numbers."""

    #: Dotted paths of lists with one item per seat (``scores``, ``result.scores``); a ``*``
    #: stands for every item of a list (``history.*.coins_at_end``).
    lists: tuple[str, ...] = ()
    #: Dotted paths of fields that name seats: a seat number, or lists of them at any depth
    #: (``turn``, ``result.ranking``); other values (``null``, ``"chance"``) are kept. A list
    #: of seat numbers is a set of seats, in ascending order.
    numbers: tuple[str, ...] = ()

    def bind(self, players: int) -> Rotation:
        """Return the rotations of a configuration of ``players`` seats."""
        return Rotation(self, players)


class Rotation:
    """The rotations of one player count, applied to canonical states."""

    def __init__(self, seats: Seats, players: int) -> None:
        self.seats = seats
        self.players = players
        self._ops = ([(split_path(p), True) for p in seats.lists]
                     + [(split_path(p), False) for p in seats.numbers])
        #: The paths as a tree: a field's name to True (a list by seat), False (names seats)
        #: or the tree of the object it holds.
        self._plan: dict[str, Any] = {}
        for parts, is_list in self._ops:
            node = self._plan
            for part in parts[:-1]:
                node = node.setdefault(part, {})
            node[parts[-1]] = is_list
        #: The last few rotations made, by the state object rotated (held, so its id is its
        #: own): a search rotates each child to key it and then, to check the transition
        #: invariants on the rotated seats, the child and its parent again.
        self._recent: list[tuple[Any, int, Any]] = []
        #: By view: the top-level seat fields its key holds (name, a list by seat, the term).
        self._held: dict[int, tuple[View, object, list[tuple[str, bool, str, int]]]] = {}

    def fields(self) -> frozenset[str]:
        """Return the top-level fields a rotation changes."""
        return frozenset(parts[0] for parts, _ in self._ops)

    def check(self, state: Mapping[str, Any]) -> None:
        """Refuse a declared list that is not one item per seat, and a path the state lacks."""
        for parts, is_list in self._ops:
            if "*" in parts:
                continue  # items of a list, empty at the start
            if parts[0] not in state:
                raise SymmetryError(f"seat field {'.'.join(parts)}: the canonical state has no "
                                    f"field {parts[0]!r}; its fields are {', '.join(state)}")
            value = _lookup(state, parts)
            if is_list and value is not None and (not isinstance(value, list)
                                                  or len(value) != self.players):
                raise SymmetryError(f"seats of {'.'.join(parts)}: it holds {value!r:.60}, not a "
                                    f"list of one item per seat ({self.players})")

    def rotate(self, state: Mapping[str, Any], r: int) -> Any:
        """Return ``state`` with seat ``j + r`` relabelled ``j`` (a copy where it changes)."""
        r %= self.players
        if r == 0:
            return state
        recent = self._recent
        for seen, k, out in recent:
            if seen is state and k == r:  # canonical states are never changed in place
                return out
        out = _turned(state, self._plan, r, self.players)
        recent.append((state, r, out))
        if len(recent) > RECENT:
            del recent[0]
        return out

    def canonical(self, view: View, state: Mapping[str, Any]) -> tuple[bytes, tuple[int, ...]]:
        """Return the key of the least rotation of ``state`` and every rotation giving it, least
        first (the first is the state's frame; more than one when the state is its own
        rotation).

        Rotations are ordered by the seat fields the key holds, as the rotated key holds them
        (``_seat_values``), then by their keys: a rotation whose seat fields come before every
        other rotation's, or equal them, is the least without keying the others. Python may
        not order two rotations' values (null beside a number, a string beside a number one
        level down, a NaN); such a pair is passed over while the candidate is sought, and the
        candidate is kept only if it is then found ordered before or equal to every rotation.
        Whether the orbit has such a least rotation, and which values it holds, is the orbit's
        alone, not the order the rotations are met in; without one, every rotation is keyed.
        Both parts are read off the rotated key's content, so equal keys give equal orders and
        the least rotation of an orbit is one state's, whichever rotation of it is met."""
        held = self._held_fields(view)
        first = self._seat_values(held, state)
        if first is None:
            return self._least(view, state, range(self.players))
        # Not None: the state is a dict with seat fields held, whichever rotation.
        values = cast("list[list[Any]]",
                      [first, *(self._seat_values(held, state, r) for r in range(1, self.players))])
        best = first
        for other in values:
            try:  # noqa: SIM105 (per child state: contextlib.suppress costs more)
                best = min(best, other)  # the first of equals stays
            except TypeError:  # not ordered with the candidate: the check below decides
                pass
        tied: list[int] = []
        try:
            for r, other in enumerate(values):
                if other == best:
                    tied.append(r)
                elif not best < other:
                    raise TypeError("no order")  # a NaN: neither less, equal nor greater
        except TypeError:  # no rotation ordered before every other one: key them all
            return self._least(view, state, range(self.players))
        if len(tied) == 1:
            return view.key(self.rotate(state, tied[0])), (tied[0],)
        return self._least(view, state, tied)

    def _least(self, view: View, state: Mapping[str, Any],
               rotations: Any) -> tuple[bytes, tuple[int, ...]]:
        """Return the least key over ``rotations`` of ``state`` and the rotations giving it."""
        best = b""
        frames: list[int] = []
        for r in rotations:
            key = view.key(self.rotate(state, r))
            if not frames or key < best:
                best, frames = key, [r]
            elif key == best:
                frames.append(r)
        return best, tuple(frames)

    def _held_fields(self, view: View) -> list[tuple[str, bool, str, int]]:
        """Return the top-level seat fields that ``view``'s key holds: each one's name, whether
        it is a list by seat (else it names seats), and the view's term on it (``View.held``)."""
        # Remembered per view and per binding of it: binding it again (other parameters) makes
        # its terms anew, with other ceilings.
        found = self._held.get(id(view))
        if found is None or found[0] is not view or found[1] is not view.terms_made:
            found = (view, view.terms_made,
                     [(name, op, *held) for name, op in self._plan.items()
                      if type(op) is bool and (held := view.held(name)) is not None])
            self._held[id(view)] = found
        return found[2]

    def _seat_values(self, held: list[tuple[str, bool, str, int]], state: Mapping[str, Any],
                     r: int = 0) -> list[Any] | None:
        """Return the seat fields ``held`` (``_held_fields``) as the key of ``state`` rotated
        by ``r`` holds them (None: there are none, or the state is not a dict).

        Python's order of these values is an order of the keys' contents wherever it is one:
        values it finds equal (``1`` and ``1.0``) are told apart by the keys, values it does
        not order raise TypeError."""
        if not held or type(state) is not dict:
            return None
        n = self.players
        values: list[Any] = []
        for name, is_list, kind, ceiling in held:
            value = state.get(name)
            if r:
                value = _turned_item(value, is_list, r, n)
            values.append(_abstract(value, kind, ceiling) if kind else value)
        return values


#: Rotations remembered (``Rotation.rotate``): a parent and its children's, for most games.
RECENT = 8


def _relabel(value: Any, r: int, n: int) -> Any:
    """Return seat numbers relabelled; a list of seat numbers is a set of seats, kept in
    ascending order (winners, a place of a ranking); a list of lists keeps its order."""
    if type(value) is int and 0 <= value < n:
        return (value - r) % n
    if isinstance(value, list):
        out = [_relabel(v, r, n) for v in value]
        if out and all(type(v) is int for v in out):
            out.sort()
        return out
    return value


def _turned(value: Any, plan: Mapping[str, Any], r: int, n: int) -> Any:
    """Return an object with the fields of ``plan`` rotated (one copy of each level; ``*``:
    each item of a list)."""
    if isinstance(value, list) and "*" in plan:
        return [_turned_item(v, plan["*"], r, n) for v in value]
    if not isinstance(value, dict):
        return value
    copy = dict(value)
    for name, op in plan.items():
        if name not in copy:
            continue
        inner = copy[name]
        if op is True:
            if isinstance(inner, list) and len(inner) == n:
                copy[name] = inner[r:] + inner[:r]
        elif op is False:
            copy[name] = _relabel(inner, r, n)
        else:
            copy[name] = _turned(inner, op, r, n)
    return copy


def _turned_item(value: Any, op: Any, r: int, n: int) -> Any:
    if op is True:
        return value[r:] + value[:r] if isinstance(value, list) and len(value) == n else value
    if op is False:
        return _relabel(value, r, n)
    return _turned(value, op, r, n)


def rotate_mask(mask: int, r: int, n: int) -> int:
    """Return a bit mask of seats with seat ``s`` relabelled ``(s - r) mod n``."""
    out = 0
    for s in range(n):
        if mask >> s & 1:
            out |= 1 << ((s - r) % n)
    return out


def unfold(store: StateStore, rotations: array[int], players: int) -> StateStore:
    """Return the graph of states as reached, from a graph of states up to rotation.

    ``rotations[k]`` is the rotation of edge ``k``: the child reached is its target's
    representative rotated by it. The state ``(t, a)`` is representative ``t`` rotated by
    ``a``; from ``(s, a)`` edge ``k`` leads to ``(t, a + rotations[k])``. Only the pairs
    reachable from the start ``(0, 0)`` are made; the expanded ones come first, as the solvers
    expect. Move probabilities are shared with ``store``.
    """
    n = players
    expanded = store.expanded
    number: dict[int, int] = {0: 0}
    order = [0]
    head = 0
    offsets, targets = store.offsets, store.targets
    while head < len(order):
        pair = order[head]
        head += 1
        s, a = divmod(pair, n)
        if s >= expanded:
            continue
        for k in range(offsets[s], offsets[s + 1]):
            child = targets[k] * n + (a + rotations[k]) % n
            if child not in number:
                number[child] = len(order)
                order.append(child)
    ranked = ([p for p in order if p // n < expanded] + [p for p in order if p // n >= expanded])
    index = {p: i for i, p in enumerate(ranked)}
    out = StateStore()
    out.probabilities = store.probabilities
    actors, winners = store.actors, store.winners
    for pair in ranked:
        s, a = divmod(pair, n)
        actor = actors[s]
        seat = actor if actor in (CHANCE_NODE, TERMINAL_NODE) else (actor - a) % n
        out.add(pair, -1, 0, seat, rotate_mask(winners[s], a, n))
    for pair in ranked:
        s, a = divmod(pair, n)
        if s >= expanded:
            break
        for k in range(offsets[s], offsets[s + 1]):
            child = index[targets[k] * n + (a + rotations[k]) % n]
            if out.parents[child] == -1 and child != 0:
                out.parents[child] = index[pair]
                out.moves[child] = k - offsets[s]
            out.add_edge(child, store.edge_probabilities[k])
        out.close_expansion()
    return out
