"""Find what a built site would fetch from another origin, reading its HTML, CSS and scripts.

The site promises its readers that it fetches nothing from a third party unless they ask (follow
a link). A page fetches from another origin when an element loads an absolute address of
another origin (a script, a style sheet, a preconnect, an image, a frame...), when a style
sheet or a script of the site's own names one, or when it holds what makes the theme's bundle
call one: the repository widget (``data-md-component="source"``: api.github.com, on every
page; ``docs/overrides/partials/source.html`` renders the link without it), a Mermaid diagram
(the theme loads Mermaid from unpkg.com) or web fonts (fonts.googleapis.com, off with
``theme.font: false``). The theme's own bundle holds such addresses too, used only on those
triggers, so it is judged by them, not read. A link (``<a href>``) is not a fetch.

The mkdocs hook runs :func:`offsite_requests` after every build and refuses a site that has any.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

#: Elements and the attributes whose address the browser loads without a click.
_LOADING = {
    "script": ("src",), "img": ("src", "srcset"), "source": ("src", "srcset"),
    "iframe": ("src",), "frame": ("src",), "embed": ("src",), "object": ("data",),
    "video": ("src", "poster"), "audio": ("src",), "track": ("src",), "input": ("src",),
    "image": ("href", "xlink:href"), "use": ("href", "xlink:href"),
}
#: ``<link rel=...>`` kinds that load (or open a connection to) their ``href``.
_LOADING_RELS = frozenset({"stylesheet", "preconnect", "dns-prefetch", "preload",
                           "modulepreload", "prefetch", "prerender", "icon", "shortcut",
                           "apple-touch-icon", "manifest", "mask-icon"})
#: What makes the theme's bundle fetch from another origin, and whom it calls.
THEME_TRIGGERS = {
    'data-md-component="source"': "the theme's repository widget (api.github.com)",
    'class="mermaid"': "a Mermaid diagram (the theme loads Mermaid from unpkg.com)",
    "fonts.googleapis.com": "web fonts (fonts.googleapis.com)",
}
_TAG = re.compile(r"<(script|link|img|source|iframe|frame|embed|object|video|audio|track|input|"
                  r"image|use)\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r'([\w:-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^\s>]+))')
_CSS_URL = re.compile(r"""(?:url\(\s*['"]?|@import\s+['"])((?:https?:)?//[^'")\s]+)""",
                      re.IGNORECASE)
_JS_URL = re.compile(r"""['"`]((?:https?:)?//[^'"`\s]+)""")
_COMMENT_JS = re.compile(r"/\*.*?\*/|(?<![:'\"\\])//[^\n]*", re.DOTALL)
_STYLE_BLOCK = re.compile(r"<style\b[^>]*>(.*?)</style>|style=\"([^\"]*)\"",
                          re.IGNORECASE | re.DOTALL)
#: Scripts not read for addresses: the theme's minified bundle and search worker (judged by
#: :data:`THEME_TRIGGERS`) and the trace viewer's data (a trace handed over as text: an
#: address in it is shown, never fetched).
_UNREAD_SCRIPTS = re.compile(r"assets/javascripts/|traces/")


@dataclass(frozen=True)
class Offsite:
    """One fetch from another origin: the file that makes it, and what it fetches."""

    file: str
    fetches: str

    def __str__(self) -> str:
        return f"{self.file}: {self.fetches}"


def _origin(url: str) -> str:
    parts = urlsplit(url if not url.startswith("//") else "https:" + url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _other(url: str, own: str | None) -> bool:
    url = url.strip()
    if not re.match(r"(?:https?:)?//", url, re.IGNORECASE):
        return False  # relative, data:, blob:, about:, a fragment
    return own is None or _origin(url) != own


def page_offsite(html: str, *, own: str | None = None) -> list[str]:
    """Return what the page ``html`` fetches from an origin other than ``own`` (none given:
    every absolute address is another origin's)."""
    found: list[str] = []
    for name_of_tag, attrs in _TAG.findall(html):
        values = {m[0].lower(): m[1] or m[2] or m[3] for m in _ATTR.findall(attrs)}
        tag = name_of_tag.lower()
        if tag == "link":
            rels = set(values.get("rel", "").lower().split())
            names: tuple[str, ...] = ("href",) if rels & _LOADING_RELS else ()
        else:
            names = _LOADING[tag]
        for name in names:
            for candidate in values.get(name, "").split(","):
                url = candidate.strip().split(" ")[0]
                if url and _other(url, own):
                    found.append(f"<{tag} {name}> {url}")
    for block, inline in _STYLE_BLOCK.findall(html):
        found += [f"style {url}" for url in _CSS_URL.findall(block or inline) if _other(url, own)]
    found += [why for trigger, why in THEME_TRIGGERS.items() if trigger in html]
    return found


def asset_offsite(source: str, *, kind: str, own: str | None = None) -> list[str]:
    """Return the other origins a style sheet (``kind`` ``css``) or script (``js``) names."""
    if kind == "css":
        return [f"url {url}" for url in _CSS_URL.findall(source) if _other(url, own)]
    code = _COMMENT_JS.sub("", source)
    return [f"address {url}" for url in _JS_URL.findall(code) if _other(url, own)]


def offsite_requests(site: Path, *, site_url: str | None = None) -> Iterator[Offsite]:
    """Yield every fetch from another origin the built ``site`` would make (site_url's origin
    is the site's own)."""
    own = _origin(site_url) if site_url else None
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.suffix not in (".html", ".css", ".js"):
            continue
        where = path.relative_to(site).as_posix()
        source = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".html":
            found = page_offsite(source, own=own)
        elif _UNREAD_SCRIPTS.match(where) and path.suffix == ".js":
            continue
        else:
            found = asset_offsite(source, kind=path.suffix[1:], own=own)
        yield from (Offsite(where, item) for item in found)
