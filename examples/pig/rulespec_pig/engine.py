"""Pig: the reference interpreter.

Source: the rules text ``rulebooks/pig-rules.txt`` shipped with this package, encoded in
``pig.yaml``; the clause ids (``PIG-...``) below refer to that spec. The die, the target score and
the starting score are parameters of the spec: no number of the rules text is written here.

A turn is a chance ``die`` action, then, after a face that adds, the player's ``roll`` or
``hold``; a bust face ends the turn. Every open question of the text is an ambiguity record
(PIG-AMB-01 to PIG-AMB-03) whose options are all implemented here, each asked of the core where
the question comes up (``self.ruling``/``self.decide``: a counted decision point), never read
from the configuration once at set-up.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

# Phases of the canonical state.
from rulespec.reference import CHANCE, Action, Actor, Config, ConfigError, Engine, Rejection
from rulespec.spec import Spec

FIRST_PLAYER = "first_player"
ROLL = "roll"
DECIDE = "decide"
OVER = "over"

ADD = "add"
BUST = "bust"

AMB_REACH = "PIG-AMB-01"
AMB_END = "PIG-AMB-02"
AMB_FIRST = "PIG-AMB-03"

ROLL_ACTION: Action = {"kind": "roll"}
HOLD_ACTION: Action = {"kind": "hold"}


class Pig(Engine):
    """Pig for 2 to 6 players, every ruling selectable."""

    RULINGS: ClassVar[dict[str, frozenset[str]]] = {
        AMB_REACH: frozenset({"on-hold", "at-once"}),
        AMB_END: frozenset({"immediate", "equal-turns"}),
        AMB_FIRST: frozenset({"seat-zero", "chance-draw"}),
    }
    VARIANTS: ClassVar[frozenset[str]] = frozenset()
    END_CLAUSES: ClassVar[tuple[str, ...]] = ("PIG-END-01",)
    #: What only ``describe`` reads (what the last action did): never play. ``rulespec verify``
    #: leaves it out of an engine's memory (``rulespec.verify.cloning.Cloner.memory``).
    NARRATION: ClassVar[frozenset[str]] = frozenset({"_note"})
    #: Set up once from the configuration and never changed: copies share them.
    SHARED: ClassVar[frozenset[str]] = frozenset({"_target", "_effects", "_die_outcomes",
                                                  "_first_outcomes"})

    def __init__(self, spec: Spec, config: Config) -> None:
        super().__init__(spec, config)
        n = config.players
        self._target = int(config.param("target_score"))
        start = int(config.param("starting_score"))
        self._effects: dict[int, str] = {int(r["face"]): str(r["effect"])
                                         for r in config.param("die")}
        if len(self._effects) != len(config.param("die")):
            raise ConfigError("the die parameter lists a face twice; give each face once")
        probability = Fraction(1, len(self._effects))
        self._die_outcomes = [({"kind": "die", "face": f}, probability) for f in self._effects]
        self._first_outcomes = [({"kind": "first_player", "player": p}, Fraction(1, n))
                                for p in range(n)]
        self._scores = [start] * n
        self._turns = [0] * n
        self._turn = 0
        self._turn_total = 0
        self._rolls = 0
        self._last_roll: int | None = None
        self._final_round = False
        self._result: dict[str, Any] | None = None
        if self.ruling(AMB_FIRST) == "chance-draw":  # who goes first: asked once, here
            self._first: int | None = None
            self._phase = FIRST_PLAYER
        else:
            self._first = 0
            self._phase = ROLL
        #: What the last action did, for describe() (narration only).
        self._note = ""

    # -- whose move, what is legal ----------------------------------------------------------------

    def current_player(self) -> Actor | None:
        """Return CHANCE while the die is rolled or the first player drawn, the player when
        deciding, None once the game is over."""
        if self._phase == DECIDE:
            return self._turn
        return None if self._phase == OVER else CHANCE

    def legal_actions(self) -> list[Action]:
        """Return roll then hold when deciding; the chance outcomes at chance nodes."""
        if self._phase == DECIDE:
            return [dict(ROLL_ACTION), dict(HOLD_ACTION)]
        return [dict(a) for a, _ in self.chance_outcomes()] if self._phase != OVER else []

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return each face of the die, or each player for the first-player draw, uniformly."""
        if self._phase == ROLL:
            return [(dict(a), p) for a, p in self._die_outcomes]
        if self._phase == FIRST_PLAYER:
            return [(dict(a), p) for a, p in self._first_outcomes]
        return super().chance_outcomes()

    def is_legal(self, action: Action) -> bool:
        """Return True when ``action`` is exactly one of the legal actions (as the base's test,
        type-strictly: ``true`` is not a face), without building the list."""
        if type(action) is not dict:
            return False
        kind = action.get("kind")
        if type(kind) is not str:
            return False
        phase = self._phase
        if phase == DECIDE:
            return len(action) == 1 and kind in ("roll", "hold")
        if phase == ROLL:
            face = action.get("face")
            return (len(action) == 2 and kind == "die" and type(face) is int
                    and face in self._effects)
        if phase == FIRST_PLAYER:
            player = action.get("player")
            return (len(action) == 2 and kind == "first_player" and type(player) is int
                    and 0 <= player < self.players)
        return False

    def clone(self) -> Pig:
        """Return an independent copy: the two score lists, the decision counts and the result
        copied, the rest (numbers, strings, the die's constant tables) shared. A subclass
        (which may add attributes of its own) is copied by the base's ``clone``."""
        if type(self) is not Pig:
            return super().clone()
        other = object.__new__(Pig)
        other.__dict__.update(self.__dict__)
        other._scores = list(self._scores)
        other._turns = list(self._turns)
        other._decisions = dict(self._decisions)
        result = self._result
        if result is not None:
            other._result = {"scores": list(result["scores"]),
                             "ranking": [list(g) for g in result["ranking"]],
                             "winners": list(result["winners"])}
        return other

    def rule_rejection(self, action: Action) -> Rejection:
        """Say why ``action`` is illegal now, citing the clause it breaks."""
        kind = action["kind"]
        phase = self._phase
        if kind == "first_player":
            if phase != FIRST_PLAYER:
                return Rejection("the first player is only drawn at the start of the game, under "
                                 f"{AMB_FIRST} option chance-draw", ("PIG-SETUP-02",))
            return Rejection(f"player must be a player index 0-{self.players - 1} and nothing "
                             f"else, got {action.get('player')!r}", ("PIG-SETUP-02",))
        if kind == "die":
            if phase != ROLL:
                return Rejection(f"the die is only rolled when chance moves; player {self._turn} "
                                 "must choose roll or hold", ("PIG-TURN-06",))
            return Rejection(f"face must be one of {sorted(self._effects)!r} and nothing else, "
                             f"got {action.get('face')!r}", ("PIG-COMP-01",))
        if phase != DECIDE:
            return Rejection(f"{kind} is only chosen after a roll that is not a bust; now the "
                             "die is rolled", ("PIG-TURN-03", "PIG-TURN-06"))
        return Rejection(f"a {kind} action has only the key 'kind', got {sorted(action)!r}",
                         ("PIG-TURN-06",))

    # -- playing ----------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        kind = action["kind"]
        if kind == "die":
            self._roll(int(action["face"]))
        elif kind == "roll":
            self._phase = ROLL
            self._note = ""
        elif kind == "hold":
            banked = self._turn_total
            self._scores[self._turn] += banked
            self._note = f"banks {banked}, score {self._scores[self._turn]}"
            self._end_turn()
        else:
            self._first = self._turn = int(action["player"])
            self._phase = ROLL
            self._note = ""

    def _roll(self, face: int) -> None:
        """Resolve one roll of the die (PIG-TURN-04, PIG-TURN-05, PIG-AMB-01)."""
        self._rolls += 1
        self._last_roll = face
        me = self._turn
        if self._effects[face] == BUST:
            self._note = f"bust: loses the turn total of {self._turn_total}"
            self._end_turn()
            return
        self._turn_total += face
        reaches = self._scores[me] + self._turn_total >= self._target
        if reaches and self.decide(AMB_REACH, "at-once"):
            self._scores[me] += self._turn_total
            self._note = f"reaches {self._scores[me]}: banked at once"
            self._end_turn()
            return
        self._note = f"turn total {self._turn_total}"
        self._phase = DECIDE

    def _end_turn(self) -> None:
        """End the turn; end the game (PIG-END-01, PIG-AMB-02) or pass to the left (PIG-TURN-01)."""
        me = self._turn
        self._turns[me] += 1
        self._turn_total = 0
        self._rolls = 0
        if self._scores[me] >= self._target:
            if self.decide(AMB_END, "immediate"):
                self._finish()
                return
            self._final_round = True
        first = self._first if self._first is not None else 0
        last_of_round = (me + 1) % self.players == first
        if self._final_round and last_of_round:
            self._finish()
            return
        self._turn = (me + 1) % self.players
        self._phase = ROLL

    def _finish(self) -> None:
        """End the game: the highest scores win, the others ranked by score."""
        self._phase = OVER
        scores = self._scores
        ranking = [[p for p in range(self.players) if scores[p] == s]
                   for s in sorted(set(scores), reverse=True)]
        self._result = {"scores": list(scores), "ranking": ranking, "winners": list(ranking[0])}

    # -- reporting --------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state."""
        return {
            "to_move": self.current_player(),
            "phase": self._phase,
            "first": self._first,
            "turn": self._turn,
            "turn_total": self._turn_total,
            "rolls": self._rolls,
            "last_roll": self._last_roll,
            "scores": list(self._scores),
            "turns": list(self._turns),
            "final_round": self._final_round,
            "result": self.result(),
        }

    def result(self) -> dict[str, Any] | None:
        """Return scores, ranking and winners once the game is over."""
        if self._result is None:
            return None
        return {"scores": list(self._result["scores"]),
                "ranking": [list(g) for g in self._result["ranking"]],
                "winners": list(self._result["winners"])}

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line of narration for ``action`` (with what it did, once applied)."""
        kind = action.get("kind")
        note = f" - {self._note}" if self._note else ""
        if kind == "die":
            return f"chance: the die shows {action.get('face')}{note}"
        if kind == "first_player":
            return f"chance: player {action.get('player')} goes first"
        return f"player {actor} chooses to {kind}{note}"


ENGINE = Pig
