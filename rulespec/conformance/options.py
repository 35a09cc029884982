"""How hard the kit looks, and which configurations it plays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.spec.model import Spec


@dataclass(frozen=True)
class Options:
    """How hard the kit looks."""

    #: Hypothesis examples (games) per configuration.
    examples: int = 40
    #: Longest game played, in actions (longer games stop there; their checks still count).
    max_steps: int = 3000
    #: Probe an illegal action every this many steps (0: never).
    probe_every: int = 3
    #: Replay every this-many-th game in a fresh game to check determinism (0: never).
    determinism_every: int = 4
    #: Fixed Hypothesis seed for reproducible runs (None: derandomized per configuration).
    seed: int | None = None
    #: Where minimal failing traces are written (None: not written).
    trace_dir: Path | None = None
    #: Replay the committed golden traces too.
    golden: bool = True
    #: Shrink failures to a minimal game (turn off only to save time).
    shrink: bool = True
    #: Check the schema and every invariant on every state. Otherwise they are checked on
    #: every state that differs from the reference's, on every terminal state, and on one
    #: state in ``sample_every`` (a state equal to the reference's gets the reference's
    #: verdict, which the reference's own tests check at every step).
    full: bool = False
    sample_every: int = 32
    #: Seconds Hypothesis may spend shrinking a failure (the smallest game so far is kept).
    shrink_seconds: float = 15.0
    #: Seconds the PERFT check may spend per configuration before it stops going deeper
    #: (0: no PERFT check), and the most positions of one ply it visits.
    perft_seconds: float = 1.0
    #: Run the spec's rule examples first (check EXAMPLE).
    rule_examples: bool = True
    perft_nodes: int = 400


def supported_configs(spec: Spec, *, players: Sequence[int] | None = None,
                      rulings: Mapping[str, str] | None = None,
                      variants: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Return the configurations to check: one per player count, under the given rulings."""
    counts = list(players) if players else list(range(spec.min_players, spec.max_players + 1))
    return [{"game": spec.game_id, "players": n, "rulings": dict(rulings or {}),
             "variants": list(variants), "parameters": {}} for n in counts]
