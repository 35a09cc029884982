"""Every normative line of every rulebook is quoted by some clause (or another citation).

A line counts as quoted when every word of it lies inside some verbatim quote of the spec that
cites its rulebook (table rows included: a table is quoted whole, header and rows). What is
left over must be one of the rulebook's non-normative fragments listed here (titles, flavour,
transcriber's notes, list markers) or a section title the spec's ``sources`` declares.
Short joining words left between two quoted halves of a sentence are not counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from rulespec.spec.loader import iter_nodes
from rulespec.spec.registry import get_spec
from tests.conftest import RULEBOOKS

GAMES = ["dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"]

#: Per rulebook file: text that states no rule, each with the reason.
NON_NORMATIVE: Mapping[str, tuple[str, ...]] = {
    "000_64c31462e76f9463.txt": (
        "Ouro de Tolo Rulebook",  # title
        "Table of Contents",  # heading
        "The game contains:",  # heading of the component list (its items are quoted)
        # transcriber's notes (the printed contradiction itself is OURO-QG-09 / OURO-AMB-02)
        "The manual's quick guide (Guia rápido) repeats the setup and turn structure in summary "
        "form.",
        "Note as printed: the quick guide says",
        '(see "End of the Workday" below). It is transcribed as printed.',
        # flavour before the rule it introduces
        "Ouro de Tolo: Not everything that glitters is gold, and this time you were unlucky.",
        "They are:",  # heading of a quoted list
    ),
    "001_10a0c40ad6cab35f.txt": (
        "Táboa de contidos",  # heading
        "TIPO DE XOGO: Derramamento da man & Xogo de cartas Trick Taking",  # genre blurb
        "PÚBLICO: A partir de 8 anos",  # age on the box
        "INTRODUCIÓN DO TONTO",  # heading
        "CAL É A PEOR CARTA?",  # heading
    ),
    "003_adb8c9f3c7bb3214.txt": (
        "The Curse of the Ruby Rhino Rulebook",  # title
        "The Curse of the Ruby Rhino",  # title
        "Table of Contents",  # heading
        "| Die 1 | Die 2 | Action |",  # table header (the rows are quoted)
        "The full dice table, from the rules sheet:",  # transcriber's heading
    ),
    "004_967b0044772e61e3.txt": (
        "Sistema de pontuação",  # heading
        "Empate no final das dez rodadas",  # heading
    ),
}
_MARKER = re.compile(r"^\s*(?:[•\-*]|\d+\.)\s*")
#: What counts as left over: a number (a table cell) or a word of four letters or more. Clauses
#: split long sentences at their joining words ("e", "que", "and"), which state nothing alone.
_CONTENT = re.compile(r"\b(?:\d+|\w{4,})\b")


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def unquoted_lines(game: str, rulebooks: Path = RULEBOOKS) -> list[str]:
    """Return the lines of the game's rulebooks with words no quote and no exception covers."""
    spec = get_spec(game)
    out: list[str] = []
    for source in spec.section("sources"):
        raw = (rulebooks / str(source["file"])).read_text(encoding="utf-8")
        text = _norm(raw)
        covered = bytearray(len(text))
        quotes = {_norm(str(node["quote"])) for _, node in iter_nodes(spec.data)
                  if isinstance(node, dict) and node.get("source") == source["id"]
                  and "quote" in node}
        titles = {_norm(str(s.get("title", ""))) for s in source.get("sections", [])}
        for fragment in quotes | titles | set(NON_NORMATIVE.get(str(source["file"]), ())):
            for match in re.finditer(re.escape(_norm(fragment)), text) if fragment else ():
                covered[match.start():match.end()] = b"\1" * (match.end() - match.start())
        position = 0
        for line in raw.splitlines():
            norm = _norm(line)
            if not norm:
                continue
            start = text.find(norm, position)
            position = start + len(norm)
            left = "".join(" " if covered[start + k] else ch for k, ch in enumerate(norm))
            if _CONTENT.search(_MARKER.sub("", left.strip())):
                out.append(f"{source['file']}: {norm[:100]!r} (unquoted: {_norm(left)[:80]!r})")
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_normative_line_is_quoted(game: str, rulebooks: Path) -> None:
    """Clause coverage: every normative line of the rulebook is quoted, table rows included
    (skipped, saying why, without the rulebook texts)."""
    missing = unquoted_lines(game, rulebooks)
    assert not missing, "lines no clause quotes:\n" + "\n".join(missing)
