"""Frozen releases ship in the wheel and are read offline, without git or the repository."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from tests.packaging.conftest import ROOT, ChildEnv

RELEASES = ROOT / "specs" / "releases"


def test_every_frozen_file_is_in_the_wheel(wheel: Path) -> None:
    """Each release's spec, examples, gzipped traces and perft tables are package data."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    wanted = {f"rulespec/data/specs/releases/{p.relative_to(RELEASES).as_posix()}"
              for p in RELEASES.rglob("*") if p.is_file()}
    assert any(n.endswith(".jsonl.gz") for n in wanted)
    assert "rulespec/data/specs/releases/ouro-de-tolo/1.0.0/ouro-de-tolo.yaml" in wanted
    assert not wanted - names, f"missing from the wheel: {sorted(wanted - names)}"


# Integration: an installed wheel in a fresh environment (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
def test_an_installed_rulespec_diffs_releases_offline(child: ChildEnv, tmp_path: Path) -> None:
    """From a folder that is no git checkout, the installed command compares two releases
    (replaying 1.0.0's golden traces from the wheel) and checks a game against its previous
    release; a plugin game reads its own frozen release from its own wheel."""
    proc = child.run(child.bin("rulespec"), "diff", "--check", "--format", "json", "-q",
                     "ouro-de-tolo@1.0.0", "ouro-de-tolo@2.0.0", cwd=tmp_path)
    report = json.loads(proc.stdout)
    assert (report["level"], report["ok"]) == ("major", True)
    assert report["replayed"].startswith("9 golden trace(s)")
    assert report["old"]["label"] == "ouro-de-tolo@1.0.0"
    proc = child.run(child.bin("rulespec"), "diff", "--check", "-q", "fool", cwd=tmp_path)
    assert re.search(r"^fool (\S+) -> \1: no change \(ok\)$", proc.stdout, re.M), proc.stdout
    proc = child.run(child.bin("rulespec"), "diff", "--check", "-q", "pig", cwd=tmp_path)
    assert re.search(r"^pig (\S+) -> \1: no change \(ok\)$", proc.stdout, re.M), proc.stdout
    assert re.search(r"replayed from pig@\S+: 6 golden trace\(s\)", proc.stdout), proc.stdout
    listed = child.run(child.bin("rulespec"), "releases", "pig", cwd=tmp_path)
    assert listed.stdout.startswith("0.1.0 "), listed.stdout
