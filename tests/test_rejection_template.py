"""The engine base's template for refusals: the action's shape first, then the game's rules.

``Engine.rejection`` runs the action-schema check and only then the game's ``rule_rejection``;
a game written before the template, which overrides ``rejection`` whole, keeps working; a game
that says nothing about illegal actions is reported by ``check_implementation``.
"""

from __future__ import annotations

from typing import Any

import pytest

import rulespec.reference.registry as _registry_module  # patched below
from rulespec.reference import Engine, IllegalAction, Rejection, check_implementation, new_game
from rulespec.spec import get_spec


def test_a_well_formed_illegal_action_gets_the_games_reason() -> None:
    """RR-TURN-02: die 0 is rolled first; a roll of die 1 fits the schema but breaks the rule."""
    engine = new_game("ruby-rhino", players=2, rulings={"RR-AMB-10": "player-zero"})
    legal = engine.legal_actions()[0]
    assert legal["kind"] == "roll" and legal["die"] == 0
    wrong_die = {**legal, "die": 1}
    assert engine.check_action(wrong_die) is None
    why = engine.rejection(wrong_die)
    assert why.clauses == ("RR-TURN-02",)
    assert why == engine.rule_rejection(wrong_die)


def test_a_malformed_action_is_refused_for_its_shape_before_the_rules_are_asked() -> None:
    engine = new_game("ruby-rhino", players=2)
    asked: list[Any] = []
    engine.rule_rejection = asked.append  # type: ignore[method-assign,assignment]
    why = engine.rejection({"kind": "roll", "die": "0", "face": "coin1"})
    assert asked == []
    assert "action schema" in why.reason


class _Old(Engine):
    """A game written before the template: ``rejection`` overridden whole."""

    def current_player(self) -> int | None:
        return 0

    def legal_actions(self) -> list[dict[str, Any]]:
        return []

    def _apply(self, action: dict[str, Any]) -> None:  # pragma: no cover - nothing is legal
        raise AssertionError(action)

    def state(self) -> dict[str, Any]:
        return {}

    def result(self) -> dict[str, Any] | None:
        return None

    def rejection(self, action: Any) -> Rejection:
        return Rejection("nothing is legal in this test game", ("OLD-01",))


class _Silent(_Old):
    """A game that defines neither ``rule_rejection`` nor ``rejection``."""

    rejection = Engine.rejection


def _config() -> Any:
    spec = get_spec("ruby-rhino")
    return spec, new_game("ruby-rhino", players=2).config


def test_a_game_that_overrides_rejection_whole_keeps_working() -> None:
    spec, config = _config()
    with pytest.raises(IllegalAction) as info:
        _Old(spec, config).apply({"kind": "anything"})
    assert info.value.clauses == ("OLD-01",)


def test_a_game_that_says_nothing_about_illegal_actions_is_told_what_to_define() -> None:
    spec, config = _config()
    engine = _Silent(spec, config)
    with pytest.raises(NotImplementedError, match="define rule_rejection"):
        engine.rule_rejection({"kind": "roll", "die": 0, "face": "coin1"})


def test_check_implementation_reports_a_game_without_rule_rejection(
        monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get_spec("ruby-rhino")
    real = _registry_module.engine_class(spec)
    silent = type("SilentRhino", (real,), {"rule_rejection": Engine.rule_rejection})
    assert check_implementation(spec) == []
    monkeypatch.setattr(_registry_module, "engine_class", lambda _spec: silent)
    problems = check_implementation(spec)
    assert any("define rule_rejection" in p.message for p in problems), problems
