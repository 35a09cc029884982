"""Traces with expectation lines (issue 12, item 5): additive, written from examples, checked
by replay."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rulespec.examples.model import load_examples
from rulespec.examples.run import as_trace, run_example
from rulespec.reference.trace import TraceError, read_trace, replay
from rulespec.spec.registry import get_spec

HEADER = ('{"type":"header","format":"rulespec-trace/1","game":"dado-de-ouro",'
          '"spec_version":"%s","config":{"game":"dado-de-ouro","players":4}}\n')


def _trace(*lines: str) -> io.StringIO:
    version = get_spec("dado-de-ouro").version
    return io.StringIO(HEADER % version + "".join(line + "\n" for line in lines))


def test_every_example_replays_as_a_trace_with_expectations(tmp_path: Path) -> None:
    """Each example written as a trace replays on the reference, its expectations holding."""
    spec = get_spec("ruby-rhino")
    file = load_examples(spec)
    for example in file.examples[:20]:
        outcome = run_example(spec, example, words_module=file.vocabulary)
        path = tmp_path / f"{example.id}.jsonl"
        as_trace(spec, outcome).write(path)
        result = replay(read_trace(path))
        assert result.ok, f"{example.id}: {result.message}"


def test_failed_expectation_says_what_the_rule_demands() -> None:
    """DDO-SCORE-02: a trace asserting a wrong gain fails on replay with its sentence."""
    steps = [f'{{"type":"step","n":{i + 1},"actor":"chance","action":{{"kind":"roll",'
             f'"player":{p},"face":{f}}}}}'
             for i, (p, f) in enumerate([(0, 3), (1, 5), (2, 2), (3, 1),
                                         (1, 5), (2, 2), (3, 3), (0, 4)])]
    good = '{"type":"expect","since":4,"that":"state.scores[1] - prev.scores[1] == 5",' \
           '"because":"The highest roll gains its value."}'
    bad = good.replace("== 5", "== 6")
    ok = replay(read_trace(_trace(*steps, good, '{"type":"result","steps":8,"result":null}')))
    assert ok.ok, ok.message
    no = replay(read_trace(_trace(*steps, bad, '{"type":"result","steps":8,"result":null}')))
    assert not no.ok and "The highest roll gains its value." in no.message


def test_malformed_expect_line_is_refused_with_its_line() -> None:
    """An expect line without a sentence, or with bad CEL, is a TraceError naming the line."""
    with pytest.raises(TraceError, match=":2: the expect line misses 'because'"):
        read_trace(_trace('{"type":"expect","that":"true"}',
                          '{"type":"result","steps":0,"result":null}'))
    with pytest.raises(TraceError, match=":2: an expect line needs"):
        read_trace(_trace('{"type":"expect","that":"true","because":""}',
                          '{"type":"result","steps":0,"result":null}'))
    with pytest.raises(TraceError, match=":2: "):
        read_trace(_trace('{"type":"expect","that":"state.(","because":"x"}',
                          '{"type":"result","steps":0,"result":null}'))
