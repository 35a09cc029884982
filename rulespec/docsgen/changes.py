"""A game's Changes page: every release, newest first, with its summary and its bulletin.

The bulletin is what ``rulespec diff`` finds between a release and the one before it (see
``history``): MAJOR and MINOR changes one by one with their rule, path, reason, clauses and
records; PATCH changes counted by rule, as ``rulespec diff`` prints them. The version notes the
clause and register pages show (``since 1.1.0 · changed in 2.0.0``) link here; they count only
changes of rule (``history.is_normative``), and an entry with none says it is
:data:`BOOKKEEPING_ONLY`.
"""

from __future__ import annotations

import html

from rulespec.docsgen.history import Entry, History, Lineage
from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import Page, anchor, code, front_matter, plural, table, text
from rulespec.releases.change import Change
from rulespec.releases.diff import SpecDiff
from rulespec.releases.rules import LEVELS, RULE, Level
from rulespec.spec.model import Spec

CHANGES_PAGE = "changes.md"
CHANGES_TITLE = "Changes"
#: Where the feed of every game's releases lives, relative to the docs folder (the site root).
FEED_PATH = "releases.xml"
#: What the Changes page and the feed say of an entry whose changes change no rule.
BOOKKEEPING_ONLY = "Bookkeeping only: no rule changed"
#: Why, the sentence after :data:`BOOKKEEPING_ONLY`.
BOOKKEEPING_WHY = ("Its changes are measurements, the wording of notes, provenance or fields that "
                   "moved: no clause or record says it changed here.")

_HEADINGS: dict[Level, str] = {
    "major": "Breaking changes (MAJOR)",
    "minor": "Additions (MINOR)",
    "patch": "Corrections and documentation (PATCH)",
}


def entry_link(entry: Entry, *, prefix: str = "", label: str | None = None,
               hint: str | None = None) -> str:
    """Return a Markdown link to ``entry`` on its game's Changes page.

    ``prefix`` leads from the linking page to the game's folder (empty from a game page);
    ``hint`` is the link's tooltip.
    """
    title = f' "{hint}"' if hint else ""
    return f"[{code(label or entry.label)}]({prefix}{CHANGES_PAGE}#{entry.anchor}{title})"


def lineage_note(lineage: Lineage, *, prefix: str = "") -> str:
    """Return ``since 1.0.0 · changed in 2.0.0`` with links to the Changes page, or nothing.

    An element changed only by its appearance says only when it appeared.
    """
    if lineage.appeared is None:
        return ""
    note = f"since {entry_link(lineage.appeared, prefix=prefix)}"
    if lineage.changed is not None and lineage.changed is not lineage.appeared:
        note += f" · changed in {entry_link(lineage.changed, prefix=prefix)}"
    return f'<span class="rs-lineage">{note}</span>'


def changes_page(spec: Spec, history: History) -> Page:
    """Return the Changes page of one game."""
    links = Links(spec)
    title = f"{game_title(spec)}: {CHANGES_TITLE}"
    out = [front_matter(title), f"# {text(title)}\n\n",
           f'<p class="rs-provenance">Generated from <code>specs/{html.escape(spec.path.name)}'
           "</code> and its frozen releases with <code>rulespec diff</code>. Do not edit this "
           "page: edit the spec and release it.</p>\n\n",
           "Every release of the spec, newest first: its date, its summary and its bulletin, "
           "what `rulespec diff` finds between it and the release before it. MAJOR changes can "
           "break an engine conformant to the release before, MINOR ones add, PATCH ones change "
           "words only ([the version policy](../../editors/versioning.md)). Subscribe to "
           f"[the releases feed](../../{FEED_PATH}) (Atom) to hear of each new release of "
           "every game.\n\n"
           "The notes *changed in* on the rules and register pages count only changes of rule: "
           "what an engine or a reader of the rules would notice (a clause's statement or "
           "quote; a record's question, options, default, status or decision points; anything "
           "MINOR or MAJOR). A release whose changes are all measurements, words of notes or "
           f"provenance says *{BOOKKEEPING_ONLY.lower()}*.\n\n"]
    entries = history.newest_first
    if not entries:
        out.append("The spec records no releases yet (no `game.releases`): see "
                   "[versioning specs](../../editors/versioning.md) to release it.\n")
        return Page(f"{game_dir(spec)}/{CHANGES_PAGE}", "".join(out))
    out.append(_summary_table(entries) + "\n")
    for entry in entries:
        out.append(_entry_section(spec, entry, links))
    return Page(f"{game_dir(spec)}/{CHANGES_PAGE}", "".join(out))


def _summary_table(entries: list[Entry]) -> str:
    rows = []
    for entry in entries:
        counts = [str(len(entry.diff.by_level(level))) if entry.diff is not None else ""
                  for level in reversed(LEVELS)]
        rows.append([f"[{code(entry.label)}](#{entry.anchor})", code(entry.date) if entry.date
                     else "", _largest(entry), *counts])
    return table(["Release", "Date", "Largest change", "MAJOR", "MINOR", "PATCH"], rows)


def _largest(entry: Entry) -> str:
    if entry.diff is not None:
        if not entry.diff.changes:
            return "no change"
        return entry.diff.level.upper() + (" (bookkeeping only)" if entry.bookkeeping_only else "")
    if entry.previous is None and entry.content is not None:
        return "first release"
    return "not frozen"


def _entry_section(spec: Spec, entry: Entry, links: Links) -> str:
    heading = "Unreleased" if entry.version is None else text(entry.version)
    out = [f"## {heading} {anchor(entry.anchor)}\n\n"]
    if entry.version is not None:
        out.append(f"Released {code(entry.date)}. {links.prose(entry.summary)}\n\n")
    else:
        out.append(f"{text(entry.summary)} The next release carries them: "
                   f"`rulespec diff --check {spec.game_id}` says which version it needs.\n\n")
    if entry.version is not None and not entry.frozen:
        out.append("Recorded in `game.releases` but not frozen yet"
                   + (": compared with today's spec.\n\n" if entry.content is not None else
                      ": its changes are in the entry of the next release.\n\n"))
    if entry.diff is None:
        if entry.previous is None and entry.content is not None:
            out.append(f"The first release: {plural(len(entry.content.section('clauses')), 'clause')}"
                       f" and {plural(len(entry.content.section('ambiguities')), 'record')}.\n\n")
        return "".join(out)
    out.append(_bulletin(spec, entry, entry.diff, links))
    return "".join(out)


def _bulletin(spec: Spec, entry: Entry, diff: SpecDiff, links: Links) -> str:
    old, new = f"{spec.game_id}@{diff.old_version}", f"{spec.game_id}@{diff.new_version}"
    command = f"rulespec diff {old} {new}" if entry.frozen else \
        f"rulespec diff specs/{spec.path.name} --against {old}"
    if not diff.changes:
        return f"No change since {code(diff.old_version)} (`{command}`).\n\n"
    out = [f"**{BOOKKEEPING_ONLY}.** {BOOKKEEPING_WHY}\n\n" if entry.bookkeeping_only else ""]
    out.append(f"{plural(len(diff.changes), 'change')} since {code(diff.old_version)}, the largest "
               f"{diff.level.upper()}")
    if entry.version is not None:
        need = diff.required_bump()
        out.append(f" ({code(diff.new_version)} is at least {code(need)}, as they need).\n\n"
                   if diff.ok else f": they need at least {code(need)}, more than "
                   f"{code(diff.new_version)}.\n\n")
    else:
        out.append(f": the next release must be at least {code(diff.required_bump())}.\n\n")
    if diff.replayed:
        out.append(f"Behaviour checked by replaying {code(diff.old_version)}'s evidence on the "
                   f"new reference: {text(diff.replayed)}. See it yourself: `{command}`.\n\n")
    out += [f"> {text(n)}\n\n" for n in diff.notes]
    for level in reversed(LEVELS):
        found = diff.by_level(level)
        if not found:
            continue
        out.append(f"### {_HEADINGS[level]} {anchor(f'{entry.anchor}-{level}')}\n\n")
        if level == "patch":
            out.append(_patch_counts(found) + f"\n`{command} --verbose` lists each.\n\n")
        else:
            out.append("".join(_change_item(c, links) for c in found) + "\n")
    return "".join(out)


def _change_item(change: Change, links: Links) -> str:
    cites = []
    if change.clauses:
        cites.append(f"clauses: {links.many(change.clauses)}")
    if change.records:
        cites.append(f"records: {links.many(change.records)}")
    tail = f" ({'; '.join(cites)})" if cites else ""
    return f"- **{text(change.rule)}** {code(change.path)}: {links.prose(change.reason)}{tail}\n"


def _patch_counts(changes: list[Change]) -> str:
    counts: dict[str, int] = {}
    for change in changes:
        counts[change.rule] = counts.get(change.rule, 0) + 1
    return table(["Rule", "Count", "What it means"], [
        [f"**{text(rule)}**", str(n), text(RULE[rule].reason)] for rule, n in sorted(counts.items())])
