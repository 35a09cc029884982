"""The whole site: the games index, the markers of hand-written pages, every generated page."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import click

from rulespec.docsgen.changes import (
    CHANGES_PAGE,
    CHANGES_TITLE,
    FEED_PATH,
    changes_page,
    since_links,
)
from rulespec.docsgen.cli_reference import cli_page
from rulespec.docsgen.feed import feed_page
from rulespec.docsgen.history import DiffCache, History
from rulespec.docsgen.links import game_dir, game_label, game_title, player_range
from rulespec.docsgen.markdown import DocsError, Page, code, table, text
from rulespec.docsgen.migrations import migrations_page
from rulespec.docsgen.pages import GAME_PAGES, game_pages
from rulespec.docsgen.perft import PERFT_PAGE, PERFT_TITLE, perft_page
from rulespec.docsgen.publish import MARKER_REPOSITORY, repository_block
from rulespec.docsgen.register import REGISTER_PAGE, register_page
from rulespec.docsgen.schema import spec_format_page
from rulespec.docsgen.states import STATES_PAGE, STATES_TITLE, pending_keys, phases, states_page
from rulespec.docsgen.traces import TraceFile, golden_traces
from rulespec.releases.store import releases_of
from rulespec.spec.model import Spec

#: Markers a hand-written page may contain; the hook replaces them with generated Markdown.
MARKER_GAMES = "<!-- rulespec:games -->"
#: Each game's links to what changed since each of its releases (its Changes page's lists).
MARKER_SINCE = "<!-- rulespec:since -->"
MARKER_README = re.compile(r"<!-- rulespec:readme (?P<name>[a-z0-9-]+) -->")


def games_table(specs: Sequence[Spec], *, prefix: str = "",
                histories: Mapping[str, History] | None = None) -> str:
    """Return a table of every game with links to its pages (with each game's ``histories``,
    to what changed since each release too)."""
    if not specs:
        return "No game specs are registered yet.\n"
    rows = []
    for spec in specs:
        recorded = releases_of(spec)
        changes = f"{prefix}{game_dir(spec)}/{CHANGES_PAGE}"
        release = (f"[{code(recorded[-1].version)}]({changes}"
                   f"#release-{recorded[-1].version})") if recorded else "none yet"
        history = (histories or {}).get(spec.game_id)
        since = since_links(history, page=changes) if history is not None else ""
        if since:
            release += f"<br>changes since {since}"
        rows.append([f"[{text(game_title(spec))}]({prefix}{game_dir(spec)}/index.md)",
                     text(spec.name), code(spec.game_id), player_range(spec),
                     str(len(spec.section("clauses"))),
                     f"[{len(spec.section('ambiguities'))}]({prefix}{game_dir(spec)}/ambiguities.md)",
                     release])
    return (table(["Game", "Original name", "Id", "Players", "Clauses", "Ambiguities",
                   "Release"], rows)
            + f"\nEach game's releases and what changed in each are on its Changes page; "
            f"subscribe to [the releases feed]({prefix}{FEED_PATH}) (Atom) to hear of new ones.\n")


def games_index(specs: Sequence[Spec]) -> Page:
    """Return the games landing page."""
    body = ("# Games\n\nEvery game in the registry, generated from its spec in `specs/`. Each game "
            "has an overview, its tables, the structure and every clause with its verbatim quote, "
            "the actions and state, the invariants, the variants and the ambiguity register.\n\n"
            + games_table(specs, prefix="../") + "\n"
            + f"All ambiguities of all games in one place: [ambiguity register](../{REGISTER_PAGE}).\n")
    return Page("games/index.md", body)


def readme_block(readme: str, name: str) -> str:
    """Return the fenced code block that follows ``<!-- name -->`` in the README, fence included."""
    marker = f"<!-- {name} -->"
    lines = readme.splitlines()
    try:
        start = lines.index(marker)
    except ValueError:
        raise DocsError(f"README.md has no {marker!r} marker; the docs include the block that "
                        "follows it, so add the marker back above the command") from None
    block: list[str] = []
    for line in lines[start + 1:]:
        if not block and not line.strip():
            continue
        if not block and not line.startswith("```"):
            raise DocsError(f"README.md: the line after {marker!r} must open a fenced code block, "
                            f"found {line!r}")
        block.append(line)
        if len(block) > 1 and line.startswith("```"):
            return "\n".join(block) + "\n"
    raise DocsError(f"README.md: the code block after {marker!r} is never closed")


def since_list(specs: Sequence[Spec], histories: Mapping[str, History], *,
               prefix: str = "") -> str:
    """Return one line per game: its names, and links to what changed since each release."""
    lines = []
    for spec in specs:
        history = histories.get(spec.game_id)
        changes = f"{prefix}{game_dir(spec)}/{CHANGES_PAGE}"
        since = since_links(history, page=changes) if history is not None else ""
        lines.append(f"- **{text(game_title(spec))}** ({game_names(spec)}): "
                     + (f"changes since {since}; " if since else "")
                     + f"every release on its [Changes page]({changes})\n")
    return "".join(lines) or "No game specs are registered yet.\n"


def game_names(spec: Spec) -> str:
    """Return the game's original-language title (when it differs) and its command id."""
    names = spec.data["game"]["names"]
    original = str(names["original"])
    said = f"*{text(original)}*, " if original != game_title(spec) else ""
    return f"{said}{code(spec.game_id)}"


def fill_markers(markdown: str, *, specs: Sequence[Spec], readme: str | None,
                 prefix: str = "", repo_url: str | None = None,
                 histories: Mapping[str, History] | None = None) -> str:
    """Replace the generation markers of a hand-written page (``repo_url`` is mkdocs's)."""
    if MARKER_GAMES in markdown:
        markdown = markdown.replace(MARKER_GAMES, games_table(specs, prefix=prefix,
                                                              histories=histories))
    if MARKER_SINCE in markdown:
        markdown = markdown.replace(MARKER_SINCE, since_list(specs, histories or {},
                                                             prefix=prefix))
    if MARKER_REPOSITORY in markdown:
        markdown = markdown.replace(MARKER_REPOSITORY, repository_block(repo_url))

    def readme_sub(match: re.Match[str]) -> str:
        if readme is None:
            raise DocsError("README.md not found beside mkdocs.yml; the docs include its commands")
        return readme_block(readme, match.group("name"))

    return MARKER_README.sub(readme_sub, markdown)


def site_pages(specs: Sequence[Spec], *, schema: Mapping[str, Any],
               cli: click.Command | None, site_url: str | None = None,
               directory_urls: bool = True,
               histories: Mapping[str, History] | None = None) -> list[Page]:
    """Return every generated page of the site, and the feed of releases (``releases.xml``).

    ``site_url`` and ``directory_urls`` are mkdocs's settings: the feed's links are absolute
    under ``site_url`` (relative to the feed without one) and point at the built pages.
    ``histories`` (:func:`release_histories`) are computed when not given.
    """
    if histories is None:
        histories = release_histories(specs)
    pages = [games_index(specs), register_page(specs, histories=histories),
             spec_format_page(schema)]
    if cli is not None:
        pages.append(cli_page(cli))
    pages.append(feed_page(list(histories.values()), site_url=site_url,
                           directory_urls=directory_urls))
    pages.append(migrations_page(specs, histories))
    for spec in specs:
        history = histories[spec.game_id]
        pages.extend(game_pages(spec, history=history))
        pages.append(changes_page(spec, history))
        document = published_perft(spec)
        if document is not None:
            pages.append(perft_page(spec, document))
        traces = phase_traces(spec)
        if traces:
            pages.append(states_page(spec, traces))
    return pages


def release_histories(specs: Sequence[Spec]) -> dict[str, History]:
    """Return each game's release history, by game id; one diff cache serves them all."""
    cache = DiffCache()
    return {spec.game_id: History(spec, cache) for spec in specs}


def phase_traces(spec: Spec) -> list[TraceFile]:
    """Return the golden traces the example-states page is built from.

    None for a spec that does not mark its working fields (``x-pending``: a spec written before
    the page existed keeps building), has no phase enum, or is given by path and so has no
    registered traces.
    """
    return golden_traces([spec.game_id]) if phases(spec) and pending_keys(spec) else []


def published_perft(spec: Spec) -> dict[str, Any] | None:
    """Return the committed perft tables of a registered game (None for other specs)."""
    from rulespec.conformance.play import perft_tables
    from rulespec.spec.errors import RulespecError

    try:
        return perft_tables.load(spec.game_id)
    except RulespecError:
        return None  # a spec given by path (not registered) has no published tables


def games_nav(specs: Sequence[Spec]) -> list[dict[str, list[dict[str, str]]]]:
    """Return the navigation entries of the games, one section per game."""
    nav = []
    for spec in specs:
        entries = [{title: f"{game_dir(spec)}/{name}"} for name, title in GAME_PAGES]
        if phase_traces(spec):
            after = [name for name, _ in GAME_PAGES].index("actions.md") + 1
            entries.insert(after, {STATES_TITLE: f"{game_dir(spec)}/{STATES_PAGE}"})
        if published_perft(spec) is not None:
            entries.append({PERFT_TITLE: f"{game_dir(spec)}/{PERFT_PAGE}"})
        entries.append({CHANGES_TITLE: f"{game_dir(spec)}/{CHANGES_PAGE}"})
        nav.append({game_label(spec): entries})
    return nav


_GENERATED_FROM = re.compile(r"Generated from <code>((?:specs|conformance)/[^<]+)</code>")


def link_repository_files(markdown: str, repo_url: str, *, branch: str = "HEAD") -> str:
    """Link the repository files a generated page names as its source to the repository."""
    base = repo_url.rstrip("/")
    return _GENERATED_FROM.sub(
        lambda m: f'Generated from <a href="{base}/blob/{branch}/{m.group(1)}">'
                  f"<code>{m.group(1)}</code></a>", markdown)
