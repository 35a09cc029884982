"""Issue 42 item 2: the views `rulespec verify` uses are declared in the spec (``x-verify``).

Each spec declares, beside a field of its state schema, what the verifier keeps of it; the
validator checks the terms and ``declared_view_terms`` returns them in ``--view`` syntax. The
declared views are the published ones (``rulespec/verify/published.yaml``), so a published
configuration needs no ``--view``; the verifier's own parser reads every declared term.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespec.spec import SpecError, get_spec, load_spec
from rulespec.spec.validate import spec_from_text
from rulespec.spec.verify_views import ViewDeclarationError, check_views, declared_view_terms
from rulespec.verify.keys import View

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig" / "rulespec_pig" / "pig.yaml"
PUBLISHED = ROOT / "rulespec" / "verify" / "published.yaml"


def _published_view(name: str) -> set[str]:
    views = yaml.safe_load(PUBLISHED.read_text(encoding="utf-8"))["views"]
    return set(views[name].get("forget", [])) | set(views[name]["view"])


def _defaults(data: Any) -> dict[str, Any]:
    return {p["id"]: p.get("default") for p in data.get("parameters", []) if "default" in p}


@pytest.mark.parametrize(("spec_path", "view", "clauses"), [
    # The invariants the kept summaries serve (each view's published note names them).
    (PIG, "pig-on-hold", ["PIG-INV-AT-ONCE", "PIG-INV-GAME-END", "PIG-INV-ADD"]),
    (ROOT / "specs" / "ruby-rhino.yaml", "rr-summary",
     ["RR-INV-ROUND-COUNT", "RR-INV-ROUND-WINNER"]),
    (ROOT / "specs" / "dado-de-ouro.yaml", "ddo-summary",
     ["DDO-INV-OPENING-WINNER", "DDO-INV-MIN-TIEBREAK"]),
])
def test_each_dice_game_declares_its_published_view(spec_path: Path, view: str,
                                                     clauses: list[str]) -> None:
    """The terms a spec declares are the published view's, and the verifier reads them."""
    spec = load_spec(spec_path)
    params = _defaults(spec.data)
    terms = declared_view_terms(spec, params)
    assert set(terms) == _published_view(view)
    assert len(terms) == len(set(terms))
    invariants = {i["id"] for i in spec.data["invariants"]}
    assert set(clauses) <= invariants
    built = View(terms)
    built.bind(params, {"players": 2})
    assert built and set(built.terms) == set(terms)


@pytest.mark.parametrize("game", ["fool", "ouro-de-tolo"])
def test_games_whose_state_is_finite_declare_no_view(game: str) -> None:
    """Fool and Ouro de Tolo's published configurations need no view: none is declared."""
    spec = get_spec(game)
    assert declared_view_terms(spec, _defaults(spec.data)) == ()


def test_a_cap_ceiling_is_read_from_the_configuration() -> None:
    """cap(params.target_score) needs a whole number there (PIG-SETUP target); the ceiling is
    returned as written for the verifier to bind."""
    spec = load_spec(PIG)
    assert "cap(scores, params.target_score)" in declared_view_terms(spec, {"target_score": 7})
    with pytest.raises(ViewDeclarationError, match="target_score is absent"):
        declared_view_terms(spec, {})
    with pytest.raises(ViewDeclarationError, match="target_score is 'x', not a whole number"):
        declared_view_terms(spec, {"target_score": "x"})


def _pig_with(old: str, new: str) -> str:
    text = PIG.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("x-verify: [relative]", "x-verify: [relativ]", "'relativ' of turns cannot be read"),
    ("x-verify: [relative]", "x-verify: [cap(params.nope)]", "the game has no parameter 'nope'"),
    ("x-verify: [relative]", "x-verify: [relative, forget]",
     "gives turns two terms (relative and forget)"),
    ("x-verify: [relative]", "x-verify: [keep(size(state.turns) +)]",
     "x-verify term keep(size(state.turns) +) of turns"),
    ("x-verify: [relative]", "x-verify: [keep(size(state.scores))]",
     "stands beside turns but does not read it"),
    ("x-verify: [relative]", "x-verify: [keep(size(state.turns) == nosuch)]",
     "x-verify term keep(size(state.turns) == nosuch)"),
    ("x-verify: [relative]", "x-verify: [1]", "must be a term or a list of terms"),
    ("x-verify: [relative]", "x-verify: [keep()]", "write the expression to keep"),
    ("        items: {type: integer, minimum: 0}\n        # The turns",
     "        items: {type: integer, minimum: 0, x-verify: [forget]}\n        # The turns",
     "x-verify sits where a view cannot name the field"),
])
def test_the_validator_refuses_a_view_it_cannot_read(old: str, new: str, message: str,
                                                     tmp_path: Path) -> None:
    """Each malformed x-verify annotation is refused, saying where and what to write."""
    with pytest.raises(SpecError) as info:
        spec_from_text(_pig_with(old, new), tmp_path / "pig.yaml")
    text = str(info.value)
    assert message in text
    assert "state.schema" in text


def test_check_views_finds_nothing_in_a_spec_without_annotations() -> None:
    """A spec that declares no view has nothing to check and no terms."""
    data = {"state": {"schema": {"type": "object", "properties": {"a": {"type": "integer"}}}}}
    assert check_views(data) == []
    assert declared_view_terms(data, {}) == ()
