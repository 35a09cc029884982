"""Ouro de Tolo: the reference interpreter.

Source: the English transcription of the Ceilikan rulebook ``000_64c31462e76f9463.txt`` (full
rules, quick guide and variants), encoded in ``specs/ouro-de-tolo.yaml``; clause ids
(``OURO-...``) and ambiguity ids (``OURO-AMB-..``) below refer to that spec.

A game is a sequence of workdays. Each day the players in the mine take turns (draw a stone,
leave, or play a card) until one is left, the Caxias, who buys a card or draws alone. Then the
day is settled and players above the desired amount may declare the end of the game.

Every random event is a chance node drawing ONE item: a stone from the bag (``stone``), a card
from the deck (``card``), a stone taken blind from a player (``stolen``), the first seat
(``first_player``). Stones and cards are counted by type, so bag, deck and hands are multisets.
A card aimed at a player who holds the matching response card opens a response window in which
that player is to move (respond or ``decline``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import compress
from operator import add, mul
from typing import Any, ClassVar

# -- constants (names, not rulebook numbers) ------------------------------------------------------
# Card types, by their ids in the spec's card table.
from rulespec.reference import (
    CHANCE,
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    IllegalAction,
    Rejection,
    StepMemo,
    config_tables,
    deal_unseen,
    inlines_apply,
    is_among,
    items_of,
    ranking,
    tally,
)
from rulespec.spec import Spec
from rulespec.spec.visibility import HiddenField, parse_path

DYNAMITE = "dynamite"
FAVOR = "favor"
LIGHT_HAND = "light_hand"
NOT_MINE = "not_mine"
NOT_MINE_EITHER = "not_mine_either"
VERY_LIGHT_HAND = "very_light_hand"
TIRED = "tired"

# Phases (the ``phase`` of the canonical state).
DEAL = "deal"
FIRST_PLAYER = "first_player"
BONUS = "bonus"
TURN = "turn"
DRAW = "draw"
RESPONSE = "response"
FAVOR_CHOICE = "favor_choice"
STEAL = "steal"
CAXIAS = "caxias"
BUY = "buy"
GOLD_FEVER = "gold_fever"
DECLARATION = "declaration"
OVER = "over"
#: How many count views a configuration remembers (``_build_state``) before starting afresh.
_VIEWS_MAX = 4096
def _count_view(views: dict[tuple[int, ...], dict[str, int]], names: Sequence[str],
                counts: Sequence[int]) -> dict[str, int]:
    """Return ``counts`` by name as states show them, remembered in ``views`` by content."""
    key = tuple(counts)
    view = views.get(key)
    if view is None:
        if len(views) >= _VIEWS_MAX:
            views.clear()
        view = views[key] = dict(zip(names, counts, strict=True))
    return view


#: The phases in which chance deals a card.
CARD_PHASES = frozenset({DEAL, BONUS, BUY, GOLD_FEVER})

# Player status.
IN_MINE = "in_mine"
LEFT = "left"
ACCIDENT = "accident"

# Pending effects (``pending.effect``).
E_DEAL = "deal"
E_DRAW = "draw"
E_DYNAMITE = "dynamite"
E_FAVOR = "favor"
E_LIGHT_HAND = "light_hand"
E_VERY_LIGHT_HAND = "very_light_hand"
E_NOT_MINE = "not_mine"
E_CAXIAS_DRAW = "caxias_draw"
E_BUY = "buy"
E_GOLD_FEVER = "gold_fever"
E_DECLARATION = "declaration"

AMB_VALUES = "OURO-AMB-01"
AMB_TRADE = "OURO-AMB-02"
AMB_CHOOSER = "OURO-AMB-03"
AMB_STEAL_FG = "OURO-AMB-04"
AMB_DECK = "OURO-AMB-05"
AMB_ACCIDENT_STONES = "OURO-AMB-06"
AMB_PRICE = "OURO-AMB-07"
AMB_DECLARE_AT = "OURO-AMB-08"
AMB_TIES = "OURO-AMB-09"
AMB_DECLARE_ORDER = "OURO-AMB-10"
AMB_NO_DECLARATION = "OURO-AMB-11"
AMB_FAVOR_SELF = "OURO-AMB-12"
AMB_REDIRECT_SENDER = "OURO-AMB-13"
AMB_CAXIAS_STOP = "OURO-AMB-14"
AMB_EMPTY_MINE = "OURO-AMB-15"
AMB_FEVER_WHO = "OURO-AMB-16"
AMB_STEAL_AFTER_ACCIDENT = "OURO-AMB-17"
AMB_WEEK = "OURO-AMB-18"
AMB_LIGHT_HAND_SHORT = "OURO-AMB-19"
AMB_FIRST = "OURO-AMB-20"
AMB_CHAIN = "OURO-AMB-21"
AMB_FAVOR_FG = "OURO-AMB-22"
AMB_DEAL_ORDER = "OURO-AMB-23"
AMB_DIRECTION = "OURO-AMB-24"
AMB_NOT_MINE_EMPTY = "OURO-AMB-25"
AMB_VLH_EMPTY = "OURO-AMB-26"
AMB_EMPTY_MINE_BONUS = "OURO-AMB-27"
AMB_SAFE_RECEIVED = "OURO-AMB-28"
AMB_LATER_STONES = "OURO-AMB-29"
AMB_SELF_TIRED = "OURO-AMB-30"
AMB_NME_NOBODY = "OURO-AMB-31"
AMB_THIRD_FG = "OURO-AMB-32"
AMB_FAVOR_CHECK = "OURO-AMB-33"
AMB_WEEK_DECLARE = "OURO-AMB-34"
AMB_FEVER_PRICE = "OURO-AMB-35"
AMB_FEVER_WHEN = "OURO-AMB-36"
AMB_FG_SIGHT = "OURO-AMB-37"
AMB_BONUS_ORDER = "OURO-AMB-38"
AMB_CARD_SIGHT = "OURO-AMB-39"

V_SHORTER = "shorter-game"
V_LONGER = "longer-game"
V_HARD_WEEK = "hard-week"
V_SAFE_MINE = "safe-mine"
V_GOLD_FEVER = "gold-fever"

#: What OURO-AMB-37 in-hand hides in a frozen release that does not declare it (2.2.0): each
#: player's Fool's Gold, seen by its owner only.
FOOLS_GOLD_IN_HAND = (HiddenField("$.players[*].stones.fools_gold",
                                  parse_path("$.players[*].stones.fools_gold"), "owner",
                                  ("OURO-DRAW-04",)),)

#: Which response card answers which own-turn card (OURO-RESP-02..04).
ANSWERS = {FAVOR: TIRED, LIGHT_HAND: VERY_LIGHT_HAND, NOT_MINE: NOT_MINE_EITHER}

#: The clause an own-turn card's target rule rests on.
TARGET_CLAUSE = {FAVOR: "OURO-CARD-06", LIGHT_HAND: "OURO-CARD-08", NOT_MINE: "OURO-CARD-09"}

PLAY_KINDS = {"play_dynamite": DYNAMITE, "play_favor": FAVOR, "play_light_hand": LIGHT_HAND,
              "play_not_mine": NOT_MINE}
RESPOND_KINDS = {"respond_tired": TIRED, "respond_very_light_hand": VERY_LIGHT_HAND,
                 "respond_not_mine_either": NOT_MINE_EITHER}
TURN_KINDS = frozenset({"draw", "leave", *PLAY_KINDS})
CAXIAS_KINDS = frozenset({"buy_card", "caxias_draw", "caxias_stop"})
CHANCE_KINDS = frozenset({"stone", "card", "stolen", "first_player"})
#: The actions that are just a kind, handed out as the same objects so ``apply`` finds them by
#: identity.
PLAIN_KINDS = ("draw", "leave", "play_dynamite", "respond_tired", "respond_very_light_hand",
               "decline", "favor_leave", "buy_card", "caxias_draw", "caxias_stop", "declare",
               "decline_declaration")

#: Human names for narration.
CARD_NAMES = {DYNAMITE: "Dynamite", FAVOR: "Do Me a Favor", LIGHT_HAND: "Light Hand",
              NOT_MINE: "Not Mine", NOT_MINE_EITHER: "Not Mine Either",
              VERY_LIGHT_HAND: "Very Light Hand", TIRED: "I'm Tired"}




@cache
def _share(count: int, total: int) -> Fraction:
    """Return count/total as an exact fraction (cached: the same few ratios recur)."""
    return Fraction(count, total)


# -- value types ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """Every number and ruling the engine reads, resolved once from the configuration."""

    colours: tuple[str, ...]
    fools_gold: int
    stone_counts: tuple[int, ...]
    values: tuple[int, ...]
    cards: tuple[str, ...]
    card_counts: tuple[int, ...]
    deal: int
    desired: int
    accident_at: int
    dynamite: int
    favor_draws: int
    favor_takes: int
    light_hand: int
    very_light_hand: int
    not_mine: int
    card_price: int
    fever_price: int
    hard_week_days: int | None
    max_days: int
    safe_mine: bool
    gold_fever: bool
    #: The ambiguity records of the configured spec (a release before 2.1.0 lacks some).
    records: frozenset[str]

    @classmethod
    def from_config(cls, spec: Spec, config: Config) -> Rules:
        """Read the parameters, rulings and variants; ConfigError on an unplayable set."""
        p = config.param
        counts: dict[str, int] = dict(p("stone_counts"))
        colours = tuple(counts)
        fg_flags: dict[str, bool] = dict(p("fools_gold"))
        values: dict[str, int] = dict(p("stone_values"))
        problems: list[str] = []
        fools = [c for c in colours if fg_flags.get(c)]
        if len(fools) != 1:
            problems.append(f"exactly one stone colour must be Fool's Gold, not {fools!r}")
        missing = [c for c in colours if c not in values]
        if missing:
            problems.append(f"stone_values has no value for {missing!r}")
        card_counts: dict[str, int] = dict(p("card_counts"))
        for card in (DYNAMITE, FAVOR, LIGHT_HAND, NOT_MINE, NOT_MINE_EITHER, VERY_LIGHT_HAND,
                     TIRED):
            if card not in card_counts:
                problems.append(f"card_counts has no {card!r}")
        variants = set(config.variants)
        base = spec.default_parameters(config.players)["desired_amount"]
        desired = int(p("desired_amount"))
        if V_SHORTER in variants and not desired < base:
            problems.append(f"the shorter-game variant needs a desired_amount below {base} "
                            f"(OURO-VAR-01), not {desired}; pass it as a parameter")
        if V_LONGER in variants and not desired > base:
            problems.append(f"the longer-game variant needs a desired_amount above {base} "
                            f"(OURO-VAR-01), not {desired}; pass it as a parameter")
        if V_SHORTER in variants and V_LONGER in variants:
            problems.append("choose the shorter-game or the longer-game variant, not both")
        deal = int(p("cards_per_player"))
        gold_fever = V_GOLD_FEVER in variants
        if gold_fever:
            divisor = int(p("gold_fever_divisor"))
            deal = -(-deal // divisor)
        if deal * config.players > sum(card_counts.values()):
            problems.append(f"cannot deal {deal} cards to {config.players} players from a deck "
                            f"of {sum(card_counts.values())}")
        if problems:
            raise ConfigError("bad ouro-de-tolo configuration: " + "; ".join(problems))
        return cls(
            colours=colours,
            fools_gold=colours.index(fools[0]),
            stone_counts=tuple(int(counts[c]) for c in colours),
            values=tuple(0 if fg_flags.get(c) else int(values[c]) for c in colours),
            cards=tuple(card_counts),
            card_counts=tuple(int(v) for v in card_counts.values()),
            deal=deal,
            desired=desired,
            accident_at=int(p("accident_fools_gold")),
            dynamite=int(p("dynamite_stones")),
            favor_draws=int(p("favor_stones")),
            favor_takes=int(p("favor_take")),
            light_hand=int(p("light_hand_stones")),
            very_light_hand=int(p("very_light_hand_stones")),
            not_mine=int(p("not_mine_stones")),
            card_price=int(p("card_price")),
            # A spec before the parameter (2.1.0) gives the card free, as OURO-AMB-35's default.
            fever_price=int(p("gold_fever_card_price"))
            if "gold_fever_card_price" in config.parameters else 0,
            hard_week_days=int(p("hard_week_days")) if V_HARD_WEEK in variants else None,
            max_days=int(p("max_days")),
            safe_mine=V_SAFE_MINE in variants,
            gold_fever=gold_fever,
            records=frozenset(spec.ambiguities),
        )


@dataclass(frozen=True)
class _Tables:
    """Indexes and action objects a configuration precomputes (shared by its games, read-only)."""

    card_index: dict[str, int]
    colour_index: dict[str, int]
    stone: list[Action]
    stolen: list[Action]
    steal: list[Action]
    take: list[Action]
    card: list[Action]
    first: list[Action]
    favor: list[Action]
    light: list[Action]
    notmine: list[Action]
    redirect: list[Action]
    #: Not Mine Either naming nobody (OURO-AMB-31 cancels).
    nme_cancel: Action
    plain: dict[str, Action]
    #: The card index of each card type.
    ci: dict[str, int]
    #: The stones' names, by colour (narration).
    stone_names: dict[str, str]

    @classmethod
    def build(cls, spec: Spec, rules: Rules, n: int) -> _Tables:
        """Build the tables of a configuration's rules for ``n`` players."""
        card_index = {c: i for i, c in enumerate(rules.cards)}
        return cls(
            card_index=card_index,
            colour_index={c: i for i, c in enumerate(rules.colours)},
            stone=[{"kind": "stone", "colour": c} for c in rules.colours],
            stolen=[{"kind": "stolen", "colour": c} for c in rules.colours],
            steal=[{"kind": "steal", "colour": c} for c in rules.colours],
            take=[{"kind": "favor_take", "colour": c} for c in rules.colours],
            card=[{"kind": "card", "card": c} for c in rules.cards],
            first=[{"kind": "first_player", "player": i} for i in range(n)],
            favor=[{"kind": "play_favor", "target": i} for i in range(n)],
            light=[{"kind": "play_light_hand", "target": i} for i in range(n)],
            notmine=[{"kind": "play_not_mine", "target": i} for i in range(n)],
            redirect=[{"kind": "respond_not_mine_either", "target": i} for i in range(n)],
            nme_cancel={"kind": "respond_not_mine_either"},
            plain={kind: {"kind": kind} for kind in PLAIN_KINDS},
            ci={k: card_index[k] for k in (DYNAMITE, FAVOR, LIGHT_HAND, NOT_MINE,
                                           NOT_MINE_EITHER, VERY_LIGHT_HAND, TIRED)},
            stone_names={str(row["colour"]): str(row["name"])
                         for row in spec.table("stones")["rows"]})


# -- the engine -----------------------------------------------------------------------------------


class OuroDeTolo(StepMemo):
    """The reference interpreter of Ouro de Tolo for 3 to 6 players."""

    RULINGS: ClassVar[dict[str, frozenset[str]]] = {
        AMB_TRADE: frozenset({"trade", "no-trade"}),
        AMB_CHOOSER: frozenset({"taker", "owner", "random"}),
        AMB_STEAL_FG: frozenset({"any-stone", "valuable-only"}),
        AMB_DECK: frozenset({"reshuffle-discard", "no-cards", "game-ends"}),
        AMB_ACCIDENT_STONES: frozenset({"end-of-day", "immediately"}),
        AMB_DECLARE_AT: frozenset({"exceed", "reach"}),
        AMB_TIES: frozenset({"shared", "declarer-wins-ties", "another-day"}),
        AMB_DECLARE_ORDER: frozenset({"next-day-order", "seat-order", "day-order"}),
        AMB_NO_DECLARATION: frozenset({"day-limit", "unbounded"}),
        AMB_FAVOR_SELF: frozenset({"others-only", "self-allowed"}),
        AMB_REDIRECT_SENDER: frozenset({"sender-allowed", "not-sender"}),
        AMB_CAXIAS_STOP: frozenset({"after-a-draw", "at-once"}),
        AMB_EMPTY_MINE: frozenset({"card-player-starts", "next-player-starts",
                                   "next-after-first-player"}),
        AMB_FEVER_WHO: frozenset({"by-choice", "everyone"}),
        AMB_STEAL_AFTER_ACCIDENT: frozenset({"stop", "complete"}),
        AMB_LIGHT_HAND_SHORT: frozenset({"take-what-there-is", "needs-enough", "needs-one"}),
        AMB_FIRST: frozenset({"seat-zero", "random"}),
        AMB_CHAIN: frozenset({"no-chain", "chain"}),
        AMB_FAVOR_FG: frozenset({"any-stone", "valuable-only"}),
        AMB_DEAL_ORDER: frozenset({"one-at-a-time", "hand-at-a-time"}),
        AMB_DIRECTION: frozenset({"clockwise", "counter-clockwise"}),
        AMB_NOT_MINE_EMPTY: frozenset({"needs-a-fools-gold", "without-effect"}),
        AMB_VLH_EMPTY: frozenset({"take-what-there-is", "needs-a-stone"}),
        AMB_EMPTY_MINE_BONUS: frozenset({"discard", "carry-over"}),
        AMB_SAFE_RECEIVED: frozenset({"any-second", "drawn-only"}),
        AMB_LATER_STONES: frozenset({"with-the-accident", "at-settlement"}),
        AMB_SELF_TIRED: frozenset({"no-answer", "may-answer"}),
        AMB_NME_NOBODY: frozenset({"no-answer", "cancels", "to-the-bag"}),
        AMB_THIRD_FG: frozenset({"back-to-bag", "kept"}),
        AMB_FAVOR_CHECK: frozenset({"after-the-choice", "at-the-draw"}),
        AMB_WEEK_DECLARE: frozenset({"no-declarations", "declarations-too"}),
        AMB_FEVER_WHEN: frozenset({"when-the-mine-empties", "on-leaving"}),
        AMB_FG_SIGHT: frozenset({"displayed", "in-hand"}),
        AMB_BONUS_ORDER: frozenset({"leaver-first", "caxias-first"}),
    }
    VARIANTS: ClassVar[frozenset[str]] = frozenset(
        {V_SHORTER, V_LONGER, V_HARD_WEEK, V_SAFE_MINE, V_GOLD_FEVER})
    END_CLAUSES: ClassVar[tuple[str, ...]] = ("OURO-END-01", "OURO-END-05")
    SHARED: ClassVar[frozenset[str]] = frozenset({
        "rules", "_card_index", "_colour_index", "_a_stone", "_a_stolen", "_a_steal", "_a_take",
        "_a_card", "_a_first", "_a_favor", "_a_light", "_a_notmine", "_a_redirect", "_a_plain",
        "_a_nme_cancel", "_ci",
        "_stone_names", "_views"})
    #: What only ``describe`` reads (what the last chance action was for): never play.
    #: ``rulespec verify`` leaves it out of an engine's memory.
    NARRATION: ClassVar[frozenset[str]] = frozenset({"_context"})

    # The game state lives in slots (``clone`` copies them like the rest): an instance dict of
    # fewer than 30 attributes keeps CPython 3.11's attribute and method lookups on their fast
    # paths.
    __slots__ = ("_context", "_result", "bag", "bonus", "bonus_taken_by", "by", "caxias",
                 "caxias_drew", "day", "deck", "declared_by", "discard", "drawn", "effect",
                 "first_player", "hands", "left", "money", "next_first", "owed", "phase", "queue",
                 "safe", "settled_days", "status", "stones", "target", "thief", "to_move",
                 "turn_player", "victim")

    def __init__(self, spec: Spec, config: Config) -> None:
        super().__init__(spec, config)
        rules = config_tables(spec, config, "ouro-de-tolo rules",
                              lambda: Rules.from_config(spec, config))
        self.rules = rules
        #: The stone and card counts as states show them, by content (see ``_build_state``).
        self._views: tuple[dict[tuple[int, ...], dict[str, int]],
                           dict[tuple[int, ...], dict[str, int]]] = config_tables(
            spec, config, "ouro-de-tolo views", lambda: ({}, {}))
        n = self.players
        ncol = len(rules.colours)
        ncard = len(rules.cards)
        # Indexes and precomputed action objects, built once per configuration:
        # legal_actions() returns these (do not mutate them).
        tables = config_tables(spec, config, "ouro-de-tolo tables",
                               lambda: _Tables.build(spec, rules, n))
        self._card_index = tables.card_index
        self._colour_index = tables.colour_index
        self._a_stone = tables.stone
        self._a_stolen = tables.stolen
        self._a_steal = tables.steal
        self._a_take = tables.take
        self._a_card = tables.card
        self._a_first = tables.first
        self._a_favor = tables.favor
        self._a_light = tables.light
        self._a_notmine = tables.notmine
        self._a_redirect = tables.redirect
        self._a_nme_cancel = tables.nme_cancel
        self._a_plain = tables.plain
        self._ci = tables.ci
        self._stone_names = tables.stone_names
        # The game state.
        self.bag = list(rules.stone_counts)
        self.drawn = [0] * ncol
        self.deck = list(rules.card_counts)
        self.discard = [0] * ncard
        self.stones = [[0] * ncol for _ in range(n)]
        self.hands = [[0] * ncard for _ in range(n)]
        self.money = [0] * n
        self.owed = [0] * n
        self.status = [IN_MINE] * n
        #: Who keeps their stones after an accident today (safe mine, OURO-AMB-28); internal.
        self.safe = [False] * n
        self.phase = DEAL
        self.to_move: Actor | None = CHANCE
        self.day = 0
        self.settled_days = 0
        self.first_player: int | None = None
        self.turn_player = 0
        self.caxias: int | None = None
        self.caxias_drew = False
        self.bonus: int | None = None
        self.bonus_taken_by: int | None = None
        self.declared_by: int | None = None
        self.next_first = 0
        # The effect being resolved.
        self.effect: str | None = E_DEAL
        self.by: int | None = None
        self.target: int | None = None
        self.left = 0
        seats = self._seats_from(0)  # round the table from seat 0 (OURO-AMB-24)
        if self.decide(AMB_DEAL_ORDER, "hand-at-a-time"):
            self.queue: list[int] = [seat for seat in seats for _ in range(rules.deal)]
        else:
            self.queue = [seat for _ in range(rules.deal) for seat in seats]
        self.thief = 0
        self.victim = 0
        self._result: dict[str, Any] | None = None
        # What the last applied chance action was for (phase, receiving seat), for describe().
        self._context: tuple[str, int | None] = (DEAL, None)
        if not self.queue:
            self._after_deal()
        else:
            self._need_card()

    # -- the Engine interface -----------------------------------------------------------------

    def current_player(self) -> Actor | None:
        """Return who moves now: a seat, CHANCE, or None once the game is over."""
        return self.to_move

    def _build_legal(self) -> list[Action]:
        """Return every legal action in canonical order.

        Chance: outcomes in table order (colours, cards, seats). A turn: draw, leave,
        play_dynamite, play_favor / play_light_hand / play_not_mine by ascending target. A
        response window: the response (by ascending target), then decline. The favor choice:
        favor_take by colour, then favor_leave. The Caxias: buy_card, caxias_draw, caxias_stop.
        A declaration: declare, decline_declaration.
        """
        phase = self.phase
        if self.to_move == CHANCE:
            return self._chance_actions()
        if phase == TURN:
            return self._turn_actions()
        if phase == RESPONSE:
            return self._response_actions()
        if phase == FAVOR_CHOICE:
            fg = self.rules.fools_gold
            out = [self._a_take[c] for c, k in enumerate(self.drawn)
                   if k and (c != fg or self.decide(AMB_FAVOR_FG, "any-stone"))]
            out.append(self._a_plain["favor_leave"])
            return out
        if phase == STEAL:
            eligible = self._eligible(self.victim)
            fg = self.rules.fools_gold
            # A taker picks by sight (OURO-AMB-03 taker): a Fool's Gold kept in the hand is out
            # of sight, so it is taken only once no stone in sight is left (OURO-AMB-37).
            if (self.to_move == self.thief and eligible[fg] and sum(eligible) > eligible[fg]
                    and self._knows(AMB_FG_SIGHT) and self.decide(AMB_FG_SIGHT, "in-hand")):
                eligible[fg] = 0
            return [self._a_steal[c] for c, k in enumerate(eligible) if k]
        if phase == CAXIAS:
            return self._caxias_actions()
        if phase == DECLARATION:
            return [self._a_plain["declare"], self._a_plain["decline_declaration"]]
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return the chance outcomes with exact probabilities."""
        if self.to_move != CHANCE:
            raise IllegalAction(None, "chance is not to move")
        phase = self.phase
        if phase == FIRST_PLAYER:
            share = Fraction(1, self.players)
            return [(a, share) for a in self._a_first]
        if phase in CARD_PHASES:
            pile = self._card_source()
            total = sum(pile)
            return [(self._a_card[k], _share(c, total)) for k, c in enumerate(pile) if c]
        if phase == STEAL:
            eligible = self._eligible(self.victim)
            total = sum(eligible)
            return [(self._a_stolen[c], _share(k, total)) for c, k in enumerate(eligible) if k]
        total = sum(self.bag)
        return [(self._a_stone[c], _share(k, total)) for c, k in enumerate(self.bag) if k]

    def chance_weights(self) -> tuple[Sequence[Action], Sequence[int]] | None:
        """Return the chance outcomes weighted by the stones or cards of each kind left."""
        if self.to_move != CHANCE:
            return None
        phase = self.phase
        if phase == DRAW:
            counts, row = self.bag, self._a_stone
        elif phase == FIRST_PLAYER:
            return self._a_first, [1] * self.players
        elif phase in CARD_PHASES:
            counts, row = self._card_source(), self._a_card
        elif phase == STEAL:
            counts, row = self._eligible(self.victim), self._a_stolen
        else:
            counts, row = self.bag, self._a_stone
        if 0 in counts:
            actions = list(compress(row, counts))
            weights = list(filter(None, counts))
        else:
            # Some of every kind is left (the common case): the outcomes are the precomputed
            # row itself (shared, never changed) and the weights a copy of the counts.
            actions, weights = row, counts[:]
        if self._legal_memo is None:
            self._legal_memo = actions  # the same actions _chance_actions lists
        return actions, weights

    def _chance_actions(self) -> list[Action]:
        """Return the chance outcomes without their probabilities (cheap, for legality)."""
        phase = self.phase
        if phase == FIRST_PLAYER:
            return list(self._a_first)
        if phase in CARD_PHASES:
            return list(compress(self._a_card, self._card_source()))
        if phase == STEAL:
            return list(compress(self._a_stolen, self._eligible(self.victim)))
        return list(compress(self._a_stone, self.bag))

    def rule_rejection(self, action: Action) -> Rejection:
        """Say why ``action`` is not legal now, citing the clause it breaks."""
        kind = action["kind"]
        phase = self.phase
        if self.to_move == CHANCE:
            if kind in CHANCE_KINDS:
                return Rejection(f"{action!r} is not a possible chance outcome now (the bag, deck "
                                 "or stones hold none of it)", ("OURO-DRAW-01",))
            return Rejection(f"chance is to move ({phase}); only a {self._chance_kind()!r} "
                             "outcome is legal", ("OURO-DRAW-01",))
        if kind in CHANCE_KINDS:
            return Rejection(f"{kind!r} is a chance outcome and chance is not to move",
                             ("OURO-DRAW-01",))
        if kind in RESPOND_KINDS:
            return self._reject_response(action)
        if phase == CAXIAS and (kind in TURN_KINDS):
            return Rejection(f"player {self.caxias} is the Caxias, alone in the mine: no card can "
                             "be played and the only choices are buying a card or drawing",
                             ("OURO-CAX-03", "OURO-CAX-06"))
        if kind in CAXIAS_KINDS:
            if phase != CAXIAS:
                return Rejection(f"{kind!r} is only for the Caxias, the last player in the mine",
                                 ("OURO-CAX-01", "OURO-CAX-03"))
            if kind == "buy_card":
                if self.caxias_drew:
                    return Rejection("the Caxias has drawn and can no longer buy a card",
                                     ("OURO-CAX-07",))
                return Rejection("no card can be bought: the deck is empty or the Caxias cannot "
                                 "pay", ("OURO-CAX-04",))
            if kind == "caxias_draw":
                return Rejection("the bag is empty: there is no stone left to draw",
                                 ("OURO-DRAW-01", "OURO-CAX-05"))
            return Rejection("the Caxias must buy a card or draw before ending the workday",
                             ("OURO-CAX-03", "OURO-CAX-05"))
        if kind in ("declare", "decline_declaration") and phase != DECLARATION:
            return Rejection("declarations are made only at the end of a workday, after the "
                             "trades, by a player above the desired amount",
                             ("OURO-END-01", "OURO-END-02"))
        if kind in ("favor_take", "favor_leave"):
            if phase != FAVOR_CHOICE:
                return Rejection("there are no Do Me a Favor stones to choose from",
                                 ("OURO-CARD-06",))
            return Rejection(f"no drawn stone {action.get('colour')!r} can be taken",
                             ("OURO-CARD-06",))
        if kind == "steal":
            if phase != STEAL:
                return Rejection("no stone is being stolen now", ("OURO-CARD-08",))
            return Rejection(f"player {self.victim} has no {action.get('colour')!r} stone that "
                             "can be taken", ("OURO-CARD-08", "OURO-RESP-03"))
        if kind == "decline":
            return Rejection("there is no response window open", ("OURO-RESP-01", "OURO-QG-10"))
        if kind in TURN_KINDS:
            if phase != TURN:
                return Rejection(f"{kind!r} is a turn action and no player is taking a turn now "
                                 f"({phase})", ("OURO-QG-10", "OURO-QG-07"))
            return self._reject_turn(action)
        return Rejection(f"{action!r} is not legal now ({phase})")

    @inlines_apply
    def apply(self, action: Any) -> None:
        """Apply ``action`` if it is exactly one of the legal actions; otherwise raise
        IllegalAction (the state unchanged).

        ``StepMemo``'s check and ``_apply``, inlined: the legal actions of this step are built
        once, and the action is found among them (by identity first: a driver picks one of
        those very objects).
        """
        legal = self._legal_memo
        if legal is None:
            legal = self._legal_memo = self._build_legal()
        if not is_among(action, legal):
            self.invalidate()
            raise self.illegal(action)
        self._state_memo = self._legal_memo = None  # invalidate(), on the hot path
        if self.to_move == CHANCE:
            if self.phase == DRAW:
                # _apply_chance's stone from the bag, with _receiver's seat for it.
                self._context = (DRAW, self.by if self.effect == E_DYNAMITE else self.target)
                c = self._colour_index[action["colour"]]
                self.bag[c] -= 1
                self._stone_drawn(c)
                return
            self._context = (self.phase, self._receiver())
            self._apply_chance(action)
            return
        self._handlers[action["kind"]](self, action)

    def clone(self) -> OuroDeTolo:
        """Return an independent copy, exact (what ``copy.deepcopy`` gives, but sharing).

        Copied: the piles, hands, purses and seat lists an action changes (every list of the
        state, the per-seat ones row by row) and the decision counts. Shared: the
        configuration's tables and the views by content (``SHARED``), the step's memos, the
        result (made once), numbers, strings and tuples. A subclass (which may add attributes
        of its own) is copied by the base's ``clone``.
        """
        if type(self) is not OuroDeTolo:
            return super().clone()
        other = object.__new__(OuroDeTolo)
        other.__dict__.update(self.__dict__)
        other._decisions = self._decisions.copy()
        # Slots: the numbers, strings, tuples and the result as they are...
        other._context = self._context
        other._result = self._result
        other.bonus = self.bonus
        other.bonus_taken_by = self.bonus_taken_by
        other.by = self.by
        other.caxias = self.caxias
        other.caxias_drew = self.caxias_drew
        other.day = self.day
        other.declared_by = self.declared_by
        other.effect = self.effect
        other.first_player = self.first_player
        other.left = self.left
        other.next_first = self.next_first
        other.phase = self.phase
        other.settled_days = self.settled_days
        other.target = self.target
        other.thief = self.thief
        other.to_move = self.to_move
        other.turn_player = self.turn_player
        other.victim = self.victim
        # ...and the lists copied.
        other.bag = self.bag[:]
        other.drawn = self.drawn[:]
        other.deck = self.deck[:]
        other.discard = self.discard[:]
        other.stones = [row[:] for row in self.stones]
        other.hands = [row[:] for row in self.hands]
        other.money = self.money[:]
        other.owed = self.owed[:]
        other.status = self.status[:]
        other.safe = self.safe[:]
        other.queue = self.queue[:]
        return other

    def _apply(self, action: Action) -> None:
        self._state_memo = self._legal_memo = None  # invalidate(), on the hot path
        if self.to_move == CHANCE:
            self._context = (self.phase, self._receiver())
            self._apply_chance(action)
            return
        self._handlers[action["kind"]](self, action)

    #: The handler of each player action kind (chance outcomes go through ``_apply_chance``),
    #: one table per class so that a subclass's ``_do_<kind>`` is the one called.
    _handlers: ClassVar[dict[str, Callable[[OuroDeTolo, Action], None]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = _handler_table(cls)

    def _build_state(self) -> dict[str, Any]:
        colours = self.rules.colours
        cards = self.rules.cards
        # Most stone and card counts are what they were a step earlier: states share their
        # views (nobody changes a state), remembered by content for the configuration.
        stone_views, card_views = self._views

        def st(counts: Sequence[int]) -> dict[str, int]:
            return _count_view(stone_views, colours, counts)

        def cd(counts: Sequence[int]) -> dict[str, int]:
            return _count_view(card_views, cards, counts)

        pending: dict[str, Any] | None = None
        if self.effect is not None:
            by, target = self.by, self.target
            if self.effect in (E_LIGHT_HAND, E_VERY_LIGHT_HAND) and self.phase == STEAL:
                by, target = self.thief, self.victim
            pending = {"effect": self.effect, "by": by, "target": target, "left": self.left}
            if self.queue:
                pending["queue"] = list(self.queue)
        return {
            "to_move": self.to_move,
            "phase": self.phase,
            "day": self.day,
            "settled_days": self.settled_days,
            "first_player": self.first_player,
            "caxias": self.caxias,
            "caxias_drew": self.caxias_drew,
            "bag": st(self.bag),
            "drawn": st(self.drawn),
            "deck": cd(self.deck),
            "discard": cd(self.discard),
            "bonus": None if self.bonus is None else cards[self.bonus],
            "bonus_taken_by": self.bonus_taken_by,
            "pending": pending,
            "declared_by": self.declared_by,
            "players": [
                {"seat": i, "status": self.status[i], "stones": st(self.stones[i]),
                 "hand": cd(self.hands[i]), "money": self.money[i]}
                for i in range(self.players)
            ],
            "result": self.result(),
        }

    def result(self) -> dict[str, Any] | None:
        """Return scores (money), ranking, winners, the reason and the declarer once over."""
        return None if self._result is None else dict(self._result)

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line of narration for ``action`` taken by ``actor``."""
        kind = action.get("kind")
        who = "chance" if actor == CHANCE else f"player {actor}"
        target = action.get("target")
        phase, receiver = self._context
        if kind in ("stone", "stolen"):
            stone = self._stone_names.get(str(action["colour"]), str(action["colour"]))
            how = "is taken blind" if kind == "stolen" else "comes out of the bag"
            return f"{who}: {stone} {how}" + (
                f" for player {receiver}" if receiver is not None else "")
        if kind == "card":
            card = CARD_NAMES.get(str(action["card"]), str(action["card"]))
            if phase == BONUS:
                return f"{who}: {card} is turned up as the insurance bonus"
            how = {DEAL: "is dealt", BUY: "buys", GOLD_FEVER: "buys (gold fever)"}.get(phase,
                                                                                  "gets")
            return f"{who}: player {receiver} {how} {card}"
        if kind == "first_player":
            return f"{who}: player {action['player']} starts"
        if kind in PLAY_KINDS:
            name = CARD_NAMES[PLAY_KINDS[kind]]
            return f"{who} plays {name}" + (f" on player {target}" if target is not None else "")
        if kind in RESPOND_KINDS:
            name = CARD_NAMES[RESPOND_KINDS[kind]]
            return f"{who} answers with {name}" + (
                f", sending the Fool's Gold to player {target}" if target is not None else "")
        text = {
            "draw": "draws a stone", "leave": "leaves the mine for the day",
            "decline": "lets the card take effect", "favor_leave": "leaves the stones to the "
            "target", "buy_card": "buys a card and ends the workday", "caxias_draw":
            "draws alone in the mine", "caxias_stop": "ends the workday", "declare":
            "declares more money than the desired amount", "decline_declaration":
            "does not declare",
        }.get(str(kind))
        if text is not None:
            return f"{who} {text}"
        if kind in ("favor_take", "steal"):
            stone = self._stone_names.get(str(action["colour"]), str(action["colour"]))
            return f"{who} picks {stone}"
        return f"{who}: {action}"

    # -- extra public API ---------------------------------------------------------------------

    def apply_as(self, player: int, action: Any) -> None:
        """Apply ``action`` on behalf of ``player``; reject it if that player is not to move."""
        if player != self.to_move:
            if isinstance(player, int) and 0 <= player < self.players and \
                    self.status[player] != IN_MINE and self.phase not in (DECLARATION, OVER):
                why = "has left the mine" if self.status[player] == LEFT else "had an accident"
                raise IllegalAction(action, f"player {player} {why} and takes no part in the "
                                    "rest of the workday", ("OURO-LEAVE-03", "OURO-QG-08"))
            raise IllegalAction(action, f"it is not player {player!r}'s move; "
                                f"{self.to_move!r} is to move", ("OURO-QG-10",))
        self.apply(action)

    # -- legality helpers ---------------------------------------------------------------------

    def _receiver(self) -> int | None:
        """Return the seat that the pending chance draw is for (narration only)."""
        if self.phase in (DEAL, GOLD_FEVER):
            return self.queue[0] if self.queue else None
        if self.phase == BUY:
            return self.caxias
        if self.phase == STEAL:
            return self.thief
        if self.effect in (E_DYNAMITE, E_FAVOR):
            return self.by if self.effect == E_DYNAMITE else self.target
        return self.target

    def _in_mine(self) -> list[int]:
        return [i for i, s in enumerate(self.status) if s == IN_MINE]

    def _eligible(self, player: int) -> list[int]:
        counts = self.stones[player][:]
        fg = self.rules.fools_gold
        if counts[fg] and not self.decide(AMB_STEAL_FG, "any-stone"):
            counts[fg] = 0
        return counts

    def _caxias_actions(self) -> list[Action]:
        """The Caxias's choices: buy_card, caxias_draw, caxias_stop.

        No stone can be drawn from an empty bag (OURO-DRAW-01). Then, under OURO-AMB-14
        after-a-draw, the Caxias who can buy a card must (the one option left of the two); one
        who cannot, or has drawn, can only end the workday.
        """
        plain = self._a_plain
        out = []
        can_buy = not self.caxias_drew and self._can_buy()
        if can_buy:
            out.append(plain["buy_card"])
        if any(self.bag):
            out.append(plain["caxias_draw"])
            if self.caxias_drew or self.decide(AMB_CAXIAS_STOP, "at-once"):
                out.append(plain["caxias_stop"])
        elif not can_buy or self.decide(AMB_CAXIAS_STOP, "at-once"):
            out.append(plain["caxias_stop"])
        return out

    def _cards_available(self) -> bool:
        return sum(self.deck) > 0 or (sum(self.discard) > 0
                                      and self.decide(AMB_DECK, "reshuffle-discard"))

    def _can_buy(self) -> bool:
        caxias = self.caxias
        if caxias is None or not self._cards_available():
            return False
        self.reached(AMB_PRICE)  # card_price, set by the ruling, decides it here
        return self.money[caxias] >= self.rules.card_price

    def _turn_actions(self) -> list[Action]:
        r = self.rules
        p = self.turn_player
        hand = self.hands[p]
        ci = self._ci
        plain = self._a_plain
        stones_left = any(self.bag)
        out: list[Action] = [plain["draw"], plain["leave"]] if stones_left else [plain["leave"]]
        if stones_left and hand[ci[DYNAMITE]]:
            out.append(plain["play_dynamite"])
        status = self.status
        if hand[ci[FAVOR]]:
            for t in range(self.players):
                if status[t] == IN_MINE and (t != p or self.decide(AMB_FAVOR_SELF,
                                                                   "self-allowed")):
                    out.append(self._a_favor[t])
        if hand[ci[LIGHT_HAND]]:
            for t in range(self.players):
                if t != p and status[t] == IN_MINE and self._may_rob(t):
                    out.append(self._a_light[t])
        if hand[ci[NOT_MINE]] and (self.stones[p][r.fools_gold] >= r.not_mine
                                   or (self._knows(AMB_NOT_MINE_EMPTY)
                                       and self.decide(AMB_NOT_MINE_EMPTY, "without-effect"))):
            for t in range(self.players):
                if t != p and status[t] == IN_MINE:
                    out.append(self._a_notmine[t])
        return out

    def hidden_by_rulings(self) -> tuple[HiddenField, ...]:
        """What the spec's ``state.hidden`` entries with a ``when`` hide under these rulings
        (OURO-AMB-37 in-hand: a player's Fool's Gold; OURO-AMB-39 hidden: a player's cards).

        A frozen release from before the spec declared OURO-AMB-37's entry (2.2.0) hid the Fool's
        Gold here: it still does, read without counting the decision point (a view, not play).
        """
        declared = super().hidden_by_rulings()
        entries = self.spec.data["state"].get("hidden") or []
        if (self._knows(AMB_FG_SIGHT) and self.ruled(AMB_FG_SIGHT) == "in-hand"
                and not any(AMB_FG_SIGHT in (e.get("when") or {}) for e in entries)):
            return declared + FOOLS_GOLD_IN_HAND
        return declared

    def _knows(self, ambiguity: str) -> bool:
        """Return whether the configured spec has the record ``ambiguity``.

        A frozen release from before a record (``rulespec diff`` replays old releases on this
        module) plays as it did, which is the record's default by the versioning policy.
        """
        return ambiguity in self.rules.records

    def _may_rob(self, target: int) -> bool:
        """Return whether Light Hand may target ``target`` for the stones it holds (OURO-AMB-19)."""
        have = sum(self._eligible(target))
        if have >= self.rules.light_hand:
            return True
        mode = self.ruling(AMB_LIGHT_HAND_SHORT)
        return mode == "take-what-there-is" or (mode == "needs-one" and have > 0)

    def _step(self) -> int:
        """Return +1 or -1: the way play passes round the seats (OURO-AMB-24)."""
        return -1 if (self._knows(AMB_DIRECTION)
                      and self.decide(AMB_DIRECTION, "counter-clockwise")) else 1

    def _seats_from(self, first: int) -> list[int]:
        """Return every seat in the order of play, ``first`` first (OURO-AMB-24)."""
        n, step = self.players, self._step()
        return [(first + step * k) % n for k in range(n)]

    def _redirect_targets(self) -> list[int]:
        responder = self.target
        return [t for t in range(self.players)
                if self.status[t] == IN_MINE and t != responder
                and (t != self.by or self.decide(AMB_REDIRECT_SENDER, "sender-allowed"))]

    def _response_actions(self) -> list[Action]:
        out: list[Action] = []
        if self.effect == E_FAVOR:
            out.append(self._a_plain["respond_tired"])
        elif self.effect == E_LIGHT_HAND:
            out.append(self._a_plain["respond_very_light_hand"])
        else:
            targets = self._redirect_targets()
            out.extend(self._a_redirect[t] for t in targets)
            if not targets:  # nobody to name: the answer cancels the pass (OURO-AMB-31)
                out.append(self._a_nme_cancel)
        out.append(self._a_plain["decline"])
        return out

    def _chance_kind(self) -> str:
        if self.phase == FIRST_PLAYER:
            return "first_player"
        if self.phase in CARD_PHASES:
            return "card"
        return "stolen" if self.phase == STEAL else "stone"

    def _reject_response(self, action: Action) -> Rejection:
        kind = action["kind"]
        card = RESPOND_KINDS[kind]
        clause = {TIRED: "OURO-RESP-02", VERY_LIGHT_HAND: "OURO-RESP-03",
                  NOT_MINE_EITHER: "OURO-RESP-04"}[card]
        wanted = {TIRED: E_FAVOR, VERY_LIGHT_HAND: E_LIGHT_HAND, NOT_MINE_EITHER: E_NOT_MINE}[card]
        if self.phase != RESPONSE or self.effect != wanted:
            return Rejection(f"{CARD_NAMES[card]} can only be played at the moment its holder is "
                             f"chosen as the target of {CARD_NAMES[wanted]}; nobody is targeted "
                             "by it now", ("OURO-RESP-01", "OURO-QG-10", clause))
        target = action.get("target")
        if target is None and card == NOT_MINE_EITHER:
            return Rejection("Not Mine Either names the player who receives the Fool's Gold "
                             "instead (a target); it names nobody only when nobody can be named "
                             "under OURO-AMB-31 cancels", (clause, "OURO-RESP-08"))
        return Rejection(f"player {target!r} cannot receive the Fool's Gold: they must be another "
                         "player still in the mine", (clause,))

    def _reject_turn(self, action: Action) -> Rejection:
        kind = action["kind"]
        p = self.turn_player
        if kind in PLAY_KINDS:
            card = PLAY_KINDS[kind]
            if not self.hands[p][self._ci[card]]:
                return Rejection(f"player {p} holds no {CARD_NAMES[card]} card", ("OURO-CARD-01",))
            if card == NOT_MINE and self.stones[p][self.rules.fools_gold] < self.rules.not_mine:
                return Rejection(f"player {p} holds no Fool's Gold to pass", ("OURO-CARD-09",))
            target = action.get("target")
            clause = TARGET_CLAUSE.get(card, "OURO-CARD-01")
            if not (isinstance(target, int) and not isinstance(target, bool)
                    and 0 <= target < self.players):
                return Rejection(f"target {target!r} is not a player of this game", (clause,))
            if self.status[target] != IN_MINE:
                return Rejection(f"player {target} is not in the mine; {CARD_NAMES[card]} targets "
                                 "a player who is still in the mine", (clause,))
            if target == p:
                return Rejection(f"{CARD_NAMES[card]} must target another player", (clause,))
            if card == LIGHT_HAND:
                return Rejection(f"player {target} holds too few stones that can be stolen "
                                 "(OURO-AMB-19)", (clause,))
        return Rejection(f"{action!r} is not legal on this turn", ("OURO-PLAY-05",))

    # -- applying -----------------------------------------------------------------------------

    def _apply_chance(self, action: Action) -> None:
        phase = self.phase
        if phase == DRAW:
            c = self._colour_index[action["colour"]]
            self.bag[c] -= 1
            self._stone_drawn(c)
            return
        if phase == FIRST_PLAYER:
            self.effect = None
            self._start_day(int(action["player"]))
            return
        if phase in CARD_PHASES:
            k = self._card_index[action["card"]]
            if not sum(self.deck):
                for j, c in enumerate(self.discard):
                    self.deck[j] += c
                    self.discard[j] = 0
            self.deck[k] -= 1
            self._card_drawn(k)
            return
        c = self._colour_index[action["colour"]]
        if phase == STEAL:
            self._steal_one(c)
            return
        self.bag[c] -= 1
        self._stone_drawn(c)

    def _do_draw(self, action: Action) -> None:
        self._begin(E_DRAW, self.turn_player, self.turn_player, 1)
        self._to_chance(DRAW)

    def _do_leave(self, action: Action) -> None:
        p = self.turn_player
        self.status[p] = LEFT
        # A first leave that leaves one player inside makes a Caxias too: whose rule comes first
        # (OURO-AMB-38)? Under caxias-first the bonus is discarded as the Caxias is made.
        if self.bonus is not None and not (
                self.status.count(IN_MINE) == 1 and self._knows(AMB_BONUS_ORDER)
                and self.decide(AMB_BONUS_ORDER, "caxias-first")):
            self.hands[p][self.bonus] += 1
            self.bonus = None
            self.bonus_taken_by = p
        if (self.rules.gold_fever and self._knows(AMB_FEVER_WHEN)
                and self.decide(AMB_FEVER_WHEN, "on-leaving")):
            self.queue = self._fever_buyers([p])  # the gold-fever card, bought at once
            self._next_fever()
            return
        self._end_turn()

    def _discard(self, player: int, card: str) -> None:
        k = self._ci[card]
        self.hands[player][k] -= 1
        self.discard[k] += 1

    def _do_play_dynamite(self, action: Action) -> None:
        p = self.turn_player
        self._discard(p, DYNAMITE)
        self._begin(E_DYNAMITE, p, p, self.rules.dynamite)
        self._to_chance(DRAW)

    def _do_play_favor(self, action: Action) -> None:
        p, t = self.turn_player, int(action["target"])
        self._discard(p, FAVOR)
        self._begin(E_FAVOR, p, t, self.rules.favor_draws)
        # One's own favour (OURO-AMB-12 self-allowed) is answered only under OURO-AMB-30.
        if self.hands[t][self._ci[TIRED]] and (t != p or (
                self._knows(AMB_SELF_TIRED) and self.decide(AMB_SELF_TIRED, "may-answer"))):
            self._respond_window(t)
        else:
            self._to_chance(DRAW)

    def _do_play_light_hand(self, action: Action) -> None:
        p, t = self.turn_player, int(action["target"])
        self._discard(p, LIGHT_HAND)
        self._begin(E_LIGHT_HAND, p, t, self.rules.light_hand)
        # Very Light Hand against a thief with nothing to take (OURO-AMB-26).
        if self.hands[t][self._ci[VERY_LIGHT_HAND]] and (
                sum(self._eligible(p)) > 0 or not (
                    self._knows(AMB_VLH_EMPTY) and self.decide(AMB_VLH_EMPTY, "needs-a-stone"))):
            self._respond_window(t)
        else:
            self._start_steal(E_LIGHT_HAND, p, t, self.rules.light_hand)

    def _do_play_not_mine(self, action: Action) -> None:
        p, t = self.turn_player, int(action["target"])
        self._discard(p, NOT_MINE)
        if self.stones[p][self.rules.fools_gold] < self.rules.not_mine:
            self._end_turn()  # nothing to pass: played without effect (OURO-AMB-25)
            return
        self._begin(E_NOT_MINE, p, t, self.rules.not_mine)
        self._not_mine_target(t)

    def _not_mine_target(self, t: int) -> None:
        """Aim the pending Not Mine at ``t``: open a window if ``t`` can answer, else resolve."""
        self.target = t
        # With nobody to name (OURO-RESP-08), a window opens only under OURO-AMB-31 cancels or
        # to-the-bag.
        if self.hands[t][self._ci[NOT_MINE_EITHER]] and (
                self._redirect_targets() or (
                    self._knows(AMB_NME_NOBODY)
                    and not self.decide(AMB_NME_NOBODY, "no-answer"))):
            self._respond_window(t)
        else:
            self._resolve_not_mine()

    def _resolve_not_mine(self) -> None:
        r = self.rules
        by, t = self.by, self.target
        assert by is not None and t is not None  # set by _begin
        for _ in range(r.not_mine):
            self.stones[by][r.fools_gold] -= 1
            self._receive(t, r.fools_gold, drawn=False)
        self._end_turn()

    def _do_respond_tired(self, action: Action) -> None:
        t = self.target
        assert t is not None
        self._discard(t, TIRED)
        self._end_turn()

    def _do_respond_very_light_hand(self, action: Action) -> None:
        t, by = self.target, self.by
        assert t is not None and by is not None
        self._discard(t, VERY_LIGHT_HAND)
        self._start_steal(E_VERY_LIGHT_HAND, t, by, self.rules.very_light_hand)

    def _do_respond_not_mine_either(self, action: Action) -> None:
        t = self.target
        assert t is not None
        self._discard(t, NOT_MINE_EITHER)
        if "target" not in action:  # nobody to name (OURO-AMB-31)
            if self.decide(AMB_NME_NOBODY, "to-the-bag"):
                by, fg = self.by, self.rules.fools_gold
                assert by is not None
                self.stones[by][fg] -= self.rules.not_mine
                self.bag[fg] += self.rules.not_mine  # nobody receives it: back to the bag
            self._end_turn()  # under cancels the sender keeps it
            return
        new = int(action["target"])
        if self.decide(AMB_CHAIN, "chain"):
            self._not_mine_target(new)
        else:
            self.target = new
            self._resolve_not_mine()

    def _do_decline(self, action: Action) -> None:
        by, t = self.by, self.target
        assert by is not None and t is not None
        if self.effect == E_FAVOR:
            self._to_chance(DRAW)
        elif self.effect == E_LIGHT_HAND:
            self._start_steal(E_LIGHT_HAND, by, t, self.rules.light_hand)
        else:
            self._resolve_not_mine()

    def _do_favor_take(self, action: Action) -> None:
        by = self.by
        assert by is not None
        c = self._colour_index[action["colour"]]
        self.drawn[c] -= 1
        self._receive(by, c, drawn=by == self.target)  # one's own favour: drawn by oneself
        self.left -= 1
        if self.left > 0 and sum(self.drawn) > 0 and self.status[by] == IN_MINE:
            return
        self._finish_favor()

    def _do_favor_leave(self, action: Action) -> None:
        self._finish_favor()

    def _finish_favor(self) -> None:
        t = self.target
        assert t is not None
        left = self.drawn[:]
        self.drawn[:] = [0] * len(left)
        self._receive_together(t, left)
        self._end_turn()

    def _do_steal(self, action: Action) -> None:
        self._steal_one(self._colour_index[action["colour"]])

    def _do_buy_card(self, action: Action) -> None:
        caxias = self.caxias
        assert caxias is not None
        self.reached(AMB_PRICE)
        self.owed[caxias] += self.rules.card_price
        self._begin(E_BUY, caxias, caxias, 1)
        self._need_card(BUY)

    def _do_caxias_draw(self, action: Action) -> None:
        caxias = self.caxias
        assert caxias is not None
        self.caxias_drew = True
        self._begin(E_CAXIAS_DRAW, caxias, caxias, 1)
        self._to_chance(DRAW)

    def _do_caxias_stop(self, action: Action) -> None:
        caxias = self.caxias
        assert caxias is not None
        self.status[caxias] = LEFT
        self._mine_empty(caxias)

    def _do_declare(self, action: Action) -> None:
        p = self.to_move
        assert isinstance(p, int)
        self.declared_by = p
        self._end_by_declaration()

    def _end_by_declaration(self) -> None:
        """A declaration was made: the count, or another workday on a tie (OURO-AMB-09)."""
        if len(ranking(self.money)[0]) > 1 and self.decide(AMB_TIES, "another-day"):
            self._after_declarations()
            return
        self._finish("declaration")

    def _do_decline_declaration(self, action: Action) -> None:
        self.queue.pop(0)
        if self.queue:
            self.to_move = self.queue[0]
            self.left = len(self.queue)
            return
        self.effect = None
        self._after_declarations()

    # -- effects ------------------------------------------------------------------------------

    def _begin(self, effect: str, by: int | None, target: int | None, left: int) -> None:
        self.effect = effect
        self.by = by
        self.target = target
        self.left = left

    def _to_chance(self, phase: str) -> None:
        self.phase = phase
        self.to_move = CHANCE

    def _respond_window(self, target: int) -> None:
        self.phase = RESPONSE
        self.to_move = target

    def _stone_drawn(self, c: int) -> None:
        """A stone of colour ``c`` came out of the bag for the pending effect."""
        effect = self.effect
        r = self.rules
        if effect in (E_DRAW, E_CAXIAS_DRAW):
            t = self.target
            assert t is not None
            self._receive(t, c, drawn=True)
            if effect == E_DRAW:
                self._end_turn()
            elif self.status[t] == ACCIDENT:
                self._mine_empty(t)
            else:
                self.effect = None
                self.phase = CAXIAS
                self.to_move = t
            return
        self.drawn[c] += 1
        self.left -= 1
        if self.left > 0 and sum(self.bag) > 0:
            return
        if effect == E_DYNAMITE:
            by = self.by
            assert by is not None
            fg = r.fools_gold
            self.bag[fg] += self.drawn[fg]
            self.drawn[fg] = 0
            for col, k in enumerate(self.drawn):
                self.stones[by][col] += k
                self.drawn[col] = 0
            self._end_turn()
            return
        # Do Me a Favor: is the drawer out before the card player chooses (OURO-AMB-33)?
        t = self.target
        assert t is not None
        fg = r.fools_gold
        if (self.status[t] == IN_MINE and self.drawn[fg]
                and self.stones[t][fg] + self.drawn[fg] >= r.accident_at
                and self._knows(AMB_FAVOR_CHECK)
                and self.decide(AMB_FAVOR_CHECK, "at-the-draw")):
            self._accident(t, drawn=True)
        # The card player chooses (unless that accident put them out: a favour asked of oneself).
        self.left = r.favor_takes
        by = self.by
        assert by is not None
        if self.left <= 0 or self.status[by] != IN_MINE:
            self._finish_favor()
            return
        self.phase = FAVOR_CHOICE
        self.to_move = self.by

    def _receive(self, player: int, c: int, *, drawn: bool = False) -> None:
        """Give ``player`` one stone of colour ``c``; a second Fool's Gold is an accident.

        ``drawn``: the player drew it from the bag (their draw, the Caxias's, a favour's drawer),
        rather than being passed it or taking it from a player (OURO-AMB-28).
        """
        r = self.rules
        if (self.status[player] == ACCIDENT and not self.safe[player]
                and self.decide(AMB_ACCIDENT_STONES, "immediately")
                and not (self._knows(AMB_LATER_STONES)
                         and self.decide(AMB_LATER_STONES, "at-settlement"))):
            self.bag[c] += 1  # it arrives after the accident and follows it (OURO-EOD-02)
            return
        if c != r.fools_gold:
            self.stones[player][c] += 1
            return
        held = self.stones[player]
        if held[c] >= r.accident_at:
            if not (self._knows(AMB_THIRD_FG) and self.decide(AMB_THIRD_FG, "kept")):
                self.bag[c] += 1  # one more than an accident's goes back (OURO-AMB-32)
                return
            held[c] += 1
            return
        held[c] += 1
        if held[c] >= r.accident_at and self.status[player] != ACCIDENT:
            self._accident(player, drawn)

    def _receive_together(self, player: int, counts: list[int]) -> None:
        """Give ``player`` the stones ``counts`` at once: a favour's stones left to its drawer
        ("leave both for the player who drew them", OURO-CARD-06), so an accident they cause
        takes them all, whatever order an engine counts them in."""
        if self.status[player] == ACCIDENT:  # already out: each one arrives after the accident
            for c, k in enumerate(counts):
                for _ in range(k):
                    self._receive(player, c, drawn=True)
            return
        r = self.rules
        fg = r.fools_gold
        held = self.stones[player]
        for c, k in enumerate(counts):
            if c != fg:
                held[c] += k
        for _ in range(counts[fg]):
            if held[fg] >= r.accident_at and not (
                    self._knows(AMB_THIRD_FG) and self.decide(AMB_THIRD_FG, "kept")):
                self.bag[fg] += 1
                continue
            held[fg] += 1
        if held[fg] >= r.accident_at:
            self._accident(player, drawn=True)

    def _accident(self, player: int, drawn: bool) -> None:
        """``player`` holds a second Fool's Gold: out of the mine, and the stones lost."""
        r = self.rules
        self.status[player] = ACCIDENT
        safe = r.safe_mine and (drawn or not (
            self._knows(AMB_SAFE_RECEIVED) and self.decide(AMB_SAFE_RECEIVED, "drawn-only")))
        self.safe[player] = safe
        if not safe and self.decide(AMB_ACCIDENT_STONES, "immediately"):
            held = self.stones[player]
            for col, k in enumerate(held):
                self.bag[col] += k
                held[col] = 0

    def _start_steal(self, effect: str, thief: int, victim: int, count: int) -> None:
        self.effect = effect
        self.thief = thief
        self.victim = victim
        self.left = min(count, sum(self._eligible(victim)))
        self._next_steal()

    def _next_steal(self) -> None:
        if self.left <= 0 or not sum(self._eligible(self.victim)) or (
                self.status[self.thief] == ACCIDENT
                and self.decide(AMB_STEAL_AFTER_ACCIDENT, "stop")):
            self._end_turn()
            return
        chooser = self.ruling(AMB_CHOOSER)
        self.phase = STEAL
        if chooser == "random":
            self.to_move = CHANCE
        else:
            self.to_move = self.thief if chooser == "taker" else self.victim

    def _steal_one(self, c: int) -> None:
        self.stones[self.victim][c] -= 1
        self._receive(self.thief, c, drawn=False)
        self.left -= 1
        self._next_steal()

    def _end_turn(self) -> None:
        """The turn player's action is fully resolved: next turn, the Caxias, or an empty mine."""
        self.effect = None
        self.by = self.target = None
        self.left = 0
        status = self.status
        in_mine = status.count(IN_MINE)
        if not in_mine:
            self._mine_empty(None)
            return
        if in_mine == 1:
            caxias = status.index(IN_MINE)
            self.caxias = caxias
            self.caxias_drew = False
            if self.bonus is not None:
                self.discard[self.bonus] += 1
                self.bonus = None
            self.phase = CAXIAS
            self.to_move = caxias
            return
        n, step = self.players, self._step()
        p = (self.turn_player + step) % n  # the next seat still in the mine (OURO-AMB-24)
        while status[p] != IN_MINE:
            p = (p + step) % n
        self.turn_player = p
        self.phase = TURN
        self.to_move = self.turn_player

    def _mine_empty(self, caxias: int | None) -> None:
        """Nobody is left in the mine: gold-fever purchases, then the settlement."""
        first = self.first_player if self.first_player is not None else 0
        if caxias is not None:
            self.next_first = caxias
        else:  # nobody is left as the Caxias (OURO-AMB-15)
            card_player = self.turn_player
            mode = self.ruling(AMB_EMPTY_MINE)
            if mode == "card-player-starts":
                self.next_first = card_player
            elif mode == "next-player-starts":
                self.next_first = (card_player + self._step()) % self.players
            else:  # next-after-first-player
                self.next_first = (first + self._step()) % self.players
        self.effect = None
        self.by = self.target = None
        if self.rules.gold_fever:
            everyone = self.decide(AMB_FEVER_WHO, "everyone")
            buyers = [p for p in self._seats_from(first) if everyone or self.status[p] == LEFT]
            if self._knows(AMB_FEVER_WHEN) and self.decide(AMB_FEVER_WHEN, "on-leaving"):
                # who left has bought already
                buyers = [p for p in buyers if p == caxias or self.status[p] != LEFT]
            self.queue = self._fever_buyers(buyers)
            self._next_fever()
            return
        self._settle()

    def _fever_buyers(self, seats: list[int]) -> list[int]:
        """Return the seats that can pay for a gold-fever card (OURO-AMB-35), in order."""
        if not seats:
            return []
        if self._knows(AMB_FEVER_PRICE):
            self.reached(AMB_FEVER_PRICE)  # gold_fever_card_price, set by the ruling, decides
        price, money, owed = self.rules.fever_price, self.money, self.owed
        return [p for p in seats if money[p] - owed[p] >= price]

    def _next_fever(self) -> None:
        if self.queue and self._cards_available():
            self.effect = E_GOLD_FEVER
            self.target = self.queue[0]
            self.left = len(self.queue)
            self._need_card(GOLD_FEVER)
            return
        self.queue = []
        self.effect = None
        self.target = None
        if IN_MINE in self.status:  # a card bought on leaving (OURO-AMB-36): play goes on
            self._end_turn()
        else:
            self._settle()

    def _need_card(self, phase: str = DEAL) -> None:
        """Move to a card chance node (callers check a card is available)."""
        self._to_chance(phase)

    def _card_source(self) -> list[int]:
        """Return the pile the next card comes from: the deck, or the discard pile that is
        shuffled into an empty deck at the moment of the draw (OURO-AMB-05)."""
        return self.deck if sum(self.deck) else self.discard

    def _card_drawn(self, k: int) -> None:
        phase = self.phase
        if phase == DEAL:
            p = self.queue.pop(0)
            self.hands[p][k] += 1
            if self.queue:
                self._need_card(DEAL)
            else:
                self._after_deal()
        elif phase == BONUS:
            self.bonus = k
            self.effect = None
            self.phase = TURN
            self.to_move = self.turn_player
        elif phase == BUY:
            caxias = self.caxias
            assert caxias is not None
            self.hands[caxias][k] += 1
            self.status[caxias] = LEFT
            self._mine_empty(caxias)
        else:  # GOLD_FEVER
            p = self.queue.pop(0)
            self.hands[p][k] += 1
            self.owed[p] += self.rules.fever_price
            self._next_fever()

    def _after_deal(self) -> None:
        self.queue = []
        # Who sees the hands just dealt (OURO-AMB-39) is a question of observation, not of
        # play: hidden_by_rulings serves the reading; here the question has come up.
        self.reached(AMB_CARD_SIGHT)
        if self.decide(AMB_FIRST, "random"):
            self.effect = None
            self.phase = FIRST_PLAYER
            self.to_move = CHANCE
        else:
            self.effect = None
            self._start_day(0)

    def _start_day(self, first: int) -> None:
        # A bonus left over from a mine emptied without a Caxias stays (OURO-AMB-27 carry-over).
        turn_bonus = self.bonus is None
        if turn_bonus and not self._cards_available():
            if self.decide(AMB_DECK, "game-ends"):  # no card to turn: the deck has run out
                self._finish("deck_empty")
                return
            turn_bonus = False
        self.day += 1
        self.first_player = first
        self.turn_player = first
        self.caxias = None
        self.caxias_drew = False
        self.bonus_taken_by = None
        self.effect = None
        self.by = self.target = None
        self.queue = []
        self.status = [IN_MINE] * self.players
        self.safe = [False] * self.players
        if turn_bonus:
            self._need_card(BONUS)
        else:
            self.phase = TURN
            self.to_move = first

    def _settle(self) -> None:
        """End of the workday: trades, stones back to the bag, then declarations (OURO-EOD)."""
        r = self.rules
        # Still on the table only when the mine emptied with no Caxias to discard it.
        if self.bonus is not None and not (
                self._knows(AMB_EMPTY_MINE_BONUS)
                and self.decide(AMB_EMPTY_MINE_BONUS, "carry-over")):
            self.discard[self.bonus] += 1
            self.bonus = None
        bag, money, owed, status, safe = self.bag, self.money, self.owed, self.status, self.safe
        zeros = [0] * len(bag)
        for p, held in enumerate(self.stones):
            if (status[p] != ACCIDENT or safe[p]) and self.decide(AMB_TRADE, "trade"):
                self.reached(AMB_VALUES)  # the stones are paid at the ruled stone_values
                money[p] += sum(map(mul, held, r.values))
            money[p] -= owed[p]
            owed[p] = 0
            bag[:] = map(add, bag, held)
            held[:] = zeros
        self.settled_days += 1
        if r.hard_week_days is not None:
            self.reached(AMB_WEEK)  # hard_week_days, set by the ruling, decides it here
            if self.settled_days >= r.hard_week_days:
                self._finish("hard_week")
                return
            if not (self._knows(AMB_WEEK_DECLARE)
                    and self.decide(AMB_WEEK_DECLARE, "declarations-too")):
                self._start_day(self.next_first)
                return
        if self.declared_by is not None:  # a tied declaration played off (OURO-AMB-09)
            self._end_by_declaration()
            return
        eligible = [p for p in range(self.players) if self.money[p] > r.desired
                    or (self.money[p] == r.desired and self.decide(AMB_DECLARE_AT, "reach"))]
        if len(eligible) > 1:
            mode = self.ruling(AMB_DECLARE_ORDER)
            if mode != "seat-order":  # seat order: from seat 0, as listed
                start = self.next_first if mode == "next-day-order" else self.first_player
                place = {p: i for i, p in enumerate(self._seats_from(start or 0))}
                eligible.sort(key=place.__getitem__)
        if eligible:
            self.queue = eligible
            self.effect = E_DECLARATION
            self.left = len(eligible)
            self.phase = DECLARATION
            self.to_move = eligible[0]
            return
        self._after_declarations()

    def _after_declarations(self) -> None:
        self.queue = []
        self.effect = None
        self.left = 0
        if (self.settled_days >= self.rules.max_days
                and self.decide(AMB_NO_DECLARATION, "day-limit")):
            self._finish("day_limit")
        else:
            self._start_day(self.next_first)

    def _finish(self, reason: str) -> None:
        self.phase = OVER
        self.to_move = None
        self.effect = None
        self.queue = []
        self.left = 0
        money = self.money
        places = ranking(money)
        winners = places[0]
        if (len(winners) > 1 and self.declared_by in winners
                and self.decide(AMB_TIES, "declarer-wins-ties")):
            winners = [self.declared_by]
        self._result = {"scores": list(money), "ranking": places, "winners": list(winners),
                        "reason": reason, "declared_by": self.declared_by}


def _handler_table(cls: type[OuroDeTolo]) -> dict[str, Callable[[OuroDeTolo, Action], None]]:
    """Return the ``_do_<kind>`` method of each player action kind, as ``cls`` has them."""
    return {name.removeprefix("_do_"): getattr(cls, name) for name in dir(cls)
            if name.startswith("_do_")}


OuroDeTolo._handlers = _handler_table(OuroDeTolo)

ENGINE = OuroDeTolo


# -- the greedy player's heuristic (rulespec.impact) -----------------------------------------------


def heuristic(config: Config, view: Any, player: int) -> float:
    """Return how good ``view`` (``player``'s view of the state) is for ``player``.

    For the impact lab's greedy and MCTS players; it reads the configuration's stone values and
    the view only. A player's worth is the money it can see it holds plus the value of its
    stones today, discounted by the share of an accident it already carries (Fool's Gold held
    against ``accident_fools_gold``); stones are worth nothing after an accident. The others'
    money is hidden, so they count by their stones only, and the score is the player's worth
    minus the mean of the others'.
    """
    values = config.param("stone_values")
    fools = config.param("fools_gold")
    accident_at = max(1, int(config.param("accident_fools_gold")))

    def worth(seat: dict[str, Any]) -> float:
        stones = seat["stones"]
        if not isinstance(stones, dict) or seat["status"] == ACCIDENT:
            return 0.0
        # A count the view hides (``"<hidden>"``: the others' Fool's Gold under OURO-AMB-37
        # in-hand) is unknown to this player, so it adds nothing.
        seen = {c: k for c, k in stones.items() if isinstance(k, int)}
        total: float = sum(k * int(values.get(c, 0)) for c, k in seen.items() if not fools.get(c))
        if seat["status"] == IN_MINE:
            held = sum(k for c, k in seen.items() if fools.get(c))
            total *= 1 - held / accident_at
        return float(total)

    seats = view["players"]
    me = seats[player]
    money = me["money"] if isinstance(me["money"], int) else 0
    others = [worth(s) for i, s in enumerate(seats) if i != player]
    return money + worth(me) - (sum(others) / len(others) if others else 0.0)


# -- the MCTS player's determinisation (rulespec.impact) -------------------------------------------


def redeal(engine: Engine, player: int, rng: random.Random) -> None:
    """Deal again, in place, every card ``player`` cannot see, keeping every place's size.

    For the impact lab's MCTS player (``rulespec.impact.agents.determinise``): the engine is a
    copy of the game, and what it hides from ``player`` becomes one world ``player`` cannot tell
    from the real one. The unseen cards are the other players' hands and the deck (the discard
    pile is open, OURO-SETUP-03); they are sorted (so the world depends on what ``player`` knows
    and on ``rng`` only), shuffled, and dealt back: each other hand gets as many cards as it
    holds, the deck the rest. Money is hidden too, but everyone can count it from the open
    stones and purchases, so it stays. What the play so far says about a hand (a bonus card
    taken, a response not made) is not used.
    """
    if not isinstance(engine, OuroDeTolo):
        raise TypeError(f"redeal needs an OuroDeTolo engine, not {type(engine).__name__}")
    kinds = len(engine.deck)
    others = [p for p in range(engine.players) if p != player]
    unseen = [k for p in others for k in items_of(engine.hands[p])] + items_of(engine.deck)
    *hands, rest = deal_unseen(unseen, [sum(engine.hands[p]) for p in others], rng)
    for p, hand in zip(others, hands, strict=True):
        engine.hands[p] = tally(hand, kinds)
    deck = tally(rest, kinds)
    engine.deck = deck
    engine.invalidate()
