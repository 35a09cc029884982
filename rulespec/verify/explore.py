"""Explicit-state exploration: every reachable state, breadth first, every check in every state.

From the start position the explorer applies every move (each chance outcome and each legal
action) of every state it finds, identifying states by their key (``rulespec.verify.keys``),
as TLC explores a bounded model. Every new state is checked when it is found (the state schema,
its state and terminal invariants, who moves and what the moves are), every transition when it
is taken (its transition invariants), so the first violation found is one of the nearest to the
start: its path in the BFS tree is a shortest path, and no shorter one exists.

When a transition leads to a state already found (a *merge*), the engine reached there may
differ from the one first found with that key: it may carry memory the canonical state does
not show, or fields a view forgets. The explorer then checks that the two behave alike one step
ahead (same mover, same moves with the same probabilities, successors with the same keys) and
reports ``KEY-BEHAVIOUR`` otherwise; under a view the merged state's schema, result and moves
are checked as well, since they may differ from the representative's. A view that keeps
expressions over a transition (``keep(EXPR)`` reading ``prev`` or ``action``) labels each move
with their values, and the labels are compared with the moves; a terminal state's future is its
winners and the rest of its result as the view keeps it.
"""

from __future__ import annotations

import dataclasses
import gc
import resource
import sys
import time
from array import array
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rulespec.reference.core import Action, Engine, IllegalAction
from rulespec.verify.checks import Problem, StateChecks, Violation
from rulespec.verify.cloning import Cloner
from rulespec.verify.decides import Abstraction
from rulespec.verify.engines import (
    Moves,
    attribute_differences,
    behaviour,
    decided,
    digest_text,
    node_code,
    replay,
)
from rulespec.verify.keys import View, fingerprint, key_bytes
from rulespec.verify.memo import Fields
from rulespec.verify.store import TERMINAL_NODE, StateStore, winners_mask
from rulespec.verify.symmetry import Rotation, Seats

#: Called about once a second with the figures so far.
Progress = Callable[["Stats"], None]

#: Merges whose two engines are compared attribute by attribute, to name the hidden memory.
MEMORY_SAMPLES = 32


@dataclass
class Stats:
    """What an exploration found and spent, as TLC reports it."""

    states: int = 0
    transitions: int = 0
    depth: int = 0
    terminals: int = 0
    queued: int = 0
    merges: int = 0
    merges_checked: int = 0
    seconds: float = 0.0
    #: CPU seconds of this process (a busy machine's waiting not counted), and of the workers
    #: it shared the search out to (``rulespec.verify.parallel``).
    cpu_seconds: float = 0.0
    store_bytes: int = 0
    #: This process's peak resident memory; the workers' is ``workers_rss``.
    peak_rss: int = 0
    #: The worker processes the search was shared out to (``rulespec.verify.parallel``), and
    #: the sum of each one's largest resident memory at the end of one of the search's tasks.
    worker_processes: int = 0
    workers_rss: int = 0
    evaluations: int = 0
    #: Merges whose one-step digest was that of an engine with the same memory, checked before.
    digests_reused: int = 0
    #: Merges into a representative that is another rotation of the seats (seat symmetry).
    rotated_merges: int = 0

    @property
    def states_per_second(self) -> float:
        """Return distinct states found per second."""
        return self.states / self.seconds if self.seconds > 0 else 0.0

    @property
    def states_per_cpu_second(self) -> float:
        """Return distinct states found per CPU second."""
        return self.states / self.cpu_seconds if self.cpu_seconds > 0 else 0.0

    @property
    def bytes_per_state(self) -> float:
        """Return the store's bytes per distinct state."""
        return self.store_bytes / self.states if self.states else 0.0


@dataclass
class Exploration:
    """The explored graph, the figures, and the first violation (if any)."""

    engine: Engine
    view: View
    store: StateStore
    stats: Stats
    checks: StateChecks
    violations: list[Violation] = field(default_factory=list)
    #: None when every reachable state was expanded; else why the search stopped.
    stopped: str | None = None
    #: Depth d's states are numbered ``level_starts[d] .. level_starts[d + 1] - 1``.
    level_starts: list[int] = field(default_factory=list)
    #: Ambiguities whose decision point some explored path reached.
    reached: set[str] = field(default_factory=set)
    #: Engine attributes that differed between engines with equal keys (sampled merges).
    memory: set[str] = field(default_factory=set)
    #: Merges whose representative was never expanded (the search stopped first).
    unchecked_merges: int = 0
    #: With seat symmetry: the seats' rotations (None: states are not merged across seats).
    rotation: Rotation | None = None
    #: With seat symmetry: each edge's rotation, from its target's representative to the
    #: child reached (``rulespec.verify.symmetry.unfold`` rebuilds the states as reached).
    rotations: array[int] = field(default_factory=lambda: array("B"))

    @property
    def complete(self) -> bool:
        """Return True when every reachable state was found and expanded."""
        return self.stopped is None

    def depth_of(self, index: int) -> int:
        """Return the BFS depth of state ``index``."""
        from bisect import bisect_right

        return bisect_right(self.level_starts, index) - 1


def _peak_rss() -> int:
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(usage) * (1 if sys.platform == "darwin" else 1024)


def current_rss() -> int:
    """Return the process's resident memory now (its peak where /proc is not there)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return _peak_rss()


#: States found between two looks at the process's memory.
_MEMORY_EVERY = 2048
#: Merged engines' digests remembered by their memory at most (then forgotten, and again).
MEMO_STATES = 400_000
#: Every this many reused digests, the first is computed again and compared.
RECHECK_EVERY = 50
#: Memories taken (of expanded and of merged engines) after which they stop being taken if
#: fewer than one in 20 reused a digest.
WORTH_AFTER = 5000


class Explorer:
    """Breadth-first exploration of one configuration from a fresh engine."""

    def __init__(self, start: Engine, *, view: tuple[str, ...] = (),
                 max_states: int | None = None, max_depth: int | None = None,
                 max_memory: int | None = None, check_merges: bool = True,
                 progress: Progress | None = None, share: bool = True,
                 remember: bool = True, symmetry: Seats | None = None) -> None:
        self.start = start.clone()
        #: Copies of engines that share the constant tables (``rulespec.verify.cloning``).
        self.cloner = Cloner(self.start, share=share)
        self.view = View(view)
        # Bound first: a ceiling may be a parameter (cap(turn_total, params.target_score)).
        self.view.bind(dict(start.config.parameters), start.config.to_json())
        self.view.check(start.state())
        #: The seats' rotations when the game declares them interchangeable (else None).
        self.rotation = None if symmetry is None else symmetry.bind(start.players)
        if self.rotation is not None:
            self.rotation.check(start.state())
        #: Each state's frame: the rotation of its representative that gives its key.
        self._frames = array("B")
        #: The frames of the states that are their own rotation (more than one frame each).
        self._many: dict[int, tuple[int, ...]] = {}
        #: The fields in which a merged state may differ from its representative's.
        self._reached = self.view.reached()
        self.max_states = max_states
        self.max_depth = max_depth
        #: Bytes of resident memory this search may add to the process before it stops (the
        #: queue's engines grow it).
        self.max_memory = max_memory
        self.check_merges = check_merges
        #: Whether a merged engine's digest is reused for another with the same memory
        #: (``Cloner.memory``): the same engine for play, so the same one step ahead.
        self.remember = remember
        self._digests: dict[bytes, int] = {}
        self._looked = 0
        self.progress = progress
        self.checks = StateChecks(start, self.view.abstraction())
        #: The top-level fields a rotation of the seats changes; the checks of a state's other
        #: rotations: only the invariants that read one of them can differ from the state's.
        self._turning = frozenset() if self.rotation is None else self.rotation.fields()
        self._orbit = StateChecks(start, Abstraction(forget=tuple(sorted(self._turning))))
        self.store = StateStore()
        self.stats = Stats()
        #: The first merge into each state not expanded yet: (its digest, parent, move).
        self._pending: dict[int, tuple[int, int, int]] = {}
        self._players = start.players
        self._depth = 0
        self._cpu_started = time.process_time()
        self._result = Exploration(self.start, self.view, self.store, self.stats, self.checks,
                                   rotation=self.rotation)

    # -- keys and digests --------------------------------------------------------------------------

    def _canon(self, state: Mapping[str, Any]) -> tuple[int, tuple[int, ...]]:
        """Return the key of ``state`` and its frames (``(0,)`` without seat symmetry)."""
        if self.rotation is None:
            return fingerprint(self.view.key(state)), _NO_FRAMES
        key, frames = self.rotation.canonical(self.view, state)
        return fingerprint(key), frames

    def _orbit_state(self, state: Mapping[str, Any]) -> Problem | None:
        """Check the state's other rotations as states (seat symmetry: they share its key)."""
        rotation = self.rotation
        if rotation is None:
            return None
        for r in range(1, rotation.players):
            problem = self._orbit.state(rotation.rotate(state, r), only_unkeyed=True,
                                        changed=self._turning)
            if problem is not None:
                return _rotated(problem, r)
        return None

    def _orbit_transition(self, prev: Mapping[str, Any], action: Action,
                          state: Mapping[str, Any]) -> Problem | None:
        """Check a transition with the seats of both states rotated (seat symmetry)."""
        rotation = self.rotation
        if rotation is None:
            return None
        for r in range(1, rotation.players):
            problem = self._orbit.transition(rotation.rotate(prev, r), action,
                                             rotation.rotate(state, r), only_unkeyed=True)
            if problem is not None:
                return _rotated(problem, r)
        return None

    def _step(self, engine: Engine, action: Action) -> tuple[Engine, dict[str, Any]] | Problem:
        """Apply ``action`` to a copy of ``engine``; return the copy and its canonical state,
        or what the engine did wrong (refused a move it listed, or failed)."""
        child = self.cloner.clone(engine)
        try:
            child.apply(action)
            self.cloner.check(child)
            return child, child.state()
        except IllegalAction as exc:
            return Problem("REFUSED", f"the engine refuses {action!r}, which it listed as "
                           f"legal: {exc}")
        except Exception as exc:  # the engine under exploration failed: report, not crash
            return Problem("ENGINE-ERROR", f"applying {action!r} raised "
                           f"{type(exc).__name__}: {exc}")

    def _transition(self, prev: Mapping[str, Any], action: Action, state: Mapping[str, Any],
                    prev_fields: Fields, fields: Fields) -> Problem | None:
        """Check one step's transition invariants (with seat symmetry, rotated too)."""
        problem = self.checks.transition(prev, action, state, prev_fields=prev_fields,
                                         fields=fields)
        if problem is None and self.rotation is not None:
            problem = self._orbit_transition(prev, action, state)
        return problem

    def _found(self, engine: Engine, state: Mapping[str, Any],
               fields: Fields | None = None) -> tuple[Any, Moves, int, Problem | None]:
        """Check a state found for the first time: return who moves, the moves, the winners
        (``store.winners_mask``) and the first problem of its moves, state or rotations."""
        actor, moves, problem = self.checks.moves(engine)
        winners = self._winners(engine, actor)
        problem = (problem or self.checks.state(state, fields=fields)
                   or self._orbit_state(state))
        return actor, moves, winners, problem

    def _merged(self, state: Mapping[str, Any], fields: Fields | None,
                turned: bool) -> Problem | None:
        """Check a state merged under a view: equal keys mean equal values outside the fields
        the view's terms reach (the representative's passed), so the schema checks those
        alone (all of them when the seats are rotated), with the invariants the key does not
        decide."""
        return self.checks.state(state, only_unkeyed=True, fields=fields,
                                 changed=None if turned else self._reached)

    def _framed(self, actor: int | None, moves: Moves, keys: list[int],
                frames: list[tuple[int, ...]], labels: list[Any], own: tuple[int, ...]) -> int:
        """Return the digest of what can happen next, in the state's own frame: the mover's
        seat and the successors' frames relative to it (the least over the state's frames, when
        it is its own rotation)."""
        if self.rotation is None:
            return behaviour(actor, moves, keys, labels)
        n = self.rotation.players
        return min(behaviour(actor if actor is None or actor < 0 else (actor - g) % n, moves,
                              keys, [*labels, [sorted((f - g) % n for f in fr) for fr in frames]])
                   for g in own)

    def _digest(self, engine: Engine, actor: int | None, moves: Moves, *,
                spend: bool = False, own: tuple[int, ...] = (0,)) -> tuple[int, list[int]]:
        """Return a digest of what can happen next (mover, moves, successor keys) and the
        successors' keys (``spend``: the engine is not needed afterwards, and its last move is
        applied to it rather than to a copy)."""
        keys = []
        frames: list[tuple[int, ...]] = []
        labels: list[Any] = []
        edges = bool(self.view.edges)
        state = engine.state() if edges else None
        cloner = self.cloner
        last = len(moves) - 1
        for k, (action, _) in enumerate(moves):
            child = engine if spend and k == last else cloner.clone(engine)
            child.apply(action)
            cloner.check(child)
            child_state = child.state()
            key, child_frames = self._canon(child_state)
            keys.append(key)
            frames.append(child_frames)
            if state is not None:
                labels.append(self.view.edge(state, action, child_state))
        return self._framed(actor, moves, keys, frames, labels, own), keys

    # -- the search --------------------------------------------------------------------------------

    def run(self) -> Exploration:
        """Explore; return the graph and the first violation found (the search stops there)."""
        started = time.perf_counter()
        self._cpu_started = time.process_time()
        # The memory budget is this search's: what the process held before (earlier searches'
        # graphs kept for a report) does not count against it.
        gc.collect()  # what an earlier search left for the collector is not this one's
        rss_at_start = current_rss()
        next_look = _MEMORY_EVERY
        result = self._result
        store, stats = self.store, self.stats
        first = self._begin()
        if first is None:
            return self._finish(started)
        queue: deque[tuple[int, Engine, Moves]] = deque([first])
        self._depth = 0
        next_report = started + 1.0
        while queue:
            index, engine, moves = queue[0]
            terminal, stop = self._take(index)
            if stop is not None:
                result.stopped = stop
                break
            queue.popleft()
            if terminal:
                store.close_expansion()
                if self.check_merges and not self._settle(
                        index, self._terminal_digest(engine, self._own(index))):
                    break
                continue
            if not self._expand(index, engine, moves, queue):
                break
            # Looked at every _MEMORY_EVERY states found (not expanded: one expansion of a deal
            # can find hundreds), so a wide level cannot run far past the budget between looks.
            if self.max_memory is not None and len(store) >= next_look:
                next_look = len(store) + _MEMORY_EVERY
                if current_rss() - rss_at_start >= self.max_memory:
                    result.stopped = "max-memory"
                    break
            if self.progress is not None and time.perf_counter() >= next_report:
                next_report = time.perf_counter() + 1.0
                self._snapshot(started, len(queue))
                self.progress(stats)
        stats.queued = len(queue)
        return self._finish(started)

    def _take(self, index: int) -> tuple[bool, str | None]:
        """Come to state ``index``, next on the queue (its level the depth); return whether it
        is terminal, and why the search stops before expanding it (None: it does not)."""
        starts = self._result.level_starts
        if len(starts) > self._depth + 1 and index >= starts[self._depth + 1]:
            self._depth += 1
        terminal = self.store.actors[index] == TERMINAL_NODE
        if self.max_depth is not None and self._depth >= self.max_depth and not terminal:
            return terminal, "max-depth"
        if self.max_states is not None and len(self.store) >= self.max_states:
            return terminal, "max-states"
        return terminal, None

    def _begin(self) -> tuple[int, Engine, Moves] | None:
        """Add and check the start state; return it for the queue (None: it is violated)."""
        root = self.cloner.adopt(self.start)
        state = root.state()
        actor, moves, winners, problem = self._found(root, state)
        key, frames = self._canon(state)
        index = self.store.add(key, -1, 0, node_code(actor), winners)
        self._note_frames(index, frames)
        self._result.level_starts = [0]
        if problem is not None:
            self._violate(problem, ())
            return None
        if actor is None:
            self.stats.terminals += 1
        return index, root, moves

    def _terminal_digest(self, engine: Engine, own: tuple[int, ...] = (0,)) -> int:
        # The winners whole (the outcome figures read the representative's), the rest of the
        # result as the view keeps it; with seat symmetry, seen from the state's own frame.
        result = engine.result()
        digests = []
        for g in own:
            seen = result
            if g and self.rotation is not None:
                seen = self.rotation.rotate({"result": result}, g)["result"]
            winners = seen.get("winners") if isinstance(seen, dict) else None
            digests.append(digest_text(repr(("over", key_bytes([winners,
                                                                 self.view.result(seen)])))))
        return min(digests)

    def _own(self, index: int) -> tuple[int, ...]:
        """Return the frames of a state found (``(0,)`` without seat symmetry)."""
        if self.rotation is None:
            return _NO_FRAMES
        return self._many.get(index) or (self._frames[index],)

    def _note_frames(self, index: int, frames: tuple[int, ...]) -> None:
        self._frames.append(frames[0])
        if len(frames) > 1:
            self._many[index] = frames

    def _expand(self, index: int, engine: Engine, moves: Moves,
                queue: deque[tuple[int, Engine, Moves]]) -> bool:
        """Expand one state; return False when a violation stops the search."""
        store, stats, view = self.store, self.stats, self.view
        state = engine.state()
        keys: list[int] = []
        frames: list[tuple[int, ...]] = []
        labels: list[Any] = []
        edges = self.check_merges and bool(view.edges)
        fields = Fields(state)
        rotation = self.rotation
        own_frames = self._frames
        for k, (action, p) in enumerate(moves):
            stepped = self._step(engine, action)
            if isinstance(stepped, Problem):
                return self._violate(stepped, self._path(index, k))
            child, child_state = stepped
            stats.transitions += 1
            key, child_frames = self._canon(child_state)
            keys.append(key)
            frames.append(child_frames)
            if edges:
                labels.append(view.edge(state, action, child_state))
            child_fields = Fields(child_state)
            problem = self._transition(state, action, child_state, fields, child_fields)
            if problem is not None:
                return self._violate(problem, self._path(index, k))
            self._note_decisions(child)
            target = store.find(key)
            if target < 0:
                child_actor, child_moves, winners, problem = self._found(child, child_state,
                                                                         child_fields)
                target = store.add(key, index, k, node_code(child_actor), winners)
                self._note_frames(target, child_frames)
                if problem is not None:
                    return self._violate(problem, self._path(target))
                if len(self._result.level_starts) <= self._depth + 1:
                    self._result.level_starts.append(target)
                if child_actor is None:
                    stats.terminals += 1
                queue.append((target, child, child_moves))
            else:
                stats.merges += 1
                turned = rotation is not None and own_frames[target] != child_frames[0]
                if turned:
                    stats.rotated_merges += 1
                if view:
                    problem = self._merged(child_state, child_fields, turned)
                    if problem is not None:
                        return self._violate(problem, self._path(index, k))
                if self.check_merges and not self._merge(target, child, index, k, child_frames):
                    return False
            store.add_edge(target, store.probability_id(p))
            if rotation is not None:
                self._result.rotations.append((own_frames[target] - child_frames[0])
                                              % rotation.players)
        store.close_expansion()
        if self.check_merges:
            actor = engine.current_player()
            own = self._own(index)
            digest = self._framed(None if actor is None else node_code(actor), moves, keys, frames,
                                  labels, own)
            if self.remember:  # an engine merged later with this one's memory: the same digest
                memory = self._memory(engine)
                if memory is not None:
                    self._remember(memory, digest)
            return self._settle(index, digest)
        return True

    def _merge(self, target: int, child: Engine, parent: int, move: int,
               own: tuple[int, ...] = (0,)) -> bool:
        """Check an engine merged into state ``target`` behaves as ``target``'s does."""
        memory = self._memory(child)
        digest = None if memory is None else self._digests.get(memory)
        recheck = False
        if digest is not None:
            self.stats.digests_reused += 1
            recheck = self.stats.digests_reused % RECHECK_EVERY == 1
        self.stats.merges_checked += 1
        turned = self.rotation is not None and self._frames[target] != own[0]
        if (len(self._result.memory) < 64 and self.stats.merges_checked <= MEMORY_SAMPLES
                and not turned):  # a rotated engine differs from its representative anyway
            self._result.memory.update(self._memory_differences(target, child))
        if digest is None or recheck:
            # An engine with a memory met before has the moves already checked with it.
            found = self._ahead(child, own)
            if isinstance(found, Problem):
                return self._violate(found, self._path(parent, move))
            if recheck and found != digest:
                return self._violate(MEMORY_MISMATCH, self._path(parent, move))
            if memory is not None and digest is None:
                self._remember(memory, found)
            digest = found
        return self._compare(target, digest, parent, move)

    def _ahead(self, child: Engine, own: tuple[int, ...]) -> int | Problem:
        """Return a merged engine's digest one step ahead (the engine is used up), or what is
        wrong with it: its moves or result, or an error of the engine's."""
        found = self._next(child, own, spend=True)
        return found if isinstance(found, Problem) else found[0]

    def _next(self, engine: Engine, own: tuple[int, ...], *,
              spend: bool) -> tuple[int, Moves] | Problem:
        """Return an engine's digest one step ahead and its moves (none once the game is over;
        ``spend``: the engine is used up), or what is wrong with it (``_ahead``)."""
        actor, moves, problem = self.checks.moves(engine)
        if problem is not None:  # a malformed result or moves: not its key's state
            return problem
        try:
            if actor is None:
                return self._terminal_digest(engine, own), []
            return self._digest(engine, actor, moves, spend=spend, own=own)[0], moves
        except Exception as exc:
            return Problem("ENGINE-ERROR", f"a move of a merged state raised "
                           f"{type(exc).__name__}: {exc}")

    def _compare(self, target: int, digest: int, parent: int, move: int) -> bool:
        """Compare a merged engine's digest with its representative's (kept, or waiting for its
        expansion)."""
        digests = self.store.digests
        known = digests[target] if target < len(digests) else None
        if known is None:
            first = self._pending.get(target)
            if first is None:
                self._pending[target] = (digest, parent, move)
                return True
            if first[0] != digest:
                return self._behaviour(self._path(first[1], first[2]), self._path(parent, move))
            return True
        if known != digest:
            return self._behaviour(self._path(target), self._path(parent, move))
        return True

    def _memory(self, engine: Engine) -> bytes | None:
        """Return the engine's memory while remembering digests is worth it."""
        return self.cloner.memory(engine) if self._looking(self.stats.digests_reused) else None

    def _looking(self, reused: int) -> bool:
        """Count a memory taken (``reused``: digests reused so far); return whether to take it,
        False once remembering digests is off."""
        if not self.remember:
            return False
        self._looked += 1
        if self._looked == WORTH_AFTER and reused * 20 < WORTH_AFTER:
            # Fewer than one in 20 of the memories taken met one seen before (Dado de Ouro's
            # few merges each follow a new roll): they cost more than they save.
            self.remember = False
            self._digests.clear()
            return False
        return True

    def _remember(self, memory: bytes, digest: Any) -> None:
        """Remember a digest by the memory of the engine it is of (at most MEMO_STATES; a
        shared-out search may keep a placeholder for one still being worked out)."""
        if len(self._digests) >= MEMO_STATES:
            self._digests.clear()
        self._digests[memory] = digest

    def _settle(self, index: int, digest: int) -> bool:
        """Keep a state's digest and compare the merges that waited for it."""
        self.store.digests.append(digest)
        waiting = self._pending.pop(index, None)
        if waiting is not None and waiting[0] != digest:
            return self._behaviour(self._path(index), self._path(waiting[1], waiting[2]))
        return True

    def _behaviour(self, first: tuple[int, ...], second: tuple[int, ...]) -> bool:
        message = ("two states with equal keys behave differently one step ahead (who moves, "
                   "the moves or their probabilities, or the keys they lead to): the key does "
                   "not determine the future")
        if self.view:
            message += f" under the view {self.view.describe()}"
        self._result.violations.append(Violation("KEY-BEHAVIOUR", message, first, other=second))
        return False

    # -- what a merge reveals ----------------------------------------------------------------------

    def _memory_differences(self, target: int, child: Engine) -> set[str]:
        """Return the engine attributes in which ``child`` differs from the engine first found
        with its key (rebuilt by replaying its path)."""
        first = replay(self.start, self.store.path(target))
        return set(attribute_differences(first, child))

    # -- bookkeeping -------------------------------------------------------------------------------

    def _note_decisions(self, engine: Engine) -> None:
        self._result.reached.update(decided(engine))

    def _winners(self, engine: Engine, actor: Any) -> int:
        if actor is not None:
            return 0
        result = engine.result()
        return winners_mask(result.get("winners") if isinstance(result, dict) else None,
                            self._players)

    def _path(self, index: int, move: int | None = None) -> tuple[int, ...]:
        path = self.store.path(index)
        if move is not None:
            path.append(move)
        return tuple(path)

    def _violate(self, problem: Problem, path: tuple[int, ...]) -> bool:
        self._result.violations.append(Violation(problem.kind, problem.message, path,
                                                 problem.clauses, problem.subject))
        return False

    def _snapshot(self, started: float, queued: int) -> None:
        stats = self.stats
        stats.states = len(self.store)
        stats.queued = queued
        stats.depth = len(self._result.level_starts) - 1
        stats.seconds = time.perf_counter() - started
        stats.cpu_seconds = time.process_time() - self._cpu_started
        stats.store_bytes = self.store.bytes_used()
        stats.evaluations = self.checks.evaluations + self._orbit.evaluations

    def _finish(self, started: float) -> Exploration:
        result, stats = self._result, self.stats
        if result.violations and result.stopped is None:
            result.stopped = "violation"
        self._snapshot(started, stats.queued)
        stats.peak_rss = _peak_rss()
        result.unchecked_merges = len(self._pending)
        return result


#: Two engines with the same memory whose digests differ (a recheck of a reused digest).
MEMORY_MISMATCH = Problem(
    "ENGINE-ERROR", "two engines with the same memory (every attribute but constants, decision "
    "counts and the game's NARRATION) behaved differently one step ahead: play reads something "
    "the memory leaves out (the game declares as NARRATION an attribute that play reads)")

#: The frames of a state when the seats are not rotated.
_NO_FRAMES = (0,)


def _rotated(problem: Problem, r: int) -> Problem:
    """Return a problem found on a rotation of a state reached, saying so."""
    return dataclasses.replace(problem, message=(
        f"with the seats rotated by {r} (the spec declares them interchangeable, so this "
        f"rotation shares the state's key; if it is not a state of the game, the declaration is "
        f"wrong: without --symmetry states are checked as reached): {problem.message}"))
