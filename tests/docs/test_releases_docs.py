"""The docs announce releases: a Changes page per game, the release in which each clause and
record appeared and last changed, the register's last change linked to its release, and the
Atom feed of every release (no site build; ``test_site`` checks the built site)."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.docsgen import history as history_module
from rulespec.docsgen.changes import changes_page
from rulespec.docsgen.feed import ATOM, feed_xml
from rulespec.docsgen.history import DiffCache, History
from rulespec.docsgen.links import game_title
from rulespec.docsgen.pages import ambiguities_page, rules_page
from rulespec.docsgen.register import register_page
from rulespec.docsgen.site import release_histories, site_pages
from rulespec.releases.diff import diff_specs
from rulespec.releases.store import frozen_releases, parse_version, release_spec, releases_of
from rulespec.spec import Spec, get_spec, load_spec, spec_paths

# Every Changes page and feed of every release generated (about 30 s of CPU): integration, as
# the other whole-site tests, so the default run keeps its five minutes; CI runs it.
pytestmark = pytest.mark.integration

A = f"{{{ATOM}}}"
SITE_URL = "https://example.org/rulespec/"


@pytest.fixture(scope="module")
def specs() -> list[Spec]:
    """Today's specs, loaded afresh as the docs build loads them."""
    return [load_spec(p) for p in spec_paths()]


@pytest.fixture(scope="module")
def built(specs: list[Spec]) -> Iterator[tuple[dict[str, str], Counter[tuple[str, str, str]]]]:
    """Every generated page of the site, and how often each (game, old, new) diff was made."""
    made: Counter[tuple[str, str, str]] = Counter()
    real = diff_specs

    def counting(old: Spec, new: Spec, **options: Any) -> Any:
        made[(old.game_id, old.version, options.get("new_label", ""))] += 1
        return real(old, new, **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(history_module, "diff_specs", counting)
        pages = site_pages(specs, schema={}, cli=None, site_url=SITE_URL)
    yield {p.path: p.markdown for p in pages}, made


def section(page: str, anchor: str) -> str:
    """Return the part of a page from the heading anchored ``anchor`` to the next one as high."""
    head = re.search(rf"^(#+) .*\{{ #{re.escape(anchor)} \}}$", page, re.MULTILINE)
    assert head, f"no heading anchored #{anchor}"
    level = len(head.group(1))
    rest = page[head.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.MULTILINE)
    return rest[:end.start()] if end else rest


def released(game: str) -> History:
    """The history of a game whose spec today is its newest frozen release, unedited.

    Others edit the specs; the frozen releases never change, so facts of the past are checked
    on them.
    """
    newest = frozen_releases(game)[-1].version
    return History(release_spec(game, newest), DiffCache())


# -- the Changes page -------------------------------------------------------------------------------


def test_changes_page_lists_every_release_newest_first(
        specs: list[Spec], built: tuple[dict[str, str], Counter[tuple[str, str, str]]]) -> None:
    """Each game's Changes page has one entry per release of game.releases, newest first, with
    its date and summary."""
    pages, _ = built
    for spec in specs:
        page = pages[f"games/{spec.game_id}/changes.md"]
        recorded = releases_of(spec)
        assert recorded, f"{spec.game_id} records no releases"
        anchors = re.findall(r"^## .* \{ #release-([0-9.]+) \}$", page, re.MULTILINE)
        assert anchors == [r.version for r in reversed(recorded)], \
            f"{spec.game_id}: the Changes page lists {anchors}, game.releases {recorded}"
        for item in recorded:
            body = section(page, f"release-{item.version}")
            assert f"Released <code>{item.date}</code>." in body, f"{item.version}: no date"
            words = re.sub(r"\[<code>([^<]+)</code>\]\([^)]+\)", r"\1", body)
            # A summary's `code` is rendered as code (Dado de Ouro 1.4.0's names a command).
            words = re.sub(r"<code>([^<]+)</code>", r"`\1`", words)
            assert item.summary in words.replace("\\", ""), f"{item.version}: no summary"


def test_major_declared_change_is_on_its_release(
        built: tuple[dict[str, str], Counter[tuple[str, str, str]]]) -> None:
    """Ouro de Tolo 2.0.0 declares that OURO-CARD-11 changed play under OURO-AMB-06: its entry
    lists it among the MAJOR changes with its clause and record linked, and 1.0.0's does not."""
    page = built[0]["games/ouro-de-tolo/changes.md"]
    major = section(page, "release-2.0.0-major")
    item = next((line for line in major.splitlines() if "BEHAVIOUR\\_DECLARED" in line), None)
    assert item is not None, f"OURO-CARD-11's declared change is not MAJOR in 2.0.0:\n{major}"
    assert "[<code>OURO-CARD-11</code>](rules.md#OURO-CARD-11)" in item
    assert "[<code>OURO-AMB-06</code>](ambiguities.md#OURO-AMB-06)" in item
    assert "BEHAVIOUR\\_DECLARED" not in section(page, "release-1.0.0")
    expected = diff_specs(release_spec("ouro-de-tolo", "1.0.0"),
                          release_spec("ouro-de-tolo", "2.0.0")).by_level("major")
    items = [line for line in major.splitlines() if line.startswith("- **")]
    assert len(items) == len(expected), "one line per MAJOR change rulespec diff finds"


def test_patch_changes_are_counted_by_rule(
        built: tuple[dict[str, str], Counter[tuple[str, str, str]]]) -> None:
    """PATCH changes are summarised by rule with their counts, as rulespec diff's text is."""
    patch = section(built[0]["games/fool/changes.md"], "release-1.1.0-patch")
    diff = diff_specs(release_spec("fool", "1.0.0"), release_spec("fool", "1.1.0"))
    for rule, count in Counter(c.rule for c in diff.by_level("patch")).items():
        assert f"| **{rule.replace('_', chr(92) + '_')}** | {count} |" in patch, rule


def test_each_diff_is_made_once_per_build(
        specs: list[Spec], built: tuple[dict[str, str], Counter[tuple[str, str, str]]]) -> None:
    """The Changes pages, version notes, register and feed share one diff per (game, old, new)."""
    made = built[1]
    twice = {key: n for key, n in made.items() if n > 1}
    assert not twice, f"diffs made more than once in one build: {twice}"
    for spec in specs:
        frozen = [r.version for r in frozen_releases(spec.game_id)]
        for old, new in pairwise(frozen):
            assert made[(spec.game_id, old, f"{spec.game_id}@{new}")] == 1, (old, new)


# -- appeared and last changed ---------------------------------------------------------------------


def next_minor(version: str) -> str:
    """Return the next MINOR version after ``version`` (the edited copies' new release)."""
    major, minor, _ = parse_version(version)
    return f"{major}.{minor + 1}.0"


def test_record_added_after_the_first_release_appeared_in_it() -> None:
    """FOOL-AMB-15 was recorded in Fool 1.1.0: it appeared, and last changed, in 1.1.0; a record
    of 1.0.0 appeared in 1.0.0. The register page says so with links to the Changes page."""
    history = released("fool")
    lineage = history.lineage("ambiguities", "FOOL-AMB-15")
    assert lineage.appeared is not None and lineage.appeared.version == "1.1.0"
    # It last changed in 1.1.0 or later (Fool 1.2.0 gave it its effect and new impact prose).
    assert lineage.changed is not None
    assert parse_version(str(lineage.changed.version)) >= parse_version("1.1.0")
    first = history.lineage("ambiguities", "FOOL-AMB-01").appeared
    assert first is not None and first.version == "1.0.0"
    page = ambiguities_page(history.spec, history)
    block = section(page, "FOOL-AMB-15")
    assert "since [<code>1.1.0</code>](changes.md#release-1.1.0)" in block
    assert "1.0.0" not in block.split("**Question.**")[0], "FOOL-AMB-15 is not in 1.0.0"


def test_clause_notes_when_it_appeared_and_last_changed() -> None:
    """A clause added in Ouro de Tolo 2.0.0 appeared there; a clause of 1.0.0 whose statement
    2.0.0 changed says both; one unchanged since 1.0.0 says only when it appeared."""
    history = released("ouro-de-tolo")
    diff = diff_specs(release_spec("ouro-de-tolo", "1.0.0"), release_spec("ouro-de-tolo", "2.0.0"))
    reworded = next(c.clauses[0] for c in diff.changes if c.rule == "CLAUSE_STATEMENT_CHANGED")
    touched = {c.path.split(".")[1] for c in diff.changes if c.path.startswith("clauses.")}
    unchanged = next(str(c["id"]) for c in history.spec.section("clauses")
                     if str(c["id"]) not in touched)
    page = rules_page(history.spec, history)
    link = "[<code>{0}</code>](changes.md#release-{0})".format
    assert f"since {link('2.0.0')}" in section(page, "OURO-CARD-11")
    assert f"since {link('1.0.0')} · changed in {link('2.0.0')}" in section(page, reworded)
    note = section(page, unchanged)
    assert f"since {link('1.0.0')}" in note and "changed in" not in note, unchanged


# -- the register's last change --------------------------------------------------------------------


def test_last_change_links_the_release_it_came_with() -> None:
    """The register's last change of FOOL-AMB-15 came with 1.1.0: the per-game and the cross-game
    registers link it to that entry (the date stays the cell's text)."""
    history = released("fool")
    record = next(a for a in history.spec.section("ambiguities") if a["id"] == "FOOL-AMB-15")
    date = record["history"][-1]["date"]
    cell = f'[<code>{date}</code>](changes.md#release-1.1.0 "came with release 1.1.0")'
    row = next(line for line in ambiguities_page(history.spec, history).splitlines()
               if line.startswith("| [<code>FOOL-AMB-15</code>]"))
    assert row.rstrip(" |").endswith(cell), row
    site = register_page([history.spec], histories={"fool": history}).markdown
    row = next(line for line in site.splitlines()
               if line.startswith("| [<code>FOOL-AMB-15</code>]"))
    assert row.rstrip(" |").endswith(cell.replace("(changes.md", "(games/fool/changes.md")), row


# -- unreleased edits and a release not frozen yet --------------------------------------------------


def edited_copy(tmp_path: Path, game: str, edit: Any) -> Spec:
    """Return today's spec of ``game`` edited by ``edit(data)``, written beside no release."""
    spec = next(load_spec(p) for p in spec_paths() if p.stem == game)
    data = copy.deepcopy(spec.data)
    edit(data)
    path = tmp_path / spec.path.name
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_spec(path)


def test_unreleased_edits_are_an_entry_and_link_nowhere_else(tmp_path: Path) -> None:
    """Edits since the newest release are the entry "unreleased": a reworded clause says it
    changed there, and a history entry added today is not linked to any release."""
    def edit(data: dict[str, Any]) -> None:
        data["clauses"][0]["statement"] += " (Reworded.)"
        record = next(a for a in data["ambiguities"] if a["id"] == "FOOL-AMB-15")
        record["history"].append({"date": "2099-01-01", "status": record["status"],
                                  "note": "checked again"})

    spec = edited_copy(tmp_path, "fool", edit)
    history = History(spec, DiffCache(behaviour=False))
    assert history.newest_first[0].version is None, "today's edits come first"
    page = changes_page(spec, history).markdown
    assert "CLAUSE\\_STATEMENT\\_CHANGED" in section(page, "unreleased-patch")
    clause = str(spec.section("clauses")[0]["id"])
    rules = rules_page(spec, history)
    assert "changed in [<code>unreleased</code>](changes.md#unreleased)" in section(rules, clause)
    row = next(line for line in ambiguities_page(spec, history).splitlines()
               if line.startswith("| [<code>FOOL-AMB-15</code>]"))
    assert row.rstrip(" |").endswith("<code>2099-01-01</code>"), row
    assert [e.version for e in history.releases] == [r.version for r in releases_of(spec)]


def test_release_not_frozen_yet_is_compared_with_todays_spec(tmp_path: Path) -> None:
    """A release recorded but not frozen is listed, compared with today's spec; a clause it adds
    appeared in it; the feed announces it."""
    today = get_spec("fool").version
    new = next_minor(today)

    def edit(data: dict[str, Any]) -> None:
        clause = copy.deepcopy(data["clauses"][-1])
        clause["id"] = "FOOL-NEW-01"
        data["clauses"].append(clause)
        data["game"]["spec_version"] = new
        data["game"]["releases"].append({"version": new, "date": "2099-01-02",
                                         "summary": "A clause more."})

    spec = edited_copy(tmp_path, "fool", edit)
    history = History(spec, DiffCache(behaviour=False))
    newest = history.newest_first[0]
    assert (newest.version, newest.frozen, newest.previous) == (new, False, today)
    assert newest.diff is not None and any(c.rule == "CLAUSE_ADDED" for c in newest.diff.changes)
    appeared = history.lineage("clauses", "FOOL-NEW-01").appeared
    assert appeared is not None and appeared.version == new
    page = changes_page(spec, history).markdown
    assert "not frozen yet: compared with today's spec" in section(page, f"release-{new}")
    feed = parse_feed(feed_xml([history], site_url=None))
    first = feed.find(f"{A}entry")
    assert first is not None and first.findtext(f"{A}title") == f"{game_title(spec)} {new}"
    assert first.findtext(f"{A}summary") == "A clause more."


def test_declared_change_of_play_counts_as_a_change(tmp_path: Path) -> None:
    """A release that declares a change of play of a clause and a record (their words the same)
    is where they last changed."""
    new = next_minor(get_spec("ouro-de-tolo").version)

    def edit(data: dict[str, Any]) -> None:
        data["game"]["spec_version"] = new
        data["game"]["releases"].append({
            "version": new, "date": "2099-01-03", "summary": "A fix.",
            "behaviour_changes": [{"clauses": ["OURO-CARD-01"], "records": ["OURO-AMB-01"],
                                   "reason": "the reference was wrong"}]})

    spec = edited_copy(tmp_path, "ouro-de-tolo", edit)
    history = History(spec, DiffCache(behaviour=False))
    for section_name, ident in (("clauses", "OURO-CARD-01"), ("ambiguities", "OURO-AMB-01")):
        changed = history.lineage(section_name, ident).changed  # type: ignore[arg-type]
        assert changed is not None and changed.version == new, ident


def test_changes_page_is_linked_from_the_overview_nav_and_games_table(
        specs: list[Spec], built: tuple[dict[str, str], Counter[tuple[str, str, str]]]) -> None:
    """The overview lists the Changes page and links the spec version to its release; the nav
    has the page under each game; the games table links each game's newest release and the
    feed."""
    from rulespec.docsgen.site import games_nav, games_table

    pages = built[0]
    nav = games_nav(specs)
    for spec, (entry,) in zip(specs, (n.values() for n in nav), strict=True):
        assert {"Changes": f"games/{spec.game_id}/changes.md"} in entry, spec.game_id
        overview = pages[f"games/{spec.game_id}/index.md"]
        assert "| [Changes](changes.md) |" in overview, spec.game_id
        newest = releases_of(spec)[-1].version
        if newest == spec.version:
            assert f"| Spec version | [<code>{newest}</code>](changes.md#release-{newest}) |" \
                in overview, spec.game_id
    listing = games_table(specs)
    for spec in specs:
        newest = releases_of(spec)[-1].version
        assert f"(games/{spec.game_id}/changes.md#release-{newest})" in listing
    assert "(releases.xml)" in listing, "the home page and the games index link the feed"


# -- the feed ---------------------------------------------------------------------------------------


def parse_feed(xml: str) -> ET.Element:
    """Parse the feed and check RFC 4287's required elements of the feed and every entry."""
    root = ET.fromstring(xml)
    assert root.tag == f"{A}feed", "the root is atom:feed in the Atom namespace"
    for tag in ("id", "title", "updated"):
        assert root.find(f"{A}{tag}") is not None, f"the feed has no atom:{tag}"
    entries = root.findall(f"{A}entry")
    assert root.find(f"{A}author/{A}name") is not None or all(
        e.find(f"{A}author") is not None for e in entries), "atom:author is required"
    for entry in entries:
        for tag in ("id", "title", "updated"):
            assert (entry.findtext(f"{A}{tag}") or "").strip(), f"an entry has no atom:{tag}"
        link = entry.find(f"{A}link[@rel='alternate']")
        assert link is not None and link.get("href"), "each entry links to its Changes entry"
        datetime.fromisoformat(str(entry.findtext(f"{A}updated")).replace("Z", "+00:00"))
    return root


def test_feed_has_one_entry_per_release_newest_first(specs: list[Spec]) -> None:
    """The feed is Atom 1.0: one entry per release of every game, newest first, each with its
    summary and an absolute link to its entry on the game's Changes page."""
    histories = release_histories(specs)
    root = parse_feed(feed_xml(list(histories.values()), site_url=SITE_URL))
    entries = root.findall(f"{A}entry")
    expected = {(s.game_id, r.version): r for s in specs for r in releases_of(s)}
    assert len(entries) == len(expected)
    updated = [str(e.findtext(f"{A}updated")) for e in entries]
    assert updated == sorted(updated, reverse=True), "entries are newest first"
    assert root.findtext(f"{A}updated") == updated[0]
    assert len({e.findtext(f"{A}id") for e in entries}) == len(entries), "ids are unique"
    seen = set()
    for entry in entries:
        link = entry.find(f"{A}link[@rel='alternate']")
        assert link is not None
        found = re.fullmatch(re.escape(SITE_URL) + r"games/([a-z0-9-]+)/changes/#release-(.+)",
                             str(link.get("href")))
        assert found, f"not a link to a Changes entry: {link.get('href')}"
        release = expected[(found.group(1), found.group(2))]
        assert entry.findtext(f"{A}summary") == release.summary
        assert str(entry.findtext(f"{A}updated")).startswith(release.date)
        seen.add((found.group(1), found.group(2)))
    assert seen == set(expected), "every release is announced once"
    self_link = root.find(f"{A}link[@rel='self']")
    assert self_link is not None and self_link.get("href") == SITE_URL + "releases.xml"


def test_feed_links_are_relative_without_a_site_url(specs: list[Spec]) -> None:
    """Without site_url the links are relative to the feed, which lives at the site root."""
    histories = release_histories(specs[:1])
    root = parse_feed(feed_xml(list(histories.values()), site_url=None, directory_urls=False))
    hrefs = [str(e.get("href")) for e in root.iter(f"{A}link")]
    assert hrefs and all("://" not in h and not h.startswith("/") for h in hrefs), hrefs
    game = specs[0].game_id
    assert f"games/{game}/changes.html#release-{releases_of(specs[0])[-1].version}" in hrefs
    assert root.find(f"{A}link[@rel='self']") is None


def test_feed_without_releases_is_still_valid() -> None:
    """A site whose games record no releases still publishes a valid, empty feed."""
    root = parse_feed(feed_xml([], site_url=SITE_URL))
    assert root.findall(f"{A}entry") == []
