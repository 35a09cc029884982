"""Engine copies for the explorer: ``Engine.clone`` with the tables that never change shared.

The explorer copies an engine for every transition it takes. ``Engine.clone`` copies every
mutable attribute the game does not name in ``SHARED``; a game's constant tables that it keeps
as lists or dicts (Pig's die outcomes, a dict of face effects) are copied again at every step,
which costs more than the step itself. A ``Cloner`` finds, before the search, the attributes
that hold the same value in the start engine and in every engine of a few random games from it
(*constants*), and its copies share the start's object of each instead of copying it.

Sharing is checked, not trusted: after every action applied to a copy (``Cloner.check``), each
shared object must still equal the snapshot taken of it at the start. An engine that changes a
shared object in place is caught at the action that did it, before any other engine runs with
the changed object, and the search stops there with ``ENGINE-ERROR`` (run it with sharing off,
``Explorer(..., share=False)``, to explore such an engine). An engine that rebinds the attribute
to an object of its own is fine: that object is copied as ``Engine.clone`` copies it.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterable
from typing import Any

from rulespec.reference.core import CHANCE, Engine, copy_state, slot_names

#: Random games played from the start to tell constant attributes from the others.
PROBE_GAMES = 3
#: Actions of each probe game at most.
PROBE_STEPS = 300
#: Attributes ``Engine.clone`` shares anyway, or that are caches of the current step.
_BASE = frozenset({"spec", "config", "players", "_rulings", "_state_memo", "_legal_memo"})
#: Attributes never shared: the decision points counted (a rare one may stay 0 in the probes).
_NEVER = frozenset({"_decisions"})
_ATOMS = frozenset({int, float, str, bool, type(None)})


class SharedChanged(Exception):
    """An engine changed in place an object its copies share."""


class Cloner:
    """Copies of engines of one configuration that share the constant tables."""

    def __init__(self, start: Engine, *, share: bool = True) -> None:
        kind = type(start)
        self._kind = kind
        #: A game that overrides ``clone`` (attributes that must share a list, say) is copied
        #: by its own ``clone``, nothing shared.
        self._own_clone = getattr(kind, "clone", None) is not Engine.clone
        share = share and not self._own_clone
        self._slots = slot_names(kind)
        shared = _BASE | getattr(kind, "SHARED", frozenset())
        names = [n for n in (*getattr(start, "__dict__", {}), *self._slots)
                 if n not in shared and n not in _NEVER and hasattr(start, n)]
        constants = _constants(start, names) if share else set()
        #: name -> the start's object, shared by every copy that still holds it.
        self.shared: dict[str, Any] = {n: getattr(start, n) for n in constants}
        #: name -> (the object, a private copy of it as it was): every object ever shared,
        #: watched for the whole search (copies made before a change may still hold it).
        self._watched: dict[str, tuple[Any, Any]] = {
            n: (v, copy_state(v)) for n, v in self.shared.items()}
        self._always = shared
        #: Shared objects an engine changed in place (restored; shared no more).
        self.changed: list[str] = []
        #: What ``memory`` leaves out: what is shared anyway or constant, the decision points
        #: counted (bookkeeping no rule reads), and what the game declares narration only
        #: (``NARRATION``: read by ``describe``, never by play).
        self._not_memory = (shared | _NEVER | set(constants)
                            | frozenset(getattr(kind, "NARRATION", frozenset())))

    def adopt(self, engine: Engine) -> Engine:
        """Return a copy of ``engine`` (an engine of the configuration, not a copy made here)
        whose constant attributes are the shared objects."""
        other = engine.clone()
        for name, value in self.shared.items():
            setattr(other, name, value)
        return other

    def clone(self, engine: Engine) -> Engine:
        """Return an independent copy of ``engine``: what ``Engine.clone`` copies is copied,
        except the shared objects it still holds."""
        if self._own_clone:
            return engine.clone()
        other = object.__new__(self._kind)
        always, shared, atoms = self._always, self.shared, _ATOMS
        source = engine.__dict__
        target = other.__dict__
        for name, value in source.items():
            if name in always or type(value) in atoms or shared.get(name, _NONE) is value:
                target[name] = value
            else:
                target[name] = copy_state(value)
        for name in self._slots:
            try:
                value = getattr(engine, name)
            except AttributeError:
                continue
            if name in always or type(value) in atoms or shared.get(name, _NONE) is value:
                setattr(other, name, value)
            else:
                setattr(other, name, copy_state(value))
        return other

    def memory(self, engine: Engine) -> bytes | None:
        """Return the engine's memory as bytes: every attribute that is neither shared,
        constant, counted bookkeeping nor narration, pickled in order (None when one cannot be
        pickled). Two engines of the configuration with equal memory are the same engine for
        play: what they do next is the same (the explorer checks a sample of that)."""
        if self.changed:  # a constant turned out not to be one: it is memory now
            return None
        skip = self._not_memory
        # A constant is left out only while the engine holds the shared object: one the
        # engine rebound to an object of its own (play the probe games never reached) is
        # memory, as any attribute play sets (found by an audit).
        shared = self.shared
        items = [(n, v) for n, v in engine.__dict__.items()
                 if n not in skip or (n in shared and v is not shared[n])]
        for name in self._slots:
            if hasattr(engine, name) and (
                    name not in skip
                    or (name in shared and getattr(engine, name) is not shared[name])):
                items.append((name, getattr(engine, name)))
        try:
            return pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # an object pickle cannot write: no memory, no shortcut
            return None

    def check(self, engine: Engine) -> None:
        """Call after every action applied to a copy: a shared object that no longer equals
        its snapshot was changed by that action. ``engine`` then gets the changed object as a
        copy of its own, the shared one gets its old contents back (a list, dict or bytearray;
        otherwise SharedChanged is raised) and is shared no more."""
        for name, (value, snapshot) in self._watched.items():
            if value == snapshot:
                continue
            if type(value) not in (list, dict, bytearray):
                raise SharedChanged(
                    f"the engine changed its attribute {name!r} in place, which held the same "
                    "value in every probe game and is shared between the explorer's copies; "
                    "explore it without sharing")
            if getattr(engine, name, _NONE) is value:
                setattr(engine, name, copy_state(value))
            if type(value) is dict:
                value.clear()
                value.update(copy_state(snapshot))
            else:
                value[:] = copy_state(snapshot)
            self.shared.pop(name, None)
            if name not in self.changed:
                self.changed.append(name)


_NONE = object()


def _constants(start: Engine, names: Iterable[str]) -> set[str]:
    """Return the attributes among ``names`` that hold the start's value (by equality) in every
    state of a few random games, and whose value is not an atom (nothing to gain)."""
    before = {n: copy_state(getattr(start, n)) for n in names}
    # What ``copy_state`` hands back as it is (a tuple of numbers, a frozen dataclass) costs
    # nothing to copy: sharing it would only add the check.
    candidates = {n for n, v in before.items() if type(v) not in _ATOMS and _equal(v, v)
                  and v is not getattr(start, n)}
    rng = random.Random(0)
    for _ in range(PROBE_GAMES):
        engine = start.clone()
        for _ in range(PROBE_STEPS):
            if not candidates:
                return candidates
            actor = engine.current_player()
            if actor is None:
                break
            try:
                if actor == CHANCE:
                    outcomes = engine.chance_outcomes()
                    action = outcomes[rng.randrange(len(outcomes))][0]
                else:
                    legal = engine.legal_actions()
                    if not legal:
                        break
                    action = legal[rng.randrange(len(legal))]
                engine.apply(action)
            except Exception:  # the search reports an engine's errors; share nothing of it
                return set()
            candidates = {n for n in candidates
                          if _equal(getattr(engine, n, _NONE), before[n])}
    # The start's own objects must still hold their value (a probe's clone copied them).
    return {n for n in candidates if _equal(getattr(start, n), before[n])}


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return False
