"""What an engine holds and does, as the explorer compares them: the digest of a state's next
step (who moves, the moves, the successors' keys and labels), the ambiguities an engine has
reached, a path replayed, and the attributes two engines differ in."""

from __future__ import annotations

from fractions import Fraction
from hashlib import blake2b
from typing import Any

from rulespec.reference.core import Action, Engine, slot_names
from rulespec.verify.checks import encode_action
from rulespec.verify.store import CHANCE_NODE, TERMINAL_NODE

Moves = list[tuple[Action, Fraction]]
#: Step caches an engine keeps (``rulespec.reference.core.StepMemo``): not memory.
CACHES = frozenset({"_state_memo", "_legal_memo"})


def behaviour(actor: int | None, moves: Moves, keys: list[int], labels: list[Any]) -> int:
    """Return the digest of what can happen next in a state: who moves, the moves and their
    probabilities, the successors' keys and the moves' labels. A state expanded and a state
    merged into it are compared by it, so both are digested here, the same way."""
    return digest_text(repr((actor, moves_text(moves), keys, labels)))


#: The canonical text of lists of moves, by their ``repr`` (equal for lists of JSON actions and
#: exact probabilities only when they hold the same values of the same types in the same
#: order): the same few lists (a die's faces, roll or hold) come again at every state.
_MOVES_TEXT: dict[str, str] = {}


def moves_text(moves: Moves) -> str:
    """Return the moves' actions as canonical JSON and their probabilities, as one text."""
    shown = repr(moves)
    text = _MOVES_TEXT.get(shown)
    if text is None:
        text = repr([(encode_action(a), str(p)) for a, p in moves])
        if len(_MOVES_TEXT) >= 1 << 16:
            _MOVES_TEXT.clear()
        _MOVES_TEXT[shown] = text
    return text


def digest_text(text: str) -> int:
    return int.from_bytes(blake2b(text.encode(), digest_size=8).digest(), "little")


def node_code(actor: Any) -> int:
    if actor is None:
        return TERMINAL_NODE
    return CHANCE_NODE if actor in (-1, "chance") else int(actor)


def decided(engine: Engine) -> list[str]:
    """Return the ambiguities whose decision point the engine has reached."""
    # The counters themselves (``decisions`` builds a Counter of them at every call).
    counts = getattr(engine, "_decisions", None)
    if type(counts) is not dict:
        counts = engine.decisions
    return [amb for amb, count in counts.items() if count]


def replay(start: Engine, path: list[int] | tuple[int, ...]) -> Engine:
    """Return a copy of ``start`` with the moves numbered ``path`` applied in order."""
    engine = start.clone()
    for move in path:
        actor = engine.current_player()
        if actor == "chance":
            action = engine.chance_outcomes()[move][0]
        else:
            action = engine.legal_actions()[move]
        engine.apply(action)
    return engine


def attribute_differences(a: Engine, b: Engine) -> list[str]:
    """Return the names of the instance attributes in which two engines of one class differ
    (caches of the current step aside)."""
    names = [n for n in (*getattr(a, "__dict__", {}), *slot_names(type(a))) if n not in CACHES]
    return [name for name in dict.fromkeys(names)
            if not same(getattr(a, name, _MISSING), getattr(b, name, _MISSING))]


_MISSING = object()


def same(x: Any, y: Any, depth: int = 0) -> bool:
    """Return True when two pieces of engine state are equal, objects compared by their
    attributes when their class does not define equality."""
    if x is y:
        return True
    if type(x) is not type(y) or depth > 8:
        return False
    if isinstance(x, (list, tuple)):
        return len(x) == len(y) and all(same(u, v, depth + 1) for u, v in zip(x, y, strict=True))
    if isinstance(x, dict):
        return x.keys() == y.keys() and all(same(x[k], y[k], depth + 1) for k in x)
    kind: Any = type(x)
    if kind.__eq__ is not object.__eq__:
        return bool(x == y)
    names = [*getattr(x, "__dict__", {}), *slot_names(kind)]
    return all(same(getattr(x, n, _MISSING), getattr(y, n, _MISSING), depth + 1) for n in names)
