"""Fuzz the readers of outside input: each input loads or raises a RulespecError, nothing else.

The spec loader (``load_yaml``, and ``load_spec`` with every semantic check) and the trace reader
(``read_trace``) get random bytes, random text, random YAML and JSON, and mutations of real
specs and golden traces. The default run plays ``EXAMPLES`` examples per test; the ``slow``
tests play 10,000 each (``pytest -m slow tests/hardening``, see docs/reference/limits.md).
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec.reference.trace import read_trace
from rulespec.spec.errors import RulespecError
from rulespec.spec.loader import load_yaml
from rulespec.spec.registry import golden_paths, spec_paths
from rulespec.spec.validate import load_spec

#: Examples per fuzz test in the default run (the slow run plays SLOW_EXAMPLES).
EXAMPLES = 100
SLOW_EXAMPLES = 10_000

#: The smallest valid spec (a toy game) and a real spec's keys: mutations of them reach deep
#: into the validator while each example stays fast.
SPEC_TEXT = (Path(__file__).parents[1] / "specs" / "valid" / "toy.yaml").read_text(encoding="utf-8")
TRACE_TEXT = min((p.read_text(encoding="utf-8") for p in golden_paths("dado-de-ouro")),
                 key=len)
#: The toy spec's rulebook texts: mutated specs also go through the verbatim-quote check.
SOURCES = Path(__file__).parents[1] / "specs" / "sources"
SPEC_KEYS = list(yaml.safe_load(spec_paths()[0].read_text(encoding="utf-8")))

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5)
    | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=40,
)


def _mutate(text: str) -> st.SearchStrategy[str]:
    """Return a strategy of ``text`` with a slice replaced, deleted or duplicated."""

    @st.composite
    def mutant(draw: st.DrawFn) -> str:
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 200)))
        insert = draw(st.text(max_size=30) | st.sampled_from(
            ["", "\n", ": ", "- ", "[", "{", "&a ", "*a", "!!python/object ", "\x00", "NaN",
             "1e999", "9" * 30, '"', "\t", text[start:end] * 2]))
        return text[:start] + insert + text[end:]

    return mutant()


def _expect_clean(load: Callable[[], Any]) -> None:
    """Run a loader: success or a RulespecError; any other exception fails the test."""
    with contextlib.suppress(RulespecError):
        load()


def _spec_file(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.yaml"
        path.write_bytes(content)
        _expect_clean(lambda: load_spec(path, sources=SOURCES))


def _trace_file(content: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.jsonl"
        path.write_bytes(content)
        _expect_clean(lambda: read_trace(path))


spec_inputs = st.one_of(
    st.binary(max_size=400),
    st.text(max_size=400).map(lambda t: t.encode("utf-8", "surrogatepass")),
    json_values.map(lambda v: yaml.safe_dump(v).encode()),
    st.dictionaries(st.sampled_from(SPEC_KEYS), json_values, max_size=8)
    .map(lambda v: yaml.safe_dump(v).encode()),
    _mutate(SPEC_TEXT).map(lambda t: t.encode("utf-8", "surrogatepass")),
)

trace_lines = st.one_of(
    json_values.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["header", "step", "result", "x"])},
                          optional={"n": json_values, "actor": json_values,
                                    "action": json_values, "state": json_values,
                                    "steps": json_values, "result": json_values,
                                    "format": st.just("rulespec-trace/1"),
                                    "game": json_values, "spec_version": json_values,
                                    "config": json_values}).map(json.dumps),
    st.text(max_size=60),
)
trace_inputs = st.one_of(
    st.binary(max_size=400),
    st.lists(trace_lines, max_size=6).map(lambda ls: "\n".join(ls).encode("utf-8", "replace")),
    _mutate(TRACE_TEXT[:4000]).map(lambda t: t.encode("utf-8", "surrogatepass")),
)

_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=_CHECKS)
@given(spec_inputs)
def test_spec_loader_never_crashes(content: bytes) -> None:
    """Any bytes given as a spec file load as a spec or raise a RulespecError."""
    _spec_file(content)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=_CHECKS)
@given(st.text(max_size=400))
def test_yaml_text_never_crashes(text: str) -> None:
    """Any text given to the YAML loader parses or raises a RulespecError."""
    _expect_clean(lambda: load_yaml(text, "fuzz.yaml"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=_CHECKS)
@given(trace_inputs)
def test_trace_reader_never_crashes(content: bytes) -> None:
    """Any bytes given as a trace file read as a trace or raise a RulespecError."""
    _trace_file(content)


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=_CHECKS)
@given(st.lists(trace_lines, max_size=6))
def test_trace_stream_never_crashes(lines: list[str]) -> None:
    """Any lines read from a stream read as a trace or raise a RulespecError."""
    _expect_clean(lambda: read_trace(io.StringIO("\n".join(lines))))


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=_CHECKS)
@given(spec_inputs)
def test_spec_loader_never_crashes_long(content: bytes) -> None:
    """Like test_spec_loader_never_crashes, with 10,000 examples."""
    _spec_file(content)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=_CHECKS)
@given(trace_inputs)
def test_trace_reader_never_crashes_long(content: bytes) -> None:
    """Like test_trace_reader_never_crashes, with 10,000 examples."""
    _trace_file(content)
