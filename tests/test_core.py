"""The engine core: configuration resolution and its errors, traces and their errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rulespec.reference.actions import is_among, strictly_equal
from rulespec.reference.core import (
    Config,
    ConfigError,
    config_from_json,
    copy_state,
    make_config,
    ranking,
)
from rulespec.reference.trace import TRACE_FORMAT, TraceError, read_trace
from rulespec.spec.model import Spec
from rulespec.spec.validate import load_spec

TOY = Path(__file__).parent / "specs" / "valid" / "toy.yaml"


@pytest.fixture(scope="module")
def toy() -> Spec:
    return load_spec(TOY)


def test_defaults_come_from_tables_and_spec(toy: Spec) -> None:
    """Parameters default to their table row for the player count, rulings to the default option."""
    config = make_config(toy, players=3)
    assert config.parameters == {"start_coins": 3, "bank_coins": 10}
    assert config.rulings == {"TOY-AMB-01": "pay-nothing"}
    assert config.players == 3


def test_layers_variant_then_explicit_parameters(toy: Spec) -> None:
    """A variant overrides the default; an explicit parameter overrides the variant."""
    assert make_config(toy, variants=["rich-bank"]).param("bank_coins") == 20
    config = make_config(toy, variants=["rich-bank"], parameters={"bank_coins": 7})
    assert config.param("bank_coins") == 7
    assert config.to_json()["parameters"] == {"bank_coins": 7}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 9}, "toy-coin is for 2 to 3 players, not 9"),
        ({"rulings": {"TOY-AMB-99": "x"}}, "unknown ambiguity 'TOY-AMB-99'"),
        ({"rulings": {"TOY-AMB-01": "x"}}, "ambiguity 'TOY-AMB-01' has no option 'x'; options: pay-nothing, out"),
        ({"variants": ["poor-bank"]}, "unknown variant 'poor-bank'"),
        ({"variants": ["rich-bank", "rich-bank"]}, "variant 'rich-bank' is given twice"),
        ({"parameters": {"bank": 3}}, "unknown parameter 'bank'"),
        ({"parameters": {"bank_coins": 0}}, "parameter 'bank_coins' = 0 is invalid"),
    ],
)
def test_bad_configuration_says_what_is_wrong(toy: Spec, kwargs: dict[str, object], message: str) -> None:
    """Every kind of bad configuration is a ConfigError naming the bad value and the choices."""
    with pytest.raises(ConfigError) as info:
        make_config(toy, **kwargs)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_all_configuration_problems_at_once(toy: Spec) -> None:
    """Several mistakes in one configuration are reported together."""
    with pytest.raises(ConfigError) as info:
        make_config(toy, players=1, variants=["nope"], parameters={"zzz": 1})
    text = str(info.value)
    assert "not 1" in text and "'nope'" in text and "'zzz'" in text


def test_config_round_trips_through_json(toy: Spec) -> None:
    """A configuration written in a trace header rebuilds the same configuration."""
    config = make_config(toy, players=3, rulings={"TOY-AMB-01": "out"}, variants=["rich-bank"])
    assert config_from_json(toy, json.loads(json.dumps(config.to_json()))) == config


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "must be a JSON object"),
        ({"game": "fool"}, "configuration is for game 'fool'"),
        ({"players": 2, "colour": "red"}, "unknown configuration keys ['colour']"),
        ({"rulings": {"TOY-AMB-01": 3}}, "rulings must map ambiguity ids to option ids"),
    ],
)
def test_bad_configuration_json(toy: Spec, data: object, message: str) -> None:
    """A malformed configuration object is rejected with a sentence."""
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        config_from_json(toy, data)


HEADER = {"type": "header", "format": TRACE_FORMAT, "game": "toy-coin", "spec_version": "0.1.0",
          "config": {"game": "toy-coin", "players": 2}}
STEP = {"type": "step", "n": 1, "actor": "chance", "action": {"kind": "flip", "heads": True}}
END = {"type": "result", "steps": 1, "result": None}


def _trace(*lines: object) -> io.StringIO:
    return io.StringIO("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")


def test_trace_reads_back() -> None:
    """A well-formed trace reads into header, steps and result."""
    trace = read_trace(_trace(HEADER, STEP, END))
    assert trace.game == "toy-coin" and len(trace.steps) == 1 and trace.result is None
    assert list(read_trace(io.StringIO("\n".join(trace.lines()))).lines()) == list(trace.lines())


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ((), "empty trace"),
        ((STEP, END), "the first line must be the header"),
        (({**HEADER, "format": "other/9"}, END), "unsupported trace format 'other/9'"),
        ((HEADER, STEP), "without a result line; the file was cut off"),
        ((HEADER, '{"type": "step", "n": 1, "act'), "not valid JSON"),
        ((HEADER, {**STEP, "n": 2}, END), "step number 2, expected 1"),
        ((HEADER, {**STEP, "actor": -1}, END), "actor must be a player index or 'chance'"),
        ((HEADER, {**STEP, "action": "flip"}, END), "action must be an object with a 'kind'"),
        ((HEADER, STEP, {**END, "steps": 5}), "counts 5 steps but the trace has 1"),
        ((HEADER, STEP, END, STEP), "text after the result line"),
        ((HEADER, {"type": "comment"}, END), "unknown line type 'comment'"),
    ],
)
def test_broken_trace_names_the_line(lines: tuple[object, ...], message: str) -> None:
    """A truncated or corrupted trace is a TraceError that names the line and what to do."""
    with pytest.raises(TraceError) as info:
        read_trace(_trace(*lines) if lines else io.StringIO(""))
    assert message in str(info.value)


def test_trace_file_errors(tmp_path: Path) -> None:
    """Missing and binary trace files are TraceErrors, not tracebacks."""
    with pytest.raises(TraceError, match="no such trace file"):
        read_trace(tmp_path / "missing.jsonl")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(TraceError, match="not UTF-8"):
        read_trace(binary)


def test_chance_sampling_uses_exact_integer_weights() -> None:
    """Chance outcomes are drawn with weights proportional to their exact probabilities."""
    from fractions import Fraction

    from rulespec.reference.play import _weights

    outcomes = [({"kind": "a"}, Fraction(1, 6)), ({"kind": "b"}, Fraction(1, 3)),
                ({"kind": "c"}, Fraction(1, 2))]
    assert _weights(outcomes) == ([1, 2, 3], 6)
    # A second call with the same list object hits the cache and gives the same answer.
    assert _weights(outcomes) == ([1, 2, 3], 6)
    other = [({"kind": "a"}, Fraction(3, 4)), ({"kind": "b"}, Fraction(1, 4))]
    assert _weights(other) == ([3, 1], 4)


# -- the engine base: ranking, strict equality, cheap copies ----------------------------------


def test_ranking_groups_equal_keys_highest_first() -> None:
    """Equal scores share a place, listed by seat; tuples break ties in order."""
    assert ranking([3, 7, 3, 1]) == [[1], [0, 2], [3]]
    assert ranking([(5, 0), (5, 2), (4, 9)]) == [[1], [0], [2]]
    assert ranking([2, 9, 2, 5], players=[0, 2, 3]) == [[3], [0, 2]]
    assert ranking([]) == []


def test_strict_equality_keeps_json_types() -> None:
    """``true`` is not 1, ``1.0`` is not 1, but a tuple and a list are the same JSON array."""
    assert strictly_equal({"a": [1, "x"]}, {"a": (1, "x")})
    assert not strictly_equal({"a": True}, {"a": 1})
    assert not strictly_equal({"a": 1.0}, {"a": 1})
    assert not strictly_equal([0], [False])
    assert not strictly_equal({"a": 1}, {"a": 1, "b": 2})
    legal = [{"kind": "roll", "die": 0}, {"kind": "roll", "die": 1}]
    assert is_among(legal[1], legal) and is_among({"kind": "roll", "die": 1}, legal)
    assert not is_among({"kind": "roll", "die": True}, legal)
    assert not is_among({"kind": "roll", "die": 1.0}, legal)
    assert not is_among("roll", legal)


def test_copy_state_shares_nothing_mutable() -> None:
    """The default clone copies lists and dicts at any depth; immutable values are shared."""
    record = Config(game="g", players=2, rulings={})
    state = {"hands": [[1, 2], [3]], "last": record, "pair": (1, 2), "nested": ([4],)}
    copied = copy_state(state)
    assert copied == state
    copied["hands"][0].append(9)
    copied["nested"][0].append(5)
    assert state["hands"] == [[1, 2], [3]] and state["nested"] == ([4],)
    assert copied["last"] is record and copied["pair"] is state["pair"]
