"""PERFT: the engine's first plies have the reference's shape, node by node."""

from __future__ import annotations

from typing import Any

import pytest

from rulespec.conformance.engine.adapters import InProcessAdapter
from rulespec.conformance.engine.protocol import legal_of
from rulespec.conformance.judging.verdicts import SIDE_ITEMS, Verdicts, key
from rulespec.conformance.play.perft_check import perft_check
from rulespec.reference.core import Action, Engine, make_config
from rulespec.reference.perft import perft
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec

GAMES = game_ids()


def _missing_one_at_depth(base: type[Engine], depth: int) -> type[Engine]:
    """An engine whose move generator forgets the last move at one position of ply ``depth``."""

    class Forgetful(base):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.plies = 0

        def apply(self, action: Any) -> None:
            super().apply(action)
            self.plies += 1  # counted here: some engines apply without calling _apply

        def legal_actions(self) -> list[Action]:
            actions: list[Action] = super().legal_actions()
            if self.plies == depth and len(actions) > 1:
                return actions[:-1]
            return actions

        def chance_outcomes(self) -> Any:
            outcomes = super().chance_outcomes()
            if self.plies == depth and len(outcomes) > 1:
                kept = outcomes[:-1]
                total = sum(p for _, p in kept)
                return [(a, p / total) for a, p in kept]
            return outcomes

    return Forgetful


@pytest.mark.parametrize("game", GAMES)
def test_the_reference_passes_perft_and_counts_like_perft(game: str) -> None:
    """PERFT: the reference against itself visits the reference's perft counts, no failure."""
    spec = get_spec(game)
    config = make_config(spec)
    ref = engine_class(spec)
    result = perft_check(InProcessAdapter(), Verdicts(spec), config, ref, max_nodes=300)
    assert result.failure is None, result.failure
    assert result.depth >= 2
    table = perft(ref(spec, config), result.depth)
    assert result.nodes == [r.nodes for r in table.rows]


@pytest.mark.parametrize("game", GAMES)
def test_a_move_missing_at_ply_three_is_found_with_its_position(game: str) -> None:
    """PERFT: an engine missing one legal action at a depth-3 position is caught there.

    The failure names the position (the three moves leading to it), the missing action, and
    is replayable: its actions are the path from the start.
    """
    spec = get_spec(game)
    config = make_config(spec)
    ref = engine_class(spec)
    bad = _missing_one_at_depth(ref, 3)
    adapter = InProcessAdapter({game: bad}, name="forgetful")
    result = perft_check(adapter, Verdicts(spec), config, ref, max_nodes=100_000, seconds=60)
    failure = result.failure
    assert failure is not None and failure.check == "PERFT"
    assert failure.step == 3 and len(failure.actions) == 3
    position = ref(spec, config)
    for _, action in failure.actions:
        position.apply(action)
    dropped = legal_of(position).actions[-1]
    assert "after 3 plies" in failure.message, failure.message
    named = (f"lacks [{dropped!r}]" in failure.message  # a player's action
             or f"missing [{key(dropped)!r}]" in failure.message)  # a chance outcome
    assert named, failure.message
    # Both sides as data (the docs' matrix shows them side by side): the reference's has the
    # dropped move, the engine's does not (each side keeps its first SIDE_ITEMS).
    assert failure.expected is not None and failure.actual is not None
    (side,) = failure.expected.keys() & failure.actual.keys()
    moves = legal_of(position).actions

    def listed(items: list[Any]) -> list[Any]:
        return [i["outcome"] for i in items] if side == "chance_outcomes" else items

    want, got = listed(failure.expected[side]), listed(failure.actual[side])
    assert want == list(moves[:SIDE_ITEMS])
    assert got == list(moves[:-1][:SIDE_ITEMS])
    assert (dropped in want) == (len(moves) <= SIDE_ITEMS) and dropped not in got
