"""Issue 19: coverage in every report, rare events declared in the spec, steered play.

The clause ids these tests touch are those of the events and bad engines they exercise:
OURO-CAX-04 (the deck refilled from the discards, OURO-AMB-05) and OURO-CARD-08 (a steal,
OURO-AMB-17 on the taker's accident).
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulespec.conformance import InProcessAdapter, Options, check_engine
from rulespec.conformance.play.coverage import (
    Coverage,
    Universe,
    ends_a_game,
    fields_read,
    premise_of,
    split_or,
)
from rulespec.conformance.play.steering import example_seeds, positions_along, replayed, seek
from rulespec.conformance.reports.report import render
from rulespec.reference.core import Config, make_config
from rulespec.reference.registry import engine_class
from rulespec.spec.errors import SpecError
from rulespec.spec.model import Spec
from rulespec.spec.registry import game_ids, get_spec
from rulespec.spec.validate import load_spec

from .corpus import SPECIFIC

TOY = Path(__file__).parents[1] / "specs" / "valid" / "toy.yaml"

EVENT = """events:
  - id: TOY-EV-ONE
    name: a one
    clauses: [TOY-PLAY-01]
    description: A one was flipped.
    kinds: [flip]
    when: after.last == 1
"""


def _toy_with(tmp_path: Path, block: str) -> Path:
    text = TOY.read_text(encoding="utf-8").replace("\nvariants:", "\n" + block + "variants:", 1)
    path = tmp_path / "toy.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _problems(path: Path) -> str:
    with pytest.raises(SpecError) as info:
        load_spec(path)
    return "\n".join(str(p) for p in info.value.problems)


def test_events_load_and_bad_events_are_rejected(tmp_path: Path) -> None:
    """An events list loads; a duplicate id, an unknown clause, an unknown kind, a bad
    expression and an unknown coverage item are each reported with where they are."""
    assert load_spec(_toy_with(tmp_path, EVENT)).section("events")[0]["id"] == "TOY-EV-ONE"
    bad = (EVENT + EVENT.replace("events:\n", "").replace("TOY-PLAY-01", "TOY-NOPE-01")
           .replace("[flip]", "[flop]").replace("after.last == 1", "state.last == 1")
           + "coverage:\n  - items: [nothing]\n    when: config.players > 1\n    why: none.\n"
           + "  - items: [flip]\n    seek: stat.last == 1\n    why: none.\n")
    messages = _problems(_toy_with(tmp_path, bad))
    assert "'TOY-EV-ONE' is already used" in messages
    assert "unknown clause 'TOY-NOPE-01'" in messages
    assert "unknown action kind 'flop'" in messages
    assert "unknown variable 'state'" in messages
    assert "unknown item 'nothing'" in messages
    assert "$.events[1]" in messages and "$.coverage[0].items[0]" in messages
    assert "$.coverage[1].seek" in messages and "unknown variable 'stat'" in messages


def test_every_game_declares_rare_events_tied_to_clauses() -> None:
    """Each built-in game names a short list of rare events, each citing clauses."""
    for game in ("ouro-de-tolo", "fool", "ruby-rhino", "dado-de-ouro"):
        events = get_spec(game).section("events")
        assert 3 <= len(events) <= 8, game
        assert all(e["clauses"] for e in events)
    ids = {e["id"] for e in get_spec("ouro-de-tolo").section("events")}
    assert {"OURO-EV-RESHUFFLE", "OURO-EV-STEAL-ACCIDENT"} <= ids


def test_premise_and_fields_of_expressions() -> None:
    """An invariant ``A || B || C`` is exercised where ``A`` and ``B`` are false; an event
    reads only the fields it names (strings and brackets do not split)."""
    assert split_or("a || (b || c) || 'x||y'") == ["a", "(b || c)", "'x||y'"]
    assert premise_of("a == 1 || b") == "!((a == 1))"
    assert premise_of("a && b") is None
    assert fields_read("before.deck == after.deck && size(after.players) > 0",
                       ("before", "after")) == frozenset({"deck", "players"})
    assert fields_read("before == after", ("before", "after")) is None


def test_reshuffle_event_is_seen_on_the_reference() -> None:
    """OURO-CAX-04: the rule example that leaves the Caxias buying from an empty deck is a seed
    (it witnesses OURO-AMB-05); the draw that follows shows the deck reshuffled, and no other
    step of it does."""
    spec = get_spec("ouro-de-tolo")
    universe = Universe(spec)
    config = make_config(spec, players=3, parameters={"card_counts": {
        "dynamite": 4, "favor": 1, "light_hand": 1, "not_mine": 1, "not_mine_either": 1,
        "very_light_hand": 1, "tired": 1}})
    seeds = example_seeds(spec, config, engine_class(spec), universe)
    assert seeds
    hits = []
    for seed in seeds:
        assert "OURO-EV-RESHUFFLE" not in positions_along(
            spec, config, engine_class(spec), universe, seed)[0]
        engine = engine_class(spec)(spec, config)
        for action in seed:
            engine.apply(action)
        state = engine.state()
        if state["phase"] != "buy" or engine.current_player() != "chance":
            continue
        draw = engine.chance_outcomes()[0][0]
        engine.apply(draw)
        hits.append(Coverage(universe).step(state, draw, engine.state(),
                                            dict(config.parameters), config.to_json()))
    assert ["OURO-EV-RESHUFFLE"] in hits, hits


def test_six_player_tie_is_a_seed_of_the_default_configuration() -> None:
    """OURO-END-05, OURO-END-03: the six-player tie example is played under exactly the default
    six-player configuration, so the default run replays it first and reaches OURO-AMB-09
    (a tie for the richest, the declarer among them) whatever Hypothesis draws."""
    spec = get_spec("ouro-de-tolo")
    universe = Universe(spec)
    config = make_config(spec, players=6)
    reached = [positions_along(spec, config, engine_class(spec), universe, seed)[1]
               for seed in example_seeds(spec, config, engine_class(spec), universe)]
    assert any(decisions.get("OURO-AMB-09") for decisions in reached), reached


def test_every_report_carries_coverage(tmp_path: Path) -> None:
    """A passing run says what it exercised: text ("conformant on what was exercised", the
    parts never reached), JSON (a coverage key per run) and JUnit (properties, system-out)."""
    options = Options(examples=3, golden=False, perft_seconds=0, rule_examples=False,
                      seek_steps=300, max_steps=150)
    report = check_engine(InProcessAdapter(), "ruby-rhino", players=[2], options=options)
    assert report.ok
    text = render(report, "text")
    assert "coverage (" in text and "conformant on what was exercised: action kinds" in text
    assert "decision points" in text and "events" in text
    run = json.loads(render(report, "json"))["runs"][0]
    cov = run["coverage"]
    # RR-AMB-04 and RR-AMB-10 at their defaults: nobody chooses a count or draws a first player.
    assert cov["action_kinds"]["total"] == 1
    assert {"choose_count", "first_player"} <= set(cov["out_of_scope"])
    assert set(cov) >= {"games", "action_kinds", "decision_points", "events", "invariants",
                        "clauses"}
    suite = ET.fromstring(render(report, "junit")).find("testsuite")
    assert suite is not None
    names = [p.get("name") for p in suite.iter("property")]
    assert any(n and n.startswith("coverage action kinds") for n in names)
    out = suite.find("system-out")
    assert out is not None and "conformant on what was exercised" in (out.text or "")


def test_steered_runs_are_deterministic() -> None:
    """Under a fixed seed two runs play the same games: the same steps, the same coverage."""
    options = Options(examples=3, golden=False, perft_seconds=0, seed=7, seek_steps=500,
                      max_steps=300, rule_examples=False)
    first, second = (check_engine(InProcessAdapter(), "ouro-de-tolo", players=[3],
                                  options=options) for _ in range(2))
    assert [r.steps for r in first.runs] == [r.steps for r in second.runs]
    assert ([r.coverage.to_json() for r in first.runs]
            == [r.coverage.to_json() for r in second.runs])


def test_steering_reaches_more_than_hypothesis_alone() -> None:
    """Unexercised kinds first, rule examples first and the reference search reach action kinds
    and decision points that the same number of unsteered games miss."""
    def reached(steer: bool) -> int:
        options = Options(examples=3, golden=False, perft_seconds=0, rule_examples=False,
                          steer=steer, max_steps=400, seek_steps=1500)
        report = check_engine(InProcessAdapter(), "ouro-de-tolo", players=[3], options=options)
        parts = report.runs[0].coverage.parts()
        return int(parts["action kinds"][0]) + int(parts["decision points"][0])

    assert reached(True) > reached(False)


def _lacking(spec_id: str, want: str, players: int,
             parameters: dict[str, Any] | None = None) -> tuple[Spec, Config, Coverage]:
    """Return a spec, a configuration and a coverage where everything but ``want`` was reached."""
    spec = get_spec(spec_id)
    universe = Universe(spec)
    config = make_config(spec, players=players, parameters=parameters or {})
    coverage = Coverage(universe)
    coverage.out = universe.out_of_scope(config.to_json(), config.parameters)
    coverage.kinds.update(universe.kinds)
    coverage.decisions.update(d for d in universe.decisions if d != want)
    coverage.events.update(e.ident for e in universe.events if e.ident != want)
    return spec, config, coverage


@pytest.mark.parametrize("players", [5, 8])
def test_seek_hint_reaches_a_trick_of_only_ones(players: int) -> None:
    """FOOL-AMB-11 (FOOL-TRICK-01, FOOL-WILD-05): a trick with no coloured card needs every card
    in it to be one of the six 1s. The spec's seek hint leads the reference search there within
    a small budget; the same search without the hint does not get there."""
    spec, config, coverage = _lacking("fool", "FOOL-AMB-11", players)
    assert coverage.missing() == {"FOOL-AMB-11"}
    reference = engine_class(spec)
    found = seek(spec, config, reference, coverage, budget=1500, max_steps=3000)
    assert found
    assert positions_along(spec, config, reference, coverage.universe, found[0])[1]["FOOL-AMB-11"]
    coverage.universe.hints = []
    assert not seek(spec, config, reference, coverage, budget=1500, max_steps=3000)


def test_events_of_a_finished_game_are_told_apart() -> None:
    """FOOL-END-02, FOOL-WIN-01: an event whose condition needs ``after.result != null`` at its
    top level can only show on a game's last step, so the search builds states for it there
    alone; anything else (an ``||``, a ternary, the test inside a bracket) is checked on every
    step as before."""
    assert ends_a_game("before.result == null && after.result != null && x")
    assert ends_a_game("a &&  null != after.result")
    assert not ends_a_game("after.result != null || before.round > 1")
    assert not ends_a_game("(after.result != null && a) || b")
    assert not ends_a_game("a ? after.result != null : true")
    assert not ends_a_game("size(after.history.filter(h, after.result != null && h)) > 0")
    ends = {e.ident for e in Universe(get_spec("fool")).events if e.at_end}
    assert ends == {"FOOL-EV-END-BY-PLUS-TENS", "FOOL-EV-SHARED-WIN"}


@pytest.mark.parametrize(("game", "event", "players"), [
    ("ouro-de-tolo", "OURO-EV-SHARED-WIN", 3), ("ouro-de-tolo", "OURO-EV-SHARED-WIN", 6),
    ("fool", "FOOL-EV-SHARED-WIN", 4)])
def test_the_search_finds_the_same_games_building_fewer_states(game: str, event: str,
                                                               players: int) -> None:
    """OURO-END-05, FOOL-WIN-01: seeking a shared win, the search that checks end-of-game
    events only at the end finds exactly the games the search checking them at every step
    finds (Ouro de Tolo's within the budget; Fool's none, for both)."""
    spec, config, coverage = _lacking(game, event, players)
    reference = engine_class(spec)
    found = seek(spec, config, reference, coverage, budget=4000, max_steps=3000)
    assert bool(found) == (game == "ouro-de-tolo")
    for declared in coverage.universe.events:
        object.__setattr__(declared, "at_end", False)
    assert seek(spec, config, reference, coverage, budget=4000, max_steps=3000) == found


@pytest.mark.parametrize("game", sorted(game_ids()))
def test_a_game_replayed_from_a_checkpoint_is_the_game_replayed_whole(game: str) -> None:
    """The search rebuilds the state before a game's last action from a copy of its engine
    taken along the way: the same state (and the same player to move) as a fresh replay."""
    import random

    from rulespec.reference.play import random_policy

    spec = get_spec(game)
    config = make_config(spec, players=spec.max_players)
    reference = engine_class(spec)
    engine = reference(spec, config)
    rng = random.Random(4)
    actions: list[Any] = []
    checkpoint = None
    while engine.current_player() is not None and len(actions) < 300:
        if len(actions) == 97:
            checkpoint = (len(actions), engine.clone())
        action = random_policy(engine, rng)
        engine.apply(action)
        actions.append(action)
    assert checkpoint is not None, f"{game}: the game ended before the checkpoint"
    for upto in (checkpoint[0], checkpoint[0] + 1, len(actions) - 1, len(actions)):
        whole = replayed(spec, config, reference, actions[:upto])
        again = replayed(spec, config, reference, actions[:upto], checkpoint)
        assert again.state() == whole.state(), (game, upto)
        assert again.current_player() == whole.current_player()
    # the checkpoint is copied, not played on: replaying twice gives the same state
    assert (replayed(spec, config, reference, actions, checkpoint).state()
            == replayed(spec, config, reference, actions, checkpoint).state())


def test_bag_emptied_counts_only_where_the_bag_can_empty() -> None:
    """OURO-DRAW-01, OURO-DRAW-02: with the rulebook's 20 Fool's Gold the bag never empties
    (nobody holds more than accident_fools_gold, OURO-INV-FOOLS-GOLD-MAX), so the event is not
    counted; with four, it counts, and the seek hint finds a game that empties the bag."""
    spec, config, coverage = _lacking("ouro-de-tolo", "OURO-EV-BAG-EMPTY", 6)
    assert "OURO-EV-BAG-EMPTY" in coverage.out and not coverage.missing()
    counts = dict(config.parameters["stone_counts"])
    counts["fools_gold"] = 4
    spec, config, coverage = _lacking("ouro-de-tolo", "OURO-EV-BAG-EMPTY", 3,
                                      {"stone_counts": counts})
    assert coverage.missing() == {"OURO-EV-BAG-EMPTY"}
    reference = engine_class(spec)
    found = seek(spec, config, reference, coverage, budget=5000, max_steps=3000)
    assert found
    assert "OURO-EV-BAG-EMPTY" in positions_along(spec, config, reference, coverage.universe,
                                                  found[0])[0]


# -- the default run (slow) ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(game_ids()))
def test_default_run_reaches_every_action_kind_and_decision_point(game: str) -> None:
    """Issue 19: the reference's own default run reaches 100% of the action kinds and decision
    points each configuration can reach (the spec's ``coverage`` entries say which cannot)."""
    report = check_engine(InProcessAdapter(), game, options=Options(golden=False))
    assert report.ok
    for run in report.runs:
        parts = run.coverage.parts()
        for name in ("action kinds", "decision points"):
            covered, total, missed = parts[name]
            assert covered == total, f"{game} {run.config['players']} players: {name} {missed}"


BAD = [b for b in SPECIFIC["ouro-de-tolo"]
       if b.name in ("early-reshuffle", "steal-after-accident")]


@pytest.mark.slow
@pytest.mark.parametrize("bad", BAD, ids=str)
def test_default_run_rejects_rare_path_bugs(bad: object, tmp_path: Path) -> None:
    """Issue 19 "done when": an engine that reshuffles the deck one step early (OURO-CAX-04)
    and one whose steal goes on after the taker's accident (OURO-CARD-08, OURO-AMB-17 stop)
    are both rejected by a default ``rulespec conform`` run."""
    from .corpus import BadEngine

    assert isinstance(bad, BadEngine)
    adapter = InProcessAdapter({bad.game: bad.engine()}, name=bad.name)
    report = check_engine(adapter, bad.game, options=Options(trace_dir=tmp_path))
    assert not report.ok, f"{bad} passed a default run"
    checks = {f.check for f in report.failures}
    assert checks & {"DIFF-STATE", "EXAMPLE"}, checks
