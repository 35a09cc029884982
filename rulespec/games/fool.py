"""Fool! (Tonto), Friedemann Friese, 2F-Spiele 2018: the reference interpreter.

Source: ``specs/fool.yaml``, which encodes the Galician machine translation
``001_10a0c40ad6cab35f.txt`` clause by clause. Every number of the rules (card values, hand
sizes, Fools per trick, scores, end conditions) is a parameter of the spec; every open question
is an ambiguity record (FOOL-AMB-01 .. FOOL-AMB-20) whose options this module implements.

A round: chance deals the cards in play one at a time; tricks follow until a trick completes
with a hand empty; then the round is scored. Each trick, the worst card(s) make the Fool(s),
who hold a disc and sit out the next trick.
"""

from __future__ import annotations

import random
from bisect import bisect, insort
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import pairwise
from typing import Any, ClassVar

#: The suit name of the wild cards in states and actions (the coloured suits come from the spec).
from rulespec.reference import (
    CHANCE,
    Action,
    Actor,
    Config,
    Engine,
    Rejection,
    StepMemo,
    deal_unseen,
    is_among,
    items_of,
    lead_over_others,
    ranking,
    shared_tables,
    tally,
)
from rulespec.spec import Spec

WILD = "wild"

#: Phases, in the order a game passes through them.
CHOOSE_DEALER = "choose_dealer"
DEAL = "deal"
PLAY = "play"
OVER = "over"

#: Ambiguity ids this module switches on.
AMB_SUIT_VALUES = "FOOL-AMB-01"
AMB_SELECTION = "FOOL-AMB-02"
AMB_TWO_FOOLS = "FOOL-AMB-03"
AMB_WILD_VS_OFF = "FOOL-AMB-04"
AMB_OFF_TIES = "FOOL-AMB-05"
AMB_WILD_TIES = "FOOL-AMB-06"
AMB_LED_WILD = "FOOL-AMB-07"
AMB_NEXT_ROUND = "FOOL-AMB-08"
AMB_WIN_TIES = "FOOL-AMB-09"
AMB_DISCS = "FOOL-AMB-10"
AMB_UNCOLOURED = "FOOL-AMB-11"
AMB_FIRST_DEALER = "FOOL-AMB-12"
AMB_WINNER_FOOL = "FOOL-AMB-14"
AMB_DEAL_ORDER = "FOOL-AMB-15"
AMB_SECOND_FOOL = "FOOL-AMB-16"
AMB_DIRECTION = "FOOL-AMB-17"
AMB_ROUND_END = "FOOL-AMB-18"
AMB_ONES_FOLLOW = "FOOL-AMB-19"
AMB_LOW_SCORE = "FOOL-AMB-20"
AMB_HAND_SIGHT = "FOOL-AMB-21"

#: The fields of a deal action.
_DEAL_KEYS = frozenset({"kind", "player", "suit", "value"})

#: Marks a zone cache key made of card counts rather than card types (types are >= 0).
_COUNTS = -1

#: Badness levels of a card in a trick (lower is worse): see _badness.
_BELOW_ALL = 0
_OFF_COLOUR = 1
_LED_COLOUR = 2


#: How many cards of each type a pile holds (the deck, the cards set aside), by type.
Counts = bytearray | list[int]


def _fits_bytes(values: Sequence[int]) -> bool:
    """Return True when every value fits in a byte (``bytes`` accepts them)."""
    try:
        bytes(values)
    except ValueError:
        return False
    return True


def _counts(values: Sequence[int], small: bool) -> Counts:
    """Return per-type card counts as a bytearray, whose key for the state's views
    (``bytes``) is a copy rather than a conversion, when ``small``: every count of the whole
    deck fits in a byte, so every count a pile can reach does. Else (a custom deck far larger
    than Fool's) as a list."""
    return bytearray(values) if small else list(values)


@cache
def _fraction(numerator: int, denominator: int) -> Fraction:
    return Fraction(numerator, denominator)


def _card_text(action: Mapping[str, Any]) -> str:
    suit, value = action.get("suit"), action.get("value")
    return f"wild {value}" if suit == WILD else f"{suit} {value}"


@dataclass(frozen=True)
class _ZonePlan:
    """What the state's views need of one set of card types, built once: per colour its types
    and their values in ascending order, the wild types, and each type as a state shows it."""

    colour_types: tuple[tuple[str, tuple[tuple[int, int], ...]], ...]
    wild_types: tuple[int, ...]
    card_json: tuple[dict[str, Any], ...]
    #: Each colour's values ascend with its types: a zone (its values in type order) is then
    #: sorted by value, and a card can be put in or taken out by value (``_moved_zone``).
    monotone: bool = False

    @staticmethod
    def build(colours: Sequence[str], colour_range: Sequence[tuple[int, int]],
              suit_of: Sequence[str | None], value_of: Sequence[int],
              types: Sequence[CardType]) -> _ZonePlan:
        colour_types = tuple(
            (colour, tuple((t, value_of[t]) for t in range(lo, hi) if suit_of[t] == colour))
            for colour, (lo, hi) in zip(colours, colour_range, strict=True))
        in_colours = sum(len(pairs) for _, pairs in colour_types)
        monotone = in_colours + suit_of.count(None) == len(suit_of) and all(
            a[1] <= b[1] for _, pairs in colour_types for a, b in pairwise(pairs))
        return _ZonePlan(
            colour_types=colour_types,
            wild_types=tuple(t for t, suit in enumerate(suit_of) if suit is None),
            card_json=tuple(t.json() for t in types), monotone=monotone)


#: The zone plan of each card set, by the identity of its ``suit_of`` table (kept alive here).
_PLANS: dict[int, tuple[Sequence[str | None], _ZonePlan]] = {}


@dataclass(frozen=True)
class CardType:
    """One kind of card: a coloured value, or the wild 1 (of which there are several)."""

    index: int
    suit: str
    value: int
    colour: int | None  # index of the coloured suit; None for a wild card

    @property
    def wild(self) -> bool:
        """Return True for a wild 1."""
        return self.colour is None

    def json(self) -> dict[str, Any]:
        """Return the card as it appears in states."""
        return {"suit": self.suit, "value": self.value}

    def __str__(self) -> str:
        return f"wild {self.value}" if self.wild else f"{self.suit} {self.value}"


@dataclass(frozen=True)
class TrickRecord:
    """A completed trick, kept for the state and its invariants."""

    round: int
    number: int
    cards: tuple[tuple[int, int], ...]  # (player, card type) in play order
    lead_colour: str | None
    winner: int
    fools: tuple[int, ...]


@dataclass(frozen=True)
class RoundRecord:
    """A scored round: per player the hand left, whether emptied, disc held, points."""

    round: int
    hands: tuple[tuple[int, ...], ...]
    fools: tuple[int, ...]
    points: tuple[int, ...]


@dataclass(frozen=True)
class _Tables:
    """What a configuration's cards make, built once and shared by its games (never changed)."""

    colours: tuple[str, ...]
    types: tuple[CardType, ...]
    wild_type: CardType
    by_card: dict[tuple[Any, Any], int]
    colour_range: list[tuple[int, int]]
    full_deck: list[int]
    deal_actions: list[list[Action]]
    lead_actions: list[list[Action]]
    declare_actions: list[list[Action]]
    follow_actions: list[list[Action]]
    dealer_actions: list[Action]
    suit_of: tuple[str | None, ...]
    value_of: tuple[int, ...]

    @classmethod
    def build(cls, config: Config) -> _Tables:
        """Build the card types and action objects of ``config``."""
        n = config.players
        suit_values: Mapping[str, Sequence[int]] = config.param("suit_values")
        colours = tuple(suit_values)
        types: list[CardType] = []
        for ci, suit in enumerate(colours):
            for value in sorted(suit_values[suit]):
                types.append(CardType(len(types), suit, value, ci))
        wild_type = CardType(len(types), WILD, int(config.param("wild_value")), None)
        types.append(wild_type)
        colour_range = [
            (min(t.index for t in types if t.colour == ci),
             max(t.index for t in types if t.colour == ci) + 1)
            for ci in range(len(colours))
        ]
        full_deck = [0 if t.wild else 1 for t in types]
        full_deck[wild_type.index] = int(config.param("wild_count"))
        return cls(
            colours=colours, types=tuple(types), wild_type=wild_type,
            by_card={(t.suit, t.value): t.index for t in types},
            colour_range=colour_range, full_deck=full_deck,
            deal_actions=[[{"kind": "deal", "player": p, "suit": t.suit, "value": t.value}
                           for t in types] for p in range(n)],
            lead_actions=[[{"kind": "lead", "player": p, "suit": t.suit, "value": t.value}
                           for t in types] for p in range(n)],
            declare_actions=[[{"kind": "lead", "player": p, "suit": WILD,
                               "value": wild_type.value, "declare": c}
                              for c in colours] for p in range(n)],
            follow_actions=[[{"kind": "follow", "player": p, "suit": t.suit, "value": t.value}
                             for t in types] for p in range(n)],
            dealer_actions=[{"kind": "choose_dealer", "player": p} for p in range(n)],
            suit_of=tuple(None if t.wild else t.suit for t in types),
            value_of=tuple(t.value for t in types),
        )


class FoolEngine(StepMemo):
    """The reference interpreter of Fool!."""

    RULINGS: ClassVar[Mapping[str, frozenset[str]]] = {
        AMB_SELECTION: frozenset({"lowest-values", "random-subset", "whole-deck"}),
        AMB_WILD_VS_OFF: frozenset({"off-colour-worse", "wild-worst"}),
        AMB_OFF_TIES: frozenset({"last-played", "first-played"}),
        AMB_WILD_TIES: frozenset({"last-played", "first-played"}),
        AMB_LED_WILD: frozenset({"next-coloured-card", "leader-declares"}),
        AMB_NEXT_ROUND: frozenset({"dealer-rotates", "last-winner-leads"}),
        AMB_WIN_TIES: frozenset({"shared", "most-plus-tens"}),
        AMB_DISCS: frozenset({"reset", "carry-over"}),
        AMB_UNCOLOURED: frozenset({"first-one", "last-one"}),
        AMB_FIRST_DEALER: frozenset({"last-seat", "random"}),
        AMB_WINNER_FOOL: frozenset({"winner-exempt", "lead-passes-left"}),
        AMB_DEAL_ORDER: frozenset({"one-at-a-time", "hand-at-a-time"}),
        AMB_SECOND_FOOL: frozenset({"next-worst", "off-colour-only"}),
        AMB_DIRECTION: frozenset({"clockwise", "counter-clockwise"}),
        AMB_ROUND_END: frozenset({"trick-completes", "at-once"}),
        AMB_ONES_FOLLOW: frozenset({"free", "must-play-one"}),
        AMB_LOW_SCORE: frozenset({"running-total", "one-round"}),
    }
    END_CLAUSES: ClassVar[tuple[str, ...]] = ("FOOL-END-01", "FOOL-END-02")
    #: ``_result`` is here although play assigns it: it is set once, when the game ends, from the
    #: scores, the +10 discs, the round and a ruling (all in the engine's memory), and never
    #: changed in place, so copies may share it and two engines equal in the rest are equal in it.
    SHARED: ClassVar[frozenset[str]] = frozenset({
        "types", "_by_card", "_colour_range", "full_deck", "in_play_row", "_deal_actions",
        "_lead_actions", "_declare_actions", "_follow_actions", "_dealer_actions", "_result",
        "_suit_of", "_value_of", "_zones", "_counted_zones", "_records"})

    def __init__(self, spec: Spec, config: Config) -> None:
        super().__init__(spec, config)
        n = self.players
        key = ("fool", n, repr([config.param(name)
                                for name in ("suit_values", "wild_value", "wild_count")]))
        tables = shared_tables(spec, key, lambda: _Tables.build(config))
        self.colours: tuple[str, ...] = tables.colours
        self.wild_type = tables.wild_type
        self.types: tuple[CardType, ...] = tables.types
        self._by_card: dict[tuple[Any, Any], int] = tables.by_card
        self._colour_range = tables.colour_range
        self.full_deck = tables.full_deck
        #: Every count of the whole deck fits in a byte: piles are kept as bytearrays.
        self._small = _fits_bytes(self.full_deck)
        self.cards_per_player = int(config.param("cards_per_player"))
        self.fools_per_trick = int(config.param("fools_per_trick")[str(n)])
        self.wild_penalty = int(config.param("wild_penalty"))
        self.going_out_points = int(config.param("going_out_points"))
        self.fool_going_out_points = int(config.param("fool_going_out_points"))
        self.end_score = int(config.param("end_score"))
        self.plus_ten_limit = int(config.param("plus_ten_limit"))
        rows = [r for r in config.param("cards_in_play") if r["players"] == n]
        self.in_play_row: Mapping[str, int] | None = rows[0] if rows else None
        # Action objects are built once: legal_actions hands out these same dicts.
        self._deal_actions = tables.deal_actions
        self._lead_actions = tables.lead_actions
        self._declare_actions = tables.declare_actions
        self._follow_actions = tables.follow_actions
        self._dealer_actions = tables.dealer_actions
        # Per card type, what the state shows: its suit (None for a wild 1) and value.
        self._suit_of: tuple[str | None, ...] = tables.suit_of
        self._value_of: tuple[int, ...] = tables.value_of
        # Zones of the state by their content (a tuple of card types, or of counts after
        # _COUNTS), and the last trick and round as the state shows them: most of a state is
        # what it was one step earlier. The states share these parts, which nobody changes.
        # A new round starts a new memory (it is shared with clones, so it is replaced).
        self._zones: dict[Any, dict[str, Any]] = {}
        #: The counted zones (deck, cards set aside) by their counts as bytes.
        self._counted_zones: dict[bytes, dict[str, Any]] = {}
        self._records: dict[str, tuple[Any, dict[str, Any]]] = {}
        #: The last card dealt to or played from a hand: (card type, +1 dealt or -1 played).
        #: Only a hint for the state's views (``_hand_zone``), which stay exact whatever it says.
        self._moved: tuple[int, int] | None = None

        self.round = 1
        self.scores = [0] * n
        self.plus_tens = [0] * n
        self.fools: list[int] = []
        self.last_trick: TrickRecord | None = None
        self.last_round: RoundRecord | None = None
        self._result: dict[str, Any] | None = None
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.deck: Counts = _counts([0] * len(self.types), self._small)
        self.deck_size = 0
        self._in_deck: list[int] = []
        self.aside: Counts = _counts([0] * len(self.types), self._small)
        self.played: list[int] = []
        self.trick: list[tuple[int, int]] = []
        self.lead_colour: int | None = None
        self.order: list[int] = []
        self.leader: int | None = None
        self.trick_number = 0
        self.to_deal = 0
        self.next_deal = 0
        #: Seats a card of this round's deal moves round the table: +1 to the left (FOOL-AMB-17).
        self._deal_step = 1
        self._quota: list[int] = []
        if self.decide(AMB_FIRST_DEALER, "random"):
            self.phase = CHOOSE_DEALER
            self.dealer: int | None = None
            # every card waits in the deck until the deal
            self.deck = _counts(self.full_deck, self._small)
            self.deck_size = sum(self.deck)
            self._in_deck = [t for t, k in enumerate(self.deck) if k]
        else:
            self.phase = DEAL
            self.dealer = n - 1
            self._start_round()

    # -- whose move ---------------------------------------------------------------------------

    def current_player(self) -> Actor | None:
        """Return the player to play, CHANCE while choosing a dealer or dealing, None at the end."""
        if self.phase == PLAY:
            return self.order[len(self.trick)]
        if self.phase == OVER:
            return None
        return CHANCE

    def _build_legal(self) -> list[Action]:
        """Return the legal actions in canonical order (``legal_actions`` copies this list).

        Dealing: one deal per distinct card in the deck, in card order. Play: the distinct
        cards of the mover's hand that may be played, in card order (green, red, yellow, blue
        ascending, then the 1; a led 1 under leader-declares once per colour, in suit order).
        """
        if self.phase == PLAY:
            return self._card_actions()
        if self.phase == DEAL:
            row = self._deal_actions[self.next_deal]
            return [row[t] for t in self._present()]
        if self.phase == CHOOSE_DEALER:
            return list(self._dealer_actions)
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return the chance outcomes with exact probabilities."""
        if self.phase == DEAL:
            row = self._deal_actions[self.next_deal]
            size = self.deck_size
            one = _fraction(1, size)
            deck = self.deck
            return [(row[t], one if deck[t] == 1 else _fraction(deck[t], size))
                    for t in self._present()]
        if self.phase == CHOOSE_DEALER:
            p = _fraction(1, self.players)
            return [(a, p) for a in self._dealer_actions]
        return super().chance_outcomes()

    def chance_split(self) -> tuple[list[Action], list[Fraction]]:
        """Return the chance outcomes' actions and probabilities as two lists (no pairs)."""
        if self.phase != DEAL:
            return super().chance_split()
        row = self._deal_actions[self.next_deal]
        size = self.deck_size
        one = _fraction(1, size)
        deck = self.deck
        present = self._present()
        return ([row[t] for t in present],
                [one if deck[t] == 1 else _fraction(deck[t], size) for t in present])

    def chance_weights(self) -> tuple[Sequence[Action], Sequence[int]] | None:
        """Return the deals with the number of each card left in the deck as weights."""
        if self.phase != DEAL:
            return None
        row = self._deal_actions[self.next_deal]
        deck = self.deck
        present = self._in_deck
        return [row[t] for t in present], [deck[t] for t in present]

    def _present(self) -> list[int]:
        """Return the card types still in the deck, in card order (kept up to date by _deal)."""
        return self._in_deck

    def _card_actions(self) -> list[Action]:
        player = self.order[len(self.trick)]
        hand = self.hands[player]
        wild = self.wild_type.index
        if not self.trick:
            row = self._lead_actions[player]
            out: list[Action] = []
            last = -1
            for t in hand:
                if t == last:
                    continue
                last = t
                if t == wild and self.decide(AMB_LED_WILD, "leader-declares"):
                    out.extend(self._declare_actions[player])
                else:
                    out.append(row[t])
            return out
        row = self._follow_actions[player]
        if self.lead_colour is not None:
            lo, hi = self._colour_range[self.lead_colour]
            if any(lo <= t < hi for t in hand):
                follow = [row[t] for t in hand if lo <= t < hi]
                if hand[-1] == wild:
                    follow.append(row[wild])
                return follow
            # No coloured card of the colour, but a 1, which takes that colour when played
            # (FOOL-WILD-01): need it be played? FOOL-WILD-03 says not; FOOL-AMB-19 asks.
            if (hand[-1] == wild and self._known(AMB_ONES_FOLLOW)
                    and self.decide(AMB_ONES_FOLLOW, "must-play-one")):
                return [row[wild]]
        out = []
        last = -1
        for t in hand:
            if t != last:
                out.append(row[t])
                last = t
        return out

    # -- rejections ---------------------------------------------------------------------------

    def rule_rejection(self, action: Action) -> Rejection:
        """Say which rule ``action`` breaks."""
        kind = action["kind"]
        if self.phase == OVER:
            return Rejection("the game is over; no action is legal",
                             ("FOOL-END-01", "FOOL-END-02"))
        if self.phase in (CHOOSE_DEALER, DEAL):
            if kind != ("deal" if self.phase == DEAL else "choose_dealer"):
                what = "cards are being dealt" if self.phase == DEAL else "the first dealer is drawn"
                return Rejection(f"{what}: chance is to move, not a player",
                                 ("FOOL-DEAL-01", "FOOL-LEAD-01"))
            if kind == "deal":
                if action.get("player") != self.next_deal:
                    return Rejection(f"the next card goes to player {self.next_deal}, not "
                                     f"{action.get('player')!r}: the deal goes round from the "
                                     "dealer's left", ("FOOL-DEAL-01",))
                return Rejection(f"card {_card_text(action)} is not in the deck being dealt",
                                 ("FOOL-DEAL-01", "FOOL-COMP-03"))
            return Rejection(f"there is no player {action.get('player')!r} to choose as dealer",
                             ("FOOL-LEAD-01",))
        if kind not in ("lead", "follow"):
            return Rejection(f"{kind!r} is a chance action, but the cards are dealt and the "
                             "players are playing a trick", ("FOOL-DEAL-01", "FOOL-LEAD-02"))
        mover = self.order[len(self.trick)]
        player = action.get("player")
        if player in self.fools:
            return Rejection(f"player {player} holds a Fool disc and sits out this trick; "
                             f"player {mover} is to play", ("FOOL-FOOL-04", "FOOL-FOOL-02"))
        if player != mover:
            return Rejection(f"it is player {mover}'s turn, not {player!r}'s",
                             ("FOOL-TRICK-02", "FOOL-FOLLOW-01"))
        if kind == "lead" and self.trick:
            return Rejection("the trick has been led already; play with kind 'follow'",
                             ("FOOL-FOLLOW-01",))
        if kind == "follow" and not self.trick:
            return Rejection("nobody has led yet; start the trick with kind 'lead'",
                             ("FOOL-LEAD-02", "FOOL-TRICK-02"))
        t = self._by_card.get((action.get("suit"), action.get("value")))
        if t is None:
            return Rejection(f"{_card_text(action)} is not a card of this deck",
                             ("FOOL-COMP-03", "FOOL-COMP-04"))
        if t not in self.hands[mover]:
            return Rejection(f"player {mover} does not hold {self.types[t]}",
                             ("FOOL-LEAD-02", "FOOL-FOLLOW-02"))
        if kind == "lead" and t == self.wild_type.index:
            leader_declares = self.ruled(AMB_LED_WILD) == "leader-declares"  # explains only
            if leader_declares and action.get("declare") not in self.colours:
                return Rejection("a led 1 must declare the colour to follow (declare: one of "
                                 f"{', '.join(self.colours)})", ("FOOL-WILD-05",))
            if not leader_declares and "declare" in action:
                return Rejection("a led 1 declares no colour: the next coloured card sets it",
                                 ("FOOL-WILD-05",))
        if "declare" in action:
            return Rejection("only a led 1 may declare a colour", ("FOOL-WILD-05",))
        if kind == "follow" and self.lead_colour is not None:
            colour = self.colours[self.lead_colour]
            lo, hi = self._colour_range[self.lead_colour]
            if not any(lo <= c < hi for c in self.hands[mover]):  # explains only
                return Rejection(f"player {mover} holds a 1 and no other {colour} card, and must "
                                 f"play the 1 (FOOL-AMB-19 must-play-one), not {self.types[t]}",
                                 ("FOOL-WILD-03", "FOOL-FOLLOW-01"))
            return Rejection(f"player {mover} holds {colour} and must follow {colour} (or play a "
                             f"1), not play {self.types[t]}",
                             ("FOOL-FOLLOW-01", "FOOL-WILD-02"))
        return Rejection(f"{action!r} is not legal now", ("FOOL-FOLLOW-01",))

    # -- applying actions ---------------------------------------------------------------------

    def is_legal(self, action: Any) -> bool:
        """Return True when ``action`` is exactly a legal action.

        While dealing, a deal is checked against the deck directly (as exactly as the base
        class would) instead of building the list of every card still to deal; in play, against
        the legal plays built once for this step.
        """
        if self.phase != DEAL:
            if self.phase == PLAY:
                return is_among(action, self.legal())
            return super().is_legal(action)
        if not (type(action) is dict and action.keys() == _DEAL_KEYS
                and action["kind"] == "deal" and type(action["player"]) is int
                and type(action["value"]) is int and type(action["suit"]) is str
                and action["player"] == self.next_deal):
            return False
        t = self._by_card.get((action["suit"], action["value"]), -1)
        return t >= 0 and self.deck[t] > 0

    def clone(self) -> FoolEngine:
        """Return an independent copy, exact (what ``copy.deepcopy`` gives, but sharing).

        Copied: what an action changes in place (the hands, the deck and the cards set aside,
        the cards played, the trick, the card types left in the deck, the scores and +10 discs,
        the decision counts). Shared: the configuration's tables and the state's caches
        (``SHARED``), the step's memos, numbers, strings, tuples and frozen records, and the
        lists an action only ever replaces (the disc holders, the trick's seat order, the deal
        quotas). A subclass (which may add attributes of its own) is copied by the base's
        ``clone``.
        """
        if type(self) is not FoolEngine:
            return super().clone()
        other = object.__new__(FoolEngine)
        other.__dict__.update(self.__dict__)
        other._decisions = self._decisions.copy()
        other.hands = [hand[:] for hand in self.hands]
        other.deck = self.deck[:]  # a bytearray or a list, copied as itself
        other.aside = self.aside[:]
        other.played = self.played[:]
        other.trick = self.trick[:]  # (player, card type) pairs
        other._in_deck = self._in_deck[:]
        other.scores = self.scores[:]
        other.plus_tens = self.plus_tens[:]
        return other

    def _apply(self, action: Action) -> None:
        self.invalidate()
        kind = action["kind"]
        if kind == "deal":
            self._deal(self._by_card[(action["suit"], action["value"])])
        elif kind == "choose_dealer":
            self.dealer = int(action["player"])
            self.phase = DEAL
            self._start_round()
        else:
            self._play(self._by_card[(action["suit"], action["value"])], action.get("declare"))

    def _start_round(self) -> None:
        """Choose the cards in play (FOOL-AMB-02) and start dealing."""
        n = self.players
        for hand in self.hands:
            hand.clear()
        self.played = []
        self.trick = []
        self.lead_colour = None
        self.trick_number = 0
        self.leader = None
        self._zones = {}
        self._counted_zones = {}
        selection = self.ruling(AMB_SELECTION)
        self.reached(AMB_SUIT_VALUES)  # the values dealt from are the ruled suit_values
        pool = self.cards_in_play(selection)
        self.deck = _counts(pool, self._small)
        self.deck_size = sum(pool)
        self._in_deck = [t for t, k in enumerate(pool) if k]
        self.aside = _counts([full - used for full, used in zip(self.full_deck, pool, strict=True)],
                             self._small)
        if selection == "whole-deck":
            self.to_deal = self.deck_size
        else:
            self.to_deal = min(self.deck_size, n * self.cards_per_player)
        dealer = self.dealer if self.dealer is not None else n - 1
        # The deal starts with the player left of the dealer, who leads (FOOL-LEAD-01), and goes
        # round in the direction of play (FOOL-AMB-17).
        self.next_deal = (dealer + 1) % n
        step = self._deal_step = self._direction()
        # Dealing hand by hand gives each player the share one-by-one dealing would: the first
        # players from the dealer's left get the odd cards.
        base, extra = divmod(self.to_deal, n)
        self._quota = [base + (1 if ((seat - self.next_deal) * step) % n < extra else 0)
                       for seat in range(n)]
        self.phase = DEAL
        if self.to_deal == 0:
            self._start_play()

    def cards_in_play(self, selection: str) -> list[int]:
        """Return how many of each card type a round deals from under FOOL-AMB-02 ``selection``.

        Every card under whole-deck and random-subset; the lowest values of each colour and the
        wilds of the player count's ``cards_in_play`` row under lowest-values. The rest is set
        aside, face down but known to everyone.
        """
        if selection == "lowest-values" and self.in_play_row is not None:
            pool = [0] * len(self.types)
            for ci, colour in enumerate(self.colours):
                lo, hi = self._colour_range[ci]
                for t in range(lo, min(hi, lo + int(self.in_play_row[colour]))):
                    pool[t] = 1
            wild = self.wild_type.index
            pool[wild] = min(self.full_deck[wild], int(self.in_play_row[WILD]))
            return pool
        return list(self.full_deck)

    def known_aside(self) -> list[int]:
        """Return how many of each card type FOOL-AMB-02's selection leaves out of play.

        Everyone knows these (the rules say which), unlike the undealt cards set aside too.
        Reads the ruling without counting a decision point: it reports, it does not play.
        """
        in_play = self.cards_in_play(self.ruled(AMB_SELECTION))
        return [full - used for full, used in zip(self.full_deck, in_play, strict=True)]

    def _deal(self, t: int) -> None:
        self._moved = (t, 1)
        self.deck[t] -= 1
        self.deck_size -= 1
        if not self.deck[t]:
            self._in_deck.remove(t)
        insort(self.hands[self.next_deal], t)
        self.to_deal -= 1
        if (not self.decide(AMB_DEAL_ORDER, "hand-at-a-time")
                or len(self.hands[self.next_deal]) >= self._quota[self.next_deal]):
            self.next_deal = (self.next_deal + self._deal_step) % self.players
        if self.to_deal == 0:
            self._start_play()

    def _start_play(self) -> None:
        """Set the undealt cards aside and let the player left of the dealer lead."""
        # Who sees the hands just dealt (FOOL-AMB-21) is a question of observation, not of play:
        # hidden_by_rulings serves the reading; here the question has come up.
        self.reached(AMB_HAND_SIGHT)
        for t, k in enumerate(self.deck):
            self.aside[t] += k
        self.deck = _counts([0] * len(self.types), self._small)
        self.deck_size = 0
        self._in_deck = []
        self.phase = PLAY
        dealer = self.dealer if self.dealer is not None else self.players - 1
        self._start_trick(self._next_free((dealer + 1) % self.players))

    def _known(self, ambiguity: str) -> bool:
        """Return True when the spec played has the record ``ambiguity``.

        ``rulespec diff`` replays a frozen release's evidence on this module with that release's
        spec, which lacks the records added after it (FOOL-AMB-16 .. FOOL-AMB-20 came in 1.2.0):
        there the question was not open, and the engine plays what that release specified, the
        behaviour each of these records keeps as its default.
        """
        return ambiguity in self.spec.ambiguities

    def _direction(self) -> int:
        """Return the seats play moves round the table: +1 to the left, -1 to the right."""
        if self._known(AMB_DIRECTION) and self.decide(AMB_DIRECTION, "counter-clockwise"):
            return -1
        return 1

    def _next_free(self, seat: int) -> int:
        """Return ``seat`` or the first player from it, in the direction of play, without a disc."""
        if seat not in self.fools:
            return seat
        step = self._direction()
        while seat in self.fools:
            seat = (seat + step) % self.players
        return seat

    def _start_trick(self, leader: int) -> None:
        self.trick_number += 1
        self.leader = leader
        self.trick = []
        self.lead_colour = None
        n = self.players
        step = self._direction()
        self.order = [seat for seat in ((leader + step * k) % n for k in range(n))
                      if seat not in self.fools]

    def _play(self, t: int, declare: str | None) -> None:
        player = self.order[len(self.trick)]
        self.hands[player].remove(t)
        self._moved = (t, -1)
        card = self.types[t]
        if not self.trick:
            if card.wild:
                self.lead_colour = self.colours.index(declare) if declare is not None else None
            else:
                self.lead_colour = card.colour
        elif self.lead_colour is None and not card.wild:
            self.lead_colour = card.colour
        self.trick.append((player, t))
        if len(self.trick) == len(self.order):
            self._finish_trick()
        elif (not self.hands[player]
              and all(self.hands[p] for p, _ in self.trick[:-1])  # the first hand out in it
              and self._known(AMB_ROUND_END) and self.decide(AMB_ROUND_END, "at-once")):
            self._end_round_at_once()

    def _end_round_at_once(self) -> None:
        """End the round the moment a hand is empty, the trick unfinished (FOOL-AMB-18 at-once).

        The trick has no winner and makes no Fool: its cards leave play, and the disc holders
        are those who sat it out. The next round's leader under FOOL-AMB-08 last-winner-leads is
        the winner of the round's last completed trick, or this trick's leader if none was.
        """
        last = self.last_trick
        winner = (last.winner if last is not None and last.round == self.round
                  else self.trick[0][0])
        self.played.extend(t for _, t in self.trick)
        self.trick = []
        self._score_round(winner)

    def _badness(self, position: int, t: int) -> tuple[int, int, int]:
        """Return a sort key, worst first: off-colour below the led colour, 1s lowest in it."""
        card = self.types[t]
        if card.wild:
            level = _BELOW_ALL if self.decide(AMB_WILD_VS_OFF, "wild-worst") else _LED_COLOUR
            tie = -position if self.decide(AMB_WILD_TIES, "last-played") else position
        elif card.colour == self.lead_colour:
            level, tie = _LED_COLOUR, 0
        else:
            level = _OFF_COLOUR
            tie = -position if self.decide(AMB_OFF_TIES, "last-played") else position
        return (level, card.value, tie)

    def _winner(self) -> int:
        """Return the position in the trick of the winning card (FOOL-TRICK-01, FOOL-AMB-11)."""
        best = -1
        best_value = -1
        for i, (_, t) in enumerate(self.trick):
            card = self.types[t]
            if not card.wild and card.colour == self.lead_colour and card.value > best_value:
                best, best_value = i, card.value
        if best >= 0:
            return best
        wilds = [i for i, (_, t) in enumerate(self.trick) if self.types[t].wild]
        return wilds[0] if self.decide(AMB_UNCOLOURED, "first-one") else wilds[-1]

    def _finish_trick(self) -> None:
        """Decide the winner and the Fools; pass the discs; end the round or lead again."""
        win_pos = self._winner()
        winner = self.trick[win_pos][0]
        candidates = [(self._badness(i, t), p, i) for i, (p, t) in enumerate(self.trick)]
        candidates.sort()
        fools = self.fools_per_trick
        self.reached(AMB_TWO_FOOLS)  # fools_per_trick, set by the ruling, decides it here
        # The question arises only when the winner is among the worst cards.
        if (any(i == win_pos for _, _, i in candidates[:fools])
                and self.decide(AMB_WINNER_FOOL, "winner-exempt")):
            candidates = [c for c in candidates if c[2] != win_pos]
        chosen = candidates[:fools]
        # The text defines only the worst card. With two Fools the readings of FOOL-AMB-16 part
        # when the worst card is off-colour and the next worst is not.
        if (len(chosen) > 1 and chosen[0][0][0] == _OFF_COLOUR
                and chosen[-1][0][0] != _OFF_COLOUR and self._known(AMB_SECOND_FOOL)
                and self.decide(AMB_SECOND_FOOL, "off-colour-only")):
            chosen = [c for c in chosen if c[0][0] == _OFF_COLOUR]
        self.fools = sorted(p for _, p, _ in chosen)
        colour = None if self.lead_colour is None else self.colours[self.lead_colour]
        self.last_trick = TrickRecord(self.round, self.trick_number, tuple(self.trick), colour,
                                      winner, tuple(self.fools))
        self.played.extend(t for _, t in self.trick)
        self.trick = []
        if any(not hand for hand in self.hands):
            self._score_round(winner)
        else:
            self._start_trick(self._next_free(winner))

    def _score_round(self, last_winner: int) -> None:
        """Score the round (FOOL-SCORE-01..05), then end the game or deal again."""
        points: list[int] = []
        for p, hand in enumerate(self.hands):
            if not hand:
                gain = self.fool_going_out_points if p in self.fools else self.going_out_points
                if p not in self.fools:
                    self.plus_tens[p] += 1
            else:
                gain = -sum(self.wild_penalty if self.types[t].wild else self.types[t].value
                            for t in hand)
            points.append(gain)
            self.scores[p] += gain
        self.last_round = RoundRecord(self.round, tuple(tuple(h) for h in self.hands),
                                      tuple(self.fools), tuple(points))
        self.lead_colour = None
        self.leader = None
        low = (points if self._known(AMB_LOW_SCORE) and self.decide(AMB_LOW_SCORE, "one-round")
               else self.scores)
        if (any(s <= self.end_score for s in low)
                or any(k >= self.plus_ten_limit for k in self.plus_tens)):
            self.phase = OVER
            self._result = self._make_result()
            return
        self.round += 1
        n = self.players
        if self.decide(AMB_NEXT_ROUND, "dealer-rotates"):
            dealer = self.dealer if self.dealer is not None else n - 1
            self.dealer = (dealer + self._direction()) % n
        else:
            self.dealer = (last_winner - 1) % n
        if self.fools and not self.decide(AMB_DISCS, "carry-over"):
            self.fools = []
        self._start_round()

    def _make_result(self) -> dict[str, Any]:
        if self.decide(AMB_WIN_TIES, "most-plus-tens"):
            keys = [(s, k) for s, k in zip(self.scores, self.plus_tens, strict=True)]
        else:
            keys = [(s, 0) for s in self.scores]
        places = ranking(keys)
        return {"scores": list(self.scores), "ranking": places, "winners": list(places[0]),
                "plus_tens": list(self.plus_tens), "rounds": self.round}

    # -- views --------------------------------------------------------------------------------

    def _plan(self) -> _ZonePlan:
        """Return the card tables the state views read (built once per card set)."""
        suit_of = self._suit_of
        seen = _PLANS.get(id(suit_of))
        if seen is not None and seen[0] is suit_of:
            return seen[1]
        plan = _ZonePlan.build(self.colours, self._colour_range, suit_of, self._value_of,
                               self.types)
        _PLANS[id(suit_of)] = (suit_of, plan)
        return plan

    def _zone(self, cards: Sequence[int]) -> dict[str, Any]:
        """Return a zone as the state shows it: ascending values per colour, then the 1s."""
        zone: dict[str, Any] = {colour: [] for colour in self.colours}
        suit_of, value_of = self._suit_of, self._value_of
        wild = 0
        for t in sorted(cards):
            suit = suit_of[t]
            if suit is None:
                wild += 1
            else:
                zone[suit].append(value_of[t])
        zone[WILD] = wild
        return zone

    def _counted_zone(self, counts: Sequence[int]) -> dict[str, Any]:
        """Return the zone holding ``counts[t]`` cards of each type ``t``."""
        plan = self._plan()
        zone: dict[str, Any] = {}
        for colour, pairs in plan.colour_types:
            values: list[int] = []
            for t, v in pairs:
                k = counts[t]
                if k:
                    if k == 1:
                        values.append(v)
                    else:
                        values.extend([v] * k)
            zone[colour] = values
        wild = 0
        for t in plan.wild_types:
            wild += counts[t]
        zone[WILD] = wild
        return zone

    def _counted(self, counts: Sequence[int]) -> list[int]:
        return [t for t, k in enumerate(counts) for _ in range(k)]

    def _zone_of(self, cards: Sequence[int], counted: bool = False) -> dict[str, Any]:
        """Return ``_zone(cards)`` (or ``_counted_zone``), remembered by content."""
        key = (_COUNTS, *cards) if counted else tuple(cards)
        zone = self._zones.get(key)
        if zone is None:
            zone = self._zones[key] = (self._counted_zone(cards) if counted
                                       else self._zone(cards))
        return zone

    def _trick_json(self, lt: TrickRecord) -> dict[str, Any]:
        types = self.types
        return {
            "round": lt.round, "number": lt.number,
            "cards": [{"player": p, "card": types[t].json()} for p, t in lt.cards],
            "lead_colour": lt.lead_colour, "winner": lt.winner, "fools": list(lt.fools),
        }

    def _round_json(self, lr: RoundRecord) -> dict[str, Any]:
        return {"round": lr.round, "players": [
            {"player": p, "hand": self._zone(hand), "emptied": not hand,
             "fool": p in lr.fools, "points": lr.points[p]}
            for p, hand in enumerate(lr.hands)]}

    def _record(self, name: str, record: Any, build: Any) -> Any:
        """Return ``build(record)``, remembered while ``record`` is the same object."""
        if record is None:
            return None
        seen = self._records.get(name)
        if seen is not None and seen[0] is record:
            return seen[1]
        view = build(record)
        self._records[name] = (record, view)
        return view

    def _build_state(self) -> dict[str, Any]:
        """Return the canonical JSON state (omniscient: hands and deck included).

        Built at every step of every game the kit checks (twice in-process: the engine's and
        the reference's), so the zones are looked up by content inline and the cards of the
        trick are shared objects (``_ZonePlan.card_json``).
        """
        # Zones by content as bytes (hashed once, unlike a tuple): a list of card types in
        # ``_zones``, a list of counts in ``_counted_zones``. A type or count that does not fit
        # in a byte (a custom game far larger than Fool's): tuple keys (``_zone_of``).
        zones = self._zones
        get = zones.get
        counted = self._counted_zones
        try:
            hands = []
            moved = self._moved
            for hand in self.hands:
                key = bytes(hand)
                got = get(key)
                if got is None:
                    got = zones[key] = self._hand_zone(hand, key, moved)
                hands.append(got)
            key = bytes(self.played)
            played = get(key)
            if played is None:
                played = zones[key] = self._zone(self.played)
            key = bytes(self.deck)
            deck = counted.get(key)
            if deck is None:
                deck = counted[key] = self._deck_zone(key, moved)
            key = bytes(self.aside)
            aside = counted.get(key)
            if aside is None:
                aside = counted[key] = self._counted_zone(self.aside)
        except ValueError:
            return self._build_state_with(self._zone_of)
        return self._assemble(hands, deck, aside, played)

    def _hand_zone(self, hand: list[int], key: bytes,
                   moved: tuple[int, int] | None) -> dict[str, Any]:
        """Return the zone of a hand not seen yet (``key``: its card types as bytes).

        A hand just dealt to or played from differs from one already built by the card moved
        (the state is built at every step the kit checks): its zone is that one's, with the
        card's value put in or taken out. Whatever ``moved`` says, the zone is exact: the hand
        without (or with) that card is looked up by content, and only a zone found is used.
        """
        if moved is not None and self._plan().monotone:
            t, sign = moved
            if sign > 0:
                near = self._zones.get(key.replace(bytes((t,)), b"", 1)) if t in key else None
            else:
                at = bisect(key, t)
                near = self._zones.get(key[:at] + bytes((t,)) + key[at:])
            if near is not None:
                return self._moved_zone(near, t, sign)
        return self._zone(hand)

    def _deck_zone(self, key: bytes, moved: tuple[int, int] | None) -> dict[str, Any]:
        """Return the zone of a deck not seen yet: the deck before the last deal's zone without
        the card dealt, when that one was built (as ``_hand_zone``), else built whole."""
        if moved is not None and moved[1] > 0 and self._plan().monotone:
            t = moved[0]
            before = bytearray(key)
            try:
                before[t] += 1
            except ValueError:  # a count past a byte: a custom deck far larger than Fool's
                return self._counted_zone(self.deck)
            near = self._counted_zones.get(bytes(before))
            if near is not None:
                return self._moved_zone(near, t, -1)
        return self._counted_zone(self.deck)

    def _moved_zone(self, zone: dict[str, Any], t: int, sign: int) -> dict[str, Any]:
        """Return ``zone`` with one card of type ``t`` put in (``sign`` 1) or taken out (-1);
        ``zone`` and its lists stay as they are (states share them)."""
        out = zone.copy()
        suit = self._suit_of[t]
        if suit is None:
            out[WILD] = zone[WILD] + sign
            return out
        values = list(zone[suit])
        if sign > 0:
            insort(values, self._value_of[t])
        else:
            values.remove(self._value_of[t])
        out[suit] = values
        return out

    def _build_state_with(self, zone: Callable[..., dict[str, Any]]) -> dict[str, Any]:
        """Return the state with zones looked up by ``zone`` (``_zone_of``: tuple keys)."""
        return self._assemble([zone(hand) for hand in self.hands], zone(self.deck, True),
                              zone(self.aside, True), zone(self.played))

    def _assemble(self, hands: list[dict[str, Any]], deck: dict[str, Any],
                  aside: dict[str, Any], played: dict[str, Any]) -> dict[str, Any]:
        card_json = self._plan().card_json
        in_play = self.phase == PLAY
        last_trick, last_round = self.last_trick, self.last_round
        return {
            "to_move": self.current_player(),
            "phase": self.phase,
            "round": self.round,
            "dealer": self.dealer,
            "trick_number": self.trick_number,
            "leader": self.leader if in_play else None,
            "lead_colour": (self.colours[self.lead_colour]
                            if in_play and self.lead_colour is not None else None),
            "hands": hands,
            "deck": deck,
            "aside": aside,
            "trick": [{"player": p, "card": card_json[t]} for p, t in self.trick],
            "played": played,
            "fools": list(self.fools),
            "scores": list(self.scores),
            "plus_tens": list(self.plus_tens),
            "last_trick": (None if last_trick is None
                           else self._record("trick", last_trick, self._trick_json)),
            "last_round": (None if last_round is None
                           else self._record("round", last_round, self._round_json)),
            "result": None if self._result is None else self.result(),
        }

    def result(self) -> dict[str, Any] | None:
        """Return the result once the game is over, else None."""
        if self._result is None:
            return None
        r = self._result
        return {"scores": list(r["scores"]), "ranking": [list(g) for g in r["ranking"]],
                "winners": list(r["winners"]), "plus_tens": list(r["plus_tens"]),
                "rounds": r["rounds"]}

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line of narration."""
        kind = action.get("kind")
        if kind == "deal":
            return f"chance deals {_card_text(action)} to player {action.get('player')}"
        if kind == "choose_dealer":
            return f"chance: player {action.get('player')} deals first"
        verb = "leads" if kind == "lead" else "plays"
        text = f"player {actor} {verb} {_card_text(action)}"
        if "declare" in action:
            text += f", naming {action['declare']}"
        elif action.get("suit") == WILD and self.phase == PLAY and self.lead_colour is not None:
            text += f" (counts as {self.colours[self.lead_colour]})"
        return text


ENGINE = FoolEngine


# -- the greedy player's heuristic (rulespec.impact) -----------------------------------------------


def heuristic(config: Config, view: Mapping[str, Any], player: int) -> float:
    """Return how good ``view`` (``player``'s view of the state) is for ``player``.

    For the impact lab's greedy and MCTS players; it reads the configuration and the view only.
    The player's score so far, less what its hand would cost if the round ended now (the cards'
    values, ``wild_penalty`` for a wild; FOOL-SCORE), less the going-out points a fool gives up
    (``going_out_points`` − ``fool_going_out_points``), relative to the best other score.
    """
    wild_penalty = int(config.param("wild_penalty"))
    fool_cost = int(config.param("going_out_points")) - int(config.param("fool_going_out_points"))
    hand = view["hands"][player]
    cost = 0
    if isinstance(hand, dict):
        for suit, cards in hand.items():
            cost += cards * wild_penalty if suit == WILD else sum(cards)
    scores = view["scores"]
    own = scores[player] - cost - (fool_cost if player in view["fools"] else 0)
    return lead_over_others(scores, player, own)


# -- the MCTS player's determinisation (rulespec.impact) -------------------------------------------


def redeal(engine: Engine, player: int, rng: random.Random) -> None:
    """Deal again, in place, every card ``player`` cannot see, keeping every place's size.

    For the impact lab's MCTS player (``rulespec.impact.agents.determinise``): the engine is a
    copy of the game, and what it hides from ``player`` becomes one world ``player`` cannot tell
    from the real one. The unseen cards are the other hands, the deck and the undealt cards set
    aside; the cards FOOL-AMB-02's lowest-values selection leaves out of play are known to
    everyone and stay aside. The unseen cards are sorted (so the world depends on what
    ``player`` knows and on ``rng`` only), shuffled, and dealt back: each other hand gets as
    many as it holds (FOOL-DEAL-01), the deck as many as it holds, the rest goes aside. What
    the play so far says about a hand (a colour not followed) is not used.
    """
    if not isinstance(engine, FoolEngine):
        raise TypeError(f"redeal needs a FoolEngine, not {type(engine).__name__}")
    kinds = len(engine.types)
    known_aside = engine.known_aside()
    others = [p for p in range(engine.players) if p != player]
    undealt = [max(0, k - known) for k, known in zip(engine.aside, known_aside, strict=True)]
    unseen = [t for p in others for t in engine.hands[p]] + items_of(engine.deck) + items_of(undealt)
    *hands, dealt, rest = deal_unseen(unseen, [*(len(engine.hands[p]) for p in others),
                                               engine.deck_size], rng)
    for p, hand in zip(others, hands, strict=True):
        engine.hands[p] = sorted(hand)
    deck = tally(dealt, kinds)
    aside = [min(known, k) + extra
             for known, k, extra in zip(known_aside, engine.aside, tally(rest, kinds), strict=True)]
    engine.deck = _counts(deck, engine._small)
    engine._in_deck = [t for t, k in enumerate(deck) if k]
    engine.aside = _counts(aside, engine._small)
    engine.invalidate()
