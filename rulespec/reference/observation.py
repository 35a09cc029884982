"""What each player sees of a reference engine's state (issue 43, the observation model).

A player's observation is the canonical state with every part hidden from that player replaced
by :data:`rulespec.spec.visibility.HIDDEN`: the spec's ``state.hidden`` entries (what its quotes
say), then what the configured rulings hide (``Engine.hidden_by_rulings``: a record's reading of
who sees what, for instance OURO-AMB-37 in-hand; a record's option that shows more, such as
FOOL-AMB-21 open, too). The kit's OBSERVATION check, the bridges and the impact lab read
:func:`observed_fields`.
"""

from __future__ import annotations

from typing import Any

from rulespec.reference.core import Engine
from rulespec.spec.visibility import HiddenField, hidden_fields, hidden_when, view


def observed_fields(engine: Engine) -> tuple[HiddenField, ...]:
    """Return what ``engine``'s configuration hides from some player: the spec's
    ``state.hidden`` entries that hold under its rulings as they do under the defaults (an
    entry with ``when`` only under those options: FOOL-AMB-21 open shows the hands), then what
    the rulings hide beyond the defaults, as the game says (``Engine.hidden_by_rulings``: the
    spec's entries, OURO-AMB-37 in-hand, unless the game module says otherwise), each once.
    Read without counting a decision point."""
    data = engine.spec.data
    beyond = set(hidden_when(data, engine.ruled))
    kept = tuple(f for f in hidden_fields(data, engine.ruled) if f not in beyond)
    return tuple(dict.fromkeys(kept + engine.hidden_by_rulings()))


def observation(engine: Engine, player: int | None) -> Any:
    """Return ``player``'s observation of ``engine``'s state (None: an onlooker's)."""
    return view(engine.state(), observed_fields(engine), player)
