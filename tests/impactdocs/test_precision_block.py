"""A record measured by the sequential sweep says on its page how precisely each setting and
agent was measured and what stopped it (issue 44's Done-when: "or its page says which budget
stopped it and at what precision"). Cites RR-AMB-01 (deferred: RR-ROLL-04)."""

from __future__ import annotations

import time

from rulespec.docsgen.sweepdocs import precision_block, sweep_block
from rulespec.executors import executor_for
from rulespec.impact.sequential import sequential_sweep
from rulespec.impact.sweep import Probed, Setting, finish
from rulespec.spec.registry import get_spec


def _sweep(deadline: float, max_looks: int) -> dict[str, object]:
    spec = get_spec("ruby-rhino")
    two = Setting(2)
    where: dict[str, list[Setting]] = {a: [] for a in spec.ambiguities}
    where["RR-AMB-01"] = [two]
    reached = {two: {a: (50 if where[a] else 0) for a in spec.ambiguities}}
    probed = Probed(spec, [two], [], reached, ["random"], where, 50)
    with executor_for(1, None) as executor:
        data = sequential_sweep(probed, seed=3, batch_size=5, executor=executor,
                                deadline=deadline, max_looks=max_looks)
    finish({"ruby-rhino": data})
    return data


def test_a_sequential_record_shows_its_precision_and_why_it_stopped() -> None:
    data = _sweep(time.monotonic() + 600, 2)
    record = data["records"]["RR-AMB-01"]  # type: ignore[index]
    (stop,) = record["precision"]
    block = sweep_block("RR-AMB-01", record, data)
    assert "**Precision.**" in block
    assert f"±{100 * stop['half_width']:.1f} pts" in block and "±2 pts" in block
    assert stop["stopped"] in {"precision", "looks"}
    assert ("reached its target" if stop["stopped"] == "precision"
            else "stopped after its last look") in block


def test_the_time_budget_is_named_when_it_stopped_the_measurement() -> None:
    data = _sweep(time.monotonic() - 1, 25)
    record = data["records"]["RR-AMB-01"]  # type: ignore[index]
    assert "stopped by the sweep's time budget" in precision_block(record)


def test_a_fixed_size_sweep_has_no_precision_block() -> None:
    assert precision_block({"measurements": []}) == ""
    assert precision_block({"precision": []}) == ""
