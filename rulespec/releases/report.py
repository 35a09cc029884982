"""Format a ``SpecDiff``: text for people, a markdown bulletin, JSON for tools."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from rulespec.releases.change import Change
from rulespec.releases.diff import SpecDiff
from rulespec.releases.rules import LEVELS, RULE, Level
from rulespec.spec.model import Spec

#: Formats ``render`` knows.
FORMATS = ("text", "markdown", "json")

_HEADINGS: dict[Level, str] = {
    "major": "Breaking changes (MAJOR)",
    "minor": "Additions (MINOR)",
    "patch": "Corrections and documentation (PATCH)",
}


#: PATCH rules listed one by one even without --verbose: a clause's words are what engines'
#: authors read (a statement reversed in meaning is PATCH by the rules, and must be seen), and
#: an edited release must say where it was edited.
ALWAYS_LISTED = frozenset({"CLAUSE_STATEMENT_CHANGED", "RELEASE_EDITED"})


def _values(change: Change, indent: str) -> list[str]:
    """Return the lines showing a change's old and new values (none when it has neither)."""
    lines = []
    if change.old is not None:
        lines.append(f"{indent}was: {change.old}")
    if change.new is not None:
        lines.append(f"{indent}now: {change.new}")
    return lines


def _text_item(change: Change) -> list[str]:
    return [f"  {change.rule} {change.path}: {change.reason}{_cites(change)}",
            *_values(change, "      ")]


def _cites(change: Change) -> str:
    parts = []
    if change.clauses:
        parts.append(f"clauses: {', '.join(change.clauses)}")
    if change.records:
        parts.append(f"records: {', '.join(change.records)}")
    return f" [{'; '.join(parts)}]" if parts else ""


def text(diff: SpecDiff, *, verbose: bool = False) -> str:
    """Return the diff for a terminal: the verdict, then every MAJOR and MINOR change.

    PATCH changes are counted by rule unless ``verbose``.
    """
    lines = [diff.verdict()]
    if diff.replayed:
        lines.append(f"replayed from {diff.old_label}: {diff.replayed}")
    lines += [f"note: {n}" for n in diff.notes]
    for level in reversed(LEVELS):
        found = diff.by_level(level)
        if not found:
            continue
        lines.append(f"{level.upper()} ({len(found)}):")
        if level == "patch" and not verbose:
            counts: dict[str, int] = {}
            for c in found:
                if c.rule in ALWAYS_LISTED:
                    lines += _text_item(c)
                else:
                    counts[c.rule] = counts.get(c.rule, 0) + 1
            lines += [f"  {rule} x{n}: {RULE[rule].reason}" for rule, n in sorted(counts.items())]
            if counts:
                lines.append("  (--verbose lists each)")
            continue
        for c in found:
            lines += _text_item(c)
    if diff.hints:
        lines.append(f"INFO ({len(diff.hints)}, no bump needed):")
        for c in diff.hints:
            lines += _text_item(c)
    return "\n".join(lines)


def _md_escape(value: str) -> str:
    return value.replace("|", "\\|").replace("<", "&lt;")


def _md_value(value: str) -> str:
    """Return a value as markdown text that renders as written (no emphasis, no code)."""
    for ch in "\\`*_[]#":
        value = value.replace(ch, "\\" + ch)
    return _md_escape(value)


def _md_items(changes: Sequence[Change]) -> Iterator[str]:
    for c in changes:
        yield f"- **{c.rule}** `{c.path}`: {_md_escape(c.reason)}{_md_escape(_cites(c))}"
        if c.old is not None:
            yield f"    - was: {_md_value(c.old)}"
        if c.new is not None:
            yield f"    - now: {_md_value(c.new)}"


def markdown(diff: SpecDiff, new: Spec | None = None) -> str:
    """Return the diff as an update bulletin (as MTG's Comprehensive Rules bulletins)."""
    from rulespec.releases.store import releases_of

    name = new.name if new is not None else diff.game
    entry = None
    if new is not None:
        entry = next((r for r in releases_of(new) if r.version == diff.new_version), None)
    head = f"# {name} {diff.new_version}"
    if entry is not None:
        head += f" ({entry.date})"
    lines = [head, ""]
    if entry is not None:
        lines += [entry.summary, ""]
    need = diff.required_bump()
    verdict = (f"a {diff.level.upper()} release, as they require" if diff.ok and
               diff.level != "none" else "no release needed" if diff.ok else
               f"{diff.new_version} is too small: they need at least {need}")
    lines += [f"Changes since {diff.old_version} ({diff.old_label}): {len(diff.changes)}, the "
              f"largest {diff.level.upper()}; {verdict}.", ""]
    if diff.replayed:
        lines += [f"Behaviour checked by replaying {diff.old_version}'s evidence on the new "
                  f"reference: {diff.replayed}.", ""]
    lines += [f"> {n}" for n in diff.notes]
    for level in reversed(LEVELS):
        found = diff.by_level(level)
        if found:
            lines += [f"## {_HEADINGS[level]}", "", *_md_items(found), ""]
    if diff.hints:
        lines += ["## Possible renames (no bump needed)", "", *_md_items(diff.hints), ""]
    return "\n".join(lines).rstrip() + "\n"


def as_json(diff: SpecDiff) -> str:
    """Return the diff as JSON (``rulespec-diff/1``)."""
    return json.dumps(diff.to_json(), indent=2, ensure_ascii=False)


def render(diff: SpecDiff, fmt: str, *, new: Spec | None = None, verbose: bool = False) -> str:
    """Return the diff in format ``fmt`` (one of FORMATS)."""
    if fmt == "json":
        return as_json(diff)
    if fmt == "markdown":
        return markdown(diff, new)
    return text(diff, verbose=verbose)
