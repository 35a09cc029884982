"""Reports and ruling profiles as rulespec 0.2.0 wrote them (tests/compat/reports/README.md):
today's readers accept them, and today's reports keep every key a consumer of the frozen ones
may read (``rulespec-conformance/1``, ``rulespec-ruling-profile/2``, JUnit XML,
``rulespec-matrix/1``)."""

from __future__ import annotations

import json
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rulespec.docsgen.matrix import (
    load_index,
    load_profiles,
    load_reports,
    matrix_page,
    refusals,
)
from rulespec.docsgen.matrix_failures import causes_of
from rulespec.spec.registry import get_spec
from tests.compat.conftest import FILES, PLANTED, REPORTS, key_paths, rulespec, xml_paths

MATRIX = REPORTS / "matrix"
VIEW: dict[str, list[str]] = json.loads((REPORTS / "consumer-view.json").read_text("utf-8"))


def _read(name: str) -> Any:
    return json.loads((REPORTS / name).read_text(encoding="utf-8"))


def test_the_consumer_view_is_the_frozen_reports_keys() -> None:
    """consumer-view.json lists exactly the key paths of the frozen documents: it was derived
    from them once, and neither changes."""
    for name in ("conform.rotating-starter.json", "profile.rotating-starter.json"):
        assert VIEW[name] == sorted(set(key_paths(_read(name)))), name
    root = ET.parse(REPORTS / "conform.rotating-starter.xml").getroot()
    assert VIEW["conform.rotating-starter.xml"] == sorted(set(xml_paths(root)))


@pytest.fixture(scope="module")
def today(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Today's reports for the frozen ones' engine, game and seed: JSON, JUnit, the profile."""
    out = tmp_path_factory.mktemp("today")
    engine = shlex.join(PLANTED)
    common = ["--engine", engine, "--game", "dado-de-ouro", "--examples", "3", "--seed", "1",
              "-q"]
    for fmt, name in (("json", "conform.json"), ("junit", "conform.xml")):
        proc = rulespec("conform", *common, "-j", "1", "--trace-dir", out / fmt,
                        "--report", out / name, "--format", fmt)
        assert proc.returncode == 1, proc.stdout + proc.stderr  # a planted bug: it fails
    proc = rulespec("conform", "--infer", *common, "--report", out / "profile.json",
                    "--format", "json")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return out


def test_todays_conformance_report_keeps_every_key(today: Path) -> None:
    """``rulespec-conformance/1`` (``conform --format json``): a report made today for the same
    engine, game and seed has every key path the frozen 0.2.0 one has (additions allowed)."""
    doc = json.loads((today / "conform.json").read_text(encoding="utf-8"))
    assert doc["format"] == _read("conform.rotating-starter.json")["format"]
    gone = set(VIEW["conform.rotating-starter.json"]) - set(key_paths(doc))
    assert not gone, f"keys a 0.2.0 consumer reads are gone: {sorted(gone)}"


def test_todays_junit_report_keeps_every_element_and_attribute(today: Path) -> None:
    """JUnit XML (``conform --format junit``): every element and attribute path of the frozen
    0.2.0 report is still written for the same engine, game and seed."""
    root = ET.parse(today / "conform.xml").getroot()
    gone = set(VIEW["conform.rotating-starter.xml"]) - set(xml_paths(root))
    assert not gone, f"JUnit paths a 0.2.0 consumer reads are gone: {sorted(gone)}"


def test_todays_ruling_profile_keeps_every_key(today: Path) -> None:
    """``rulespec-ruling-profile/2`` (``conform --infer --format json``): every key path of the
    frozen profile is still there, and it still finds the planted reading (DDO-AMB-04)."""
    doc = json.loads((today / "profile.json").read_text(encoding="utf-8"))
    assert doc["format"] == "rulespec-ruling-profile/2"
    gone = set(VIEW["profile.rotating-starter.json"]) - set(key_paths(doc))
    assert not gone, f"keys a 0.2.0 consumer reads are gone: {sorted(gone)}"
    assert doc["summary"] == _read("profile.rotating-starter.json")["summary"]


def test_the_frozen_matrix_folder_is_read_and_shown() -> None:
    """``rulespec-matrix/1`` folder (stamped ``rulespec-conformance/1`` reports,
    ``rulespec-ruling-profile/2`` profiles, index.json, failure traces) as ``rulespec matrix``
    wrote it in 0.2.0: the docs' matrix reader loads it, refuses nothing, and shows every row,
    the planted engine's failures and every profile."""
    reports, profiles, index = load_reports(MATRIX), load_profiles(MATRIX), load_index(MATRIX)
    assert len(reports) == 4 and len(profiles) == 3 and index is not None
    spec = get_spec("dado-de-ouro")
    assert refusals(reports, profiles, {"dado-de-ouro": spec}) == []
    page = matrix_page(reports, [spec], profiles, index, MATRIX).markdown
    for shown in ("reference over the protocol (compat corpus)", "as at the first release",
                  "planted bug: rotating-starter"):
        assert shown in page, shown
    planted = next(r for r in reports if "planted" in r["_file"])
    assert causes_of(planted), "the planted engine's causes are read"
    assert "DDO-ROUND-01" in page


def test_matrix_check_reads_the_frozen_folder() -> None:
    """``rulespec matrix --check`` over the frozen folder and its engine list: it reads every
    document; what it may say against them is only that a spec moved on since (freshness),
    never that a document cannot be read or that its checks are not the kit's."""
    proc = rulespec("matrix", "--check", "--no-builtin", "--engines", FILES / "engines.yaml",
                    "--game", "dado-de-ouro", "--out", MATRIX)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    if proc.returncode == 1:
        # Notes (a check the kit gained since, shown as not run) are not problems.
        problems = [x for x in (proc.stdout + proc.stderr).splitlines()
                    if ".json" in x and not x.startswith("rulespec: note:")]
        assert all("was produced at spec" in x for x in problems), proc.stdout + proc.stderr
