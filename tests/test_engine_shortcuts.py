"""The engines' speed shortcuts (issue 11 part 4) say exactly what the slow paths say.

Chance draws from a weight tuple use a remembered draw table and ask the generator for bits
directly; an action's shape is checked without jsonschema when its schema is a flat object of
scalar properties. Each shortcut is compared here with the path it stands for. They check no
clause of a game, only that the speed-ups keep every check the other tests make honest.
"""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from rulespec.reference import play
from rulespec.reference.actions import ActionSchemas, action_schemas, fast_check
from rulespec.reference.core import CHANCE, Action, Engine, equal_weights, slot_names
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


@pytest.mark.parametrize("game", GAMES)
def test_refusals_worded_alike_are_the_ones_the_validator_words_alike(game: str) -> None:
    """A malformed action's sentences are remembered by ``wording_key``: near misses of many
    legal actions that share a key get, worded afresh, the very same sentences (the engines'
    refusals cite the schema's clauses, e.g. FOOL-DEAL-01 for a deal)."""
    spec = get_spec(game)
    schemas = ActionSchemas(spec)
    rng = random.Random(5)
    engine = new_game(game, players=spec.max_players)
    legal_seen: dict[str, list[Action]] = {}
    while engine.current_player() is not None and sum(map(len, legal_seen.values())) < 300:
        legal = engine.chance_outcomes() if engine.current_player() == CHANCE else None
        for action in ([a for a, _ in legal] if legal is not None else engine.legal_actions()):
            kind_seen = legal_seen.setdefault(str(action["kind"]), [])
            if action not in kind_seen and len(kind_seen) < 60:
                kind_seen.append(action)
        engine.apply(random_policy(engine, rng))
    shared = 0
    for kind, actions in legal_seen.items():
        schema = schemas.by_kind[kind]
        assert schema.wording is not None, f"{game}: {kind} is worded by repr only"
        worded: dict[Any, tuple[Any, list[str]]] = {}
        for candidate in (c for a in actions for c in _variants(a)):
            if type(candidate) is not dict or (schema.fits is not None and schema.fits(candidate)):
                continue
            schema._said.clear()  # worded afresh by the validator
            said = schema.problems(candidate)
            assert said, (game, candidate)
            first = worded.setdefault(schema.wording(candidate), (candidate, said))
            if first[0] != candidate:
                assert said == first[1], (game, first[0], candidate)
                shared += 1
    assert shared, f"{game}: no two near misses shared a wording key; the test shows nothing"


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


def test_draws_alternating_between_weight_tuples_are_the_draws_of_the_weights() -> None:
    """The two draw tables used last are remembered: alternating dice (Ruby Rhino's two) and a
    third tuple now and then draw what ``_sample_weighted`` draws, from the same bits."""
    tables = [(1, 1, 1, 1, 1), (2, 1, 1), (1, 3), (1, 1, 1, 1, 1)]  # the last: equal, another object
    engines = [_Weighted([{"kind": "x", "i": i} for i in range(len(w))], w) for w in tables]
    fast, slow = random.Random(8), random.Random(8)
    for step in range(400):
        engine = engines[step % 2] if step % 7 else engines[2 + step % 2]
        actions, weights = engine.weighted
        got = sample_chance(engine, fast)  # type: ignore[arg-type]
        assert got is _sample_weighted(actions, list(weights), slow), (step, weights)
    assert fast.random() == slow.random(), "the generators drifted"


class _Slotted:
    """A stand-in with slots and a dict, cloned by ``Engine.clone``'s rules."""

    __slots__ = ("__dict__", "__hidden", "hand", "score", "table", "unset")
    SHARED = frozenset({"table"})

    def __init__(self) -> None:
        self.hand = [[1, 2], [3]]
        self.score = 4
        self.table = [9]
        self.__hidden = {"k": [1]}
        self.notes = ["a"]

    clone = Engine.clone


def test_clone_copies_slots_like_the_instance_dict() -> None:
    """Slot attributes are copied (mutable ones deeply), shared ones shared, unset ones left
    unset; private slot names are found under their mangled names."""
    assert slot_names(_Slotted) == ("_Slotted__hidden", "hand", "score", "table", "unset")
    original = _Slotted()
    twin = original.clone()  # type: ignore[misc]
    for name in ("hand", "score", "table", "_Slotted__hidden", "notes"):
        assert getattr(twin, name) == getattr(original, name), name
    assert twin.hand is not original.hand and twin.hand[0] is not original.hand[0]
    assert twin._Slotted__hidden["k"] is not original._Slotted__hidden["k"]  # type: ignore[attr-defined]
    assert twin.table is original.table, "SHARED attributes are shared"
    assert not hasattr(twin, "unset")
    twin.hand[0].append(5)
    twin.notes.append("b")
    assert original.hand == [[1, 2], [3]] and original.notes == ["a"]


FAST_APPLY = ["dado-de-ouro", "ruby-rhino", "ouro-de-tolo"]


@pytest.mark.parametrize("game", FAST_APPLY)
def test_a_subclass_with_its_own_apply_hook_gets_it_called(game: str) -> None:
    """An ``apply`` that records actions itself (``inlines_apply``) is kept by a plain subclass,
    and given up by one that overrides ``_apply`` or ``is_legal``: their hooks see every action
    (the negative corpus's stale-memo engine relies on it)."""
    base = type(new_game(game, players=get_spec(game).min_players))
    assert base.apply is not Engine.apply, f"{game}: no fast apply to give up"
    plain = cast("type[Engine]", type("Plain", (base,), {}))
    assert plain.apply is base.apply
    seen: list[Action] = []

    def _apply(self: Engine, action: Action) -> None:
        seen.append(action)
        base._apply(self, action)

    checked: list[Action] = []

    def is_legal(self: Engine, action: Any) -> bool:
        checked.append(action)
        return base.is_legal(self, action)

    hooked = cast("type[Engine]", type("Hooked", (base,), {"_apply": _apply}))
    legal_hooked = cast("type[Engine]", type("LegalHooked", (base,), {"is_legal": is_legal}))
    assert hooked.apply is Engine.apply and legal_hooked.apply is Engine.apply
    spec = get_spec(game)
    for cls, calls in ((hooked, seen), (legal_hooked, checked)):
        engine = cls(spec, new_game(game, players=spec.min_players).config)
        rng = random.Random(4)
        steps = 0
        while engine.current_player() is not None and steps < 400:
            engine.apply(random_policy(engine, rng))
            steps += 1
        assert len(calls) == steps > 0, f"{game}: {cls.__name__} saw {len(calls)} of {steps}"


@pytest.mark.parametrize("schema", [
    {}, {"type": "integer"}, {"type": "integer", "minimum": 1},
    {"type": "integer", "minimum": 1, "maximum": 3},
    {"type": "integer", "minimum": 1, "maximum": 3, "enum": [1, 2, 5]},
    {"type": "string", "enum": ["a", "b"]}, {"const": 2}])
def test_a_value_check_of_any_length_agrees_with_the_strict_validator(
        schema: dict[str, Any]) -> None:
    """The quick value checks (none, one, two, three or more keywords at once) accept exactly
    what the type-strict validator accepts (``true`` is not 1, 2.0 is not 2)."""
    from rulespec.reference.actions import StrictValidator, _value_check

    check = _value_check(schema)
    assert check is not None
    validator = StrictValidator(schema)
    values: list[Any] = [0, 1, 2, 3, 4, 5, True, 2.0, "2", "a", "c", None, [2]]
    for value in values:
        assert check(value) == validator.is_valid(value), (schema, value)
