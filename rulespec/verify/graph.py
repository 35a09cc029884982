"""The end conditions, checked on the whole explored graph: no trap, and whether it is acyclic.

A *trap* is a reachable state from which no terminal state can be reached: the game can go on
forever there whatever happens (a cycle it cannot leave, or a state nobody can move in). The
graph is searched backwards from the terminal states; a state not found is a trap. States the
search did not expand (a bounded search's frontier) count as able to end, since what lies
beyond them is unknown.

The strongly connected components (Tarjan's algorithm, iterative: game graphs are deep) give
acyclicity (every component a single state without a loop) and the order in which outcome
probabilities are solved (``rulespec.verify.outcomes``): components come out sinks first.
"""

from __future__ import annotations

import weakref
from array import array
from collections import deque

from rulespec.verify.store import TERMINAL_NODE, StateStore


def reverse_edges(store: StateStore) -> tuple[array[int], array[int]]:
    """Return the predecessors of every state as (offsets, sources), the reverse of the edges."""
    n = len(store)
    counts = array("I", bytes(4 * (n + 1)))
    targets = store.targets
    for t in targets:
        counts[t + 1] += 1
    for i in range(n):
        counts[i + 1] += counts[i]
    fill = array("I", counts)
    sources = array("I", bytes(4 * len(targets)))
    offsets = store.offsets
    for s in range(store.expanded):
        for k in range(offsets[s], offsets[s + 1]):
            t = targets[k]
            sources[fill[t]] = s
            fill[t] += 1
    return counts, sources


def traps(store: StateStore) -> list[int]:
    """Return every expanded state that cannot reach a terminal state (or the frontier), in
    state-number order (the first is one of the nearest to the start)."""
    n = len(store)
    expanded = store.expanded
    able = bytearray(n)
    queue: deque[int] = deque()
    actors = store.actors
    for i in range(n):
        if actors[i] == TERMINAL_NODE or i >= expanded:
            able[i] = 1
            queue.append(i)
    offsets, sources = reverse_edges(store)
    while queue:
        t = queue.popleft()
        for k in range(offsets[t], offsets[t + 1]):
            s = sources[k]
            if not able[s]:
                able[s] = 1
                queue.append(s)
    return [i for i in range(expanded) if not able[i]]


def components(store: StateStore) -> list[list[int]]:
    """Return the strongly connected components, each a list of states, sinks first (the same
    list to every caller while the graph is unchanged: read it, do not change it).

    Iterative Tarjan: a component is emitted once everything reachable from it is, so solving
    in the returned order always finds a component's successors solved.
    """
    shape = (len(store), len(store.targets), store.expanded)
    found = _COMPONENTS.get(store)
    if found is not None and found[0] == shape:
        return found[1]
    out = _components(store)
    _COMPONENTS[store] = (shape, out)
    return out


#: The components of the graphs solved lately, by their store, with the graph's shape then (a
#: verification solves one graph's components three or four times: its cycles, the uniform
#: figures, optimal play and its strategies' figures; 6 s each for Pig to 100).
_COMPONENTS: weakref.WeakKeyDictionary[StateStore, tuple[tuple[int, int, int],
                                                         list[list[int]]]] = (
    weakref.WeakKeyDictionary())


def _components(store: StateStore) -> list[list[int]]:
    n = len(store)
    offsets, targets, expanded = store.offsets, store.targets, store.expanded
    index = array("i", [-1]) * n
    low = array("i", [0]) * n
    on_stack = bytearray(n)
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] != -1:
            continue
        work = [(root, offsets[root] if root < expanded else 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = 1
        while work:
            v, k = work[-1]
            end = offsets[v + 1] if v < expanded else 0
            if k < end:
                work[-1] = (v, k + 1)
                w = targets[k]
                if index[w] == -1:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = 1
                    work.append((w, offsets[w] if w < expanded else 0))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    w = stack.pop()
                    on_stack[w] = 0
                    group.append(w)
                    if w == v:
                        break
                out.append(group)
    return out


def has_loop(store: StateStore, state: int) -> bool:
    """Return True when an expanded state has an edge to itself."""
    if state >= store.expanded:
        return False
    return any(store.targets[k] == state
               for k in range(store.offsets[state], store.offsets[state + 1]))


def cyclic_components(store: StateStore, groups: list[list[int]]) -> list[list[int]]:
    """Return the components that hold a cycle (more than one state, or a loop)."""
    return [g for g in groups if len(g) > 1 or has_loop(store, g[0])]
