"""Tally Old's own tests: each names the clause or ambiguity it checks in its docstring and its
failure message. Run them where rulespec and this distribution are installed: ``python -m pytest``.

They import only rulespec's public API (``rulespec.reference``, ``rulespec.spec``,
``rulespec.conformance``): the modules underneath may change without notice.
"""

from __future__ import annotations

import itertools

import pytest
from rulespec.conformance import (
    golden_differences,
    perft_differences,
    random_game_problems,
    rule_example_failures,
)
from rulespec.reference import (
    IllegalAction,
    check_implementation,
    decision_point_problems,
    new_game,
    unreached_records,
)
from rulespec.spec import get_spec, load_spec, registered

from rulespec_tally_old import GAME

GAME_ID = "tally-old"
#: Every option of every ambiguity record, and every combination of them.
OPTIONS = {str(amb["id"]): [str(o["id"]) for o in amb["options"]]
           for amb in get_spec(GAME_ID).section("ambiguities")}
EVERY_RULING = [dict(zip(OPTIONS, combo, strict=True))
                for combo in itertools.product(*OPTIONS.values())]


# -- the package, the spec and the files rulespec writes ------------------------------------------


def test_registered_through_the_entry_point() -> None:
    """The game comes from this distribution's entry point, with its own files."""
    assert registered(GAME_ID).package == GAME
    assert GAME.rulebooks is not None and (GAME.rulebooks / "tally-old-rules.txt").is_file()


def test_spec_quotes_are_verbatim_in_its_own_rulebook() -> None:
    """Every quote is in the rules text and the sha256 in the spec is the text's."""
    load_spec(GAME.spec, sources=GAME.rulebooks)


def test_reference_implements_exactly_the_behaviour_options() -> None:
    """Every option marked behaviour is implemented, and nothing else."""
    problems = check_implementation(get_spec(GAME_ID))
    assert not problems, "\n".join(map(str, problems))


def test_every_ruling_is_asked_where_the_question_comes_up() -> None:
    """Each ambiguity has a decision point (self.ruling/self.decide), none is read from the
    configuration, and random games under every option reach every record."""
    spec = get_spec(GAME_ID)
    assert decision_point_problems(spec) == []
    assert unreached_records(spec) == []


def test_rule_examples_hold_and_witnesses_tell_their_options_apart() -> None:
    """Every rule example holds on the reference; each witness fails under the other options."""
    failures = rule_example_failures(GAME_ID)
    assert not failures, "\n".join(failures)


def test_golden_traces_are_up_to_date() -> None:
    """The committed golden traces are what the reference plays today (rulespec golden)."""
    problems = golden_differences(games=[GAME_ID])
    assert not problems, "\n".join(problems)


def test_perft_tables_are_up_to_date() -> None:
    """The committed perft tables are a fresh count (rulespec perft --write-tables)."""
    problems = perft_differences([GAME_ID])
    assert not problems, "\n".join(problems)


# -- random games under every ruling, every invariant checked -------------------------------------


@pytest.mark.parametrize("rulings", EVERY_RULING, ids=lambda r: "-".join(r.values()))
@pytest.mark.parametrize("players", [2, 4])
def test_every_invariant_holds_in_random_games(rulings: dict[str, str], players: int) -> None:
    """TALLYOLD-INV-*: the state schema and every invariant hold at every step of random games."""
    for seed in range(3):
        problems = random_game_problems(GAME_ID, seed=seed, players=players, rulings=rulings)
        assert not problems, "\n".join(problems)


# -- one test per rule that can be broken ---------------------------------------------------------


def test_no_more_counters_than_are_left() -> None:
    """TALLYOLD-TURN-03: taking more counters than the pile holds is refused, citing the clause."""
    engine = new_game(GAME_ID, players=2, parameters={"pile": 2})
    engine.apply({"kind": "first_player", "player": 0})
    with pytest.raises(IllegalAction) as info:
        engine.apply({"kind": "take", "count": 3})
    assert "TALLYOLD-TURN-03" in info.value.clauses, info.value
    assert engine.state()["pile"] == 2, "TALLYOLD-TURN-03: a refused take changes nothing"
