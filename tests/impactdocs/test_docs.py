"""The docs render structured impact (IMPACT_FORMAT.md): a record's prose, table and chart; the
register's outcome-change column; the "what matters most" summary per game."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulespec import docsgen
from rulespec.docsgen.impact import TOP_RECORDS, impact_block, outcome_cell, what_matters_most
from rulespec.docsgen.links import Links
from rulespec.impact.record import write_measured
from rulespec.spec.model import Spec
from rulespec.spec.validate import load_spec
from tests.impactdocs.conftest import fixture

EXAMPLE = Path(__file__).parent.parent / "docs" / "example" / "toy-dice.yaml"


@pytest.fixture(scope="module")
def measured_toy(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    """The example spec with TOY-AMB-02 measured and TOY-AMB-01 still free-form."""
    path = tmp_path_factory.mktemp("toy") / EXAMPLE.name
    shutil.copyfile(EXAMPLE, path)
    write_measured(path, "TOY-AMB-02", fixture("toy-dice")["TOY-AMB-02"])
    return load_spec(path)


def page_of(spec: Spec) -> str:
    return next(p.markdown for p in docsgen.game_pages(spec) if p.path.endswith("ambiguities.md"))


def test_record_shows_prose_then_table_then_chart(measured_toy: Spec) -> None:
    """The prose stays above the figures; the table has a row per option × agent with every
    figure's interval; the chart is inlined with ids unique to the record."""
    amb = measured_toy.ambiguities["TOY-AMB-02"]
    block = impact_block(amb, Links(measured_toy))
    prose = block.index("**Impact.** Measured by rulespec impact; see the figures.")
    header = block.index("| Option | Agent | Games | Trigger rate | Outcome change | "
                         "Length change | Margin change | Seat win-rate change |")
    chart = block.index('<div class="rs-impact-chart">\n<svg ')
    assert prose < header < chart
    assert ("| <code>youngest</code> | <code>greedy</code> | 200 | 50% \\[43.1%, 56.9%\\] | "
            "6\\.5% \\[3.84%, 10.8%\\] | \\+0.3 \\[-0.2, +0.8\\] | — | "
            "seat 0: +1 pts \\[-3, +5\\]<br>seat 1: -1 pts \\[-5, +3\\] |") in block
    assert 'aria-labelledby="impact-TOY-AMB-02-title impact-TOY-AMB-02-desc"' in block
    assert "master seed <code>7</code>, batches of 50; brackets are 95% intervals" in block
    assert "<code>greedy</code>: one-ply, maximises the game's declared heuristic." in block
    svg = block[chart:block.index("</svg>", chart)]
    assert "\n\n" not in svg, "a blank line would end the raw HTML block in Markdown"


def test_free_form_measured_renders_as_before(measured_toy: Spec) -> None:
    """TOY-AMB-01's old blob keeps its key/value table; no chart, no figures table."""
    block = impact_block(measured_toy.ambiguities["TOY-AMB-01"], Links(measured_toy))
    assert "**Impact.** Longer games." in block and "| mean turns | 40 |" in block
    assert "rs-impact-chart" not in block and "Outcome change" not in block


def test_game_page_carries_both(measured_toy: Spec) -> None:
    page = page_of(measured_toy)
    assert page.count('<div class="rs-impact-chart">') == 1
    assert "| Measured effect |" in page.splitlines()[page.splitlines().index(
        next(line for line in page.splitlines() if line.startswith("| Id |")))]


def test_register_column_is_keyed_by_the_highest_rate(measured_toy: Spec) -> None:
    """The outcome-change cell shows the highest rate over options and agents with its
    interval, keyed by the number; an unmeasured record's cell is empty."""
    amb = measured_toy.ambiguities["TOY-AMB-02"]
    assert outcome_cell(amb) == ('<span data-key="0.065000">6\\.5% \\[3.84%, 10.8%\\] '
                                 "(<code>youngest</code>, <code>greedy</code>)</span>")
    assert outcome_cell(measured_toy.ambiguities["TOY-AMB-01"]) == ""
    page = docsgen.register_page([measured_toy]).markdown
    header = next(line for line in page.splitlines() if line.startswith("| Id |"))
    cells = [c.strip() for c in header.strip("|").split("|")]
    assert cells[cells.index("Impact") + 1] == "Measured effect"


def test_what_matters_most_ranks_per_game(tmp_path: Path) -> None:
    """Records rank by their highest rate over options and agents, at most ``top`` per game,
    the rest counted; a game without measurements says how to measure it."""
    path = tmp_path / EXAMPLE.name
    shutil.copyfile(EXAMPLE, path)
    for aid, measured in fixture("toy-dice").items():
        write_measured(path, aid, measured)
    spec = load_spec(path)
    both = what_matters_most([spec], top=TOP_RECORDS).split("### ")[1]
    assert re.findall(r"\| \[<code>(TOY-AMB-\d+)</code>\]", both) == ["TOY-AMB-01", "TOY-AMB-02"]
    assert "44\\.5% \\[37.7%, 51.5%\\] | <code>no-extra</code>, <code>greedy</code> | 100%" in both
    summary = what_matters_most([spec, load_spec(EXAMPLE)], top=1)
    first, unmeasured = summary.split("### ")[1:]
    assert re.findall(r"\| \[<code>(TOY-AMB-\d+)</code>\]", first) == ["TOY-AMB-01"]
    assert "1 more measured record in [the game's register](games/toy-dice/ambiguities.md)" in first
    assert "No record of this game has structured impact yet" in unmeasured
    assert "`rulespec impact toy-dice --write`" in unmeasured
