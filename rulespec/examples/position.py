"""The setup language: words that expand into the forced chance and player actions of a position.

Forcing chance is choosing the chance outcome: a word such as ``rolls: [6, 2]`` picks the
outcomes with those faces. Built-in words work for every game:

- ``do``: an action, or a few of its fields (the one legal action holding them is taken);
  a list of those applies each in turn;
- ``illegal``: an action that must be refused now (and change nothing);
- ``first``: take the first legal action, N times (play that does not matter);
- ``until``: a CEL condition over ``state``: take the first legal action until it holds.

A game adds its own words (dice faces, hands dealt) in the module its examples file names as
``vocabulary``, as a mapping ``WORDS`` of word -> function(driver, argument).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from rulespec.examples.errors import ExampleError
from rulespec.reference.actions import strictly_equal
from rulespec.reference.core import Action, Actor, Engine, IllegalAction
from rulespec.spec.expressions import ExpressionError, compile_expression

#: The most actions ``until`` takes before it gives up (a guard, not a rule).
MAX_UNTIL = 5000


@dataclass(frozen=True)
class Move:
    """One action of an expanded example: applied, or refused as it must be."""

    actor: Actor | None
    action: Action
    kind: Literal["apply", "refuse"] = "apply"

    def to_json(self) -> dict[str, Any]:
        """Return the move as JSON."""
        return {"actor": self.actor, "action": self.action, "kind": self.kind}


Word = Callable[["Driver", Any], None]


def contains(action: Mapping[str, Any], pattern: Mapping[str, Any]) -> bool:
    """Return True when ``action`` has every field of ``pattern`` with the same JSON value."""
    return all(k in action and strictly_equal(action[k], v) for k, v in pattern.items())


class Driver:
    """Drive the reference through the words of an example, recording every move."""

    def __init__(self, engine: Engine, words: Mapping[str, Word]) -> None:
        self.engine = engine
        self.words = {**BUILTIN, **words}
        self.moves: list[Move] = []

    def play(self, action: Action) -> None:
        """Apply ``action`` (it must be legal) and record it."""
        actor = self.engine.current_player()
        try:
            self.engine.apply(action)
        except IllegalAction as exc:
            raise ExampleError(f"move {len(self.moves) + 1}: {exc}") from None
        self.moves.append(Move(actor, action))

    def find(self, pattern: Mapping[str, Any]) -> Action:
        """Return the one legal action holding every field of ``pattern``."""
        legal = self.engine.legal_actions()
        found = [a for a in legal if contains(a, pattern)]
        if len(found) == 1:
            return found[0]
        who = self.engine.current_player()
        if not found:
            shown = ", ".join(map(str, legal[:8])) + (" ..." if len(legal) > 8 else "")
            raise ExampleError(f"move {len(self.moves) + 1}: no legal action of "
                               f"{_who(who)} holds {dict(pattern)!r}; legal: {shown or 'none'}")
        raise ExampleError(f"move {len(self.moves) + 1}: {len(found)} legal actions of "
                           f"{_who(who)} hold {dict(pattern)!r} ({found[0]}, {found[1]}, ...); "
                           "give more fields")

    def do(self, pattern: Mapping[str, Any]) -> None:
        """Take the one legal action holding every field of ``pattern``."""
        self.play(self.find(pattern))

    def refuse(self, action: Action) -> None:
        """Check ``action`` is refused now and changes nothing; record it."""
        before = self.engine.state()
        if self.engine.is_legal(action):
            raise ExampleError(f"move {len(self.moves) + 1}: {action!r} should be illegal here "
                               "but is legal")
        if not strictly_equal(before, self.engine.state()):
            raise ExampleError(f"move {len(self.moves) + 1}: refusing {action!r} changed the state")
        self.moves.append(Move(self.engine.current_player(), action, "refuse"))

    def run(self, move: Mapping[str, Any]) -> None:
        """Run one word of the setup language."""
        ((word, arg),) = move.items()
        if word not in self.words:
            raise ExampleError(f"unknown word {word!r}; known: {', '.join(sorted(self.words))}")
        self.words[word](self, arg)


def _who(actor: Actor | None) -> str:
    return "nobody (the game is over)" if actor is None else (
        "chance" if actor == "chance" else f"player {actor}")


def _do(driver: Driver, arg: Any) -> None:
    for pattern in arg if isinstance(arg, list) else [arg]:
        if not isinstance(pattern, dict):
            raise ExampleError(f"do: expected an action or some of its fields, not {pattern!r}")
        driver.do(pattern)


def _illegal(driver: Driver, arg: Any) -> None:
    for action in arg if isinstance(arg, list) else [arg]:
        driver.refuse(action)


def _first(driver: Driver, arg: Any) -> None:
    if not isinstance(arg, int) or isinstance(arg, bool) or arg < 0:
        raise ExampleError(f"first: expected a number of actions, not {arg!r}")
    for _ in range(arg):
        legal = driver.engine.legal_actions()
        if not legal:
            raise ExampleError("first: the game is over; no action to take")
        driver.play(legal[0])


def _until(driver: Driver, arg: Any) -> None:
    try:
        cond = compile_expression(str(arg), ("state",))
    except ExpressionError as exc:
        raise ExampleError(f"until: {exc}") from None
    for _ in range(MAX_UNTIL):
        if cond.evaluate({"state": driver.engine.state()}) is True:
            return
        legal = driver.engine.legal_actions()
        if not legal:
            raise ExampleError(f"until: the game ended before {arg!r} held")
        driver.play(legal[0])
    raise ExampleError(f"until: {arg!r} did not hold within {MAX_UNTIL} actions")


BUILTIN: Mapping[str, Word] = {"do": _do, "illegal": _illegal, "first": _first, "until": _until}


def vocabulary(module: str | None, game_id: str | None = None) -> Mapping[str, Word]:
    """Return the words of the vocabulary module (none when ``module`` is None).

    A rule examples file is untrusted input: the module it names is imported only when it lies
    in the package of the distribution that registers ``game_id``.
    """
    if module is None:
        return {}
    from rulespec.spec.registry import UntrustedModule, trusted_code_module

    if game_id is None:
        raise ExampleError(f"vocabulary {module!r} cannot be used without its game's id")
    try:
        trusted_code_module(game_id, module, "the rule examples' vocabulary")
    except UntrustedModule as exc:
        raise ExampleError(str(exc)) from None
    try:
        words: Mapping[str, Word] = importlib.import_module(module).WORDS
    except (ImportError, AttributeError) as exc:
        raise ExampleError(f"vocabulary {module!r} cannot be used: {exc}; name a module with "
                           "a WORDS mapping") from None
    return words
