"""What each player can see of the canonical state, as the spec's ``state.hidden`` declares.

Every field of the state is public unless a ``state.hidden`` entry names it. An entry has a
``path`` (``$.deck``, ``$.hands[*]``, ``$.players[*].hand``) and says who may see it:
``owner`` (only the seat whose index the one ``[*]`` of the path stands for) or ``nobody``.
A player's view of a state is the state with every field hidden from that player replaced by
:data:`HIDDEN`. The OpenSpiel and PettingZoo bridges build every observation from this view,
and so may the conformance kit's observable level.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from rulespec.spec.errors import RulespecError

#: What stands in a player's view for a value hidden from that player.
HIDDEN = "<hidden>"

#: A path step: an object key, an array index, or ``*`` (every element of an array).
Step = str | int

_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\*|\d+)\]")


class VisibilityError(RulespecError):
    """A ``state.hidden`` entry whose path cannot be read or does not fit the state schema."""


@dataclass(frozen=True)
class HiddenField:
    """One ``state.hidden`` entry: a state path and who may see what is there."""

    path: str
    steps: tuple[Step, ...]
    visible_to: Literal["owner", "nobody"]
    clauses: tuple[str, ...] = ()

    def visible(self, owner: int | None, player: int | None) -> bool:
        """Return True when ``player`` (None: an onlooker) may see the value owned by ``owner``."""
        return self.visible_to == "owner" and player is not None and owner == player


def parse_path(path: str) -> tuple[Step, ...]:
    """Split ``$.players[*].hand`` into steps; VisibilityError says what is wrong."""
    if not path.startswith("$"):
        raise VisibilityError(f"hidden path {path!r} must start with '$' (the state)")
    steps: list[Step] = []
    at = 1
    while at < len(path):
        match = _STEP.match(path, at)
        if match is None:
            raise VisibilityError(f"hidden path {path!r}: cannot read {path[at:]!r}; write "
                                  "steps as .key, [*] or [index]")
        key, index = match.groups()
        steps.append(key if key is not None else ("*" if index == "*" else int(index)))
        at = match.end()
    return tuple(steps)


def hidden_fields(data: Mapping[str, Any]) -> tuple[HiddenField, ...]:
    """Return the ``state.hidden`` entries of spec ``data`` (a Spec's ``data``), parsed."""
    out: list[HiddenField] = []
    for entry in data.get("state", {}).get("hidden", []):
        path = str(entry["path"])
        steps = parse_path(path)
        visible_to = entry["visible_to"]
        if visible_to == "owner" and steps.count("*") != 1:
            raise VisibilityError(f"hidden path {path!r} is visible to its owner, so it needs "
                                  "exactly one [*] (the owner's seat)")
        out.append(HiddenField(path, steps, visible_to, tuple(entry.get("clauses", ()))))
    return tuple(out)


def _schema_at(schema: Mapping[str, Any], root: Mapping[str, Any], step: Step,
               ) -> list[Mapping[str, Any]]:
    """Return the subschemas a value at ``step`` below ``schema`` may match."""
    if "$ref" in schema:
        ref = str(schema["$ref"])
        target: Any = root
        for part in ref.removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        return _schema_at(target, root, step)
    found: list[Mapping[str, Any]] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for sub in schema.get(key, []):
            found += _schema_at(sub, root, step)
    if isinstance(step, str) and step != "*":
        if step in schema.get("properties", {}):
            found.append(schema["properties"][step])
    elif "items" in schema and isinstance(schema["items"], Mapping):
        found.append(schema["items"])
    return found


def check_hidden(data: Mapping[str, Any]) -> list[tuple[int, str]]:
    """Return (entry index, message) for each ``state.hidden`` entry the state schema lacks."""
    problems: list[tuple[int, str]] = []
    schema = data.get("state", {}).get("schema", {})
    for i, entry in enumerate(data.get("state", {}).get("hidden", [])):
        try:
            steps = parse_path(str(entry["path"]))
            if entry["visible_to"] == "owner" and steps.count("*") != 1:
                raise VisibilityError(f"hidden path {entry['path']!r} is visible to its owner, "
                                      "so it needs exactly one [*] (the owner's seat)")
        except VisibilityError as exc:
            problems.append((i, str(exc)))
            continue
        here: list[Mapping[str, Any]] = [schema]
        for n, step in enumerate(steps):
            here = [sub for s in here for sub in _schema_at(s, schema, step)]
            if not here:
                shown = entry["path"]
                problems.append((i, f"hidden path {shown!r}: the state schema has nothing at "
                                    f"step {n + 1} ({step!r}); name a field the state has"))
                break
    return problems


def view(state: Any, fields: Sequence[HiddenField], player: int | None) -> Any:
    """Return ``player``'s view of ``state``: every value hidden from them is :data:`HIDDEN`.

    ``player`` None is an onlooker, who sees only what is public. ``state`` is not changed.
    """
    out = state
    for hidden in fields:
        out = _redact(out, hidden, hidden.steps, None, player)
    return out


def _redact(value: Any, hidden: HiddenField, steps: tuple[Step, ...], owner: int | None,
            player: int | None) -> Any:
    if not steps:
        return value if hidden.visible(owner, player) else HIDDEN
    step, rest = steps[0], steps[1:]
    if step == "*":
        if not isinstance(value, list):
            return value
        return [_redact(v, hidden, rest, i, player) for i, v in enumerate(value)]
    if isinstance(step, int):
        if not isinstance(value, list) or not -len(value) <= step < len(value):
            return value
        copy = list(value)
        copy[step] = _redact(value[step], hidden, rest, owner, player)
        return copy
    if not isinstance(value, dict) or step not in value:
        return value
    copy_dict = dict(value)
    copy_dict[step] = _redact(value[step], hidden, rest, owner, player)
    return copy_dict
