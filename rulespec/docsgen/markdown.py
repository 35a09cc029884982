"""Markdown building blocks: escaping, inline code, tables, fences, badges, anchors; the Page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


class DocsError(Exception):
    """Something the docs need is missing or malformed; the message says what to fix."""


@dataclass(frozen=True)
class Page:
    """One generated Markdown page: where it goes in the docs folder and its content."""

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


def badge(kind: str, value: str) -> str:
    """Return a coloured badge for an ambiguity status, severity, kind or scope."""
    return f'<span class="rs-badge rs-{kind} rs-{kind}-{value}">{value}</span>'


def anchor(ident: str) -> str:
    """Return the attr_list suffix that gives a heading the permanent anchor ``ident``."""
    return f"{{ #{ident} }}"
