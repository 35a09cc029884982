"""What each player sees of a reference engine's state (issue 43, the observation model).

A player's observation is the canonical state with every part hidden from that player replaced
by :data:`rulespec.spec.visibility.HIDDEN`: the spec's ``state.hidden`` entries (what its quotes
say), then what the configured rulings hide (``Engine.hidden_by_rulings``: a record's reading of
who sees what, for instance OURO-AMB-37 in-hand). Internal: the kit and the bridges build theirs
from ``state.hidden`` alone today.
"""

from __future__ import annotations

from typing import Any

from rulespec.reference.core import Engine
from rulespec.spec.visibility import hidden_fields, view


def observation(engine: Engine, player: int | None) -> Any:
    """Return ``player``'s observation of ``engine``'s state (None: an onlooker's)."""
    fields = hidden_fields(engine.spec.data) + engine.hidden_by_rulings()
    return view(engine.state(), fields, player)
