"""A game's own ``clone`` checked against ``copy.deepcopy``, step by step through random games.

``check_clones`` plays seeded random games; before every action it takes a ``clone`` and a
``copy.deepcopy`` of the engine and checks that

- every attribute (``__dict__`` and ``__slots__``, through nested lists, dicts, tuples and
  objects, types included: compared pickled) of the clone equals the deep copy's and the original's;
- the action applied to the clone, to the deep copy and to the original leaves the three equal
  again (playing on from a clone is playing on from the original);
- playing the clone on never changes the original, and playing the original on never changes
  the clone taken the step before (they share nothing an action changes);
- every few steps, the clone and the deep copy played to the end by the same random choices
  give the same canonical state at every step.

The deep copy shares the spec and the configuration (``memo``): neither is game state, and
copying them would cost far more than the game.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.reference.core import CHANCE, Engine, slot_names
from rulespec.reference.registry import new_game

#: What the base class sets once and never changes (``Engine.clone`` shares it).
_CONSTANT = frozenset({"spec", "config", "players", "_rulings"})


def _constant(engine: Engine) -> frozenset[str]:
    return _CONSTANT | engine.SHARED


def deep_copy(engine: Engine) -> Engine:
    """Return ``copy.deepcopy(engine)`` with the constants (the spec, the configuration and the
    tables the game names in ``SHARED``) shared, as ``clone`` shares them; the rest is copied
    and compared by value."""
    memo: dict[int, Any] = {}
    # The step memos too (``StepMemo``): replaced, never changed, so ``clone`` shares them.
    for name in (*_constant(engine), "_state_memo", "_legal_memo"):
        value = getattr(engine, name, None)
        memo[id(value)] = value
    return copy.deepcopy(engine, memo)


def engine_view(engine: Engine, *, tables: bool = True) -> dict[str, Any]:
    """Return every attribute of ``engine`` (``__dict__`` and ``__slots__``) pickled, which
    compares types and contents all the way down (``1`` is not ``True``, a list not a tuple,
    objects by their attributes) and the lists shared within one attribute.

    The constants are compared by identity: the base's (the spec, the configuration, the
    rulings) always, the game's ``SHARED`` ones when ``tables`` (a copy just made must hold the
    very same objects), else not at all: a game may name there a cache by content that every
    copy fills, or rebind one to a new table when a round starts.
    """
    shared = engine.SHARED
    view: dict[str, Any] = {}
    for name in sorted({*engine.__dict__, *slot_names(type(engine))}):
        if not hasattr(engine, name):
            view[name] = "<unset>"
            continue
        value = getattr(engine, name)
        if name in _CONSTANT or (tables and name in shared):
            view[name] = id(value)
        elif name not in shared:
            view[name] = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    return view


def _pick(engine: Engine, rng: random.Random) -> Any:
    if engine.current_player() == CHANCE:
        outcomes = engine.chance_outcomes()
        return outcomes[rng.randrange(len(outcomes))][0]
    legal = engine.legal_actions()
    return legal[rng.randrange(len(legal))]


def check_clones(game: str, *, seeds: range, players: int | None = None,
                 rulings: Mapping[str, str] | None = None, variants: Sequence[str] = (),
                 parameters: Mapping[str, Any] | None = None, max_steps: int = 400,
                 play_out_every: int = 25, changed: set[str] | None = None) -> int:
    """Check ``clone`` against ``copy.deepcopy`` through one random game per seed; return the
    number of steps checked. ``changed``, when given, receives the name of every attribute an
    action changed (so a test can say which parts of the engine its games exercised)."""
    checked = 0
    for seed in seeds:
        rng = random.Random(seed)
        engine = new_game(game, players=players, rulings=rulings, variants=variants,
                          parameters=parameters)
        kind = type(engine)
        assert kind.clone is not Engine.clone, f"{kind.__name__} has no clone of its own"
        previous: tuple[Engine, Any] | None = None
        for step in range(max_steps):
            if engine.current_player() is None:
                break
            before = engine_view(engine)
            clone = engine.clone()
            twin = deep_copy(engine)
            assert type(clone) is kind
            assert engine_view(clone) == engine_view(twin) == before, (seed, step)
            if step % play_out_every == 0:
                _play_out_alike(clone.clone(), deep_copy(engine), random.Random(seed * 1000 + step))
            action = _pick(engine, rng)  # first: a game may build its legal list once a step
            before = engine_view(engine, tables=False)
            clone.apply(action)
            twin.apply(action)
            assert engine_view(engine, tables=False) == before, \
                f"playing a clone changed the original {seed, step}"
            assert engine_view(clone, tables=False) == engine_view(twin, tables=False), (seed, step)
            assert clone.state() == twin.state()
            if previous is not None:  # the original played on: the clone before is as it was
                assert engine_view(previous[0], tables=False) == previous[1], (seed, step)
            kept = engine.clone()
            previous = (kept, engine_view(kept, tables=False))
            engine.apply(action)
            engine.state()  # as the twin's: a game may cache what its state is built from
            if changed is not None:
                after = engine_view(engine, tables=False)
                changed.update(name for name, value in after.items() if before.get(name) != value)
            assert engine_view(engine, tables=False) == engine_view(twin, tables=False), \
                (seed, step)
            checked += 1
        assert previous is not None
    return checked


def _play_out_alike(clone: Engine, twin: Engine, rng: random.Random) -> None:
    """Play ``clone`` and ``twin`` to the end by the same random choices, comparing states."""
    for _ in range(2000):
        assert clone.state() == twin.state()
        assert clone.current_player() == twin.current_player()
        if twin.current_player() is None:
            assert clone.result() == twin.result()
            return
        action = _pick(twin, rng)
        clone.apply(action)
        twin.apply(action)


def never_changed(game: str, changed: set[str], *, players: int | None = None,
                  constants: frozenset[str] = frozenset()) -> set[str]:
    """Return the engine attributes of ``game`` that no action of the games played changed
    (``changed``, as ``check_clones`` filled it), leaving out the constants: the base's, the
    game's ``SHARED`` tables and ``constants`` (the game's configuration constants, set once
    from the configuration; each must still be an attribute of the engine)."""
    engine = new_game(game, players=players)
    attributes = {*slot_names(type(engine)), *getattr(engine, "__dict__", {})}
    assert attributes >= constants, \
        f"the configuration constants name attributes {game}'s engine no longer has: " \
        f"{sorted(constants - attributes)}"
    return attributes - _constant(engine) - constants - changed
