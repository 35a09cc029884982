"""A tiny Pig dice game on the toy spec, for the kit's own tests: its actions carry no player.

Players take turns: roll the die (a chance action ``{"kind": "die", "face": n}``) as often as
they like, adding the face to the turn's total, or hold to bank it; a 1 loses the turn's total.
The first to ``bank_coins`` points wins. ``pig_spec`` dresses the toy spec with these actions.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from rulespec.reference.core import CHANCE, Action, Actor, Engine, Rejection
from rulespec.spec.model import Spec

FACES = range(1, 7)


def pig_spec(toy: Spec) -> Spec:
    """Return the toy spec with Pig's actions and this module as its reference."""

    def action(kind: str, actor: str, fields: dict[str, Any]) -> dict[str, Any]:
        return {"id": kind, "actor": actor, "when": "always", "effect": "-", "clauses": [],
                "params": {"type": "object", "additionalProperties": False,
                           "required": ["kind", *fields],
                           "properties": {"kind": {"const": kind}, **fields}}}

    game = {**toy.data["game"], "id": "pig", "reference": __name__}
    actions = [action("roll", "player", {}), action("hold", "player", {}),
               action("die", "chance", {"face": {"type": "integer", "minimum": 1}})]
    return replace(toy, data={**toy.data, "game": game, "actions": actions})


class Pig(Engine):
    """Pig: roll or hold; chance rolls the die."""

    def __init__(self, spec: Spec, config: Any) -> None:
        super().__init__(spec, config)
        self.target = int(config.param("bank_coins"))
        self.scores = [0] * self.players
        self.turn = 0
        self.total = 0
        self.rolling = False
        self._die = [{"kind": "die", "face": f} for f in FACES]
        self._choices: list[Action] = [{"kind": "roll"}, {"kind": "hold"}]

    def current_player(self) -> Actor | None:
        """Return chance while the die rolls, else the player whose turn it is."""
        if max(self.scores) >= self.target:
            return None
        return CHANCE if self.rolling else self.turn

    def legal_actions(self) -> list[Action]:
        """Return the die faces, or roll and hold."""
        if self.current_player() is None:
            return []
        return list(self._die) if self.rolling else list(self._choices)

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return each face with probability 1/6."""
        return [(a, Fraction(1, len(self._die))) for a in self._die]

    def _apply(self, action: Action) -> None:
        kind = action["kind"]
        if kind == "roll":
            self.rolling = True
        elif kind == "hold":
            self.scores[self.turn] += self.total
            self._pass()
        elif action["face"] == 1:
            self._pass()
        else:
            self.total += action["face"]
            self.rolling = False

    def _pass(self) -> None:
        self.total = 0
        self.rolling = False
        if max(self.scores) < self.target:
            self.turn = (self.turn + 1) % self.players

    def state(self) -> dict[str, Any]:
        """Return the scores, whose turn, the turn's total."""
        return {"to_move": self.current_player(), "phase": "roll" if self.rolling else "choose",
                "scores": list(self.scores), "turn": self.turn, "total": self.total,
                "result": self.result()}

    def result(self) -> dict[str, Any] | None:
        """Return the scores and the winner once someone reaches the target."""
        if self.current_player() is not None:
            return None
        return {"scores": list(self.scores), "ranking": [[self.turn]], "winners": [self.turn]}

    def rejection(self, action: Any) -> Rejection:
        """Say why ``action`` is not legal now."""
        bad = self.check_action(action)
        if bad is not None:
            return bad
        if self.rolling:
            return Rejection("the die is rolling; only a face is legal")
        return Rejection("a player rolls or holds; the die is not rolling")


ENGINE = Pig
