"""How often the MCTS player finds no world to search, per game: the redeal hook against the replay.

Plays ``--games`` seeded games per game (every seat the MCTS player, the games' default
rulings and player count, the seeds of ``rulespec impact --seed 0``) twice: once with the
game's ``redeal`` hook where the module declares one, once with the generic replay only. Prints,
per game and method, the decisions searched, the fallbacks to the greedy player, their rate
and the CPU seconds (``time.process_time``), side by side in one run.

    python benchmarks/mcts_determinise.py --games 20 --replay-games 5
"""

from __future__ import annotations

import argparse
import json
import time

from rulespec.impact.agents import MctsAgent
from rulespec.impact.measure import default_players
from rulespec.impact.paired import BatchTask, game_seed, play_game
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec


def measure(game: str, games: int, hook: bool) -> dict[str, object]:
    """Play ``games`` games of ``game`` with MCTS in every seat; return the counts."""
    spec = get_spec(game)
    players = default_players(spec)
    agent = MctsAgent(spec)
    if not hook:
        agent.redeal = None
        agent.needs_history = True
    task = BatchTask(game, players, "mcts", 0, 0, games, (), ())
    searches = fallbacks = 0
    started = time.process_time()
    for i in range(games):
        summary = play_game(spec, {}, players, agent, game_seed(task, i), (), engine_class(spec))
        searches += summary.searches
        fallbacks += summary.fallbacks
    return {"game": game, "players": players, "method": "redeal" if hook else "replay",
            "games": games, "searches": searches, "fallbacks": fallbacks,
            "fallback_rate": fallbacks / searches if searches else None,
            "cpu_seconds": round(time.process_time() - started, 2)}


def main() -> None:
    """Print the table (or JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--replay-games", type=int,
                        help="games for the replay-only method (default: --games; it is slow)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for game in args.game or game_ids():
        for hook in (True, False):
            count = args.games if hook or args.replay_games is None else args.replay_games
            row = measure(game, count, hook)
            rows.append(row)
            if not args.json:
                rate = row["fallback_rate"]
                shown = "n/a" if rate is None else f"{100 * float(rate):5.1f}%"  # type: ignore[arg-type]
                print(f"{game:<14} p{row['players']} {row['method']:<7} {row['games']:>3} games "
                      f"{row['searches']:>5} searches {row['fallbacks']:>5} fallbacks {shown:>7} "
                      f"{row['cpu_seconds']:>8} s CPU", flush=True)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
