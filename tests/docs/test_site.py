"""Build the docs site with ``mkdocs build --strict`` and check it in headless Chromium.

The browser tests serve the built site on 127.0.0.1 and drive Chromium over the DevTools
pipe. Locally they skip when Chromium is missing; in CI (``CI`` set) they fail instead, since
CI installs Chromium. Set ``RULESPEC_DOCS_SCREENSHOTS=DIR`` to keep the screenshots.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.spec import Spec, all_specs, load_spec
from tests.docs.chromium import Chromium, find_chromium

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
EXAMPLE = HERE / "example" / "toy-dice.yaml"


def build(site_dir: Path, *, specs: list[Path] | None) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` into ``site_dir``; ``specs`` replaces the registry."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("RULESPEC_DOCS_SPECS", None)
    if specs is not None:
        env["RULESPEC_DOCS_SPECS"] = os.pathsep.join(str(p) for p in specs)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
         "-d", str(site_dir)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def example() -> Spec:
    return load_spec(EXAMPLE)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built strictly with the example spec as its only game."""
    out = tmp_path_factory.mktemp("site")
    done = build(out, specs=[EXAMPLE])
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


# -- the build ------------------------------------------------------------------------------------


def test_registry_site_builds_strict(tmp_path: Path) -> None:
    """`mkdocs build --strict` passes with every spec in the registry (as CI runs it)."""
    done = build(tmp_path, specs=None)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    for spec in all_specs():
        game = tmp_path / "games" / spec.game_id
        for page in ("", "rules/", "tables/", "actions/", "invariants/", "variants/",
                     "ambiguities/"):
            assert (game / page / "index.html").is_file(), \
                f"{spec.game_id}: page {page or 'overview'} was not built"
        rules = (game / "rules" / "index.html").read_text(encoding="utf-8")
        for clause in spec.section("clauses"):
            assert f'id="{clause["id"]}"' in rules, f"{clause['id']}: no anchor in the built site"
        tables = (game / "tables" / "index.html").read_text(encoding="utf-8")
        for tab in spec.section("tables"):
            assert f'id="table-{tab["id"]}"' in tables, f"{spec.game_id}: table {tab['id']} missing"
        assert tables.count("<table>") >= len(spec.section("tables")), \
            f"{spec.game_id}: some tables are not rendered as tables"
        register = (game / "ambiguities" / "index.html").read_text(encoding="utf-8")
        for amb in spec.section("ambiguities"):
            assert f'id="{amb["id"]}"' in register, f"{amb['id']}: no anchor in the built site"


def test_example_site_has_every_generated_page(site: Path) -> None:
    """The build writes the game pages, the register and both references."""
    for page in ("games/toy-dice", "games/toy-dice/rules", "games/toy-dice/tables",
                 "games/toy-dice/actions", "games/toy-dice/invariants", "games/toy-dice/variants",
                 "games/toy-dice/ambiguities", "ambiguities", "reference/spec-format",
                 "reference/cli", "getting-started"):
        assert (site / page / "index.html").is_file(), f"{page} was not built"
    html = (site / "games/toy-dice/rules/index.html").read_text(encoding="utf-8")
    assert 'id="TOY-TURN-02"' in html, "clause anchors must survive the build"
    started = re.sub(r"<[^>]+>", "", (site / "getting-started/index.html").read_text("utf-8"))
    assert "rulespec validate --sources" in started, "README command missing from the page"


def test_strict_mode_checks_links_and_anchors() -> None:
    """mkdocs.yml turns broken links and anchors into warnings, so --strict fails on them."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["validation"]["links"]["anchors"] == "warn"
    assert config["validation"]["links"]["not_found"] == "warn"
    features = set(config["theme"]["features"])
    assert {"navigation.tabs", "content.code.copy", "search.suggest"} <= features
    schemes = {p["scheme"] for p in config["theme"]["palette"]}
    assert schemes == {"default", "slate"}, "both the light and the dark palette are offered"
    toc = next(e["toc"] for e in config["markdown_extensions"] if isinstance(e, dict) and "toc" in e)
    assert toc == {"permalink": True, "toc_depth": 3}, "headings need permanent anchors"


# -- in the browser -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(site: Path) -> Iterator[str]:
    """Serve the built site on a free port of 127.0.0.1; yield its base URL."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(site)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed; CI must install it (apt-get install chromium) "
                        "for the docs browser tests")
        pytest.skip("chromium is not installed; apt-get install chromium to run the browser tests")
    with Chromium(binary) as chromium:
        yield chromium


def shoot(browser: Chromium, tmp_path: Path, name: str) -> Path:
    """Save a screenshot (kept in RULESPEC_DOCS_SCREENSHOTS when set) and return its path."""
    folder = Path(os.environ.get("RULESPEC_DOCS_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    path = browser.screenshot(folder / f"{name}.png")
    assert path.stat().st_size > 10_000, f"{name}: the screenshot is suspiciously small"
    return path


TABLES_JS = """
Array.from(document.querySelectorAll("article table")).map((t) => ({
  visible: t.getBoundingClientRect().height > 0,
  header: Array.from(t.tHead.rows[0].cells).map((c) => c.textContent.trim()),
  rows: Array.from(t.tBodies[0].rows).map((r) => Array.from(r.cells).map((c) => c.textContent.trim())),
}))
"""


def test_game_page_shows_its_tables(browser: Chromium, server: str, example: Spec,
                                    tmp_path: Path) -> None:
    """A game's tables page shows every table of the spec, headers and rows, in the browser."""
    browser.open(f"{server}/games/toy-dice/tables/")
    shown = browser.evaluate(TABLES_JS)
    shoot(browser, tmp_path, "game-tables")
    for tab in example.section("tables"):
        header = [c["title"] for c in tab["columns"]]
        rows = [[str(row[c["id"]]) for c in tab["columns"]] for row in tab["rows"]]
        match = [t for t in shown if t["header"] == header]
        assert match, f"table {tab['id']!r} ({header}) is not on the page; found {shown}"
        assert match[0]["visible"], f"table {tab['id']!r} is not visible"
        assert match[0]["rows"] == rows, f"table {tab['id']!r}: rows differ"
    title = browser.evaluate("document.querySelector('article h1').firstChild.textContent")
    assert title == "Toy Dice: Tables and parameters"


def test_search_finds_a_clause_id(browser: Chromium, server: str, tmp_path: Path) -> None:
    """TOY-TURN-02: the site search, given a clause id, leads to that clause's anchor."""
    browser.open(f"{server}/?q=TOY-TURN-02")
    links = browser.wait_for(
        "(() => { const a = Array.from(document.querySelectorAll('.md-search-result__item a'))"
        ".map((x) => x.href); return a.length ? a : null; })()")
    shoot(browser, tmp_path, "search")
    sections = [href for href in links if "#" in href]
    best = sections[0] if sections else ""
    assert "/games/toy-dice/rules/" in best and best.endswith("#TOY-TURN-02"), \
        f"TOY-TURN-02: the best section hit should be the clause, got {sections[:3]}"
    browser.open(sections[0])
    text = browser.wait_for("document.getElementById('TOY-TURN-02')?.textContent")
    assert text.startswith("TOY-TURN-02"), "TOY-TURN-02: the anchor is not the clause heading"


def test_register_filters_and_sorts(browser: Chromium, server: str, example: Spec,
                                    tmp_path: Path) -> None:
    """The cross-game register filters by the address, by select boxes, and sorts by column."""
    ruled = [a for a in example.section("ambiguities") if a["status"] == "ruled"]
    browser.open(f"{server}/ambiguities/?status=ruled")
    browser.wait_for("!!document.querySelector('.rs-filters')")
    visible = "Array.from(document.querySelectorAll('.rs-register tbody tr')).filter((r) => !r.hidden).map((r) => r.cells[0].textContent.trim())"
    assert browser.evaluate(visible) == [a["id"] for a in ruled]
    filters = browser.evaluate(
        "Array.from(document.querySelectorAll('.rs-filters select')).map((s) => s.dataset.param)")
    assert filters == ["game", "status", "severity", "kind"]
    shoot(browser, tmp_path, "register")
    browser.evaluate("(() => { const s = document.querySelector('select[data-param=status]');"
                     " s.value = ''; s.dispatchEvent(new Event('change')); })()")
    assert len(browser.evaluate(visible)) == len(example.section("ambiguities"))
    assert "status=" not in browser.evaluate("location.search")
    browser.evaluate("document.querySelectorAll('.rs-register th')[0].click()")
    browser.evaluate("document.querySelectorAll('.rs-register th')[0].click()")
    ids = browser.evaluate(visible)
    assert ids == sorted(ids, reverse=True), "a second click sorts descending"


def test_palette_toggle_and_code_copy(browser: Chromium, server: str) -> None:
    """The light/dark toggle is there, and code blocks get a copy button."""
    browser.open(f"{server}/getting-started/")
    toggles = browser.evaluate("document.querySelectorAll('form[data-md-component=palette] input').length")
    assert toggles == 2
    copy = browser.wait_for("document.querySelectorAll('article button[data-md-type=copy]').length")
    assert copy >= 2, "each README command block should have a copy button"
    scheme = browser.evaluate("document.body.getAttribute('data-md-color-scheme')")
    assert scheme in {"default", "slate"}
