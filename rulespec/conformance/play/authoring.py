"""Checks a game's own tests run on its reference: random games, rule examples, perft tables.

They are public (``rulespec.conformance``) so that a plugin's tests, Pig's or a scaffolded game's,
need nothing internal. Each returns the problems it found as sentences, ``[]`` when there are
none, so a test reads ``assert random_game_problems("pig", seed=0) == []`` and a failure prints
what broke and where.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import jsonschema

from rulespec.conformance.play import perft_tables
from rulespec.examples.model import load_examples
from rulespec.examples.run import judge_witnesses, run_examples
from rulespec.reference.play import playout
from rulespec.reference.registry import new_game
from rulespec.spec.invariants import Invariants
from rulespec.spec.registry import get_spec


def random_game_problems(game: str, *, seed: int, players: int | None = None,
                         rulings: Mapping[str, str] | None = None, variants: Sequence[str] = (),
                         parameters: Mapping[str, Any] | None = None,
                         max_steps: int = 200_000) -> list[str]:
    """Play one random game of the reference; return what broke the state schema or an
    invariant at the first step where something did, or that the game never ended."""
    spec = get_spec(game)
    engine = new_game(game, players=players, rulings=rulings, variants=variants,
                      parameters=parameters)
    invariants = Invariants(spec)
    validator = jsonschema.Draft202012Validator(spec.state_schema)
    config = engine.config.to_json()
    params = dict(engine.config.parameters)
    prev: dict[str, Any] | None = None
    action: dict[str, Any] | None = None
    steps = playout(engine, random.Random(seed), max_steps=max_steps)
    for n in range(max_steps + 1):
        state = engine.state()
        errors = sorted(validator.iter_errors(state), key=lambda e: list(e.absolute_path))
        where = f"{game} seed {seed}, step {n} (after {action!r}) under {config!r}"
        if errors:
            at = "/".join(str(p) for p in errors[0].absolute_path) or "the top"
            return [f"{where}: the state does not match the spec's state schema at {at}: "
                    f"{errors[0].message}"]
        broken = invariants.check(state, prev=prev, action=action, params=params, config=config)
        if broken:
            return [f"{where}: {v}" for v in broken]
        prev = state
        try:
            action = dict(next(steps).action)
        except StopIteration:
            return []
        except RuntimeError as exc:  # playout's "did not end within max_steps"
            return [f"{game} seed {seed}: {exc}"]
    return []


def rule_example_failures(game: str) -> list[str]:
    """Run the rule examples of ``game`` on the reference, and each witness under every option
    of its ambiguity; return the examples that fail and the witnesses that do not tell their
    option apart (a game without examples fails too, naming the file they go in)."""
    spec = get_spec(game)
    file = load_examples(spec)
    if not file.examples:
        return [f"{game} has no rule examples; write them in {file.path}"]
    failures = [o.describe() for o in run_examples(spec, file) if not o.ok]
    return failures + [v.problem() for v in judge_witnesses(spec, file) if not v.distinguishes]


def perft_differences(games: list[str] | None = None) -> list[str]:
    """Return what differs between the committed perft tables of ``games`` (all by default) and
    a fresh count of the reference; a missing file is a difference."""
    return perft_tables.differences(games)
