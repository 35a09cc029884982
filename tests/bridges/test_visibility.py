"""Visibility: no view given to a player shows a field the spec hides from that player."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from rulespec.bridges.common import BridgeGame, Play
from rulespec.spec.errors import SpecError
from rulespec.spec.registry import all_specs, get_spec
from rulespec.spec.validate import load_spec
from rulespec.spec.visibility import (
    HIDDEN,
    HiddenField,
    Step,
    check_hidden,
    hidden_fields,
    parse_path,
    view,
)
from tests.bridges.support import configurations


def at(value: Any, steps: tuple[Step, ...], owner: int | None = None,
       ) -> Iterator[tuple[int | None, Any]]:
    """Yield (owner seat, value) for every place ``steps`` reaches in ``value``."""
    if not steps:
        yield owner, value
        return
    step, rest = steps[0], steps[1:]
    if step == "*" and isinstance(value, list):
        for i, v in enumerate(value):
            yield from at(v, rest, i)
    elif isinstance(value, list | dict):
        # The schema check guarantees a list below an index and an object below a key.
        inner: Any = value
        if (step in inner) if isinstance(inner, dict) else (isinstance(step, int)
                                                             and step < len(inner)):
            yield from at(inner[step], rest, owner)


def leaks(seen: Any, fields: tuple[HiddenField, ...], player: int) -> list[str]:
    """Return the hidden paths (with owner) whose value ``seen`` shows to ``player``."""
    return [f"{h.path} of seat {owner}" for h in fields for owner, v in at(seen, h.steps)
            if not h.visible(owner, player) and v != HIDDEN]


def scramble(value: Any, field: HiddenField, player: int, steps: tuple[Step, ...] | None = None,
             owner: int | None = None) -> Any:
    """Return ``value`` with every value of ``field`` hidden from ``player`` replaced."""
    steps = field.steps if steps is None else steps
    if not steps:
        return value if field.visible(owner, player) else {"scrambled": True}
    step, rest = steps[0], steps[1:]
    if step == "*" and isinstance(value, list):
        return [scramble(v, field, player, rest, i) for i, v in enumerate(value)]
    if isinstance(step, str) and isinstance(value, dict) and step in value:
        return {**value, step: scramble(value[step], field, player, rest, owner)}
    return value


def _by_default(spec: Any) -> tuple[HiddenField, ...]:
    """What the spec hides under its default rulings: its entries that always hold, and those
    a record's default brings (``when``: FOOL-AMB-21 and OURO-AMB-39 hidden)."""
    from rulespec.reference.registry import new_game

    engine = new_game(spec.game_id, players=spec.min_players)
    return hidden_fields(spec.data) + engine.hidden_by_rulings()


def test_the_specs_hide_hands_money_and_decks() -> None:
    """FOOL-AMB-21, OURO-AMB-39 (hands, by default), OURO-EOD-03 (money), FOOL-DEAL-01 and
    OURO-DRAW-01 (the deck, the bag): hidden under the default rulings."""
    paths = {s.game_id: {(h.path, h.visible_to) for h in _by_default(s)}
             for s in all_specs()}
    assert {("$.hands[*]", "owner"), ("$.deck", "nobody")} <= paths["fool"]
    assert {("$.players[*].hand", "owner"), ("$.players[*].money", "owner"),
            ("$.bag", "nobody"), ("$.deck", "nobody")} <= paths["ouro-de-tolo"]
    assert paths["dado-de-ouro"] == paths["ruby-rhino"] == set()


@pytest.mark.parametrize(("game", "players"), configurations())
def test_no_view_shows_a_field_hidden_from_its_player(game: str, players: int) -> None:
    """At every step, each player's observation and newest information-state line show no
    field the spec hides from them, and changing those fields changes nothing they see."""
    bridge = BridgeGame(get_spec(game), players)
    fields = bridge.hidden
    play = Play(bridge, bridge.new_engine())
    rng = random.Random(11)
    while not play.is_over() and play.steps < 400:
        state = play.engine.state()
        for p in range(players):
            seen = json.loads(play.observation_string(p))
            assert seen == view(state, fields, p)
            assert not leaks(seen, fields, p), f"{game}: player {p} sees {leaks(seen, fields, p)}"
            last = play.information_state_string(p).split("\n")[-1]
            actor, action, *rest = json.loads(last) if play.steps else (None, None)
            changed = rest[0] if rest else {}
            assert not leaks({**seen, **changed}, fields, p)
            if fields and actor == "chance":
                assert action is None, f"{game}: a chance outcome is shown to player {p}"
            other = state
            for h in fields:
                other = scramble(other, h, p)
            assert view(other, fields, p) == seen
        play.apply_id(rng.choice(play.legal_ids()))


def test_paths_are_parsed_and_checked_against_the_state_schema() -> None:
    """A hidden path must parse, fit the state schema, and (owner) name one seat with [*]."""
    assert parse_path("$.players[*].hand") == ("players", "*", "hand")
    spec = get_spec("fool")
    state = dict(spec.data["state"])
    state["hidden"] = [{"path": "$.hands[*]", "visible_to": "owner"},
                       {"path": "$.nope", "visible_to": "nobody"},
                       {"path": "$.deck", "visible_to": "owner"},
                       {"path": "hands", "visible_to": "nobody"}]
    problems = dict(check_hidden({**spec.data, "state": state}))
    assert set(problems) == {1, 2, 3}
    assert "the state schema has nothing at step 1 ('nope')" in problems[1]
    assert "exactly one [*]" in problems[2]
    assert "must start with '$'" in problems[3]


def test_the_validator_reports_a_bad_hidden_path(tmp_path: Any) -> None:
    """`rulespec validate` locates a hidden path the state schema lacks."""
    text = get_spec("ruby-rhino").path.read_text(encoding="utf-8")
    bad = tmp_path / "ruby-rhino.yaml"
    bad.write_text(text.replace("  hidden: []", "  hidden: [{path: $.purse, visible_to: nobody}]"),
                   encoding="utf-8")
    with pytest.raises(SpecError, match=r"\$\.state\.hidden\[0\]\.path: hidden path '\$\.purse'"):
        load_spec(bad)


def test_views_leave_the_state_unchanged() -> None:
    """A view is a copy: the engine's state is not redacted in place."""
    spec = get_spec("fool")
    state: dict[str, Any] = {"hands": [{"a": 1}, {"b": 2}], "deck": [1]}
    fields = _by_default(replace(spec))
    seen = view(state, fields, 0)
    assert seen["hands"][1] == HIDDEN and state["hands"][1] == {"b": 2}


@pytest.mark.parametrize(("option", "hidden"), [("displayed", False), ("in-hand", True)])
def test_the_bridges_hide_what_the_rulings_hide(option: str, hidden: bool) -> None:
    """OURO-AMB-37 (OURO-DRAW-04: are a player's Fool's Gold in sight?): under in-hand, the
    observation the bridges give a player hides the others' Fool's Gold and shows its own;
    under displayed (the old play), everyone sees them."""
    spec = get_spec("ouro-de-tolo")
    game = BridgeGame(spec, 3, rulings={"OURO-AMB-37": option})
    paths = [h.path for h in game.hidden]
    assert ("$.players[*].stones.fools_gold" in paths) == hidden
    play = Play(game, game.new_engine())
    mine, theirs = play.view(0)["players"][0], play.view(1)["players"][0]
    assert mine["stones"]["fools_gold"] != HIDDEN
    assert (theirs["stones"]["fools_gold"] == HIDDEN) == hidden
    assert not game.perfect_information
