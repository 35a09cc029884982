"""The PERFT check: the engine's game tree has the reference's shape, ply by ply.

Run first because it is deterministic and cheap: starting from the initial position, every
node of the first plies is visited in both the engine (over the adapter, replaying the node's
path from a fresh start, since an engine offers no undo) and the reference, breadth first. At
each node, who moves, the legal actions in canonical order, and the chance outcomes with their
exact probabilities must be the reference's. The depth grows while a time and node budget
allows, so a slow engine is checked less deep, never less exactly.

Comparing every node rather than only the per-depth totals finds the first position where the
trees part directly, which is what chess programmers use ``divide`` for; the totals are still
counted and reported, as a perft table of the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import ConfigRefused, Legal, legal_of
from rulespec.conformance.judging.causes import refused_legal
from rulespec.conformance.judging.checks import Failure
from rulespec.conformance.judging.verdicts import Verdicts
from rulespec.reference.core import Action, Actor, Config, ConfigError, Engine

#: Never deeper than this.
MAX_PERFT_DEPTH = 6


@dataclass
class PerftCheck:
    """What the check visited: the depth reached and the engine's node count per depth."""

    depth: int = 0
    nodes: list[int] = field(default_factory=list)
    seconds: float = 0.0
    failure: Failure | None = None


@dataclass
class _Node:
    """A position: its path from the start, and the reference at its parent (cloned lazily:
    a level can hold many more nodes than are ever expanded)."""

    path: tuple[tuple[Actor, Action], ...]
    parent: Engine | None

    def reference(self, root: Engine) -> Engine:
        if self.parent is None:
            return root
        ref = self.parent.clone()
        ref.apply(self.path[-1][1])
        return ref


def perft_check(adapter: Adapter, verdicts: Verdicts, config: Config,
                reference: Callable[[Any, Config], Engine], *, seconds: float = 2.0,
                max_nodes: int = 400, max_depth: int = MAX_PERFT_DEPTH) -> PerftCheck:
    """Compare the engine's tree with the reference's, a ply at a time, within the budgets.

    A level is started only while less than ``seconds`` have passed and it has at most
    ``max_nodes`` nodes to expand. Engine failures (crash, timeout, garbage) propagate as the
    adapter raises them; the caller reports them as PROTOCOL failures.
    """
    cfg = config.to_json()
    started = time.perf_counter()
    out = PerftCheck()
    root = reference(verdicts.spec, config)
    frontier = [_Node((), None)]
    while frontier and out.depth < max_depth:
        if out.depth and (time.perf_counter() - started > seconds or len(frontier) > max_nodes):
            break
        next_frontier: list[_Node] = []
        count = 0
        for node in frontier:
            ref = node.reference(root)
            expected = legal_of(ref)
            got = _legal_after(adapter, cfg, node.path)
            if isinstance(got, Failure):
                out.failure = got
                break
            last = node.path[-1][1] if node.path else None
            found = verdicts.legal(got, expected, last)
            if found is not None:
                where = _where(node.path)
                out.failure = Failure(
                    "PERFT", found.clauses, f"{where}: {found.message}", cfg,
                    step=len(node.path), actions=node.path, subject=found.check,
                    cause=found.cause, expected=found.expected, actual=found.actual)
                break
            actor = expected.actor
            if actor is None:
                continue  # the game is over here: a leaf
            count += len(expected.actions)
            next_frontier.extend(_Node((*node.path, (actor, action)), ref)
                                 for action in expected.actions)
        if out.failure is not None or count == 0:
            break
        out.depth += 1
        out.nodes.append(count)
        frontier = next_frontier
    out.seconds = time.perf_counter() - started
    return out


def _legal_after(adapter: Adapter, cfg: dict[str, Any],
                 path: Sequence[tuple[Actor, Action]]) -> Legal | Failure:
    """Start a fresh game, replay ``path``, and return who moves and what is legal then."""
    try:
        adapter.start(cfg)
        if not path:
            return adapter.legal()
        pending = [adapter.send_step(action) for _, action in path]
        legal = Legal(None, [])
        for n, collect in enumerate(pending, 1):
            rejection, _, legal = collect()
            if rejection is not None:
                action = path[n - 1][1]
                return Failure("PERFT", rejection.clauses,
                               f"{_where(path[:n - 1])}: the engine refused {action!r}, which "
                               f"it listed as legal: {rejection.reason}", cfg, step=n,
                               actions=tuple(path[:n]), subject="DIFF-LEGAL",
                               cause=refused_legal(action, rejection.reason),
                               expected={"action": action, "accepted": True},
                               actual={"action": action, "accepted": False,
                                       "reason": rejection.reason})
        return legal
    except ConfigRefused:
        raise  # the kit's driver says what was refused and why it was sent
    except ConfigError as exc:
        return Failure("PERFT", (), f"the engine refused the configuration: {exc}", cfg,
                       step=0, subject="PROTOCOL")


def _where(path: Sequence[tuple[Actor, Action]]) -> str:
    if not path:
        return "at the start"
    moves = ", ".join(repr(a) for _, a in path)
    return f"after {len(path)} {'ply' if len(path) == 1 else 'plies'} ({moves})"
