"""``forest_svg`` charts a figure of structured impact per option × agent (IMPACT_FORMAT.md):
deterministic bytes, accessible title and description, points and intervals where they belong."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from rulespec.impact.chart import ChartError, forest_svg
from tests.impactdocs.conftest import fixture

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def markers(root: ET.Element) -> list[float]:
    """Return the x centre of each row's point marker, in row order (legend excluded)."""
    out = []
    for row in root.iter(f"{SVG}g"):
        if row.get("class") != "rs-row":
            continue
        for element in row:
            if element.tag == f"{SVG}circle":
                out.append(float(element.get("cx", "nan")))
            elif element.tag == f"{SVG}rect":
                out.append(float(element.get("x", "nan")) + 4)
    return out


def test_same_measurement_same_bytes() -> None:
    """Byte-identical output for the same input, in another process and with keys reordered."""
    measured = fixture("ouro-de-tolo")["OURO-AMB-03"]
    svg = forest_svg(measured)
    reordered = json.loads(json.dumps(measured, sort_keys=True))
    reordered = {k: reordered[k] for k in reversed(list(reordered))}
    assert forest_svg(reordered) == svg
    code = ("import json, sys; from rulespec.impact.chart import forest_svg; "
            "sys.stdout.write(forest_svg(json.load(sys.stdin)))")
    other = subprocess.run([sys.executable, "-c", code], input=json.dumps(measured),
                           capture_output=True, text=True, check=True)
    assert other.stdout == svg


def test_chart_is_accessible_and_complete() -> None:
    """A title and a description (naming every option × agent with its interval) label the
    image; each result has a label, an interval and a point; there is a dashed zero line."""
    measured = fixture("ouro-de-tolo")["OURO-AMB-03"]
    root = parse(forest_svg(measured, ident="amb3"))
    assert root.get("role") == "img" and root.get("aria-labelledby") == "amb3-title amb3-desc"
    title = root.find(f"{SVG}title")
    desc = root.find(f"{SVG}desc")
    assert title is not None and title.get("id") == "amb3-title"
    assert title.text == "Outcome-change rate, 95% interval, against taker"
    assert desc is not None and desc.get("id") == "amb3-desc" and desc.text
    for result in measured["results"]:
        assert f"{result['option']} with agent {result['agent']}:" in desc.text
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "owner (greedy)" in texts and "21.2% [17.6%, 25.5%]" in texts
    assert len(markers(root)) == len(measured["results"])
    dashed = [line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray")]
    assert len(dashed) == 1, "one zero line"


def test_points_sit_at_their_values() -> None:
    """Markers are ordered as their values and the zero line sits at zero's x."""
    measured = fixture("ouro-de-tolo")["OURO-AMB-03"]
    for figure in ("outcome_change_rate", "margin_change", "length_change"):
        root = parse(forest_svg(measured, figure=figure))
        xs = markers(root)
        values = [r[figure]["value"] for r in measured["results"]]
        assert sorted(range(len(xs)), key=lambda i: (xs[i], i)) == \
            sorted(range(len(values)), key=lambda i: (values[i], i)), figure
        zero = next(line for line in root.iter(f"{SVG}line") if line.get("stroke-dasharray"))
        at_zero = [x for x, v in zip(xs, values, strict=True) if v == 0]
        for x in at_zero:
            assert abs(x - float(zero.get("x1", "nan"))) < 0.01, figure


def test_unmeasured_figures_say_so() -> None:
    """A null figure (no margin in a game without scores) is a row reading 'not measured'."""
    measured = fixture("toy-dice")["TOY-AMB-01"]
    root = parse(forest_svg(measured, figure="margin_change"))
    assert [t.text for t in root.iter(f"{SVG}text")].count("not measured") == 2
    assert markers(root) == []


def test_unknown_figure_is_refused() -> None:
    with pytest.raises(ChartError, match="no figure 'winner' to chart; choose one of"):
        forest_svg(fixture("toy-dice")["TOY-AMB-01"], figure="winner")


def test_text_is_escaped() -> None:
    """Option and agent ids are text, never markup."""
    measured: dict[str, Any] = copy.deepcopy(fixture("toy-dice")["TOY-AMB-02"])
    measured["results"][0]["option"] = "<b>&"
    root = parse(forest_svg(measured))
    assert "<b>& (random)" in [t.text for t in root.iter(f"{SVG}text")]
