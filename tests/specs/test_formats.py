"""Issue 40: spec format versions. A validator rule newer than a spec's declared format is a
warning naming its fix and the release that will refuse it, until that release; `rulespec
upgrade` rewrites an older spec to the current format, marking what a person must decide.

The old spec is the frozen plugin of ``tests/compat`` that ``rulespec new-game`` wrote before
the provenance rules (records' ``effect`` and ``readings``) arrived.
"""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path

import pytest

from rulespec.cli import main
from rulespec.spec import formats
from rulespec.spec.errors import RemovedIn04Warning, SpecError
from rulespec.spec.validate import load_spec, spec_from_text

ROOT = Path(__file__).resolve().parents[2]
OLD = (ROOT / "tests" / "compat" / "plugins" / "rulespec-tally-old" / "rulespec_tally_old"
       / "tally-old.yaml")


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


@pytest.fixture
def old_spec(tmp_path: Path) -> Path:
    """A writable copy of the pre-provenance plugin's spec."""
    copy = tmp_path / "tally-old.yaml"
    shutil.copyfile(OLD, copy)
    return copy


def test_an_older_format_spec_loads_with_one_deprecation_per_rule(old_spec: Path) -> None:
    """A rulespec/1 spec whose record has no effect and no reader (TALLYOLD-AMB-01) loads; the
    two rules of rulespec/2 are warnings, each naming its fix, its rule and rulespec 0.4.0."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = load_spec(old_spec)
    given = [w for w in caught if issubclass(w.category, RemovedIn04Warning)]
    rules = sorted(re.findall(r"place\(s\) break (\w+)", " ".join(str(w.message) for w in given)))
    assert rules == ["RECORD_EFFECT", "RECORD_READ"]
    assert all("rulespec 0.4.0 will refuse it" in str(w.message) for w in given)
    assert all("rulespec upgrade" in str(w.message) for w in given)
    assert [p.path for p in spec.warnings] == ["$.ambiguities[0]", "$.ambiguities[0].id"]


def test_the_same_rules_are_errors_for_the_current_format(old_spec: Path) -> None:
    """Declaring rulespec/2 without an effect or a reader for TALLYOLD-AMB-01 is refused."""
    text = old_spec.read_text(encoding="utf-8").replace("format: rulespec/1", "format: rulespec/2")
    with pytest.raises(SpecError) as info:
        spec_from_text(text, old_spec)
    assert {p.path for p in info.value.problems} == {"$.ambiguities[0]", "$.ambiguities[0].id"}


def test_the_warnings_become_errors_in_the_release_they_name(
        old_spec: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once rulespec is at 0.4.0, the release each warning names, the older spec is refused."""
    monkeypatch.setattr(formats, "current_release", lambda: "0.4.0")
    with pytest.raises(SpecError) as info:
        load_spec(old_spec)
    assert len(info.value.problems) == 2


def test_every_format_rule_names_one_release_and_the_changelog_deprecates_it() -> None:
    """Each rule's warning class refuses in the release the rule says, after the one that
    introduced it, and CHANGELOG.md has a Deprecated entry naming the rule."""
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    deprecated = "\n".join(re.findall(r"### Deprecated\n(.*?)(?=\n### |\n## |\Z)", changelog,
                                      flags=re.S))
    for rule in formats.RULES.values():
        assert rule.warning.removed_in == rule.refused_from
        assert formats._release(rule.introduced) < formats._release(rule.refused_from)
        # A rule of a format still to come (OBSERVATION_PROVENANCE) warns every spec today.
        assert rule.format in (*formats.FORMATS, formats.NEXT_FORMAT)
        assert rule.name in deprecated, f"no Deprecated entry names {rule.name}"


def test_the_built_in_specs_break_no_format_rule() -> None:
    """The built-in specs declare rulespec/1 and still meet every rule of rulespec/2."""
    for path in sorted((ROOT / "specs").glob("*.yaml")):
        assert load_spec(path).warnings == (), path


def test_validate_lists_each_place_as_a_warning_and_passes(
        capsys: pytest.CaptureFixture[str], old_spec: Path) -> None:
    """`rulespec validate` on the older spec: each place with its line, as a warning; the only
    problem is the reference, not imported because the game is not installed (untrusted)."""
    code, out, _ = _run(capsys, "validate", str(old_spec))
    assert code == 1 and "1 problem(s), 2 warning(s)" in out
    assert re.search(r"warning: .*tally-old.yaml:\d+:\d+: \$\.ambiguities\[0\]: TALLYOLD-AMB-01 "
                     "says nothing of its effect", out)


def test_upgrade_rewrites_to_the_current_format_marking_what_to_confirm(
        capsys: pytest.CaptureFixture[str], old_spec: Path) -> None:
    """`rulespec upgrade`: the record gets `effect: outcome` and readers that cite its clauses,
    each marked TODO; the format becomes rulespec/2; the result validates without warnings;
    comments survive; a second run has nothing to do."""
    before = old_spec.read_text(encoding="utf-8")
    code, out, _ = _run(capsys, "upgrade", str(old_spec))
    assert code == 0, out
    after = old_spec.read_text(encoding="utf-8")
    assert "format: rulespec/2" in after and after.count("TODO(rulespec upgrade)") == 3
    comments = [line for line in before.splitlines() if line.lstrip().startswith("#")]
    assert all(line in after.splitlines() for line in comments)
    spec = load_spec(old_spec)
    assert spec.warnings == ()
    assert spec.data["ambiguities"][0]["effect"] == "outcome"
    assert _run(capsys, "upgrade", str(old_spec))[1].endswith("nothing to do\n")


def test_upgrade_dry_run_writes_nothing(capsys: pytest.CaptureFixture[str],
                                        old_spec: Path) -> None:
    """--dry-run prints the diff and leaves the file as it was."""
    before = old_spec.read_bytes()
    code, out, _ = _run(capsys, "upgrade", "--dry-run", str(old_spec))
    assert code == 0 and "+format: rulespec/2" in out
    assert old_spec.read_bytes() == before


def test_upgrade_keeps_the_format_when_a_person_must_choose_the_readers(
        capsys: pytest.CaptureFixture[str], old_spec: Path) -> None:
    """A record citing a clause no element cites: the effect is added, the format stays, the
    spec still validates (with the one warning left), and the report says what to do; exit 1."""
    text = old_spec.read_text(encoding="utf-8")
    record = text.index("  - id: TALLYOLD-AMB-01")
    clauses = re.compile(r"    clauses: \[[^\]]*\]")
    found = clauses.search(text, record)
    assert found is not None
    old_spec.write_text(text[:found.start()] + "    clauses: [TALLYOLD-PLAYERS-01]"
                        + text[found.end():], encoding="utf-8")
    code, out, _ = _run(capsys, "upgrade", str(old_spec))
    assert code == 1 and "to do: TALLYOLD-AMB-01: no element cites its clauses" in out
    spec = load_spec(old_spec)
    assert spec.data["format"] == "rulespec/1"
    assert [p.path for p in spec.warnings] == ["$.ambiguities[0].id"]


def test_upgrade_refuses_an_unreadable_spec_and_writes_nothing(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A spec that is not YAML: exit 2, a sentence, the file unchanged."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: [unclosed\n", encoding="utf-8")
    code, _, err = _run(capsys, "upgrade", str(bad))
    assert code == 2 and "bad.yaml" in err
    assert bad.read_text(encoding="utf-8") == "format: [unclosed\n"
