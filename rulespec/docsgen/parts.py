"""Folded content of a heavy page, loaded when the reader unfolds it (issue 45, item 2).

A page over :data:`TARGET` bytes (the page budget, 300 KB, less room to grow) keeps what a
reader sees at once and moves the bodies of its folded blocks (``<details>`` not open: every
figure of a measured setting, a rule example's moves, a state's JSON Schema), largest first,
into files of their own beside it, ``parts/<n>.html``, until it is under the target.
``docs/javascripts/parts.js`` fetches a part when its block is opened and puts it in place;
where it cannot (a site opened from ``file://``), the block shows a link to the part, which
opens as a page of its own. The search index is written before this runs, so the moved text
is still found, at its section.

A body with an ``id`` in it stays: a link may point into it. So does a body with another
folded block inside.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

#: A page is made lighter when it weighs more than this (bytes, as stored).
TARGET = 250_000
#: A smaller body stays: its link would save too little.
MIN_BODY = 500
#: The folder of a page's parts, beside the page.
PARTS_DIR = "parts"
_FOLDED = re.compile(r"(<details\b(?![^>]*\bopen\b)[^>]*>\s*<summary\b[^>]*>(.*?)</summary>)"
                     r"(.*?)(</details>)", re.IGNORECASE | re.DOTALL)
_TITLE = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Part:
    """A folded block's body, moved out of its page."""

    #: Its file, relative to the page's folder (``parts/3.html``).
    path: str
    #: The file's content: a small page of its own that reads as the page's folder does.
    text: str


def _movable(body: str) -> bool:
    lowered = body.lower()
    return " id=" not in lowered and "<details" not in lowered and len(body) > MIN_BODY


def defer_folded(page: str, *, target: int = TARGET) -> tuple[str, list[Part]]:
    """Return ``page`` with folded bodies moved out until it weighs at most ``target`` bytes
    (or nothing is left to move), and the parts moved; a page already under it is unchanged."""
    size = len(page.encode("utf-8"))
    if size <= target:
        return page, []
    found = list(_FOLDED.finditer(page))
    title_match = _TITLE.search(page)
    title = html.unescape(_TAG.sub("", title_match.group(1))).strip() if title_match else ""
    chosen: dict[int, int] = {}
    for at in sorted((i for i, m in enumerate(found) if _movable(m.group(3))),
                     key=lambda i: (-len(found[i].group(3)), i)):
        if size <= target:
            break
        chosen[at] = len(chosen) + 1
        size -= len(found[at].group(3).encode("utf-8"))
    if not chosen:
        return page, []
    parts: list[Part] = []
    out: list[str] = []
    last = 0
    for at, match in enumerate(found):
        number = chosen.get(at)
        if number is None:
            continue
        path = f"{PARTS_DIR}/{number}.html"
        summary = html.unescape(_TAG.sub("", match.group(2))).strip()
        body = match.group(3)
        kilobytes = max(1, round(len(body.encode("utf-8")) / 1000))
        out += [page[last:match.start(3)],
                f'\n<div class="rs-part" data-part="{path}"><p><a href="{path}">Open it on '
                f"its own</a> ({kilobytes} KB).</p></div>\n"]
        last = match.start(4)
        parts.append(Part(path, _part_page(f"{title}: {summary}" if title else summary, body)))
    out.append(page[last:])
    return "".join(out), sorted(parts, key=lambda p: int(p.path.split("/")[1].split(".")[0]))


def _part_page(title: str, body: str) -> str:
    """Return a part's file: its body, with links read from the page's folder (``<base>``)."""
    return ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width,initial-scale=1">\n'
            f'<base href="../">\n<title>{html.escape(title)}</title>\n</head>\n'
            f'<body class="md-typeset rs-part-page">\n{body}\n</body>\n</html>\n')
