"""benchmarks/ddo_state_bound.py: the lower bound on Dado de Ouro's states that says why the
printed size is out of reach (issue 42), checked against counts made apart from it.

Clauses: DDO-SCORE-02 and -03 (the highest roll gains its value), DDO-SCORE-04 and -05 (the
lowest loses its value), DDO-ROUND-02 (a round ends when every player has rolled), DDO-PLAYERS-01.
"""

from __future__ import annotations

import io
import itertools

import pytest

from tests.support import benchmark_script


def _apart(faces: list[int], players: int, rounds: int) -> list[int]:
    """Round-start score vectors up to a shift, by tie-free rounds, counted by brute force."""
    moves: set[tuple[int, ...]] = set()
    for rolls in itertools.product(faces, repeat=players):
        hi, lo = max(rolls), min(rolls)
        if rolls.count(hi) == 1 and rolls.count(lo) == 1:
            change = [0] * players
            change[rolls.index(hi)] += hi
            change[rolls.index(lo)] -= lo
            moves.add(tuple(change))
    front = {(0,) * players}
    counts = [1]
    for _ in range(rounds):
        nxt = set()
        for scores in front:
            for step in moves:
                total = [a + b for a, b in zip(scores, step, strict=True)]
                least = min(total)
                nxt.add(tuple(m - least for m in total))
        front = nxt
        counts.append(len(front))
    return counts


@pytest.mark.parametrize("faces", [[1, 2, 3], [1, 3, 4, 6]])
def test_round_start_states_match_a_count_made_apart(faces: list[int]) -> None:
    bound = benchmark_script("ddo_state_bound")
    figures = bound.count({"games_to_win": 1, "die_faces": faces}, {}, 3, out=io.StringIO())
    assert figures["players"] == 4
    assert figures["round_start_states"] == _apart(faces, 4, 3)
    assert figures["boundary"] == sum(figures["round_start_states"])


def test_states_inside_a_round_are_bounded_by_the_prefixes() -> None:
    bound = benchmark_script("ddo_state_bound")
    faces = [1, 2, 3]
    figures = bound.count({"games_to_win": 1, "die_faces": faces}, {}, 2, out=io.StringIO())
    for classes in figures["inside_classes"].values():
        # After one roll, each face gives a different future (it can be the round's highest or
        # lowest); never more classes than prefixes.
        assert classes[0] == len(faces)
        assert all(c <= len(faces) ** (k + 1) for k, c in enumerate(classes))
    starts = figures["round_start_states"]
    per_start = sum(figures["inside_classes"][0])
    assert figures["within"] == sum(starts[:-1]) * per_start
    assert figures["symmetric"] == figures["total"] // 4


def test_every_completion_is_a_round_with_one_highest_and_one_lowest() -> None:
    bound = benchmark_script("ddo_state_bound")
    start = bound.round_start({"games_to_win": 1, "die_faces": [1, 2, 3]}, {}, 2)
    seen = list(bound.completions(start))
    assert seen, "no tie-free completion found"
    for rolled, change, _ in seen:
        assert rolled.count(max(rolled)) == 1 and rolled.count(min(rolled)) == 1
        assert sorted(c for c in change if c) == [-min(rolled), max(rolled)]


def test_a_score_floor_is_refused() -> None:
    bound = benchmark_script("ddo_state_bound")
    with pytest.raises(SystemExit, match="score floor"):
        bound.count({"games_to_win": 1, "score_floor": 0}, {}, 1, out=io.StringIO())
