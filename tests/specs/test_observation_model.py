"""Issue 43 item 1: each spec's observation model says why each part is hidden or public.

Every ``state.hidden`` and ``state.public`` entry carries a ``quote`` (the words of one of its
clauses that say who sees it, verbatim in that clause's quote) or the ``readings`` that decide
it; a spec written before this rule still loads, with a deprecation warning naming the release
that will refuse it (format rule OBSERVATION_PROVENANCE).
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from rulespec.releases import textdiff
from rulespec.spec import SpecError, formats, get_spec
from rulespec.spec.errors import RemovedIn05Warning
from rulespec.spec.validate import load_spec, spec_from_text
from rulespec.spec.visibility import sight_problems

ROOT = Path(__file__).resolve().parents[2]
FOOL = ROOT / "specs" / "fool.yaml"
DECK = '''    - path: "$.deck"
      visible_to: nobody
      clauses: [FOOL-DEAL-01]
      quote: Baralla as cartas
'''


@pytest.mark.parametrize("path", [*sorted((ROOT / "specs").glob("*.yaml")),
                                  ROOT / "examples" / "pig" / "rulespec_pig" / "pig.yaml"])
def test_every_part_of_each_observation_model_is_quoted_or_read(path: Path) -> None:
    """Each built-in spec (and Pig): no part without a quote or readings, no quote that is not
    verbatim in a clause it cites, no `when` naming a record it does not read."""
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert sight_problems(data) == ([], [])


def test_what_the_specs_hide_and_why() -> None:
    """The quotes that say it: OURO-DRAW-01 (the bag), OURO-EOD-03 (money kept hidden); the
    records that decide the rest: OURO-AMB-37, OURO-AMB-39, FOOL-AMB-21, FOOL-AMB-02."""
    ouro = {h["path"]: h for h in get_spec("ouro-de-tolo").data["state"]["hidden"]}
    assert "without looking at its contents" in ouro["$.bag"]["quote"]
    assert ouro["$.players[*].money"]["quote"] == ("The money received must be kept hidden "
                                                   "from the other players.")
    assert ouro["$.players[*].hand"]["when"] == {"OURO-AMB-39": ["hidden"]}
    assert ouro["$.players[*].stones.fools_gold"]["when"] == {"OURO-AMB-37": ["in-hand"]}
    fool = {h["path"]: h for h in get_spec("fool").data["state"]["hidden"]}
    assert fool["$.hands[*]"]["readings"] == ["FOOL-AMB-21"]
    assert fool["$.aside"]["readings"] == ["FOOL-AMB-02"]


def _fool(old: str, new: str) -> str:
    text = FOOL.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_a_part_without_why_is_a_warning_naming_the_release(tmp_path: Path) -> None:
    """A spec of the last release (no quote, no readings on $.deck) still loads, with one
    RemovedIn05Warning naming OBSERVATION_PROVENANCE, its fix and rulespec 0.5.0."""
    text = _fool(DECK, DECK.replace("      quote: Baralla as cartas\n", ""))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        spec = spec_from_text(text, tmp_path / "fool.yaml")
    given = [str(w.message) for w in caught if issubclass(w.category, RemovedIn05Warning)]
    assert len(given) == 1 and "OBSERVATION_PROVENANCE" in given[0]
    assert "rulespec 0.5.0 will refuse it" in given[0]
    assert [p.path for p in spec.warnings] == ["$.state.hidden[1]"]
    assert "says neither why" in spec.warnings[0].message


def test_the_warning_becomes_an_error_in_the_release_it_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """From rulespec 0.5.0 a part without a quote or readings is refused."""
    monkeypatch.setattr(formats, "current_release", lambda: "0.5.0")
    text = _fool(DECK, DECK.replace("      quote: Baralla as cartas\n", ""))
    with pytest.raises(SpecError, match="says neither why"):
        spec_from_text(text, tmp_path / "fool.yaml")


@pytest.mark.parametrize(("old", "new", "message"), [
    (DECK, DECK.replace("Baralla as cartas", "Baralla as tarxetas"),
     "is not in the quote of any clause it cites (FOOL-DEAL-01)"),
    ("      when: {FOOL-AMB-21: [hidden]}\n", "      when: {FOOL-AMB-02: [lowest-values]}\n",
     "FOOL-AMB-02 is not among its readings"),
    ("      when: {FOOL-AMB-21: [hidden]}\n", "      when: {FOOL-AMB-21: [shut]}\n",
     "FOOL-AMB-21 has no option 'shut'"),
    ("      readings: [FOOL-AMB-21]\n", "      readings: [FOOL-AMB-99]\n",
     "reads 'FOOL-AMB-99', which is not a record"),
    (DECK, DECK.replace('"$.deck"', '"$.decks"'), "the state schema has nothing at step 1"),
])
def test_a_wrong_why_is_an_error(old: str, new: str, message: str, tmp_path: Path) -> None:
    """A quote not in the cited clause's quote, a `when` on a record the entry does not read or
    an option it lacks, a reading of no record, a path the state lacks: each refused, saying
    where and what to do."""
    with pytest.raises(SpecError) as info:
        spec_from_text(_fool(old, new), tmp_path / "fool.yaml")
    assert message in str(info.value)
    assert re.search(r"\$\.state\.hidden\[\d\]", str(info.value))


def test_a_record_read_only_by_an_observation_part_is_read() -> None:
    """RECORD_READ counts a hidden entry's readings: FOOL-AMB-21 is read by $.hands[*]."""
    from rulespec.spec.provenance import readers

    found = readers(get_spec("fool").data)["FOOL-AMB-21"]
    assert [(e.kind, e.ident) for e in found] == [("sight", "$.hands[*]")]


def test_diff_compares_what_is_hidden_under_the_default_rulings() -> None:
    """A hidden entry that now holds under its record's default (FOOL-AMB-21 hidden) hides what
    the old one did: provenance, PATCH; a hand shown under the default is MAJOR."""
    new = get_spec("fool").data
    old = {**new, "state": {**new["state"], "hidden": [
        {"path": "$.hands[*]", "visible_to": "owner", "clauses": ["FOOL-DEAL-01"]},
        *new["state"]["hidden"][1:]]}}
    rules = {c.rule for c in textdiff.state(old, new)}
    assert "STATE_HIDDEN_TEXT_CHANGED" in rules and "STATE_HIDDEN_CHANGED" not in rules
    shown = {**new, "state": {**new["state"], "hidden": [
        {**new["state"]["hidden"][0], "when": {"FOOL-AMB-21": ["open"]}},
        *new["state"]["hidden"][1:]]}}
    assert "STATE_HIDDEN_CHANGED" in {c.rule for c in textdiff.state(old, shown)}


def test_a_spec_file_of_the_last_release_still_validates() -> None:
    """The frozen Fool 1.3.0 (hands hidden citing FOOL-DEAL-01 alone) loads with warnings."""
    frozen = sorted((ROOT / "specs" / "releases" / "fool").glob("1.3.0*"))
    assert frozen, "Fool 1.3.0 is frozen"
    path = next(p for p in (frozen[0].rglob("*.yaml") if frozen[0].is_dir() else [frozen[0]])
                if p.name.startswith("fool"))
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        spec = load_spec(path)
    assert any("OBSERVATION_PROVENANCE" in p.message or "says neither why" in p.message
               for p in spec.warnings)
