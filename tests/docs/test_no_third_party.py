"""The site fetches nothing from another origin unless the reader follows a link (issue 45).

The checker (rulespec.docsgen.offsite) is tested here on small pages, in the default run; the
mkdocs hook runs it after every build, so a strict build of a site that would fetch from a third
party fails. The built registry site is checked again in tests/docs/test_site.py (integration), where
headless Chromium also records every request its pages make.
"""

from __future__ import annotations

import re
from pathlib import Path

from rulespec.docsgen.offsite import asset_offsite, page_offsite

ROOT = Path(__file__).parent.parent.parent


def test_loading_elements_of_another_origin_are_found() -> None:
    page = ('<script src="https://cdn.example.com/x.js"></script>'
            '<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>'
            "<img srcset='/a.png 1x, //img.example.net/b.png 2x'>"
            '<div style="background: url(https://tracker.example.com/p.gif)"></div>')
    found = page_offsite(page)
    assert len(found) == 4, found
    assert any("cdn.example.com" in f for f in found)
    assert any("img.example.net" in f for f in found)


def test_links_and_own_addresses_are_not_fetches() -> None:
    page = ('<a href="https://github.com/example/rulespec">code</a>'
            '<link rel="canonical" href="https://example.org/rulespec/">'
            '<link rel="stylesheet" href="https://example.org/rulespec/assets/x.css">'
            '<script src="../assets/javascripts/bundle.js"></script>'
            '<img src="data:image/png;base64,AAAA">')
    assert page_offsite(page, own="https://example.org") == []


def test_the_theme_triggers_are_found() -> None:
    """The repository widget asks api.github.com for stars and forks on every page."""
    widget = '<a href="https://github.com/x/y" class="md-source" data-md-component="source">'
    assert any("api.github.com" in f for f in page_offsite(widget))
    assert any("unpkg" in f for f in page_offsite('<pre class="mermaid">graph</pre>'))


def test_the_repository_link_override_has_no_widget() -> None:
    """docs/overrides/partials/source.html replaces the theme's: the link, no widget."""
    override = (ROOT / "docs" / "overrides" / "partials" / "source.html").read_text("utf-8")
    markup = re.sub(r"\{#.*?#\}", "", override, flags=re.DOTALL)
    assert 'class="md-source"' in markup and "data-md-component" not in markup


def test_scripts_and_styles_of_the_site_name_no_other_origin() -> None:
    for path in sorted((ROOT / "docs").glob("javascripts/*.js")):
        assert asset_offsite(path.read_text("utf-8"), kind="js") == [], path.name
    for path in sorted((ROOT / "docs").glob("stylesheets/*.css")):
        assert asset_offsite(path.read_text("utf-8"), kind="css") == [], path.name
    assert asset_offsite('fetch("https://api.example.com/x") // https://in.comment',
                         kind="js") == ["address https://api.example.com/x"]
    assert asset_offsite("@import 'https://fonts.example.com/a.css';", kind="css") != []
