"""Conformance levels: how much of its state an engine exposes, and what the kit compares.

``full`` (the default): the whole canonical state is compared, validated and checked against the
invariants. ``observable``: the fields the spec marks hidden (``state.hidden``) are left out on
both sides before comparing; the schema and the invariants, which may need hidden fields, are not
checked. ``none``: no state is compared but its ``result``; legal actions, chance distributions,
refusals of illegal actions, determinism of what is played and the result still are.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal

from rulespec.spec.model import Spec

Level = Literal["full", "observable", "none"]
LEVELS: tuple[Level, ...] = ("full", "observable", "none")
_TOKEN = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[\*\]")


def parse_path(path: str) -> list[str]:
    """Read a hidden path (``$.players[*].hand``) as keys and ``*`` for every array item."""
    if not path.startswith("$"):
        raise ValueError(f"hidden path {path!r} must start with '$'")
    tokens = []
    for match in _TOKEN.finditer(path, 1):
        tokens.append(match.group(1) or "*")
    return tokens


def _without(value: Any, tokens: list[str]) -> Any:
    """Return ``value`` with the part at ``tokens`` blanked (a hidden array item becomes null)."""
    if not tokens:
        return None
    head, rest = tokens[0], tokens[1:]
    if head == "*":
        if not isinstance(value, list):
            return value
        return [None if not rest else _without(item, rest) for item in value]
    if not isinstance(value, dict) or head not in value:
        return value
    if not rest:
        return {k: v for k, v in value.items() if k != head}
    return {**value, head: _without(value[head], rest)}


def projection(spec: Spec, level: str) -> Callable[[Any], Any]:
    """Return the function that keeps what ``level`` compares of a state."""
    if level == "none":
        return lambda state: ({"result": state.get("result")} if isinstance(state, dict)
                              else state)
    if level != "observable":
        return lambda state: state
    hidden = [parse_path(str(h["path"])) for h in spec.data.get("state", {}).get("hidden", [])]

    def observe(state: Any) -> Any:
        for tokens in hidden:
            state = _without(state, tokens)
        return state

    return observe
