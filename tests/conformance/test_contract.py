"""The kit's own contract (issue 29, part 4): nothing the engine's hello does not declare is ever
sent (player counts, rulings, variants, parameters); what needs it is skipped and counted; the
scope asked (``-n``...) applies to every stage; a refusal says what was refused and why the kit
sent it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.explain.inference import run_inference
from rulespec.conformance.reports.report import render_text
from rulespec.reference.core import ConfigError
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

from .engines.strict import StrictAdapter, declaration
from .support import ROOT

QUICK = {"examples": 2, "warmup_examples": 1, "shrink_seconds": 2, "shorter_seconds": 0,
         "jobs": 1}


def _options(tmp: Path, **kw: Any) -> Options:
    return Options(**{**QUICK, "trace_dir": tmp, **kw})


@pytest.mark.parametrize("game", ["ouro-de-tolo", "ruby-rhino", "dado-de-ouro"])
def test_an_engine_refusing_anything_undeclared_is_never_refused(game: str,
                                                                 tmp_path: Path) -> None:
    """The default run, --declared, -n, --ruling and --param (declared, in range) against an
    engine that refuses every undeclared player count, ruling, variant and parameter: it
    refuses nothing, passes, and the rule examples it could not be sent are counted."""
    spec = get_spec(game)
    declared = declaration(spec)
    strict = StrictAdapter(game)
    report = check_engine(strict, game, options=_options(tmp_path))
    assert strict.refusals == [] and report.ok, (strict.refusals, render_text(report))
    assert report.examples is not None and report.examples.undeclared
    assert all(r.skipped for r in report.runs if r.config["players"] not in declared["players"])
    amb, (_, other) = next((a, o) for a, o in declared["rulings"].items() if len(o) > 1)
    (param, _), = declared["parameters"].items()
    value = spec.default_parameters(declared["players"][0])[param]
    for kw in ({"declared": True}, {"players": [declared["players"][-1]]},
               {"rulings": {amb: other}}, {"parameters": {param: value}}):
        report = check_engine(strict, game, options=_options(tmp_path, golden=True), **kw)
        assert strict.refusals == [] and report.ok, (kw, strict.refusals, render_text(report))
    profiles = run_inference(strict, spec, engine_class(spec), players=range(
        spec.min_players, spec.max_players + 1), games=1, max_steps=50)
    assert strict.refusals == [] and len(profiles) == len(set(declared["players"]))


def test_examples_needing_an_undeclared_parameter_are_skipped_and_counted(
        tmp_path: Path) -> None:
    """Ouro de Tolo's deck examples override card_counts: an engine that does not declare it is
    not sent them; they are counted with the reason, in the text and the JSON report."""
    report = check_engine(StrictAdapter("ouro-de-tolo"), "ouro-de-tolo", players=[3],
                          options=_options(tmp_path, golden=False))
    assert report.examples is not None
    needing = [x for x in report.examples.undeclared if "card_counts" in x["why"]]
    assert {x["id"] for x in needing} >= {"OURO-EX-DECK-RESHUFFLE", "OURO-EX-DECK-EMPTY"}
    assert "parameter card_counts is not declared by the engine" in needing[0]["why"]
    assert "parameter card_counts" in needing[0]["needs"]
    text = render_text(report)
    assert (f"{len(report.examples.undeclared)} not run, needing what the engine does not "
            "declare: parameter desired_amount (") in " ".join(text.split()), text


def test_the_scope_asked_applies_to_rule_examples_and_golden_traces(tmp_path: Path) -> None:
    """-n 4: rule examples and golden traces of other player counts are not played; they are
    counted as outside the scope asked (before, -n was honoured by golden traces only)."""
    report = check_engine(InProcessAdapter(), "fool", players=[4],
                          options=_options(tmp_path, examples=1))
    assert report.ok and report.examples is not None
    assert report.examples.outside_scope and all(
        "outside the scope asked (4 players)" in x["why"] for x in report.examples.outside_scope)
    played = {json.dumps(f) for f in report.golden_skipped}
    assert report.golden and report.golden_skipped, played
    assert all("players" in x["why"] for x in report.golden_skipped)
    assert all(run.config["players"] == 4 for run in report.runs)


class RefusesShortGames(InProcessAdapter):
    """A Dado de Ouro engine that declares rounds_per_game but refuses it at start (a bug)."""

    def hello(self) -> Hello:
        base = super().hello()
        games = {g: {**info, "parameters": {"rounds_per_game": {"minimum": 1, "maximum": 100}}}
                 for g, info in base.games.items()}
        return Hello(base.name, base.version, games, base.capabilities)

    def start(self, config: Mapping[str, Any]) -> None:
        if "rounds_per_game" in (config.get("parameters") or {}):
            raise ConfigError("rounds_per_game cannot be changed")
        super().start(config)


def test_a_refusal_says_what_was_refused_and_why_it_was_sent(tmp_path: Path) -> None:
    """The engine refuses a configuration its hello declares: the failure names the
    configuration, the engine's words, the stage that sent it and the declaration that allowed
    it; every example refused the same way is one cause, printed once."""
    report = check_engine(RefusesShortGames(), "dado-de-ouro",
                          options=_options(tmp_path, golden=False))
    refused = [f for f in report.failures if f.cause and f.cause.startswith("refused the")]
    assert len(refused) > 1
    message = refused[0].message
    assert "the engine refused to start dado-de-ouro p4, defaults except rounds_per_game=1" in message
    assert "rounds_per_game cannot be changed" in message
    assert "for rule example DDO-EX-" in message
    assert "parameter rounds_per_game=1 (hello declares rounds_per_game 1..100)" in message
    text = render_text(report)
    assert " ".join(text.split()).count("rounds_per_game cannot be changed") == 1, text


def test_the_strict_engine_over_the_protocol_is_refused_nothing(tmp_path: Path) -> None:
    """`rulespec conform --engine` with the strict engine served over the protocol, default run
    (rule examples, golden traces, every declared count): exit 0 and no refusal logged."""
    log = tmp_path / "refusals.log"
    engine = f"{sys.executable} -m tests.conformance.engines.strict ouro-de-tolo"
    done = subprocess.run([sys.executable, "-m", "rulespec", "conform", "--engine", engine,
                           "--game", "ouro-de-tolo", "--examples", "2", "--trace-dir",
                           str(tmp_path / "t"), "--budget", "60"],
                          capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
                          env={**os.environ, "STRICT_LOG": str(log), "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert not log.exists() or log.read_text() == "", log.read_text()
    assert "needing what the engine does not declare" in done.stdout
