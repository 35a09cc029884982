"""Moving an engine to a new release (issue from outside testers, 0.3.0).

``rulespec diff OLD NEW --for-implementers`` lists what an engine of OLD adds to ``hello``
(records, options, parameters, variants) and changes in behaviour (the MAJOR changes) to claim
NEW; the kit's refusal of a record an engine claiming NEW does not list names what was added
since the release its hello matches, and the lines to add.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulespec.conformance import check_engine
from rulespec.conformance.reports.report import render
from rulespec.releases.cli import diff
from rulespec.releases.diff import diff_specs
from rulespec.releases.implementers import (
    PARAMETERS_IN_HELLO,
    migration,
    predates_parameters,
    releases_listed,
)
from rulespec.releases.implementers import (
    render as render_migration,
)
from rulespec.releases.store import release_spec
from rulespec.spec import get_spec
from tests.conformance.test_spec_versions import QUICK, DeclaredEngine


def test_fool_from_its_first_release_adds_the_deal_record_and_declares_its_parameters() -> None:
    """FOOL-AMB-15 (FOOL-DEAL-01) came in 1.1.0 and FOOL-AMB-16..20 in 1.2.0: each must be listed
    with its default; 1.0.0 predates hello's parameters, so cards_per_player (FOOL-DEAL-02) and
    the others must now be declared. No MAJOR change: nothing to change in behaviour."""
    old, new = release_spec("fool", "1.0.0"), get_spec("fool")
    moved = migration(old, new)
    records = {a.id: (a.since, a.default) for a in moved.of_kind("record")}
    assert records["FOOL-AMB-15"] == ("1.1.0", "one-at-a-time")
    assert records["FOOL-AMB-20"][0] == "1.2.0"
    assert "cards_per_player" in moved.undeclared_before
    lines = moved.hello_lines()
    assert lines[0] == f'"spec_version": "{new.version}"'
    assert '"FOOL-AMB-15": ["one-at-a-time"]' in lines[1]
    assert any(line.startswith('"parameters": {..., ') and '"cards_per_player": {"maximum": 99, '
               '"minimum": 2}' in line for line in lines)
    assert moved.behaviour == ()
    assert predates_parameters(new, "1.0.0") == "2026-11-29" < PARAMETERS_IN_HELLO
    assert predates_parameters(new, "1.1.0") is None


def test_ouro_de_tolo_lists_its_major_changes_and_new_options() -> None:
    """OURO-CARD-11 changed play in 2.0.0 (declared): it is a behaviour to change; options
    added to known records (OURO-AMB-05=game-ends) and the parameter gold_fever_card_price."""
    old, new = release_spec("ouro-de-tolo", "1.0.0"), release_spec("ouro-de-tolo", "2.1.0")
    moved = migration(old, new, diff_specs(old, new, behaviour=False))
    assert any("OURO-CARD-11" in c.clauses for c in moved.behaviour)
    assert all(c.level == "major" for c in moved.behaviour)
    assert "OURO-AMB-05=game-ends" in {a.id for a in moved.of_kind("option")}
    assert {a.id: a.since for a in moved.of_kind("parameter")} == {
        "gold_fever_card_price": "2.1.0"}
    text = render_migration(moved)
    assert "2. Change in behaviour" in text and "BEHAVIOUR_DECLARED" in text
    document = json.loads(render_migration(moved, "json"))
    assert document["format"] == "rulespec-migration/1" and document["hello"][0].startswith(
        '"spec_version"')


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_diff_for_implementers(fmt: str) -> None:
    """The command: DDO-AMB-13..15 came in 1.2.0 (DDO-TIE-04, DDO-END-03)."""
    result = CliRunner().invoke(diff, ["dado-de-ouro@1.1.0", "dado-de-ouro@1.2.0",
                                       "--for-implementers", "--format", fmt, "-q"])
    assert result.exit_code == 0, result.output
    assert '"DDO-AMB-13": ["first-tied-clockwise"]' in result.output.replace('\\"', '"')
    if fmt == "json":
        assert json.loads(result.output)["new"] == "1.2.0"
    else:
        assert "Moving an engine of dado-de-ouro 1.1.0 to 1.2.0" in result.output


def test_releases_listed_finds_the_release_a_hello_matches() -> None:
    """An engine listing the records of fool 1.0.0 matches 1.0.0, not 1.1.0 (FOOL-AMB-15)."""
    listed = tuple(release_spec("fool", "1.0.0").ambiguities)
    assert releases_listed(get_spec("fool"), listed) == "1.0.0"
    assert releases_listed(get_spec("fool"), (*listed, "FOOL-AMB-15")) == "1.1.0"


def test_claiming_todays_release_with_a_first_release_hello_names_the_lines_to_add() -> None:
    """The issue's case: bumping spec_version alone fails on FOOL-AMB-15 (FOOL-DEAL-01); the
    failure now says the record is new since 1.0.0 and which hello lines would claim today's."""
    today = get_spec("fool").version
    report = check_engine(DeclaredEngine("fool", "1.0.0", declare=today), "fool", players=[4],
                          options=QUICK)
    assert not report.ok
    message = next(f.message for f in report.failures
                   if "unsupported ruling FOOL-AMB-15" in f.message)
    assert f"hello claims fool {today} but lists the records of 1.0.0" in message
    assert "record FOOL-AMB-15 (since 1.1.0)" in message
    assert '"FOOL-AMB-15": ["one-at-a-time"]' in message
    assert f"rulespec diff fool@1.0.0 fool@{today} --for-implementers" in message
    assert "record FOOL-AMB-15 (since 1.1.0)" in render(report, "text")
