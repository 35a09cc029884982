"""PROTOCOL: the protocol lines' codec (msgspec when installed, the standard library otherwise)
reads and writes the same JSON values, and refuses what the standard library refuses, with the
same errors: the kit's verdicts on an engine's output do not depend on the optional extra.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rulespec.conformance.engine import protocol
from rulespec.conformance.engine.adapters import InProcessAdapter
from rulespec.conformance.engine.server import Server, _serve_bytes
from rulespec.reference.core import CHANCE, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

from .corpus import playable_games

#: Lines an engine may print: valid, valid only to the standard library, and invalid.
ODD_LINES = [
    b'{"a":1,"a":2}', b"123456789012345678901234567890", b"1" * 5000, b"1e400", b"-1e400",
    b"NaN", b"Infinity", b"-0", b"1E2", b"1.5e-3", b'"\\ud800"', b'"\\u00e9\\u0000"',
    b'"\xc3\xa9"', b'"\xff"', b"\xef\xbb\xbf{}", b"[1,2", b'{"a":1} x', b'  {"a":1}\n', b"",
    b"[" * 3000 + b"]" * 3000, b'{"a":[true,false,null,{"b":-1.25}]}', b"tru", b"[1,]",
]


def _outcome(line: bytes | str) -> tuple[str, Any]:
    try:
        return "value", protocol.loads(line)
    except Exception as exc:  # the error itself is compared
        return type(exc).__name__, str(exc)


def _reference(line: bytes | str) -> tuple[str, Any]:
    try:
        return "value", json.loads(line)
    except Exception as exc:
        return type(exc).__name__, str(exc)


@pytest.fixture(params=["pure", "msgspec"])
def codec(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run a test with the standard library alone, then with msgspec (when installed)."""
    if request.param == "pure":
        monkeypatch.setattr(protocol, "_FAST_DECODE", None)
        monkeypatch.setattr(protocol, "_FAST_ENCODE", None)
        monkeypatch.setattr(protocol, "_RAW_BATCH", None)
    else:
        msgspec = pytest.importorskip("msgspec")
        monkeypatch.setattr(protocol, "_FAST_DECODE", msgspec.json.decode)
        monkeypatch.setattr(protocol, "_FAST_ENCODE", msgspec.json.encode)
        raw: Any = msgspec.Raw
        monkeypatch.setattr(protocol, "_RAW_BATCH", msgspec.json.Decoder(
            list[dict[str, raw]]).decode)
    yield request.param


def _states(game: str, players: int, steps: int, seed: int) -> list[dict[str, Any]]:
    spec = get_spec(game)
    engine = engine_class(spec)(spec, config_from_json(spec, {"game": game, "players": players}))
    rnd = random.Random(seed)
    out = [engine.state()]
    for _ in range(steps):
        actor = engine.current_player()
        if actor is None:
            break
        actions = ([a for a, _ in engine.chance_outcomes()] if actor == CHANCE
                   else engine.legal_actions())
        engine.apply(rnd.choice(actions))
        out.append(engine.state())
    return out


def test_odd_lines_read_as_the_standard_library_reads_them(codec: str) -> None:
    """PROTOCOL: the same value, or the same error type and message, for every odd line."""
    for line in ODD_LINES:
        assert _outcome(line) == _reference(line), line[:40]
        text = line.decode("utf-8", "replace")
        assert _outcome(text) == _reference(text), text[:40]


@pytest.mark.parametrize("game", playable_games())
def test_states_go_through_the_codec_unchanged(codec: str, game: str) -> None:
    """PROTOCOL: every reference state of a random game, written as a line and read back, is the
    same value (types included: ``1`` stays an int, ``1.0`` a float, ``true`` a bool)."""
    spec = get_spec(game)
    for state in _states(game, spec.max_players, 120, seed=3):
        line = protocol.encode_line({"jsonrpc": "2.0", "id": 1, "result": {"state": state}})
        assert b"\n" not in line
        back = protocol.loads(line)["result"]["state"]
        assert json.dumps(back) == json.dumps(state)  # types too, which == would not see
        assert json.loads(line)["result"]["state"] == state


def test_the_byte_server_answers_as_the_text_server(codec: str) -> None:
    """PROTOCOL: the served engine on its own byte streams answers every request line with the
    value ``handle_line`` answers, a batch, an error and an over-long line included."""
    game = playable_games()[0]
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {"protocol": protocol.PROTOCOL}},
        {"jsonrpc": "2.0", "id": 2, "method": "start", "params": {"config": {"game": game}}},
        [{"jsonrpc": "2.0", "id": 3, "method": "state", "params": {}},
         {"jsonrpc": "2.0", "id": 4, "method": "legal_actions", "params": {}}],
        {"jsonrpc": "2.0", "id": 5, "method": "apply", "params": {"action": {"kind": "nope"}}},
        {"jsonrpc": "2.0", "id": 6, "method": "frobnicate"},
    ]
    raw = b"".join(json.dumps(x).encode() + b"\n" for x in lines) + b"{not json\n"
    raw += b"[" + b" " * protocol_max_line() + b"]\n"
    out = io.BytesIO()
    _serve_bytes(Server(InProcessAdapter()), io.BytesIO(raw), out)
    text = Server(InProcessAdapter())
    want = [json.loads(text.handle_line(line.decode()) or "null")
            for line in raw.splitlines()[:-1]]
    got = [json.loads(line) for line in out.getvalue().splitlines()]
    assert got[:-1] == want
    assert got[-1]["error"]["code"] == protocol.INVALID_REQUEST


def protocol_max_line() -> int:
    from rulespec.conformance.engine.adapters import MAX_LINE

    return MAX_LINE


def test_the_served_engine_answers_a_burst_of_lines_in_order() -> None:
    """PROTOCOL: lines sent in one write (the kit's steps sent ahead) are answered one line
    each, in order, as ``handle_line`` answers them; a line over the limit is refused alone."""
    import subprocess
    import sys

    game = playable_games()[0]
    lines = [json.dumps({"jsonrpc": "2.0", "id": 1, "method": "hello",
                         "params": {"protocol": protocol.PROTOCOL}}),
             json.dumps({"jsonrpc": "2.0", "id": 2, "method": "start",
                         "params": {"config": {"game": game}}})]
    lines += [json.dumps([{"jsonrpc": "2.0", "id": 10 + i, "method": "state", "params": {}},
                          {"jsonrpc": "2.0", "id": 100 + i, "method": "apply",
                           "params": {"action": {"kind": "nope", "n": i}}}]) for i in range(40)]
    lines.insert(20, "[" + " " * protocol_max_line() + "]")
    lines.append(json.dumps({"jsonrpc": "2.0", "id": 999, "method": "shutdown"}))
    proc = subprocess.run([sys.executable, "-m", "rulespec.conformance.server", game],
                          input="\n".join(lines).encode() + b"\n", capture_output=True,
                          timeout=120, check=True)
    got = [json.loads(line) for line in proc.stdout.splitlines()]
    text = Server(InProcessAdapter({game: engine_class(get_spec(game))},
                                   name="rulespec-reference"))
    want = []
    for line in lines:
        if len(line) > protocol_max_line():
            want.append({"too long": True})
        else:
            want.append(json.loads(text.handle_line(line) or "null"))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        if w == {"too long": True}:
            assert g["error"]["code"] == protocol.INVALID_REQUEST
        else:
            assert g == w


def _step_answer(state: dict[str, Any], legal: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"jsonrpc": "2.0", "id": 1, "result": {}},
            {"jsonrpc": "2.0", "id": 2, "result": {"state": state}},
            {"jsonrpc": "2.0", "id": 3, "result": legal}]


@pytest.mark.parametrize("game", playable_games())
def test_a_known_answer_reads_as_loads_reads_it(codec: str, game: str) -> None:
    """PROTOCOL: ``loads_known`` gives what ``loads`` gives for the answer to a step, whether the
    engine wrote the state byte for byte as announced (then the announced object itself, with
    msgspec), in another layout, or another state; and the same error for every odd line."""
    spec = get_spec(game)
    states = _states(game, spec.max_players, 60, seed=5)
    for state, other in itertools.pairwise(states):
        encoded = protocol.encode_known(state)
        assert (encoded is None) == (codec == "pure")
        known: dict[bytes, Any] = {}
        if encoded is not None:
            known[b'{"state":' + encoded + b"}"] = {"state": state}
        legal: dict[str, Any] = {"actor": 0, "actions": [{"kind": "x"}], "probabilities": ["1/3"]}
        legal_encoded = protocol.encode_known(legal)
        if legal_encoded is not None:
            known[legal_encoded] = dict(legal)
        exact = protocol.encode_line(_step_answer(state, legal))
        got = protocol.loads_known(exact, known)
        assert got == protocol.loads(exact) and json.dumps(got) == json.dumps(
            json.loads(exact))
        if codec == "msgspec":
            wanted = list(known.values())
            assert got[1]["result"] is wanted[0], "the known state's bytes were parsed"
            assert got[2]["result"] is wanted[1], "the known legal actions' bytes were parsed"
        spaced = json.dumps(_step_answer(state, legal)).encode()  # the same value, spaced out
        assert protocol.loads_known(spaced, known) == json.loads(spaced)
        changed = protocol.encode_line(_step_answer(other, legal))
        got_other = protocol.loads_known(changed, known)
        assert got_other[1]["result"]["state"] == other
        if known and other != state:
            assert got_other[1]["result"] is not known[next(iter(known))]
    announced: dict[bytes, Any] = {b"{}": {"announced": True}}
    for line in ODD_LINES:
        try:
            outcome: tuple[str, Any] = ("value", protocol.loads_known(line, announced))
        except Exception as exc:  # the error itself is compared
            outcome = (type(exc).__name__, str(exc))
        assert outcome == _reference(line), line[:40]


def test_requests_are_written_as_the_standard_library_writes_them(codec: str) -> None:
    """PROTOCOL: a probe's odd values written by ``encode_line`` read back as the same JSON
    values as ``dumps`` writes them, types included; one with a NaN or an infinity (msgspec
    would write null) is never given to it."""
    from rulespec.conformance.play.probes import wrong_types

    values: list[Any] = [0, -1, 2**40, 1.5, 1e16, 1e-7, -0.0, "é", "a\u0000b\nc", None, True,
                         [1, [2, {"x": 3.25}]], {"kind": "deal", "n": 7}]
    values += [w for v in list(values) for w in wrong_types(v)]
    for value in values:
        payload = {"jsonrpc": "2.0", "id": 1, "method": "apply", "params": {"action": value}}
        assert protocol.finite_json(payload)
        written = protocol.encode_line(payload)
        assert json.dumps(json.loads(written)) == json.dumps(json.loads(protocol.dumps(payload)))
    for odd in (float("nan"), float("inf"), -float("inf")):
        assert not protocol.finite_json({"params": {"action": {"kind": "x", "n": [1, odd]}}})
        assert not protocol.finite_json((odd,))
