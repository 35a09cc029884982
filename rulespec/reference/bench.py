"""Random-playout speed of the reference engines (``rulespec bench``), with progress.

One measurement plays whole games with ``random_policy`` from a seeded generator for a given
time and counts actions and games; the perft column counts the tree to a few plies.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rulespec.reference.perft import perft
from rulespec.reference.play import random_policy
from rulespec.reference.registry import new_game

#: Plies counted by the perft column of ``rulespec bench``.
PERFT_BENCH_DEPTH = 3

#: Called with the fraction of the current measurement done (0 to 1).
Tick = Callable[[float], None]


def measure(game: str, players: int, seconds: float, *, tick: Tick | None = None) -> dict[str, Any]:
    """Play random games of ``game`` for ``seconds`` and return the row of figures."""
    rng = random.Random(players)
    actions = finished = 0
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        engine = new_game(game, players=players)
        while True:
            actor = engine.current_player()
            if actor is None:
                break
            engine.apply(random_policy(engine, rng))
            actions += 1
        finished += 1
        now = time.perf_counter()
        if tick is not None:
            tick(min(1.0, (now - start) / seconds))
    elapsed = now - start
    tree = perft(new_game(game, players=players), PERFT_BENCH_DEPTH)
    return {"game": game, "players": players, "games": finished, "actions": actions,
            "seconds": round(elapsed, 3),
            "actions_per_s": round(actions / elapsed),
            "games_per_s": round(finished / elapsed, 1),
            "actions_per_game": round(actions / max(finished, 1), 1),
            "perft_nodes_per_s": round(tree.nodes_per_second)}


HEADER = (f"{'game':<14} {'players':>7} {'actions/s':>11} {'games/s':>9} "
          f"{'actions/game':>13} {'games':>7} {'perft nodes/s':>14}")


def row_text(r: dict[str, Any]) -> str:
    """Return one line of the text table."""
    return (f"{r['game']:<14} {r['players']:>7} {r['actions_per_s']:>11,} "
            f"{r['games_per_s']:>9,} {r['actions_per_game']:>13,} {r['games']:>7} "
            f"{r['perft_nodes_per_s']:>14,}")


def show_progress(quiet: bool) -> bool:
    """Return whether to draw a progress display: on a terminal, unless ``quiet``."""
    return not quiet and sys.stderr.isatty()


@contextmanager
def progress_bar(total: int, enabled: bool) -> Iterator[Callable[[str, float], None]]:
    """Yield ``update(label, done)``: ``done`` measurements finished (fractions count).

    Draws a rich progress bar on stderr when ``enabled``, else does nothing; the bar goes away
    when the work ends, so only the printed rows stay.
    """
    if not enabled:
        yield lambda label, done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed:.1f}/{task.total:.0f}"), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True,
                  # Rows printed meanwhile go above the bar only when both share the terminal.
                  redirect_stdout=sys.stdout.isatty(), redirect_stderr=False) as bar:
        task = bar.add_task("bench", total=total)

        def update(label: str, done: float) -> None:
            bar.update(task, description=label, completed=done)

        yield update
