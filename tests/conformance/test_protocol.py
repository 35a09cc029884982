"""The engine protocol: message schemas, the server's errors, and engines that misbehave.

An engine that crashes, hangs, prints garbage, answers with a wrong id or sends a huge line is
a PROTOCOL failure of that engine; the kit never crashes or hangs itself.
"""

from __future__ import annotations

import json
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter, SubprocessAdapter, check_engine
from rulespec.conformance.engine.protocol import (
    BAD_CONFIG,
    ILLEGAL_ACTION,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    NO_GAME,
    PARSE_ERROR,
    PROTOCOL,
    EngineCrashed,
    EngineTimeout,
    Legal,
    ProtocolViolation,
    parse_fraction,
    schema_problems,
)
from rulespec.conformance.judging.checks import Report
from rulespec.conformance.server import Server
from rulespec.reference.core import make_config
from rulespec.spec.registry import get_spec

from .corpus import playable_games
from .support import ROOT, misbehave_command, quick

GAME = "dado-de-ouro" if "dado-de-ouro" in playable_games() else playable_games()[0]


def _request(server: Server, ident: int, method: str, params: dict[str, Any]) -> Any:
    line = json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
    reply = server.handle_line(line)
    assert reply is not None and "\n" not in reply
    msg = json.loads(reply)
    assert not schema_problems("envelope", msg), schema_problems("envelope", msg)
    return msg


def test_a_session_matches_the_message_schemas() -> None:
    """Every request and result of a reference session validates against its JSON Schema."""
    server = Server(InProcessAdapter())
    spec = get_spec(GAME)
    config = make_config(spec).to_json()
    calls: list[tuple[str, dict[str, Any]]] = [
        ("hello", {"protocol": PROTOCOL}), ("start", {"config": config}),
        ("legal_actions", {}), ("state", {})]
    for n, (method, params) in enumerate(calls, 1):
        assert not schema_problems(f"{method}.params", params)
        msg = _request(server, n, method, params)
        assert msg["id"] == n and "result" in msg, msg
        assert not schema_problems(f"{method}.result", msg["result"]), (method, msg)
    legal = _request(server, 9, "legal_actions", {})["result"]
    action = legal["actions"][0]
    assert not schema_problems("apply.result", _request(server, 10, "apply",
                                                         {"action": action})["result"])
    bad = _request(server, 11, "apply", {"action": {"kind": "__nope__"}})
    assert bad["error"]["code"] == ILLEGAL_ACTION
    assert not schema_problems("apply.illegal", bad["error"])
    assert _request(server, 12, "shutdown", {})["result"] == {}
    assert not server.running


def test_server_errors_have_the_json_rpc_codes() -> None:
    """Parse errors, unknown methods, bad requests, calls before start, bad configurations."""
    server = Server(InProcessAdapter())
    assert json.loads(server.handle_line("{not json") or "")["error"]["code"] == PARSE_ERROR
    assert _request(server, 1, "dance", {})["error"]["code"] == METHOD_NOT_FOUND
    assert _request(server, 2, "state", {})["error"]["code"] == NO_GAME
    bad_config = {"config": {"game": GAME, "players": 99}}
    assert _request(server, 3, "start", bad_config)["error"]["code"] == BAD_CONFIG
    reply = json.loads(server.handle_line('{"id": 4, "method": "state"}') or "")
    assert reply["error"]["code"] == INVALID_REQUEST


def test_batches_are_answered_in_one_line() -> None:
    """A JSON-RPC batch gets an array of responses."""
    server = Server(InProcessAdapter())
    config = make_config(get_spec(GAME)).to_json()
    batch = [{"jsonrpc": "2.0", "id": 1, "method": "start", "params": {"config": config}},
             {"jsonrpc": "2.0", "id": 2, "method": "state", "params": {}}]
    reply = json.loads(server.handle_line(json.dumps(batch)) or "")
    assert [m["id"] for m in reply] == [1, 2]


def test_probabilities_are_exact_fractions() -> None:
    """Probabilities travel as fraction strings; floats are refused."""
    assert parse_fraction("1/6") == Fraction(1, 6)
    assert parse_fraction(1) == Fraction(1)
    for bad in (0.5, "0.5", "1/0", "one", None):
        with pytest.raises(ProtocolViolation):
            parse_fraction(bad)
    with pytest.raises(ProtocolViolation):
        Legal.from_json({"actor": "chance", "actions": [{"kind": "x"}], "probabilities": []})


def test_probabilities_read_from_the_cache_are_checked_like_new_ones() -> None:
    """A list of fractions read before is read at once; a list mixing in an integer, a float,
    a list or an unknown text takes the checked path (floats still refused)."""
    acts = [{"kind": "x", "n": i} for i in range(3)]
    first = Legal.from_json({"actor": "chance", "actions": acts,
                             "probabilities": ["1/3", "1/3", "1/3"]})
    again = Legal.from_json({"actor": "chance", "actions": acts,
                             "probabilities": ["1/3", "1/3", "1/3"]})
    assert first.probabilities == again.probabilities == [Fraction(1, 3)] * 3
    mixed = Legal.from_json({"actor": "chance", "actions": acts,
                             "probabilities": ["1/3", 0, "2/3"]})
    assert mixed.probabilities == [Fraction(1, 3), Fraction(0), Fraction(2, 3)]
    for bad in (0.5, [1], {"p": 1}, "x/3", True):
        with pytest.raises(ProtocolViolation):
            Legal.from_json({"actor": "chance", "actions": acts,
                             "probabilities": ["1/3", bad, "1/3"]})
    for actions in ([{"kind": 1}], [{"n": 1}], ["roll"], [{"kind": "x"}, None]):
        with pytest.raises(ProtocolViolation, match="actions must be a list"):
            Legal.from_json({"actor": 0, "actions": actions})


def test_fraction_runs_are_written_and_compared_like_each_fraction() -> None:
    """CHANCE-DIST: comparing (and writing) a run of one fraction object once gives the answer
    of comparing each: a later outcome that differs is still found."""
    from rulespec.conformance.engine.protocol import fraction_texts, same_fractions

    sixth = Fraction(1, 6)
    assert fraction_texts([sixth] * 3 + [Fraction(1, 2)]) == ["1/6", "1/6", "1/6", "1/2"]
    assert fraction_texts([Fraction(1), Fraction(0)]) == ["1", "0"]
    assert same_fractions([sixth] * 6, [Fraction(1, 6) for _ in range(6)])
    assert not same_fractions([sixth] * 6, [sixth] * 5 + [Fraction(1, 5)])
    assert not same_fractions([sixth] * 6, [sixth] * 5)
    assert same_fractions(None, None) and not same_fractions(None, []) \
        and not same_fractions([], None)
    assert not same_fractions([Fraction(1, 2)], [Fraction(2, 3)])


def _check_misbehaving(mode: str, after: int, tmp_path: Path, *, timeout: float,
                       examples: int, golden: bool = False) -> tuple[Report, SubprocessAdapter]:
    """Run the kit on the misbehaving engine ``mode``; return the report and the closed adapter."""
    adapter = SubprocessAdapter(misbehave_command(mode, after), timeout=timeout, cwd=str(ROOT))
    try:
        report = check_engine(adapter, GAME, players=[get_spec(GAME).min_players],
                              options=quick(tmp_path, examples=examples, golden=golden))
    finally:
        adapter.close()
    return report, adapter


@pytest.mark.parametrize(("mode", "kind", "words"), [
    ("crash", "crash", "segmentation fault"),
    ("silent-exit", "crash", "closed its output"),
    ("hang", "timeout", "no answer within"),
    ("garbage", "protocol", "not JSON"),
    ("wrong-id", "protocol", "carries id"),
    ("huge", "protocol", "byte limit"),
    ("bad-result", "protocol", "actions must be a list"),
])
def test_a_misbehaving_engine_is_a_protocol_failure(mode: str, kind: str, words: str,
                                                    tmp_path: Path) -> None:
    """PROTOCOL: the misbehaviour is reported as the engine's failure, in bounded time."""
    started = time.monotonic()
    report, adapter = _check_misbehaving(mode, 6, tmp_path, timeout=1.5, examples=3)
    assert time.monotonic() - started < 30
    assert not report.ok
    failure = report.failures[0]
    assert failure.check == "PROTOCOL" and failure.subject == kind, failure
    assert words in failure.message, failure.message
    assert adapter.proc is None, "the misbehaving engine was left running"


# Integration: every golden trace replayed after a crash, 10 s (issue 46's budget).
@pytest.mark.integration
def test_the_kit_goes_on_to_the_golden_traces_after_a_crash(tmp_path: Path) -> None:
    """After a PROTOCOL failure the kit restarts the engine and goes on to its next check."""
    report, _ = _check_misbehaving("crash", 40, tmp_path, timeout=5, examples=2, golden=True)
    assert report.runs[0].failures[0].check == "PROTOCOL"
    assert report.golden, "the golden traces were not replayed after the crash"
    assert all(f is not None and f.check == "GOLDEN" for _, f in report.golden)


def test_an_engine_without_batches_is_checked_call_by_call(tmp_path: Path) -> None:
    """Batches are optional: without the capability the kit sends one request per line."""
    report, adapter = _check_misbehaving("no-batch", 0, tmp_path, timeout=10, examples=2)
    assert report.ok, report.failures
    assert adapter.calls > 3 * report.runs[0].steps


def test_states_written_as_the_reference_writes_them_are_not_parsed(tmp_path: Path) -> None:
    """The kit announces the state it expects (``expect``): the served reference writes it
    byte for byte, so it is compared as bytes; an engine that lays its JSON out otherwise
    (spaces, as this one) is parsed as ever and stops being compared so after a few steps."""
    pytest.importorskip("msgspec")
    from rulespec.conformance.engine.adapters import KNOWN_TRIES
    from rulespec.conformance.engine.protocol import FAST_JSON

    if not FAST_JSON:
        pytest.skip("RULESPEC_PURE_JSON is set")
    served = SubprocessAdapter([sys.executable, "-m", "rulespec.conformance.server", GAME],
                               cwd=str(ROOT))
    try:
        report = check_engine(served, GAME, players=[get_spec(GAME).min_players],
                              options=quick(tmp_path, examples=2, golden=False))
    finally:
        served.close()
    assert report.ok, report.failures
    assert served.known_hits >= report.runs[0].steps and served.known_misses == 0
    report, spaced = _check_misbehaving("spaced", 0, tmp_path, timeout=10, examples=2)
    assert report.ok, report.failures
    assert spaced.known_hits == 0 and spaced.known_misses == KNOWN_TRIES


@pytest.mark.parametrize("served", [False, True])
def test_a_replay_step_gives_the_state_a_step_gives(served: bool) -> None:
    """``send_replay`` (a determinism replay's step, no legal actions asked) answers the state
    and refusal ``send_step`` answers, in process and over the protocol (batch or not)."""
    import random

    spec = get_spec(GAME)
    config = make_config(spec).to_json()
    adapters: list[Any] = [InProcessAdapter(), InProcessAdapter()]
    if served:
        adapters = [SubprocessAdapter([sys.executable, "-m", "rulespec.conformance.server", GAME],
                                      cwd=str(ROOT)),
                    SubprocessAdapter(misbehave_command("no-batch", 0), cwd=str(ROOT))]
    try:
        for adapter in adapters:
            adapter.start(config)
        rnd = random.Random(7)
        for _ in range(40):
            legal = adapters[0].legal()
            if not legal.actions:
                break
            action = rnd.choice(legal.actions)
            stepped = adapters[0].send_step(action)()
            replayed = adapters[1].send_replay(action)()
            assert replayed == stepped[:2]
        bad = {"kind": "__not_an_action__"}
        stepped = adapters[0].send_step(bad)()
        replayed = adapters[1].send_replay(bad)()
        assert replayed[0] is not None and replayed[0].reason == stepped[0].reason
        assert replayed[1] == stepped[1]
    finally:
        for adapter in adapters:
            adapter.close()


def test_stderr_noise_is_not_a_failure(tmp_path: Path) -> None:
    """Logs on standard error are allowed (and never block the engine)."""
    report, _ = _check_misbehaving("stderr", 0, tmp_path, timeout=10, examples=2)
    assert report.ok, report.failures


def test_the_adapter_restarts_an_engine_after_a_failure() -> None:
    """After a crash the next start spawns a fresh process, so the kit goes on."""
    adapter = SubprocessAdapter(misbehave_command("crash", 3), timeout=5, cwd=str(ROOT))
    config = make_config(get_spec(GAME)).to_json()
    try:
        adapter.start(config)  # hello + start: 2 answers
        adapter.state()  # 3rd answer
        with pytest.raises(EngineCrashed):
            adapter.state()
        adapter.start(config)
        assert adapter.state()["to_move"] is not None
    finally:
        adapter.close()


def test_a_missing_program_is_reported_not_raised(tmp_path: Path) -> None:
    """An engine command that cannot start is a PROTOCOL failure with the reason."""
    adapter = SubprocessAdapter(["/nonexistent/engine"], timeout=2)
    report = check_engine(adapter, GAME, players=[get_spec(GAME).min_players],
                          options=quick(tmp_path, examples=1, golden=False))
    assert report.failures[0].check == "PROTOCOL"
    assert "cannot start" in report.failures[0].message


@pytest.mark.parametrize("mode", ["hang", "trickle"])
def test_timeout_is_per_call(mode: str) -> None:
    """A hang raises EngineTimeout after about the timeout, and kills the engine; so does an
    engine that keeps writing a byte now and then but never ends its line (reading at once what
    was written must not reset the time limit)."""
    adapter = SubprocessAdapter(misbehave_command(mode, 1), timeout=0.5, cwd=str(ROOT))
    try:
        adapter.hello()
        started = time.monotonic()
        with pytest.raises(EngineTimeout):
            adapter.call("state")
        assert time.monotonic() - started < 3
        assert adapter.proc is None
    finally:
        adapter.close()
