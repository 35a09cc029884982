"""The negative corpus: known-bad engines, each breaking exactly one rule the way real
implementations do, with the check the kit must reject it with.

Most are built from the reference of a game by a small, realistic mistake: a parameter off by
one (a misread table), a ruling silently swapped (a misread tie-break), a biased die, an action
accepted after ignoring one of its fields, the legal actions listed in another order, a debug
field left in the state. The generic ones apply to every game in the registry that they fit
(each declares which: ``lax-apply`` needs an action of a legal kind that is illegal, which a
Pig game of roll, hold and a die never has), so a new game gets a negative corpus at once;
game-specific ones name the rule they break.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rulespec.reference.core import Action, Config, Engine, make_config
from rulespec.reference.play import random_policy
from rulespec.reference.registry import engine_class
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.registry import game_ids, get_spec

Builder = Callable[[type[Engine]], type[Engine]]


@dataclass(frozen=True)
class BadEngine:
    """A known-bad engine: what it gets wrong, and the check that must catch it."""

    game: str
    name: str
    breaks: str
    check: str
    build: Builder
    #: The invariant (or other subject) the failure must name, when it matters.
    subject: str | None = None
    players: int | None = None
    rulings: Mapping[str, str] = field(default_factory=dict)
    #: The (ambiguity, option) the engine follows while declaring the configured rulings.
    behaves_like: tuple[str, str] | None = None
    #: The ambiguity at whose decision point the engine does what no option of it does.
    bug_at: str | None = None

    def engine(self) -> type[Engine]:
        """Return the bad engine class."""
        return self.build(engine_class(get_spec(self.game)))

    def __str__(self) -> str:
        return f"{self.game}:{self.name}"


# -- builders ----------------------------------------------------------------------------------


def with_parameter(name: str, change: Callable[[Any], Any]) -> Builder:
    """An engine that reads parameter ``name`` wrongly (a misread table or constant)."""

    def build(base: type[Engine]) -> type[Engine]:
        def __init__(self: Engine, spec: Spec, config: Config) -> None:  # noqa: N807
            params = dict(config.parameters)
            params[name] = change(params[name])
            base.__init__(self, spec, replace(config, parameters=params))
            self.config = config  # it still reports the configuration it was given

        return type(f"Bad{base.__name__}", (base,), {"__init__": __init__})

    return build


def with_ruling(ambiguity: str, option: str) -> Builder:
    """An engine that plays another reading of an ambiguous rule than the one configured.

    The configuration is resolved again under that reading, so an option that overrides
    parameters (not only one implemented as behaviour) takes effect too.
    """

    def build(base: type[Engine]) -> type[Engine]:
        def __init__(self: Engine, spec: Spec, config: Config) -> None:  # noqa: N807
            real = make_config(spec, players=config.players,
                               rulings={**config.rulings, ambiguity: option},
                               variants=config.variants, parameters=config.overrides)
            base.__init__(self, spec, real)
            self.config = config

        return type(f"Bad{base.__name__}", (base,), {"__init__": __init__})

    return build


def biased_chance(base: type[Engine]) -> type[Engine]:
    """An engine whose chance outcomes are skewed: the first is likelier than the last."""

    def chance_outcomes(self: Engine) -> list[tuple[Action, Fraction]]:
        outcomes = base.chance_outcomes(self)
        if len(outcomes) < 2:
            return outcomes
        shift = outcomes[-1][1] / 2
        first, last = outcomes[0], outcomes[-1]
        return [(first[0], first[1] + shift), *outcomes[1:-1], (last[0], last[1] - shift)]

    return type(f"Biased{base.__name__}", (base,), {"chance_outcomes": chance_outcomes})


def lax_apply(base: type[Engine]) -> type[Engine]:
    """An engine that accepts an illegal action by ignoring the field that makes it illegal.

    It applies the legal action of the same kind that differs from it in the fewest fields (a
    roll for the wrong player becomes the roller's roll, a card not in hand becomes one that is).
    It only fits games where an action of a legal kind can be illegal (``kind_can_be_illegal``).
    """

    def apply(self: Engine, action: Any) -> None:
        if isinstance(action, dict):
            legal = self.legal_actions()
            if action not in legal:
                same = [a for a in legal if a.get("kind") == action.get("kind")]
                if same:
                    def distance(a: Action) -> int:
                        return sum(a.get(k) != action.get(k) for k in set(a) | set(action))
                    self._apply(min(same, key=distance))
                    return
        base.apply(self, action)

    return type(f"Lax{base.__name__}", (base,), {"apply": apply})


def reversed_order(base: type[Engine]) -> type[Engine]:
    """An engine listing the legal actions (and chance outcomes) in reverse canonical order."""

    def legal_actions(self: Engine) -> list[Action]:
        return list(reversed(base.legal_actions(self)))

    def chance_outcomes(self: Engine) -> list[tuple[Action, Fraction]]:
        return list(reversed(base.chance_outcomes(self)))

    return type(f"Reversed{base.__name__}", (base,), {"legal_actions": legal_actions,
                                                      "chance_outcomes": chance_outcomes})


def debug_field(base: type[Engine]) -> type[Engine]:
    """An engine that leaves a debugging field in its canonical state."""

    def state(self: Engine) -> dict[str, Any]:
        return {**base.state(self), "debug_step": 0}

    return type(f"Debug{base.__name__}", (base,), {"state": state})


def stale_memo(base: type[Engine]) -> type[Engine]:
    """An engine whose state cache is keyed by the actions played, and goes stale.

    A game that repeats all of the previous game's actions ends on the cached state from one
    action earlier (a memoization bug): the same actions no longer give the same states.
    """
    games: list[list[Action]] = []

    def __init__(self: Engine, spec: Spec, config: Config) -> None:  # noqa: N807
        base.__init__(self, spec, config)
        self.__dict__["_before"] = games[-1] if games else None
        self.__dict__["_seq"] = []
        self.__dict__["_stale"] = None
        games.append(self.__dict__["_seq"])

    def _apply(self: Engine, action: Action) -> None:
        self.__dict__["_stale"] = base.state(self)
        self.__dict__["_seq"].append(action)
        base._apply(self, action)

    def state(self: Engine) -> dict[str, Any]:
        before, seq = self.__dict__["_before"], self.__dict__["_seq"]
        if seq and before is not None and len(before) == len(seq) and before == seq:
            stale: dict[str, Any] = self.__dict__["_stale"]
            return stale
        return base.state(self)

    return type(f"Memo{base.__name__}", (base,), {"__init__": __init__, "_apply": _apply,
                                                  "state": state})


def ignores_extra_keys(base: type[Engine]) -> type[Engine]:
    """An engine with a lenient parser: keys no legal action has are dropped, not refused."""

    def apply(self: Engine, action: Any) -> None:
        if isinstance(action, dict) and not self.is_terminal():
            known = {k for a in self.legal_actions() for k in a}
            action = {k: v for k, v in action.items() if k in known}
        base.apply(self, action)

    return type(f"Lenient{base.__name__}", (base,), {"apply": apply})


def accepts_after_end(base: type[Engine]) -> type[Engine]:
    """An engine that silently accepts any action once the game is over."""

    def apply(self: Engine, action: Any) -> None:
        if self.is_terminal():
            return
        base.apply(self, action)

    return type(f"Endless{base.__name__}", (base,), {"apply": apply})


def die_faces_up_to(top: int) -> Builder:
    """An engine that checks a rolled face against 1..``top`` instead of the die's faces."""

    def build(base: type[Engine]) -> type[Engine]:
        def apply(self: Engine, action: Any) -> None:
            if isinstance(action, dict) and isinstance(action.get("face"), int):
                for legal in self.legal_actions():
                    if ({**legal, "face": action["face"]} == action
                            and 1 <= action["face"] <= top):
                        self._apply(action)
                        return
            base.apply(self, action)

        return type(f"D{top}{base.__name__}", (base,), {"apply": apply})

    return build


def early_reshuffle(base: type[Engine]) -> type[Engine]:
    """An Ouro de Tolo engine that shuffles the discards into an empty deck one step early: as
    soon as a card is due, not at the draw (OURO-AMB-05 reshuffle-discard). The card is drawn
    with the same probabilities; only the state of that one chance node differs."""

    def _need_card(self: Any, phase: str = "deal") -> None:
        base._need_card(self, phase)  # type: ignore[attr-defined]
        if not sum(self.deck) and sum(self.discard):
            for j, count in enumerate(self.discard):
                self.deck[j] += count
                self.discard[j] = 0

    return type(f"EarlyReshuffle{base.__name__}", (base,), {"_need_card": _need_card})


def round_starter_moves(seats: int) -> Builder:
    """A Dado de Ouro engine that passes the start of each round ``seats`` seats on (negative:
    counter-clockwise), a reading of DDO-ROUND-01 no option of DDO-AMB-04 has."""

    def build(base: type[Engine]) -> type[Engine]:
        def _next_round_starter(self: Any) -> int:
            current = self._round_starter if self._round_starter is not None else 0
            return int((current + seats) % self.players)

        return type(f"Starter{seats}{base.__name__}", (base,),
                    {"_next_round_starter": _next_round_starter})

    return build


def only_with(players: int, build: Builder) -> Builder:
    """An engine with the bug of ``build`` only at ``players`` players (a count-specific path).

    ``build`` must change only ``__init__`` (as ``with_parameter`` and ``with_ruling`` do).
    """

    def wrap(base: type[Engine]) -> type[Engine]:
        bad = build(base)

        def __init__(self: Engine, spec: Spec, config: Config) -> None:  # noqa: N807
            chosen = bad if config.players == players else base
            chosen.__init__(self, spec, config)

        return type(f"Only{players}{base.__name__}", (base,), {"__init__": __init__})

    return wrap


# -- which games a generic bad engine fits ------------------------------------------------------


def any_game(spec: Spec) -> bool:
    """Every game: nothing about the spec matters to the mistake."""
    return True


def has_chance(spec: Spec) -> bool:
    """Games with chance actions, so that there are chance probabilities to skew."""
    return any(a.get("actor") == "chance" for a in spec.section("actions"))


def has_action_fields(spec: Spec) -> bool:
    """Games with an action that carries a field besides its kind (a player, a die, a card)."""
    return any(set(a.get("params", {}).get("properties", {})) - {"kind"}
               for a in spec.section("actions"))


def kind_can_be_illegal(spec: Spec, *, games: int = 3, steps: int = 300) -> bool:
    """Games where an action of a legal kind can itself be illegal, so that an engine can accept
    it by ignoring one field: a roll for the wrong player, a card not in hand. Found by playing
    a few random games of the reference. In Pig (roll or hold; chance shows any face) no
    position has one, and an engine cannot get this wrong."""
    if not has_action_fields(spec):
        return False
    engine_type = engine_class(spec)
    for seed in range(games):
        engine = engine_type(spec, make_config(spec))
        rng = random.Random(seed)
        seen: dict[str, Action] = {}
        for _ in range(steps):
            if engine.is_terminal():
                break
            legal = engine.legal_actions()
            keys = {json.dumps(a, sort_keys=True): a for a in legal}
            kinds = {a.get("kind") for a in legal}
            if any(k not in keys and a.get("kind") in kinds for k, a in seen.items()):
                return True
            seen.update(keys)
            engine.apply(random_policy(engine, rng))
    return False


def closed_state(spec: Spec) -> bool:
    """Games whose state schema allows no undeclared field, so that a stray one is invalid."""
    return spec.state_schema.get("additionalProperties") is False


@dataclass(frozen=True)
class Generic:
    """A bad engine that can be built from any game's reference, for the games it fits."""

    name: str
    breaks: str
    check: str
    build: Builder
    fits: Callable[[Spec], bool] = any_game

    def for_game(self, game: str) -> BadEngine:
        """Return this bad engine built on ``game``."""
        return BadEngine(game, self.name, self.breaks, self.check, self.build)


GENERIC = [
    Generic("biased-chance", "chance outcomes with skewed probabilities", "CHANCE-DIST",
            biased_chance, has_chance),
    Generic("lax-apply", "an illegal action accepted by ignoring one field", "ILLEGAL-REJECTED",
            lax_apply, kind_can_be_illegal),
    Generic("reversed-order", "legal actions not in the canonical order", "DIFF-LEGAL",
            reversed_order),
    Generic("debug-field", "an extra field in the canonical state", "STATE-SCHEMA",
            debug_field, closed_state),
    Generic("stale-memo", "a state cache keyed by the actions goes stale", "DETERMINISM",
            stale_memo),
    Generic("ignores-extra-keys", "an action with a key its schema does not allow is accepted "
            "(the key is dropped)", "ILLEGAL-REJECTED", ignores_extra_keys),
    Generic("accepts-after-end", "actions are accepted after the game is over",
            "ILLEGAL-REJECTED", accepts_after_end),
]


def generic(game: str, spec: Spec | None = None) -> list[BadEngine]:
    """Return the generic bad engines that fit ``game`` (its spec from the registry by default)."""
    spec = get_spec(game) if spec is None else spec
    return [g.for_game(game) for g in GENERIC if g.fits(spec)]


# -- game-specific bad engines -----------------------------------------------------------------

SPECIFIC: dict[str, list[BadEngine]] = {
    "dado-de-ouro": [
        BadEngine("dado-de-ouro", "eleven-rounds",
                  "DDO-GAME-02 off by one: a game lasts eleven rounds, not ten",
                  "INVARIANT", with_parameter("rounds_per_game", lambda n: n + 1),
                  subject="DDO-INV-ROUNDS-PER-GAME"),
        BadEngine("dado-de-ouro", "match-to-two",
                  "DDO-MATCH-02 wrong end condition: the match ends at two games won, not three",
                  "INVARIANT", with_parameter("games_to_win", lambda n: n - 1),
                  subject="DDO-INV-MATCH-END"),
        BadEngine("dado-de-ouro", "tie-gains-reroll",
                  "DDO-TIE-02 wrong tie-break: the tie winner gains the re-roll, not the tied value",
                  "INVARIANT", with_ruling("DDO-AMB-12", "reroll-value"),
                  subject="DDO-INV-GAINER-HIGHEST"),
        BadEngine("dado-de-ouro", "rotating-starter",
                  "DDO-ROUND-01 the round starter rotates instead of staying with the game starter",
                  "DIFF-STATE", with_ruling("DDO-AMB-04", "rotate-clockwise")),
        BadEngine("dado-de-ouro", "d10-faces",
                  "DDO-TURN-01 a die face 9 is accepted: faces are checked against 1 to 10, not "
                  "the six-sided die's faces", "ILLEGAL-REJECTED", die_faces_up_to(10)),
        BadEngine("dado-de-ouro", "starts-at-one",
                  "DDO-SCORE-01 off by one: players start each game with one point, not zero",
                  "INVARIANT", with_parameter("starting_score", lambda n: n + 1),
                  subject="DDO-INV-START-ZERO"),
    ],
    "ruby-rhino": [
        BadEngine("ruby-rhino", "twenty-one-coins",
                  "RR-COMP-01 token not conserved: the engine counts 21 coins, not 20",
                  "INVARIANT", with_parameter("total_coins", lambda n: n + 1),
                  subject="RR-INV-COINS", players=2),
        BadEngine("ruby-rhino", "seven-coins-each",
                  "off by one in the setup: each player gets one coin fewer than printed",
                  "DIFF-STATE", with_parameter("coins_per_player", lambda n: n - 1), players=2),
        BadEngine("ruby-rhino", "ends-at-forty",
                  "RR-END-01 wrong end condition: the game ends at 40 points, not the target",
                  "INVARIANT", with_parameter("target_score", lambda n: n - 10),
                  subject="RR-INV-GAME-END", players=2),
    ],
    "ouro-de-tolo": [
        BadEngine("ouro-de-tolo", "one-fools-gold-short",
                  "OURO-COMP-01 token not conserved: one Fool's Gold stone is missing",
                  "INVARIANT",
                  with_parameter("stone_counts", lambda d: {**d, "fools_gold": d["fools_gold"] - 1}),
                  subject="OURO-INV-STONES-CONSERVED", players=3),
        BadEngine("ouro-de-tolo", "third-fools-gold",
                  "OURO-DRAW-05 off by one: the accident comes with the third Fool's Gold",
                  "INVARIANT", with_parameter("accident_fools_gold", lambda n: n + 1),
                  subject="OURO-INV-ACCIDENT-OUT", players=3),
        BadEngine("ouro-de-tolo", "one-dynamite-short",
                  "OURO-COMP-02 token not conserved: the deck has one Dynamite card too few",
                  "INVARIANT",
                  with_parameter("card_counts", lambda d: {**d, "dynamite": d["dynamite"] - 1}),
                  subject="OURO-INV-CARDS-CONSERVED", players=3),
        BadEngine("ouro-de-tolo", "early-reshuffle",
                  "OURO-CAX-04 under OURO-AMB-05 reshuffle-discard: the discards are shuffled "
                  "into the empty deck when a card is due, one step before the draw (the rule "
                  "example OURO-EX-DECK-RESHUFFLE-AT-DRAW names it; play finds it too, as a "
                  "state diff, since the search follows the spec's seek hint for the deck "
                  "running out)",
                  "DIFF-STATE", early_reshuffle, players=3),
        BadEngine("ouro-de-tolo", "steal-after-accident",
                  "OURO-CARD-08 under OURO-AMB-17 stop: a steal goes on after the taker's "
                  "accident", "DIFF-STATE", with_ruling("OURO-AMB-17", "complete"), players=3),
        BadEngine("ouro-de-tolo", "dynamite-four-stones",
                  "off by one in a card's text: Dynamite makes a player draw one stone too many",
                  "DIFF-STATE", with_parameter("dynamite_stones", lambda n: n + 1), players=3),
    ],
    "fool": [
        BadEngine("fool", "deals-eleven",
                  "off by one in the cards-per-player table: eleven cards dealt, not twelve",
                  "DIFF-STATE", with_parameter("cards_per_player", lambda n: n - 1), players=4),
        BadEngine("fool", "first-equal-card-is-worst",
                  "wrong tie-break: of two equal off-colour cards the first played is the worst "
                  "(the reference reads FOOL-AMB-05 as the last played)",
                  "DIFF-STATE", with_ruling("FOOL-AMB-05", "first-played"), players=4),
        BadEngine("fool", "eight-player-deal",
                  "FOOL-DEAL-03 misread only at eight players: ten cards each, not eleven",
                  "DIFF-STATE", only_with(8, with_parameter("cards_per_player", lambda n: n - 1)),
                  players=8),
        BadEngine("fool", "eleven-for-going-out",
                  "FOOL-SCORE-01 off by one: going out scores one point too many",
                  "INVARIANT", with_parameter("going_out_points", lambda n: n + 1),
                  subject="FOOL-INV-ROUND-SCORING", players=4),
    ],
}


def like(game: str, ambiguity: str, option: str, players: int) -> BadEngine:
    """An engine that plays ``option`` of ``ambiguity`` while claiming the configured ruling."""
    return BadEngine(game, f"like-{ambiguity}", f"{ambiguity} read as {option!r} (not the "
                     "configured option)", "DIFF-STATE", with_ruling(ambiguity, option),
                     players=players, behaves_like=(ambiguity, option))


#: Engines that each behave exactly like one non-default option (at least one per game): the kit
#: must name that option, and ``conform --infer`` must report it.
RULING_ENGINES: list[BadEngine] = [
    like("dado-de-ouro", "DDO-AMB-04", "rotate-clockwise", 4),
    like("fool", "FOOL-AMB-03", "eight-only", 7),
    like("fool", "FOOL-AMB-06", "first-played", 4),
    like("ruby-rhino", "RR-AMB-13", "matching-only", 2),
    like("ouro-de-tolo", "OURO-AMB-14", "at-once", 3),
]


#: Engines with a plain bug at one record's decision point: they follow no option of it, and
#: ``conform --infer`` must say so rather than name an option. Passing the start two seats on
#: matches no witness of DDO-AMB-04; passing it counter-clockwise matches, in that record's
#: witness position, the previous round's winner (seat 0), so only the games played show it.
DECISION_BUGS: list[BadEngine] = [
    BadEngine("dado-de-ouro", "starter-skips-a-seat", "DDO-ROUND-01 each round starts two "
              "seats on from the last: no reading of DDO-AMB-04", "DIFF-STATE",
              round_starter_moves(2), players=4, bug_at="DDO-AMB-04"),
    BadEngine("dado-de-ouro", "starter-counter-clockwise", "DDO-ROUND-01 the start of each "
              "round passes counter-clockwise: no reading of DDO-AMB-04", "DIFF-STATE",
              round_starter_moves(-1), players=4, bug_at="DDO-AMB-04"),
]


def playable_games() -> list[str]:
    """Return the registered games whose reference engine imports (a game may land spec first)."""
    out = []
    for game in game_ids():
        try:
            engine_class(get_spec(game))
        except RulespecError:
            continue
        out.append(game)
    return out


def corpus(games: list[str] | None = None) -> list[BadEngine]:
    """Return every bad engine of ``games`` (default: every playable game in the registry)."""
    out: list[BadEngine] = []
    for game in games or playable_games():
        out.extend(generic(game))
        out.extend(SPECIFIC.get(game, []))
    return out
