"""The Curse of the Ruby Rhino (Ken Brunson, Gamewright): the reference interpreter.

Source: "The Curse of the Ruby Rhino Rulebook", English rules sheet as transcribed in
``003_adb8c9f3c7bb3214.txt``; the rules are encoded in ``specs/ruby-rhino.yaml``, whose clause
ids (``RR-...``) the code cites. The dice faces and part of the dice table are not printed: the
face lists and the missing rows are parameters, and every open question is an ambiguity record
(RR-AMB-01 to RR-AMB-16) whose options are all implemented here.

Seats: the player to the left of player ``i`` is player ``(i + 1) % n``; turns pass to the left.
A turn is one chance action per die (die 0 first), then, under RR-AMB-04 option player-chooses,
a ``choose_count`` decision for a chest row; then the legend row is carried out in its printed
order (collect from the left, the chest step, take the Rhino; RR-AMB-08 each-step-rhino-first
takes the Rhino first).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

#: The face kinds, in the canonical order used to name a pair of faces ("coin1+rhino").
from rulespec.reference import (
    CHANCE,
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    Rejection,
    config_tables,
    equal_weights,
    inlines_apply,
    is_among,
    lead_over_others,
    ranking,
)
from rulespec.spec import Spec

FACES: tuple[str, ...] = ("coin1", "coin2", "open_chest", "closed_chest", "rhino")
#: The chest steps a legend row may have.
CHEST_STEPS: frozenset[str] = frozenset({"none", "collect", "put", "collect_all", "put_all"})
#: The Rhino's place when no player holds it.
IN_CHEST = -1

AMB_DICE = "RR-AMB-01"
AMB_RHINO_CHEST = "RR-AMB-02"
AMB_TWO_RHINOS = "RR-AMB-03"
AMB_COUNT = "RR-AMB-04"
AMB_LEFT = "RR-AMB-05"
AMB_CANT = "RR-AMB-06"
AMB_EMPTY_ALL = "RR-AMB-07"
AMB_WHEN_ENDS = "RR-AMB-08"
AMB_SCORING = "RR-AMB-09"
AMB_FIRST = "RR-AMB-10"
AMB_NEXT_ROUND = "RR-AMB-11"
AMB_KEEP_RHINO = "RR-AMB-12"
AMB_MATCHING = "RR-AMB-13"
AMB_OTHERS_RANK = "RR-AMB-14"
AMB_PUT_ALL_WHOSE = "RR-AMB-15"
AMB_DIE_ORDER = "RR-AMB-16"

#: RR-AMB-06 options under which an action that cannot be completed is done as far as possible.
_PARTIAL = frozenset({"partial-and-pass", "partial-keep-roll-again"})
#: RR-AMB-06 options under which such an action keeps its Roll again mark.
_KEEPS_ROLL_AGAIN = frozenset({"partial-keep-roll-again", "void-keep-roll-again"})

# Phases of the canonical state.
FIRST_PLAYER = "first_player"
ROLL = "roll"
CHOOSE = "choose"
OVER = "over"


@dataclass(frozen=True, slots=True)
class Effect:
    """One row of the dice roll legend: what a pair of faces does, in the order done."""

    pair: str
    left: int
    chest: str
    chest_count: int
    rhino: bool
    again: bool
    matching: bool
    #: True when the row moves "1 or 2" coins to or from the chest (RR-AMB-04).
    choosable: bool

    def text(self, count: int) -> str:
        """Return what the row does, in words (``count`` coins for a chest step)."""
        parts = []
        if self.left:
            parts.append(f"collect {self.left} coin(s) from the left")
        if self.chest in ("collect", "put"):
            where = "from" if self.chest == "collect" else "in"
            parts.append(f"{self.chest} {count} coin(s) {where} the treasure chest")
        elif self.chest == "collect_all":
            parts.append("collect all coins from the treasure chest")
        elif self.chest == "put_all":
            parts.append("put all coins in the treasure chest")
        if self.rhino:
            parts.append("take the Ruby Rhino")
        if self.again:
            parts.append("roll again")
        return ", ".join(parts) or "nothing happens"


def _pair_name(a: str, b: str) -> str:
    first, second = sorted((a, b), key=FACES.index)
    return f"{first}+{second}"


def _read_legend(config: Config, faces: list[list[str]]) -> dict[tuple[str, str], Effect]:
    """Build the effect of every ordered pair of faces the dice can show."""
    rows: dict[str, dict[str, Any]] = {str(r["pair"]): dict(r)
                                       for r in config.param("dice_outcomes")}
    # Only the printed chest rows say "1 or 2" (RR-DICE-04, RR-DICE-05): a count RR-AMB-04 may
    # let the player choose. The rows that are not printed (RR-AMB-02, RR-AMB-03) give none.
    printed = set(rows)
    rows[_pair_name("rhino", "open_chest")] = dict(config.param("rhino_open_chest"))
    rows[_pair_name("rhino", "closed_chest")] = dict(config.param("rhino_closed_chest"))
    rows[_pair_name("rhino", "rhino")] = dict(config.param("rhino_rhino"))
    effects: dict[tuple[str, str], Effect] = {}
    first, second = faces[0], faces[-1]
    for a in dict.fromkeys(first):
        for b in dict.fromkeys(second):
            name = _pair_name(a, b)
            row = rows.get(name)
            if row is None:
                raise ConfigError(f"the dice can show {name!r} but dice_outcomes has no row "
                                  "for it; add the row or change dice_faces")
            if row["chest"] not in CHEST_STEPS:
                raise ConfigError(f"row {name!r} has an unknown chest step {row['chest']!r}")
            effects[(a, b)] = Effect(name, int(row["left"]), str(row["chest"]),
                                     int(row["chest_count"]), bool(row["rhino"]),
                                     bool(row["again"]), a == b,
                                     name in printed and row["chest"] in ("collect", "put"))
    return effects


def _die_one_faces(config: Config) -> dict[str, str]:
    """Return, for each pair of faces, the face the dice roll table prints under Die 1.

    Read from the table as printed (parameter printed_legend, names mapped to face ids by
    face_names): a pair of dice_outcomes by its printed row, and a pair no row prints (the Rhino
    with a chest face or with itself) by the cut-off row, whose only cell is the Die 1 face.
    """
    face_of = {str(name): face for face, name in config.param("face_names").items()}
    legend = {int(r["row"]): r for r in config.param("printed_legend")}
    out: dict[str, str] = {}
    for row in config.param("dice_outcomes"):
        printed = legend.get(int(row.get("printed_row", 0)))
        face = face_of.get(str(printed["die_1"])) if printed else None
        if face is not None:
            out[str(row["pair"])] = face
    for printed in legend.values():
        face = face_of.get(str(printed["die_1"]))
        if printed.get("action") is None and face is not None:
            for other in FACES:
                out.setdefault(_pair_name(face, other), face)
    return out


@dataclass(frozen=True, slots=True)
class _Tables:
    """What a configuration's dice and legend rows precompute (shared, read-only)."""

    effects: dict[tuple[str, str], Effect]
    #: Under RR-AMB-16 ordered-as-printed: the ordered pairs of different faces (die 0, die 1)
    #: that show no printed row the right way round, each with the row that does nothing.
    unprinted: dict[tuple[str, str], Effect]
    #: The pairs of different faces for which no Die 1 face is known (custom parameters).
    unoriented: frozenset[str]
    die_outcomes: list[list[tuple[Action, Fraction]]]
    die_actions: list[list[Action]]
    #: Per die, how many faces show each outcome (the outcomes' integer weights; tuples, so a
    #: sampler may remember their draw tables).
    die_counts: list[tuple[int, ...]]
    #: The die of each precomputed roll action, by the action's id.
    die_of: dict[int, int]
    #: What ``chance_weights`` hands out for each die: its rolls and their weights.
    die_weighted: list[tuple[list[Action], tuple[int, ...]]]
    #: Per die, the outcomes' exact probabilities (``chance_split`` copies them).
    die_probs: list[list[Fraction]]


#: The legend rows whose readings RR-AMB-02 and RR-AMB-03 rule.
_RHINO_CHEST_PAIRS = frozenset({_pair_name("rhino", "open_chest"),
                                _pair_name("rhino", "closed_chest")})
_TWO_RHINOS = _pair_name("rhino", "rhino")

#: Parameters the precomputed tables depend on.
_TABLE_PARAMS = ("dice_faces", "dice_outcomes", "rhino_open_chest", "rhino_closed_chest",
                 "rhino_rhino", "printed_legend", "face_names")
_TABLE_CACHE: dict[str, _Tables] = {}
_TABLE_CACHE_SIZE = 64


def _tables(config: Config, faces: list[list[str]]) -> _Tables:
    """Return the legend effects and chance outcomes for this configuration (cached, since
    playouts start many games with the same parameters)."""
    # repr tells JSON values apart (1, 1.0 and true differ) and costs far less than a JSON
    # dump; two spellings of one mapping only cost a second entry.
    key = repr([config.param(name) for name in _TABLE_PARAMS])
    cached = _TABLE_CACHE.get(key)
    if cached is not None:
        return cached
    effects = _read_legend(config, faces)
    die_one = _die_one_faces(config)
    unprinted = {(a, b): Effect(e.pair, 0, "none", 0, False, False, False, False)
                 for (a, b), e in effects.items()
                 if a != b and e.pair in die_one and die_one[e.pair] != a}
    unoriented = frozenset(e.pair for (a, b), e in effects.items()
                           if a != b and e.pair not in die_one)
    die_outcomes: list[list[tuple[Action, Fraction]]] = []
    for d, die in enumerate(faces):
        # Outcomes in the order each face kind first appears on the die.
        die_outcomes.append([({"kind": "roll", "die": d, "face": f},
                              Fraction(die.count(f), len(die))) for f in dict.fromkeys(die)])
    die_actions = [[a for a, _ in o] for o in die_outcomes]
    die_counts = [tuple(die.count(a["face"]) for a in actions)
                  for die, actions in zip(faces, die_actions, strict=True)]
    die_of = {id(a): d for d, actions in enumerate(die_actions) for a in actions}
    tables = _Tables(effects, unprinted, unoriented, die_outcomes, die_actions, die_counts, die_of,
                     list(zip(die_actions, die_counts, strict=True)),
                     [[p for _, p in o] for o in die_outcomes])
    if len(_TABLE_CACHE) >= _TABLE_CACHE_SIZE:
        _TABLE_CACHE.clear()
    _TABLE_CACHE[key] = tables
    return tables


@dataclass(frozen=True, slots=True)
class _Setup:
    """What a configuration fixes, read and checked once (shared by its games, read-only)."""

    n: int
    total: int
    deal: int
    target: int
    names: dict[str, str]
    choice_counts: tuple[int, ...]
    dice_count: int
    faces: list[list[str]]
    tables: _Tables
    choose_actions: list[Action]
    first_actions: list[Action]
    first_outcomes: list[tuple[Action, Fraction]]


class RubyRhino(Engine):
    """The Curse of the Ruby Rhino for 2 to 5 players, every ruling selectable."""

    RULINGS: ClassVar[dict[str, frozenset[str]]] = {
        AMB_COUNT: frozenset({"coin-die-decides", "player-chooses"}),
        AMB_LEFT: frozenset({"spill-over", "skip-to-first-who-can"}),
        AMB_CANT: frozenset({"void-and-pass", "partial-and-pass", "partial-keep-roll-again",
                             "void-keep-roll-again"}),
        AMB_EMPTY_ALL: frozenset({"nothing-to-move-is-complete",
                                  "nothing-to-move-cannot-complete"}),
        AMB_WHEN_ENDS: frozenset({"after-action", "each-step", "each-step-rhino-first"}),
        AMB_SCORING: frozenset({"reward-coins", "others-coins"}),
        AMB_FIRST: frozenset({"player-zero", "random-first-player"}),
        AMB_NEXT_ROUND: frozenset({"continue-order", "round-winner", "same-first-player",
                                   "next-starter", "continue-with-roll-again"}),
        AMB_KEEP_RHINO: frozenset({"back-to-chest", "winner-keeps"}),
        AMB_MATCHING: frozenset({"legend-marks", "matching-only"}),
        AMB_OTHERS_RANK: frozenset({"by-score", "all-second"}),
        AMB_PUT_ALL_WHOSE: frozenset({"roller", "everyone"}),
        AMB_DIE_ORDER: frozenset({"unordered", "ordered-as-printed"}),
    }
    VARIANTS: ClassVar[frozenset[str]] = frozenset()
    END_CLAUSES: ClassVar[tuple[str, ...]] = ("RR-END-01",)
    SHARED: ClassVar[frozenset[str]] = frozenset({
        "_names", "_effects", "_die_outcomes", "_die_actions", "_faces", "_choose_actions",
        "_first_actions", "_first_outcomes", "_last_action", "_first_weights", "_die_counts",
        "_die_of", "_die_weighted", "_die_probs", "_unprinted"})
    #: What only ``describe`` reads (what the last action did): never play. ``rulespec verify``
    #: leaves it out of an engine's memory.
    NARRATION: ClassVar[frozenset[str]] = frozenset({
        "_last_action", "_last_roller", "_last_effect", "_last_count", "_last_complete",
        "_last_winner"})

    # What every roll reads lives in slots (``clone`` copies them like the rest): an instance
    # dict of fewer than 30 attributes keeps CPython 3.11's attribute and method lookups on
    # their fast paths.
    __slots__ = ("_chest", "_coins", "_dice", "_dice_count", "_die_of", "_die_weighted",
                 "_effects", "_first", "_history", "_last_action", "_last_complete", "_last_count",
                 "_last_effect", "_last_roller", "_last_winner", "_n", "_phase", "_result",
                 "_rhino", "_rolled", "_round", "_scores", "_starter", "_to_move", "_turn",
                 "_unprinted")

    def __init__(self, spec: Spec, config: Config) -> None:
        super().__init__(spec, config)
        # What the configuration fixes, read and checked once per configuration (the
        # attributes below name the shared, read-only values: see SHARED).
        setup = config_tables(spec, config, "ruby-rhino", self._setup)
        n = self._n = setup.n
        self._total = setup.total
        self._deal = setup.deal
        self._target = setup.target
        self._names = setup.names
        self._choice_counts = setup.choice_counts
        self._dice_count = setup.dice_count
        self._effects = setup.tables.effects
        self._unprinted = setup.tables.unprinted
        self._die_outcomes = setup.tables.die_outcomes
        self._die_actions = setup.tables.die_actions
        self._faces = setup.faces
        self._choose_actions = setup.choose_actions
        self._first_actions = setup.first_actions
        self._first_outcomes = setup.first_outcomes
        self._first_weights = equal_weights(n)
        self._die_counts = setup.tables.die_counts
        self._die_weighted = setup.tables.die_weighted
        self._die_probs = setup.tables.die_probs
        self._die_of = setup.tables.die_of
        # The game state.
        self._round = 1
        self._scores = [0] * n
        self._history: list[dict[str, Any]] = []
        self._result: dict[str, Any] | None = None
        self._first = 0
        self._starter = 0
        self._turn = 0
        self._dice: list[str | None] = [None] * self._dice_count
        self._rolled = 0
        self._coins: list[int] = []
        self._chest = 0
        self._rhino = IN_CHEST
        self._deal_round(IN_CHEST)
        # What the last action did, for describe() called after apply().
        self._last_action: Action | None = None
        self._last_roller = 0
        self._last_effect: Effect | None = None
        self._last_count = 0
        self._last_complete = True
        self._last_winner: int | None = None
        if self.decide(AMB_FIRST, "random-first-player"):
            self._phase = FIRST_PLAYER
            self._to_move: Actor | None = CHANCE
        else:
            self._phase = ROLL
            self._to_move = CHANCE

    def _setup(self) -> _Setup:
        """Read and check what the configuration fixes (called once per configuration; it
        changes nothing in the engine)."""
        config = self.config
        n = config.players
        total = int(config.param("total_coins"))
        deal = int(config.param("coins_per_player"))
        if deal * n > total:
            raise ConfigError(f"coins_per_player {deal} for {n} players needs more than the "
                              f"{total} coins of total_coins; lower one or raise the other")
        faces: list[list[str]] = [list(d) for d in config.param("dice_faces")]
        tables = _tables(config, faces)
        self._check_can_end(tables.effects, total, deal, n)
        if tables.unoriented and self.ruled(AMB_DIE_ORDER) == "ordered-as-printed":
            raise ConfigError("under RR-AMB-16 ordered-as-printed every pair of different faces "
                              "needs the face printed under Die 1, and printed_legend gives none "
                              f"for {', '.join(sorted(tables.unoriented))}; add printed rows "
                              "(printed_row) or rule RR-AMB-16 unordered")
        first_actions: list[Action] = [{"kind": "first_player", "player": p} for p in range(n)]
        choice_counts: tuple[int, ...] = tuple(config.param("chest_choice_counts"))
        return _Setup(
            n=n, total=total, deal=deal, target=int(config.param("target_score")),
            names=dict(config.param("face_names")), choice_counts=choice_counts,
            dice_count=len(faces), faces=faces, tables=tables,
            choose_actions=[{"kind": "choose_count", "count": c} for c in choice_counts],
            first_actions=first_actions,
            first_outcomes=[(a, Fraction(1, n)) for a in first_actions])

    def _check_can_end(self, effects_by_pair: dict[tuple[str, str], Effect], total: int,
                       deal: int, n: int) -> None:
        """Refuse dice under which no round could end or no point be scored, so that every
        accepted configuration ends with probability 1 in random play."""
        effects = effects_by_pair.values()
        problems = []
        if not any(e.rhino for e in effects):
            problems.append("no roll takes the Ruby Rhino (RR-RHINO-01)")
        if not any(e.left or e.chest in ("put", "put_all") for e in effects):
            problems.append("no roll takes coins away from a player, so the Rhino's holder "
                            "never runs out (RR-ROUND-01)")
        if (any(e.chest in ("put", "put_all") for e in effects)
                and not any(self._takes_rhino_when_broke(e) for e in effects)):
            problems.append("every coin can end up in the chest with the Rhino, and then no roll "
                            "can take the Rhino or give a player coins (RR-RHINO-01, RR-NOTE-03 "
                            "under RR-AMB-06 " + self.ruled(AMB_CANT) + ")")
        if (self.ruled(AMB_SCORING) == "reward-coins" and total == deal * n
                and not any(e.chest in ("put", "put_all") for e in effects)):
            problems.append("the chest starts empty and no roll puts coins in it, so no round "
                            "scores under RR-AMB-09 reward-coins")
        if problems:
            raise ConfigError("these dice_faces and dice_outcomes cannot end the game: "
                              + "; ".join(problems) + "; change the faces or the rows")

    def _takes_rhino_when_broke(self, effect: Effect) -> bool:
        """Return whether ``effect`` takes the Rhino or gives the roller coins when every coin is
        in the chest (so nobody can pay): the way out of that position (issue 42's finding)."""
        if not (effect.rhino or effect.chest in ("collect", "collect_all")):
            return False
        if self.ruled(AMB_CANT) in _PARTIAL:
            return True  # done as far as possible: the Rhino is taken, the chest pays
        if effect.left:
            return False
        if effect.chest == "put":
            return effect.chest_count == 0 and not effect.choosable
        if effect.chest == "put_all":
            return self.ruled(AMB_EMPTY_ALL) == "nothing-to-move-is-complete"
        return True

    # -- set-up -----------------------------------------------------------------------------------

    def _deal_round(self, keeper: int) -> None:
        """Deal coins_per_player to everyone, the rest and the Rhino to the chest (RR-SETUP-02,
        RR-SETUP-07, RR-ROUND-05); ``keeper`` keeps the Rhino (IN_CHEST: nobody)."""
        self._coins = [self._deal] * self._n
        self._chest = self._total - self._deal * self._n
        self._rhino = keeper

    # -- whose move, what is legal ------------------------------------------------------------------

    def current_player(self) -> Actor | None:
        """Return who moves now: CHANCE while dice are rolled, the roller when choosing."""
        return self._to_move

    def legal_actions(self) -> list[Action]:
        """Return the legal actions: the next die's faces (in the die's order), the counts, or
        the first-player draw."""
        phase = self._phase
        if phase == ROLL:
            return list(self._die_actions[self._rolled])
        if phase == CHOOSE:
            return list(self._choose_actions)
        if phase == FIRST_PLAYER:
            return list(self._first_actions)
        return []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return the next die's faces with their exact probabilities.

        The list is the engine's precomputed one (shared: do not change it), so a driver can
        remember its weights by identity.
        """
        if self._phase == ROLL:
            return self._die_outcomes[self._rolled]
        if self._phase == FIRST_PLAYER:
            return self._first_outcomes
        return super().chance_outcomes()

    def chance_split(self) -> tuple[list[Action], list[Fraction]]:
        """Return the next die's faces and their probabilities as two lists (copies of the
        precomputed ones)."""
        if self._phase == ROLL:
            rolled = self._rolled
            return list(self._die_actions[rolled]), list(self._die_probs[rolled])
        return super().chance_split()

    def chance_weights(self) -> tuple[list[Action], tuple[int, ...]] | None:
        """Return the chance outcomes with integer weights (face counts on the die; one each
        for the first-player draw), the same draws as ``chance_outcomes`` without fractions."""
        if self._phase == ROLL:
            return self._die_weighted[self._rolled]
        if self._phase == FIRST_PLAYER:
            return self._first_actions, self._first_weights
        return None

    @inlines_apply
    def apply(self, action: Any) -> None:
        """Apply ``action`` if it is exactly a legal action, else raise IllegalAction.

        The base's check, with its common case inlined: the action is one of the precomputed
        action objects themselves (no list copied).
        """
        phase = self._phase
        # One of the precomputed rolls itself (alive, so its id is its own): legal when it is
        # a roll of the die rolled next. Then the roll is recorded here: ``_apply`` inlined.
        if phase == ROLL:
            rolled = self._rolled
            if self._die_of.get(id(action), -1) == rolled:
                self._last_action = action
                self._last_roller = self._turn
                self._last_effect = None
                self._dice[rolled] = action["face"]
                rolled = self._rolled = rolled + 1
                if rolled == self._dice_count:
                    self._dice_rolled()
                return
        legal = (self._die_actions[self._rolled] if phase == ROLL else
                 self._choose_actions if phase == CHOOSE else
                 self._first_actions if phase == FIRST_PLAYER else None)
        if legal is not None:
            try:
                found = legal[legal.index(action)]
            except ValueError:
                found = None
            if found is not None and (found is action or is_among(action, legal)):
                self._apply(action)
                return
        raise self.illegal(action)

    def clone(self) -> RubyRhino:
        """Return an independent copy, exact (what ``copy.deepcopy`` gives, but sharing).

        Copied: what an action changes in place (the coins, the dice, the scores, the list of
        finished rounds, the decision counts). Shared: the configuration's tables (``SHARED``),
        numbers, strings and frozen values, the finished rounds' records and the result (each
        made once and never changed after). A subclass (which may add attributes of its own)
        is copied by the base's ``clone``.
        """
        if type(self) is not RubyRhino:
            return super().clone()
        other = object.__new__(RubyRhino)
        other.__dict__.update(self.__dict__)
        other._decisions = self._decisions.copy()
        # Slots: the numbers, strings and shared values as they are.
        other._chest = self._chest
        other._dice_count = self._dice_count
        other._die_of = self._die_of
        other._die_weighted = self._die_weighted
        other._effects = self._effects
        other._first = self._first
        other._last_action = self._last_action
        other._last_complete = self._last_complete
        other._last_count = self._last_count
        other._last_effect = self._last_effect
        other._last_roller = self._last_roller
        other._last_winner = self._last_winner
        other._n = self._n
        other._phase = self._phase
        other._result = self._result
        other._rhino = self._rhino
        other._rolled = self._rolled
        other._round = self._round
        other._starter = self._starter
        other._to_move = self._to_move
        other._turn = self._turn
        other._unprinted = self._unprinted
        other._coins = self._coins[:]
        other._dice = self._dice[:]
        other._scores = self._scores[:]
        other._history = self._history[:]
        return other

    def rule_rejection(self, action: Action) -> Rejection:
        """Say why ``action`` is illegal now, citing the clause it breaks."""
        kind = action["kind"]
        phase = self._phase
        if kind == "first_player":
            if phase != FIRST_PLAYER:
                return Rejection("the first player is only drawn at the start of the game, under "
                                 "RR-AMB-10 option random-first-player", ("RR-TURN-01",))
            return Rejection(f"player must be a player index 0-{self._n - 1}, got "
                             f"{action.get('player')!r} (and no other keys)", ("RR-TURN-01",))
        if kind == "roll":
            if phase == CHOOSE:
                return Rejection(f"player {self._turn} must first choose how many coins to move",
                                 ("RR-DICE-04", "RR-DICE-05"))
            if phase != ROLL:
                return Rejection("no die is rolled before the first player is drawn",
                                 ("RR-TURN-01",))
            die = action.get("die")
            if die != self._rolled:
                return Rejection(f"die {self._rolled} is rolled next, not die {die!r}",
                                 ("RR-TURN-02",))
            faces = sorted(set(self._faces[self._rolled]), key=FACES.index)
            return Rejection(f"die {die} has no face {action.get('face')!r}; its faces: "
                             f"{', '.join(faces)} (and an action has only kind, die and face)",
                             ("RR-COMP-02", "RR-TURN-02"))
        if phase != CHOOSE:
            return Rejection("a count is only chosen after a chest face with a coin face, under "
                             "RR-AMB-04 option player-chooses", ("RR-DICE-04", "RR-DICE-05"))
        return Rejection(f"count must be one of {list(self._choice_counts)!r}, got "
                         f"{action.get('count')!r}", ("RR-DICE-04", "RR-DICE-05"))

    # -- playing -------------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        kind = action["kind"]
        self._last_action = action
        self._last_roller = self._turn
        self._last_effect = None
        if kind == "roll":
            rolled = self._rolled
            self._dice[rolled] = action["face"]
            rolled = self._rolled = rolled + 1
            if rolled == self._dice_count:
                self._dice_rolled()
        elif kind == "choose_count":
            effect = self._effects[(self._dice[0], self._dice[-1])]  # type: ignore[index]
            self._resolve(effect, int(action["count"]))
        else:
            self._first = self._starter = self._turn = int(action["player"])
            self._phase = ROLL

    def _dice_rolled(self) -> None:
        """Carry out the legend row of the dice just rolled, or ask for a count first."""
        dice = self._dice
        first, second = dice[0], dice[-1]
        effect = self._effects[(first, second)]  # type: ignore[index]
        self.reached(AMB_DICE)  # the faces rolled are the ruled dice_faces
        if (first != second and self.decide(AMB_DIE_ORDER, "ordered-as-printed")
                and (first, second) in self._unprinted):
            # No printed row has these faces on these dice: nothing happens (RR-AMB-16).
            effect = self._unprinted[(first, second)]  # type: ignore[index]
        elif effect.pair in _RHINO_CHEST_PAIRS:
            # The rows for a Rhino with a chest, or two Rhinos, are the ruled parameters.
            self.reached(AMB_RHINO_CHEST)
        elif effect.pair == _TWO_RHINOS:
            self.reached(AMB_TWO_RHINOS)
        if effect.choosable and self.decide(AMB_COUNT, "player-chooses"):
            self._phase = CHOOSE
            self._to_move = self._turn
            return
        self._resolve(effect, effect.chest_count)

    def _complete(self, effect: Effect, count: int, skip: bool) -> bool:
        """Return True when every step of the row can be done in full (RR-NOTE-03); ``skip``
        is the RR-AMB-05 reading (collect from the first player who can pay)."""
        me = self._turn
        coins = self._coins
        if effect.left:
            if skip:
                if not any(coins[p] >= effect.left for p in range(self._n) if p != me):
                    return False
            elif sum(coins) - coins[me] < effect.left:
                return False
        chest = effect.chest
        if chest == "collect":
            return self._chest >= count
        if chest == "put":
            return coins[me] >= count
        if chest == "collect_all":
            return self._chest > 0 or self.decide(AMB_EMPTY_ALL, "nothing-to-move-is-complete")
        if chest == "put_all":
            have = sum(coins) if self.decide(AMB_PUT_ALL_WHOSE, "everyone") else coins[me]
            return have > 0 or self.decide(AMB_EMPTY_ALL, "nothing-to-move-is-complete")
        return True

    def _resolve(self, effect: Effect, count: int) -> None:
        """Carry out a legend row for the roller, then end the round or pass the turn."""
        me = self._turn
        # One decision point per action that collects from the left (RR-AMB-05).
        skip = bool(effect.left) and self.decide(AMB_LEFT, "skip-to-first-who-can")
        complete = self._complete(effect, count, skip)
        self._last_effect = effect
        self._last_count = count
        self._last_complete = complete
        self._last_winner = None
        cant = "" if complete else self.ruling(AMB_CANT)
        if complete or cant in _PARTIAL:
            winner = self._steps(effect, count, me, skip)
            if winner is None and self._rhino >= 0 and self._coins[self._rhino] == 0:
                winner = self._rhino  # RR-ROUND-01, checked after the action (RR-AMB-08)
            if winner is not None:
                self._last_winner = winner
                self._end_round(winner, effect, complete, cant)
                return
        again = self._rolls_again(effect, complete, cant)
        self._dice = [None] * self._dice_count
        self._rolled = 0
        self._phase = ROLL
        self._to_move = CHANCE
        if not again:
            self._turn = (me + 1) % self._n

    def _rolls_again(self, effect: Effect, complete: bool, cant: str) -> bool:
        """Return True when the row gives the roller another turn: its Roll again mark
        (RR-NOTE-01, RR-DICE-08; RR-AMB-13), kept or lost when the action could not be
        completed (RR-AMB-06)."""
        again = effect.again and (complete or cant in _KEEPS_ROLL_AGAIN)
        if again and not effect.matching and self.decide(AMB_MATCHING, "matching-only"):
            again = False
        return again

    def _steps(self, effect: Effect, count: int, me: int, skip: bool) -> int | None:
        """Do the row's steps as far as possible; return a round winner found mid-action under
        RR-AMB-08 each-step or each-step-rhino-first, else None."""
        coins = self._coins
        # The printed rows name the coins first and the Rhino last; RR-AMB-08 says whether the
        # Rhino may be taken first (only asked of a row that does both).
        rhino_first = (effect.rhino and (effect.left > 0 or effect.chest != "none")
                       and self.decide(AMB_WHEN_ENDS, "each-step-rhino-first"))
        if rhino_first:
            winner = self._take_rhino(me)
            if winner is not None:
                return winner
        if effect.left:
            winner = self._collect_left(effect.left, me, skip)
            if winner is not None:
                return winner
        chest = effect.chest
        if chest in ("collect", "collect_all"):
            take = self._chest if chest == "collect_all" else min(count, self._chest)
            self._chest -= take
            coins[me] += take
        elif chest == "put_all" and self.decide(AMB_PUT_ALL_WHOSE, "everyone"):
            # Every player's coins go to the chest: the Rhino's holder, if any, is emptied.
            self._chest += sum(coins)
            for p in range(self._n):
                coins[p] = 0
            if self._rhino >= 0 and self._ends_mid_action():
                return self._rhino
        elif chest in ("put", "put_all"):
            give = coins[me] if chest == "put_all" else min(count, coins[me])
            coins[me] -= give
            self._chest += give
            if self._rhino == me and coins[me] == 0 and self._ends_mid_action():
                return me
        if effect.rhino and not rhino_first:
            return self._take_rhino(me)
        return None

    def _take_rhino(self, me: int) -> int | None:
        """Take the Ruby Rhino (RR-RHINO-01: from wherever it stands); return the roller when
        that ends the round at once (RR-AMB-08)."""
        self._rhino = me
        if self._coins[me] == 0 and self._ends_mid_action():
            return me
        return None

    def _ends_mid_action(self) -> bool:
        """Return True when the round ends the moment the holder is emptied (RR-AMB-08)."""
        return self.ruling(AMB_WHEN_ENDS) != "after-action"

    def _collect_left(self, amount: int, me: int, skip: bool) -> int | None:
        """Collect ``amount`` coins from the players to the left (RR-LEFT-01, RR-LEFT-02,
        RR-AMB-05); return the holder emptied mid-action under RR-AMB-08 each-step."""
        coins = self._coins
        n = self._n
        if skip:
            best = -1
            for step in range(1, n):
                p = (me + step) % n
                if coins[p] >= amount:
                    best = p
                    break
                if coins[p] > 0 and (best < 0 or coins[p] > coins[best]):
                    best = p
            if best < 0:
                return None
            take = min(amount, coins[best])
            coins[best] -= take
            coins[me] += take
            if best == self._rhino and coins[best] == 0 and self._ends_mid_action():
                return best
            return None
        need = amount
        for step in range(1, n):
            if not need:
                break
            p = (me + step) % n
            take = min(need, coins[p])
            if take:
                coins[p] -= take
                coins[me] += take
                need -= take
                if p == self._rhino and coins[p] == 0 and self._ends_mid_action():
                    return p
        return None

    def _end_round(self, winner: int, effect: Effect, complete: bool, cant: str) -> None:
        """Give the chest to the round winner, score, and end the game or deal a new round
        (RR-ROUND-03, RR-ROUND-04, RR-ROUND-05, RR-END-01); ``effect``, ``complete`` and
        ``cant`` are the roll that ended the round (whose Roll again RR-AMB-11 may carry)."""
        coins = self._coins
        at_end = list(coins)
        reward = self._chest
        coins[winner] += reward
        self._chest = 0
        points = (coins[winner] if self.decide(AMB_SCORING, "reward-coins")
                  else sum(coins) - coins[winner])
        self._scores[winner] += points
        self._history.append({"round": self._round, "winner": winner, "coins_at_end": at_end,
                              "reward": reward, "points": points})
        self._dice = [None] * self._dice_count
        self._rolled = 0
        if self._scores[winner] >= self._target:
            self._phase = OVER
            self._to_move = None
            self._result = self._make_result(winner)
            return
        rule = self.ruling(AMB_NEXT_ROUND)
        if rule == "continue-order":
            start = (self._turn + 1) % self._n
        elif rule == "continue-with-roll-again":
            again = self._rolls_again(effect, complete, cant)
            start = self._turn if again else (self._turn + 1) % self._n
        elif rule == "round-winner":
            start = winner
        elif rule == "same-first-player":
            start = self._first
        else:
            start = (self._starter + 1) % self._n
        self._round += 1
        self._deal_round(winner if self.decide(AMB_KEEP_RHINO, "winner-keeps") else IN_CHEST)
        self._starter = self._turn = start
        self._phase = ROLL
        self._to_move = CHANCE

    def _make_result(self, winner: int) -> dict[str, Any]:
        others = [p for p in range(self._n) if p != winner]
        # RR-AMB-14: the others are ranked by their scores, or all share second place.
        rest = (ranking(self._scores, others) if self.decide(AMB_OTHERS_RANK, "by-score")
                else [others])
        return {"scores": list(self._scores), "ranking": [[winner], *(g for g in rest if g)],
                "winners": [winner], "rounds": self._round}

    # -- reporting -----------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state."""
        return {
            "to_move": self._to_move,
            "phase": self._phase,
            "round": self._round,
            "turn": self._turn,
            "starter": self._starter,
            "dice": list(self._dice),
            "coins": list(self._coins),
            "chest": self._chest,
            "rhino": "chest" if self._rhino < 0 else self._rhino,
            "scores": list(self._scores),
            # The finished rounds' records are shared with every later state, as Dado de Ouro's
            # and Fool's are (nobody changes a state): each is made once, when its round ends,
            # and never changed after. Copying them made a long game's states quadratic.
            "history": list(self._history),
            "result": self.result(),
        }

    def result(self) -> dict[str, Any] | None:
        """Return scores, ranking and the winner once a player reaches the target score."""
        if self._result is None:
            return None
        return {"scores": list(self._result["scores"]),
                "ranking": [list(g) for g in self._result["ranking"]],
                "winners": list(self._result["winners"]), "rounds": self._result["rounds"]}

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line of narration for ``action`` (with its outcome once it is applied)."""
        kind = action.get("kind")
        applied = action is self._last_action or action == self._last_action
        note = f" - {self._outcome_text()}" if applied and self._last_effect else ""
        if kind == "roll":
            face = str(action.get("face"))
            roller = self._last_roller if applied else self._turn
            return (f"player {roller} rolls die {int(action.get('die', 0)) + 1}: "
                    f"{self._names.get(face, face)}{note}")
        if kind == "choose_count":
            return f"player {actor} chooses to move {action.get('count')} coin(s){note}"
        if kind == "first_player":
            return f"chance: player {action.get('player')} goes first"
        return super().describe(action, actor)

    def _outcome_text(self) -> str:
        """Say what the last legend row did, and whether it ended the round or the game."""
        effect = self._last_effect
        if effect is None:
            return ""
        text = effect.text(self._last_count)
        if not self._last_complete:
            done = ("does what can be done" if self.ruled(AMB_CANT) in _PARTIAL
                    else "does none of it")
            text = f"cannot {text} in full: {done}"
        winner = self._last_winner
        if winner is not None:
            text += (f"; player {winner} holds only the Ruby Rhino and breaks the curse, "
                     f"scoring {self._history[-1]['points']}")
            if self._result is not None:
                text += "; game over"
        return text


ENGINE = RubyRhino


# -- the greedy player's heuristic (rulespec.impact) -----------------------------------------------


def heuristic(config: Config, view: Any, player: int) -> float:
    """Return how good ``view`` is for ``player``: its score minus the best other score.

    For the impact lab's greedy and MCTS players. The game leaves the players no choice (every
    action is a die roll), so the heuristic is never consulted in play; it is declared so that
    every game offers the same players.
    """
    return lead_over_others(view["scores"], player)
