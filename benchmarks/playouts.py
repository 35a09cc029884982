"""Random playouts side by side: rulespec's reference engines, OpenSpiel's Python games, a floor.

Every contestant is played by one driver (``playout`` below): chance nodes draw an outcome
with the game's own probabilities, players pick a uniformly random legal action. The
contestants take turns in one process (round after round, each for the same CPU budget), so a
busy machine slows them alike; the figures are CPU time (``time.process_time``) and the
ratios are what to compare across machines.

- rulespec: every registered game at its smallest player count (the reference engines of
  ``rulespec bench``, exact chance sampling with ``rulespec.reference.play.sample_chance``);
- OpenSpiel: the pure-Python games ``python_kuhn_poker`` and ``python_liars_poker`` (from
  ``open_spiel.python.games``; skipped when open-spiel is not installed: ``pip install
  'rulespec[bench]'``);
- the floor: a plain-Python loop of Dado de Ouro's rules (no checks, no state, no rulings),
  its numbers (rounds, games to win, die faces, starting score) read from the spec.

Run::

    python benchmarks/playouts.py                       # about a minute
    python benchmarks/playouts.py --seconds 0.5 --rounds 2 --json out.json
    python benchmarks/playouts.py --update-docs         # also rewrite the docs' table

``--update-docs`` writes the result to ``benchmarks/results/playouts.json`` and the table of
``docs/about/performance.md`` from it.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "benchmarks" / "results" / "playouts.json"
DOCS_PAGE = ROOT / "docs" / "about" / "performance.md"
BEGIN, END = "<!-- playouts:begin -->", "<!-- playouts:end -->"
#: The OpenSpiel games the dice games are compared with.
OPENSPIEL_GAMES = ("python_kuhn_poker", "python_liars_poker")
#: The contestant every ratio is taken against when present.
FLOOR = "floor: plain-Python Dado de Ouro"


class Contestant:
    """A game as the driver sees it: start, who moves, what is legal, apply."""

    name: str
    kind: str

    def new(self) -> Any:
        raise NotImplementedError

    def is_terminal(self, state: Any) -> bool:
        raise NotImplementedError

    def is_chance(self, state: Any) -> bool:
        raise NotImplementedError

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        raise NotImplementedError

    def legal(self, state: Any) -> list[Any]:
        raise NotImplementedError

    def apply(self, state: Any, action: Any) -> None:
        raise NotImplementedError


def playout(game: Contestant, rng: random.Random) -> int:
    """Play one game to its end with random decisions; return the number of actions."""
    state = game.new()
    actions = 0
    while not game.is_terminal(state):
        if game.is_chance(state):
            action = game.sample_chance(state, rng)
        else:
            action = rng.choice(game.legal(state))
        game.apply(state, action)
        actions += 1
    return actions


class Rulespec(Contestant):
    """A rulespec reference engine."""

    kind = "rulespec"

    def __init__(self, game: str, players: int) -> None:
        from rulespec.reference.core import CHANCE
        from rulespec.reference.play import sample_chance
        from rulespec.reference.registry import new_game

        self.name = f"rulespec {game} p{players}"
        self.game, self.players = game, players
        self._new, self._chance, self._sample = new_game, CHANCE, sample_chance
        new_game(game, players=players)  # load the spec before the clock runs

    def new(self) -> Any:
        return self._new(self.game, players=self.players)

    def is_terminal(self, state: Any) -> bool:
        return state.current_player() is None

    def is_chance(self, state: Any) -> bool:
        return state.current_player() == self._chance

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        return self._sample(state, rng)

    def legal(self, state: Any) -> list[Any]:
        return state.legal_actions()  # type: ignore[no-any-return]

    def apply(self, state: Any, action: Any) -> None:
        state.apply(action)


class OpenSpiel(Contestant):
    """An OpenSpiel game implemented in Python, loaded through pyspiel."""

    kind = "openspiel"

    def __init__(self, name: str) -> None:
        import pyspiel
        from open_spiel.python import games  # noqa: F401 - registers the python_* games

        self.name = f"openspiel {name}"
        self.game = pyspiel.load_game(name)

    def new(self) -> Any:
        return self.game.new_initial_state()

    def is_terminal(self, state: Any) -> bool:
        return bool(state.is_terminal())

    def is_chance(self, state: Any) -> bool:
        return bool(state.is_chance_node())

    def sample_chance(self, state: Any, rng: random.Random) -> Any:
        outcomes = state.chance_outcomes()
        pick = rng.random()
        for action, probability in outcomes:
            if pick < probability:
                return action
            pick -= probability
        return outcomes[-1][0]

    def legal(self, state: Any) -> list[Any]:
        return state.legal_actions()  # type: ignore[no-any-return]

    def apply(self, state: Any, action: Any) -> None:
        state.apply_action(action)


class Floor(Contestant):
    """Dado de Ouro's rules as a bare loop: a whole match is one "action" per die roll.

    Each round everyone rolls; the highest alone gains the face, the lowest alone loses it,
    ties roll again among the tied; after the rounds the highest score wins the game (ties
    roll off); the first to the games to win wins the match. Numbers from the spec.
    """

    kind = "floor"
    name = FLOOR

    def __init__(self, players: int = 4) -> None:
        from rulespec.reference.core import make_config
        from rulespec.spec.registry import get_spec

        config = make_config(get_spec("dado-de-ouro"), players=players)
        self.players = players
        self.rounds = int(config.param("rounds_per_game"))
        self.games_to_win = int(config.param("games_to_win"))
        self.faces = [int(f) for f in config.param("die_faces")]
        self.start = int(config.param("starting_score"))

    def play(self, rng: random.Random) -> int:
        """Play one match; return the number of rolls."""
        faces, choice, n = self.faces, rng.choice, self.players
        rolls = 0
        won = [0] * n
        while max(won) < self.games_to_win:
            scores = [self.start] * n
            for _ in range(self.rounds):
                faces_rolled = [choice(faces) for _ in range(n)]
                rolls += n
                for best, sign in ((max, 1), (min, -1)):
                    value = best(faces_rolled)
                    tied = [p for p in range(n) if faces_rolled[p] == value]
                    while len(tied) > 1:
                        again = [choice(faces) for _ in tied]
                        rolls += len(tied)
                        top = best(again)
                        tied = [p for p, f in zip(tied, again, strict=True) if f == top]
                    scores[tied[0]] += sign * value
            best_score = max(scores)
            leaders = [p for p in range(n) if scores[p] == best_score]
            while len(leaders) > 1:
                again = [choice(faces) for _ in leaders]
                rolls += len(leaders)
                top = max(again)
                leaders = [p for p, f in zip(leaders, again, strict=True) if f == top]
            won[leaders[0]] += 1
        return rolls


def contestants(quiet: bool) -> list[Contestant]:
    """Return every contestant that can run here (OpenSpiel only when installed)."""
    from rulespec.spec.registry import game_ids, get_spec

    found: list[Contestant] = [Floor()]
    for game in game_ids():
        found.append(Rulespec(game, get_spec(game).min_players))
    try:
        found += [OpenSpiel(name) for name in OPENSPIEL_GAMES]
    except ImportError as exc:
        if not quiet:
            print(f"OpenSpiel left out ({exc}); pip install 'rulespec[bench]'", file=sys.stderr)
    return found


def measure(found: list[Contestant], seconds: float, rounds: int, seed: int,
            tick: Callable[[str, int], None] | None = None) -> list[dict[str, Any]]:
    """Run every contestant ``rounds`` times for ``seconds`` of CPU each, interleaved."""
    totals = {c.name: [0, 0, 0.0] for c in found}  # actions, games, cpu seconds
    rngs = {c.name: random.Random(seed) for c in found}
    clock = time.process_time
    done = 0
    for _ in range(rounds):
        for c in found:
            if tick is not None:
                tick(c.name, done)
            done += 1
            rng = rngs[c.name]
            actions = games = 0
            play = c.play if isinstance(c, Floor) else (lambda rng, c=c: playout(c, rng))
            start = clock()
            while True:
                actions += play(rng)
                games += 1
                used = clock() - start
                if used >= seconds:
                    break
            total = totals[c.name]
            total[0] += actions
            total[1] += games
            total[2] += used
    rows = []
    for c in found:
        actions, games, cpu = totals[c.name]
        rows.append({"name": c.name, "kind": c.kind, "actions": actions, "games": games,
                     "cpu_seconds": round(cpu, 3), "actions_per_s": round(actions / cpu)})
    return rows


def ratios(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Return, per rulespec engine, its speed over each OpenSpiel game's and the floor over it."""
    speed = {r["name"]: r["actions_per_s"] for r in rows}
    out: dict[str, dict[str, float]] = {}
    for r in rows:
        if r["kind"] != "rulespec":
            continue
        mine = r["actions_per_s"]
        entry = {f"vs {o['name']}": round(mine / o["actions_per_s"], 2)
                 for o in rows if o["kind"] == "openspiel"}
        if FLOOR in speed:
            entry["floor is x faster"] = round(speed[FLOOR] / mine, 2)
        out[r["name"]] = entry
    return out


def machine() -> dict[str, Any]:
    """Describe the machine the figures come from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "system": platform.platform(terse=True),
            "python": platform.python_version(), "implementation": platform.python_implementation()}


def run(seconds: float, rounds: int, seed: int, quiet: bool, note: str | None = None
        ) -> dict[str, Any]:
    """Measure and return the whole result document."""
    found = contestants(quiet)
    show = not quiet and sys.stderr.isatty()
    if show:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("playouts", total=len(found) * rounds)

            def tick(name: str, done: int) -> None:
                bar.update(task, description=name, completed=done)

            rows = measure(found, seconds, rounds, seed, tick)
    else:
        rows = measure(found, seconds, rounds, seed)
    result = {"benchmark": "rulespec-playouts/1",
              "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
              "machine": machine(), "seconds_per_turn": seconds, "rounds": rounds, "seed": seed,
              "clock": "CPU time (time.process_time), contestants interleaved in one process",
              "results": rows, "ratios": ratios(rows)}
    if note:
        result["note"] = note
    return result


def table(result: dict[str, Any]) -> str:
    """Return the Markdown table of a result document (the docs page shows this)."""
    rows = result["results"]
    openspiel = [r["name"] for r in rows if r["kind"] == "openspiel"]
    head = ["contestant", "actions/s", *[f"× {n.removeprefix('openspiel ')}" for n in openspiel]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r["name"], f"{r['actions_per_s']:,}"]
        for name in openspiel:
            other = next(o for o in rows if o["name"] == name)
            cells.append(f"{r['actions_per_s'] / other['actions_per_s']:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    m = result["machine"]
    lines += ["", f"Measured {result['date']} on {m['cpu']} ({m['cores']} cores), "
              f"{m['implementation']} {m['python']}, {m['system']}; {result['rounds']} round(s) of "
              f"{result['seconds_per_turn']} s CPU per contestant, interleaved."
              + (f" {result['note']}" if result.get("note") else "")]
    return "\n".join(lines)


def update_docs(result: dict[str, Any], page: Path = DOCS_PAGE) -> None:
    """Rewrite the table between the markers of the docs page."""
    text = page.read_text(encoding="utf-8")
    before, _, rest = text.partition(BEGIN)
    _, _, after = rest.partition(END)
    page.write_text(f"{before}{BEGIN}\n{table(result)}\n{END}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="CPU seconds per contestant per round (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--json", type=Path, help="also write the result to this file")
    parser.add_argument("--update-docs", action="store_true",
                        help=f"write {RESULT.relative_to(ROOT)} and the docs page's table")
    parser.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    parser.add_argument("--note", help="a sentence about the run (a shared machine, say), kept "
                        "in the result and shown under the table")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        parser.error("--seconds must be more than 0 and --rounds at least 1")
    result = run(args.seconds, args.rounds, args.seed, args.quiet, args.note)
    print(table(result))
    print()
    for name, entry in result["ratios"].items():
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in entry.items()))
    text = json.dumps(result, indent=2) + "\n"
    if args.json is not None:
        args.json.write_text(text, encoding="utf-8")
    if args.update_docs:
        RESULT.parent.mkdir(parents=True, exist_ok=True)
        RESULT.write_text(text, encoding="utf-8")
        update_docs(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
