"""Generate the docs site's pages from the specs, the spec JSON Schema, the CLI and the README.

Nothing of a spec is written by hand in ``docs/``: the mkdocs hook ``docs/hooks/rulespec_docs.py``
calls :func:`site_pages` at build time and adds the pages it returns, so the site cannot drift
from the specs. Every function here is pure (data in, Markdown out) so tests can run it on any
spec without building the site.

One module per concern: ``markdown`` (escaping, tables, fences, the Page), ``links`` (where each
element is documented), ``schema`` (JSON Schema in prose, the spec format reference), ``pages``
(one game's pages), ``register`` (the ambiguity register), ``cli_reference`` (the command line
reference), ``site`` (the games index, page markers, every page), ``search`` (ids first and
accents folded in the search index), ``offsite`` (what a built site fetches from another
origin), ``traces`` (the trace viewer's data), ``history`` (each
game's releases and their diffs, and when each clause and record appeared and changed),
``changes`` (a game's Changes page), ``feed`` (the Atom feed of releases) and ``matrix`` with
``matrix_failures`` (the conformance matrix from the reports ``rulespec matrix`` writes). This
package re-exports what the mkdocs hook and the tests use, except the matrix modules, which the
hook imports on their own.
"""

from __future__ import annotations

from rulespec.docsgen.cli_reference import cli_page
from rulespec.docsgen.examples import example_traces
from rulespec.docsgen.links import Links, clause_users, game_dir, game_title, player_range
from rulespec.docsgen.markdown import DocsError, Page, code, fenced, table, text
from rulespec.docsgen.offsite import Offsite, offsite_requests
from rulespec.docsgen.pages import GAME_PAGES, game_pages
from rulespec.docsgen.register import REGISTER_PAGE, register_page
from rulespec.docsgen.schema import property_rows, schema_type, spec_format_page
from rulespec.docsgen.search import fold, patch_worker, search_titles, tune_index
from rulespec.docsgen.site import (
    MARKER_GAMES,
    MARKER_README,
    MARKER_SINCE,
    fill_markers,
    games_index,
    games_nav,
    games_table,
    link_repository_files,
    readme_block,
    release_histories,
    site_pages,
)
from rulespec.docsgen.traces import (
    TRACE_DIR,
    TraceFile,
    catalog_script,
    failure_traces,
    golden_traces,
    trace_script,
)

__all__ = [
    "GAME_PAGES",
    "MARKER_GAMES",
    "MARKER_README",
    "MARKER_SINCE",
    "REGISTER_PAGE",
    "TRACE_DIR",
    "DocsError",
    "Links",
    "Offsite",
    "Page",
    "TraceFile",
    "catalog_script",
    "clause_users",
    "cli_page",
    "code",
    "example_traces",
    "failure_traces",
    "fenced",
    "fill_markers",
    "fold",
    "game_dir",
    "game_pages",
    "game_title",
    "games_index",
    "games_nav",
    "games_table",
    "golden_traces",
    "link_repository_files",
    "offsite_requests",
    "patch_worker",
    "player_range",
    "property_rows",
    "readme_block",
    "register_page",
    "release_histories",
    "schema_type",
    "search_titles",
    "site_pages",
    "spec_format_page",
    "table",
    "text",
    "trace_script",
    "tune_index",
]
