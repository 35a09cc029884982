"""Reached where it matters (issue 44 item 3): a decision point counts as arising only in the
pairs whose games the ruling changed.

FOOL-AMB-03 (FOOL-FOOL-03, one Fool or two): its readings differ only at 7 players, yet its
decision point is asked in every game at every count; OURO-AMB-03 (OURO-CARD-08, who picks the
stones Light Hand takes) changes nothing when every seat picks uniformly from one stream.
"""

from __future__ import annotations

import functools
from typing import Any

from rulespec.impact.measure import figures
from rulespec.impact.paired import BatchTask, GameSummary, run_batch


@functools.cache
def _pairs(game: str, players: int, record: str, option: str,
           agent: str = "random") -> list[tuple[GameSummary, GameSummary]]:
    task = BatchTask(game, players, agent, 0, 0, 12, (record,), ((record, option),))
    return [(row[0], row[1]) for row in run_batch(task)]


def test_a_question_asked_where_the_options_agree_does_not_arise() -> None:
    """FOOL-AMB-03 at 4 players: asked in every game, changing none."""
    out = figures(_pairs("fool", 4, "FOOL-AMB-03", "eight-only"), 0, 4, test=False)
    assert out["trigger_rate"]["value"] == 1.0
    assert out["arises_rate"]["value"] == 0.0


def test_a_question_that_changes_play_arises() -> None:
    """FOOL-AMB-03 at 7 players: the two Fools change the games where it is asked."""
    pairs = _pairs("fool", 7, "FOOL-AMB-03", "eight-only")
    out = figures(pairs, 0, 7, test=False)
    assert out["arises_rate"]["value"] > 0
    assert out["arises_rate"]["value"] <= out["trigger_rate"]["value"]
    changed = sum(1 for b, o in pairs if b.fingerprint != o.fingerprint)
    assert changed == round(out["arises_rate"]["value"] * len(pairs))


def test_the_fingerprint_is_the_game() -> None:
    """The same seed and ruling give the same fingerprint; a changed game another one."""
    same = _pairs("fool", 4, "FOOL-AMB-03", "eight-only")
    assert all(b.fingerprint == o.fingerprint and b.fingerprint != 0 for b, o in same)
    assert len({b.fingerprint for b, _ in same}) == len(same)


def test_the_players_do_not_see_what_a_ruling_hides() -> None:
    """OURO-AMB-37 in-hand (OURO-DRAW-04): the agents' view hides the others' Fool's Gold, as
    the bridges' does; asking does not count the record as reached in the game measured."""
    from rulespec.impact.agents import Observation, RandomAgent
    from rulespec.impact.paired import play_game
    from rulespec.spec.registry import get_spec

    spec = get_spec("ouro-de-tolo")
    seen: list[Observation] = []

    class Watching(RandomAgent):
        def act(self, obs: Observation, rng: Any) -> Any:
            seen.append(obs)
            return super().act(obs, rng)

    summary = play_game(spec, {"OURO-AMB-37": "in-hand"}, 3, Watching(), 5, ["OURO-AMB-37"])
    assert seen and all("$.players[*].stones.fools_gold" in [h.path for h in o.hidden]
                        for o in seen)
    assert summary.length > 0
    # Were the view's question counted in the game itself, every game would have reached it.
    counts = [play_game(spec, {"OURO-AMB-37": "in-hand"}, 3, RandomAgent(), seed,
                        ["OURO-AMB-37"]).decisions[0] for seed in range(12)]
    assert min(counts) == 0, counts


def test_asked_everywhere_but_arising_nowhere_is_unreached_and_says_why() -> None:
    """FOOL-AMB-03 at 4 players (FOOL-FOOL-03): asked in every game, no pair differs; its
    verdict is unreached with ``asked``, and the texts say it never arises. A sweep saved
    before the arises rate existed keeps its old verdict (no arises rate: not judged so)."""
    from rulespec.docsgen.sweepdocs import effect_cell, measured_prose
    from rulespec.impact.sweep import verdict

    out = figures(_pairs("fool", 4, "FOOL-AMB-03", "eight-only"), 0, 4, test=False)
    out.update(option="eight-only", agent="random", seat_win_rate_change_corrected=[])
    record: dict[str, Any] = {"measurements": [{"players": 4, "variants": [], "results": [out]}],
              "settings_tried": [{"players": 4, "variants": []}], "precision": []}
    v = verdict(record)
    assert v["status"] == "unreached" and v["asked"] and v["games"] == 12
    record["verdict"] = v
    assert "never arises" in effect_cell(record)
    assert measured_prose(record, {"correction": {"family": 1}, "probe_games": 50}) \
        .startswith("Never arising: its decision point was asked at 4 players")
    old = dict(out)
    del old["arises_rate"]
    assert verdict({**record, "measurements": [{"players": 4, "results": [old]}]}) \
        .get("asked") is None
