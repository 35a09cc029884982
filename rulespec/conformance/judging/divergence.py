"""Where an engine first departs from the reference, as a cause.

A rule example or a golden trace may fail long after the engine went wrong: an extra coin put
in the chest at setup shows as a wrong count in every example about the chest, each with its
own expectation. What those failures share is the first position where the engine's state
differs from the reference's, and the fields that differ there; the kit names it on each, so
that they are grouped as one cause (``rulespec.conformance.judging.causes``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulespec.reference.core import Config, Engine
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.statediff import Change, StateSchema, describe, diff_states


def first_divergence(spec: Spec, reference: Callable[[Spec, Config], Engine], config: Config,
                     actions: Sequence[Mapping[str, Any]], states: Sequence[Any],
                     project: Callable[[Any], Any], schema: StateSchema,
                     refused: frozenset[int] = frozenset()) -> tuple[int, tuple[Change, ...]] | None:
    """Return the first position (actions applied) where the engine's state, ``states[i]``
    (None: not recorded), differs from the reference's after the same ``actions``, and the
    differing fields; None when none differs as far as both go.

    The actions at ``refused`` were refused by the engine; the reference does not apply them.
    """
    try:
        engine = reference(spec, config)
        for i in range(min(len(actions), len(states) - 1) + 1):
            if i and i - 1 not in refused:
                engine.apply(dict(actions[i - 1]))
            mine = states[i]
            if isinstance(mine, dict):
                want = project(engine.state())
                got = project(mine)
                if got != want:
                    changes = tuple(diff_states(got, want, schema))
                    if changes:
                        return i, changes
    except RulespecError:
        return None
    return None


#: How a failure's message says where the engine's state first differed (the text report
#: prints what follows on a line of its own).
DIVERGED = "its state first differs from the reference's "


def divergence_text(at: int, changes: Sequence[Change]) -> str:
    """Say where the engine's state first differs from the reference's."""
    where = "at the start" if at == 0 else f"after {at} actions"
    return f"{DIVERGED}{where}: {describe(changes, limit=3)}"
