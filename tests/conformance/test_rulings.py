"""Ruling inference: an engine that follows another option of an ambiguity is told which one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.explain.inference import run_inference
from rulespec.conformance.reports.report import render_text
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

from .corpus import RULING_ENGINES, BadEngine, playable_games
from .support import bad_server_command

ENGINES = [b for b in RULING_ENGINES if b.game in playable_games()]


def _like(bad: BadEngine) -> tuple[str, str]:
    if bad.behaves_like is None:
        raise ValueError(f"{bad} follows no declared option")
    return bad.behaves_like


@pytest.mark.parametrize("bad", ENGINES, ids=str)
def test_kit_names_the_ruling_the_engine_follows(bad: BadEngine, tmp_path: Path) -> None:
    """A divergence is explained: "the engine behaves like AMB = option"."""
    amb, opt = _like(bad)
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    report = check_engine(adapter, bad.game, players=[bad.players or 2],
                          options=Options(examples=40, trace_dir=tmp_path, golden=False, rule_examples=False,
                                          shrink_seconds=4, shorter_seconds=3,
                                          determinism_every=0))
    assert not report.ok, f"{bad} passed the kit"
    failure = report.failures[0]
    assert {amb: opt} in [dict(m) for m in failure.matches], (
        f"{bad}: matches {failure.matches} ({failure.inference}) do not name {amb}={opt}")
    assert f"behaves like {amb} = {opt}" in render_text(report)
    assert "rerun with --infer" in render_text(report)


#: Fool's games are long; its profiles are inferred only in the slow run (the kit still names
#: Fool's rulings in the default run, above).
INFER = [pytest.param(b, marks=pytest.mark.slow) if b.game == "fool" else b for b in ENGINES]


@pytest.mark.parametrize("bad", INFER, ids=str)
def test_infer_reports_the_option(bad: BadEngine) -> None:
    """``conform --infer``: the ruling profile names the option the engine follows, alone."""
    amb, opt = _like(bad)
    spec = get_spec(bad.game)
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    profile, = run_inference(adapter, spec, engine_class(spec), players=[bad.players or 2])
    assert profile.consistent[amb] == [opt], f"{bad}: {profile.consistent[amb]}"
    assert profile.rulings[amb] == opt and profile.unexplained == 0


def test_conform_infer_command_over_the_protocol() -> None:
    """The command line, on an engine served over the protocol, prints the profile as JSON
    (the witnesses name the option; see test_profile.py for the rest)."""
    bad = next(b for b in ENGINES if b.game == "dado-de-ouro")
    amb, opt = _like(bad)
    cmd = " ".join(bad_server_command(bad.game, bad.name))
    run = subprocess.run([sys.executable, "-m", "rulespec", "conform", "--engine", cmd,
                          "--game", bad.game, "-n", str(bad.players), "--infer",
                          "--examples", "4", "--format", "json"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    profile = json.loads(run.stdout)
    assert [(d["record"], d["option"]) for d in profile["deviations"]] == [(amb, opt)]
