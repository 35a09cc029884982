"""The Node.js Dado de Ouro engine as first committed (tests/compat/engines/README.md), judged by
today's kit as the spec release it declares (``spec_version`` 1.0.0 in ``hello``,
``rulespec-engine/1``)."""

from __future__ import annotations

import shutil

import pytest

from tests.compat.conftest import ENGINES, rulespec


# Integration: a whole kit run on the Node.js engine (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
@pytest.mark.skipif(shutil.which("node") is None,
                    reason="node is not on the PATH (CI has it): the frozen engine is JavaScript")
def test_the_first_node_engine_conforms_as_dado_de_ouro_1_0_0() -> None:
    """Checked as Dado de Ouro 1.0.0 (what its hello declares), it passes every check: the
    rules of that release (DDO-GAME-02 ten rounds, DDO-ROUND-01 the round starter, DDO-TURN-01
    the six-sided die, DDO-TIE-01 to DDO-TIE-05 the tie-breaks, DDO-SCORE-01 zero to start,
    DDO-MATCH-01 and DDO-MATCH-02 the match), records added after 1.0.0 held at their defaults
    (DDO-AMB-13 to DDO-AMB-15), and the golden traces of 1.0.0."""
    proc = rulespec("conform", "--engine", f"node {ENGINES / 'dado_de_ouro-1.0.0.js'}",
                    "--game", "dado-de-ouro", "--examples", "3", "--seed", "1", "-q")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "checked as dado-de-ouro 1.0.0 (as the engine declares)" in proc.stdout, proc.stdout
    assert "CONFORMANT under rulings" in proc.stdout, proc.stdout
