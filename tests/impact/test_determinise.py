"""The MCTS player's determinisation through the games' ``redeal`` hooks.

A redeal deals again, in a copy of the game, every card the player cannot see: the other hands
(FOOL-DEAL-01, OURO-SETUP-03), the deck, and Fool's undealt cards set aside (FOOL-SETUP-05).
The player's view and every hidden place's size stay as they were; what FOOL-AMB-02's
lowest-values selection leaves out of play stays out; the world depends on what the player knows
and the seed only. With the hook the MCTS player finds a world at every decision, where the
generic replay fails (see ``test_paired.py``'s fallback test).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rulespec.games import fool as fool_module
from rulespec.games import ouro_de_tolo as ouro_module
from rulespec.impact.agents import AgentError, MctsAgent, Observation, determinise, redeal_of
from rulespec.impact.paired import pick_chance
from rulespec.reference.core import CHANCE, Action, Actor, Engine, make_config
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec
from rulespec.spec.visibility import hidden_fields, view


def _midgame(game: str, seed: int, decisions: int, players: int = 4,
             rulings: dict[str, str] | None = None,
             ) -> tuple[Engine, list[tuple[Actor, Action]], list[dict[str, Any]]]:
    """Play at random until ``decisions`` choices among several actions have been made."""
    spec = get_spec(game)
    engine = engine_class(spec)(spec, make_config(spec, players=players, rulings=rulings or {}))
    rng = random.Random(seed)
    history: list[tuple[Actor, Action]] = []
    states = [engine.state()]
    made = 0
    while True:
        actor = engine.current_player()
        assert actor is not None, "the game ended before the position was reached"
        if actor == CHANCE:
            action = pick_chance(engine.chance_outcomes(), rng.random())
        else:
            legal = engine.legal_actions()
            if len(legal) > 1:
                if made == decisions:
                    return engine, history, states
                made += 1
            action = legal[rng.randrange(len(legal))]
        engine.apply(action)
        history.append((actor, action))
        states.append(engine.state())


def _cards(engine: Engine) -> Counter[int]:
    """Every card of the game by type, wherever it is (hands, deck, set aside, played)."""
    total: Counter[int] = Counter()
    if isinstance(engine, fool_module.FoolEngine):
        for hand in engine.hands:
            total.update(hand)
        for pile in (engine.deck, engine.aside):
            total.update({t: k for t, k in enumerate(pile) if k})
        total.update(engine.played)
        total.update(t for _, t in engine.trick)
    else:
        assert isinstance(engine, ouro_module.OuroDeTolo)
        for pile in (*engine.hands, engine.deck, engine.discard):
            total.update({t: k for t, k in enumerate(pile) if k})
    return total


def _sizes(engine: Engine) -> list[int]:
    if isinstance(engine, fool_module.FoolEngine):
        return [len(h) for h in engine.hands] + [sum(engine.deck), sum(engine.aside)]
    assert isinstance(engine, ouro_module.OuroDeTolo)
    return [sum(h) for h in engine.hands] + [sum(engine.deck)]


POSITIONS = [("fool", 3, 1), ("fool", 3, 6), ("fool", 8, 20), ("ouro-de-tolo", 1, 2),
             ("ouro-de-tolo", 4, 8), ("ouro-de-tolo", 9, 15)]


@pytest.mark.parametrize(("game", "seed", "decisions"), POSITIONS)
def test_redeal_keeps_the_view_the_sizes_and_the_cards(game: str, seed: int,
                                                       decisions: int) -> None:
    """FOOL-DEAL-01 / OURO-SETUP-03: the player's own hand and everything open stay; each hand
    keeps its size; no card is made or lost; and the other hands do change (for some seed)."""
    spec = get_spec(game)
    engine, _, _ = _midgame(game, seed, decisions)
    me = engine.current_player()
    assert isinstance(me, int)
    hidden = hidden_fields(spec.data)
    hook = redeal_of(spec)
    assert hook is not None
    moved = 0
    for k in range(8):
        world = engine.clone()
        hook(world, me, random.Random(k))
        assert view(world.state(), hidden, me) == view(engine.state(), hidden, me)
        assert world.legal_actions() == engine.legal_actions()
        assert _sizes(world) == _sizes(engine)
        assert _cards(world) == _cards(engine)
        moved += world.state() != engine.state()
    assert moved > 0


@pytest.mark.parametrize(("game", "seed", "decisions"), POSITIONS)
def test_redeal_depends_on_what_the_player_knows_only(game: str, seed: int,
                                                      decisions: int) -> None:
    """Two games the player cannot tell apart give the same world for the same seed: the hook
    reads no hidden card (the unseen cards are sorted before they are shuffled)."""
    spec = get_spec(game)
    hook = redeal_of(spec)
    assert hook is not None
    engine, _, _ = _midgame(game, seed, decisions)
    me = engine.current_player()
    assert isinstance(me, int)
    other = engine.clone()
    hook(other, me, random.Random(1000))  # a second truth with the same view
    for k in range(3):
        a, b = engine.clone(), other.clone()
        hook(a, me, random.Random(k))
        hook(b, me, random.Random(k))
        assert a.state() == b.state()


def test_fool_cards_left_out_of_play_stay_out() -> None:
    """FOOL-AMB-02 lowest-values at 4 players: the high cards out of play are known to be set
    aside (FOOL-SETUP-05), so no redealt hand holds one; the undealt in-play cards may move."""
    spec = get_spec("fool")
    engine, _, _ = _midgame("fool", 2, 3, players=4, rulings={"FOOL-AMB-02": "lowest-values"})
    assert isinstance(engine, fool_module.FoolEngine)
    me = engine.current_player()
    assert isinstance(me, int)
    known = engine.known_aside()
    assert any(known), "lowest-values at 4 players leaves cards out of play"
    out = {t for t, k in enumerate(known) if k == engine.full_deck[t]}
    hook = redeal_of(spec)
    assert hook is not None
    for k in range(20):
        world = engine.clone()
        hook(world, me, random.Random(k))
        assert isinstance(world, fool_module.FoolEngine)
        assert all(world.aside[t] >= known[t] for t in range(len(known)))
        assert not out & {t for hand in world.hands for t in hand}


def test_mcts_finds_a_world_where_the_replay_does_not() -> None:
    """Late in a Fool round (the position where the generic replay falls back, see
    ``test_paired.py``) the hook gives a world at once and the MCTS player searches it."""
    spec = get_spec("fool")
    engine, history, states = _midgame("fool", 3, 12)
    me = engine.current_player()
    assert isinstance(me, int)
    obs = Observation(me, engine.legal_actions(), spec, engine.config, hidden_fields(spec.data),
                      engine, states, history)
    assert determinise(obs, random.Random(0), tries=2) is None  # the replay alone
    world = determinise(obs, random.Random(0), redeal=redeal_of(spec))
    assert world is not None and world.legal_actions() == engine.legal_actions()
    mcts = MctsAgent(spec, iterations=8, worlds=2, rollout_depth=10)
    assert not mcts.needs_history
    action = mcts.act(obs, random.Random(0))
    assert action in engine.legal_actions()
    assert (mcts.decisions, mcts.fallbacks) == (1, 0)


def test_a_redeal_that_changes_the_view_is_refused() -> None:
    """A hook that touches what the player sees (its own hand) is a bug, said as such."""
    spec = get_spec("ouro-de-tolo")
    engine, history, _ = _midgame("ouro-de-tolo", 4, 8)
    me = engine.current_player()
    assert isinstance(me, int)
    obs = Observation(me, engine.legal_actions(), spec, engine.config, hidden_fields(spec.data),
                      engine, None, history)

    def leaky(world: Engine, player: int, rng: random.Random) -> None:
        assert isinstance(world, ouro_module.OuroDeTolo)
        world.hands[player] = list(world.deck)
        world.invalidate()

    with pytest.raises(AgentError, match="redeal changed what player"):
        determinise(obs, random.Random(0), redeal=leaky)


def test_perfect_information_games_declare_no_hook() -> None:
    """Dado de Ouro and Ruby Rhino hide nothing: the world is the game itself."""
    for game in ("dado-de-ouro", "ruby-rhino"):
        spec = get_spec(game)
        assert not hidden_fields(spec.data) and redeal_of(spec) is None


def test_a_game_summary_counts_the_searches_and_fallbacks() -> None:
    """A whole Ouro de Tolo game of small searches: every searched decision found a world
    (OURO-SETUP-03's hidden hands redealt), and the summary carries the agent's counts."""
    from rulespec.impact.paired import derive_seed, play_game

    spec = get_spec("ouro-de-tolo")
    mcts = MctsAgent(spec, iterations=2, worlds=1, rollout_depth=2)
    summary = play_game(spec, {}, 4, mcts, derive_seed("search", 0))
    assert summary.searches == mcts.decisions > 0
    assert summary.fallbacks == mcts.fallbacks == 0


@pytest.mark.slow
def test_the_replay_alone_falls_back_in_a_whole_game() -> None:
    """The same game with the hook switched off: the generic replay finds no world for most
    decisions (slow: every failed replay is tried again), and the summary counts each one."""
    from rulespec.impact.paired import derive_seed, play_game

    spec = get_spec("ouro-de-tolo")
    mcts = MctsAgent(spec, iterations=2, worlds=1, rollout_depth=2)
    mcts.redeal, mcts.needs_history = None, True
    summary = play_game(spec, {}, 4, mcts, derive_seed("search", 0))
    assert summary.searches == mcts.decisions > 0
    assert summary.fallbacks == mcts.fallbacks > summary.searches // 2


def test_search_figures_sum_over_every_game() -> None:
    """The report's fallback rate: fallbacks over searched decisions, over the baseline and
    option games alike, with a Wilson interval; no rate without a search."""
    from rulespec.impact.measure import search_figures
    from rulespec.impact.paired import GameSummary

    def game(searches: int, fallbacks: int) -> GameSummary:
        return GameSummary(10, (0,), 1.0, (), False, searches, fallbacks)

    figures = search_figures([(game(10, 1), game(20, 0)), (game(10, 3), game(0, 0))])
    assert (figures["games"], figures["searches"], figures["fallbacks"]) == (4, 40, 4)
    rate = figures["fallback_rate"]
    assert rate["value"] == 0.1 and rate["low"] < 0.1 < rate["high"]
    assert search_figures([(game(0, 0),)])["fallback_rate"] is None


def test_mcts_games_repeat_exactly_for_the_same_seed() -> None:
    """Seeded worlds and searches: the same seed gives the same game, twice and in a fresh
    agent (what the executors' byte-identical reports rest on); another seed differs."""
    from rulespec.impact.paired import derive_seed, play_game

    spec = get_spec("ouro-de-tolo")

    def game(seed: int) -> Any:
        return play_game(spec, {}, 4, MctsAgent(spec, iterations=3, worlds=2, rollout_depth=3),
                         derive_seed("repeat", seed))

    first = game(0)
    assert first == game(0)
    assert first.searches > 0
    assert any(game(k) != first for k in (1, 2))
