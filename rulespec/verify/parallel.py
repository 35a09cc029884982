"""One search shared out between workers (``rulespec verify -j N``, ``--cluster ADDR``).

The explorer's work per state (applying each move to a copy of the engine, the canonical
state, its key, the transition, state and schema checks, a merged engine's behaviour one step
ahead) depends on that state alone; only the graph (which keys are known, the states' numbers,
the merge that came first) is shared. So this process keeps the graph, as the one-process
search does, and hands the rest to the workers of an executor (``rulespec.executors``: local
processes or a Dask cluster), a chunk of the BFS queue at a time, in two rounds:

1. *expand*: each state of the chunk is expanded by the worker its key falls to (the states
   are partitioned by fingerprint); for each move the worker sends back the child's key and
   frames, the transition's problems, the ambiguities it reached, the child's memory and the
   child itself, packed (``pack``: its attributes but the configuration's and the shared
   constant tables, so an engine costs bytes, not the spec);
2. *check*: this process walks the chunk's children in the order the one-process search takes
   them and sorts them into new states and merges, exactly as that search would (the digests of
   engines with the same memory reused as it would reuse them); the new states' checks and the
   merges' one-step digests go to the workers the children's keys fall to.

Then it walks the chunk again, in the same order, and does what the one-process search does at
each step with the answers: numbering, edges, merge comparisons, the first violation. Its graph,
figures, verdicts and traces are those of ``Explorer.run`` (``tests/verify/test_parallel.py``
compares them); only the work is shared out. A task depends on its arguments alone: a worker
rebuilds the explorer's checks from the configuration's start engine once, and keeps it.
"""

from __future__ import annotations

import gc
import hashlib
import os
import pickle
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

from rulespec.reference.core import Engine, slot_names
from rulespec.verify.checks import Problem
from rulespec.verify.cloning import Cloner
from rulespec.verify.engines import decided, node_code
from rulespec.verify.explore import (
    MEMORY_MISMATCH,
    MEMORY_SAMPLES,
    RECHECK_EVERY,
    Exploration,
    Explorer,
    current_rss,
)
from rulespec.verify.memo import Fields
from rulespec.verify.store import TERMINAL_NODE
from rulespec.verify.symmetry import Seats

#: States of the queue expanded per worker in one round.
CHUNK_PER_WORKER = 1024
#: Attributes every engine of a configuration shares (``Engine.clone`` shares them).
_FIXED = frozenset({"spec", "config", "players", "_rulings"})


# -- engines as bytes ------------------------------------------------------------------------------


def pack(start: Engine, engine: Engine) -> bytes:
    """Return ``engine`` as bytes: its attributes in order, but those that hold the start
    engine's own object (the configuration, the shared constant tables, small numbers) as one
    bit each of a mask (``unpack`` takes them from the start engine it is given)."""
    mask, values = _pack_items(start, engine.__dict__.items())
    slots = _slot_items(engine)
    slot_mask, slot_values = _pack_items(start, slots)
    names: tuple[str, ...] | None = tuple(engine.__dict__)
    if names == tuple(start.__dict__):
        names = None  # the start's, in its order: most engines' (unpack reads them there)
    return pickle.dumps((names, mask, values,
                         tuple(name for name, _ in slots), slot_mask, slot_values),
                        protocol=pickle.HIGHEST_PROTOCOL)


def _slot_items(engine: Engine) -> list[tuple[str, Any]]:
    items = []
    for name in slot_names(type(engine)):
        try:
            items.append((name, getattr(engine, name)))
        except AttributeError:  # a slot never set stays unset
            continue
    return items


def _pack_items(start: Engine, items: Any) -> tuple[int, list[Any]]:
    mask = 0
    values: list[Any] = []
    bit = 1
    for name, value in items:
        if getattr(start, name, _NONE) is value:
            mask |= bit
        else:
            values.append(value)
        bit <<= 1
    return mask, values


def unpack(start: Engine, data: bytes) -> Engine:
    """Return the engine ``pack`` wrote, the objects it shared with its start engine taken
    from ``start`` (an equal engine: the same configuration's, in this process)."""
    names, mask, values, slots, slot_mask, slot_values = pickle.loads(data)
    engine = object.__new__(type(start))
    target = engine.__dict__
    given = iter(values)
    bit = 1
    for name in start.__dict__ if names is None else names:
        target[name] = getattr(start, name) if mask & bit else next(given)
        bit <<= 1
    if slots:
        given = iter(slot_values)
        bit = 1
        for name in slots:
            setattr(engine, name, getattr(start, name) if slot_mask & bit else next(given))
            bit <<= 1
    return engine


_NONE = object()


# -- what a worker does ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What a worker builds its explorer from: the configuration's start engine and options."""

    start: Engine
    view: tuple[str, ...]
    symmetry: Seats | None
    check_merges: bool
    share: bool
    #: The start engine's attribute names in order, as the caller's explorer holds it: a
    #: worker's must be the same, since ``pack`` leaves them out when an engine's are these.
    layout: tuple[str, ...]


#: Explorers built by this thread for the searches it works for, by their setup's digest (one
#: per thread: a Dask worker runs tasks on several threads, and an explorer's memos are not
#: shared between threads).
_EXPLORERS = threading.local()


def _explorer(token: str, blob: bytes) -> Explorer:
    built: dict[str, Explorer] | None = getattr(_EXPLORERS, "built", None)
    if built is None:
        built = _EXPLORERS.built = {}
    found = built.get(token)
    if found is not None and found.cloner.changed:
        found = None  # it found a constant changed in place: the next search starts afresh
    if found is None:
        setup: Setup = pickle.loads(blob)
        found = Explorer(setup.start, view=setup.view, symmetry=setup.symmetry,
                         check_merges=setup.check_merges, share=setup.share)
        if tuple(found.start.__dict__) != setup.layout:
            raise ParallelError(
                f"the start engine's attributes arrive at a worker as "
                f"{', '.join(found.start.__dict__)}, not as {', '.join(setup.layout)} (its "
                "class pickles itself in its own way): search in this process (without --jobs "
                "and --cluster)")
        if len(built) >= 4:
            built.clear()
        built[token] = found
    return found


class Child(NamedTuple):
    """One move of a state expanded by a worker (a tuple: it crosses between processes)."""

    key: int
    frames: tuple[int, ...]
    #: The move's probability as (numerator, denominator).
    probability: tuple[int, int]
    #: A transition invariant broken (the search stops there), or None.
    problem: Problem | None
    #: The ambiguities whose decision point the move reached (counted in the child).
    decisions: tuple[str, ...]
    #: The child's memory (``Cloner.memory``), when digests are remembered.
    memory: bytes | None
    data: bytes
    #: Under a view, what the checks a view leaves to a merged state find (the schema and the
    #: invariants the key does not decide), or None: made whether the child turns out new or
    #: merged, and read only if merged.
    merged_problem: Problem | None


class Expanded(NamedTuple):
    """A state expanded by a worker: its children in move order, and its digest."""

    children: list[Child]
    #: The move the engine refused or failed at (the search stops there), with what happened.
    failure: tuple[int, Problem] | None
    #: What can happen next (``Explorer._framed``), when merges are checked; for a terminal
    #: state its result's digest.
    digest: int | None
    #: The engine's memory, when digests are remembered.
    memory: bytes | None


class Spent(NamedTuple):
    """What one worker task spent: its CPU seconds, and its process (id) with the resident
    memory it held at the task's end."""

    cpu_seconds: float
    process: int
    rss: int


def _spent_since(started: float) -> Spent:
    return Spent(time.process_time() - started, os.getpid(), current_rss())


class _Spending:
    """What the workers spent on one search: CPU seconds, and each worker process's largest
    resident memory at the end of one of the search's tasks."""

    def __init__(self) -> None:
        self.cpu_seconds = 0.0
        self.rss: dict[int, int] = {}

    def add(self, spent: Spent) -> None:
        self.cpu_seconds += spent.cpu_seconds
        if spent.rss > self.rss.get(spent.process, 0):
            self.rss[spent.process] = spent.rss


def expand_states(token: str, blob: bytes, items: list[tuple[bytes, tuple[int, ...], bool]],
                  remember: bool) -> tuple[list[Expanded], Spent]:
    """Expand each packed state (with its frames, and whether it is terminal); return them
    and what the task spent (``Spent``)."""
    started = time.process_time()
    explorer = _explorer(token, blob)
    out: list[Expanded] = []
    for data, own, terminal in items:
        try:
            out.append(_expand_one(explorer, unpack(explorer.start, data), own, terminal,
                                   remember))
        except Exception as exc:  # the engine failed outside a move (its state, its moves)
            out.append(Expanded([], (0, _failed("expanding the state", exc)), None, None))
    return out, _spent_since(started)


def _failed(doing: str, exc: Exception) -> Problem:
    return Problem("ENGINE-ERROR", f"{doing} raised {type(exc).__name__}: {exc}")


def _expand_one(explorer: Explorer, engine: Engine, own: tuple[int, ...], terminal: bool,
                remember: bool) -> Expanded:
    cloner, checks, view = explorer.cloner, explorer.checks, explorer.view
    if terminal:
        digest = explorer._terminal_digest(engine, own) if explorer.check_merges else None
        return Expanded([], None, digest, None)
    state = engine.state()
    _, moves, _ = checks.moves(engine)
    fields = Fields(state)
    edges = explorer.check_merges and bool(view.edges)
    children: list[Child] = []
    keys: list[int] = []
    frames: list[tuple[int, ...]] = []
    labels: list[Any] = []
    for k, (action, p) in enumerate(moves):
        stepped = explorer._step(engine, action)
        if isinstance(stepped, Problem):
            return Expanded(children, (k, stepped), None, None)
        child, child_state = stepped
        key, child_frames = explorer._canon(child_state)
        keys.append(key)
        frames.append(child_frames)
        if edges:
            labels.append(view.edge(state, action, child_state))
        child_fields = Fields(child_state)
        problem = explorer._transition(state, action, child_state, fields, child_fields)
        # Whether the child merges into a rotation of its representative is not known here:
        # under seat symmetry every field is checked, as for a rotated merge.
        merged = (explorer._merged(child_state, child_fields, explorer.rotation is not None)
                  if view else None)
        try:
            data = pack(explorer.start, child)
        except Exception as exc:  # an attribute pickle cannot write (a function, a lock)
            return Expanded(children, (k, _failed(
                f"sending the engine after {action!r} to a worker (search without --jobs and "
                "--cluster)", exc)), None, None)
        children.append(Child(key, child_frames, (p.numerator, p.denominator), problem,
                              tuple(decided(child)),
                              _memory(cloner, child) if remember else None, data, merged))
        if problem is not None:
            return Expanded(children, None, None, None)
    digest = None
    if explorer.check_merges:
        actor = engine.current_player()
        digest = explorer._framed(None if actor is None else node_code(actor), moves, keys, frames,
                                  labels, own)
    return Expanded(children, None, digest, _memory(cloner, engine) if remember else None)


def _memory(cloner: Cloner, engine: Engine) -> bytes | None:
    """Return a digest of the engine's memory (``Cloner.memory``): 16 bytes to send, not the
    memory; equal memories, equal digests, and unequal ones differ but with odds of 2**-128."""
    for name, value in cloner.shared.items():
        if getattr(engine, name, _NONE) is not value:
            # A copy of its own of a constant another worker found changed in place: the
            # memory, which leaves the constants out, does not say what the engine is.
            return None
    memory = cloner.memory(engine)
    return None if memory is None else hashlib.blake2b(memory, digest_size=16).digest()


def check_states(token: str, blob: bytes,
                 items: list[tuple[Any, ...]]) -> tuple[list[Any], Spent]:
    """Check each packed child: a new state (``(data, None, key)``: who moves in it, its
    winners and its first problem), or a merged one (``(data, frames, key)``: its digest one
    step ahead, ``Explorer._merge``, or what went wrong); return the answers and what the task
    spent (``Spent``)."""
    started = time.process_time()
    explorer = _explorer(token, blob)
    out: list[Any] = []
    for data, own, _ in items:
        try:
            child = unpack(explorer.start, data)
            if own is None:
                actor, _, winners, problem = explorer._found(child, child.state())
                out.append((node_code(actor), winners, problem))
            else:
                out.append(explorer._ahead(child, own))
        except Exception as exc:  # the engine failed checking a state (its moves, its result)
            problem = _failed("checking the state", exc)
            out.append((TERMINAL_NODE, 0, problem) if own is None else problem)
    return out, _spent_since(started)


# -- what this process does ------------------------------------------------------------------------


@dataclass
class _Merge:
    """A child that merges into a state found: what its checks need and reuse."""

    target: int
    turned: bool
    #: Its slot among the chunk's checks (-1: none needed).
    slot: int
    #: The digest reused (an int, or the slot of a digest being worked out in this chunk).
    reused: Any
    recheck: bool
    #: The memory the digest worked out is remembered under (None: not remembered).
    remember_as: bytes | None


@dataclass
class _Plan:
    """The checks of one chunk's children, and what each child is (``int``: a new state's slot
    among the checks; ``_Merge``)."""

    items: list[tuple[Any, ...]]
    kinds: list[list[Any]]


class ParallelError(Exception):
    """A search that cannot be shared out between workers."""


class ParallelExplorer(Explorer):
    """``Explorer`` whose work per state is done by the workers of ``executor`` (see module)."""

    def __init__(self, start: Engine, *, executor: Any, workers: int,
                 **options: Any) -> None:
        super().__init__(start, **options)
        self.executor = executor
        self.workers = max(1, workers)
        setup = Setup(self.start, tuple(options.get("view", ())), options.get("symmetry"),
                      self.check_merges, options.get("share", True),
                      tuple(self.start.__dict__))
        try:
            self._blob = pickle.dumps(setup, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as exc:  # an engine class defined inside a function, say
            raise ParallelError(
                f"the search cannot be shared out: its start engine ({type(start).__name__}) "
                f"cannot be sent to the workers ({type(exc).__name__}: {exc}); search in this "
                "process (without --jobs and --cluster), or define the engine's class at the "
                "top level of an installed module") from None
        self._token = hashlib.blake2b(self._blob, digest_size=16).hexdigest()
        self._fractions: dict[tuple[int, int], Fraction] = {}
        #: What the workers spent on this search's tasks.
        self._spent = _Spending()
        #: The answers of the chunk being committed (digests reused within it are among them).
        self._answers: list[Any] = []
        #: Digests reused so far, counted as the chunks are planned (ahead of the stats).
        self._reused_planned = 0
        #: The memo of digests by memory, holding (chunk, slot) for one still being worked out.
        self._memo: dict[bytes, Any] = self._digests
        self._chunks = 0

    def _share(self, fn: Callable[..., tuple[list[Any], Spent]], items: Sequence[Any],
               keys: Sequence[int], *extra: Any) -> list[tuple[list[int], Any]]:
        """Hand ``fn`` over ``items`` to the workers, item i to the worker ``keys[i]`` falls
        to; return each part's items' positions and its future (``_gather``)."""
        n = self.workers
        parts: list[list[int]] = [[] for _ in range(n)]
        for i, key in enumerate(keys):
            parts[key % n].append(i)
        return [(part, self.executor.submit(fn, self._token, self._blob,
                                            [items[i] for i in part], *extra))
                for part in parts if part]

    def _hand_out(self, queue: deque[tuple[int, bytes]],
                 size: int) -> tuple[list[tuple[int, bytes]], list[Any]]:
        """Take the next chunk off the queue and hand its states to the workers to expand."""
        store = self.store
        chunk = [queue.popleft() for _ in range(min(size, len(queue)))]
        return chunk, self._share(
            expand_states,
            [(data, self._own(index), store.actors[index] == TERMINAL_NODE)
             for index, data in chunk],
            [store.fingerprints[index] for index, _ in chunk], self.remember)

    def run(self) -> Exploration:
        """Explore as ``Explorer.run`` does, the work per state shared out (see module)."""
        started = time.perf_counter()
        self._cpu_started = time.process_time()
        gc.collect()
        rss_at_start = current_rss()
        result, stats = self._result, self.stats
        first = self._begin()
        if first is None:
            return self._finish(started)
        queue: deque[tuple[int, bytes]] = deque([(first[0], pack(self.start, first[1]))])
        self._depth = 0
        next_report = started + 1.0
        chunk_size = CHUNK_PER_WORKER * self.workers
        ahead: tuple[list[tuple[int, bytes]], list[Any]] | None = None
        while queue or ahead is not None:
            if ahead is None:
                ahead = self._hand_out(queue, chunk_size)
            chunk, pending = ahead
            expanded: list[Expanded] = _gather(pending, len(chunk), self._spent)
            # The next chunk's states are on the queue already (unless the queue is short):
            # the workers expand them while this process commits this one.
            ahead = self._hand_out(queue, chunk_size) if len(queue) >= chunk_size else None
            self._chunks += 1
            plan = self._plan(chunk, expanded)
            answers = (_gather(self._share(check_states, plan.items,
                                           [item[-1] for item in plan.items]), len(plan.items),
                               self._spent)
                       if plan.items else [])
            self._answers = answers
            done = self._commit(chunk, expanded, plan, answers, queue)
            if done < len(chunk):
                if ahead is not None:
                    queue.extendleft(reversed(ahead[0]))
                    _cancel(ahead[1])
                queue.extendleft(reversed(chunk[done:]))
                break
            if self.max_memory is not None and current_rss() - rss_at_start >= self.max_memory:
                result.stopped = "max-memory"
                if ahead is not None:
                    queue.extendleft(reversed(ahead[0]))
                    _cancel(ahead[1])
                break
            if self.progress is not None and time.perf_counter() >= next_report:
                next_report = time.perf_counter() + 1.0
                # The next chunk, handed out already, is still to be committed: queued.
                self._snapshot(started, len(queue) + (len(ahead[0]) if ahead else 0))
                self.progress(stats)
        stats.queued = len(queue)
        return self._finish(started)

    def _snapshot(self, started: float, queued: int) -> None:
        super()._snapshot(started, queued)
        self.stats.cpu_seconds += self._spent.cpu_seconds  # the workers' too
        self.stats.workers_rss = sum(self._spent.rss.values())
        self.stats.worker_processes = len(self._spent.rss)

    def _plan(self, chunk: list[tuple[int, bytes]], expanded: list[Expanded]) -> _Plan:
        """Sort the chunk's children into new states and merges as the one-process search
        would meet them, reusing digests as it would; return the checks they need."""
        store = self.store
        count = len(store)
        fresh: dict[int, int] = {}
        fresh_frames: list[int] = []
        items: list[tuple[Any, ...]] = []
        kinds: list[list[Any]] = []
        rotation = self.rotation
        for (index, _), state in zip(chunk, expanded, strict=True):
            kind: list[Any] = []
            kinds.append(kind)
            for child in state.children:
                if child.problem is not None:
                    return _Plan(items, kinds)
                target = store.find(child.key)
                if target < 0:
                    target = fresh.get(child.key, -1)
                if target < 0:
                    fresh[child.key] = count + len(fresh)
                    fresh_frames.append(child.frames[0])
                    kind.append(len(items))
                    items.append((child.data, None, child.key))
                    continue
                frame = (self._frames[target] if target < count
                         else fresh_frames[target - count])
                merge = _Merge(target, rotation is not None and frame != child.frames[0], -1,
                               None, False, None)
                digest = False
                if self.check_merges:
                    memory = self._planned_memory(child.memory)
                    merge.reused = None if memory is None else self._memo.get(memory)
                    if merge.reused is not None:
                        self._reused_planned += 1
                        merge.recheck = self._reused_planned % RECHECK_EVERY == 1
                    digest = merge.reused is None or merge.recheck
                    if memory is not None and merge.reused is None:
                        merge.remember_as = memory
                if digest:
                    merge.slot = len(items)
                    items.append((child.data, child.frames, child.key))
                    if merge.remember_as is not None:
                        self._remember(merge.remember_as, (self._chunks, merge.slot))
                kind.append(merge)
            if state.failure is not None:
                return _Plan(items, kinds)
            if (self.check_merges and state.digest is not None
                    and store.actors[index] != TERMINAL_NODE):  # a terminal's memory: not taken
                memory = self._planned_memory(state.memory)
                if memory is not None:
                    self._remember(memory, state.digest)
        return _Plan(items, kinds)

    def _planned_memory(self, memory: bytes | None) -> bytes | None:
        """``Explorer._memory`` of an engine whose memory a worker took."""
        return memory if self._looking(self._reused_planned) else None

    def _commit(self, chunk: list[tuple[int, bytes]], expanded: list[Expanded], plan: _Plan,
                answers: list[Any], queue: deque[tuple[int, bytes]]) -> int:
        """Walk the chunk as the one-process search does; return how many of its states were
        taken off the queue (fewer than all: the search stops)."""
        result, store = self._result, self.store
        for position, ((index, _), state) in enumerate(zip(chunk, expanded, strict=True)):
            terminal, stop = self._take(index)
            if stop is not None:
                result.stopped = stop
                return position
            if terminal:
                store.close_expansion()
                if (self.check_merges and state.digest is not None
                        and not self._settle(index, state.digest)):
                    return position + 1
                continue
            kinds = plan.kinds[position] if position < len(plan.kinds) else []
            if not self._commit_state(index, state, kinds, answers, queue):
                return position + 1
        return len(chunk)

    def _commit_state(self, index: int, state: Expanded, kinds: list[Any], answers: list[Any],
                      queue: deque[tuple[int, bytes]]) -> bool:
        result, store, stats = self._result, self.store, self.stats
        rotation = self.rotation
        for k, child in enumerate(state.children):
            stats.transitions += 1
            if child.problem is not None:
                return self._violate(child.problem, self._path(index, k))
            reached = result.reached
            for amb in child.decisions:
                reached.add(amb)
            kind = kinds[k]
            if type(kind) is int:
                actor, winners, problem = answers[kind]
                target = store.add(child.key, index, k, actor, winners)
                self._note_frames(target, child.frames)
                if problem is not None:
                    return self._violate(problem, self._path(target))
                if len(result.level_starts) <= self._depth + 1:
                    result.level_starts.append(target)
                if actor == TERMINAL_NODE:
                    stats.terminals += 1
                queue.append((target, child.data))
            else:
                target = kind.target
                stats.merges += 1
                if kind.turned:
                    stats.rotated_merges += 1
                if child.merged_problem is not None:
                    return self._violate(child.merged_problem, self._path(index, k))
                answer = answers[kind.slot] if kind.slot >= 0 else None
                if self.check_merges and not self._merge_answered(kind, answer, child, index, k):
                    return False
            store.add_edge(target, store.probability_id(self._fraction(child.probability)))
            if rotation is not None:
                self._result.rotations.append((self._frames[target] - child.frames[0])
                                              % rotation.players)
        if state.failure is not None:
            move, problem = state.failure
            return self._violate(problem, self._path(index, move))
        store.close_expansion()
        if self.check_merges and state.digest is not None:
            return self._settle(index, state.digest)
        return True

    def _merge_answered(self, merge: _Merge, found: Any, child: Child, parent: int,
                        move: int) -> bool:
        """``Explorer._merge`` with the digest a worker worked out (or the one reused)."""
        stats = self.stats
        if merge.reused is not None:
            stats.digests_reused += 1
        stats.merges_checked += 1
        if (len(self._result.memory) < 64 and stats.merges_checked <= MEMORY_SAMPLES
                and not merge.turned):
            engine = unpack(self.start, child.data)
            self._result.memory.update(self._memory_differences(merge.target, engine))
        digest = self._resolve(merge.reused)
        if merge.reused is None or merge.recheck:
            if isinstance(found, Problem):
                return self._violate(found, self._path(parent, move))
            if merge.recheck and found != digest:
                return self._violate(MEMORY_MISMATCH, self._path(parent, move))
            if merge.remember_as is not None and self._memo.get(merge.remember_as) == (
                    self._chunks, merge.slot):
                self._memo[merge.remember_as] = found
            digest = found
        return self._compare(merge.target, digest, parent, move)

    def _resolve(self, reused: Any) -> Any:
        """Return a reused digest (a digest worked out in this chunk by its answer)."""
        if type(reused) is tuple:
            return self._answers[reused[1]]
        return reused

    def _fraction(self, pair: tuple[int, int]) -> Fraction:
        found = self._fractions.get(pair)
        if found is None:
            found = self._fractions[pair] = Fraction(*pair)
        return found


def _gather(parts: list[tuple[list[int], Any]], count: int, spent: _Spending) -> list[Any]:
    """Return the answers of the parts ``_share`` handed out, in their items' order (what the
    workers spent added to ``spent``)."""
    out: list[Any] = [None] * count
    for part, future in parts:
        answers, used = future.result()
        spent.add(used)
        for i, answer in zip(part, answers, strict=True):
            out[i] = answer
    return out


def _cancel(parts: list[tuple[list[int], Any]]) -> None:
    """Cancel the work handed out for a chunk the search will not commit (or let it end)."""
    for _, future in parts:
        future.cancel()
