"""The compiled schemas give jsonschema's verdict on every value (STATE-SCHEMA's yes/no).

The kit's state check (``rulespec.conformance.judging.validation``) runs compiled schemas; jsonschema
stays the reference they are compared with here, on real states of every game, corrupted
states, protocol messages, action parameters and small schemas written to catch each
keyword's corner (``true`` is not ``1``, ``1.0`` is an integer, ``oneOf`` with two matches).
"""

from __future__ import annotations

import copy
import json
import math
import random
from typing import Any

import jsonschema
from hypothesis import given
from hypothesis import strategies as st

from rulespec.conformance.engine.protocol import SCHEMA_DIR, legal_of
from rulespec.reference.registry import new_game
from rulespec.spec.fastschema import compile_schema
from rulespec.spec.registry import game_ids, get_spec

#: Values that tell JSON types apart where Python mixes them up.
TRICKY: list[Any] = [0, 1, -1, 2, 7, 999, 1000, 10**30, True, False, 1.0, 1.5, -0.0,
                     math.nan, math.inf, "", "1", "chance", "green", None, [], [1], [True],
                     [1, 1.0], [1, True], {}, {"a": 1}, {"suit": "red", "value": 3}]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 1000) | st.floats(allow_nan=True)
    | st.sampled_from(["", "a", "chance", "red", "over", "play"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["a", "b", "suit", "value", "kind", "player"]), inner,
                      max_size=4),
    max_leaves=12)


def _agree(schema: Any, value: Any) -> None:
    want = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert compile_schema(schema)(value) == want, (json.dumps(schema)[:300], value)


def _corrupt(value: Any, rng: random.Random) -> Any:
    """Return ``value`` with one part somewhere inside replaced, dropped or added to."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(sorted(value))
        out = dict(value)
        roll = rng.random()
        if roll < 0.15:
            del out[key]
        elif roll < 0.25:
            out["x_unexpected"] = rng.choice(TRICKY)
        elif roll < 0.6:
            out[key] = _corrupt(value[key], rng)
        else:
            out[key] = rng.choice(TRICKY)
        return out
    if isinstance(value, list) and value and rng.random() < 0.8:
        out_list = list(value)
        i = rng.randrange(len(out_list))
        roll = rng.random()
        if roll < 0.2:
            out_list.append(copy.deepcopy(out_list[i]))
        elif roll < 0.6:
            out_list[i] = _corrupt(out_list[i], rng)
        else:
            out_list[i] = rng.choice(TRICKY)
        return out_list
    return rng.choice(TRICKY)


def test_every_game_state_and_corrupted_copies_get_jsonschemas_verdict() -> None:
    """STATE-SCHEMA: along a random game of every game, each state, and three corrupted copies
    of every fourth, is valid under the compiled state schema exactly when jsonschema says so."""
    rng = random.Random(11)
    for game in game_ids():
        spec = get_spec(game)
        schema = spec.state_schema
        check = compile_schema(schema)
        whole = jsonschema.Draft202012Validator(schema)
        engine = new_game(game, players=spec.max_players)
        seen = invalid = 0
        while seen < 160:
            state = engine.state()
            assert check(state) and whole.is_valid(state), game
            if seen % 4 == 0:
                for _ in range(3):
                    bad = _corrupt(state, rng)
                    verdict = whole.is_valid(bad)
                    invalid += not verdict
                    assert check(bad) == verdict, (game, bad)
            seen += 1
            if engine.current_player() is None:
                engine = new_game(game, players=spec.min_players)
            else:
                engine.apply(rng.choice(legal_of(engine).actions))
        assert invalid > 20, game  # the corruptions did reach the schema's limits


def test_action_and_protocol_schemas_agree_on_tricky_values() -> None:
    """Every action's params schema and every protocol message schema agree with jsonschema on
    values that mix up JSON types, and on the legal actions with one field swapped."""
    schemas: list[Any] = []
    for game in game_ids():
        schemas += [a.get("params") or {} for a in get_spec(game).section("actions")]
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        schemas.append(doc)
        schemas += [{"$schema": doc.get("$schema"), "$defs": doc.get("$defs", {}), **sub}
                    for sub in doc.get("$defs", {}).values()]
    engine = new_game("fool", players=4)
    actions = legal_of(engine).actions
    for schema in schemas:
        for value in TRICKY + actions[:3]:
            _agree(schema, value)
        for action in actions[:3]:
            for key in action:
                for swap in TRICKY:
                    _agree(schema, {**action, key: swap})


CORNERS: list[Any] = [
    {"type": "integer", "minimum": 0, "maximum": 7},
    {"type": ["integer", "null"], "minimum": 1},
    {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    {"enum": [1, "a", None, [1], {"a": 1}]},
    {"enum": [True, "chance"]},
    {"const": 1},
    {"const": [1, {"a": True}]},
    {"anyOf": [{"type": "integer"}, {"const": "chance"}, {"type": "null"}]},
    {"oneOf": [{"type": "integer"}, {"type": "number", "maximum": 5}]},
    {"allOf": [{"type": "array"}, {"maxItems": 2}], "not": {"items": {"type": "string"}}},
    {"type": "array", "uniqueItems": True, "minItems": 1},
    {"type": "array", "items": {"type": "object", "additionalProperties": False,
                                "required": ["suit"], "properties": {"suit": {"enum": ["red"]},
                                                                    "value": True}}},
    {"additionalProperties": {"type": "integer"}, "properties": {"a": {"type": "string"}},
     "minProperties": 1, "maxProperties": 3},
    {"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^[a-c]"},
    {"$defs": {"node": {"anyOf": [{"type": "integer"},
                                  {"type": "array", "items": {"$ref": "#/$defs/node"}}]}},
     "$ref": "#/$defs/node", "maxItems": 3},
    {"patternProperties": {"^a": {"type": "integer"}}, "additionalProperties": False},
    {"$id": "https://example.org/s", "items": {"$ref": "#"}, "type": ["array", "integer"]},
    {"prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
    {"dependentRequired": {"a": ["b"]}, "x-note": "any keyword not compiled"},
    {"items": False},
    False,
    True,
]


@given(st.sampled_from(CORNERS), json_values)
def test_each_keyword_corner_gets_jsonschemas_verdict(schema: Any, value: Any) -> None:
    """Generated JSON values under schemas written for each compiled keyword's corner cases
    (and for those handed to jsonschema) get jsonschema's verdict."""
    _agree(schema, value)


def test_tricky_values_under_the_corner_schemas() -> None:
    """The values where Python and JSON types part get jsonschema's verdict under each corner."""
    for schema in CORNERS:
        for value in [*TRICKY, [1, 2, 1], [[1], [True]], ["a", "ab", "abcd"], 1e300, 2**70]:
            _agree(schema, value)
