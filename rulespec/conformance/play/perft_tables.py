"""Published perft tables: the reference's exact tree counts, committed beside the golden traces.

One file per game, the one its ``GamePackage`` registers as ``perft`` (by default
``<game>.perft.json`` in the game's golden-trace folder), holding:

- a table for every player count under the default rulings, as deep as a node budget allows
  (the depth is chosen from the counts themselves, so regenerating gives the same file);
- for each option of each ambiguity, at the smallest player count and a shallower depth, a
  table when (and only when) it differs from the default's at that depth: a cheap witness that
  the option changes the legal moves or the chance early in the game.

A test regenerates the files and diffs them with the committed ones, as for golden traces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.reference.core import ConfigError
from rulespec.reference.perft import PerftRow, perft
from rulespec.reference.registry import new_game
from rulespec.spec.registry import game_ids, get_spec, perft_path

#: The format of the committed files.
PERFT_FORMAT = "rulespec-perft/1"
#: Go one ply deeper while the deepest level has at most this many nodes.
NODE_BUDGET = 5_000
#: The same for the per-option tables, which are many.
OPTION_NODE_BUDGET = 500
#: Never deeper than this in a published table.
TABLE_DEPTH = 8


@dataclass(frozen=True)
class Table:
    """One perft table: its label, configuration and rows."""

    label: str
    config: dict[str, Any]
    rows: list[PerftRow]

    def to_json(self) -> dict[str, Any]:
        """Return the table as JSON."""
        return {"label": self.label, "config": self.config, "depth": len(self.rows),
                "rows": [r.to_json() for r in self.rows]}


def _label(players: int, rulings: dict[str, str]) -> str:
    """Name a table: ``p4-default``, or ``p4-AMB-OPTION`` for the options it is counted under."""
    return f"p{players}-" + ("-".join(f"{a}-{o}" for a, o in sorted(rulings.items()))
                             or "default")


def _deepest(game: str, players: int, rulings: dict[str, str], budget: int) -> Table:
    """Return the table that goes one ply deeper while its deepest ply has at most ``budget``
    nodes (so the last ply may exceed it)."""
    engine = new_game(game, players=players, rulings=rulings)
    depth = 1
    rows = perft(engine, depth).rows
    while 0 < rows[-1].nodes <= budget and depth < TABLE_DEPTH:
        depth += 1
        rows = perft(engine, depth).rows
    return Table(_label(players, rulings), engine.config.to_json(), rows)


def _at_depth(game: str, players: int, rulings: dict[str, str], depth: int) -> Table:
    engine = new_game(game, players=players, rulings=rulings)
    return Table(_label(players, rulings), engine.config.to_json(), perft(engine, depth).rows)


def _counts(table: Table) -> list[tuple[int, str]]:
    return [(r.nodes, str(r.weighted)) for r in table.rows]


def generate(game: str) -> dict[str, Any]:
    """Return the perft document of ``game`` (nothing is written)."""
    spec = get_spec(game)
    defaults = [_deepest(game, n, {}, NODE_BUDGET)
                for n in range(spec.min_players, spec.max_players + 1)]
    lo = spec.min_players
    base = _deepest(game, lo, {}, OPTION_NODE_BUDGET)
    options: list[Table] = []
    default_rulings = spec.default_rulings()
    for aid, amb in spec.ambiguities.items():
        for opt in amb["options"]:
            if opt["id"] == default_rulings[aid]:
                continue
            try:
                table = _at_depth(game, lo, {aid: str(opt["id"])}, len(base.rows))
            except ConfigError:
                continue  # an option the reference cannot play at this count as configured
            if _counts(table) != _counts(base):
                options.append(table)
    return {"format": PERFT_FORMAT, "game": game, "spec_version": spec.version,
            "node_budget": NODE_BUDGET, "option_node_budget": OPTION_NODE_BUDGET,
            "defaults": [t.to_json() for t in defaults],
            "option_depth": len(base.rows), "option_base": base.to_json(),
            "options": [t.to_json() for t in options]}


def dumps(document: dict[str, Any]) -> str:
    """Serialise a perft document the way it is committed (stable, diffable)."""
    return json.dumps(document, indent=1, sort_keys=True) + "\n"


def path(game: str, directory: Path | None = None) -> Path:
    """Return where the perft file of ``game`` is committed: ``<game>.perft.json`` in
    ``directory``, or the file its package registers (``perft_path``)."""
    if directory is not None:
        return directory / f"{game}.perft.json"
    file = perft_path(game)
    if file is None:
        raise ConfigError(f"game {game!r} registers no perft tables file; set perft= (or "
                          "traces=) in its GamePackage")
    return file


def load(game: str) -> dict[str, Any] | None:
    """Return the committed perft document of ``game``, or None when it has none."""
    file = perft_path(game)
    if file is None or not file.is_file():
        return None
    data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    return data


def write(games: list[str] | None = None, directory: Path | None = None) -> list[Path]:
    """Regenerate the perft files of ``games`` (all by default)."""
    written = []
    for game in games or game_ids():
        file = path(game, directory)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(dumps(generate(game)), encoding="utf-8")
        written.append(file)
    return written


def differences(games: list[str] | None = None, directory: Path | None = None) -> list[str]:
    """Return what differs between the committed perft files and freshly counted ones."""
    problems = []
    for game in games or game_ids():
        file = path(game, directory)
        fresh = dumps(generate(game))
        if not file.is_file():
            problems.append(f"{file.name}: missing; run rulespec perft {game} --write-tables")
        elif file.read_text(encoding="utf-8") != fresh:
            problems.append(f"{file.name}: differs from a fresh count of the reference; if the "
                            f"change is intended, regenerate with rulespec perft {game} "
                            "--write-tables")
    return problems
