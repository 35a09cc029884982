"""Markdown building blocks: escaping, inline code, tables, fences, badges, anchors; the Page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any


class DocsError(Exception):
    """Something the docs need is missing or malformed; the message says what to fix."""


@dataclass(frozen=True)
class Page:
    """One generated page: where it goes in the docs folder and its content.

    Markdown, except a file that is not a page (``releases.xml``), which the site copies as is.
    """

    path: str
    markdown: str


_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}|#~^])")


def text(value: object) -> str:
    """Return ``value`` as inline Markdown text: one line, markup characters escaped."""
    raw = re.sub(r"\s+", " ", str(value)).strip()
    raw = raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    raw = _MD_SPECIAL.sub(r"\\\1", raw)
    # A line starting with "1." or "-" would become a list; escape the marker.
    return re.sub(r"^(\d+)\.", r"\1\\.", re.sub(r"^([-+])", r"\\\1", raw))


def code(value: object) -> str:
    """Return ``value`` as inline code that survives any backticks and table pipes in it."""
    raw = re.sub(r"\s+", " ", str(value)).strip()
    raw = raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "&#124;")
    # Brackets as entities: `[a-z][0-9]` must not read as a reference link.
    raw = raw.replace("[", "&#91;").replace("]", "&#93;").replace("*", "&#42;")
    return f"<code>{raw}</code>"


def json_text(value: Any) -> str:
    """Return ``value`` as compact JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Return a Markdown table; cells must already be inline Markdown."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fenced(body: str, lang: str = "text") -> str:
    """Return a fenced code block that no backtick run inside ``body`` can close."""
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", body)), default=0))
    return f"{fence}{lang}\n{body.rstrip()}\n{fence}\n"


def indent(block: str, prefix: str = "    ") -> str:
    """Indent every non-empty line of ``block`` (for admonition and list bodies)."""
    return "\n".join(prefix + line if line else line for line in block.splitlines()) + "\n"


def details(summary: str, body: str, *, kind: str = "note", ident: str | None = None,
            searchable: bool = True) -> str:
    """Return a folded block (as ``??? kind "summary"`` renders it) that can carry an anchor.

    ``summary`` is plain text; ``body`` Markdown. ``ident`` gives the block a permanent anchor
    (opening the address with it unfolds the block). A block that is not ``searchable`` stays
    out of the site search (a JSON Schema, a whole state: what the index need not carry).
    """
    attrs = [f'class="{kind}"']
    if ident:
        attrs.append(f'id="{ident}"')
    if not searchable:
        attrs.append("data-search-exclude")
    title = re.sub(r"\s+", " ", summary).strip()
    title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return (f"<details {' '.join(attrs)} markdown>\n<summary>{title}</summary>\n\n"
            f"{body.rstrip()}\n\n</details>\n")


#: A web address as sources write it: with its scheme, or a bare lower-case host name
#: (``spieletest.at/gesellschaftsspiel/5856/foppen``, ``mit80.de``).
_ADDRESS = re.compile(
    r"(?P<url>https?://[^\s<>()\[\];,]+[^\s<>()\[\];,.])"
    r"|(?<![\w./@-])(?P<host>(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?P<tld>[a-z]{2,13}))"
    r"(?P<path>/[^\s<>()\[\];,]*[^\s<>()\[\];,.])?(?![\w@-])")
#: Endings that make ``name.ending`` a file, not a host.
_FILE_ENDINGS = frozenset({"md", "txt", "py", "yaml", "yml", "json", "jsonl", "js", "html",
                           "css", "pdf", "toml", "cfg", "csv", "xml", "gz", "zip", "png", "jpg"})
#: Top-level domains a bare host without a path is taken to be an address with (besides any
#: two-letter country code): ``rulespec.docsgen`` is a module, ``mit80.de`` a site.
_BARE_TLDS = frozenset({"com", "org", "net", "info", "edu", "gov", "io", "app", "dev", "blog",
                        "digital", "games"})


def linked_addresses(value: object) -> str:
    """Return text as inline Markdown with each web address in it a link (``mit80.de`` links
    to ``https://mit80.de``); the rest is plain text."""
    raw = re.sub(r"\s+", " ", str(value)).strip()
    out, last = [], 0
    for match in _ADDRESS.finditer(raw):
        tld = match.group("tld")
        if tld in _FILE_ENDINGS or (tld and not match.group("path") and len(tld) > 2
                                    and tld not in _BARE_TLDS):
            continue
        shown = match.group(0)
        href = shown if match.group("url") else f"https://{shown}"
        before = raw[last:match.start()]
        out.append(_spaced(before) + f"[{text(shown)}](<{href}>)")
        last = match.end()
    return "".join(out) + _spaced(raw[last:])


def _spaced(value: str) -> str:
    """Return ``text(value)`` keeping one leading and trailing space that ``text`` trims."""
    if not value.strip():
        return " " if value else ""
    return (" " if value[0].isspace() else "") + text(value) + (" " if value[-1].isspace() else "")


def unsearched(block: str) -> str:
    """Return a Markdown block the site search leaves out (it repeats what a searched section
    says: a witness table, a record's history, an example's steps)."""
    return f"<div data-search-exclude markdown>\n\n{block.rstrip()}\n\n</div>\n"


def badge(kind: str, value: str) -> str:
    """Return a coloured badge for an ambiguity status, severity, kind or scope."""
    return f'<span class="rs-badge rs-{kind} rs-{kind}-{value}">{value}</span>'


def anchor(ident: str) -> str:
    """Return the attr_list suffix that gives a heading the permanent anchor ``ident``."""
    return f"{{ #{ident} }}"


def plural(count: int, word: str, words: str | None = None) -> str:
    """Return ``1 table`` or ``3 tables`` (``words`` for an irregular plural)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def front_matter(title: str) -> str:
    """Return the YAML front matter giving a page its own title (browser tab, header, search)."""
    return "---\ntitle: " + json.dumps(title, ensure_ascii=False) + "\n---\n\n"


def kv_table(rows: Iterable[Sequence[str]]) -> str:
    """Return a two-column key/value table without the empty header row."""
    return '<div class="rs-kv" markdown>\n\n' + table(["Key", "Value"], rows) + "\n</div>\n"


def scalar(value: Any) -> str:
    """Return a JSON scalar or list of scalars as reader's text (``yes``, ``1, 2, 3``)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, list) and all(not isinstance(v, (dict, list)) for v in value):
        return ", ".join(scalar(v) for v in value) if value else "none"
    if isinstance(value, (dict, list)):
        return code(json_text(value))
    return text(value)


def attributes(value: Any) -> str:
    """Return component attributes as ``suit: green; faces: 1, 2, 3`` instead of JSON."""
    if not isinstance(value, dict):
        return scalar(value)
    return "; ".join(f"{text(str(k).replace('_', ' '))}: {scalar(v)}" for k, v in value.items())


def _is_flat(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and all(
        not isinstance(v, dict) for v in value.values())


def data_tables(value: Any, *, label: str = "") -> str:
    """Return nested measurement data as tables: scalars as a key/value table, sibling mappings
    of scalars (one per option, say) as one matrix with a row each."""
    if not isinstance(value, dict):
        return (f"{text(label)}: " if label else "") + scalar(value) + "\n\n"
    out = [f"*{text(label.replace('_', ' '))}*\n\n"] if label else []
    scalars = [(k, v) for k, v in value.items() if not isinstance(v, dict)]
    flats = [(k, v) for k, v in value.items() if _is_flat(v)]
    deeper = [(k, v) for k, v in value.items() if isinstance(v, dict) and not _is_flat(v)]
    if scalars:
        out.append(kv_table([[text(str(k).replace("_", " ")), scalar(v)] for k, v in scalars]))
        out.append("\n")
    if flats:
        columns: list[str] = []
        for _, row in flats:
            columns += [str(c) for c in row if str(c) not in columns]
        out.append(table([""] + [text(c.replace("_", " ")) for c in columns],
                         [[code(k)] + [scalar(row.get(c, dict(row).get(int(c)) if c.isdigit() else None))
                                       for c in columns] for k, row in flats]) + "\n")
    for key, sub in deeper:
        out.append(data_tables(sub, label=str(key)))
    return "".join(out)


_CODE_SPAN = re.compile(r"`([^`]+)`")


def rich(value: object, link: Callable[[str], str | None] | None = None) -> str:
    """Return prose as inline Markdown: ```x``` spans become code, and known ids become links.

    ``link`` maps an id to a Markdown link (or None); bare words are linked only when they look
    like permanent ids (``DDO-ROUND-02``), code spans whenever they name a known element.
    """
    raw = re.sub(r"\s+", " ", str(value)).strip()
    parts = _CODE_SPAN.split(raw)
    out = []
    for index, part in enumerate(parts):
        if index % 2:
            out.append((link(part) if link else None) or code(part))
        else:
            # text() trims; keep the spaces that separate this part from a code span.
            lead = " " if part[:1].isspace() and index else ""
            trail = " " if part[-1:].isspace() and index < len(parts) - 1 else ""
            out.append(lead + _link_ids(text(part), link) + trail if part.strip() else part)
    return "".join(out)


_BARE_ID = re.compile(r"(?<![\w\\-])([A-Z][A-Z0-9]*(?:\\?-[A-Z0-9]+)+)(?![\w-])")


def _link_ids(escaped: str, link: Callable[[str], str | None] | None) -> str:
    if link is None:
        return escaped

    def sub(match: re.Match[str]) -> str:
        ident = match.group(1).replace("\\-", "-")
        return link(ident) or match.group(0)

    return _BARE_ID.sub(sub, escaped)
