"""The engines' speed shortcuts (issue 11 part 4) say exactly what the slow paths say.

Chance draws from a weight tuple use a remembered draw table and ask the generator for bits
directly; an action's shape is checked without jsonschema when its schema is a flat object of
scalar properties. Each shortcut is compared here with the path it stands for. They check no
clause of a game, only that the speed-ups keep every check the other tests make honest.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulespec.reference import play
from rulespec.reference.actions import action_schemas, fast_check
from rulespec.reference.core import CHANCE, Action, equal_weights
from rulespec.reference.play import _sample_weighted, random_policy, sample_chance
from rulespec.reference.registry import new_game
from rulespec.spec.registry import game_ids, get_spec

GAMES = game_ids()


class _Weighted:
    """Just enough of an engine for ``sample_chance``: fixed actions and weights."""

    def __init__(self, actions: list[Action], weights: Any) -> None:
        self.weighted = (actions, weights)

    def chance_weights(self) -> tuple[list[Action], Any]:
        return self.weighted


@pytest.mark.parametrize("weights", [(2, 2), (1, 3), (4, 6, 2), (5,), (3, 3, 3, 9),
                                     (1, 1, 1, 1, 1, 1, 1), (1, 5000), (7, 7, 7)])
def test_draws_from_a_weight_tuple_are_the_draws_of_the_weights(weights: tuple[int, ...]) -> None:
    """The remembered draw table picks what ``_sample_weighted`` picks, from the same bits."""
    actions: list[Action] = [{"kind": "x", "i": i} for i in range(len(weights))]
    engine = _Weighted(actions, weights)
    fast, slow = random.Random(5), random.Random(5)
    for _ in range(300):
        got = sample_chance(engine, fast)  # type: ignore[arg-type]
        assert got is _sample_weighted(actions, list(weights), slow), weights
    assert fast.random() == slow.random(), f"weights {weights}: the generators drifted"


def test_draws_from_a_subclassed_generator_go_through_randrange() -> None:
    """A generator of another class is asked through ``randrange``, its own way of drawing."""

    class Counting(random.Random):
        calls = 0

        def randrange(self, *args: Any, **kwargs: Any) -> int:
            Counting.calls += 1
            return super().randrange(*args, **kwargs)

    actions: list[Action] = [{"kind": "x", "i": i} for i in range(6)]
    engine = _Weighted(actions, equal_weights(6))
    plain = random.Random(2)
    counting = Counting(2)
    for _ in range(50):
        assert sample_chance(engine, counting) is sample_chance(engine, plain)  # type: ignore[arg-type]
    assert Counting.calls == 50


def test_this_interpreter_draws_randrange_from_getrandbits() -> None:
    """The bits shortcut is on here (CPython), and it was checked against randrange."""
    assert play._PLAIN_RANDOM is random.Random
    assert play._randrange_is_getrandbits()


def _variants(action: Action) -> list[Any]:
    """Return ``action`` and near misses: wrong JSON types, bounds, keys."""
    out: list[Any] = [action, dict(action), None, [], "roll", {}, {"kind": action["kind"]}]
    for key, value in action.items():
        for other in (True, False, 1, 1.0, -1, 10_000, "x", None, [value], {"v": value}):
            out.append({**action, key: other})
        out.append({k: v for k, v in action.items() if k != key})
    out.append({**action, "extra": 1})
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_quick_shape_check_never_passes_what_the_schema_refuses(game: str) -> None:
    """For legal actions of random play and their near misses, ``fits`` True means the
    validator finds nothing; legal actions do fit (the shortcut is taken)."""
    spec = get_spec(game)
    schemas = action_schemas(spec)
    assert all(s.fits is not None for s in schemas.by_kind.values()), \
        f"{game}: a schema the shortcut cannot read (fine, but then it is not used)"
    rng = random.Random(11)
    engine = new_game(game, players=spec.max_players)
    seen: dict[str, Action] = {}
    while engine.current_player() is not None and len(seen) < len(schemas.by_kind):
        legal = engine.chance_outcomes() if engine.current_player() == CHANCE else None
        for action in ([a for a, _ in legal] if legal is not None else engine.legal_actions()):
            seen.setdefault(str(action["kind"]), action)
        engine.apply(random_policy(engine, rng))
    checked = 0
    for kind, action in seen.items():
        schema = schemas.by_kind[kind]
        assert schema.fits is not None and schema.fits(action), f"{game}: {action} should fit"
        for candidate in _variants(action):
            if schema.fits(candidate):
                assert not list(schema.validator.iter_errors(candidate)), (game, candidate)
                checked += 1
            else:
                assert type(candidate) is not dict or list(
                    schema.validator.iter_errors(candidate)), (game, candidate)
    assert checked >= len(seen)


def test_an_unknown_keyword_keeps_the_validator() -> None:
    """A schema beyond flat scalar properties gets no shortcut: only the validator judges it."""
    assert fast_check({"type": "object", "properties": {"a": {"type": "array"}}}) is None
    assert fast_check({"type": "object", "patternProperties": {}}) is None
    assert fast_check({"type": "object", "properties": {"a": {"type": "integer",
                                                              "multipleOf": 2}}}) is None
    fits = fast_check({"type": "object", "required": ["n"], "additionalProperties": False,
                       "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 3}}})
    assert fits is not None
    assert fits({"n": 2}) and not fits({"n": True}) and not fits({"n": 2.0})
    assert not fits({"n": 4}) and not fits({"n": 2, "m": 1}) and not fits({})
