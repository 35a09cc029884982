"""The questions lists (docs/editors/questions/) cite only clauses and records that exist.

Issue 43, item 3: a question answered by a clause or a record, a dismissal, or a pair of rules
that meet must point at something the spec has, so that a renamed or mistyped id cannot leave a
question answered by nothing. Each page is checked against its game's spec.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespec.spec.registry import get_spec

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"ouro-de-tolo": "OURO", "fool": "FOOL", "ruby-rhino": "RR", "dado-de-ouro": "DDO"}
#: DDO-TIE-02/-03/-05 abbreviates DDO-TIE-02, DDO-TIE-03 and DDO-TIE-05.
ID = re.compile(r"\b([A-Z]+)-([A-Z]+)-(\d+)((?:/-\d+)*)")


def cited(text: str, prefix: str) -> set[str]:
    """Return every id of ``prefix`` the text cites, the abbreviated ones spelt out."""
    found = set()
    for head, kind, number, more in ID.findall(text):
        if head != prefix:
            continue
        found.add(f"{head}-{kind}-{number}")
        found.update(f"{head}-{kind}-{n}" for n in re.findall(r"\d+", more))
    return found


def test_the_abbreviations_are_spelt_out() -> None:
    assert cited("DDO-TIE-02/-03/-05 and OURO-CARD-09, FOOL-AMB-1", "DDO") == {
        "DDO-TIE-02", "DDO-TIE-03", "DDO-TIE-05"}


@pytest.mark.parametrize("game", sorted(PAGES))
def test_every_cited_clause_and_record_exists(game: str) -> None:
    """Issue 43 item 3: every clause and record a questions list cites is in the spec."""
    spec = get_spec(game)
    known = set(spec.by_id("clauses")) | set(spec.ambiguities)
    text = (ROOT / "docs" / "editors" / "questions" / f"{game}.md").read_text(encoding="utf-8")
    missing = sorted(i for i in cited(text, PAGES[game])
                     if i not in known and "-EX-" not in i and "-INV-" not in i
                     and "-EV-" not in i)
    assert not missing, f"{game}: the questions list cites ids the spec lacks: {missing}"
