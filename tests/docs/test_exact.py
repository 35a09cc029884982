"""Exact figures on record pages (issue 44 item 5, issue 42 item 5): where ``rulespec verify``
proved an option, the record shows each seat's exact win-probability change before the sampled
figures, with the lab's interval on the same configuration beside it."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from rulespec.docsgen.exact import LAB, RESULTS, exact_block, exact_rows


def _published() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return (json.loads(RESULTS.read_text(encoding="utf-8")),
            json.loads(LAB.read_text(encoding="utf-8")))


def test_a_proved_option_shows_every_seats_exact_change_and_the_lab_beside_it() -> None:
    """RR-AMB-10 random-first-player, proved on the published small Ruby Rhino configuration."""
    results, lab = _published()
    rows = exact_rows("ruby-rhino", "RR-AMB-10", results=results, lab=lab)
    assert [r.option for r in rows] == ["random-first-player"]
    (row,) = rows
    assert row.players == 2 and len(row.changes) == 2 and row.states > 0
    # Two seats and no draws in this configuration: one seat's gain is the other's loss.
    assert sum(Fraction(c) for c in row.changes) == 0
    assert row.lab is not None and row.lab["low"] <= row.lab["value"] <= row.lab["high"]
    block = exact_block("ruby-rhino", "RR-AMB-10", results=results, lab=lab)
    assert f"<code>{row.changes[0]}</code>" in block and "seat 1" in block
    assert "editors/verification.md#beside-the-impact-lab" in block


def test_only_proved_options_count() -> None:
    results, lab = _published()
    document = json.loads(json.dumps(results[0]))
    record = document["options"][0]["ambiguity"]
    game = document["baseline"]["config"]["game"]
    assert exact_rows(game, record, results=[document], lab=lab)
    for option in document["options"]:
        option["verification"]["status"] = "bounded"
    assert exact_rows(game, record, results=[document], lab=lab) == []
    assert exact_block(game, record, results=[document], lab=lab) == ""
    assert exact_block(game, "NO-SUCH-RECORD", results=results, lab=lab) == ""


def test_a_missing_or_broken_results_file_shows_nothing() -> None:
    assert exact_block("ruby-rhino", "RR-AMB-10", results=[], lab=[]) == ""
    assert exact_rows("ruby-rhino", "RR-AMB-10", results=[{"baseline": None}], lab=[]) == []


def test_every_proved_option_of_the_published_results_reaches_its_records_page() -> None:
    """Each record the published configurations prove options of gets a block on its page."""
    from rulespec.docsgen.pages import ambiguities_page
    from rulespec.spec.registry import get_spec

    results, _ = _published()
    proved = {(d["baseline"]["config"]["game"], o["ambiguity"]) for d in results
              for o in d["options"] if (o.get("verification") or {}).get("status") == "proved"}
    for game in sorted({g for g, _ in proved} - {"pig"}):
        page = ambiguities_page(get_spec(game))
        for _, record in sorted(p for p in proved if p[0] == game):
            start = page.index(record)
            assert "Exact, where the search reaches" in page[start:], (game, record)
