"""The action numbering: derived from the spec's action schemas, inverse both ways."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rulespec.bridges.encoding import ActionEncoding, EncodingError
from rulespec.reference.registry import new_game
from rulespec.spec.registry import game_ids, get_spec
from tests.bridges.support import configurations


@pytest.mark.parametrize(("game", "players"), configurations())
def test_every_legal_action_round_trips(game: str, players: int) -> None:
    """Each legal action (chance outcomes too) has an id that decodes to the same action."""
    encoding = ActionEncoding(get_spec(game))
    engine = new_game(game, players=players)
    rng = random.Random(3)
    for _ in range(300):
        if engine.is_terminal():
            break
        legal = engine.legal_actions()
        ids = [encoding.encode(a) for a in legal]
        assert len(set(ids)) == len(ids), f"{game}: two legal actions share an id"
        assert all(0 <= i < encoding.size for i in ids)
        assert [encoding.decode(i) for i in ids] == legal
        engine.apply(rng.choice(legal))


@pytest.mark.parametrize("game", game_ids())
def test_every_id_decodes_to_an_action_that_encodes_back(game: str) -> None:
    """Decoding is total on 0..size-1 and encoding inverts it (sampled for large games)."""
    encoding = ActionEncoding(get_spec(game))
    ids = sorted(set(random.Random(0).sample(range(encoding.size), min(2000, encoding.size))))
    for i in [*ids, encoding.size - 1]:
        assert encoding.encode(encoding.decode(i)) == i


def test_json_types_are_kept_apart() -> None:
    """`true` is not `1` and `1.0` is not `1`: they are not numbered as the same action."""
    encoding = ActionEncoding(get_spec("ruby-rhino"))
    assert encoding.encode({"kind": "first_player", "player": 1}) >= 0
    for bad in (True, 1.0, "1"):
        with pytest.raises(EncodingError, match="outside its domain"):
            encoding.encode({"kind": "first_player", "player": bad})


def test_an_unbounded_parameter_is_refused_with_what_to_do() -> None:
    """A parameter without a finite domain cannot be numbered; the error names it."""
    spec = get_spec("ruby-rhino")
    data = dict(spec.data)
    actions = [dict(a) for a in data["actions"]]
    params = dict(actions[-1]["params"])
    params["properties"] = {**params["properties"], "count": {"type": "integer", "minimum": 1}}
    actions[-1] = {**actions[-1], "params": params}
    data["actions"] = actions
    with pytest.raises(EncodingError, match=r"'count' has no finite domain.*maximum"):
        ActionEncoding(replace(spec, data=data))
