"""Tally Old: the reference interpreter.

Source: the rules text ``rulebooks/tally-old-rules.txt`` shipped with this package, encoded in
``tally-old.yaml``; the clause ids (``TALLYOLD-...``) below refer to that spec. Written by
``rulespec new-game tally-old`` as a skeleton: a small game of taking counters. Replace the rules
with your game's and keep the shape (constants, the engine class, then ``ENGINE``): the base class
``rulespec.reference.Engine`` checks every action is legal before ``_apply`` sees it.

No number of the rules text is written here: the pile and the most counters a turn may take are
the spec's parameters. Each open question of the text is an ambiguity record whose options are
all implemented here, asked of the core where the question comes up (``self.decide`` or
``self.ruling``: a counted decision point), never read from the configuration.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

from rulespec.reference import CHANCE, Action, Actor, Config, Engine, Rejection
from rulespec.spec import Spec

# Phases of the canonical state.
FIRST_PLAYER = "first_player"
TAKE = "take"
OVER = "over"

AMB_DIRECTION = "TALLYOLD-AMB-01"


class TallyOld(Engine):
    """Tally Old for 2 to 4 players, every ruling selectable."""

    #: The options of each ambiguity implemented as behaviour (``rulespec validate`` checks).
    RULINGS: ClassVar[dict[str, frozenset[str]]] = {
        AMB_DIRECTION: frozenset({"left", "right"}),
    }
    #: The variants implemented as behaviour.
    VARIANTS: ClassVar[frozenset[str]] = frozenset()
    #: The clauses an action after the end of the game breaks.
    END_CLAUSES: ClassVar[tuple[str, ...]] = ("TALLYOLD-END-01",)

    def __init__(self, spec: Spec, config: Config) -> None:
        super().__init__(spec, config)
        # Read every parameter once; raise ConfigError for a configuration that cannot be played
        # (the spec's parameter schemas already refuse a pile or max_take below 1).
        self._max_take = int(config.param("max_take"))
        self._pile = int(config.param("pile"))
        self._taken = [0] * config.players
        self._turn = 0
        self._first: int | None = None
        self._phase = FIRST_PLAYER
        self._result: dict[str, Any] | None = None

    # -- whose move, what is legal ----------------------------------------------------------------

    def current_player(self) -> Actor | None:
        """Return CHANCE while the first player is drawn, the player to move, None at the end."""
        if self._phase == FIRST_PLAYER:
            return CHANCE
        return None if self._phase == OVER else self._turn

    def legal_actions(self) -> list[Action]:
        """Return the chance outcomes, or each count the player may take, smallest first."""
        if self._phase == FIRST_PLAYER:
            return [a for a, _ in self.chance_outcomes()]
        if self._phase == OVER:
            return []
        most = min(self._max_take, self._pile)
        return [{"kind": "take", "count": n} for n in range(1, most + 1)]

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return each player as the first player, uniformly (TALLYOLD-SETUP-02)."""
        if self._phase != FIRST_PLAYER:
            return super().chance_outcomes()
        n = self.players
        return [({"kind": "first_player", "player": p}, Fraction(1, n)) for p in range(n)]

    def rule_rejection(self, action: Action) -> Rejection:
        """Say why ``action`` is illegal now, citing the clause it breaks."""
        if action["kind"] == "first_player":
            if self._phase != FIRST_PLAYER:
                return Rejection("the first player is only drawn at the start of the game",
                                 ("TALLYOLD-SETUP-02",))
            return Rejection(f"player must be 0-{self.players - 1}, got {action.get('player')!r}",
                             ("TALLYOLD-SETUP-02",))
        if self._phase != TAKE:
            return Rejection("nobody takes counters before the first player is drawn",
                             ("TALLYOLD-SETUP-02",))
        count = action.get("count")
        if isinstance(count, int) and count > self._pile:
            return Rejection(f"only {self._pile} counter(s) are left, cannot take {count}",
                             ("TALLYOLD-TURN-03",))
        return Rejection(f"take 1 to {self._max_take} counters, not {count!r}",
                         ("TALLYOLD-TURN-02",))

    # -- playing ----------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        if action["kind"] == "first_player":
            self._first = self._turn = int(action["player"])
            self._phase = TAKE
            return
        count = int(action["count"])
        self._pile -= count
        self._taken[self._turn] += count
        if self._pile == 0:
            self._finish(self._turn)  # TALLYOLD-END-01
            return
        # TALLYOLD-TURN-01 leaves the direction open: ask the core here, where it matters.
        step = -1 if self.decide(AMB_DIRECTION, "right") else 1
        self._turn = (self._turn + step) % self.players

    def _finish(self, winner: int) -> None:
        self._phase = OVER
        others = [p for p in range(self.players) if p != winner]
        self._result = {"scores": [int(p == winner) for p in range(self.players)],
                        "ranking": [[winner], others], "winners": [winner]}

    # -- reporting --------------------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state (the spec's state schema)."""
        return {"to_move": self.current_player(), "phase": self._phase, "first": self._first,
                "turn": self._turn, "pile": self._pile, "taken": list(self._taken),
                "result": self.result()}

    def result(self) -> dict[str, Any] | None:
        """Return scores, ranking and winners once the game is over."""
        if self._result is None:
            return None
        return {"scores": list(self._result["scores"]),
                "ranking": [list(g) for g in self._result["ranking"]],
                "winners": list(self._result["winners"])}

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line of narration for ``action``."""
        if action.get("kind") == "first_player":
            return f"chance: player {action.get('player')} goes first"
        return f"player {actor} takes {action.get('count')}, {self._pile} left"


ENGINE = TallyOld
