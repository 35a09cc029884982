"""Rule examples (issue 12): every example holds on the reference, every witness tells its
ambiguity option apart from the others, and the examples files are checked like specs."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.examples.model import load_examples, rule_clauses, uncovered
from rulespec.examples.run import (
    judge_witnesses,
    options_without_witness,
    run_example,
    run_examples,
)
from rulespec.spec.errors import SpecError
from rulespec.spec.registry import game_ids, get_spec

GAMES = game_ids()
#: Games whose examples cover every rule clause and witness every ambiguity option.
COMPLETE = [g for g in GAMES
            if not uncovered(get_spec(g), load_examples(get_spec(g)).examples)
            and not options_without_witness(get_spec(g), load_examples(get_spec(g)))]


@pytest.mark.parametrize("game", GAMES)
def test_every_example_holds_on_the_reference(game: str) -> None:
    """Each example's expectations hold on the reference; a failure names the example, its
    clauses and the sentence of the rule."""
    failures = [o.describe() for o in run_examples(get_spec(game)) if not o.ok]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("game", GAMES)
def test_every_witness_distinguishes_its_option(game: str) -> None:
    """A witness holds under its option and fails under every other option of its ambiguity."""
    bad = [v.problem() for v in judge_witnesses(get_spec(game)) if not v.distinguishes]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("game", COMPLETE)
def test_complete_games_stay_complete(game: str) -> None:
    """Once a game's examples illustrate every rule clause and witness every ambiguity option,
    they must keep doing so."""
    spec = get_spec(game)
    file = load_examples(spec)
    assert not uncovered(spec, file.examples)
    assert not options_without_witness(spec, file)


def test_dado_de_ouro_is_complete() -> None:
    """Issue 12 "Done when": Dado de Ouro has 100% of its rule clauses illustrated and a
    witness for each of its 30 ambiguity options."""
    assert "dado-de-ouro" in COMPLETE
    assert rule_clauses(get_spec("dado-de-ouro"))


def test_failure_names_example_clauses_and_sentence() -> None:
    """DDO-SCORE-02: run under the other die, the d6 witness fails with its sentence."""
    spec = get_spec("dado-de-ouro")
    example = load_examples(spec).by_id()["DDO-EX-DIE-D6"]
    outcome = run_example(spec, example, words_module="rulespec.examples.vocab.dado_de_ouro",
                          rulings={"DDO-AMB-01": "d8"})
    assert not outcome.ok
    text = outcome.describe()
    assert "DDO-EX-DIE-D6" in text and "DDO-TURN-01" in text
    assert "A roll shows one of the faces 1 to 6." in text
    assert ":" in text.split(" ")[0]  # file:line:col first


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "ex.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_examples_file_lists_every_problem_with_its_place(tmp_path: Path) -> None:
    """Unknown clauses, unknown options and bad CEL are reported at once, with line:col."""
    path = _write(tmp_path, """\
format: rulespec-examples/1
game: dado-de-ouro
examples:
  - id: DDO-EX-A
    title: a
    clauses: [DDO-NOPE-01]
    witness: {ambiguity: DDO-AMB-01, option: d7}
    steps: []
    expect:
      - that: "state.scores["
        because: broken
""")
    with pytest.raises(SpecError) as info:
        load_examples(get_spec("dado-de-ouro"), path)
    text = str(info.value)
    assert f"{path}:6:" in text and "unknown clause 'DDO-NOPE-01'" in text
    assert "has no option 'd7'" in text
    assert f"{path}:10:" in text


def test_schema_problem_is_located(tmp_path: Path) -> None:
    """An example without expectations is refused at its place in the file."""
    path = _write(tmp_path, """\
format: rulespec-examples/1
game: dado-de-ouro
examples:
  - id: DDO-EX-A
    title: a
    clauses: [DDO-TURN-01]
    steps: []
""")
    with pytest.raises(SpecError) as info:
        load_examples(get_spec("dado-de-ouro"), path)
    assert f"{path}:4:5" in str(info.value) and "'expect' is a required property" in str(info.value)
