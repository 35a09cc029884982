"""The checks a game's own tests run through the public API (Pig's, a scaffolded game's): each
returns [] on a sound game and a sentence naming what broke otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.conformance import perft_differences, random_game_problems, rule_example_failures
from rulespec.reference import decision_point_problems, unreached_records
from rulespec.spec import GamePackage, RegisteredGame, get_spec, registered
from rulespec.spec import registry as registry_module
from rulespec.spec.registry import Registry

GAME = "dado-de-ouro"


def _register(monkeypatch: pytest.MonkeyPatch, package: GamePackage) -> None:
    fake = Registry({GAME: RegisteredGame(GAME, package, "rulespec-test-plugin")}, {})
    monkeypatch.setattr(registry_module, "registry", lambda: fake)


def test_a_sound_game_has_no_problems() -> None:
    """The reference of a built-in game passes every check a game's tests run."""
    spec = get_spec(GAME)
    assert random_game_problems(GAME, seed=1, players=4) == []
    assert rule_example_failures(GAME) == []
    assert decision_point_problems(spec) == []
    assert unreached_records(spec, players=[4], games=1) == []


def test_a_broken_invariant_is_named_with_the_step(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    """DDO-INV-TO-MOVE made false: random_game_problems names it, at step 0, with the seed."""
    source = registered(GAME).spec_path
    text = source.read_text(encoding="utf-8")
    broken = text.replace("(state.phase == 'over') == (state.to_move == null)\n",
                          "state.phase == 'nowhere'\n", 1)
    assert broken != text
    spec = tmp_path / source.name
    spec.write_text(broken, encoding="utf-8")
    _register(monkeypatch, GamePackage(spec=spec))
    problems = random_game_problems(GAME, seed=3)
    assert len(problems) == 1 and "DDO-INV-TO-MOVE" in problems[0], problems
    assert problems[0].startswith(f"{GAME} seed 3, step 0 (after None)"), problems


def test_missing_examples_and_perft_tables_are_problems(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    """A game without rule examples or perft tables is told where to write them."""
    spec = registered(GAME).spec_path
    _register(monkeypatch, GamePackage(spec=spec, examples=tmp_path / "ex.yaml",
                                       perft=tmp_path / "perft.json"))
    assert rule_example_failures(GAME) == [
        f"{GAME} has no rule examples; write them in {tmp_path / 'ex.yaml'}"]
    (problem,) = perft_differences([GAME])
    assert "missing; run rulespec perft dado-de-ouro --write-tables" in problem
