"""Traces of every revision of ``rulespec-trace/1`` (tests/compat/traces/README.md) replay with
today's ``rulespec replay`` and match today's ``conformance/schema/trace.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from rulespec.data import kit_dir
from tests.compat.conftest import PLUGINS, REPORTS, TRACES, rulespec

#: Every frozen trace line of the corpus, whatever wrote it.
FROZEN = sorted([*TRACES.glob("*.jsonl"), *PLUGINS.glob("*/*/traces/*.jsonl"),
                 *REPORTS.glob("matrix/failures/**/*.jsonl")])


def test_a_trace_without_states_replays() -> None:
    """rulespec-trace/1 as the 1.0.0 golden traces wrote it (actions only, no ``state`` nor
    ``delta``): it replays on today's reference, which says which spec release wrote it."""
    trace = TRACES / "dado-de-ouro-1.0.0.p4-variant-single-game.jsonl"
    proc = rulespec("replay", trace)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok: replayed 52 steps" in proc.stdout and "written for spec 1.0.0" in proc.stdout


def test_a_trace_with_states_and_deltas_replays() -> None:
    """rulespec-trace/1 with the header's ``state`` and steps' ``delta`` (full states every few
    steps), as ``rulespec play --trace`` wrote it in 0.2.0: every recorded state is checked."""
    trace = TRACES / "dado-de-ouro.play-states.jsonl"
    lines = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
    assert "state" in lines[0] and any("delta" in x for x in lines), "the artifact has states"
    proc = rulespec("replay", trace)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "ok: replayed 57 steps" in proc.stdout


def test_a_kit_failure_trace_in_a_state_fails_its_replay() -> None:
    """A kit failure trace (DIFF-STATE, the engine's states recorded, the failure on the result
    line): the replay exits 1 at the step where the engine's state differs, and prints the
    failure the trace records (DDO-ROUND-01: the planted engine rotates the round starter)."""
    proc = rulespec("replay", TRACES / "kit-failure.dado-de-ouro-DIFF-STATE-1.jsonl")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "FAILED: step 8 (line 9)" in proc.stdout, proc.stdout
    assert "/round_starter is 2 but the reference has 1" in proc.stdout
    assert "the trace records the kit's DIFF-STATE failure at step 8" in proc.stdout


def test_a_kit_failure_trace_of_a_rule_example_replays_and_says_its_failure() -> None:
    """A rule example's failure trace (the example's moves with the reference's states, the
    failure on the result line): it replays cleanly (exit 0) and the replay prints the EXAMPLE
    failure (DDO-EX-ZERO, DDO-SCORE-01: every game starts at zero points)."""
    proc = rulespec("replay", "--format", "json",
                    TRACES / "kit-failure.dado-de-ouro-DDO-EX-ZERO.jsonl")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert "DDO-EX-ZERO" in json.dumps(out) and "EXAMPLE" in json.dumps(out), out


@pytest.mark.parametrize("trace", FROZEN, ids=lambda p: str(p.relative_to(TRACES.parent)))
def test_every_frozen_trace_line_matches_todays_trace_schema(trace: Path) -> None:
    """conformance/schema/trace.json (``rulespec-trace/1``) still describes every line of every
    frozen trace: without states (1.0.0, the pre-provenance plugin), with states and deltas
    (0.2.0), and failure traces with the failure on their result line."""
    schema = json.loads((kit_dir() / "schema" / "trace.json").read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema)
    for n, line in enumerate(trace.read_text(encoding="utf-8").splitlines(), 1):
        errors = list(validator.iter_errors(json.loads(line)))
        assert not errors, f"{trace.name}:{n}: {errors[0].message}"
