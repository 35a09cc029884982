"""An engine that refuses anything its hello does not declare, and says so.

It is the reference, narrowed: it declares two player counts, the default option of every
ambiguity (and a second option of the first two), one variant and one parameter (with the range
of the spec's schema), and refuses in ``start`` (error 2) any configuration outside that: a
player count, ruling option, variant or parameter it did not declare. Every refusal is also
written to the file named by ``STRICT_LOG`` (when set), so a test can check the kit never sent
anything undeclared.

Usage: python -m tests.conformance.engines.strict GAME
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

from rulespec.conformance.engine.adapters import InProcessAdapter
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.server import serve
from rulespec.reference.core import ConfigError
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec


def declaration(spec: Spec) -> dict[str, Any]:
    """Return what the strict engine declares for ``spec``'s game."""
    defaults = spec.default_rulings()
    rulings: dict[str, list[str]] = {}
    for n, (amb, record) in enumerate(spec.ambiguities.items()):
        others = [str(o["id"]) for o in record["options"] if o["id"] != defaults[amb]]
        rulings[amb] = [defaults[amb], *others[:1]] if n < 2 else [defaults[amb]]
    numbers = [pid for pid, p in spec.parameters.items()
               if (p.get("schema") or {}).get("type") == "integer"]
    parameters = {}
    if numbers:
        schema = spec.parameters[numbers[0]]["schema"]
        parameters[numbers[0]] = {k: schema[k] for k in ("minimum", "maximum") if k in schema}
    low = spec.min_players
    return {"spec_version": spec.version, "rulings": rulings,
            "variants": sorted(spec.variants)[:1],
            "players": [low, min(low + 1, spec.max_players)], "parameters": parameters}


class StrictAdapter(InProcessAdapter):
    """The reference of one game, refusing anything undeclared (and logging each refusal)."""

    def __init__(self, game: str, log: str | None = None) -> None:
        super().__init__({game: type(self)._reference(game)}, name="strict")
        self.game = game
        self.spec = get_spec(game)
        self.declared = declaration(self.spec)
        self.log = log
        #: Every refusal, in words (also written to ``log``).
        self.refusals: list[str] = []

    @staticmethod
    def _reference(game: str) -> Any:
        from rulespec.reference.registry import engine_class

        return engine_class(get_spec(game))

    def hello(self) -> Hello:
        """Declare the narrowed game."""
        return Hello("strict", "1.0", {self.game: self.declared}, ("batch",))

    def start(self, config: Mapping[str, Any]) -> None:
        """Refuse anything undeclared; otherwise start the reference."""
        problems = self.undeclared(config)
        if problems:
            text = f"undeclared: {'; '.join(problems)}"
            self.refusals.append(text)
            if self.log:
                with open(self.log, "a", encoding="utf-8") as out:
                    out.write(text + "\n")
            raise ConfigError(text)
        super().start(config)

    def undeclared(self, config: Mapping[str, Any]) -> list[str]:
        """Return what ``config`` holds that the hello does not declare."""
        d = self.declared
        out = []
        if config.get("players") not in d["players"]:
            out.append(f"players {config.get('players')}")
        for amb, opt in dict(config.get("rulings") or {}).items():
            if opt not in d["rulings"].get(amb, []):
                out.append(f"ruling {amb}={opt}")
        out += [f"variant {v}" for v in config.get("variants") or () if v not in d["variants"]]
        for name, value in dict(config.get("parameters") or {}).items():
            info = d["parameters"].get(name)
            if info is None or not info.get("minimum", value) <= value <= info.get("maximum",
                                                                                    value):
                out.append(f"parameter {name}={value!r}")
        return out


def main() -> int:
    """Serve the strict engine of the game named on the command line."""
    return serve(StrictAdapter(sys.argv[1], os.environ.get("STRICT_LOG")))


if __name__ == "__main__":
    raise SystemExit(main())
