"""Engines written for an older release of a spec, declaring it, as outside implementers do.

``Declared`` serves any engine class as one written for release ``version``: its hello declares
that ``spec_version`` and the ruling options of that release (only ``only`` for the records it
names), and it refuses in ``start`` a ruling that release did not have.

``OLDER_BEHAVIOUR`` extends the negative corpus (``tests/conformance/corpus.py``) with an engine
that follows an option as an older release specified it, before a MAJOR change altered what
that option does: Ouro de Tolo 1.0.0's OURO-AMB-06 ``immediately``, under which a player who has
had an accident keeps the stones that reach them later in the same card (OURO-CARD-11); 2.0.0
sends them back to the bag, fixed in the reference without a new option.

Usage (over the protocol): python -m tests.conformance.engines.older_release GAME NAME VERSION
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from rulespec.conformance.engine.adapters import InProcessAdapter
from rulespec.conformance.engine.protocol import Hello, without_rulings
from rulespec.conformance.server import serve
from rulespec.reference import ConfigError
from rulespec.reference.core import Engine
from rulespec.releases.store import release_spec
from tests.conformance.corpus import DECISION_BUGS, RULING_ENGINES, BadEngine, corpus


def keeps_later_stones(base: type[Engine]) -> type[Engine]:
    """Ouro de Tolo as 1.0.0 specified OURO-AMB-06 ``immediately``: stones that reach a player
    after their accident, in the same card, are kept (OURO-CARD-11, changed in 2.0.0)."""
    def _receive(self: Any, player: int, c: int, *, drawn: bool = False) -> None:
        if (self.status[player] == "accident" and not self.safe[player]
                and self.ruling("OURO-AMB-06") == "immediately"):
            self.stones[player][c] += 1  # 1.0.0: nothing sent the late stones back
            return
        base._receive(self, player, c, drawn=drawn)  # type: ignore[attr-defined]

    def _receive_together(self: Any, player: int, counts: list[int]) -> None:
        if self.ruling("OURO-AMB-06") != "immediately":
            base._receive_together(self, player, counts)  # type: ignore[attr-defined]
            return
        # 1.0.0 handed a favour's stones over one at a time, the Fool's Gold first: what came
        # after an accident (the rest of Do Me a Favor) was kept.
        fools_gold = self.rules.fools_gold
        for c in [fools_gold, *(c for c in range(len(counts)) if c != fools_gold)]:
            for _ in range(counts[c]):
                _receive(self, player, c, drawn=True)

    return type(f"Older{base.__name__}", (base,), {"_receive": _receive,
                                                    "_receive_together": _receive_together})


#: Engines that follow, as an older release specified it, an option a later MAJOR release
#: changed: checked as that release, they are not plain bugs there.
OLDER_BEHAVIOUR: list[BadEngine] = [
    BadEngine("ouro-de-tolo", "accident-keeps-late-stones",
              "OURO-CARD-11 under OURO-AMB-06 immediately, as 1.0.0 specified it: a player who "
              "had an accident keeps the stones that reach them later in the same card",
              "INVARIANT", keeps_later_stones, players=3,
              rulings={"OURO-AMB-06": "immediately"}),
]


class Declared(InProcessAdapter):
    """Serve ``engine`` (a class for ``game``) as an engine written for release ``version``."""

    def __init__(self, game: str, version: str, engine: type[Engine] | None = None, *,
                 only: Mapping[str, Sequence[str]] | None = None, name: str = "") -> None:
        super().__init__(None if engine is None else {game: engine},
                         name=name or f"{game} as written for {version}")
        self.game = game
        self.version = version
        self.known = {aid: [str(o["id"]) for o in record["options"]]
                      for aid, record in release_spec(game, version).ambiguities.items()}
        self.known.update({a: list(o) for a, o in (only or {}).items()})

    def hello(self) -> Hello:
        hello = super().hello()
        games = dict(hello.games)
        games[self.game] = {**games[self.game], "spec_version": self.version,
                            "rulings": self.known}
        return replace(hello, games=games)

    def start(self, config: Mapping[str, Any]) -> None:
        config = without_rulings(config, self.held)
        for aid, option in (config.get("rulings") or {}).items():
            if option not in self.known.get(aid, ()):
                raise ConfigError(f"unsupported ruling {aid}={option}")
        super().start(config)


def main() -> int:
    """Serve the engine named on the command line, declaring the release given."""
    game, name, version = sys.argv[1], sys.argv[2], sys.argv[3]
    for bad in [*OLDER_BEHAVIOUR, *corpus([game]), *RULING_ENGINES, *DECISION_BUGS]:
        if bad.game == game and bad.name == name:
            return serve(Declared(game, version, bad.engine(), name=f"bad:{name}"))
    sys.stderr.write(f"no engine {name!r} for {game!r}\n")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
