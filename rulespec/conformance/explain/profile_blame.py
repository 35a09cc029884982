"""Where a game no reading reproduces parts from the reference, and which record is to blame.

A witness shows what an engine does in one position. A plain bug can coincide there with
another option (an engine that passes the round's start counter-clockwise agrees, in one
witness, with "the previous round's winner starts"), so the profile also plays a few games and
replays them on the reference under the readings it found. A game that no reading reproduces
parts from the reference at some action. The record to blame is one whose other readings
change, at that very action and nowhere before, only state the engine also got differently:
that record's decision point is where the engine does something no reading of it does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.conformance.engine.protocol import Legal, legal_of
from rulespec.conformance.explain.inference import Evidence, Reference, with_rulings
from rulespec.examples.run import textual
from rulespec.reference.core import Config, Engine
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: Turns a state into what is compared of it (the engine's conformance level).
Observe = Callable[[Any], Any]
#: What is compared at one position: the state and the legal answer.
Snapshot = tuple[Any, Legal]
LEGAL = "the legal actions"
ORDER = "the order of the legal actions"


@dataclass(frozen=True)
class Parting:
    """Where one game parts from the reference under the profile's readings."""

    game: int
    #: Actions played before the first position that differs.
    position: int
    #: The top-level state fields that differ there (or ``LEGAL``/``ORDER``).
    fields: tuple[str, ...]
    #: Records whose other readings change, at that action first, only those fields.
    records: tuple[str, ...] = ()
    #: Record -> the options of it under which the reference reproduces the whole game.
    shows: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def text(self) -> str:
        """Say where the game parts: ``game 2 at action 57 (round_starter, to_move)``."""
        return (f"game {self.game + 1} parts from the reference at action {self.position} "
                f"({', '.join(self.fields) or 'an action it refuses'})")


def agreement(spec: Spec, reference: Reference, config: Config, evidence: Evidence,
              observe: Observe) -> int:
    """Return how many positions of ``evidence`` the reference under ``config`` reproduces,
    comparing what ``observe`` keeps of each state (``inference.agreement`` at a level)."""
    try:
        engine = reference(spec, config)
        for i in range(evidence.length):
            if i and not _applied(engine, evidence.actions[i - 1]):
                return i
            state = evidence.states[i]
            if state is not None and observe(state) != observe(engine.state()):
                return i
            legal = evidence.legals[i]
            if legal is not None and legal != legal_of(engine):
                return i
    except RulespecError:
        return 0
    return evidence.length


def parting(spec: Spec, reference: Reference, config: Config, evidence: Evidence, game: int,
            position: int, observe: Observe,
            options: Mapping[str, Sequence[str]] | None = None) -> Parting:
    """Return where ``evidence`` parts from the reference under ``config`` and who is to blame.

    ``options`` (record -> its options) keeps the records and readings tried to those of the
    release the engine is checked as: a record added after it is never blamed, nor an option
    added after it shown.
    """
    mine = _around(spec, reference, config, evidence, position)
    if mine is None:
        return Parting(game, position, ())
    fields = _differing(mine[1], evidence, position, observe)
    if not fields or fields == (ORDER,):
        return Parting(game, position, fields)
    blamed: list[str] = []
    shows: dict[str, tuple[str, ...]] = {}
    for record, rec in spec.ambiguities.items():
        if textual(rec) or (options is not None and not options.get(record)):
            continue
        others = [str(o["id"]) for o in rec["options"] if o["id"] != config.rulings[record]
                  and (options is None or str(o["id"]) in options[record])]
        if any(_changes_only(spec, reference, with_rulings(spec, config, {record: o}), evidence,
                             position, mine, set(fields), observe) for o in others):
            blamed.append(record)
            shows[record] = tuple(
                o for o in others if agreement(spec, reference, with_rulings(
                    spec, config, {record: o}), evidence, observe) == evidence.length)
    return Parting(game, position, fields, tuple(blamed), shows)


def _applied(engine: Engine, action: Any) -> bool:
    try:
        engine.apply(action)
    except RulespecError:
        return False
    return True


def _around(spec: Spec, reference: Reference, config: Config, evidence: Evidence,
            position: int) -> tuple[Snapshot | None, Snapshot] | None:
    """Return the reference's snapshots just before ``position`` and at it (None: it cannot
    play the actions that far)."""
    try:
        engine = reference(spec, config)
        before: Snapshot | None = None
        for i in range(position):
            if i == position - 1:
                before = (engine.state(), legal_of(engine))
            if not _applied(engine, evidence.actions[i]):
                return None
        return before, (engine.state(), legal_of(engine))
    except RulespecError:
        return None


def _differing(snapshot: Snapshot, evidence: Evidence, position: int,
               observe: Observe) -> tuple[str, ...]:
    """Return what differs between the engine and ``snapshot`` at ``position``."""
    state, legal = snapshot
    theirs = evidence.states[position]
    if theirs is not None:
        mine, seen = observe(state), observe(theirs)
        if isinstance(mine, dict) and isinstance(seen, dict) and mine != seen:
            return tuple(k for k in sorted(set(mine) | set(seen)) if mine.get(k) != seen.get(k))
    other = evidence.legals[position]
    if other is None or other == legal:
        return ()
    return (ORDER,) if _same_set(other, legal) else (LEGAL,)


def _same_set(a: Legal, b: Legal) -> bool:
    """Return True when two legal answers differ only in their order."""
    def pairs(x: Legal) -> list[str]:
        probs: list[Any] = list(x.probabilities) if x.probabilities else [None] * len(x.actions)
        return sorted(repr((sorted(a.items()), p)) for a, p in zip(x.actions, probs, strict=True))

    return a.actor == b.actor and pairs(a) == pairs(b)


def _changes_only(spec: Spec, reference: Reference, alt: Config, evidence: Evidence,
                  position: int, mine: tuple[Snapshot | None, Snapshot], fields: set[str],
                  observe: Observe) -> bool:
    """Return True when the reference under ``alt`` agrees with it under the profile's readings
    just before ``position`` and differs at it, in nothing but ``fields``."""
    theirs = _around(spec, reference, alt, evidence, position)
    if theirs is None:
        return False
    before, now = theirs
    if mine[0] is not None and (before is None or observe(before[0]) != observe(mine[0][0])
                                or before[1] != mine[0][1]):
        return False
    a, b = observe(now[0]), observe(mine[1][0])
    if isinstance(a, dict) and isinstance(b, dict) and a != b:
        changed = {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
        return changed <= fields
    return LEGAL in fields and now[1] != mine[1][1]


def blame(spec: Spec, reference: Reference, config: Config, evidence: Sequence[Evidence],
          scores: Sequence[int], observe: Observe,
          options: Mapping[str, Sequence[str]] | None = None) -> list[Parting]:
    """Return where each game not reproduced under ``config`` parts, and who is to blame
    (among the records and readings of ``options``, when given)."""
    return [parting(spec, reference, config, ev, k, score, observe, options)
            for k, (ev, score) in enumerate(zip(evidence, scores, strict=True))
            if score != ev.length]
