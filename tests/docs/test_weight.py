"""What makes the built site lighter without changing what a reader sees (issue 45, item 2)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rulespec.docsgen.traces import js_string
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
