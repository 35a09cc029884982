"""What makes the built site lighter without changing what a reader sees (issue 45, item 2)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rulespec.docsgen.parts import defer_folded
from rulespec.docsgen.traces import TraceFile, js_string, trace_script
from rulespec.docsgen.weight import site_weight, squeeze_html, unused_search_languages


def test_indentation_goes_but_preformatted_text_and_code_stay() -> None:
    page = ("<div>\n    <p>one\n        two</p>\n\n\n  <pre><code>a\n    b</code></pre>\n"
            "  <p><code>x\n   y</code></p>\n  <script>\n  let s = 1;\n</script>\n</div>\n")
    assert squeeze_html(page) == ("<div>\n<p>one\ntwo</p>\n<pre><code>a\n    b</code></pre>\n"
                                  "<p><code>x\n   y</code></p>\n<script>\n  let s = 1;\n</script>\n"
                                  "</div>\n")


def test_search_languages_go_only_from_an_english_only_search(tmp_path: Path) -> None:
    folder = tmp_path / "assets" / "javascripts" / "lunr"
    folder.mkdir(parents=True)
    assert unused_search_languages(tmp_path, ["en"]) == folder
    assert unused_search_languages(tmp_path, ["en", "pt"]) is None


@pytest.mark.skipif(not Path("/usr/bin/node").exists(), reason="node is not installed")
def test_a_trace_script_hands_the_viewer_the_trace_unchanged() -> None:
    """Single-quoted, the trace's double quotes need no backslash; the text is the same."""
    text = '{"a": "b\\"c", "d": \'e\'}\n{"f": "\\\\ \u2028"}\n'
    literal = js_string(text)
    assert '\\"' not in literal.replace('\\\\"', "")
    out = subprocess.run(["node", "-e", f"process.stdout.write(JSON.stringify({literal}))"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == text


def test_the_weight_of_a_small_site(tmp_path: Path) -> None:
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "search_index.json").write_text('{"docs": []}')
    (tmp_path / "style.css").write_text("p { color: red }\n" * 100)
    (tmp_path / "index.html").write_text('<link rel="stylesheet" href="style.css"><p>hi</p>')
    weight = site_weight(tmp_path)
    assert weight.pages == {"index.html": 49}
    assert weight.site == 49 + 1700 + 12
    assert 49 < weight.first_visits["index.html"] < 49 + 1700, "gzipped, with the style sheet"
    assert weight.over() == {"first_visit": [], "page": [], "site": []}


@pytest.mark.skipif(not Path("/usr/bin/node").exists(), reason="node is not installed")
def test_a_packed_trace_script_unpacks_to_the_trace(tmp_path: Path) -> None:
    """The site's trace scripts carry the trace gzipped in base64; the viewer's unpack (run here
    in Node, which has DecompressionStream as browsers do) gives the text back, and a script
    of the old form (the text itself) still reads."""
    text = '{"config": {}, "game": "fool", "é": "\u2028"}\n' + '{"n": 1, "type": "step"}\n' * 200
    trace = TraceFile("fool.p4-x", "fool", None, text=text)
    packed = trace_script(trace)
    assert "gzip" in packed and len(packed) < len(text) / 4, "the trace is not packed"
    viewer = (Path(__file__).parents[2] / "docs/javascripts/trace-viewer.js").read_text("utf-8")
    unpack = viewer[viewer.index("  function unpack("):viewer.index("\n  }\n", viewer.index(
        "  function unpack(")) + 4]
    for script in (packed, trace_script(trace, packed=False)):
        runner = tmp_path / "run.js"
        runner.write_text("const window = {};\n" + unpack + "\nwindow.rulespecTraceLoaded = "
                          "(name, data) => unpack(data, name).then((t) => process.stdout.write("
                          "JSON.stringify([name, t])));\n" + script, encoding="utf-8")
        out = subprocess.run(["node", str(runner)], capture_output=True, text=True, check=True)
        assert json.loads(out.stdout) == ["fool.p4-x", text]


def test_a_heavy_page_moves_its_largest_folded_bodies_out_until_it_is_light(tmp_path: Path) -> None:
    """Folded bodies leave, largest first, until the page is under the target; one with an id
    (a link may point into it) or another fold inside stays, and so does a small one."""
    big, bigger = "<p>" + "x" * 3000 + "</p>", "<p>" + "y" * 5000 + "</p>"
    with_id = '<p id="here">' + "z" * 5000 + "</p>"
    page = ("<html><head><title>Rules &amp; more</title></head><body>"
            f"<details><summary>Small</summary><p>s</p></details>"
            f"<details class='example'><summary>Big <code>one</code></summary>{big}</details>"
            f"<details><summary>Bigger</summary>{bigger}</details>"
            f"<details><summary>Anchored</summary>{with_id}</details>"
            f"<details open><summary>Open</summary>{bigger}</details></body></html>")
    assert defer_folded(page, target=len(page) + 1) == (page, [])
    out, moved = defer_folded(page, target=len(page) - 4000)
    assert [p.path for p in moved] == ["parts/1.html"], "only the largest had to go"
    assert "y" * 5000 not in out.split("<details open>")[0] and big in out and with_id in out
    assert '<div class="rs-part" data-part="parts/1.html"><p><a href="parts/1.html">' in out
    assert bigger in moved[0].text and '<base href="../">' in moved[0].text
    assert "<title>Rules &amp; more: Bigger</title>" in moved[0].text
    out, moved = defer_folded(page, target=100)
    assert len(moved) == 2 and big not in out and with_id in out and "<p>s</p>" in out


def test_a_records_fold_moves_with_its_ids_and_the_folds_inside_it() -> None:
    """An ambiguity record's fold (register.RECORD_FOLD) moves whole, the folds inside it
    with it, and its placeholder lists the ids it took, so the page can open it when the
    address names one (OURO-EX-VALUES-COMPONENTS, a witness, is inside OURO-AMB-01's fold). A
    plain fold with a fold inside stays; the inner one may move on its own."""
    from rulespec.docsgen.register import RECORD_FOLD

    inner = "<details><summary>Every figure</summary><p>" + "f" * 3000 + "</p></details>"
    record = (f'<details class="{RECORD_FOLD}"><summary>The whole record</summary>'
              f'<p><span id="OURO-EX-VALUES-COMPONENTS"></span>{"w" * 2000}</p>{inner}</details>')
    plain = f"<details><summary>Plain</summary><p>{'p' * 2000}</p>{inner}</details>"
    page = f"<html><head><title>Register</title></head><body>{record}{plain}</body></html>"
    out, moved = defer_folded(page, target=len(page) - 1000)
    assert len(moved) == 1 and "w" * 2000 in moved[0].text and "f" * 3000 in moved[0].text
    assert 'data-ids="OURO-EX-VALUES-COMPONENTS"' in out and "w" * 2000 not in out
    assert out.count("<details") == 3, "the record's own, the plain fold and its inner fold"
    out, moved = defer_folded(page, target=100)
    assert len(moved) == 2 and "p" * 2000 in out, "the plain fold stays, its inner fold goes"
    assert out.count("f" * 3000) == 0
