"""What changed since a release, in one list, and one name per game (issue 45, items 1 and 4).

No site build and no real diff: a history of made-up releases of the toy spec is enough to
check the Changes page's "since" lists, the links to them and the readable entries.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.docsgen.changes import changes_page, readable_reason, since_starts
from rulespec.docsgen.history import Entry, History
from rulespec.docsgen.links import game_label
from rulespec.docsgen.pages import overview_page
from rulespec.docsgen.site import MARKER_SINCE, fill_markers, games_nav, games_table
from rulespec.releases.change import Change
from rulespec.releases.diff import SpecDiff
from rulespec.spec import Spec, load_spec

EXAMPLE = Path(__file__).parent / "example" / "toy-dice.yaml"


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec(EXAMPLE)


def _diff(spec: Spec, old: str, new: str, *changes: Change) -> SpecDiff:
    return SpecDiff(spec.game_id, old, new, tuple(changes))


@pytest.fixture(scope="module")
def history(spec: Spec) -> History:
    """1.0.0, then 1.1.0 (MINOR), 2.0.0 (MAJOR, a bound that was absent) and unreleased edits."""
    minor = Change.of("CLAUSE_ADDED", "clauses.TOY-TURN-01", "clause added", ("TOY-TURN-01",))
    major = Change.of("ACTION_PARAMS_CHANGED", "actions.roll.params/count",
                      "roll: maximum None -> 5", ("TOY-SETUP-01",))
    patch = Change.of("CLAUSE_STATEMENT_CHANGED", "clauses.TOY-COMP-01", "statement reworded",
                      ("TOY-COMP-01",))
    made = History.__new__(History)
    made.spec = spec
    made.entries = [
        Entry("1.0.0", "2026-01-01", "First.", True, spec, None, None),
        Entry("1.1.0", "2026-02-01", "More.", True, spec, _diff(spec, "1.0.0", "1.1.0", minor),
              "1.0.0", spec),
        Entry("2.0.0", "2026-03-01", "Break.", True, spec, _diff(spec, "1.1.0", "2.0.0", major),
              "1.1.0", spec),
        Entry(None, "", "Edits.", False, spec, _diff(spec, "2.0.0", "2.0.0", patch), "2.0.0",
              spec),
    ]
    return made


def _since(page: str, version: str) -> str:
    start = page.index(f"{{ #since-{version} }}")
    end = page.find("\n### ", start)
    return page[start:end if end > 0 else None]


def test_each_release_has_one_list_of_everything_since(spec: Spec, history: History) -> None:
    """Since 1.0.0: the MAJOR change of 2.0.0 first, then the MINOR one of 1.1.0, each with
    the release that brought it and its clauses; the PATCH edit counted."""
    assert [e.label for e in since_starts(history)] == ["1.0.0", "1.1.0", "2.0.0"]
    page = changes_page(spec, history).markdown
    top = page[:page.index("| Release |")]
    assert "(#since-1.0.0)" in top and "(#since-2.0.0)" in top, "no choice at the top"
    since = _since(page, "1.0.0")
    major, minor = since.index("ACTION\\_PARAMS\\_CHANGED"), since.index("CLAUSE\\_ADDED")
    assert major < minor, "MAJOR changes come first"
    item = since[major:since.index("\n", major)]
    assert "changes.md#release-2.0.0" in item and "rules.md#TOY-SETUP-01" in item, item
    assert "Corrections and documentation (PATCH)**: 1" in since
    assert "`rulespec diff specs/toy-dice.yaml --against toy-dice@1.0.0`" in since, \
        "today's edits are in no release: the command compares the spec file"
    assert "CLAUSE\\_ADDED" not in _since(page, "2.0.0"), "1.1.0's change is not since 2.0.0"


def test_entries_read_as_sentences(spec: Spec, history: History) -> None:
    """No "(X is at least X, as they need)", no Python None."""
    page = changes_page(spec, history).markdown
    assert "as they need" not in page and "None" not in page
    assert "a MAJOR release, as they require" in page
    assert "maximum 5 (none before)" in page
    assert readable_reason("maximum 5 -> None") == "maximum 5 dropped (none now)"
    assert readable_reason("Nothing -> x") == "Nothing -> x"


def test_the_lists_are_linked_from_the_overview_and_the_implementers_pages(
        spec: Spec, history: History) -> None:
    overview = overview_page(spec, history)
    assert "| Changes since | [<code>1.0.0</code>](changes.md#since-1.0.0)" in overview
    filled = fill_markers(f"Pick yours:\n\n{MARKER_SINCE}\n", specs=[spec], readme=None,
                          prefix="../", histories={spec.game_id: history})
    assert "(../games/toy-dice/changes.md#since-1.0.0)" in filled
    table = games_table([spec], prefix="", histories={spec.game_id: history})
    assert "changes since [<code>1.0.0</code>](games/toy-dice/changes.md#since-1.0.0)" in table


def test_one_game_one_name(spec: Spec) -> None:
    """The menus and the overview say the name, the original title and the command id."""
    names = dict(spec.data["game"]["names"])
    assert game_label(spec) == "Toy Dice (toy-dice)"
    other = Spec(spec.path, {**spec.data, "game": {**spec.data["game"], "names": {
        **names, "english": "Play Dice", "original": "Dados"}}}, spec.marks)
    assert game_label(other) == "Play Dice (Dados · toy-dice)"
    assert [next(iter(n)) for n in games_nav([other])] == ["Play Dice (Dados · toy-dice)"]
    overview = overview_page(other)
    assert re.search(r"\*\*Play Dice\*\*: \*Dados\* in its original language, "
                     r"<code>toy-dice</code> in commands", overview), overview[:600]
