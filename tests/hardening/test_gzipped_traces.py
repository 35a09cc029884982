"""Gzipped traces (``.jsonl.gz``, as the frozen releases keep their golden traces) are read by
``rulespec replay`` too, within the limits of a plain trace, however well they compress."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from rulespec.reference import trace as trace_module
from rulespec.reference.trace import TraceError, read_trace
from rulespec.releases.store import release_dir

GOLDEN = release_dir("dado-de-ouro", "1.2.2") / "traces" / "dado-de-ouro.p4-default.jsonl.gz"


def test_a_gzipped_trace_reads_as_its_text(tmp_path: Path) -> None:
    """DDO-ROUND-01's golden trace, gzipped, reads as the same trace as its text."""
    plain = tmp_path / "t.jsonl"
    plain.write_bytes(gzip.decompress(GOLDEN.read_bytes()))
    assert read_trace(GOLDEN) == read_trace(plain)


def test_a_trace_that_grows_past_the_limit_once_uncompressed_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limit = 10_000  # above the gzipped file (6.8 KB), below its text (over 100 KB)
    monkeypatch.setattr(trace_module, "MAX_TRACE_BYTES", limit)
    assert GOLDEN.stat().st_size < limit < len(gzip.decompress(GOLDEN.read_bytes()))
    with pytest.raises(TraceError, match=f"more than {limit} bytes once uncompressed"):
        read_trace(GOLDEN)


def test_a_broken_gzip_file_says_so(tmp_path: Path) -> None:
    bad = tmp_path / "t.jsonl.gz"
    bad.write_bytes(GOLDEN.read_bytes()[:40])
    with pytest.raises(TraceError, match="not a readable gzip file"):
        read_trace(bad)
    text = tmp_path / "u.jsonl.gz"
    text.write_text("not gzip at all\n", encoding="utf-8")
    with pytest.raises(TraceError, match="not a readable gzip file"):
        read_trace(text)
