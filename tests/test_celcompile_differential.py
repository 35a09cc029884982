"""Compiled CEL against the ``cel`` library: every expression of every spec (invariants and their
coverage premises, events, coverage scopes, rule-example expectations and ``until`` conditions),
evaluated both ways on the states of the golden traces and of seeded random reference games.

Where the compiled fast path gives a value it must be the library's, type included (``1`` is not
``true``); on these states it must never hand a case to the library that the library evaluates
without error (that would be a slow path in the kit's every step)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import cel
import pytest
import yaml

from rulespec.conformance.play.coverage import fields_read, premise_of, slim
from rulespec.examples.run import odds
from rulespec.reference.core import CHANCE, Config, Engine, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.reference.trace import read_trace
from rulespec.spec.expressions import (
    FUNCTIONS,
    Expression,
    ExpressionError,
    compile_expression,
    make_context,
)
from rulespec.spec.registry import game_ids, get_spec
from tests.support import same_json

ROOT = Path(__file__).resolve().parent.parent
EVERYTHING = ("state", "prev", "action", "params", "config", "before", "after", "result",
              "legal", "actor", "odds")


@cache
def expressions(game: str) -> tuple[Expression, ...]:
    """Every CEL expression the spec and the rule examples of ``game`` hold."""
    spec = get_spec(game)
    sources: list[str] = []
    for inv in spec.section("invariants"):
        sources.append(str(inv["expression"]))
        premise = premise_of(str(inv["expression"]))
        if premise is not None:
            sources.append(premise)
    sources += [str(e["when"]) for e in spec.section("events")]
    sources += [str(e[key]) for e in spec.section("coverage") for key in ("when", "seek")
                if key in e]  # a coverage entry may have either (a seek hint has no when)
    path = ROOT / "specs" / "examples" / f"{game}.yaml"
    if path.exists():
        for ex in yaml.safe_load(path.read_text(encoding="utf-8")).get("examples", []):
            sources += [str(e["that"]) for e in ex["expect"]]
            sources += [str(m["until"]) for part in ("setup", "steps")
                        for m in ex.get(part) or [] if "until" in m]
    exprs = tuple(compile_expression(s, EVERYTHING) for s in dict.fromkeys(sources))
    assert all(e.fast is not None for e in exprs), "the compiler must cover every spec expression"
    return exprs




def check(expr: Expression, variables: Mapping[str, Any], context: Any, *,
          public: bool) -> None:
    """The fast path agrees with the library (and so does the public evaluation, if asked)."""
    try:
        ok, want = True, expr.program.execute(context)
    except Exception as exc:
        ok, want = False, str(exc)
    assert expr.fast is not None
    try:
        got = expr.fast(variables)
    except Exception as exc:
        assert not ok, (f"{expr.source!r} fell back to the library needlessly "
                        f"({type(exc).__name__}: {exc}); the library gives {want!r}")
    else:
        assert ok, f"{expr.source!r} gave {got!r} but the library fails: {want}"
        assert same_json(got, want), f"{expr.source!r}: compiled {got!r}, library {want!r}"
    if not public:
        return
    for evaluate in (expr.evaluate, lambda v: expr.evaluate_in(make_context(v))):
        try:
            value = evaluate(variables)
        except ExpressionError as exc:
            assert not ok and str(exc) == f"{expr.source!r} failed: {want}"
        else:
            assert ok and same_json(value, want)


def steps(engine: Engine, actions: Iterator[Any]) -> Iterator[dict[str, Any]]:
    """Yield the variables of every position of a game (the initial one first)."""
    cfg = engine.config.to_json()
    params = dict(engine.config.parameters)
    before: dict[str, Any] | None = None
    action: Any = None
    while True:
        state = engine.state()
        actor = engine.current_player()
        variables = {"state": state, "prev": before if before is not None else state,
                     "before": before if before is not None else state, "after": state,
                     "action": dict(action) if action is not None else {"kind": "none"},
                     "params": params, "config": cfg, "result": engine.result(),
                     "legal": engine.legal_actions(), "actor": actor,
                     "odds": odds(engine.chance_outcomes()) if actor == CHANCE else []}
        yield variables
        action = next(actions, None)
        if action is None:
            return
        before = state
        engine.apply(action)


def random_actions(engine: Engine, rng: random.Random, limit: int) -> Iterator[Any]:
    for _ in range(limit):
        legal = engine.legal_actions()
        if not legal:
            return
        yield rng.choice(legal)


def check_game(game: str, positions: Iterator[dict[str, Any]], every: int) -> int:
    """Check every expression on every ``every``-th position; return how many were checked."""
    exprs = expressions(game)
    whens = {str(ev["when"]) for ev in get_spec(game).section("events")}
    events = [e for e in exprs if e.source in whens]
    n = 0
    for i, variables in enumerate(positions):
        if i % every:
            continue
        context = cel.Context(dict(variables), dict(FUNCTIONS))
        for expr in exprs:
            check(expr, variables, context, public=n % 4 == 0)
        for expr in events:  # the coverage watcher reads slimmed states: missing keys fail
            fields = fields_read(expr.source, ("before", "after"))
            slimmed = {**variables, "before": slim(variables["before"], fields),
                       "after": slim(variables["after"], fields)}
            check(expr, slimmed, cel.Context(slimmed, dict(FUNCTIONS)), public=True)
        n += 1
    return n


#: Positions checked per game in the default run (the slow test checks every one).
SAMPLES = 8
TRACES = sorted((ROOT / "conformance" / "traces").glob("*.jsonl"))


@pytest.mark.parametrize("path", TRACES, ids=[p.stem for p in TRACES])
def test_every_expression_agrees_on_the_golden_traces(path: Path) -> None:
    trace = read_trace(path)
    spec = get_spec(trace.game)
    engine = engine_class(spec)(spec, config_from_json(spec, trace.config))
    actions = iter([s.action for s in trace.steps])
    every = max(1, len(trace.steps) // SAMPLES)
    assert check_game(trace.game, steps(engine, actions), every) > 1


@pytest.mark.slow
def test_every_expression_agrees_on_every_position_of_the_golden_traces() -> None:
    for path in TRACES:
        trace = read_trace(path)
        spec = get_spec(trace.game)
        engine = engine_class(spec)(spec, config_from_json(spec, trace.config))
        check_game(trace.game, steps(engine, iter([s.action for s in trace.steps])), 1)


@pytest.mark.parametrize("game", game_ids())
def test_every_expression_agrees_on_random_games(game: str) -> None:
    spec = get_spec(game)
    rng = random.Random(f"celc-{game}")
    for players in sorted({spec.min_players, spec.max_players}):
        config: Config = config_from_json(spec, {"game": game, "players": players})
        engine = engine_class(spec)(spec, config)
        check_game(game, steps(engine, random_actions(engine, rng, 400)), 400 // SAMPLES)
