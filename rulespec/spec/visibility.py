"""What each player can see of the canonical state, as the spec's ``state.hidden`` declares.

Every field of the state is public unless a ``state.hidden`` entry names it. An entry has a
``path`` (``$.deck``, ``$.hands[*]``, ``$.players[*].hand``) and says who may see it:
``owner`` (only the seat whose index the one ``[*]`` of the path stands for) or ``nobody``.
A player's view of a state is the state with every field hidden from that player replaced by
:data:`HIDDEN`. The OpenSpiel and PettingZoo bridges build every observation from this view,
and so may the conformance kit's observable level.

An entry may hold only under some options of a record (``when``: record id -> option ids, a
record's reading of who sees what); :func:`hidden_fields` returns the entries that hold under
given rulings (by default, under each record's default), :func:`hidden_when` those that given
rulings bring beyond the defaults (``Engine.hidden_by_rulings`` returns them). Every entry, and
every ``state.public`` entry (what the rulebook puts in sight), says why: a ``quote`` of one of
its clauses that says it, or the ``readings`` that decide it (:func:`sight_problems`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
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


def hidden_fields(data: Mapping[str, Any], ruled: Callable[[str], str] | None = None,
                  ) -> tuple[HiddenField, ...]:
    """Return the ``state.hidden`` entries of spec ``data`` (a Spec's ``data``) that hold, parsed:
    those without a ``when``, and those whose ``when`` holds under the rulings ``ruled`` gives
    (record id -> the option chosen; None: each record's default)."""
    ruled = ruled or _defaults(data)
    return _parsed(e for e in data.get("state", {}).get("hidden", []) if _holds(e, ruled))


def hidden_when(data: Mapping[str, Any], ruled: Callable[[str], str],
                ) -> tuple[HiddenField, ...]:
    """Return the ``state.hidden`` entries of ``data`` that the rulings ``ruled`` gives bring
    beyond the defaults: a ``when`` that holds under them and not under the defaults (OURO-AMB-37
    in-hand). What ``Engine.hidden_by_rulings`` returns, so ``hidden_fields(data)`` plus it is
    what is hidden, for every option that hides more than the default."""
    default = _defaults(data)
    return _parsed(e for e in data.get("state", {}).get("hidden", [])
                   if e.get("when") and _holds(e, ruled) and not _holds(e, default))


def _defaults(data: Mapping[str, Any]) -> Callable[[str], str]:
    options = {str(r.get("id")): str((r.get("default") or {}).get("option"))
               for r in data.get("ambiguities") or [] if isinstance(r, Mapping)}
    return lambda record: options.get(record, "")


def _holds(entry: Mapping[str, Any], ruled: Callable[[str], str]) -> bool:
    when = entry.get("when") or {}
    return all(ruled(str(record)) in options for record, options in when.items())


def who_sees_by_default(data: Mapping[str, Any]) -> list[tuple[Any, Any]]:
    """Return (path, visible_to) of each ``state.hidden`` entry of ``data`` that holds under the
    default rulings, in order (what ``rulespec diff`` compares: an entry a record's other
    option brings is that record's reading, which the records' rules classify)."""
    default = _defaults(data)
    hidden = (data.get("state") or {}).get("hidden") or []
    return [(h.get("path"), h.get("visible_to")) if isinstance(h, Mapping) else (h, None)
            for h in hidden if not isinstance(h, Mapping) or _holds(h, default)]


def _parsed(entries: Any) -> tuple[HiddenField, ...]:
    out: list[HiddenField] = []
    for entry in entries:
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


def check_hidden(data: Mapping[str, Any], section: str = "hidden") -> list[tuple[int, str]]:
    """Return (entry index, message) for each ``state.hidden`` (or ``state.public``) entry the
    state schema lacks."""
    problems: list[tuple[int, str]] = []
    schema = data.get("state", {}).get("schema", {})
    for i, entry in enumerate(data.get("state", {}).get(section, [])):
        try:
            steps = parse_path(str(entry["path"]))
            if entry.get("visible_to") == "owner" and steps.count("*") != 1:
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
                problems.append((i, f"{section} path {shown!r}: the state schema has nothing at "
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


# -- why each part is hidden or public ---------------------------------------------------------


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def clause_quotes(data: Mapping[str, Any]) -> dict[str, list[str]]:
    """Return clause id -> every quote its citations hold, whitespace folded."""
    out: dict[str, list[str]] = {}

    def walk(value: Any, into: list[str]) -> None:
        if isinstance(value, Mapping):
            if isinstance(value.get("quote"), str) and "source" in value:
                into.append(_norm(value["quote"]))
            for item in value.values():
                walk(item, into)
        elif isinstance(value, list):
            for item in value:
                walk(item, into)

    for clause in data.get("clauses") or []:
        if isinstance(clause, Mapping):
            walk(clause, out.setdefault(str(clause.get("id")), []))
    return out


#: Where a problem is (keys below the spec root), and what it says.
Located = tuple[tuple[str | int, ...], str]


def sight_problems(data: Mapping[str, Any]) -> tuple[list[Located], list[Located]]:
    """Check why each ``state.hidden`` and ``state.public`` entry says who sees it.

    Returns (errors, missing): errors are a ``quote`` not verbatim in the quote of any clause
    the entry cites, a ``when`` naming a record that is not one of the entry's readings or an
    option that record lacks; missing are the entries with
    neither a ``quote`` nor ``readings`` (format rule OBSERVATION_PROVENANCE: a warning for the
    specs written before it).
    """
    errors: list[Located] = []
    missing: list[Located] = []
    quotes = clause_quotes(data)
    records = {str(a.get("id")): {str(o.get("id")) for o in a.get("options") or []}
               for a in data.get("ambiguities") or [] if isinstance(a, Mapping)}
    state = data.get("state") or {}
    for section in ("hidden", "public"):
        for i, entry in enumerate(state.get(section) or []):
            here = ("state", section, i)
            path = entry.get("path")
            quote, readings = entry.get("quote"), [str(r) for r in entry.get("readings") or []]
            if quote is None and not readings:
                missing.append((here, f"{section} part {path!r} says neither why (quote: the "
                                      "words of one of its clauses that say who sees it) nor "
                                      "which record decides it (readings)"))
            if isinstance(quote, str):
                cited = [str(c) for c in entry.get("clauses") or []]
                if not any(_norm(quote) in q for c in cited for q in quotes.get(c, [])):
                    errors.append(((*here, "quote"), f"quote {quote[:60]!r} of {section} part "
                                   f"{path!r} is not in the quote of any clause it cites "
                                   f"({', '.join(cited) or 'none'}); copy the words from one "
                                   "of them, or cite the clause that holds them"))
            for record, options in (entry.get("when") or {}).items():
                if record not in readings:
                    errors.append(((*here, "when"), f"{section} part {path!r} holds when "
                                   f"{record} is ruled, but {record} is not among its readings; "
                                   "add it"))
                for option in options:
                    if record in records and option not in records[record]:
                        errors.append(((*here, "when"), f"{record} has no option {option!r}; "
                                       f"its options are {', '.join(sorted(records[record]))}"))
    return errors, missing
