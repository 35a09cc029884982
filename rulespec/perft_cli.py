"""``rulespec perft``: exact game-tree counts of the reference, and the published tables.

Registered on the ``rulespec`` group by ``rulespec/cli.py``. Exit codes: 0 ok, 1 the committed
tables differ from a fresh count (``--check-tables``), 2 a usage or input error.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from rulespec.cliargs import PLAYER_COUNT, parse_pairs
from rulespec.exitcodes import EXIT_FAILED, EXIT_OK
from rulespec.reference.perft import MAX_DEPTH, PerftRow


def _rulings(values: Sequence[str]) -> dict[str, str]:
    return parse_pairs(values, "--ruling", example="DDO-AMB-01=d8", shape="AMBIGUITY=OPTION")


def _row_text(row: PerftRow) -> str:
    terminal = "-" if row.terminal is None else f"{row.terminal:,}"
    return f"{row.depth:>5}  {row.nodes:>14,}  {terminal:>9}  {row.weighted}"


@click.command()
@click.argument("game", required=False)
@click.option("--players", "-n", type=PLAYER_COUNT, help="Number of players "
              "(default: the minimum).")
@click.option("--ruling", "-r", multiple=True, metavar="AMB=OPTION",
              help="Ruling to count under (repeatable; others take their default).")
@click.option("--variant", "-v", multiple=True, metavar="VARIANT", help="Variant to enable.")
@click.option("--depth", "-d", type=click.IntRange(0, MAX_DEPTH), default=3, show_default=True,
              help="Plies to count.")
@click.option("--divide", is_flag=True, help="Also print each first move's subtree count.")
@click.option("--from", "from_trace", type=click.Path(path_type=Path, dir_okay=False),
              help="Count from the position at the end of this trace (its configuration is used).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--write-tables", is_flag=True,
              help="Regenerate the published perft tables of GAME (or of every game).")
@click.option("--check-tables", is_flag=True,
              help="Compare the published perft tables with a fresh count; exit 1 on a difference.")
def perft(game: str | None, players: int | None, ruling: tuple[str, ...],
          variant: tuple[str, ...], depth: int, divide: bool, from_trace: Path | None, fmt: str,
          write_tables: bool, check_tables: bool) -> None:
    """Count GAME's tree to --depth plies: nodes per ply, chance outcomes included as moves.

    The weighted column sums, at each ply, the probability of reaching each node (player moves
    weigh one): the expected number of action sequences of that length, exact. Transpositions
    are not merged. Compare your engine's counts with these (and with the published tables,
    `rulespec perft --check-tables`); `--divide` finds the first move whose subtree differs.
    """
    from rulespec.conformance.play import perft_tables
    from rulespec.spec.registry import game_ids

    if write_tables or check_tables:
        games = [game] if game else None
        if check_tables:
            problems = perft_tables.differences(games)
            for p in problems:
                click.echo(p)
            checked = len(games) if games else len(game_ids())
            click.echo(f"{checked} game(s) checked, {len(problems)} difference(s)")
            sys.exit(EXIT_FAILED if problems else EXIT_OK)
        for path in perft_tables.write(games):
            click.echo(f"wrote {path}")
        return
    engine = _position(game, players, _rulings(ruling), variant, from_trace)
    _count(engine, depth, divide, fmt, from_trace)


def _position(game: str | None, players: int | None, rulings: dict[str, str],
              variants: Sequence[str], from_trace: Path | None) -> Any:
    from rulespec.reference.registry import new_game

    if from_trace is None:
        if game is None:
            raise click.UsageError("name a GAME (see `rulespec games`), or give --from TRACE")
        return new_game(game, players=players, rulings=rulings, variants=variants)
    if players is not None or rulings or variants:
        raise click.UsageError("--from takes the trace's configuration; drop --players, "
                               "--ruling and --variant")
    from rulespec.reference.core import IllegalAction, config_from_json
    from rulespec.reference.registry import engine_class
    from rulespec.reference.trace import read_trace
    from rulespec.spec.registry import get_spec

    trace = read_trace(from_trace)
    if game is not None and game != trace.game:
        raise click.UsageError(f"{from_trace} is a {trace.game!r} trace, not {game!r}")
    spec = get_spec(trace.game)
    engine = engine_class(spec)(spec, config_from_json(spec, trace.config))
    for step in trace.steps:
        try:
            engine.apply(step.action)
        except IllegalAction as exc:
            raise click.UsageError(f"{from_trace}: step {step.n} is illegal ({exc}); the "
                                   "position cannot be reached") from None
    return engine


def _count(engine: Any, depth: int, divide: bool, fmt: str, from_trace: Path | None) -> None:
    from rulespec.reference.perft import divide as split
    from rulespec.reference.perft import perft as count

    result = count(engine, depth)
    parts = list(split(engine, depth)) if divide and depth >= 1 else []
    if fmt == "json":
        click.echo(json.dumps({
            "format": "rulespec-perft/1", "game": engine.spec.game_id,
            "spec_version": engine.spec.version, "config": engine.config.to_json(),
            "from": str(from_trace) if from_trace else None, "depth": depth,
            "rows": [r.to_json() for r in result.rows],
            "divide": [{"action": a, "weight": str(p), "nodes": r.rows[-1].nodes if r.rows else 1}
                       for a, p, r in parts],
            "seconds": round(result.seconds, 3)}, indent=1))
        return
    where = f"from the end of {from_trace}" if from_trace else "from the start"
    click.echo(f"perft {engine.spec.game_id} ({engine.players} players) {where}")
    if engine.is_terminal():
        click.echo("the game is over at this position: there is nothing below it to count")
    click.echo(f"{'depth':>5}  {'nodes':>14}  {'terminal':>9}  weighted")
    for row in result.rows:
        click.echo(_row_text(row))
    for action, _, sub in parts:
        nodes = sub.rows[-1].nodes if sub.rows else 1
        click.echo(f"{nodes:>14,}  {json.dumps(action, sort_keys=True)}")
    click.echo(f"{sum(r.nodes for r in result.rows):,} nodes in {result.seconds:.2f} s "
               f"({result.nodes_per_second:,.0f} nodes/s)")
