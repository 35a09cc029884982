"""The site fixes of issue 31 that need no browser or site build: the register's changelog of
real changes, the overviews' open questions, anchored witnesses, evidence as links, and the
search tuning (where the code is and deploy builds: test_publishing.py)."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from rulespec.docsgen.examples import witness_table
from rulespec.docsgen.links import Links
from rulespec.docsgen.markdown import linked_addresses
from rulespec.docsgen.pages import open_questions, overview_page, rules_page
from rulespec.docsgen.register import OPEN_STATUSES, ambiguity_block, changelog, register_events
from rulespec.docsgen.search import DEMOTED, search_titles, tune_index
from rulespec.spec import Spec, all_specs, get_spec, load_spec

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
EXAMPLE = HERE / "example" / "toy-dice.yaml"


@pytest.fixture(scope="module")
def example() -> Spec:
    return load_spec(EXAMPLE)


def _with_history(spec: Spec, aid: str, history: list[dict[str, Any]]) -> Spec:
    """Return a copy of ``spec`` whose record ``aid`` has ``history``."""
    data = copy.deepcopy(dict(spec.data))
    for amb in data["ambiguities"]:
        if amb["id"] == aid:
            amb["history"] = history
    return Spec(spec.path, data, spec.marks)


# -- the changelog: real changes only ----------------------------------------------------------


def test_a_record_written_with_its_lifecycle_is_one_addition(example: Spec) -> None:
    """Reported, triaged and ruled on one day is the record's addition, in its final status; a
    later status change is a change; a day that ends where it began changed nothing."""
    spec = _with_history(example, "TOY-AMB-01", [
        {"date": "2026-01-01", "status": "reported", "note": "found"},
        {"date": "2026-01-01", "status": "triaged", "note": "quoted"},
        {"date": "2026-01-01", "status": "ruled", "note": "decided"},
        {"date": "2026-02-01", "status": "deferred", "note": "new doubt"},
        {"date": "2026-02-01", "status": "ruled", "note": "doubt settled the same day"},
        {"date": "2026-03-01", "status": "resolved", "note": "the publisher said so"}])
    record = spec.ambiguities["TOY-AMB-01"]
    events = [e for e in register_events([(spec, record)])]
    assert [(e.date, e.before, e.entry["status"]) for e in events] == [
        ("2026-01-01", None, "ruled"), ("2026-03-01", "ruled", "resolved")]
    log = changelog([(spec, record)])
    rows = [line for line in log.splitlines() if line.startswith("| <code>2026")]
    assert len(rows) == 2, log
    assert "1 record added: 1 <span class=\"rs-badge rs-status rs-status-ruled\">ruled" in rows[1]
    assert "the publisher said so" in rows[0] and "→" in rows[0]


def test_the_registers_changelog_is_shorter_than_its_histories() -> None:
    """Across the registry the changelog has a row per addition batch and per later status
    change, far fewer than the history entries (171 rows of same-day backfill once), and no
    record appears twice on one day."""
    items = [(spec, amb) for spec in all_specs() for amb in spec.section("ambiguities")]
    entries = sum(len(amb.get("history") or []) for _, amb in items)
    events = register_events(items)
    assert len({(e.spec.game_id, str(e.record["id"]), e.date) for e in events}) == len(events)
    assert sum(1 for e in events if e.before is None) == len(items), \
        "every record is added exactly once"
    rows = [line for line in changelog(items).splitlines()
            if re.match(r"\| (<code>|\[<code>)\d{4}-", line)]
    changes = sum(1 for e in events if e.before is not None)
    assert changes < len(rows) < changes + 4 * 3 * 2 + 1, "additions are grouped per game and day"
    assert len(rows) * 3 < entries, f"{len(rows)} rows for {entries} history entries"


# -- overviews: what is still unknown ------------------------------------------------------------


def test_each_overview_says_what_is_still_open() -> None:
    """Fool's card values (FOOL-AMB-01) and the Rhino's dice faces (RR-AMB-01) are open
    questions on their overviews, with what would decide them; ruled records are not."""
    for spec in all_specs():
        box = open_questions(spec, Links(spec))
        assert box.startswith('!!! question "Open questions: ')
        for amb in spec.section("ambiguities"):
            listed = f"[<code>{amb['id']}</code>](ambiguities.md#{amb['id']})" in box
            assert listed == (amb["status"] in OPEN_STATUSES), amb["id"]
            if listed and amb.get("needs"):
                assert "**Needs:**" in box
        assert box in overview_page(spec), "the box is on the overview"
    assert "FOOL-AMB-01" in open_questions(get_spec("fool"), Links(get_spec("fool")))
    assert "RR-AMB-01" in open_questions(get_spec("ruby-rhino"), Links(get_spec("ruby-rhino")))


def test_an_overview_with_nothing_open_says_so(example: Spec) -> None:
    data = copy.deepcopy(dict(example.data))
    for amb in data["ambiguities"]:
        amb["status"] = "ruled"
    closed = Spec(example.path, data, example.marks)
    assert "No question is open" in open_questions(closed, Links(closed))


# -- witnesses and evidence ------------------------------------------------------------------------


def test_every_example_is_anchored_once_and_witnesses_link_to_it() -> None:
    """On the clauses page each example is anchored at its id exactly once (under its first
    clause; the copies under other clauses are not); each witness on the register page is
    anchored and links to that anchor."""
    spec = get_spec("dado-de-ouro")
    rules = rules_page(spec)
    from rulespec.examples.model import load_examples

    examples = load_examples(spec).examples
    for ex in examples:
        assert rules.count(f'id="{ex.id}"') == 1, ex.id
    copies = re.findall(r'<details class="example" data-search-exclude markdown>', rules)
    assert copies, "some example illustrates two clauses, so it is shown twice"
    witnessed = [ex for ex in examples if ex.witness is not None]
    assert witnessed
    for ex in witnessed:
        assert ex.witness is not None
        table = witness_table(spec, spec.ambiguities[ex.witness.ambiguity])
        assert f'<span id="{ex.id}"></span>[<code>{ex.id}</code>](rules.md#{ex.id})' in table
        assert f'<span id="witnesses-{ex.witness.ambiguity}">' in table


@pytest.mark.parametrize(("source", "links"), [
    ("spieletest.at/gesellschaftsspiel/5856/foppen; brettspiele.digital/spiele/foppen-0 (via x)",
     ["https://spieletest.at/gesellschaftsspiel/5856/foppen",
      "https://brettspiele.digital/spiele/foppen-0"]),
    ("mit80.de (FOOPEN article); ludorium.at (foppen page)", ["https://mit80.de",
                                                               "https://ludorium.at"]),
    ("ludopedia.com.br topic 883", ["https://ludopedia.com.br"]),
    ("see https://example.org/a_b?x=1. Then", ["https://example.org/a_b?x=1"]),
    ("The rulebook's README.md, module rulespec.docsgen, e.g. page 3", []),
])
def test_evidence_sources_link_their_addresses(source: str, links: list[str]) -> None:
    rendered = linked_addresses(source)
    assert re.findall(r"\]\(<([^>]+)>\)", rendered) == links
    plain = re.sub(r"\[([^\]]+)\]\(<[^>]+>\)", r"\1", rendered).replace("\\", "")
    assert plain == source, "the words around the addresses are kept"


def test_every_evidence_item_shows_its_kind_linked_source_and_date() -> None:
    seen = 0
    for spec in all_specs():
        for amb in spec.section("ambiguities"):
            block = ambiguity_block(amb, Links(spec))
            for ev in amb.get("evidence") or []:
                seen += 1
                assert f"({ev['kind']}; source: " in block
                first = re.search(r"[a-z0-9.-]+\.[a-z]{2,}", str(ev["source"]))
                assert first and f"(<https://{first.group(0)}" in block, ev["source"]
    assert seen >= 5, "the registry's records cite outside evidence"


# -- search ----------------------------------------------------------------------------------------


def test_search_titles_rules_and_demotes_hints() -> None:
    """A clause section titled by its id alone is titled with its statement; coverage scope and
    hints sections are demoted; the questions pages are demoted by their front matter."""
    spec = get_spec("ouro-de-tolo")
    titles = search_titles([spec])
    clause = next(c for c in spec.section("clauses") if c["id"] == "OURO-CARD-05")
    statement = " ".join(str(clause["statement"]).split())
    index: Mapping[str, Any] = {"config": {}, "docs": [
        {"location": "games/ouro-de-tolo/rules/#OURO-CARD-05", "title": "OURO-CARD-05",
         "text": "x"},
        {"location": "games/ouro-de-tolo/invariants/#coverage-hints", "title": "Coverage hints",
         "text": "Dynamite"},
        {"location": "games/ouro-de-tolo/ambiguities/#OURO-AMB-05", "title": "OURO-AMB-05: a",
         "text": "y"}]}
    tuned = tune_index(index, titles=titles)["docs"]
    assert tuned[0]["title"] == f"OURO-CARD-05: {statement}" and tuned[0]["tags"] == ["OURO-CARD-05"]
    assert tuned[1]["boost"] == DEMOTED["coverage-hints"] < 1
    assert tuned[2]["title"] == "OURO-AMB-05: a", "a heading that says more keeps its title"
    for game in ("dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"):
        page = (ROOT / "docs" / "editors" / "questions" / f"{game}.md").read_text("utf-8")
        assert re.match(r"---\n(#.*\n)*search:\n  boost: 0\.1\n---\n", page), game


def test_the_site_search_stems() -> None:
    from tests.docs.test_site import load_mkdocs_yml

    search = next(p["search"] for p in load_mkdocs_yml()["plugins"]
                  if isinstance(p, dict) and "search" in p)
    assert "stemmer" in search["pipeline"] and "trimmer" not in search["pipeline"], \
        "lunr's trimmer would cut accented letters (JavaScript's \\W)"
    assert re.fullmatch(search["separator"], "_") and not re.fullmatch(search["separator"], "-")
