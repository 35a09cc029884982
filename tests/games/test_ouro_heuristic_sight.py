"""The greedy and MCTS players' heuristic for Ouro de Tolo reads what its player sees: under
OURO-AMB-37 in-hand the others' Fool's Gold counts are hidden (``"<hidden>"``), and the
heuristic must not count them (it crashed the impact sweep with a TypeError)."""

from __future__ import annotations

import copy
import random
from typing import Any

from rulespec.executors import executor_for
from rulespec.games.ouro_de_tolo import heuristic
from rulespec.impact.measure import plan, run
from rulespec.reference.registry import new_game
from rulespec.spec.registry import get_spec


def _view_with_stones(players: int = 3) -> tuple[Any, dict[str, Any]]:
    engine = new_game("ouro-de-tolo", players=players, rulings={"OURO-AMB-37": "in-hand"})
    rng = random.Random(4)
    while engine.current_player() is not None:
        state = engine.state()
        if any(isinstance(p.get("stones"), dict) and sum(v for v in p["stones"].values()
                                                         if isinstance(v, int)) > 0
               for p in state["players"]):
            return engine, state
        engine.apply(rng.choice(engine.legal_actions()))
    raise AssertionError("no game state with stones held")


def test_a_hidden_fools_gold_count_adds_nothing() -> None:
    engine, state = _view_with_stones()
    hidden = copy.deepcopy(state)
    dropped = copy.deepcopy(state)
    fools = engine.config.param("fools_gold")
    for seat_h, seat_d in zip(hidden["players"][1:], dropped["players"][1:], strict=True):
        if isinstance(seat_h.get("stones"), dict):
            for colour in list(seat_h["stones"]):
                if fools.get(colour):
                    seat_h["stones"][colour] = "<hidden>"
                    del seat_d["stones"][colour]
    assert heuristic(engine.config, hidden, 0) == heuristic(engine.config, dropped, 0)


def test_greedy_players_measure_in_hand() -> None:
    """The impact lab's greedy players under OURO-AMB-37 in-hand (where the sweep crashed)."""
    spec = get_spec("ouro-de-tolo")
    with executor_for(1) as executor:
        tally = run(plan(spec, ["OURO-AMB-37"], ["greedy"], 3), seed=2, games=4, batch_size=2,
                    executor=executor)
    assert tally.played() >= 4
