"""Named views: a published configuration names its view, the command line takes the name
(``--views NAME``), and the docs' table cells hold short commands linked to the full ones."""

from __future__ import annotations

from click.testing import CliRunner

from rulespec.cli import cli
from rulespec.verify.keys import View
from rulespec.verify.published import CELL, cell_of, load_published, load_views
from tests.verify.support import RHINO_SUMMARY, RHINO_TINY


def test_every_published_cell_is_short_and_links_its_full_command() -> None:
    entries = load_published()
    views = load_views()
    for entry in entries:
        assert len(entry.cell()) <= CELL, entry.cell()
        if entry.view_name is not None:
            assert entry.view == views[entry.view_name].terms
            assert f"--views {entry.view_name}" in entry.cell()
        cell = cell_of(entry.command(), "../editors/verification.md", entries)
        assert entry.cell() in cell
        if entry.cell() != entry.command():
            assert f"(../editors/verification.md#{entry.anchor})" in cell
    assert len({e.anchor for e in entries}) == len(entries)


def test_the_named_view_is_the_terms_it_names() -> None:
    """RR-INV-ROUND-COUNT and the other record invariants: the tiny Ruby Rhino under
    --views rr-summary is the same search as under its terms given one by one."""
    assert load_views()["rr-summary"].terms == RHINO_SUMMARY
    params = [a for k, v in RHINO_TINY.items() for a in ("-p", f"{k}={v}")]
    named = CliRunner().invoke(cli, ["verify", "ruby-rhino", "-n", "2", *params, "--views",
                                     "rr-summary", "-q", "--cross-check", "0"])
    terms = [a for t in RHINO_SUMMARY
             for a in (("--view", t) if "(" in t else ("--forget", t))]
    spelled = CliRunner().invoke(cli, ["verify", "ruby-rhino", "-n", "2", *params, *terms,
                                       "-q", "--cross-check", "0"])
    assert named.exit_code == spelled.exit_code == 0, named.output

    def figures(out: str) -> list[str]:
        return [line for line in out.splitlines() if "states/s" not in line]

    assert figures(named.output) == figures(spelled.output)


def test_an_unknown_or_foreign_view_is_refused() -> None:
    result = CliRunner().invoke(cli, ["verify", "ruby-rhino", "--views", "pig-on-hold"])
    assert result.exit_code == 2 and "rr-summary" in result.output


def test_every_named_view_parses() -> None:
    for name, view in load_views().items():
        assert View(view.terms).terms == view.terms, name
    assert load_views()["pig-at-once"].terms == ("last_roll", "cap(rolls, 1)", "relative(turns)")
