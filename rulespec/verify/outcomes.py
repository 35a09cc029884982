"""Outcome probabilities on the explored graph: uniform random players, and optimal play.

Under uniform random players the game is a Markov chain: a chance node moves with its exact
probabilities, a player picks each legal action with probability 1/k. For every state the
solver computes each seat's probability of being among the winners, the probability of
reaching a state the search did not expand (0 when the search is complete: each win
probability then lies between its value and its value plus this one), and the expected number
of actions to the end (counting chance moves, as the impact lab counts a game's length).

The graph's strongly connected components are solved sinks first. A component of one state
without a loop is a weighted sum of solved values, exact in fractions. A component with
cycles is a linear system, solved by eliminating its states one by one (sparse Gaussian
elimination) in exact fractions while the work stays under a budget, else in floating point:
the figures are then exact to about 1e-12, and reported as such. Exact figures that grow past
``EXACT_BITS`` (longer than any report writes) stop the exact solve: the whole graph is then
solved in floating point, and the outcomes say so (``Outcomes.outgrew``).

Optimal play (two players, as OpenSpiel solves Pig): value iteration on the zero-sum game
where seat 0 scores 1 for winning alone, -1 for losing alone and 0 for a shared win, then the
win probabilities of the two optimal strategies, solved as above with each player's choice
fixed.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from operator import mul
from typing import Any

from rulespec.verify.graph import components
from rulespec.verify.store import CHANCE_NODE, TERMINAL_NODE, StateStore

Number = Fraction | float
#: Fraction multiply-adds a component may cost before it is solved in floating point instead.
EXACT_BUDGET = 400_000
#: Value iteration stops when no value moves by more than this.
TOLERANCE = 1e-13
MAX_SWEEPS = 100_000
#: Above this many states the outcomes of the optimal strategies are solved in floating point.
EXACT_OPTIMAL = 300_000
#: Exact fractions are kept while every state's figures fit in this many bits (about 3,600
#: decimal digits, as long as a report writes one: Python converts integers of up to 4,300
#: digits to text). Past it the figures are solved in floating point: the exact ones would cost
#: minutes to hours (Pig to 40 under uniform random players: fractions of 14,000 digits, nine
#: minutes) and no report could write them.
EXACT_BITS = 12_000


@dataclass(frozen=True)
class Outcomes:
    """Each seat's win probability, the unexplored mass and the expected length, from a state."""

    wins: tuple[Number, ...]
    #: Probability of reaching a state the search did not expand (0 when complete).
    unexplored: Number
    #: Expected number of actions to the end (chance moves included); a lower bound when the
    #: search is not complete.
    length: Number
    #: True when every figure is an exact fraction.
    exact: bool
    #: Asked for exact figures but solved in floating point because the fractions grew past
    #: ``EXACT_BITS``: the size they passed, in bits (0: not so).
    outgrew: int = 0

    def to_json(self) -> dict[str, Any]:
        """Return the figures as JSON: exact fractions as strings, with their decimal value."""
        return {"wins": [number_json(w) for w in self.wins],
                "unexplored": number_json(self.unexplored),
                "length": number_json(self.length), "exact": self.exact,
                "exact_bits_passed": self.outgrew or None}


def decimal_digits(n: int) -> int:
    """Return how many decimal digits ``n`` has (within one: from its bit length, so that an
    integer past Python's limit on converting one to a string is measured too)."""
    return max(1, int(abs(n).bit_length() * 0.30102999566398120) + 1)


def number_json(x: Number) -> dict[str, Any]:
    """Return a figure as JSON: ``exact`` its fraction as text (None in floating point, or past
    ``EXACT_BITS``, with ``exact_digits`` its denominator's size), ``value`` its decimal value."""
    if isinstance(x, Fraction):
        if _bits(x) > EXACT_BITS:
            # Past Python's limit on converting an integer to a string (4,300 digits).
            return {"exact": None, "value": float(x),
                    "exact_digits": decimal_digits(x.denominator)}
        return {"exact": str(x), "value": float(x)}
    return {"exact": None, "value": x}


def _bits(x: Fraction) -> int:
    """Return the bits of the larger of a fraction's numerator and denominator."""
    return max(x.numerator.bit_length(), x.denominator.bit_length())


class _Outgrown(Exception):
    """An exact figure grew past the bits allowed (its size in bits)."""


class _Solver:
    """Solve value vectors ``(win_0, ..., win_{n-1}, unexplored, length)`` for every state."""

    def __init__(self, store: StateStore, players: int, choice: Sequence[int] | None,
                 exact: bool, bits: int | None = None) -> None:
        self.store = store
        #: Exact: the most bits a figure's numerator or denominator may take (None: any).
        self.bits = bits
        self.players = players
        self.width = players + 2
        #: Per player state: the edge taken (an index into the edge arrays), or -1: uniform.
        self.choice = choice
        self.exact = exact
        self.values: list[list[Number] | None] = [None] * len(store)
        self.all_exact = exact

    def _zero(self) -> list[Number]:
        return [Fraction(0) if self.exact else 0.0] * self.width

    def _fixed(self, state: int) -> list[Number] | None:
        """Return the value of a terminal or unexpanded state (None for the others)."""
        store = self.store
        one: Number = Fraction(1) if self.exact else 1.0
        if store.actors[state] == TERMINAL_NODE:
            value = self._zero()
            mask = store.winners[state]
            for seat in range(self.players):
                if mask >> seat & 1:
                    value[seat] = one
            return value
        if state >= store.expanded:
            value = self._zero()
            value[self.players] = one
            return value
        return None

    def _edges(self, state: int) -> list[tuple[int, Number]]:
        store = self.store
        start, end = store.offsets[state], store.offsets[state + 1]
        if self.choice is not None and store.actors[state] >= 0 and self.choice[state] >= 0:
            return [(store.targets[self.choice[state]], Fraction(1) if self.exact else 1.0)]
        probabilities = store.probabilities
        if self.exact:
            return [(store.targets[k], probabilities[store.edge_probabilities[k]])
                    for k in range(start, end)]
        return [(store.targets[k], float(probabilities[store.edge_probabilities[k]]))
                for k in range(start, end)]

    def solve(self) -> list[list[Number] | None]:
        """Solve every state's figures, sinks first (``_Outgrown``: an exact figure passed the
        solver's ``bits``)."""
        bits = self.bits if self.exact else None
        values = self.values
        for group in components(self.store):
            if len(group) == 1:
                fixed = self._fixed(group[0])
                if fixed is not None:
                    values[group[0]] = fixed
                    continue
            self._component(group)
            if bits is not None:
                for s in group:
                    for x in values[s] or ():
                        if isinstance(x, Fraction) and _bits(x) > bits:
                            raise _Outgrown(_bits(x))
        return values

    def _component(self, group: list[int]) -> None:
        members = set(group)
        rows: dict[int, dict[int, Number]] = {}
        rhs: dict[int, list[Number]] = {}
        for s in group:
            row: dict[int, Number] = {}
            b = self._zero()
            b[-1] += 1
            for t, p in self._edges(s):
                if t in members:
                    row[t] = row.get(t, 0) + p
                else:
                    value = self.values[t]
                    assert value is not None  # solved: components come sinks first
                    for c in range(self.width):
                        b[c] += p * _like(value[c], self.exact)
            rows[s], rhs[s] = row, b
        if len(group) == 1 and not rows[group[0]]:
            self.values[group[0]] = rhs[group[0]]
            return
        if not self.exact and len(group) > ITERATE_ABOVE:
            # A large component in floating point: iterated (elimination's fill-in grows
            # with the component).
            self.all_exact = False
            for s, value in _iterate(group, rows, rhs).items():
                self.values[s] = value
            return
        solved = _eliminate(group, rows, rhs, EXACT_BUDGET if self.exact else None)
        if solved is None:  # over budget: the same in floating point
            self.all_exact = False
            frows: dict[int, dict[int, Number]] = {
                s: {t: float(p) for t, p in r.items()} for s, r in rows.items()}
            frhs: dict[int, list[Number]] = {s: [float(x) for x in b] for s, b in rhs.items()}
            solved = _eliminate(group, frows, frhs, None)
            assert solved is not None
        for s, value in solved.items():
            self.values[s] = value


def _like(x: Number, exact: bool) -> Number:
    return x if exact or isinstance(x, float) else float(x)


#: Floating-point components of more states than this are solved by iteration.
ITERATE_ABOVE = 64


def _iterate(group: list[int], rows: dict[int, dict[int, Number]],
             rhs: dict[int, list[Number]]) -> dict[int, list[Number]]:
    """Solve ``x_s = sum(rows[s][t] * x_t) + rhs[s]`` in floating point by Gauss-Seidel sweeps,
    the states found last first (within a component of a game, the later states of a turn
    lead back to its earlier ones), until no figure moves by more than ``TOLERANCE`` (relative
    to its size, for expected lengths)."""
    order = sorted(group, reverse=True)
    frows = [[(t, float(p)) for t, p in rows[s].items()] for s in order]
    fb = [[float(x) for x in rhs[s]] for s in order]
    width = len(fb[0])
    x: dict[int, list[float]] = {s: [0.0] * width for s in order}
    for _ in range(MAX_SWEEPS):
        change = 0.0
        for s, row, b in zip(order, frows, fb, strict=True):
            new = list(b)
            for t, p in row:
                xt = x[t]
                for col in range(width):
                    new[col] += p * xt[col]
            old = x[s]
            for col in range(width):
                d = abs(new[col] - old[col]) / max(1.0, abs(new[col]))
                change = max(change, d)
            x[s] = new
        if change < TOLERANCE:
            break
    return {s: list(v) for s, v in x.items()}


def _eliminate(group: list[int], rows: dict[int, dict[int, Number]],
               rhs: dict[int, list[Number]], budget: int | None) -> dict[int, list[Number]] | None:
    """Solve ``x_s = sum(rows[s][t] * x_t) + rhs[s]`` for the states of ``group`` by eliminating
    them in turn; None when the work passes ``budget`` multiply-adds (``rows`` and ``rhs`` are
    left as they were)."""
    rows = {s: dict(r) for s, r in rows.items()}
    rhs = {s: list(b) for s, b in rhs.items()}
    preds: dict[int, set[int]] = {s: set() for s in group}
    for s, row in rows.items():
        for t in row:
            preds[t].add(s)
    width = len(next(iter(rhs.values())))
    done: list[tuple[int, dict[int, Number], list[Number]]] = []
    work = 0
    for k in group:
        row = rows.pop(k)
        loop = row.pop(k, None)
        preds[k].discard(k)
        scale = 1 if loop is None else 1 / (1 - loop)
        row = {t: p * scale for t, p in row.items()}
        b: list[Number] = [x * scale for x in rhs.pop(k)]
        work += len(row) + width
        for t in row:
            preds[t].discard(k)
        for i in preds.pop(k):
            target = rows[i]
            c = target.pop(k)
            for t, p in row.items():
                target[t] = target.get(t, 0) + c * p
                preds[t].add(i)
            bi = rhs[i]
            for col in range(width):
                bi[col] += c * b[col]
            work += len(row) + width
        if budget is not None and work > budget:
            return None
        done.append((k, row, b))
    values: dict[int, list[Number]] = {}
    for k, row, b in reversed(done):
        value: list[Number] = list(b)
        for t, p in row.items():
            vt = values[t]
            for col in range(width):
                value[col] += p * vt[col]
        values[k] = value
    return values


def uniform_outcomes(store: StateStore, players: int, *, exact: bool = True,
                     choice: Sequence[int] | None = None, dense: bool = True,
                     exact_bits: int | None = EXACT_BITS) -> Outcomes:
    """Return the outcomes from the start under uniform random players (or, with ``choice``,
    under the players' fixed choices). In floating point the equations are solved in dense
    blocks (``rulespec.verify.numeric``) unless ``dense`` is false (component by component,
    by elimination or sweeps, as before).

    ``exact``: in exact fractions while every state's figures fit in ``exact_bits`` bits (None:
    however large they grow); past that in floating point, ``Outcomes.outgrew`` saying so."""
    if exact:
        solver = _Solver(store, players, choice, exact, exact_bits)
        try:
            values = solver.solve()
        except _Outgrown as grown:
            inexact = uniform_outcomes(store, players, exact=False, choice=choice, dense=dense)
            return replace(inexact, outgrew=grown.args[0])
        return _root(solver, values, players)
    if dense:
        from rulespec.verify.numeric import solve_linear

        solved = solve_linear(store, players, components(store), choice)
        if solved is not None:
            root_row = [float(x) for x in solved[0]]
            return Outcomes(tuple(root_row[:players]), root_row[players],
                            root_row[players + 1], False)
    solver = _Solver(store, players, choice, exact)
    return _root(solver, solver.solve(), players)


def _root(solver: _Solver, values: list[list[Number] | None], players: int) -> Outcomes:
    root = values[0]
    assert root is not None
    all_exact = solver.all_exact and all(isinstance(x, Fraction) for x in root)
    return Outcomes(tuple(root[:players]), root[players], root[players + 1], all_exact)


@dataclass(frozen=True)
class OptimalPlay:
    """The value of the start under optimal play, and the outcomes of the optimal strategies."""

    value: float
    outcomes: Outcomes
    sweeps: int


def optimal_play(store: StateStore, *, dense: bool = True) -> OptimalPlay:
    """Solve a complete two-player graph by value iteration (seat 0 maximises its utility: +1
    for winning alone, -1 for losing alone, 0 for a shared win; seat 1 minimises it).

    The strongly connected components are solved sinks first, each by Gauss-Seidel sweeps
    over its own states (the states found last first) until no value moves by more than
    ``TOLERANCE``: a component's successors outside it are final when it is swept. ``sweeps``
    is the most any component took.

    With ``dense`` (the default) each component is solved by strategy improvement on dense
    linear systems instead (``rulespec.verify.numeric.optimal_values``: the same fixed point,
    to rounding), falling back to the sweeps where that does not settle; ``sweeps`` is then
    the most improvement rounds a component took.
    """
    from rulespec.verify.numeric import optimal_values

    n = len(store)
    actors, offsets, targets = store.actors, store.offsets, store.targets
    groups = components(store)
    fast = optimal_values(store, groups) if dense else None
    if fast is not None:
        value = array("d", fast[0].tobytes())
        return _optimal(store, value, fast[1])
    probabilities = [float(p) for p in store.probabilities]
    edge_p = store.edge_probabilities
    value = array("d", bytes(8 * n))
    for s in range(n):
        if actors[s] == TERMINAL_NODE:
            mask = store.winners[s]
            value[s] = float((mask & 1) - (mask >> 1 & 1))
    most = 0
    for group in groups:
        order = [s for s in sorted(group, reverse=True) if actors[s] != TERMINAL_NODE]
        if not order:
            continue
        members = set(group) if len(group) > 1 else None
        # Each state's edges read once into lists, so that a sweep runs in C-level maps.
        rows = []
        for s in order:
            start, end = offsets[s], offsets[s + 1]
            actor = actors[s]
            tg = targets[start:end].tolist()
            weights = ([probabilities[p] for p in edge_p[start:end]]
                       if actor == CHANCE_NODE else None)
            rows.append((s, actor, tg, weights))
        get = value.__getitem__
        sweeps = 0
        while sweeps < MAX_SWEEPS:
            sweeps += 1
            change = 0.0
            for s, actor, tg, weights in rows:
                if weights is not None:
                    v = sum(map(mul, weights, map(get, tg)))
                elif actor == 0:
                    v = max(map(get, tg))
                else:
                    v = min(map(get, tg))
                d = abs(v - value[s])
                change = max(change, d)
                value[s] = v
            if change < TOLERANCE or (members is None and not _loops(store, order[0])):
                break
        most = max(most, sweeps)
    return _optimal(store, value, most)


def _optimal(store: StateStore, value: array[float], most: int) -> OptimalPlay:
    """Return the optimal play whose values are ``value``: each player's move the first
    attaining its best value, and the outcomes of those moves."""
    n = len(store)
    actors, offsets, targets = store.actors, store.offsets, store.targets
    choice = array("i", [-1]) * n
    for s in range(n):
        if actors[s] in (0, 1) and offsets[s + 1] > offsets[s]:
            start, end = offsets[s], offsets[s + 1]
            pick = max if actors[s] == 0 else min
            best = pick(value[targets[k]] for k in range(start, end))
            choice[s] = next(k for k in range(start, end)
                             if abs(value[targets[k]] - best) <= 1e-12)
    exact = n <= EXACT_OPTIMAL
    return OptimalPlay(value[0], uniform_outcomes(store, 2, choice=choice, exact=exact), most)


def _loops(store: StateStore, state: int) -> bool:
    """Return whether a state has an edge to itself."""
    targets = store.targets
    return any(targets[k] == state for k in range(store.offsets[state], store.offsets[state + 1]))
