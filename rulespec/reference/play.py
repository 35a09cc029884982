"""Drive an engine: pick chance outcomes by their exact probabilities, players at random."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from rulespec.reference.core import CHANCE, Action, Actor, Engine


@dataclass(frozen=True)
class Step:
    """One step of a game: who moved, what they did."""

    #: Who moved: a seat, or ``"chance"``.
    actor: Actor
    #: What they did.
    action: Action


# Engines usually hand out the same precomputed outcome list again and again; remembering its
# integer weights keeps sampling cheap. The list itself is kept so its id cannot be reused.
_WEIGHTS: dict[int, tuple[list[tuple[Action, Fraction]], list[int], int]] = {}
_WEIGHTS_MAX = 256


def _weights(outcomes: list[tuple[Action, Fraction]]) -> tuple[list[int], int]:
    cached = _WEIGHTS.get(id(outcomes))
    if cached is not None and cached[0] is outcomes and len(cached[1]) == len(outcomes):
        return cached[1], cached[2]
    denominator = lcm(*(p.denominator for _, p in outcomes))
    weights = [p.numerator * (denominator // p.denominator) for _, p in outcomes]
    total = sum(weights)
    if len(_WEIGHTS) >= _WEIGHTS_MAX:
        _WEIGHTS.clear()
    _WEIGHTS[id(outcomes)] = (outcomes, weights, total)
    return weights, total


def sample_chance(engine: Engine, rng: random.Random) -> Action:
    """Draw a chance outcome with exactly the engine's probabilities.

    The draw depends only on the probabilities: an engine's ``chance_weights`` shortcut gives
    the same draws from the same generator as its ``chance_outcomes``.
    """
    global _LAST_DRAW, _OTHER_DRAW  # noqa: PLW0603 - two module slots, read on every draw
    weighted = engine.chance_weights()
    if weighted is not None:
        actions, weights = weighted
        # The two tables used last (a game with two dice alternates), then the remembered
        # ones. Only tuples are tabulated (a list is drawn from as it is), so a hit on the very
        # object is a tuple's table.
        hit = _LAST_DRAW
        if hit[0] is not weights:
            if type(weights) is not tuple:
                return _sample_weighted(actions, weights, rng)
            other = _OTHER_DRAW
            if other[0] is weights:
                _OTHER_DRAW = hit
                _LAST_DRAW = hit = other
            else:
                hit = _DRAWS.get(id(weights))  # type: ignore[assignment]
                if hit is None or hit[0] is not weights:
                    hit = _draw_table(weights)
                _OTHER_DRAW = _LAST_DRAW
                _LAST_DRAW = hit
        units = hit[2]
        if units > 1 and type(rng) is _PLAIN_RANDOM:
            # random.Random's own randrange(units), without its two Python calls.
            bits = hit[3]
            pick = rng.getrandbits(bits)
            while pick >= units:
                pick = rng.getrandbits(bits)
            slots = hit[1]
            return actions[pick] if slots is None else actions[slots[pick]]
        if units == 1:
            return actions[0]
        if units:
            slots = hit[1]
            pick = rng.randrange(units)
            return actions[pick] if slots is None else actions[slots[pick]]
        return _sample_weighted(actions, weights, rng)
    outcomes = engine.chance_outcomes()
    if len(outcomes) == 1:
        return outcomes[0][0]
    weights, total = _weights(outcomes)
    pick = rng.randrange(total)
    for (action, _), weight in zip(outcomes, weights, strict=True):
        if pick < weight:
            return action
        pick -= weight
    raise AssertionError("unreachable: weights cover the range")  # pragma: no cover


# Weights handed out as a tuple cannot change, so their draw table is remembered by identity
# (the tuple itself is kept so its id cannot be reused): the number of equally likely picks
# ``_sample_weighted`` draws from (``sum(weights) // gcd(weights)``; 0 when there are too many to
# tabulate), the bits ``randrange`` asks for, and the outcome index of each pick (None when the
# weights are all equal: a pick is then the index).
_DRAWS: dict[int, tuple[tuple[int, ...], tuple[int, ...] | None, int, int]] = {}
_DRAWS_MAX = 256
#: The draw tables used last and before (engines often draw from one or two weight tuples
#: again and again).
_LAST_DRAW: tuple[tuple[int, ...], tuple[int, ...] | None, int, int] = ((), None, 0, 0)
_OTHER_DRAW = _LAST_DRAW
_DRAW_SLOTS_MAX = 4096


def _draw_table(weights: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...] | None,
                                                    int, int]:
    scale = gcd(*weights)
    units = sum(weights) // scale
    slots: tuple[int, ...] | None = None
    if units > _DRAW_SLOTS_MAX:
        units = 0
    elif units != len(weights):
        slots = tuple(i for i, w in enumerate(weights) for _ in range(w // scale))
    if len(_DRAWS) >= _DRAWS_MAX:
        _DRAWS.clear()
    entry = _DRAWS[id(weights)] = (weights, slots, units, units.bit_length())
    return entry


def _randrange_is_getrandbits() -> bool:
    """Return True when ``random.Random.randrange(n)`` draws ``getrandbits(n.bit_length())``
    until below ``n`` (CPython's algorithm), checked on this interpreter by drawing both ways."""
    for n in (2, 3, 5, 6, 7, 36, 100):
        one, other = random.Random(n), random.Random(n)
        for _ in range(50):
            want = one.randrange(n)
            got = other.getrandbits(n.bit_length())
            while got >= n:
                got = other.getrandbits(n.bit_length())
            if got != want:
                return False
    return True


#: The generator class whose draws ``sample_chance`` makes itself (None: always ask randrange).
_PLAIN_RANDOM: type | None = random.Random if _randrange_is_getrandbits() else None


def _sample_weighted(actions: Sequence[Action], weights: Sequence[int],
                     rng: random.Random) -> Action:
    """Draw from integer ``weights`` exactly as from the probabilities they are proportional to.

    The fractions' weights (``_weights``) are the smallest integers in those proportions: these
    weights divided by their greatest common divisor. Scaling the pick instead of dividing every
    weight walks the same ranges.
    """
    if len(actions) == 1:
        return actions[0]
    scale = gcd(*weights)
    units = sum(weights) // scale
    if type(rng) is _PLAIN_RANDOM:
        bits = units.bit_length()
        pick = rng.getrandbits(bits)
        while pick >= units:
            pick = rng.getrandbits(bits)
    else:
        pick = rng.randrange(units)
    # The first outcome whose running total of weights passes the pick (a walk: the lists are
    # short, and the heavy outcomes often come first).
    pick *= scale
    for i, weight in enumerate(weights):
        if pick < weight:
            return actions[i]
        pick -= weight
    raise AssertionError("unreachable: weights cover the range")  # pragma: no cover


def random_policy(engine: Engine, rng: random.Random) -> Action:
    """Pick a uniformly random legal action (for players) or a chance draw."""
    if engine.current_player() == CHANCE:
        return sample_chance(engine, rng)
    return rng.choice(engine.legal_actions())


Policy = Callable[[Engine, random.Random], Action]


def playout(
    engine: Engine,
    rng: random.Random,
    *,
    policy: Policy = random_policy,
    max_steps: int = 1_000_000,
) -> Iterator[Step]:
    """Play ``engine`` to the end, yielding each step after it is applied."""
    for _ in range(max_steps):
        actor = engine.current_player()
        if actor is None:
            return
        action = policy(engine, rng)
        engine.apply(action)
        yield Step(actor, action)
    raise RuntimeError(f"game did not end within {max_steps} steps; a rule must loop forever")


def check_probabilities(outcomes: list[tuple[Action, Fraction]]) -> bool:
    """Return True when the outcome probabilities are positive and add up to exactly one."""
    return all(p > 0 for _, p in outcomes) and sum((p for _, p in outcomes), Fraction(0)) == 1


def summary(result: dict[str, Any] | None) -> str:
    """Return a one-line text of a result."""
    if result is None:
        return "no result"
    winners = result.get("winners", [])
    scores = result.get("scores", [])
    return f"winners {winners}, scores {scores}"
