"""Serve one known-bad engine of the negative corpus over the engine protocol.

Usage: python -m tests.conformance.engines.bad_server GAME NAME
"""

from __future__ import annotations

import sys

from rulespec.conformance.engine.adapters import InProcessAdapter
from rulespec.conformance.server import serve
from tests.conformance.corpus import DECISION_BUGS, RULING_ENGINES, corpus


def main() -> int:
    """Serve the bad engine named on the command line."""
    game, name = sys.argv[1], sys.argv[2]
    for bad in [*corpus([game]), *RULING_ENGINES, *DECISION_BUGS]:
        if bad.game != game:
            continue
        if bad.name == name:
            return serve(InProcessAdapter({game: bad.engine()}, name=f"bad:{name}"))
    sys.stderr.write(f"no bad engine {name!r} for {game!r}\n")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
