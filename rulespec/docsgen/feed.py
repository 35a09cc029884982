"""The feed of releases: an Atom 1.0 document (RFC 4287) of every game's releases, newest first.

Editors and implementers subscribe to ``releases.xml`` at the site root to hear of each new
release; each entry carries the release's summary and bulletin headline and links to its entry
on the game's Changes page. A release whose changes change no rule says it is bookkeeping only,
in its title, its content and a category, so a reader's list tells it from a change of rule.
Links are absolute under the site's ``site_url``, relative to the feed (which lives at the site
root) when the site has none. Entry ids are derived from the game and version alone, so
publishing the site elsewhere (or marking a release bookkeeping only) does not make readers see
every release again.
"""

from __future__ import annotations

import html
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from rulespec.docsgen.changes import (
    BOOKKEEPING_ONLY,
    BOOKKEEPING_WHY,
    CHANGES_PAGE,
    FEED_PATH,
    readable_reason,
)
from rulespec.docsgen.history import Entry, History
from rulespec.docsgen.links import game_dir, game_title
from rulespec.docsgen.markdown import Page
from rulespec.releases.store import parse_version

ATOM = "http://www.w3.org/2005/Atom"
#: The feed's title, as a reader's list of subscriptions shows it.
FEED_TITLE = "rulespec: releases of the game specs"
#: The category term of a release whose changes change no rule.
BOOKKEEPING_TERM = "bookkeeping"
#: The ``updated`` of a feed without entries (Atom requires one; the build stays reproducible).
_NO_DATE = "1970-01-01"
_ID_ROOT = "rulespec:releases"


def atom_date(date: str) -> str:
    """Return a release date (``2026-12-01``) as an RFC 3339 timestamp, midnight UTC."""
    return f"{date}T00:00:00Z"


def entry_id(game: str, version: str) -> str:
    """Return the permanent id of one release in the feed (a name-based ``urn:uuid``)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"{_ID_ROOT}:{game}@{version}").urn


def site_link(path: str, *, site_url: str | None, directory_urls: bool = True) -> str:
    """Return the address of a docs page (``games/fool/changes.md#x``) as the built site has it.

    Absolute under ``site_url``; without one, relative to the site root, where the feed is.
    """
    page, _, fragment = path.partition("#")
    stem = page.removesuffix(".md")
    if not page.endswith(".md"):
        url = page  # a file of the site (the feed itself) keeps its name
    elif stem == "index" or stem.endswith("/index"):
        url = stem.removesuffix("index") if directory_urls else f"{stem}.html"
    else:
        url = f"{stem}/" if directory_urls else f"{stem}.html"
    if fragment:
        url += f"#{fragment}"
    return (site_url.rstrip("/") + "/" + url) if site_url else url


def _releases(histories: Sequence[History]) -> list[tuple[History, Entry]]:
    items = [(h, e) for h in histories for e in h.releases if e.version is not None]
    return sorted(items, key=lambda item: (item[1].date, parse_version(str(item[1].version)),
                                           item[0].spec.game_id), reverse=True)


def _content(entry: Entry) -> str:
    """Return the entry's bulletin headline as HTML: summary, level, the MAJOR changes."""
    escape = html.escape
    out = [f"<p>{escape(entry.summary)}</p>"]
    diff = entry.diff
    if diff is None:
        out.append("<p>The first release.</p>" if entry.previous is None else "")
        return "".join(out)
    if not diff.changes:
        return "".join(out) + f"<p>No change since {escape(diff.old_version)}.</p>"
    counts = ", ".join(f"{len(diff.by_level(level))} {level.upper()}"
                       for level in ("major", "minor", "patch") if diff.by_level(level))
    if entry.bookkeeping_only:
        out.append(f"<p><strong>{escape(BOOKKEEPING_ONLY)}.</strong> "
                   f"{escape(BOOKKEEPING_WHY)}</p>")
    out.append(f"<p>{len(diff.changes)} changes since {escape(diff.old_version)} ({counts}); "
               f"the largest is {diff.level.upper()}.</p>")
    major = diff.by_level("major")
    if major:
        out.append("<ul>" + "".join(
            f"<li><strong>{escape(c.rule)}</strong> <code>{escape(c.path)}</code>: "
            f"{escape(readable_reason(c.reason))}</li>" for c in major) + "</ul>")
    return "".join(out)


def _sub(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, attrs)
    if text is not None:
        element.text = text
    return element


def feed_xml(histories: Sequence[History], *, site_url: str | None,
             directory_urls: bool = True) -> str:
    """Return the Atom feed of every release of the games of ``histories``, newest first."""
    items = _releases(histories)
    feed = ET.Element("feed", {"xmlns": ATOM})
    _sub(feed, "id", uuid.uuid5(uuid.NAMESPACE_URL, _ID_ROOT).urn)
    _sub(feed, "title", FEED_TITLE)
    _sub(feed, "subtitle", "Every release of every game's spec: its summary and what changed "
                           "(MAJOR, MINOR, PATCH), linked to the game's Changes page.")
    _sub(feed, "updated", atom_date(items[0][1].date if items else _NO_DATE))
    home = site_link("index.md", site_url=site_url, directory_urls=directory_urls)
    _sub(feed, "link", rel="alternate", type="text/html", href=home or "./")
    if site_url:
        _sub(feed, "link", rel="self", type="application/atom+xml",
             href=site_link(FEED_PATH, site_url=site_url))
    author = _sub(feed, "author")
    _sub(author, "name", "rulespec rule editors")
    _sub(feed, "generator", "rulespec")
    for history, entry in items:
        spec, version = history.spec, str(entry.version)
        item = _sub(feed, "entry")
        _sub(item, "id", entry_id(spec.game_id, version))
        title = f"{game_title(spec)} {version}"
        _sub(item, "title", f"{title} (bookkeeping only)" if entry.bookkeeping_only else title)
        _sub(item, "updated", atom_date(entry.date))
        _sub(item, "published", atom_date(entry.date))
        link = site_link(f"{game_dir(spec)}/{CHANGES_PAGE}#{entry.anchor}", site_url=site_url,
                         directory_urls=directory_urls)
        _sub(item, "link", rel="alternate", type="text/html", href=link)
        _sub(item, "category", term=spec.game_id, label=game_title(spec))
        if entry.diff is not None and entry.diff.changes:
            _sub(item, "category", term=entry.diff.level)
        if entry.bookkeeping_only:
            _sub(item, "category", term=BOOKKEEPING_TERM, label=BOOKKEEPING_ONLY)
        _sub(item, "summary", entry.summary)
        _sub(item, "content", _content(entry), type="html")
    ET.indent(feed)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(feed, "unicode") + "\n"


def feed_page(histories: Sequence[History], *, site_url: str | None,
              directory_urls: bool = True) -> Page:
    """Return the feed as a file of the site (``releases.xml`` at its root)."""
    return Page(FEED_PATH, feed_xml(histories, site_url=site_url, directory_urls=directory_urls))
