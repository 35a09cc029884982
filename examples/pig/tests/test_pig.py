"""Pig's own tests: each names the clause or ambiguity it checks (run them where rulespec and
rulespec-pig are installed: ``python -m pytest examples/pig/tests``).

They import only rulespec's public API (``rulespec.reference``, ``rulespec.spec``,
``rulespec.conformance``), as every plugin's tests should: the modules underneath may change.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from rulespec.conformance import (
    golden_differences,
    perft_differences,
    random_game_problems,
    rule_example_failures,
)
from rulespec.reference import (
    CHANCE,
    Engine,
    IllegalAction,
    check_implementation,
    decision_point_problems,
    new_game,
    unreached_records,
)
from rulespec.spec import get_spec, load_spec, registered
from rulespec_pig import GAME

GAME_ID = "pig"
#: Every option of every ambiguity record, as the spec lists them.
OPTIONS = {str(amb["id"]): [str(o["id"]) for o in amb["options"]]
           for amb in get_spec(GAME_ID).section("ambiguities")}
EVERY_RULING = [dict(zip(OPTIONS, combo, strict=True))
                for combo in itertools.product(*OPTIONS.values())]


def game(*, players: int = 2, target: int | None = None, **rulings: str) -> Engine:
    """Start a game; ``rulings`` are given as PIG_AMB_01="at-once" (underscores for hyphens)."""
    chosen = {k.replace("_", "-"): v for k, v in rulings.items()}
    params = {} if target is None else {"target_score": target}
    return new_game(GAME_ID, players=players, rulings=chosen, parameters=params)


def do(engine: Engine, *actions: Mapping[str, Any]) -> None:
    """Apply ``actions`` in order."""
    for action in actions:
        engine.apply(dict(action))


def die(face: int) -> dict[str, Any]:
    """Return the chance action of the die showing ``face``."""
    return {"kind": "die", "face": face}


ROLL = {"kind": "roll"}
HOLD = {"kind": "hold"}


# -- the package --------------------------------------------------------------------------------


def test_registered_through_the_entry_point() -> None:
    """The game comes from this distribution's entry point, with its own folders."""
    entry = registered(GAME_ID)
    assert entry.package == GAME
    assert entry.distribution == "rulespec-pig"
    assert GAME.rulebooks is not None and (GAME.rulebooks / "pig-rules.txt").is_file()


def test_spec_quotes_are_verbatim_in_its_own_rulebook() -> None:
    """Every quote is in pig-rules.txt and the sha256 in the spec is the text's."""
    load_spec(GAME.spec, sources=GAME.rulebooks)


def test_reference_implements_exactly_the_behaviour_options() -> None:
    """Every option of PIG-AMB-01..03 is implemented, and nothing else."""
    problems = check_implementation(get_spec(GAME_ID))
    assert not problems, "\n".join(map(str, problems))


def test_golden_traces_are_up_to_date() -> None:
    """The committed golden traces are what the reference plays today."""
    problems = golden_differences(games=[GAME_ID])
    assert not problems, "\n".join(problems)


def test_perft_tables_are_up_to_date() -> None:
    """The committed perft tables are a fresh count of the reference's game tree."""
    problems = perft_differences([GAME_ID])
    assert not problems, "\n".join(problems)


def test_rule_examples_hold_and_witnesses_tell_their_options_apart() -> None:
    """Every rule example of examples/pig.yaml holds on the reference; each witness of
    PIG-AMB-01..03 holds under its option and fails under the other."""
    failures = rule_example_failures(GAME_ID)
    assert not failures, "\n".join(failures)


def test_every_ruling_is_asked_where_the_question_comes_up() -> None:
    """PIG-AMB-01..03: each has a decision point (self.ruling/self.decide), none is read from
    the configuration, and random games under every option reach every record."""
    spec = get_spec(GAME_ID)
    assert decision_point_problems(spec) == []
    assert unreached_records(spec) == []


# -- random games under every ruling, every invariant checked -------------------------------------


@pytest.mark.parametrize("rulings", EVERY_RULING, ids=lambda r: "-".join(r.values()))
@pytest.mark.parametrize("players", [2, 5])
def test_every_invariant_holds_in_random_games(rulings: dict[str, str], players: int) -> None:
    """PIG-INV-*: the state schema and every invariant hold at every step of random games,
    which all end."""
    for seed in range(2):
        problems = random_game_problems(GAME_ID, seed=seed, players=players, rulings=rulings)
        assert not problems, "\n".join(problems)


# -- a turn ---------------------------------------------------------------------------------------


def test_a_turn_starts_with_a_roll() -> None:
    """PIG-TURN-03: holding before the first roll is refused, citing the clause."""
    engine = game()
    assert engine.current_player() == CHANCE
    with pytest.raises(IllegalAction) as info:
        engine.apply(HOLD)
    assert "PIG-TURN-03" in info.value.clauses


def test_an_add_face_goes_on_the_turn_total_then_the_player_decides() -> None:
    """PIG-TURN-04, PIG-TURN-06: a 5 adds 5; the player then chooses roll or hold."""
    engine = game()
    do(engine, die(5))
    assert engine.state()["turn_total"] == 5
    assert engine.current_player() == 0
    assert engine.legal_actions() == [ROLL, HOLD]


def test_a_bust_loses_the_turn_total_and_passes_the_turn() -> None:
    """PIG-TURN-05, PIG-TURN-08: a 1 loses the turn total, keeps the score, passes left."""
    engine = game()
    do(engine, die(6), HOLD, die(4), ROLL, die(1))
    state = engine.state()
    assert state["scores"] == [6, 0] and state["turn_total"] == 0
    assert state["turn"] == 0 and state["turns"] == [1, 1]


def test_holding_banks_the_turn_total_and_passes_left() -> None:
    """PIG-TURN-07, PIG-TURN-01: hold adds the turn total to the score; the next player rolls."""
    engine = game(players=3)
    do(engine, die(3), ROLL, die(4), HOLD)
    state = engine.state()
    assert state["scores"] == [7, 0, 0] and state["turn"] == 1 and state["phase"] == "roll"


def test_the_die_is_exactly_fair() -> None:
    """PIG-COMP-01: each face of the die-faces table with probability exactly 1/6."""
    outcomes = game().chance_outcomes()
    assert [a["face"] for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert {p for _, p in outcomes} == {Fraction(1, 6)}


def test_true_is_not_a_face() -> None:
    """PIG-COMP-01, PIG-TURN-02: a die action with face true is refused though true == 1 in
    Python; the refusal names the die action's schema and clauses."""
    engine = game()
    with pytest.raises(IllegalAction) as info:
        engine.apply({"kind": "die", "face": True})
    assert "action schema of die" in str(info.value) and "a boolean" in str(info.value)
    assert "PIG-TURN-02" in info.value.clauses
    with pytest.raises(IllegalAction):
        engine.apply({"kind": "die", "face": 2.0})


def test_the_target_is_a_parameter() -> None:
    """PIG-END-02: the target score comes from the spec's parameter, not from the code."""
    engine = game(target=5)
    do(engine, die(6), HOLD)
    assert engine.is_terminal() and engine.result() == {
        "scores": [6, 0], "ranking": [[0], [1]], "winners": [0]}


# -- the ambiguities: one witness per option ------------------------------------------------------


def test_on_hold_lets_a_player_roll_past_the_target_and_lose_it() -> None:
    """PIG-AMB-01 on-hold: reaching the target mid-turn counts only once the player holds."""
    engine = game(target=5, PIG_AMB_01="on-hold")
    do(engine, die(6))
    assert engine.current_player() == 0 and engine.state()["scores"] == [0, 0]
    do(engine, ROLL, die(1))
    assert not engine.is_terminal() and engine.state()["scores"] == [0, 0]


def test_at_once_banks_and_ends_the_turn_on_reaching_the_target() -> None:
    """PIG-AMB-01 at-once: the roll that reaches the target banks the turn total at once."""
    engine = game(target=5, PIG_AMB_01="at-once")
    do(engine, die(6))
    assert engine.is_terminal() and engine.state()["scores"] == [6, 0]


def test_immediate_ends_the_game_with_the_first_to_the_target() -> None:
    """PIG-AMB-02 immediate: the second player never gets the turn that would tie."""
    engine = game(target=5, PIG_AMB_02="immediate")
    do(engine, die(6), HOLD)
    assert engine.result() is not None and engine.result()["winners"] == [0]  # type: ignore[index]


def test_equal_turns_finishes_the_round_and_shares_a_tie() -> None:
    """PIG-AMB-02 equal-turns: the others finish the round; equal highest scores share the win."""
    engine = game(players=3, target=5, PIG_AMB_02="equal-turns")
    do(engine, die(6), HOLD)
    assert not engine.is_terminal() and engine.state()["final_round"] is True
    do(engine, die(6), HOLD, die(2), HOLD)
    result = engine.result()
    assert result is not None and result["winners"] == [0, 1]
    assert result["ranking"] == [[0, 1], [2]]
    assert engine.state()["turns"] == [1, 1, 1]


def test_equal_turns_round_ends_before_the_first_player() -> None:
    """PIG-AMB-02 equal-turns with PIG-AMB-03 chance-draw: the round ends with the player to the
    right of whoever went first."""
    engine = game(players=3, target=5, PIG_AMB_02="equal-turns", PIG_AMB_03="chance-draw")
    do(engine, {"kind": "first_player", "player": 2}, die(1), die(1), die(6), HOLD)
    assert engine.is_terminal(), "player 1 is the last of the round that player 2 started"
    assert engine.result()["winners"] == [1]  # type: ignore[index]


def test_seat_zero_goes_first() -> None:
    """PIG-AMB-03 seat-zero: player 0 rolls first, no draw."""
    engine = game(PIG_AMB_03="seat-zero")
    assert engine.state()["first"] == 0 and engine.state()["phase"] == "roll"


def test_chance_draw_picks_the_first_player_uniformly() -> None:
    """PIG-AMB-03 chance-draw: the first player is a uniform chance draw."""
    engine = game(players=4, PIG_AMB_03="chance-draw")
    outcomes = engine.chance_outcomes()
    assert [a["player"] for a, _ in outcomes] == [0, 1, 2, 3]
    assert {p for _, p in outcomes} == {Fraction(1, 4)}
    do(engine, {"kind": "first_player", "player": 3})
    assert engine.state()["turn"] == 3 and engine.state()["first"] == 3
