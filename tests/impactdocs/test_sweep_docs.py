"""The saved sweeps (specs/impact/GAME.json) on the docs: no record's prose contradicts its
table, the ranking lists only records with a corrected effect, and the spec prose quotes no
measurement of its own (issue 30)."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import Any

import pytest

from rulespec.docsgen.impact import what_matters_most
from rulespec.docsgen.sweepdocs import effect_cell, measured_prose, sweep_block, sweep_of
from rulespec.impact.sweep import settings_text
from rulespec.spec.registry import game_ids, get_spec

NUMBER = re.compile(r"(?<![\w-])[+-]?\d+(?:\.\d+)?(?:e-?\d+)?")
SWEPT = [g for g in game_ids() if sweep_of(get_spec(g)) is not None]


def disagreements(amb: str, record: Mapping[str, Any], data: Mapping[str, Any]) -> list[str]:
    """Return every figure the prose quotes that is not where the prose says it is."""
    block = sweep_block(amb, record, data)
    prose = measured_prose(record, data)
    tables = block[block.index("*At ") if "*At " in block else len(block):]
    known = set(NUMBER.findall(tables))
    known |= {str(data["correction"]["family"]), str(data["probe_games"])}
    for setting in record["settings_tried"]:
        known.add(str(setting["players"]))
    v = record["verdict"]
    if "p_adjusted" in v:
        known.add(f"{v['p_adjusted']:.2g}")
    problems = [f"{amb}: the prose quotes {n}, which no table of the record shows"
                for n in NUMBER.findall(prose) if n not in known and n.lstrip("+") not in known]
    quoted = re.search(r"seat (\d+)'s win rate changes by (\S+ pts \[[^\]]+\])", prose)
    if quoted:
        seat, change = quoted.groups()
        label = settings_text([v["setting"]])
        start = tables.find(f"*At {label}.*")
        here = tables[start:tables.find("*At ", start + 1) if "*At " in tables[start + 1:]
                      else len(tables)] if start >= 0 else ""
        row = next((line for line in here.splitlines()
                    if line.startswith(f"| <code>{v['option']}</code> | <code>{v['agent']}</code> "
                                       f"| {v['games']} |")), "")
        if f"seat {seat}: {change}".replace("[", "\\[").replace("]", "\\]") not in row \
                .replace("\\+", "+").replace("\\-", "-"):
            problems.append(f"{amb}: seat {seat}'s {change} is not in the row of "
                            f"{v['option']} / {v['agent']} at {v['games']} games")
    return problems


@pytest.mark.parametrize("game", SWEPT)
def test_no_prose_contradicts_its_table(game: str) -> None:
    data = sweep_of(get_spec(game))
    assert data is not None
    problems = [p for amb, rec in data["records"].items() for p in disagreements(amb, rec, data)]
    assert problems == []


@pytest.mark.parametrize("game", SWEPT)
def test_the_check_would_catch_a_contradiction(game: str) -> None:
    """A verdict whose quoted change is not the table's is reported (the check can fail)."""
    data = copy.deepcopy(sweep_of(get_spec(game)))
    assert data is not None
    amb, rec = next(iter(data["records"].items()))
    rec["verdict"] = {"status": "effect", "games": 12345, "setting": {"players": 9,
                                                                        "variants": []},
                      "option": "nowhere", "agent": "random", "seat": 0, "p_adjusted": 0.001,
                      "seat_win_rate_change": {"value": 0.333, "low": 0.2, "high": 0.4}}
    assert disagreements(amb, rec, data)


@pytest.mark.parametrize("game", SWEPT)
def test_ranking_lists_only_corrected_effects(game: str) -> None:
    spec = get_spec(game)
    data = sweep_of(spec)
    assert data is not None
    summary = what_matters_most([spec]).split("### ")[1]
    ranking, _, unmeasurable = summary.partition("no measurable effect")
    listed = set(re.findall(r"\| \[<code>([A-Z]+-AMB-\d+)</code>\]", ranking))
    effects = {a for a, r in data["records"].items() if r["verdict"]["status"] == "effect"}
    assert listed <= effects
    for amb in listed:
        v = data["records"][amb]["verdict"]
        iv = v["seat_win_rate_change"]
        assert iv["low"] > 0 or iv["high"] < 0, f"{amb} is listed with an interval holding 0"
    none = {a for a, r in data["records"].items() if r["verdict"]["status"] == "none"}
    assert set(re.findall(r"\| \[<code>([A-Z]+-AMB-\d+)</code>\]", unmeasurable)) == none
    for rec in data["records"].values():
        if rec["verdict"]["status"] == "none":
            assert "no measurable effect" in effect_cell(rec)
            assert "could show ≥ " in effect_cell(rec)  # issue 44: the power beside the verdict


@pytest.mark.parametrize("game", game_ids())
def test_spec_prose_quotes_no_measurement(game: str) -> None:
    """Measured figures live in the sweep; a spec's impact text quoting one would go stale."""
    stale = re.compile(r"\d\s?%|paired games|[Mm]easured (at|in|over)")
    for amb in get_spec(game).section("ambiguities"):
        text = str((amb.get("impact") or {}).get("text", ""))
        assert not stale.search(text), f"{amb['id']}: {text}"


def test_the_verdict_comes_first_and_the_details_fold() -> None:
    """Issue 44 item 6: each setting's narrow verdict table (the Holm-adjusted test, the largest
    corrected seat change, what the games could show) comes first; every figure is folded."""
    data = sweep_of(get_spec("ouro-de-tolo"))
    assert data is not None
    record = data["records"]["OURO-AMB-03"]
    block = sweep_block("OURO-AMB-03", record, data)
    assert block.count("<details") == len(record["measurements"])
    first = block.index("Test p (Holm-adjusted)")
    assert first < block.index("<details") < block.index("Outcome changed (paired)")
    assert "Smallest change it could show (80%)" in block


def test_a_first_player_interval_that_excludes_zero_is_explained() -> None:
    """An uncorrected first-player interval off zero beside "no measurable effect" is
    explained where it seems to contradict the verdict, and only there."""
    data = sweep_of(get_spec("ouro-de-tolo"))
    assert data is not None
    record = copy.deepcopy(data["records"]["OURO-AMB-03"])
    assert record["verdict"]["status"] == "none"
    assert "Why a first-player interval" not in sweep_block("OURO-AMB-03", record, data)
    record["measurements"][0]["results"][0]["first_player_win_rate_change"] = {
        "value": 0.05, "low": 0.01, "high": 0.09}
    assert "Why a first-player interval" in sweep_block("OURO-AMB-03", record, data)
