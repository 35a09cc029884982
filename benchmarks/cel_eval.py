"""Evaluate a spec's expressions on one position: the ``cel`` library against the compiled closures.

For each game, a seeded random game on the reference engine is stopped part-way; on that position
(and the one before it) every invariant is evaluated, as the kit does on every checked state, and
every event ``when``, as the coverage watcher does on every step. Two ways, interleaved round after
round so a busy machine slows both alike, in CPU time (``time.process_time``):

- **library**: one ``cel.Context`` built from the variables, then each expression's program;
- **compiled**: ``make_context`` and ``Expression.evaluate_in`` (the closures ``celcompile``
  generates; the library only where a closure hands over).

Run: ``python benchmarks/cel_eval.py [GAME]... [--seconds S] [--rounds N] [--at STEP]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from functools import partial
from typing import Any

import cel

from rulespec.reference.core import config_from_json
from rulespec.reference.registry import engine_class
from rulespec.spec.celcompile import STATS
from rulespec.spec.expressions import FUNCTIONS, Expression, compile_expression, make_context
from rulespec.spec.registry import game_ids, get_spec
from rulespec.spec.validate import EVENT_VARIABLES, INVARIANT_VARIABLES


def position(game: str, at: int, seed: int) -> dict[str, Any]:
    """Return the variables of the position after ``at`` random actions (fewer if it ends)."""
    spec = get_spec(game)
    config = config_from_json(spec, {"game": game, "players": spec.max_players})
    engine = engine_class(spec)(spec, config)
    rng = random.Random(seed)
    before, action = engine.state(), None
    for _ in range(at):
        legal = engine.legal_actions()
        if not legal:
            break
        before, action = engine.state(), rng.choice(legal)
        engine.apply(action)
    after = engine.state()
    return {"state": after, "prev": before, "before": before, "after": after,
            "action": dict(action or {"kind": "none"}), "params": dict(config.parameters),
            "config": config.to_json()}


def expressions(game: str) -> list[Expression]:
    """Return the game's invariants and event conditions, compiled."""
    spec = get_spec(game)
    invs = [compile_expression(str(i["expression"]), INVARIANT_VARIABLES[str(i["scope"])])
            for i in spec.section("invariants") if i["scope"] != "terminal"]
    return invs + [compile_expression(str(e["when"]), EVENT_VARIABLES)
                   for e in spec.section("events")]


def library(exprs: Sequence[Expression], variables: Mapping[str, Any]) -> None:
    context = cel.Context(dict(variables), dict(FUNCTIONS))
    for e in exprs:
        with suppress(Exception):  # the same failures cost the same both ways
            e.program.execute(context)


def compiled(exprs: Sequence[Expression], variables: Mapping[str, Any]) -> None:
    context = make_context(variables)
    for e in exprs:
        with suppress(Exception):
            e.evaluate_in(context)


def per_call(fn: Callable[[], None], seconds: float) -> tuple[float, int]:
    """Return CPU seconds per call of ``fn`` over about ``seconds`` of CPU, and the calls."""
    n, start = 0, time.process_time()
    while True:
        fn()
        n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return spent / n, n


def main(argv: Sequence[str] | None = None) -> int:
    """Print, per game, the CPU time of one position's evaluations both ways and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=None)
    ap.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per way and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--at", type=int, default=40, help="random actions before the position")
    args = ap.parse_args(argv)
    games = args.games or game_ids()
    print(f"{'game':14} {'expressions':>11} {'library µs':>11} {'compiled µs':>12} {'×':>6} "
          f"{'fallbacks':>9}")
    for game in games:
        exprs = expressions(game)
        variables = position(game, args.at, seed=0)
        best = {"library": float("inf"), "compiled": float("inf")}
        fallbacks = STATS["fallback"]
        calls = 0
        for _ in range(args.rounds):
            for name, way in (("library", library), ("compiled", compiled)):
                t, n = per_call(partial(way, exprs, variables), args.seconds)
                best[name] = min(best[name], t)
                calls += n if name == "compiled" else 0
        per_eval = (STATS["fallback"] - fallbacks) / max(calls, 1)
        print(f"{game:14} {len(exprs):>11} {best['library'] * 1e6:>11.1f} "
              f"{best['compiled'] * 1e6:>12.1f} {best['library'] / best['compiled']:>6.1f} "
              f"{per_eval:>9.2f}", flush=True)
    print(f"best of {args.rounds} round(s) of {args.seconds} s CPU per way; one position after "
          f"{args.at} seeded random actions at the largest player count; fallbacks: expressions "
          "per position the closures handed to the library")
    return 0


if __name__ == "__main__":
    sys.exit(main())
