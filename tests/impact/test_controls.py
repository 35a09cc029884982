"""The impact method on control rulings of known effect (issue 30).

Three controls, built from real Ouro de Tolo games with random players (cheap, and its seats
are not symmetric in play order, so nothing here leans on a symmetric game):

- a *relabelling*: the option's game is the baseline's game itself (a ruling that changes
  nothing observable): every seat interval is exactly zero and the test cannot reject;
- a *reshuffle*: the option's game is the game of another seed under the same rules (what a
  ruling that only reorders play gives: the winners differ in most pairs, the distribution is
  the same). The paired outcome-change rate is high, as the old headline read it, but the
  distribution test rejects at about its level over many replications and the verdict is "no
  measurable effect": a method that reported paired outcome change as the effect fails here;
- a *planted bonus*: seat 0 is made the sole winner of a share ``q`` of the games, chosen by a
  stream of its own: the expected change of seat 0's win rate is ``q`` times the share of games
  seat 0 did not already win alone, and the method must find about that.

The fast versions run in CI; the slow ones repeat over many seeds (``pytest -m slow``).
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from functools import lru_cache
from typing import Any

import pytest

from rulespec.impact.agents import RandomAgent
from rulespec.impact.effects import ALPHA, games_needed, holm, midranks, sign_flip_test
from rulespec.impact.measure import figures
from rulespec.impact.paired import GameSummary, derive_seed, play_game
from rulespec.impact.sweep import finish
from rulespec.spec.registry import get_spec

PLAYERS = 4


@lru_cache(maxsize=1)
def pool() -> tuple[GameSummary, ...]:
    """Ouro de Tolo games (default rulings, random players), one per seed."""
    spec = get_spec("ouro-de-tolo")
    agent = RandomAgent()
    return tuple(play_game(spec, {}, PLAYERS, agent, derive_seed("controls", i), ["OURO-AMB-03"])
                 for i in range(400))


def reshuffled(n: int, seed: int) -> list[tuple[GameSummary, GameSummary]]:
    """``n`` pairs of two different games of the pool (a ruling that only reorders play)."""
    games = list(pool())
    random.Random(seed).shuffle(games)
    return list(zip(games[:n], games[n:2 * n], strict=True))


def planted(pairs: list[tuple[GameSummary, GameSummary]], q: float,
            seed: int) -> list[tuple[GameSummary, GameSummary]]:
    """Make seat 0 the sole winner of a share ``q`` of the option's games."""
    rng = random.Random(seed)
    return [(b, replace(o, winners=(0,)) if rng.random() < q else o) for b, o in pairs]


def sweep_of(pairs: list[tuple[GameSummary, GameSummary]], tests: int = 1) -> dict[str, Any]:
    """One record measured by ``pairs``, judged the way a sweep judges it."""
    result = {"option": "control", "agent": "random", **figures(pairs, 0, PLAYERS)}
    record: dict[str, Any] = {"baseline": "default", "effect": "order",
                              "settings_tried": [{"players": 4, "variants": []}],
                              "measurements": [{"players": PLAYERS, "results": [result]}]}
    records = {f"CTRL-{k}": record if k == 0 else copy.deepcopy(record) for k in range(tests)}
    data: dict[str, Any] = {"records": records}
    finish({"control": data})
    return data


def test_relabelling_shows_no_effect() -> None:
    """Identical games: every interval is the point 0, the test has nothing to reject."""
    games = list(pool()[:120])
    out = figures(list(zip(games, games, strict=True)), 0, PLAYERS)
    assert all(iv == {"value": 0.0, "low": 0.0, "high": 0.0}
               for iv in out["seat_win_rate_change"])
    assert out["distribution_test"]["p_value"] == 1.0
    assert out["outcome_change_rate"]["value"] == 0
    # Every pair alike: the question never arises (issue 44 item 3), so no effect is claimed.
    verdict = sweep_of(list(zip(games, games, strict=True)))["records"]["CTRL-0"]["verdict"]
    assert verdict["status"] == "unreached" and verdict["asked"] is True


def test_reshuffle_is_no_effect_though_winners_change_in_most_pairs() -> None:
    """The control that the old headline failed: winners differ in most pairs (as in
    unrelated games), yet no distribution test rejects beyond its level and the verdict is
    "no measurable effect"."""
    rejections = 0
    changed = []
    replications = 30
    for seed in range(replications):
        pairs = reshuffled(100, seed)
        out = figures(pairs, 0, PLAYERS)
        changed.append(out["outcome_change_rate"]["value"])
        assert out["reshuffle_outcome_change_rate"]["low"] <= out["outcome_change_rate"][
            "high"], "paired outcome change sits at its reshuffle baseline"
        rejections += out["distribution_test"]["p_value"] < ALPHA
        verdict = sweep_of(pairs)["records"]["CTRL-0"]["verdict"]
        assert verdict["status"] in {"none", "distribution", "effect"}
    assert min(changed) > 0.4, "the paired outcome change alone would call this an effect"
    # 30 replications at level 0.05: 1.5 expected; 6 or more has probability below 0.005.
    assert rejections <= 5


def test_reshuffle_verdicts_after_correction() -> None:
    """Twelve reshuffle records judged together: none reaches a corrected effect."""
    pairs = reshuffled(150, 99)
    data = sweep_of(pairs, tests=12)
    assert {r["verdict"]["status"] for r in data["records"].values()} == {"none"}


@pytest.mark.parametrize("q", [0.2, 0.4])
def test_planted_bonus_is_found_at_its_size(q: float) -> None:
    """Seat 0 made the sole winner of a share q of the games: the change found is about
    q x (share of games seat 0 did not win alone), and the corrected verdict names seat 0."""
    pairs = planted(reshuffled(200, 5), q, seed=11)
    out = figures(pairs, 0, PLAYERS)
    alone = sum(o.winners == (0,) for _, o in reshuffled(200, 5)) / 200
    expected = q * (1 - alone)
    seat0 = out["seat_win_rate_change"][0]
    assert seat0["low"] <= expected <= seat0["high"]
    assert out["distribution_test"]["p_value"] < ALPHA
    verdict = sweep_of(pairs)["records"]["CTRL-0"]["verdict"]
    assert verdict["status"] == "effect" and verdict["seat"] == 0
    assert verdict["seat_win_rate_change"]["value"] == pytest.approx(expected, abs=0.08)


@pytest.mark.slow
def test_rejection_rate_near_level_over_many_seeds() -> None:
    """300 reshuffle replications: the test's rejection rate is near its level (0.05)."""
    rejections = sum(sign_flip_test_of(reshuffled(100, 1000 + s)) < ALPHA for s in range(300))
    assert 0.02 <= rejections / 300 <= 0.09


@pytest.mark.slow
def test_power_table_holds_for_a_planted_change() -> None:
    """At the games the power table asks for, a planted change of that size is found in about
    80% of replications (the table assumes reshuffled pairs, as here)."""
    q = 0.2
    base = sum(o.winners == (0,) for o in pool()) / len(pool())
    change = q * (1 - base)
    n = min(games_needed(change, base), 200)
    found = 0
    for s in range(100):
        pairs = planted(reshuffled(n, 2000 + s), q, seed=s)
        found += figures(pairs, 0, PLAYERS)["seat_win_rate_change"][0]["low"] > 0
    assert found / 100 >= 0.6


def sign_flip_test_of(pairs: list[tuple[GameSummary, GameSummary]]) -> float:
    return float(figures(pairs, 0, PLAYERS)["distribution_test"]["p_value"])


def test_holm_known_values() -> None:
    """Holm (1979): sorted p times (m - rank), made monotone, capped at 1."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_midranks_are_doubled_mean_ranks() -> None:
    assert midranks([10, 20, 20, 5]) == [4, 7, 7, 2]


def test_sign_flip_test_sees_a_shift_and_not_noise() -> None:
    shifted = [[1] * 30 + [0] * 10]
    assert sign_flip_test(shifted).p_value < 0.001
    balanced = [[1, -1] * 20]
    assert sign_flip_test(balanced).p_value > 0.5
    assert sign_flip_test([[0] * 40]).p_value == 1.0


def test_power_table_known_value() -> None:
    """Two-sided 5%, 80% power, p = 0.25, change 0.10: (1.96 + 0.8416)^2 x 0.375 / 0.01."""
    assert games_needed(0.10, 0.25) == 295
    assert games_needed(0.10, 0.25, tests=100) > games_needed(0.10, 0.25)
