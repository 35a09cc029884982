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
import re

from rulespec.docsgen.history import Entry, History, Lineage
from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import (
    Page,
    anchor,
    code,
    front_matter,
    plural,
    table,
    text,
    unsearched,
)
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
    starts = since_starts(history)
    if starts:
        out.append(f"**What changed since your release?** {since_links(history)}: everything "
                   "from that release to today in one list, MAJOR first, each change with the "
                   f"clauses it touches ([how it is built](#{SINCE_ANCHOR})).\n\n")
    out.append(_summary_table(entries) + "\n")
    for entry in entries:
        out.append(_entry_section(spec, entry, links))
    if starts:
        out.append(_since_section(spec, history, starts, links))
    return Page(f"{game_dir(spec)}/{CHANGES_PAGE}", "".join(out))


# -- since a release ------------------------------------------------------------------------------

#: The anchor of the Changes page's section of lists "since release X" (each ``since-X``).
SINCE_ANCHOR = "since"


def since_anchor(version: str) -> str:
    """Return the anchor of the list of changes since release ``version``."""
    return f"since-{version}"


def since_starts(history: History) -> list[Entry]:
    """Return the releases a "since" list starts from, oldest first: the frozen ones that
    later entries compare with (so their diffs chain exactly from it to today)."""
    entries = history.entries
    return [entry for at, entry in enumerate(entries)
            if entry.version is not None and entry.frozen
            and any(later.diff is not None for later in entries[at + 1:])]


def since_links(history: History, *, page: str = "", link_text: str = "{}") -> str:
    """Return links to each "since" list of the game's Changes page (``page`` is its address
    from the linking page, empty on it), or nothing when there is none."""
    return " · ".join(f"[{link_text.format(code(e.label))}]({page}#{since_anchor(e.label)})"
                      for e in since_starts(history))


def _since_section(spec: Spec, history: History, starts: list[Entry], links: Links) -> str:
    newest = history.entries[-1]
    out = [f"## Since a release {anchor(SINCE_ANCHOR)}\n\n",
           "For each release, every change made since, in one list: the bulletins of the "
           "releases after it (and of the unreleased edits), MAJOR changes first, each saying "
           "the release that brought it and the clauses and records it touches; PATCH changes "
           "are counted.\n\n"]
    for start in starts:
        after = history.entries[history.entries.index(start) + 1:]
        carried = [e for e in after if e.diff is not None]
        changes = [(e, c) for e in carried if e.diff is not None for c in e.diff.changes]
        target = (f"specs/{spec.path.name} --against {spec.game_id}@{start.label}"
                  if newest.version is None or not newest.frozen else
                  f"{spec.game_id}@{start.label} {spec.game_id}@{newest.label}")
        found = {level: [(e, c) for e, c in changes if c.level == level] for level in LEVELS}
        largest = next((level for level in reversed(LEVELS) if found[level]), None)
        out.append(f"### Since {start.label} {anchor(since_anchor(start.label))}\n\n")
        out.append(f"{plural(len(changes), 'change')} in "
                   + ", ".join(entry_link(e, label=e.label) for e in carried)
                   + (f", the largest {largest.upper()}" if largest else "")
                   + f". Compare them yourself: `rulespec diff {target}` "
                   "(`--for-implementers` for what an engine changes).\n\n")
        lists = []
        for level in reversed(LEVELS):
            if not found[level]:
                continue
            if level == "patch":
                lists.append(f"**{_HEADINGS[level]}**: {len(found[level])}, counted by rule in "
                             "each release's entry.\n\n")
                continue
            lists.append(f"**{_HEADINGS[level]}**\n\n")
            lists.append("".join(_change_item(c, links, entry=e) for e, c in found[level]) + "\n")
        # The entries above say each change once to the site search; these lists repeat them.
        out.append(unsearched("".join(lists)) + "\n" if lists else "")
    return "".join(out)


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
        if not diff.ok:
            out.append(f": they need at least {code(need)}, more than "
                       f"{code(diff.new_version)}.\n\n")
        elif diff.new_version == need:
            out.append(f": a {diff.level.upper()} release, as they require.\n\n")
        else:
            out.append(f": they require at least {code(need)}, and {code(diff.new_version)} "
                       "is more.\n\n")
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


def _change_item(change: Change, links: Links, *, entry: Entry | None = None) -> str:
    cites = [f"in {entry_link(entry)}"] if entry is not None else []
    if change.clauses:
        cites.append(f"clauses: {links.many(change.clauses)}")
    if change.records:
        cites.append(f"records: {links.many(change.records)}")
    tail = f" ({'; '.join(cites)})" if cites else ""
    return (f"- **{text(change.rule)}** {code(change.path)}: "
            f"{links.prose(readable_reason(change.reason))}{tail}\n")


#: A bound or value a schema did not have, or no longer has, as ``rulespec diff`` words it
#: (``maximum None -> 5``: releases/schemadiff.py prints Python's repr of the absent value).
_NONE_BEFORE = re.compile(r"\b([A-Za-z_]\w*) None -> (\S+)")
_NONE_AFTER = re.compile(r"\b([A-Za-z_]\w*) (\S+) -> None\b")


def readable_reason(reason: str) -> str:
    """Return a change's reason without Python's ``None`` for an absent value."""
    reason = _NONE_BEFORE.sub(r"\1 \2 (none before)", reason)
    return _NONE_AFTER.sub(r"\1 \2 dropped (none now)", reason)


def _patch_counts(changes: list[Change]) -> str:
    counts: dict[str, int] = {}
    for change in changes:
        counts[change.rule] = counts.get(change.rule, 0) + 1
    return table(["Rule", "Count", "What it means"], [
        [f"**{text(rule)}**", str(n), text(RULE[rule].reason)] for rule, n in sorted(counts.items())])
