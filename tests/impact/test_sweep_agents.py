"""A sweep's measurement names each agent that played it once (the saved Fool and Ouro de Tolo
sweeps listed ``greedy`` once per merge, up to 30 times)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulespec.impact.sweep import load_sweep, merge_tally, unique_agents
from rulespec.spec.registry import get_spec

RANDOM = {"id": "random", "description": "uniform random over legal actions"}
GREEDY = {"id": "greedy", "description": "one-ply, maximises the game's declared heuristic"}


@dataclass
class _Tally:
    agent: dict[str, str]

    def measured(self) -> dict[str, Any]:
        return {"X-AMB-01": {"players": 4, "agents": [self.agent], "results": [{"agent": self.agent["id"]}]}}


@dataclass
class _Setting:
    players: int = 4
    variants: tuple[str, ...] = ()


def test_merging_one_agent_twice_names_it_once() -> None:
    records: dict[str, dict[str, Any]] = {"X-AMB-01": {"measurements": []}}
    for agent in (RANDOM, GREEDY, GREEDY, RANDOM, GREEDY):
        merge_tally(records, _Tally(agent), _Setting())  # type: ignore[arg-type]
    (measured,) = records["X-AMB-01"]["measurements"]
    assert measured["agents"] == [RANDOM, GREEDY]
    assert len(measured["results"]) == 5


def test_unique_agents_keeps_the_first_seen_order() -> None:
    assert unique_agents([GREEDY, RANDOM, GREEDY]) == [GREEDY, RANDOM]
    assert unique_agents([]) == []


def test_the_saved_sweeps_read_each_agent_once() -> None:
    for game in ("fool", "ouro-de-tolo", "dado-de-ouro", "ruby-rhino"):
        spec = get_spec(game)
        data = load_sweep(spec.path, game)
        assert data is not None, game
        for record in data["records"].values():
            for measured in record["measurements"]:
                ids = [a["id"] for a in measured["agents"]]
                assert len(ids) == len(set(ids)), (game, ids)
