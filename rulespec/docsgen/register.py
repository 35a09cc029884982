"""The ambiguity register: the filterable summary table, one record, the cross-game page."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulespec.docsgen.changes import entry_link, lineage_note
from rulespec.docsgen.exact import exact_block
from rulespec.docsgen.history import Entry, History
from rulespec.docsgen.impact import impact_block, measured_cell, what_matters_most
from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import (
    Page,
    anchor,
    badge,
    code,
    linked_addresses,
    plural,
    scalar,
    table,
    text,
    unsearched,
)
from rulespec.spec.model import Spec

#: Where the cross-game ambiguity register lives, relative to the docs folder.
REGISTER_PAGE = "ambiguities.md"
#: Columns of the register table the page first hides (its column chooser shows them; the
#: filters, the sort and the exports still read them). The rest of the cross-game register fits
#: its page at a 1280 px window (navigation and contents hidden).
HIDDEN_COLUMNS = ("Kind", "Authority", "Options", "Clauses", "Impact", "Last change")
#: A game's register page keeps its navigation and contents (the list of its records), so its
#: table first hides the default option too.
GAME_HIDDEN_COLUMNS = (*HIDDEN_COLUMNS, "Default")
#: The statuses of a record whose question is still open (the lifecycle's reported, triaged and
#: deferred: no ruling, printed text or outside authority has closed it). The register's status
#: filter offers them as one choice, *open*.
OPEN_STATUSES = ("reported", "triaged", "deferred")
#: The register's columns whose first click sorts largest first: what was measured, by
#: importance (the largest effect first, "never reached" after "no effect", unmeasured last).
DESCENDING_FIRST = ("Measured effect",)


def register_table(items: Sequence[tuple[Spec, Mapping[str, Any]]], *, prefix: str,
                   with_game: bool, histories: Mapping[str, History] | None = None) -> str:
    """Return the sortable, filterable summary table of ambiguity records.

    The register script (``docs/javascripts/register.js``) first shows the columns named in
    ``data-columns`` (all but :data:`HIDDEN_COLUMNS`, or :data:`GAME_HIDDEN_COLUMNS` on a
    game's page) and offers the others in a chooser. Cells whose shown text is not the value a
    URL should carry (the game's display name) wrap it in ``data-key``; the register script
    filters and sorts on that key. With the games' ``histories``, a last change that came with a release links to its entry on the game's
    Changes page (the date stays the cell's text, so sorting and exports are unchanged).
    """
    filters = (["Game"] if with_game else []) + ["Status", "Severity", "Kind", "Authority"]
    headers = ["Id", *(["Game"] if with_game else []), "Title", "Status", "Severity", "Kind",
               "Default", "Authority", "Options", "Clauses", "Impact", "Measured effect",
               "Last change"]
    rows = []
    for spec, amb in items:
        links = Links(spec)
        link_prefix = f"{prefix}{game_dir(spec)}/" if with_game else ""
        row = [links.to(str(amb["id"]), prefix=link_prefix)]
        if with_game:
            row.append(f'<span data-key="{html.escape(spec.game_id)}">{text(game_title(spec))}</span>')
        impact = amb.get("impact") or {}
        row += [text(amb["title"]), badge("status", str(amb["status"])),
                badge("severity", str(amb["severity"])), badge("kind", str(amb["kind"])),
                code(amb["default"]["option"]), badge("authority", str(amb["default"]["authority"])),
                ", ".join(code(o["id"]) for o in amb["options"]),
                links.many(amb["clauses"], prefix=link_prefix),
                links.prose(_short(str(impact.get("text", ""))), prefix=link_prefix)
                + (" (measured)" if impact.get("measured") else ""),
                measured_cell(spec, amb),
                _last_change(amb, (histories or {}).get(spec.game_id), link_prefix)]
        rows.append(row)
    hidden = HIDDEN_COLUMNS if with_game else GAME_HIDDEN_COLUMNS
    shown = [h for h in headers if h not in hidden]
    # Left out of the site search: every cell repeats what the record's own section says.
    return (f'<div class="rs-register" data-filters="{",".join(filters)}" '
            f'data-columns="{",".join(shown)}" data-groups="Status:open={"|".join(OPEN_STATUSES)}" '
            f'data-descending="{",".join(DESCENDING_FIRST)}" data-search-exclude markdown>\n\n'
            + table(headers, rows) + "\n</div>\n\n")


def _last_change(amb: Mapping[str, Any], history: History | None, prefix: str) -> str:
    """Return the date of a record's last history entry, linked to the release that has it."""
    events = amb.get("history") or []
    if not events:
        return ""
    last = events[-1]
    released = None if history is None else history.released_with(str(amb["id"]), last)
    if released is None or released.version is None:
        return code(last["date"])
    return entry_link(released, prefix=prefix, label=str(last["date"]),
                      hint=f"came with release {released.version}")


def _short(value: str, limit: int = 90) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[:limit].rsplit(" ", 1)[0] + " …"


def ambiguity_block(amb: Mapping[str, Any], links: Links, history: History | None = None, *,
                    more: str = "") -> str:
    """Return one record: what it asks and what was found at once, the rest folded.

    Shown at once: its badges, question, default and the verdict of its measured impact. The
    fold (``<details class="rs-record">``, :data:`RECORD_FOLD`) holds its sources, options,
    the default's rationale, rejected readings, evidence, exact and measured figures, history
    and ``more`` (its witnesses and traces); the register script opens it when the address
    names the record, and a heavy page's build moves it to a part of its own
    (:mod:`rulespec.docsgen.parts`), so the register of a game with many measured records
    stays under the page budget (issue 45).

    With the game's ``history`` it says in which release it appeared and last changed.
    """
    aid = str(amb["id"])
    out = [f"## {aid}: {text(amb['title'])} {anchor(aid)}\n\n"]
    lineage = "" if history is None else lineage_note(history.lineage("ambiguities", aid))
    out.append(" ".join([badge("status", str(amb["status"])), badge("severity", str(amb["severity"])),
                         badge("kind", str(amb["kind"])), *([lineage] if lineage else [])])
               + "\n\n")
    out.append(f"**Question.** {links.prose(amb['question'])}\n\n")
    if amb.get("duplicate_of"):
        out.append(f"Duplicate of {links.to(str(amb['duplicate_of']))}.\n\n")
    default = amb["default"]
    out.append(f"**Default:** {code(default['option'])} (authority: "
               f"{badge('authority', str(default['authority']))}).\n\n")
    verdict, figures = _impact_parts(impact_block(amb, links))
    out.append(verdict)
    folded, named = _folded(amb, links, figures)
    body = folded + more
    if body.strip():
        out.append(f'<details class="{RECORD_FOLD}" markdown>\n<summary>The whole record: '
                   f"{', '.join([*named, *(['witnesses and traces'] if more.strip() else [])])}"
                   f"</summary>\n\n{body.rstrip()}\n\n</details>\n\n")
    return "".join(out)


#: The class of a record's fold (its sources, options, figures, history, witnesses).
RECORD_FOLD = "rs-record"


def _impact_parts(block: str) -> tuple[str, str]:
    """Split a record's impact block into its verdict (the **Impact.** and **Measured.**
    paragraphs, shown at once) and its figures (tables, charts, precision: folded)."""
    verdict: list[str] = []
    rest = block
    while rest.startswith(("**Impact.**", "**Measured.**")):
        paragraph, _, rest = rest.partition("\n\n")
        verdict.append(paragraph + "\n\n")
    return "".join(verdict), rest


def _folded(amb: Mapping[str, Any], links: Links, figures: str) -> tuple[str, list[str]]:
    """Return a record's folded body and the names of what it holds, for the fold's summary."""
    out: list[str] = []
    named: list[str] = []
    if amb.get("sources"):
        named.append("sources")
        out.append("**Sources.**\n\n")
        for number, cit in enumerate(amb["sources"], 1):
            where = f"{code(cit['source'])}, section {code(cit['section'])}"
            out.append(f"{number}. “{text(cit['quote'])}” ({where})"
                       + (f": {text(cit['note'])}" if cit.get("note") else "") + "\n")
        out.append("\n")
        for a, b in amb.get("conflicts", []):
            out.append(f"Source {a + 1} contradicts source {b + 1}.\n\n")
    out.append(f"**Clauses:** {links.many(amb['clauses'])}\n\n" if amb["clauses"] else "")
    if amb.get("touches"):
        out.append(f"**Touches:** {links.many(amb['touches'])}\n\n")
    default = amb["default"]
    named.append("options")
    rows = []
    for opt in amb["options"]:
        how = []
        if opt.get("parameters"):
            how.append("; ".join(f"{links.to(str(k))} = {scalar(v)}"
                                 for k, v in opt["parameters"].items()))
        if opt.get("behaviour"):
            how.append("behaviour in the reference")
        mark = "**default**" if opt["id"] == default["option"] else ""
        rows.append([code(opt["id"]), links.prose(opt["summary"]), "; ".join(how), mark])
    out.append("**Options.**\n\n" + table(["Option", "Reading", "Implemented as", ""], rows) + "\n")
    out.append(f"**Why {code(default['option'])}.** {links.prose(default['rationale'])}\n\n")
    if amb.get("rejected"):
        out.append("**Rejected readings.**\n\n")
        for rej in amb["rejected"]:
            out.append(f"- {links.prose(rej['summary'])} Rejected because: "
                       f"{links.prose(rej['reason'])}\n")
        out.append("\n")
    if amb.get("evidence"):
        named.append("evidence")
        out.append("**Evidence.**\n\n")
        for ev in amb["evidence"]:
            about = [text(ev["kind"])] if ev.get("kind") else []
            if ev.get("source"):
                about.append(f"source: {linked_addresses(ev['source'])}")
            if ev.get("date"):
                about.append(f"consulted {code(ev['date'])}")
            out.append(f"- {links.prose(ev['text'])}"
                       + (f" ({'; '.join(about)})" if about else "") + "\n")
        out.append("\n")
    # Exact figures first, where rulespec verify proved the record's options (issue 44 item 5).
    exact = exact_block(links.spec.game_id, str(amb["id"]))
    if exact:
        named.append("exact figures")
    out.append(exact)
    if figures.strip():
        named.append("measured figures")
    out.append(figures)
    if amb.get("history"):
        named.append("history")
        # Left out of the site search: the changelog carries each real change and its note.
        out.append(unsearched("**History.**\n\n" + table(["Date", "Status", "Note"], [
            [code(h["date"]), badge("status", str(h["status"])), links.prose(h.get("note", ""))]
            for h in amb["history"]])) + "\n")
    return "".join(out), named


def register_page(specs: Sequence[Spec], *, histories: Mapping[str, History] | None = None
                  ) -> Page:
    """Return the cross-game ambiguity register for rule editors.

    With the games' ``histories`` (by game id), a last change that came with a release links
    to it.
    """
    items = [(spec, amb) for spec in specs for amb in spec.section("ambiguities")]
    out = ['---\ntitle: "Ambiguity register: all games"\nhide:\n  - navigation\n  - toc\n---\n\n'
           "# Ambiguity register\n\n",
           "Every ambiguity of every game: contradictions, gaps, unclear wording, translation "
           "damage and editorial slips. Filter by game, status, severity and kind; click a column "
           "heading to sort. Filters and sort are kept in the address "
           "(`?game=fool&status=ruled&sort=-id`), so a filtered view can be shared; export "
           "what is shown as CSV or JSON (every column). *Columns* shows the columns hidden "
           "to fit the page (kind, authority, options, clauses, impact, last change); the text "
           "filter reads them too. Games are named by their id in the address. See "
           "[the ambiguity lifecycle](editors/ambiguity-lifecycle.md) for what each status "
           "means; the [changelog](#changelog) lists what changed in the register. Sort by "
           "*Measured effect* (`?sort=-measured-effect`) to see which rulings measurably "
           "change the outcome; "
           "[what matters most](#what-matters-most) ranks them per game.\n\n"]
    if not items:
        out.append("No ambiguities are recorded yet.\n")
        return Page(REGISTER_PAGE, "".join(out))
    counts: dict[str, int] = {}
    for _, amb in items:
        counts[str(amb["status"])] = counts.get(str(amb["status"]), 0) + 1
    out.append(plural(len(items), "record") + ": "
               + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ".\n\n")
    out.append(register_table(items, prefix="", with_game=True, histories=histories))
    out.append(what_matters_most(specs))
    out.append(changelog(items, histories=histories))
    return Page(REGISTER_PAGE, "".join(out))


@dataclass(frozen=True)
class _Event:
    """What one record's history says happened to it on one day: its last entry that day."""

    date: str
    spec: Spec
    record: Mapping[str, Any]
    entry: Mapping[str, Any]
    #: The status the day started from (None: the record was added that day).
    before: str | None


def register_events(items: Sequence[tuple[Spec, Mapping[str, Any]]]) -> list[_Event]:
    """Return the register's real changes: each record's addition and each later change of
    status, one per record and day.

    A record written with its lifecycle already run (reported, triaged and ruled on one day, as
    a record added with its ruling is) is one addition in its final status, not three rows; a
    day whose entries end where the day began changed nothing.
    """
    events = []
    for spec, amb in items:
        days: dict[str, list[Mapping[str, Any]]] = {}
        for entry in amb.get("history") or []:
            days.setdefault(str(entry["date"]), []).append(entry)
        before: str | None = None
        for date in sorted(days):
            last = days[date][-1]
            if before is None or str(last["status"]) != before:
                events.append(_Event(date, spec, amb, last, before))
            before = str(last["status"])
    return events


def changelog(items: Sequence[tuple[Spec, Mapping[str, Any]]], *,
              histories: Mapping[str, History] | None = None) -> str:
    """Return the register's changelog: its real changes (:func:`register_events`), newest
    first; the records one game added on one day, with one release, are one row.

    With the games' ``histories``, a change that came with a release links to it.
    """
    out = [f"## Changelog {anchor('changelog')}\n\n"]
    events = register_events(items)
    if not events:
        return out[0] + "No record has a dated history entry yet.\n"
    out.append("What changed in the register, newest first: the records each game added (in "
               "their status when added) and every later change of a record's status, with "
               "its reason. A record's whole history is in its own entry; a date links to the "
               "release that carried the change.\n\n")
    additions: dict[tuple[str, str, str], list[_Event]] = {}
    rows: list[tuple[str, str, int, list[str]]] = []
    for event in events:
        if event.before is None:
            released = _released(event, histories)
            version = "" if released is None else str(released.version)
            additions.setdefault((event.date, event.spec.game_id, version), []).append(event)
            continue
        links = Links(event.spec)
        prefix = f"{game_dir(event.spec)}/"
        rows.append((event.date, event.spec.game_id, 1, [
            _when(event, histories), text(game_title(event.spec)),
            links.to(str(event.record["id"]), prefix=prefix) + " " + text(event.record["title"]),
            f"{badge('status', str(event.before))} → "
            f"{badge('status', str(event.entry['status']))}",
            links.prose(event.entry.get("note", ""), prefix=prefix)]))
    for (date, game, _), group in additions.items():
        spec = group[0].spec
        links = Links(spec)
        statuses: dict[str, int] = {}
        for event in group:
            statuses[str(event.entry["status"])] = statuses.get(str(event.entry["status"]), 0) + 1
        rows.append((date, game, 0, [
            _when(group[0], histories), text(game_title(spec)),
            links.many([e.record["id"] for e in group], prefix=f"{game_dir(spec)}/"),
            plural(len(group), "record") + " added: " + ", ".join(
                f"{n} {badge('status', status)}" for status, n in sorted(statuses.items())),
            ""]))
    rows.sort(key=lambda row: (row[1], row[2]))  # by game, additions first; then newest first
    rows.sort(key=lambda row: row[0], reverse=True)
    return "".join(out) + table(["Date", "Game", "Records", "Change", "Why"],
                                [cells for *_, cells in rows])


def _released(event: _Event, histories: Mapping[str, History] | None) -> Entry | None:
    history = (histories or {}).get(event.spec.game_id)
    return None if history is None else history.released_with(str(event.record["id"]),
                                                              event.entry)


def _when(event: _Event, histories: Mapping[str, History] | None) -> str:
    """Return the event's date, linked to the release that carried it when one did."""
    released = _released(event, histories)
    if released is None or released.version is None:
        return code(event.date)
    return entry_link(released, prefix=f"{game_dir(event.spec)}/", label=event.date,
                      hint=f"came with release {released.version}")
