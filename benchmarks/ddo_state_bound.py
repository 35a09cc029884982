"""A lower bound on the distinct states of Dado de Ouro at its printed size, counted apart from
``rulespec verify``: how many states any view must tell apart that keeps the scores up to a
common shift and the round being played.

Why a bound and not a search: issue 42 asked for the printed die, ten rounds and one game in 30
minutes on two cores. The search stops long before (the verification page's "Out of reach"
table); this says how far the goal is whatever a view or a faster search did.

How it counts, with the reference engine's own rules (every number from the spec: the die's
faces, the players, the rounds; the rulings are the spec's defaults unless ``--ruling`` is given):

1. For every seat that can open a round, the engine plays every roll sequence of one round from
   a round's start and keeps those that end the round with no tie-break (one highest and one
   lowest roll). Each gives a change of the four scores and the next round's starter.
2. Round by round, the score vectors reachable by such rounds alone, each shifted so its least
   score is 0 (with no score floor, who wins depends on the differences only), with the starter.
   These are states at the start of a round; every one is reachable, so the count is a lower
   bound on the states there (ties reach more).
3. Inside a round, after k of the rolls: two prefixes of the round whose tie-free completions
   end in different score changes or starters are different states. Their number, times the
   round-start states, bounds the states after k rolls.

Seat symmetry merges at most one state per seat rotation, so the bound divided by the number of
players bounds a search with ``--symmetry``.

Run::

    python benchmarks/ddo_state_bound.py                 # ten rounds, the printed die
    python benchmarks/ddo_state_bound.py --rounds 3      # a quick look
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from rulespec.games.dado_de_ouro import DadoDeOuro
from rulespec.reference.registry import new_game

GAME = "dado-de-ouro"

#: One tie-free completion of a round: the faces rolled, the change of each seat's score, and
#: who starts the next round.
Completion = tuple[tuple[int, ...], tuple[int, ...], int]


def _engine(parameters: dict[str, Any], rulings: dict[str, str]) -> DadoDeOuro:
    made = new_game(GAME, parameters=parameters, rulings=rulings or None)
    if not isinstance(made, DadoDeOuro):
        raise SystemExit(f"{GAME}'s reference is not DadoDeOuro")
    if made.config.parameters.get("score_floor") is not None:
        raise SystemExit("ddo_state_bound: a score floor makes the scores matter whole, not up to"
                         " a shift; run it with the default score_floor (null)")
    return made


def _roll(engine: DadoDeOuro, face: int) -> None:
    engine.apply({"kind": "roll", "player": engine.state()["roller"], "face": face})


def round_start(parameters: dict[str, Any], rulings: dict[str, str], starter: int) -> DadoDeOuro:
    """Return an engine at the start of the first round, opened by ``starter``."""
    engine = _engine(parameters, rulings)
    faces = sorted(engine.config.parameters["die_faces"])
    while engine.state()["phase"] != "round":
        roller = engine.state()["roller"]
        _roll(engine, faces[-1] if roller == starter else faces[0])
    state = engine.state()
    if state["round_starter"] != starter:
        raise SystemExit(f"the opening roll won by seat {starter} started the round with seat "
                         f"{state['round_starter']}: this bound does not model that ruling")
    return engine


def completions(start: DadoDeOuro, prefix: Sequence[int] = ()) -> Iterator[Completion]:
    """Yield the tie-free completions of the round ``start`` begins, after ``prefix``."""
    faces = list(start.config.parameters["die_faces"])
    before = start.state()
    engine = start.clone()
    for face in prefix:
        _roll(engine, face)
    yield from _complete(engine, faces, before, tuple(prefix), len(before["scores"]))


def _complete(engine: DadoDeOuro, faces: list[int], before: dict[str, Any],
              rolled: tuple[int, ...], players: int) -> Iterator[Completion]:
    if len(rolled) == players:
        after = engine.state()
        if after["round"] == before["round"] + 1 and after["phase"] == "round":
            change = tuple(a - b for a, b in zip(after["scores"], before["scores"], strict=True))
            yield rolled, change, after["round_starter"]
        return
    for face in faces:
        child = engine.clone()
        _roll(child, face)
        yield from _complete(child, faces, before, (*rolled, face), players)


def prefix_classes(start: DadoDeOuro, k: int) -> int:
    """Return how many prefixes of ``k`` rolls differ in what their tie-free completions do."""
    faces = list(start.config.parameters["die_faces"])
    classes: set[frozenset[tuple[tuple[int, ...], tuple[int, ...], int]]] = set()
    for prefix in _prefixes(faces, k):
        classes.add(frozenset((rolled[k:], change, nxt)
                              for rolled, change, nxt in completions(start, prefix)))
    return len(classes)


def _prefixes(faces: list[int], k: int) -> Iterator[tuple[int, ...]]:
    if k == 0:
        yield ()
        return
    for rest in _prefixes(faces, k - 1):
        for face in faces:
            yield (*rest, face)


def count(parameters: dict[str, Any], rulings: dict[str, str], rounds: int,
          out: Any = sys.stderr) -> dict[str, Any]:
    """Return the bound's figures for ``rounds`` rounds of one game; progress goes to ``out``."""
    players = _engine(parameters, rulings).players
    starts = {s: round_start(parameters, rulings, s) for s in range(players)}
    table = {s: sorted({(change, nxt) for _, change, nxt in completions(starts[s])})
             for s in starts}
    inside = {s: [prefix_classes(starts[s], k) for k in range(1, players)] for s in starts}
    reach = max(max(abs(c) for change, _ in table[s] for c in change) for s in table)
    base = 2 * reach * rounds + 1
    if base ** players * players >= 2 ** 62:
        raise SystemExit("ddo_state_bound: the scores do not fit the encoding; fewer rounds")
    weights = np.array([base ** i for i in range(players)], dtype=np.int64)
    # Round-start states by their starter: each seat's score shifted so the least is 0, encoded
    # as one integer (score of seat i times base**i). Every seat can win the opening roll; the
    # bound follows the lowest alone (a lower bound needs no more).
    front = {min(starts): np.zeros(1, dtype=np.int64)}
    per_round = [sum(len(v) for v in front.values())]
    within = 0
    started = time.perf_counter()
    for r in range(1, rounds + 1):
        within += sum(len(front[s]) * sum(inside[s]) for s in front)
        found: dict[int, list[np.ndarray]] = {}
        for s, codes in front.items():
            scores = _decode(codes, base, players)
            for change, nxt in table[s]:
                moved = scores + np.array(change, dtype=np.int64)
                moved -= moved.min(axis=1, keepdims=True)
                found.setdefault(nxt, []).append(np.unique(moved @ weights))
        front = {s: np.unique(np.concatenate(parts)) for s, parts in found.items()}
        per_round.append(sum(len(v) for v in front.values()))
        print(f"round {r}/{rounds}: {per_round[-1]:,} round-start states "
              f"({time.perf_counter() - started:.0f} s)", file=out, flush=True)
    boundary = sum(per_round)
    return {"players": players, "rounds": rounds,
            "die_faces": list(starts[0].config.parameters["die_faces"]),
            "round_start_states": per_round, "boundary": boundary, "within": within,
            "total": boundary + within, "symmetric": (boundary + within) // players,
            "inside_classes": {s: inside[s] for s in sorted(inside)},
            "tie_free_changes": {s: len(table[s]) for s in sorted(table)}}


def _decode(codes: np.ndarray, base: int, players: int) -> np.ndarray:
    out = np.empty((len(codes), players), dtype=np.int64)
    rest = codes.copy()
    for i in range(players):
        out[:, i] = rest % base
        rest //= base
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, help="rounds of the game (default: the spec's)")
    parser.add_argument("--faces", help="die faces, comma-separated (default: the spec's)")
    parser.add_argument("--ruling", action="append", default=[], metavar="ID=OPTION")
    parser.add_argument("--states-per-second", type=float, default=0.0,
                        help="a search's distinct states per second, to turn the bound into time")
    args = parser.parse_args(argv)
    parameters: dict[str, Any] = {"games_to_win": 1}
    if args.faces:
        parameters["die_faces"] = [int(f) for f in args.faces.split(",")]
    rulings = dict(item.split("=", 1) for item in args.ruling)
    rounds = args.rounds or _engine(parameters, rulings).config.parameters["rounds_per_game"]
    figures = count(parameters, rulings, rounds)
    print(f"Dado de Ouro, {figures['players']} players, die {figures['die_faces']}, {rounds} "
          f"rounds, one game; at least:")
    print(f"  {figures['boundary']:,} states at the starts of rounds")
    print(f"  {figures['within']:,} states inside rounds (prefix classes per starter: "
          f"{figures['inside_classes']})")
    print(f"  {figures['total']:,} in all; {figures['symmetric']:,} even if seat symmetry "
          f"merged every rotation")
    if args.states_per_second > 0:
        minutes = figures["symmetric"] / args.states_per_second / 60
        print(f"  at {args.states_per_second:,.0f} states/s, the symmetric bound alone takes "
              f"{minutes:,.0f} minutes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
