"""The detectable effect beside every verdict (issue 44): what the games could have seen."""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

import pytest

from rulespec.impact.power import (
    POWER,
    detectable,
    detectable_change,
    detectable_text,
    seat_standard_error,
    with_detectable,
)
from rulespec.impact.stats import t_quantile
from rulespec.impact.sweep import load_sweep
from rulespec.impact.sweepcli import verdicts_text
from rulespec.spec.registry import game_ids, get_spec


def _result(agent: str, games: int, half: float, *, reached: float = 0.5,
            seats: int = 2) -> dict[str, Any]:
    iv = {"value": 0.0, "low": -half, "high": half}
    return {"agent": agent, "games": games, "option": "other", "trigger_rate": {"value": reached},
            "seat_win_rate_change": [dict(iv) for _ in range(seats)]}


def test_the_detectable_change_is_the_power_bound_on_the_standard_error() -> None:
    """|d| >= (z(1 - level/2) + z(power)) * se, se from the 95% t interval."""
    r = _result("random", 400, 0.05)
    se = 0.05 / t_quantile(0.95, 399)
    z = NormalDist().inv_cdf(1 - 0.05 / 2) + NormalDist().inv_cdf(POWER)
    assert detectable_change(r, 0.05) == pytest.approx(z * se)
    # A stricter correction (a smaller per-interval level) can only see larger changes; more
    # games see smaller ones.
    strict, loose = detectable_change(r, 1e-5), detectable_change(r, 0.05)
    more = detectable_change(_result("random", 1600, 0.025), 0.05)
    assert strict is not None and loose is not None and more is not None
    assert strict > loose > more


def test_games_in_which_no_pair_differed_do_not_claim_to_see_everything() -> None:
    """Zero-width intervals (no paired game differed) give the rule of three's bound, not 0."""
    assert seat_standard_error({"value": 0.0, "low": 0.0, "high": 0.0}, 400) == pytest.approx(
        math.sqrt(3) / 400)
    assert (detectable_change(_result("random", 400, 0.0), 0.05) or 0.0) > 0


def test_a_record_takes_the_largest_per_agent_and_skips_unreached_results() -> None:
    record = {"measurements": [
        {"players": 3, "variants": [], "results": [_result("random", 400, 0.05),
                                                    _result("greedy", 50, 0.2),
                                                    _result("random", 400, 0.5, reached=0.0)]},
        {"players": 4, "variants": ["x"], "results": [_result("random", 400, 0.08)]}]}
    found = detectable(record, 0.05)
    assert set(found) == {"random", "greedy"}
    assert found["random"]["setting"] == {"players": 4, "variants": ["x"]}
    assert found["random"]["seat_win_rate_change"] == pytest.approx(
        detectable_change(_result("random", 400, 0.08), 0.05), rel=1e-3)
    text = detectable_text({"detectable": found})
    assert text.startswith("a seat win-rate change of ") and "(greedy)" in text and "80%" in text


@pytest.mark.parametrize("game", game_ids())
def test_every_no_effect_verdict_of_the_saved_sweeps_carries_its_detectable_change(
        game: str) -> None:
    """OURO-AMB-03 at 400 random and 50 greedy games could show only changes of about 16 and
    46 points: the sweep's verdicts now say so, in the CLI too."""
    spec = get_spec(game)
    data = load_sweep(spec.path, game)
    if data is None:
        pytest.skip(f"{game} has no saved sweep")
    none = {a: r["verdict"] for a, r in data["records"].items()
            if r["verdict"]["status"] == "none"}
    for amb, v in none.items():
        assert set(v["detectable"]) == set(v["games_by_agent"]), amb
        assert all(0 < d["seat_win_rate_change"] <= 1 for d in v["detectable"].values()), amb
    text = verdicts_text(game, data)
    assert text.count("would have shown") == len(none)
    assert with_detectable(data) is data  # idempotent: computed once on load


def test_rejudging_one_game_keeps_the_sweep_wide_correction(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--rejudge`` of one game corrects over every saved sweep, as the sweep did: alone, it
    corrected Ouro de Tolo over its own tests and rewrote its verdicts (found writing this)."""
    from rulespec.impact import sweepcli

    saved = load_sweep(get_spec("ouro-de-tolo").path, "ouro-de-tolo")
    assert saved is not None
    written: dict[str, Any] = {}
    monkeypatch.setattr(sweepcli, "_save", lambda path, data: written.update({path.name: data}))
    sweepcli.rejudge(["ouro-de-tolo"], "text", quiet=True)
    again = written["ouro-de-tolo.json"]
    assert list(written) == ["ouro-de-tolo.json"]
    assert again["correction"]["family"] == saved["correction"]["family"]
    assert {a: r["verdict"]["status"] for a, r in again["records"].items()} == {
        a: r["verdict"]["status"] for a, r in saved["records"].items()}
