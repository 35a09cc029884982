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
from rulespec.spec.visibility import clause_quotes

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


#: A quote shown on a line: “…” (as the lists show them) or "…".
SHOWN = re.compile(r"“([^”]+)”|\"([^\"]+)\"")
#: The outcomes that rest on the text itself: a clause's quote, or a dismissal's reason.
QUOTED_OUTCOMES = ("clause", "clauses", "dismissed")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\\|", "|")).strip()


def verbatim(shown: str, quote: str) -> bool:
    """Whether ``shown`` is word for word in ``quote``: each part between "..." in order."""
    at = 0
    for part in (p.strip() for p in re.split(r"\.\.\.|…", shown)):
        if not part:
            continue
        found = quote.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def quoted_lines(game: str) -> list[tuple[str, str, list[str], list[str]]]:
    """Return (question number, outcome, shown quotes, the quotes of the clauses the outcome
    cites) for each question answered by a clause or dismissed."""
    clauses = clause_quotes(get_spec(game).data)
    text = (ROOT / "docs" / "editors" / "questions" / f"{game}.md").read_text(encoding="utf-8")
    out = []
    for line in text.splitlines():
        if not re.match(r"^\| \d+ \|", line):
            continue
        cells = line.split(" | ")
        outcome = cells[-1]
        kind = outcome.replace("*", "").strip().split(" ")[0].rstrip(":")
        if kind not in QUOTED_OUTCOMES:
            continue
        shown = [_norm(a or b) for a, b in SHOWN.findall(outcome)]
        cited_quotes = [q for i in sorted(cited(outcome, PAGES[game])) for q in clauses.get(i, [])]
        out.append((cells[0].lstrip("| "), outcome, shown, cited_quotes))
    return out


@pytest.mark.parametrize("game", sorted(PAGES))
def test_every_clause_answer_and_dismissal_shows_its_quote(game: str) -> None:
    """Issue 43 item 3: a question answered by a clause, or dismissed, shows the quote that holds
    the answer, word for word from the quote of a clause the line cites. A quote shown as
    “…” must be such a quote; "…" may also mention words (one the text lacks, a reader's)."""
    lines = quoted_lines(game)
    assert len(lines) > 10
    bare = [number for number, _, shown, quotes in lines
            if not any(verbatim(s, q) for s in shown for q in quotes)]
    assert not bare, f"{game}: questions {bare} show no quote of a clause they cite"
    wrong = [(number, quote) for number, outcome, _, quotes in lines
             for quote in (_norm(q) for q in re.findall(r"“([^”]+)”", outcome))
             if not any(verbatim(quote, q) for q in quotes)]
    assert not wrong, f"{game}: shown quotes not in a cited clause's quote: {wrong}"


def test_a_quote_not_in_the_cited_clause_is_caught() -> None:
    """The check reads the cited clause's own quote: a word changed is not verbatim."""
    _, _, shown, quotes = next(x for x in quoted_lines("fool") if x[2])
    assert any(verbatim(shown[0], q) for q in quotes)
    assert not any(verbatim(shown[0].replace(" ", " x ", 1), q) for q in quotes)
    assert verbatim("Baralla ... mazo", "Baralla as cartas e reparte todo o mazo.")
    assert not verbatim("mazo ... Baralla", "Baralla as cartas e reparte todo o mazo.")
