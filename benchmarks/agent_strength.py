"""How strong the impact lab's players are: one seat of each agent against the others greedy.

For each game where the players choose (Fool, Ouro de Tolo), plays ``--games`` seeded games at
the game's default player count and rulings with the agent under test in one seat (it moves
round the table from game to game, so no seat's advantage counts) and the greedy player in
every other seat, and prints its win rate (a shared win counts) with a 95% Wilson interval,
beside the fair share ``1 / players`` that an agent as strong as greedy would get. Random
against greedy is measured the same way, so the table reads as a ladder.

    python benchmarks/agent_strength.py --games 60

Writes ``benchmarks/results/agent-strength.json`` (``--out``) and prints a Markdown table.
Progress goes to standard error, a line per ten games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rulespec.impact.agents import Agent, GreedyAgent, make_agent
from rulespec.impact.measure import default_players
from rulespec.impact.paired import derive_seed, play_game
from rulespec.impact.stats import wilson
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import get_spec

GAMES = ("fool", "ouro-de-tolo")


def strength(game: str, agent_id: str, games: int) -> dict[str, object]:
    """Play ``games`` games of ``agent_id`` in one seat against greedy players; return its
    win rate with its interval."""
    spec = get_spec(game)
    players = default_players(spec)
    agent: Agent = make_agent(agent_id, spec)
    greedy = GreedyAgent(spec)
    wins = 0
    started = time.process_time()
    for i in range(games):
        seat = i % players
        seats = [agent if s == seat else greedy for s in range(players)]
        summary = play_game(spec, {}, players, seats, derive_seed("strength", game, i),
                            engine_type=engine_class(spec))
        wins += seat in summary.winners
        if (i + 1) % 10 == 0:
            print(f"  {game} {agent_id}: {i + 1}/{games} games, {wins} won", file=sys.stderr,
                  flush=True)
    iv = wilson(wins, games)
    return {"game": game, "players": players, "agent": agent_id, "against": "greedy",
            "games": games, "wins": wins,
            "win_rate": {"value": round(iv.value, 4), "low": round(iv.low, 4),
                         "high": round(iv.high, 4)},
            "fair_share": round(1 / players, 4),
            "cpu_seconds": round(time.process_time() - started, 1)}


def main() -> None:
    """Measure and print the ladder."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--agents", nargs="+", default=["random", "mcts"])
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).parent / "results" / "agent-strength.json")
    args = parser.parse_args()
    rows = [strength(game, agent, args.games) for game in GAMES for agent in args.agents]
    args.out.write_text(json.dumps({"format": "rulespec-agent-strength/1", "rows": rows},
                                   indent=1) + "\n", encoding="utf-8")
    print("| game | players | agent (one seat) vs greedy | games | win rate | fair share | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        w = r["win_rate"]
        assert isinstance(w, dict)
        print(f"| {r['game']} | {r['players']} | {r['agent']} | {r['games']} | "
              f"{100 * w['value']:.0f}% [{100 * w['low']:.0f}, {100 * w['high']:.0f}] | "
              f"{100 * float(str(r['fair_share'])):.0f}% | {r['cpu_seconds']} |")


if __name__ == "__main__":
    main()
