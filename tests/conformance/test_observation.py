"""The optional ``observation`` method (issue 43): an engine that declares it is checked, player
by player and step by step, against the reference's observation (check OBSERVATION).

Cites OURO-DRAW-04 (what a player holds) and OURO-AMB-37 (are a player's Fool's Gold in sight:
displayed, the old play, or in-hand), whose in-hand reading hides them from the others.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter, SubprocessAdapter
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.play.options import Options
from rulespec.conformance.play.runner import check_engine
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec
from rulespec.spec.visibility import HiddenField

from .support import serve_command

QUICK = Options(examples=4, max_steps=120, golden=False, jobs=1, shorter_seconds=0,
                shrink_seconds=2, seek_steps=0, perft_seconds=0, rule_examples=False)
IN_HAND = {"OURO-AMB-37": "in-hand"}


def _leaky() -> type[Any]:
    """The reference, forgetting that in-hand Fool's Gold are out of the others' sight."""
    base = engine_class(get_spec("ouro-de-tolo"))

    class Leaky(base):  # type: ignore[misc,valid-type]
        def hidden_by_rulings(self) -> tuple[HiddenField, ...]:
            return ()

    return Leaky


def test_an_engine_showing_what_a_ruling_hides_fails_observation() -> None:
    adapter = InProcessAdapter({"ouro-de-tolo": _leaky()}, name="leaky")
    report = check_engine(adapter, "ouro-de-tolo", players=[3], rulings=IN_HAND, options=QUICK)
    (failure,) = [f for f in report.failures if f.check == "OBSERVATION"]
    assert "observation after step" in failure.message and "fools_gold" in failure.message
    assert report.check_status()["OBSERVATION"] == "failed"


def test_the_reference_passes_it_and_counts_what_it_compared() -> None:
    report = check_engine(InProcessAdapter(), "ouro-de-tolo", players=[3], rulings=IN_HAND,
                          options=QUICK)
    assert report.ok, [f.message for f in report.failures]
    assert report.check_status()["OBSERVATION"] == "passed"
    assert sum(r.observed for r in report.runs) > 0
    assert all("observed" in r.to_json() for r in report.runs if r.observed)


def test_over_the_protocol_too() -> None:
    """``rulespec serve`` answers the method and declares it; the kit asks for it."""
    adapter = SubprocessAdapter(serve_command("ouro-de-tolo"))
    try:
        assert "observation" in adapter.hello().capabilities
        adapter.start({"game": "ouro-de-tolo", "players": 3, "rulings": IN_HAND,
                       "variants": [], "parameters": {}})
        mine, theirs = adapter.observation(0), adapter.observation(1)
        assert mine["players"][0]["stones"]["fools_gold"] != "<hidden>"
        assert theirs["players"][0]["stones"]["fools_gold"] == "<hidden>"
    finally:
        adapter.close()


class _Undeclared(InProcessAdapter):
    def hello(self) -> Hello:
        hello = super().hello()
        return replace(hello, capabilities=tuple(c for c in hello.capabilities
                                                 if c != "observation"))


def test_an_engine_that_does_not_declare_it_is_not_asked() -> None:
    """The method is optional: without the capability, OBSERVATION is "not run", even for a
    leaky engine, and nothing else changes."""
    adapter = _Undeclared({"ouro-de-tolo": _leaky()}, name="silent")
    report = check_engine(adapter, "ouro-de-tolo", players=[3], rulings=IN_HAND, options=QUICK)
    assert report.ok and report.check_status()["OBSERVATION"] == "not run"
    assert all(r.observed == 0 and "observed" not in r.to_json() for r in report.runs)


@pytest.mark.parametrize("player", [-1, "0", None, True])
def test_the_server_refuses_a_bad_player(player: Any) -> None:
    from rulespec.conformance.server import Server

    server = Server(InProcessAdapter())
    server.answer({"jsonrpc": "2.0", "id": 1, "method": "start",
                   "params": {"config": {"game": "fool", "players": 4}}})
    answer = server.answer({"jsonrpc": "2.0", "id": 2, "method": "observation",
                            "params": {"player": player}})
    assert answer is not None and answer["error"]["code"] == -32602
