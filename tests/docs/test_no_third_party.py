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


def test_a_built_site_is_read_whole_but_trace_data(tmp_path: Path) -> None:
    """Pages, style sheets and the site's scripts are read; a trace's text is data (an address
    in it is shown, never fetched), and the theme's bundle is judged by its triggers."""
    from rulespec.docsgen.offsite import offsite_requests

    (tmp_path / "traces").mkdir()
    (tmp_path / "traces" / "t.js").write_text("""f('t', '{"engine": "https://x.example"}');""")
    (tmp_path / "assets" / "javascripts").mkdir(parents=True)
    (tmp_path / "assets" / "javascripts" / "bundle.js").write_text('"https://api.github.com"')
    (tmp_path / "index.html").write_text('<a href="https://x.example">x</a>')
    assert list(offsite_requests(tmp_path)) == []
    (tmp_path / "app.js").write_text('fetch("https://tracker.example/p")')
    assert [str(o) for o in offsite_requests(tmp_path)] == [
        "app.js: address https://tracker.example/p"]
