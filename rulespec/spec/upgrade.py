"""Rewrite a spec of an older format to the current one (``rulespec upgrade SPEC``).

The rewrite works on the text, line by line, so comments, quoting and layout stay as the author
wrote them. What is mechanical is done; what a person must decide is written in the most
conservative way and marked ``TODO(rulespec upgrade)``. The result is validated before anything
is written, and written whole (a temporary file moved over the old one), so a spec is never left
half rewritten. A spec that still needs a person (a record no element cites a clause of) keeps
its format, with the mechanical edits made, and the report says what is left.
"""

from __future__ import annotations

import os
import re
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulespec.spec import formats, provenance
from rulespec.spec.errors import RulespecDeprecationWarning, RulespecError, SpecError
from rulespec.spec.loader import JsonPath, Marks, load_yaml, read_text

#: Marks every line the upgrade wrote that a person should confirm.
TODO = "TODO(rulespec upgrade)"
#: A key line of a block mapping: its indentation, an optional list dash, the key.
_KEY_LINE = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<key>[A-Za-z_][\w-]*):(\s|$)")


class UpgradeError(RulespecError):
    """A spec that cannot be upgraded as it is (it does not load, or the rewrite would not
    validate); nothing was written."""

    exit_code = 2


@dataclass
class Upgrade:
    """What an upgrade did to one spec, and what it left to a person."""

    path: Path
    old_text: str
    new_text: str
    declared: str
    target: str
    #: One line per edit made.
    done: list[str] = field(default_factory=list)
    #: One line per thing a person must decide or do by hand.
    todo: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Return whether the text changed."""
        return self.new_text != self.old_text

    def diff(self) -> str:
        """Return the rewrite as a unified diff."""
        import difflib

        return "".join(difflib.unified_diff(
            self.old_text.splitlines(keepends=True), self.new_text.splitlines(keepends=True),
            f"{self.path} ({self.declared})", f"{self.path} ({self.target})"))


@dataclass
class _Edits:
    """Lines to insert after given lines (0-based), and lines to replace."""

    after: dict[int, list[str]] = field(default_factory=dict)
    replace: dict[int, str] = field(default_factory=dict)

    def apply(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        for i, line in enumerate(lines):
            out.append(self.replace.get(i, line))
            out.extend(self.after.get(i, []))
        return out


def _key_line(lines: list[str], marks: Marks, path: JsonPath) -> tuple[int, int] | None:
    """Return (line index, indentation of the mapping's keys) of the key line holding ``path``'s
    value, when that value starts on a block-mapping key line (None otherwise)."""
    where = marks.exact(path)
    if where is None:
        return None
    index = where[0] - 1
    match = _KEY_LINE.match(lines[index])
    if match is None or match.group("key") != str(path[-1]):
        return None
    return index, len(match.group("indent")) + len(match.group("dash") or "")


def _item(data: Mapping[str, Any], path: JsonPath) -> Any:
    node: Any = data
    for part in path:
        node = node[part]
    return node


def _add_effects(data: Mapping[str, Any], lines: list[str], marks: Marks, edits: _Edits,
                 result: Upgrade) -> None:
    for i, record in enumerate(data.get("ambiguities") or []):
        if not isinstance(record, Mapping) or record.get("effect") in provenance.EFFECTS:
            continue
        rid = str(record.get("id"))
        found = _key_line(lines, marks, ("ambiguities", i, "id"))
        if found is None:
            result.todo.append(f"{rid}: add `effect:` by hand (the record is not written as a "
                               "block mapping with `id:` on a line of its own)")
            continue
        line, indent = found
        edits.after.setdefault(line, []).append(
            f"{' ' * indent}effect: outcome  # {TODO}: outcome is the cautious reading; write "
            "order if the record only reorders play, cosmetic if no engine does anything "
            "differently")
        result.done.append(f"{rid}: effect: outcome (marked {TODO}: confirm it)")


def _readers_by_clause(data: Mapping[str, Any]) -> dict[str, list[provenance.Element]]:
    out: dict[str, list[provenance.Element]] = {}
    for element in provenance.elements(data):
        for clause in element.clauses:
            out.setdefault(clause, []).append(element)
    return out


def _add_readings(data: Mapping[str, Any], lines: list[str], marks: Marks, edits: _Edits,
                  result: Upgrade) -> None:
    read = {r for e in provenance.elements(data) for r in e.readings}
    by_clause = _readers_by_clause(data)
    wanted: dict[JsonPath, list[str]] = {}
    for record in data.get("ambiguities") or []:
        if not isinstance(record, Mapping):
            continue
        rid = str(record.get("id"))
        if rid in read or record.get("status") in provenance.UNREAD_STATUSES:
            continue
        clauses = [str(c) for c in record.get("clauses") or []]
        elements = {e.path: e for c in clauses for e in by_clause.get(c, [])}
        if not elements:
            result.todo.append(
                f"{rid}: no element cites its clauses ({', '.join(clauses) or 'none'}); add "
                f"{rid} to the readings of the elements whose behaviour its ruling decides, or "
                "reject the record if none depends on it")
            continue
        for path in elements:
            wanted.setdefault(path, []).append(rid)
        names = ", ".join(f"{e.kind} {e.ident!r}" for e in elements.values())
        result.done.append(f"{rid}: read by {names}, which cite its clauses (marked {TODO}: "
                           "confirm each reads it)")
    for path, records in wanted.items():
        if not _insert_readings(data, lines, marks, edits, path, records):
            element = _item(data, path)
            result.todo.append(f"{', '.join(records)}: add to the readings of "
                               f"{element.get('id', path)} by hand (its readings are not "
                               "written in a form the upgrade edits)")


def _insert_readings(data: Mapping[str, Any], lines: list[str], marks: Marks, edits: _Edits,
                     path: JsonPath, records: list[str]) -> bool:
    element = _item(data, path)
    note = f"  # {TODO}: confirm it reads {', '.join(records)}"
    existing = element.get("readings")
    if isinstance(existing, list) and existing:
        found = _key_line(lines, marks, (*path, "readings"))
        if found is None:
            return False
        line = lines[found[0]]
        if line.rstrip().endswith("]") and "[" in line and "#" not in line:
            edits.replace[found[0]] = line.rstrip()[:-1] + ", " + ", ".join(records) + "]" + note
            return True
        last = marks.exact((*path, "readings", len(existing) - 1))
        if last is None:
            return False
        item_line = lines[last[0] - 1]
        dash = item_line[:len(item_line) - len(item_line.lstrip())]
        edits.after.setdefault(last[0] - 1, []).extend(f"{dash}- {r}{note}" for r in records)
        return True
    first_key = next(iter(element), None)
    if first_key is None:
        return False
    found = _key_line(lines, marks, (*path, first_key))
    if found is None or lines[found[0]].rstrip().endswith((":", "|", ">", "|-", ">-")):
        return False
    edits.after.setdefault(found[0], []).append(
        f"{' ' * found[1]}readings: [{', '.join(records)}]{note}")
    return True


def _set_format(lines: list[str], marks: Marks, declared: str, target: str,
                edits: _Edits) -> bool:
    found = _key_line(lines, marks, ("format",))
    if found is None or declared not in lines[found[0]]:
        return False
    edits.replace[found[0]] = lines[found[0]].replace(declared, target, 1)
    return True


def plan(path: Path) -> Upgrade:
    """Return the upgrade of the spec at ``path`` to the current format (nothing is written).

    Raises UpgradeError when the spec does not load, or when the rewritten text would not
    validate.
    """
    from rulespec.spec.validate import spec_from_text

    text = read_text(path)
    data, marks = load_yaml(text, str(path))
    if not isinstance(data, dict):
        raise UpgradeError(f"{path}: a spec must be a mapping at the top level")
    declared = str(data.get("format"))
    target = formats.CURRENT_FORMAT
    result = Upgrade(path, text, text, declared, target)
    if declared not in formats.FORMATS:
        raise UpgradeError(f"{path}: format {declared!r} is not one rulespec knows "
                           f"({', '.join(formats.FORMATS)}); fix it first")
    if declared == target:
        return result
    lines = text.splitlines()
    edits = _Edits()
    _add_effects(data, lines, marks, edits, result)
    _add_readings(data, lines, marks, edits, result)
    if result.todo:
        result.todo.append(f"the spec keeps format {declared} until these are done; run "
                           "`rulespec upgrade` again then")
    elif _set_format(lines, marks, declared, target, edits):
        result.done.append(f"format: {declared} -> {target}")
    else:
        result.todo.append(f"write `format: {target}` by hand (the format line is not a plain "
                           "key line)")
    new_text = "\n".join(edits.apply(lines)) + ("\n" if text.endswith("\n") else "")
    try:
        with warnings.catch_warnings():  # a spec that keeps its format still warns; said above
            warnings.simplefilter("ignore", RulespecDeprecationWarning)
            spec_from_text(new_text, path, label=f"{path} (upgraded)")
    except SpecError as exc:
        raise UpgradeError(f"{path}: the upgraded text would not validate, so nothing was "
                           f"written; please report it, with the spec:\n{exc}") from None
    result.new_text = new_text
    return result


def write(result: Upgrade) -> None:
    """Write an upgrade's text over its spec file, whole (a temporary file moved into place)."""
    folder = result.path.parent
    handle, scratch = tempfile.mkstemp(prefix=f".{result.path.name}.", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(result.new_text)
        os.chmod(scratch, result.path.stat().st_mode & 0o7777)
        os.replace(scratch, result.path)
    except OSError as exc:
        Path(scratch).unlink(missing_ok=True)
        raise UpgradeError(f"{result.path}: cannot be written: {exc.strerror}; nothing was "
                           "changed") from None
