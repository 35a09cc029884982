"""Check ``EXAMPLE``: the spec's rule examples, run on the engine under test over the protocol.

An example is expanded on the reference into the actions from the start of a game (its setup
words force the chance outcomes), so it runs on any engine at every conformance level. The
engine must accept every move the reference accepts, refuse every move the example marks
illegal, and after the steps every expectation must hold over the engine's own state, legal
actions and result. A failure names the example, its clauses and the sentence of the rule.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.adapters import Adapter
from rulespec.conformance.checks import Failure, RunResult
from rulespec.conformance.levels import projection
from rulespec.conformance.protocol import EngineError, EngineFailure
from rulespec.examples.model import Example, ExampleFile, load_examples
from rulespec.examples.position import Move
from rulespec.examples.run import Outcome, as_trace, check_expectations, odds, run_example
from rulespec.reference.core import ConfigError, config_from_json
from rulespec.spec.model import Spec

CHECK = "EXAMPLE"


def run_rule_examples(adapter: Adapter, spec: Spec, file: ExampleFile | None = None, *,
                      rulings: Mapping[str, str] | None = None,
                      trace_dir: Path | None = None,
                      newer: Callable[[Mapping[str, Any]], str | None] | None = None
                      ) -> RunResult:
    """Run every rule example the engine supports; one failure per failing example.

    Examples whose configuration contradicts the ``rulings`` the kit was asked to check under
    are left out, and so are those under rulings or variants the engine does not declare. An
    engine that breaks the protocol stops the examples (the configuration runs report it).

    ``newer(config)`` says why a configuration needs more than the release the engine is
    checked as; those examples are left out and their ids listed in the result's ``newer``.

    With ``trace_dir``, each failing example is written there as a trace with its expectations
    as expect lines (``rulespec replay`` runs it on the reference; an engine can replay it too).
    """
    file = load_examples(spec) if file is None else file
    result = RunResult({"game": spec.game_id, "rule_examples": len(file.examples)})
    started = time.perf_counter()
    try:
        hello = adapter.hello()
    except EngineFailure as exc:
        result.skipped = f"the engine did not say hello: {exc}"
        return result
    asked = dict(rulings or {})
    for example in file.examples:
        config = config_from_json(spec, example.config_json(spec.game_id)).to_json()
        if any(config["rulings"].get(a) != o for a, o in asked.items()):
            continue
        if newer is not None and newer(config):
            result.newer.append(example.id)
            continue
        if hello.supports(spec.game_id, config["rulings"], config["variants"],
                          players=config["players"], parameters=config["parameters"]):
            continue
        outcome = run_example(spec, example, words_module=file.vocabulary)
        if not outcome.ok:
            continue  # the reference's own tests report it; an engine is not blamed for it
        try:
            failure = _run_one(adapter, example, outcome, config, spec,
                               hello.level(spec.game_id))
        except EngineFailure as exc:
            result.skipped = f"the engine failed during rule example {example.id}: {exc}"
            break
        result.examples += 1
        result.steps += len(outcome.setup) + len(outcome.steps)
        if failure is not None:
            result.failures.append(_with_trace(spec, failure, outcome, trace_dir))
    if not file.examples and result.skipped is None:
        result.skipped = f"the game has no rule examples (none in {file.path})"
    elif not result.examples and result.skipped is None:
        wanted = ", ".join(f"{a}={o}" for a, o in sorted(asked.items()))
        result.skipped = ("no rule example fits the engine's declared rulings and variants"
                          + (f" under {wanted}" if wanted else ""))
    result.seconds = time.perf_counter() - started
    return result


def _with_trace(spec: Spec, failure: Failure, outcome: Outcome,
                trace_dir: Path | None) -> Failure:
    if trace_dir is None:
        return failure
    # A folder of their own: these traces hold on the reference (they show what the rules
    # demand), unlike the minimal failing games beside them, which the reference refuses.
    folder = trace_dir / "examples"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec.game_id}-{outcome.example.id}.jsonl"
    as_trace(spec, outcome).write(path)
    return replace(failure, trace=str(path))


def _run_one(adapter: Adapter, example: Example, outcome: Outcome,
             config: Mapping[str, Any], spec: Spec, level: str) -> Failure | None:
    moves = [*outcome.setup, *outcome.steps]
    done: list[tuple[Any, Mapping[str, Any]]] = []

    def fail(message: str) -> Failure:
        return Failure(CHECK, example.clauses, f"example {example.id} ({example.title}): "
                       f"{message}", dict(config), step=len(done), actions=tuple(done),
                       subject=example.id)

    try:
        adapter.start(config)
        prev: dict[str, Any] = adapter.state()
        for i, move in enumerate(moves):
            if i == len(outcome.setup):
                prev = adapter.state()
            problem = _play(adapter, move)
            if problem is not None:
                return fail(f"move {i + 1}: {problem}")
            if move.kind == "apply":
                done.append((move.actor, move.action))
        if not outcome.steps:
            prev = adapter.state()
        state = adapter.state()
        legal = adapter.legal()
    except (EngineError, ConfigError) as exc:
        return fail(f"the engine refused: {exc}")
    observe = projection(spec, level)
    variables = {"state": observe(state), "prev": observe(prev), "result": state.get("result"),
                 "legal": legal.actions, "actor": legal.actor,
                 "odds": odds(list(zip(legal.actions, legal.probabilities or [], strict=False)))}
    failed, why = check_expectations(example.expect, variables, level=level)
    return None if failed is None else fail(why)


def _play(adapter: Adapter, move: Move) -> str | None:
    """Play one move; say what went wrong (None when the engine did as the rules demand)."""
    if move.kind == "refuse":
        before = adapter.state()
        rejection = adapter.apply(move.action)
        if rejection is None:
            return f"{move.action!r} was accepted, but the rules forbid it here"
        if adapter.state() != before:
            return f"refusing {move.action!r} changed the state"
        return None
    rejection = adapter.apply(move.action)
    if rejection is not None:
        return f"{move.action!r} was refused ({rejection.reason}), but the rules allow it here"
    return None

