"""The order of a spec's structure steps, which is the order of play (``ORDER_CHANGED``).

Steps are identified by their dotted path of ids (``flow.turn.roll``); a step whose id is found
once among the removed and once among the added steps moved to another list.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rulespec.releases.change import Change
from rulespec.releases.change import clauses_of as _clauses

Data = Mapping[str, Any]


def leaf(where: str) -> str:
    return where.rpartition(".")[2]


def moved_steps(before: Mapping[str, Data], after: Mapping[str, Data]) -> dict[str, str]:
    """Return old dotted id -> new dotted id for the steps whose id is found once among the
    steps removed and once among the steps added (a step that moved to another list)."""
    gone = [w for w in before if w not in after]
    came = [w for w in after if w not in before]
    out = {}
    for here in gone:
        name = leaf(here)
        same_gone = [w for w in gone if leaf(w) == name]
        same_came = [w for w in came if leaf(w) == name]
        if len(same_gone) == 1 and len(same_came) == 1:
            out[here] = same_came[0]
    return out


def step_lists(value: Any, prefix: str) -> dict[str, list[str]]:
    """Return dotted id of each list of steps -> the dotted ids of its steps, in order."""
    items = value if isinstance(value, list) else [value] if isinstance(value, Mapping) else []
    out: dict[str, list[str]] = {prefix: []}
    for i, step in enumerate(items):
        if not isinstance(step, Mapping):
            continue
        where = f"{prefix}.{step.get('id', i)}"
        out[prefix].append(where)
        if step.get("steps") is not None:
            out.update(step_lists(step.get("steps"), where))
    return out


def step_order(before: Mapping[str, list[str]], after: Mapping[str, list[str]],
                steps_a: Mapping[str, Data], steps_b: Mapping[str, Data]) -> Iterator[Change]:
    """Yield ORDER_CHANGED for each list of steps whose kept steps come in another order."""
    for parent, listed in after.items():
        was = before.get(parent)
        if was is None:
            continue
        kept_a = [w for w in was if w in listed]
        kept_b = [w for w in listed if w in was]
        if kept_a == kept_b:
            continue
        shifted = [w for w, v in zip(kept_a, kept_b, strict=True) if w != v]
        yield Change.of("ORDER_CHANGED", f"structure.{parent}",
                        f"{parent}: the steps {', '.join(leaf(w) for w in shifted)} are in "
                        "another order; steps are played in the order listed",
                        _clauses(*(steps_a[w] for w in shifted), *(steps_b[w] for w in shifted)),
                        old=" -> ".join(leaf(w) for w in was),
                        new=" -> ".join(leaf(w) for w in listed))


def flat_steps(value: Any, prefix: str) -> Iterator[tuple[str, Data]]:
    """Yield (dotted id, step without its sub-steps) for every step, depth first."""
    items = value if isinstance(value, list) else [value] if isinstance(value, Mapping) else []
    for i, step in enumerate(items):
        if not isinstance(step, Mapping):
            continue
        where = f"{prefix}.{step.get('id', i)}"
        yield where, {k: v for k, v in step.items() if k != "steps"}
        yield from flat_steps(step.get("steps"), where)
