"""``python -m rulespec.conformance.server [GAME ...]``: serve the reference over the engine protocol.

This is the runnable name that engine lists, the docs and earlier releases use; the code is
``rulespec.conformance.engine.server`` (the engine stage), and ``serve`` is also exported by
``rulespec.conformance`` itself.
"""

from __future__ import annotations

from rulespec.conformance.engine.server import Server, main, serve

__all__ = ["Server", "main", "serve"]

if __name__ == "__main__":
    raise SystemExit(main())
