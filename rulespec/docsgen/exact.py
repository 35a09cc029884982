"""Exact figures on a record's page, first: what ``rulespec verify`` proved an option changes.

Where ``rulespec verify`` explored every state of a configuration under an option of a record
(status ``proved``), the change that option makes in each seat's win probability against the
configuration's baseline is an exact fraction, under uniform random players. A record's page
shows those figures before the sampled ones, with the impact lab's paired interval for the same
configuration beside them (seat 0, the figure the lab compares) and a link to the verification
page that says how both were made.

The figures are read from the checkout the docs are built from: ``benchmarks/results/verify.json``
(``rulespec verify --published --format json``) and ``benchmarks/results/verify-lab.json``
(``benchmarks/verify_lab.py``). A build without them (rulespec installed from a wheel, a
plugin's own site) shows no exact block; neither file can run code (JSON, read as data).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulespec.docsgen.markdown import code, table, text

#: The checkout the docs are built from (``rulespec/docsgen/exact.py`` is two floors below it).
CHECKOUT = Path(__file__).resolve().parents[2]
RESULTS = CHECKOUT / "benchmarks" / "results" / "verify.json"
LAB = CHECKOUT / "benchmarks" / "results" / "verify-lab.json"
#: Where the method is said, relative to a game's ambiguities page (``games/<id>/``).
METHOD = "../../editors/verification.md#beside-the-impact-lab"


@dataclass(frozen=True)
class ExactRow:
    """One option of a record, proved on one configuration."""

    option: str
    players: int
    parameters: Mapping[str, Any]
    states: int
    #: Each seat's change in win probability: a fraction's text (``-15671/858000``), or where
    #: the search solved it in floating point (too many states for fractions), the float's.
    changes: tuple[str, ...]
    #: The lab's paired interval of seat 0's change on the same configuration, if measured.
    lab: Mapping[str, float] | None


def _load(path: Path) -> list[Mapping[str, Any]]:
    """Return the file's documents, parsed once per file version (every record page asks)."""
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return []
    return _parsed(str(path), stamp)


@functools.lru_cache(maxsize=4)
def _parsed(path: str, stamp: int) -> list[Mapping[str, Any]]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [d for d in data if isinstance(d, Mapping)] if isinstance(data, list) else []


def exact_rows(game: str, record: str, *, results: Sequence[Mapping[str, Any]] | None = None,
               lab: Sequence[Mapping[str, Any]] | None = None) -> list[ExactRow]:
    """Return every proved option of ``record`` in the published verify results of ``game``."""
    results = _load(RESULTS) if results is None else results
    labs = _load(LAB) if lab is None else lab
    lab_by = {(str(d.get("command")), str(o.get("option"))): o.get("lab")
              for d in labs for o in d.get("options") or [] if isinstance(o, Mapping)}
    rows: list[ExactRow] = []
    for document in results:
        config = (document.get("baseline") or {}).get("config") or {}
        if config.get("game") != game:
            continue
        for option in document.get("options") or []:
            found = option.get("verification") or {}
            changes = option.get("win_changes")
            if option.get("ambiguity") != record or found.get("status") != "proved" or not changes:
                continue
            named = f"{record}={option.get('option')}"
            rows.append(ExactRow(
                option=str(option.get("option")), players=int(config.get("players", 0)),
                parameters=dict(config.get("parameters") or {}), states=int(found.get("states", 0)),
                changes=tuple(str(c["exact"]) if c.get("exact") is not None
                              else f"{float(c.get('value', 0.0)):.9f}" for c in changes),
                lab=lab_by.get((str(document.get("command")), named))))
    return rows


def _points(change: str) -> str:
    value = float(Fraction(change)) * 100
    return "0" if value == 0 else f"{value:+.2f}"


def exact_block(game: str, record: str, **sources: Sequence[Mapping[str, Any]]) -> str:
    """Return the record's exact figures as Markdown (empty if verify proved none)."""
    rows = exact_rows(game, record, **sources)
    if not rows:
        return ""
    cells = []
    for row in rows:
        seats = "<br>".join(
            f"seat {seat}: {'≈ ' if '.' in change else ''}{code(change)} ({_points(change)} pts)"
            for seat, change in enumerate(row.changes))
        lab = ("—" if row.lab is None else
               text(f"{row.lab['value'] * 100:+.1f} pts [{row.lab['low'] * 100:+.1f}, "
                    f"{row.lab['high'] * 100:+.1f}]"))
        setting = ", ".join(f"{k}={json.dumps(v, separators=(',', ':'))}"
                            for k, v in sorted(row.parameters.items()))
        cells.append([code(row.option), text(f"{row.players} players") + "<br>" + code(setting),
                      f"{row.states:,}", seats, lab])
    return ("**Exact, where the search reaches.** `rulespec verify` explored every state of the "
            "small configuration below under each option and proved its invariants, so the change "
            "in each seat's win probability against the record's default is exact (uniform random "
            "players; a figure marked ≈ was solved in floating point, the fractions being too large). The impact lab's paired games on the same configuration are beside it "
            f"(seat 0, 95%). The sampled figures further down are on the printed game, out of the "
            f"search's reach. [How both are made]({METHOD}).\n\n"
            + '<div class="rs-impact" data-search-exclude markdown>\n\n'
            + table(["Option", "Configuration", "States", "Exact change, each seat",
                     "Lab, seat 0"], cells)
            + "\n</div>\n\n")
