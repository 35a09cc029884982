"""Check EXAMPLE of the kit (issue 12): rule examples run over the protocol, come first in the
report, and catch most planted rule bugs of the negative corpus, naming the clause."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.play.examples_check import run_rule_examples
from rulespec.reference.trace import read_trace, replay
from rulespec.spec.registry import game_ids, get_spec

from ..conformance.corpus import SPECIFIC, BadEngine

RULE_BUGS = [b for bugs in SPECIFIC.values() for b in bugs]
#: The share of the planted rule bugs that check EXAMPLE must catch (the docs state the rate).
MIN_RATE = 0.75


@pytest.mark.parametrize("game", game_ids())
def test_reference_passes_its_examples_over_the_protocol(game: str) -> None:
    """The reference, driven through the adapter, satisfies every rule example."""
    result = run_rule_examples(InProcessAdapter(), get_spec(game))
    assert result.ok, "\n".join(f.message for f in result.failures)


def test_example_failures_come_first_and_name_the_clause(tmp_path: Path) -> None:
    """DDO-SCORE-01: an engine that starts games at one point fails EXAMPLE first, naming the
    clause and the sentence; the example is written as a trace with expect lines."""
    bad = next(b for b in SPECIFIC["dado-de-ouro"] if b.name == "starts-at-one")
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    options = Options(examples=2, golden=False, perft_seconds=0, shrink=False,
                      trace_dir=tmp_path)
    report = check_engine(adapter, bad.game, players=[4], options=options)
    first = report.failures[0]
    assert first.check == "EXAMPLE"
    assert "DDO-SCORE-01" in first.clauses
    assert "Each player starts each game with zero points." in first.message
    assert first.trace is not None
    trace = read_trace(first.trace)
    assert trace.expectations and replay(trace).ok


def _caught(bad: BadEngine) -> bool:
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    result = run_rule_examples(adapter, get_spec(bad.game))
    return any(f.clauses for f in result.failures)


def test_examples_catch_most_planted_rule_bugs() -> None:
    """Most game-specific bad engines of the corpus fail an example that names clauses."""
    caught = [b for b in RULE_BUGS if _caught(b)]
    missed = sorted(str(b) for b in RULE_BUGS if b not in caught)
    assert len(caught) >= MIN_RATE * len(RULE_BUGS), f"missed: {missed}"
