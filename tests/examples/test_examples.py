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
#: The built-in games: each has an example for every rule clause and a witness for every
#: ambiguity option that changes play (a plugin game may have fewer).
BUILT_IN = ["dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"]


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


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_rule_clause_has_an_example(game: str) -> None:
    """Issue 12 "Done when": 100% of the rule clauses (not definitions, not flavour) of each
    built-in game are illustrated by an example."""
    spec = get_spec(game)
    assert rule_clauses(spec)
    missing = uncovered(spec, load_examples(spec).examples)
    assert not missing, f"{game}: rule clauses without an example: {missing}"


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_ambiguity_option_has_a_witness(game: str) -> None:
    """Issue 12: every option of every ambiguity that changes play has a witness (an ambiguity
    about the text only, whose options set nothing, cannot have one)."""
    spec = get_spec(game)
    lonely = options_without_witness(spec, load_examples(spec))
    assert not lonely, f"{game}: options without a witness: {lonely}"


def test_built_in_games_have_150_examples() -> None:
    """Issue 12: at least 150 examples across the four games."""
    assert sum(len(load_examples(get_spec(g)).examples) for g in BUILT_IN) >= 150


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
    steps: [{roll_dice: [6]}]
    expect:
      - that: "state.scores["
        because: broken
""")
    with pytest.raises(SpecError) as info:
        load_examples(get_spec("dado-de-ouro"), path)
    text = str(info.value)
    assert f"{path}:6:" in text and "unknown clause 'DDO-NOPE-01'" in text
    assert "has no option 'd7'" in text
    assert "unknown word 'roll_dice'" in text
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


def test_cli_runs_examples_and_reports_coverage() -> None:
    """``rulespec examples GAME --coverage --witnesses`` passes on a complete game."""
    from click.testing import CliRunner

    from rulespec.examples.cli import examples

    result = CliRunner().invoke(examples, ["ruby-rhino", "--coverage", "--witnesses"])
    assert result.exit_code == 0, result.output
    assert "35/35 rule clauses illustrated (100%)" in result.output
    # Counted from the file, so that a new witness does not break this test.
    witnesses = sum(ex.witness is not None for ex in load_examples(get_spec("ruby-rhino")).examples)
    assert f"witnesses: {witnesses}/{witnesses} distinguish their option" in result.output


def test_cli_lists_uncovered_clauses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--coverage lists the rule clauses without an example and exits 1."""
    from click.testing import CliRunner

    from rulespec.examples import cli as examples_cli
    from rulespec.examples.model import ExampleFile

    spec = get_spec("dado-de-ouro")
    full = load_examples(spec)
    partial = ExampleFile(full.path, full.game, full.vocabulary, full.examples[:3])
    monkeypatch.setattr(examples_cli, "load_examples", lambda _spec: partial)
    result = CliRunner().invoke(examples_cli.examples, ["dado-de-ouro", "--coverage"])
    assert result.exit_code == 1
    assert "no example: DDO-SCORE-02" in result.output
    assert "no witness: DDO-AMB-01=d6" in result.output
