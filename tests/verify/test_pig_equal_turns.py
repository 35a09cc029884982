"""A finding of ``rulespec verify`` (2026-12-03): Pig's declared view does not hold under
PIG-AMB-02 ``equal-turns``, and the merge check refuses it rather than proving a wrong figure.

The view (Pig 0.1.2, ``x-verify``) caps the turn total at the target score. Under the default
ruling a player who reaches the target wins at once, so a turn total past it never matters.
Under ``equal-turns`` the last player of the round must beat a leader who may stand at the
target: a turn total of 4 (a tie with the leader's 4) and one of 6 (a win) are then one key, and
do not behave alike. The guard is the merge check one step ahead: the search stops with
``KEY-BEHAVIOUR`` and a trace to each state, and no figure is given. Recorded in
``docs/editors/verification.md`` (findings).
"""

from __future__ import annotations

from pathlib import Path

from rulespec.reference.core import make_config
from rulespec.spec.verify_views import declared_view_terms
from rulespec.verify.run import Bounds, verify
from tests.bridges.support import pig
from tests.verify.support import PIG_COIN


def _search(tmp_path: Path, ruling: str) -> tuple[str, list[str]]:
    spec, engine_type = pig()
    parameters = {**PIG_COIN, "target_score": 4}
    config = make_config(spec, players=2, rulings={"PIG-AMB-02": ruling},
                         parameters=parameters)
    view = declared_view_terms(spec, parameters)
    assert any(term.startswith("cap(turn_total") for term in view)
    result = verify(engine_type(spec, config), Bounds(view=view, cross_check=0),
                    trace_dir=tmp_path)
    return result.status, [v.kind for v in result.violations]


def test_the_declared_view_is_refused_under_equal_turns(tmp_path: Path) -> None:
    """PIG-AMB-02 equal-turns, PIG-END-01: the capped turn total merges a tie with a win; the
    search stops with KEY-BEHAVIOUR and writes both traces."""
    status, kinds = _search(tmp_path, "equal-turns")
    assert status == "violated" and kinds == ["KEY-BEHAVIOUR"]
    assert len(list(tmp_path.glob("*key-behaviour*.jsonl"))) == 2


def test_the_declared_view_is_proven_under_the_default(tmp_path: Path) -> None:
    """PIG-AMB-02's default: the same view, the same configuration, proven."""
    spec, _ = pig()
    default = str(spec.ambiguities["PIG-AMB-02"]["default"]["option"])
    status, kinds = _search(tmp_path, default)
    assert status == "proved" and kinds == []
