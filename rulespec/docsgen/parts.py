"""Folded content of a heavy page, loaded when the reader unfolds it (issue 45, item 2).

A page over :data:`TARGET` bytes (the page budget, 300 KB, less room to grow) keeps what a
reader sees at once and moves the bodies of its folded blocks (``<details>`` not open: every
figure of a measured setting, a rule example's moves, a state's JSON Schema), largest first,
into files of their own beside it, ``parts/<n>.html``, until it is under the target.
``docs/javascripts/parts.js`` fetches a part when its block is opened and puts it in place;
where it cannot (a site opened from ``file://``), the block shows a link to the part, which
opens as a page of its own. The search index is written before this runs, so the moved text
is still found, at its section.

A body with an ``id`` in it stays (a link may point into it), unless its block is of a class
in :data:`CARRIES_IDS` (an ambiguity record's fold): then its placeholder lists the ids it
took (``data-ids``), and ``parts.js`` opens the block and loads the part when the address names
one of them. Such a block moves with the folded blocks inside it; another block with a fold
inside stays (the folds inside may move on their own). Never both a block and one inside it
move.
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
#: Classes of folded blocks whose body moves with the ids in it (listed on its placeholder):
#: an ambiguity record's fold (rulespec.docsgen.register.RECORD_FOLD).
CARRIES_IDS = ("rs-record",)
_TAGS = re.compile(r"<details\b[^>]*>|</details\s*>", re.IGNORECASE)
_OPEN = re.compile(r"\bopen\b", re.IGNORECASE)
_SUMMARY = re.compile(r"\s*<summary\b[^>]*>(.*?)</summary>", re.IGNORECASE | re.DOTALL)
_CLASS = re.compile(r"""\bclass=["']([^"']*)["']""", re.IGNORECASE)
_ID = re.compile(r"""\bid=["']([^"']+)["']""", re.IGNORECASE)
_TITLE = re.compile(r"<title>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Part:
    """A folded block's body, moved out of its page."""

    #: Its file, relative to the page's folder (``parts/3.html``).
    path: str
    #: The file's content: a small page of its own that reads as the page's folder does.
    text: str


@dataclass(frozen=True)
class _Fold:
    """A folded ``<details>`` block of a page: where its body starts and ends."""

    start: int  # the block's opening tag
    body: int  # the body, after the summary
    close: int  # the closing tag
    summary: str
    ids: tuple[str, ...]

    def size(self, page: str) -> int:
        return len(page[self.body:self.close].encode("utf-8"))


def _folds(page: str) -> list[_Fold]:
    """Return the page's folded blocks that may move, outermost and innermost alike."""
    found: list[_Fold] = []
    stack: list[re.Match[str]] = []
    for tag in _TAGS.finditer(page):
        if not tag.group(0).startswith("</"):
            stack.append(tag)
            continue
        if not stack:
            continue
        opening = stack.pop()
        head = opening.group(0)
        summary = _SUMMARY.match(page, opening.end(), tag.start())
        if _OPEN.search(head[len("<details"):]) or summary is None:
            continue
        body = page[summary.end():tag.start()]
        named = _CLASS.search(head)
        carries = bool(named and set(named.group(1).split()) & set(CARRIES_IDS))
        ids = tuple(dict.fromkeys(_ID.findall(body)))
        if len(body) <= MIN_BODY or (ids and not carries):
            continue
        if not carries and "<details" in body.lower():
            continue
        found.append(_Fold(opening.start(), summary.end(), tag.start(), summary.group(1), ids))
    return found


def defer_folded(page: str, *, target: int = TARGET) -> tuple[str, list[Part]]:
    """Return ``page`` with folded bodies moved out until it weighs at most ``target`` bytes
    (or nothing is left to move), and the parts moved; a page already under it is unchanged."""
    size = len(page.encode("utf-8"))
    if size <= target:
        return page, []
    title_match = _TITLE.search(page)
    title = html.unescape(_TAG.sub("", title_match.group(1))).strip() if title_match else ""
    chosen: list[tuple[_Fold, int]] = []
    for fold in sorted(_folds(page), key=lambda f: (-f.size(page), f.start)):
        if size <= target:
            break
        if any(fold.start < other.close and other.start < fold.close for other, _ in chosen):
            continue  # inside a block already moved, or around one
        chosen.append((fold, len(chosen) + 1))
        size -= fold.size(page)
    if not chosen:
        return page, []
    parts: list[Part] = []
    out: list[str] = []
    last = 0
    for fold, number in sorted(chosen, key=lambda fn: fn[0].start):
        path = f"{PARTS_DIR}/{number}.html"
        summary = html.unescape(_TAG.sub("", fold.summary)).strip()
        body = page[fold.body:fold.close]
        kilobytes = max(1, round(len(body.encode("utf-8")) / 1000))
        ids = f' data-ids="{html.escape(" ".join(fold.ids))}"' if fold.ids else ""
        out += [page[last:fold.body],
                f'\n<div class="rs-part" data-part="{path}"{ids}><p><a href="{path}">Open it on '
                f"its own</a> ({kilobytes} KB).</p></div>\n"]
        last = fold.close
        parts.append(Part(path, _part_page(f"{title}: {summary}" if title else summary, body)))
    out.append(page[last:])
    return "".join(out), sorted(parts, key=lambda p: int(p.path.split("/")[1].split(".")[0]))


def _part_page(title: str, body: str) -> str:
    """Return a part's file: its body, with links read from the page's folder (``<base>``)."""
    return ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width,initial-scale=1">\n'
            f'<base href="../">\n<title>{html.escape(title)}</title>\n</head>\n'
            f'<body class="md-typeset rs-part-page">\n{body}\n</body>\n</html>\n')
