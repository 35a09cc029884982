"""What a built site weighs: the whole site, each HTML page, and a first visit to each page.

A first visit to a page transfers the page, the style sheets and scripts it loads and, since
the theme's search starts when any page opens, the search index and the search worker; each
file gzipped as a static host serves it (level 6, the usual default). Fonts are the system's and
images are inline SVG. The budgets of issue 45 are :data:`BUDGETS`; ``tests/docs/test_site.py``
checks the built registry site against them.

The build hook makes the site lighter with what changes nothing a reader sees:
:func:`squeeze_html` drops the indentation of the theme's templates (a sixth of every page),
and :func:`unused_search_languages` names the theme's word splitters and stemmers for other
languages, which an English-only search never loads.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from urllib.parse import urljoin, urlsplit

#: The budgets: a first visit to any page (gzipped), any HTML page (as stored), the whole site.
BUDGETS = {"first_visit": 600_000, "page": 300_000, "site": 15_000_000}
#: What every page loads once the theme's search starts.
SEARCH_FILES = ("search/search_index.json",)
#: Where whitespace is kept as it is: preformatted text, code (the theme keeps its whitespace),
#: and text a script or style reads.
_KEEP = re.compile(r"(<pre\b.*?</pre>|<code\b.*?</code>|<textarea\b.*?</textarea>|"
                   r"<script\b.*?</script>|<style\b.*?</style>)", re.IGNORECASE | re.DOTALL)
_INDENT = re.compile(r"\n[ \t\r\n]+")
_LOADS = re.compile(r"<(?:script[^>]*\ssrc|link[^>]*rel=\"?stylesheet\"?[^>]*\shref)=\"?([^\"\s>]+)",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Weight:
    """The weight of one built site, in bytes."""

    #: Every file of the site, as stored.
    site: int
    #: Each HTML page as stored, by path.
    pages: dict[str, int] = field(default_factory=dict)
    #: A first visit to each HTML page, gzipped, by path.
    first_visits: dict[str, int] = field(default_factory=dict)

    def over(self) -> dict[str, list[str]]:
        """Return what exceeds each of :data:`BUDGETS`, by budget (largest first)."""
        def above(sizes: dict[str, int], limit: int) -> list[str]:
            return [f"{path} ({size:,} bytes)" for path, size in
                    sorted(sizes.items(), key=lambda kv: -kv[1]) if size > limit]
        return {"first_visit": above(self.first_visits, BUDGETS["first_visit"]),
                "page": above(self.pages, BUDGETS["page"]),
                "site": [f"the site ({self.site:,} bytes)"] if self.site > BUDGETS["site"] else []}


@lru_cache(maxsize=4096)
def _gzipped(path: Path, stamp: float) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=6))


def gzipped(path: Path) -> int:
    """Return the size of ``path`` gzipped (level 6)."""
    return _gzipped(path, path.stat().st_mtime)


def loaded_by(page: Path, site: Path) -> list[Path]:
    """Return the site's files ``page`` loads: its scripts and style sheets (other origins are
    not the site's: the offsite check refuses them)."""
    base = "/" + page.relative_to(site).as_posix()
    out = []
    for address in _LOADS.findall(page.read_text(encoding="utf-8", errors="replace")):
        if re.match(r"(?:[a-z]+:)?//", address, re.IGNORECASE):
            continue
        target = site / urlsplit(urljoin(base, address)).path.lstrip("/")
        if target.is_file():
            out.append(target)
    return out


def site_weight(site: Path) -> Weight:
    """Return the weight of the built ``site``."""
    files = [p for p in site.rglob("*") if p.is_file()]
    search = [site / name for name in SEARCH_FILES if (site / name).is_file()]
    search += sorted((site / "assets" / "javascripts" / "workers").glob("search.*.js"))
    pages: dict[str, int] = {}
    visits: dict[str, int] = {}
    for page in (p for p in files if p.suffix == ".html"):
        where = page.relative_to(site).as_posix()
        pages[where] = page.stat().st_size
        visits[where] = sum(gzipped(p) for p in {page, *loaded_by(page, site), *search})
    return Weight(sum(p.stat().st_size for p in files), pages, visits)


def squeeze_html(page: str) -> str:
    """Return ``page`` without the indentation and blank lines between its lines, except in
    preformatted text, scripts and styles. A line break stays where there was one: the page
    looks the same (HTML collapses a run of whitespace to one space)."""
    parts = _KEEP.split(page)
    return "".join(part if at % 2 else _INDENT.sub("\n", part) for at, part in enumerate(parts))


def unused_search_languages(site: Path, languages: list[str]) -> Path | None:
    """Return the theme's folder of search languages (lunr's stemmers and word splitters for
    languages other than English) when the search is English only and so never loads it."""
    folder = site / "assets" / "javascripts" / "lunr"
    return folder if languages == ["en"] and folder.is_dir() else None
