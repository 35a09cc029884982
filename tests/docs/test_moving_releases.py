"""The implementers' page "Moving your engine to a new release", generated from each game's
pairs of consecutive frozen releases (``rulespec diff OLD NEW --for-implementers``). The diffs
here skip the replay (``DiffCache(behaviour=False)``): the page's text, not the evidence, is
under test; ``test_site`` builds the whole site."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import yaml

from rulespec.docsgen.history import DiffCache, History
from rulespec.docsgen.migrations import MIGRATIONS_PAGE, MIGRATIONS_TITLE, migrations_page
from rulespec.releases.store import frozen_releases
from rulespec.spec import Spec, load_spec, spec_paths

ROOT = Path(__file__).resolve().parents[2]


def _page() -> tuple[list[Spec], str]:
    specs = [load_spec(p) for p in spec_paths()]
    cache = DiffCache(behaviour=False)
    page = migrations_page(specs, {s.game_id: History(s, cache) for s in specs})
    assert page.path == MIGRATIONS_PAGE
    return specs, page.markdown


def test_every_pair_of_consecutive_releases_has_a_step() -> None:
    """One step per release after the first of every game, newest first."""
    specs, markdown = _page()
    for spec in specs:
        versions = [r.version for r in frozen_releases(spec.game_id)]
        for old, new in pairwise(versions):
            assert f"### Moving an engine of {spec.game_id} {old} to {new}\n" in markdown
        assert f"../games/{spec.game_id}/changes.md" in markdown


def test_the_steps_name_the_hello_lines_and_the_major_changes() -> None:
    """fool 1.0.0 -> 1.1.0 adds FOOL-AMB-15 (FOOL-DEAL-01) and asks for the parameters the
    first release could not declare (FOOL-DEAL-02's cards_per_player); ouro-de-tolo 2.0.0
    lists its MAJOR changes (OURO-CARD-11)."""
    _, markdown = _page()
    fool = markdown.split("### Moving an engine of fool 1.0.0 to 1.1.0\n", 1)[1].split("### ")[0]
    assert '"FOOL-AMB-15": ["one-at-a-time"]' in fool and '"cards_per_player": ' in fool
    assert "no MAJOR change from 1.0.0 to 1.1.0" in fool
    ouro = markdown.split("### Moving an engine of ouro-de-tolo 1.0.0 to 2.0.0\n", 1)[1]
    ouro = ouro.split("### ")[0]
    assert "Every MAJOR change from 1.0.0 to 2.0.0" in ouro and "OURO-CARD-11" in ouro
    # A Markdown list needs a blank line before it.
    assert ":\n- " not in markdown


def test_the_page_is_in_the_implementers_navigation() -> None:
    """mkdocs.yml lists the generated page under Implementers."""

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)
    implementers = next(e["Implementers"] for e in config["nav"]
                        if isinstance(e, dict) and "Implementers" in e)
    assert {MIGRATIONS_TITLE: MIGRATIONS_PAGE} in implementers
    assert not (ROOT / "docs" / MIGRATIONS_PAGE).exists(), "generated: no hand-written file"
