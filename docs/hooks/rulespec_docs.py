"""mkdocs hook: add the pages generated from the specs, the spec schema, the CLI and the README.

Registered in mkdocs.yml under ``hooks``. The rendering lives in :mod:`rulespec.docsgen`;
this file only wires it into the build. By default the games are every spec in the registry.
Set ``RULESPEC_DOCS_SPECS`` to spec paths (separated by the OS path separator) to document
exactly those specs instead; the docs tests use it for their example spec.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import warnings
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from rulespec import docsgen
from rulespec.docsgen import apiref, parts, publish, weight
from rulespec.docsgen.changes import since_starts
from rulespec.docsgen.matrix import (
    check_reports,
    load_index,
    load_profiles,
    load_reports,
    matrix_page,
)
from rulespec.spec import Spec, SpecError, load_spec, spec_paths
from rulespec.spec.registry import PluginWarning, warn_broken
from rulespec.spec.validate import spec_schema

SPECS_ENV = "RULESPEC_DOCS_SPECS"
#: The folder of conformance reports the matrix page shows (default docs/conformance-reports/).
REPORTS_ENV = "RULESPEC_DOCS_REPORTS"
GAMES_SECTION = "Games"

_built: dict[str, Any] = {}


def _load_specs() -> list[Spec]:
    chosen = [p for p in os.environ.get(SPECS_ENV, "").split(os.pathsep) if p]
    if not chosen:  # every registered game; a plugin whose spec is invalid is named and skipped
        warn_broken()
    specs: list[Spec] = []
    for path in chosen or spec_paths():
        try:
            # Load afresh on every build (not the registry's cache) so `mkdocs serve` shows edits.
            specs.append(load_spec(Path(path)))
        except SpecError as exc:
            if chosen:
                raise PluginError(f"rulespec docs: a spec is invalid, fix it first:\n{exc}") from exc
            warnings.warn(PluginWarning(f"{path} skipped: the spec does not validate ({exc.problems[0]}"
                                        f" and {len(exc.problems) - 1} more); run 'rulespec "
                                        f"validate {path}', then fix or uninstall its distribution"),
                          stacklevel=2)
    seen: set[str] = set()
    for spec in specs:
        if spec.game_id in seen:
            raise PluginError(f"rulespec docs: two specs declare the game id {spec.game_id!r}")
        seen.add(spec.game_id)
    return specs


def on_startup(command: str, dirty: bool) -> None:
    """Remember the mkdocs command: ``gh-deploy`` publishes the site."""
    _built["command"] = command


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    """Refuse a deploy build without its addresses; generate every page once per build and
    list the games in the navigation."""
    from rulespec.cli import cli

    if publish.is_deploy(_built.get("command"), os.environ):
        problems = publish.deploy_problems(site_url=config.site_url, repo_url=config.repo_url)
        if problems:
            raise PluginError(f"rulespec docs: {publish.deploy_refusal(problems)}")
    specs = _load_specs()
    readme_path = Path(config.config_file_path).parent / "README.md"
    _built["specs"] = specs
    _built["readme"] = readme_path.read_text(encoding="utf-8") if readme_path.is_file() else None
    root = Path(config.config_file_path).parent
    reports = Path(os.environ.get(REPORTS_ENV) or root / "docs" / "conformance-reports")
    try:
        _built["histories"] = docsgen.release_histories(specs)
        _built["pages"] = docsgen.site_pages(specs, schema=spec_schema(), cli=cli,
                                             site_url=config.site_url or None,
                                             directory_urls=config.use_directory_urls,
                                             histories=_built["histories"])
    except docsgen.DocsError as exc:
        raise PluginError(f"rulespec docs: {exc}") from exc
    _built["pages"].append(_matrix(specs, reports))
    # The Python API reference: an index and a page per group (rulespec.docsgen.apiref).
    api_source = Path(config.docs_dir) / apiref.API_PAGE
    if api_source.is_file():
        try:
            groups = apiref.api_groups(api_source.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise PluginError(f"rulespec docs: {exc}") from exc
        _built["pages"] += apiref.api_pages(api_source.read_text(encoding="utf-8"))
        if groups and not apiref.api_nav(config.nav or [], groups):
            raise PluginError(f"rulespec docs: mkdocs.yml nav needs an entry for {apiref.API_PAGE}")
    _built["traces"] = _trace_files(specs, reports, since={
        game: [e.label for e in since_starts(history) if e.label]
        for game, history in _built["histories"].items()})
    nav = config.nav
    section = next((entry for entry in nav or [] if isinstance(entry, dict)
                    and isinstance(entry.get(GAMES_SECTION), list)), None)
    if section is None:
        raise PluginError(f"rulespec docs: mkdocs.yml nav needs a {GAMES_SECTION!r} section "
                          "(a list) for the generated game pages")
    games = section[GAMES_SECTION]
    games.extend(docsgen.games_nav(specs))
    return config


def _matrix(specs: list[Spec], folder: Path) -> docsgen.Page:
    """Return the conformance matrix page; refuse reports the kit would not write today."""
    from rulespec.spec import all_specs

    known = {spec.game_id: spec for spec in all_specs()}
    known.update({spec.game_id: spec for spec in specs})
    try:
        reports, profiles = load_reports(folder), load_profiles(folder)
        check_reports(reports, profiles, known, folder)
    except docsgen.DocsError as exc:
        raise PluginError(f"rulespec docs: {exc}") from exc
    return matrix_page(reports, specs, profiles, load_index(folder), folder, checked=known)


def _trace_files(specs: list[Spec], reports: Path, *,
                 since: dict[str, list[str]]) -> dict[str, str]:
    """Return the trace viewer's data scripts: site path -> content (``since``: the releases
    each game's Changes page lists the changes since)."""
    from rulespec.spec import all_specs

    known = {spec.game_id: spec for spec in all_specs()}
    known.update({spec.game_id: spec for spec in specs})
    # Rule examples run on the reference of each documented game; their pages link them.
    traces = (docsgen.golden_traces(known) + docsgen.failure_traces(reports / "failures")
              + [t for spec in specs for t in docsgen.example_traces(spec)])
    out = {f"{docsgen.TRACE_DIR}/catalog.js": docsgen.catalog_script(
        traces, list(known.values()), documented=[s.game_id for s in specs], since=since)}
    for trace in traces:
        out[f"{docsgen.TRACE_DIR}/{trace.name}.js"] = docsgen.trace_script(trace)
    return out


#: Where the changelog is published on the site (generated from CHANGELOG.md).
CHANGELOG_PAGE = "about/changelog.md"
#: The changelog's front matter: its words are found after the pages it speaks of.
CHANGELOG_FRONT = "---\nsearch:\n  boost: 0.2\n---\n\n"


def changelog_page(root: Path) -> str:
    """Return the site's changelog page: CHANGELOG.md with its links to docs/ made relative."""
    source = root / "CHANGELOG.md"
    if not source.is_file():
        return ("# Changelog\n\nThe changelog (CHANGELOG.md) is not installed with this copy of "
                "rulespec; read it in rulespec's repository.\n")
    # Found after the pages it names (search: boost), as the other pages about the site are.
    return CHANGELOG_FRONT + re.sub(r"\]\(docs/", "](../", source.read_text(encoding="utf-8"))


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the generated pages, the changelog and the trace viewer's data to the site."""
    root = Path(config.config_file_path).parent
    files.append(File.generated(config, CHANGELOG_PAGE, content=changelog_page(root)))
    for page in _built["pages"]:
        existing = files.get_file_from_path(page.path)
        if existing is not None:
            raise PluginError(f"rulespec docs: docs/{page.path} is generated; delete the "
                              "hand-written file")
        files.append(File.generated(config, page.path, content=page.markdown))
    for path, content in _built["traces"].items():
        files.append(File.generated(config, path, content=content))
    return files


@event_priority(-100)  # after the theme's search plugin has written its index
def on_post_build(config: MkDocsConfig) -> None:
    """Tune the search index and worker (rulespec.docsgen.search); drop the source maps, the
    pages' indentation and unused search languages (rulespec.docsgen.weight); refuse a site
    that fetches from another origin (rulespec.docsgen.offsite)."""
    site = Path(config.site_dir)
    index_path = site / "search" / "search_index.json"
    if index_path.is_file():
        index = json.loads(index_path.read_text(encoding="utf-8"))
        tuned = docsgen.tune_index(index, titles=docsgen.search_titles(_built["specs"]))
        index_path.write_text(json.dumps(tuned, ensure_ascii=False, separators=(",", ":")),
                              encoding="utf-8")
    for worker in (site / "assets" / "javascripts" / "workers").glob("search.*.js"):
        patched = docsgen.patch_worker(worker.read_text(encoding="utf-8"))
        if patched is None:
            raise PluginError(f"rulespec docs: {worker.name} no longer has the code "
                              "rulespec.docsgen.search.patch_worker patches; ids would be split "
                              "at '-' and queries not stemmed: update the patch for this theme")
        worker.write_text(patched, encoding="utf-8")
    # The theme ships .map files beside its minified assets; readers never need them.
    for source_map in site.rglob("*.map"):
        source_map.unlink()
    # Without site_url the sitemap lists no address (a build to read locally): do not ship it.
    if not config.site_url:
        for sitemap in (site / "sitemap.xml", site / "sitemap.xml.gz"):
            sitemap.unlink(missing_ok=True)
    # Lighter, and looking the same: no template indentation, no unused search languages; a
    # heavy page's folded blocks load when opened (rulespec.docsgen.parts).
    for html_page in list(site.rglob("*.html")):
        source = html_page.read_text(encoding="utf-8")
        squeezed, moved = parts.defer_folded(weight.squeeze_html(source))
        for part in moved:
            target = html_page.parent / part.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(part.text, encoding="utf-8")
        if squeezed != source:
            html_page.write_text(squeezed, encoding="utf-8")
    search = config.plugins.get("material/search") or config.plugins.get("search")
    languages = list(getattr(getattr(search, "config", None), "lang", None) or [])
    unused = weight.unused_search_languages(site, languages)
    if unused is not None:
        shutil.rmtree(unused)
    # The site fetches nothing from another origin unless the reader follows a link.
    offsite = list(docsgen.offsite_requests(site, site_url=config.site_url or None))
    if offsite:
        shown = "\n  ".join(str(o) for o in offsite[:20])
        raise PluginError(f"rulespec docs: {len(offsite)} fetches from another origin (the site "
                          f"promises none; docs/about/publishing.md):\n  {shown}")


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Fill the generation markers of hand-written pages (games table, README commands, where
    the code is)."""
    prefix = "../" * page.file.src_uri.count("/")
    if page.file.src_uri == apiref.API_PAGE:
        markdown = apiref.api_index(markdown)
    if config.repo_url:
        markdown = docsgen.link_repository_files(markdown, config.repo_url)
    try:
        return docsgen.fill_markers(markdown, specs=_built["specs"], readme=_built["readme"],
                                     prefix=prefix, repo_url=config.repo_url,
                                     histories=_built["histories"])
    except docsgen.DocsError as exc:
        raise PluginError(f"rulespec docs: {page.file.src_uri}: {exc}") from exc
