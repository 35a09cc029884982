"""The ambiguity register: the filterable summary table, one record, the cross-game page."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.docsgen.changes import entry_link, lineage_note
from rulespec.docsgen.history import History
from rulespec.docsgen.impact import impact_block, measured_cell, what_matters_most
from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import (
    Page,
    anchor,
    badge,
    code,
    plural,
    scalar,
    table,
    text,
)
from rulespec.spec.model import Spec

#: Where the cross-game ambiguity register lives, relative to the docs folder.
REGISTER_PAGE = "ambiguities.md"


def register_table(items: Sequence[tuple[Spec, Mapping[str, Any]]], *, prefix: str,
                   with_game: bool, histories: Mapping[str, History] | None = None) -> str:
    """Return the sortable, filterable summary table of ambiguity records.

    Cells whose shown text is not the value a URL should carry (the game's display name) wrap
    it in ``data-key``; the register script filters and sorts on that key. With the games'
    ``histories``, a last change that came with a release links to its entry on the game's
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
    return (f'<div class="rs-register" data-filters="{",".join(filters)}" markdown>\n\n'
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


def ambiguity_block(amb: Mapping[str, Any], links: Links, history: History | None = None) -> str:
    """Return one record: its question, sources, options, default, evidence, impact, history.

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
    if amb.get("sources"):
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
    out.append(f"**Default:** {code(default['option'])} (authority: "
               f"{badge('authority', str(default['authority']))}). {links.prose(default['rationale'])}\n\n")
    if amb.get("rejected"):
        out.append("**Rejected readings.**\n\n")
        for rej in amb["rejected"]:
            out.append(f"- {links.prose(rej['summary'])} Rejected because: "
                       f"{links.prose(rej['reason'])}\n")
        out.append("\n")
    if amb.get("evidence"):
        out.append("**Evidence.**\n\n")
        for ev in amb["evidence"]:
            src = f" (source: {text(ev['source'])})" if ev.get("source") else ""
            out.append(f"- {links.prose(ev['text'])}{src}\n")
        out.append("\n")
    out.append(impact_block(amb, links))
    if amb.get("history"):
        out.append("**History.**\n\n" + table(["Date", "Status", "Note"], [
            [code(h["date"]), badge("status", str(h["status"])), links.prose(h.get("note", ""))]
            for h in amb["history"]])
            + "\n")
    return "".join(out)


def register_page(specs: Sequence[Spec], *, histories: Mapping[str, History] | None = None
                  ) -> Page:
    """Return the cross-game ambiguity register for rule editors.

    With the games' ``histories`` (by game id), a last change that came with a release links
    to it.
    """
    items = [(spec, amb) for spec in specs for amb in spec.section("ambiguities")]
    out = ['---\ntitle: "Ambiguity register: all games"\nhide:\n  - toc\n---\n\n# Ambiguity register\n\n',
           "Every ambiguity of every game: contradictions, gaps, unclear wording, translation "
           "damage and editorial slips. Filter by game, status, severity and kind; click a column "
           "heading to sort. Filters and sort are kept in the address "
           "(`?game=fool&status=ruled&sort=-id`), so a filtered view can be shared; export "
           "what is shown as CSV or JSON. Games are named by their id in the address. See [the ambiguity lifecycle]"
           "(editors/ambiguity-lifecycle.md) for what each status means. Sort by *Outcome "
           "change* (`?sort=-outcome-change`) to see which rulings most often change who wins; "
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


def changelog(items: Sequence[tuple[Spec, Mapping[str, Any]]], *,
              histories: Mapping[str, History] | None = None) -> str:
    """Return the register's changelog: every dated ``history`` entry, newest first.

    With the games' ``histories``, an entry that came with a release links to it.
    """
    entries = [(str(h["date"]), spec, amb, h) for spec, amb in items
               for h in amb.get("history") or []]
    out = [f"## Changelog {anchor('changelog')}\n\n"]
    if not entries:
        return out[0] + "No record has a dated history entry yet.\n"
    entries.sort(key=lambda e: e[0], reverse=True)
    rows = []
    for date, spec, amb, entry in entries:
        links = Links(spec)
        history = (histories or {}).get(spec.game_id)
        released = None if history is None else history.released_with(str(amb["id"]), entry)
        when = code(date) if released is None or released.version is None else entry_link(
            released, prefix=f"{game_dir(spec)}/", label=date,
            hint=f"came with release {released.version}")
        rows.append([when, links.to(str(amb["id"]), prefix=f"{game_dir(spec)}/"),
                     text(amb["title"]), badge("status", str(entry["status"])),
                     links.prose(entry.get("note", ""), prefix=f"{game_dir(spec)}/")])
    return "".join(out) + table(["Date", "Record", "Title", "Status", "Note"], rows)
