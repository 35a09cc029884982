"""Rule examples reach simple engines (issue from outside testers, 0.3.0).

An engine of a game's first release could not declare the parameters it honours (hello had no
``parameters`` then): the kit sends it the rule examples' overrides, as the kit of its release
did, and every clause with examples has one it runs (FOOL-DEAL-02's ``cards_per_player`` held 40
of Fool's 57 examples back). An example that sets an undeclared parameter to the value the spec
prints runs with the override left out. The text report says how many examples ran of how many
and the ``hello`` lines that would let the rest run, never cut short; ``--param`` or
``--ruling`` naming what the engine does not declare is a usage error (exit 2) naming what to
add to ``hello``.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rulespec.cli import main
from rulespec.conformance import SubprocessAdapter
from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.judging.checks import RunResult
from rulespec.conformance.judging.scope import (
    NotDeclared,
    Scope,
    asked_undeclared,
    hello_additions,
    legacy_parameters,
)
from rulespec.conformance.judging.versions import view_for
from rulespec.conformance.play.examples_check import ExampleRun, run_rule_examples
from rulespec.conformance.reports.report import _examples_lines
from rulespec.examples.model import load_examples
from rulespec.exitcodes import EXIT_USAGE
from rulespec.releases.implementers import PARAMETERS_IN_HELLO
from rulespec.releases.store import releases
from rulespec.spec import get_spec

from .test_spec_versions import FROZEN, DeclaredEngine

GAMES = ["fool", "ouro-de-tolo", "dado-de-ouro", "ruby-rhino"]


class FirstReleaseEngine(DeclaredEngine):
    """The reference as an engine of ``game``'s first release shows itself: its hello declares
    the release and its rulings, and no ``parameters`` (the key did not exist yet)."""

    def __init__(self, game: str, *, parameters: Mapping[str, Any] | None = None) -> None:
        super().__init__(game, releases(game)[0].version)
        self.parameters = parameters

    def hello(self) -> Hello:
        hello = super().hello()
        info = {k: v for k, v in hello.games[self.game].items() if k != "parameters"}
        if self.parameters is not None:
            info["parameters"] = dict(self.parameters)
        return replace(hello, games={**hello.games, self.game: info})


def _examples(adapter: Adapter, game: str) -> RunResult:
    """Run the rule examples as the kit does: the release the engine declares, held records."""
    spec = get_spec(game)
    hello = adapter.hello()
    view = view_for(spec, hello)
    hold = getattr(adapter, "hold", None)
    if callable(hold):
        hold(frozenset(view.held))
    how = ExampleRun(scope=Scope(), newer=view.newer,
                     legacy_parameters=legacy_parameters(spec, hello, view.declared))
    return run_rule_examples(adapter, spec, how=how)


def _uncovered(game: str, result: RunResult) -> list[str]:
    """Return the clauses with rule examples none of which ran."""
    left = ({x["id"] for x in result.undeclared} | set(result.newer)
            | {x["id"] for x in result.outside_scope})
    by_clause: dict[str, set[str]] = {}
    for example in load_examples(get_spec(game)).examples:
        for clause in example.clauses:
            by_clause.setdefault(clause, set()).add(example.id)
    return sorted(c for c, ids in by_clause.items() if not ids - left)


# Integration: every rule example of a game through the kit, 10-15 s each (issue 46's budget).
@pytest.mark.integration
@pytest.mark.parametrize("game", GAMES)
def test_an_engine_of_the_first_release_runs_an_example_of_every_clause(game: str) -> None:
    """Every clause with rule examples (FOOL-DEAL-02, OURO-END-01, DDO-END-01, RR-END-01...)
    has one an engine of the game's first release runs, and it passes."""
    result = _examples(FirstReleaseEngine(game), game)
    assert result.failures == [], [f.message for f in result.failures]
    assert result.undeclared == []
    assert _uncovered(game, result) == []
    total = len(load_examples(get_spec(game)).examples)
    assert result.examples == total - len(result.newer)
    text = "\n".join(_examples_lines(result))
    assert f"rule examples: {result.examples} of {total} run, 0 failed" in text
    assert "sent their parameter overrides" in text and PARAMETERS_IN_HELLO in text


# Integration: Fool's 57 rule examples run again (the first test runs them for every game) (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
def test_fools_first_release_runs_the_examples_of_cards_per_player() -> None:
    """The issue's case: 40 of Fool's examples set cards_per_player (FOOL-DEAL-02, FOOL-DEAL-03)
    to keep hands short. Before, 11 of 57 ran; now 51 (the other 6 need 1.1.0 or later)."""
    result = _examples(FirstReleaseEngine("fool"), "fool")
    assert result.examples == 51 and len(result.newer) == 6
    sent = result.config["parameters_sent_undeclared"]
    assert len(sent["examples"]) == 40 and "fool 1.0.0 (2026-11-29)" in sent["why"]


# Integration: Fool's 57 rule examples run again (the first test runs them for every game) (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
def test_declaring_parameters_ends_the_first_releases_contract() -> None:
    """An engine of the first release that declares ``parameters`` (even ``{}``) is sent only
    those: what needs others is counted, and the report gives the exact hello line."""
    engine = FirstReleaseEngine("fool", parameters={})
    assert legacy_parameters(get_spec("fool"), engine.hello(), "1.0.0") is None
    result = _examples(engine, "fool")
    assert len(result.undeclared) == 40 and result.examples == 11
    text = "\n".join(_examples_lines(result))
    assert "rule examples: 11 of 57 run, 0 failed" in text
    assert "to run them, declare in hello's games.fool" in text
    assert '"parameters": {"cards_per_player": {"maximum": 3, "minimum": 2}, "end_score": ' in text
    assert "(needed by 40 examples)" in text and " ..." not in text.replace('"..."', "")


def test_a_later_release_is_not_sent_undeclared_parameters() -> None:
    """fool 1.1.0 is dated 2026-12-01, after hello had ``parameters``: no legacy contract."""
    engine = DeclaredEngine("fool", "1.1.0")
    assert legacy_parameters(get_spec("fool"), engine.hello(), "1.1.0") is None
    hello = replace(engine.hello(), games={"fool": {"spec_version": "1.1.0"}})
    assert legacy_parameters(get_spec("fool"), hello, "1.1.0") is None
    assert legacy_parameters(get_spec("fool"), hello, "1.0.0") is not None


def test_an_example_at_the_printed_default_runs_without_the_override() -> None:
    """An example that sets target_score (RR-END-01) to the value Ruby Rhino prints runs on an
    engine that does not declare the parameter, without the override."""
    spec = get_spec("ruby-rhino")
    printed = spec.default_parameters(2)["target_score"]
    engine = FirstReleaseEngine("ruby-rhino", parameters={})
    from rulespec.conformance.play.examples_check import _at_printed_default

    config = {"game": "ruby-rhino", "players": 2, "rulings": {}, "variants": [],
              "parameters": {"target_score": printed}}
    sent, dropped = _at_printed_default(spec, engine.hello(), config)
    assert sent["parameters"] == {} and dropped == [f"target_score={printed}"]
    config["parameters"] = {"target_score": printed + 1}
    assert _at_printed_default(spec, engine.hello(), config) == (config, [])


def test_the_frozen_node_engine_runs_more_examples() -> None:
    """The Node.js Dado de Ouro engine frozen at 1.0.0 reads rounds_per_game and games_to_win
    (DDO-MATCH-02) but could not declare them: 32 examples run (23 before 0.3.0); the rest need
    ruling options it does not implement, and the report names them as hello lines. DDO-END-01,
    -02 and -04 had examples only under DDO-AMB-02=void-round until release 1.2.2 added three at
    every default (DDO-EX-FINAL-TIE-SHARED, DDO-EX-FINAL-SHARED-BEST, DDO-EX-FINAL-SHARED-AGAIN);
    release 1.3.0's witness of DDO-AMB-16 each-game (the old play) runs on it too."""
    if shutil.which("node") is None:
        pytest.skip("node is not installed")
    adapter = SubprocessAdapter(["node", str(FROZEN / "dado_de_ouro-1.0.0.js")])
    try:
        result = _examples(adapter, "dado-de-ouro")
    finally:
        adapter.close()
    assert result.failures == [] and result.examples == 32
    assert _uncovered("dado-de-ouro", result) == []
    ran = {x["id"] for x in result.undeclared}
    assert not ran & {"DDO-EX-FINAL-TIE-SHARED", "DDO-EX-FINAL-SHARED-BEST",
                      "DDO-EX-FINAL-SHARED-AGAIN"}
    lines = hello_additions("dado-de-ouro", result.undeclared)
    assert len(lines) == 1 and lines[0].startswith('"rulings": {..., "DDO-AMB-02": [')


def test_asking_for_an_undeclared_parameter_or_ruling_names_the_hello_line() -> None:
    """-p target_score=30 (RR-END-01) and --ruling FOOL-AMB-03=eight-only (FOOL-FOOL-03) on an
    engine that does not declare them: a usage error naming the hello line to add."""
    rhino = FirstReleaseEngine("ruby-rhino").hello()
    said = asked_undeclared(get_spec("ruby-rhino"), rhino,
                            Scope(parameters={"target_score": 30}))
    assert said is not None and '"parameters": {"target_score": {"maximum": 30, "minimum": 30}}' in said
    assert NotDeclared.exit_code == EXIT_USAGE
    fool = Hello("strict", "1", {"fool": {"rulings": {"FOOL-AMB-03": ["seven-and-eight"]}}})
    said = asked_undeclared(get_spec("fool"), fool, Scope(rulings={"FOOL-AMB-03": "eight-only"}))
    assert said is not None and '"FOOL-AMB-03": ["seven-and-eight", "eight-only"]' in said
    assert asked_undeclared(get_spec("fool"), fool,
                            Scope(rulings={"FOOL-AMB-03": "seven-and-eight"})) is None


# Integration: a whole conform run of a first-release engine, 14 s (issue 46's budget).
@pytest.mark.integration
def test_asking_for_a_record_newer_than_the_release_says_so() -> None:
    """--ruling FOOL-AMB-15=hand-at-a-time (FOOL-DEAL-01) on an engine of 1.0.0: the record
    came in 1.1.0."""
    spec = get_spec("fool")
    engine = DeclaredEngine("fool", "1.0.0")
    view = view_for(spec, engine.hello())
    said = asked_undeclared(spec, engine.hello(),
                            Scope(rulings={"FOOL-AMB-15": "hand-at-a-time"}), view.newer)
    assert said is not None and "added after 1.0.0" in said and "--for-implementers" in said


@pytest.mark.parametrize("argv", [
    ["-p", "target_score=30"], ["--ruling", "RR-AMB-03=take-rhino"]])
def test_conform_exits_2_on_what_the_engine_does_not_declare(
        argv: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The strict engine declares neither target_score nor RR-AMB-03=take-rhino
    (RR-END-01): exit 2, not NOTHING CHECKED."""
    import sys

    monkeypatch.chdir(tmp_path)
    engine = f"{sys.executable} -m tests.conformance.engines.strict ruby-rhino"
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parents[2]))
    with pytest.raises(SystemExit) as info:
        main(["conform", "--engine", engine, "--game", "ruby-rhino", "--examples", "1",
              "--no-golden", *argv])
    out, err = capsys.readouterr()
    assert info.value.code == EXIT_USAGE, out[-1500:] + err[-1500:]
    assert "the engine's hello does not declare it" in err and "NOTHING CHECKED" not in out
    assert "declare in hello's games.ruby-rhino" in err

