"""Check ``EXAMPLE``: the spec's rule examples, run on the engine under test over the protocol.

An example is expanded on the reference into the actions from the start of a game (its setup
words force the chance outcomes), so it runs on any engine at every conformance level. The
engine must accept every move the reference accepts, refuse every move the example marks
illegal, and after the steps every expectation must hold over the engine's own state, legal
actions and result. A failure names the example, its clauses and the sentence of the rule, and
(like a failure in play) the ruling under which the reference does what the engine did, if one
does.

Only examples the run may send are played: inside the scope asked (``-n``, ``--ruling``...),
declared by the engine's hello (players, rulings, variants, parameters), and no newer than the
release the engine is checked as. The others are counted, with the reason and the ``hello``
lines that would let them run (``hello_additions``).

Two parameter rules keep the examples within reach of simple engines:

- an example that sets a parameter the engine does not declare to the value the spec prints
  (its default for that configuration) is sent without the override: the engine runs at the
  printed default, which is what the example asks;
- an engine that declares a release from before hello had ``parameters``
  (``scope.PARAMETERS_IN_HELLO``) and declares none is sent the examples' overrides, as the kit
  of its release did (``ExampleRun.legacy_parameters`` says why).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import (
    ConfigRefused,
    EngineError,
    EngineFailure,
    EngineTimeout,
    Hello,
    Legal,
)
from rulespec.conformance.explain.inference import Evidence, Reference, explain
from rulespec.conformance.judging import causes
from rulespec.conformance.judging.budget import Budget
from rulespec.conformance.judging.checks import Failure, RunResult
from rulespec.conformance.judging.divergence import divergence_text, first_divergence
from rulespec.conformance.judging.levels import projection
from rulespec.conformance.judging.scope import Scope, hello_wants, needs, refusal
from rulespec.conformance.play.tracefile import failure_record
from rulespec.examples.model import Example, ExampleFile, load_examples
from rulespec.examples.position import Move
from rulespec.examples.run import Outcome, as_trace, check_expectations, odds, run_example
from rulespec.reference.core import Config, ConfigError, config_from_json
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.statediff import StateSchema

CHECK = "EXAMPLE"


@dataclass
class ExampleRun:
    """How the kit runs the rule examples: what it may play, and what it does with a failure."""

    #: The scope asked; the kit's ``--ruling`` pairs alone when None.
    scope: Scope | None = None
    #: Says why a configuration needs more than the release the engine is checked as.
    newer: Callable[[Mapping[str, Any]], str | None] | None = None
    #: Stops the examples when the budget is spent or ``-x`` stopped the run.
    budget: Budget = field(default_factory=Budget)
    #: With ``trace_dir``, each failing example is written there as a trace with its
    #: expectations as expect lines (``rulespec replay`` runs it on the reference).
    trace_dir: Path | None = None
    #: Told each failure as soon as it is confirmed.
    on_failure: Callable[[Failure], Failure] | None = None
    #: The reference a failing example is replayed on, to find where the engine first departs
    #: from it and which ruling it follows (None: neither is looked for).
    reference: Reference | None = None
    #: Name the ruling the engine follows when one explains a failure; its seconds.
    infer: bool = True
    infer_seconds: float = 10.0
    #: Set when the engine stopped answering (a timeout) during an example.
    dead: str | None = None
    #: The rulings that explained failures so far (tried first; found ones are added).
    known: list[dict[str, str]] = field(default_factory=list)
    #: Why the engine is sent the examples' parameter overrides although its hello declares no
    #: parameters (its release predates hello's ``parameters``: ``scope.legacy_parameters``);
    #: None: it is sent only the overrides it declares.
    legacy_parameters: str | None = None


def run_rule_examples(adapter: Adapter, spec: Spec, file: ExampleFile | None = None, *,
                      rulings: Mapping[str, str] | None = None,
                      trace_dir: Path | None = None,
                      newer: Callable[[Mapping[str, Any]], str | None] | None = None,
                      how: ExampleRun | None = None) -> RunResult:
    """Run every rule example the engine supports; one failure per failing example.

    ``rulings`` (the kit's ``--ruling`` pairs) and ``trace_dir``/``newer`` are shortcuts for
    ``how``'s fields. Examples outside the scope, under what the engine does not declare, or
    newer than the release it is checked as are left out and counted. An engine that breaks
    the protocol stops the examples (the configuration runs report it).
    """
    how = how or ExampleRun(scope=Scope(rulings=dict(rulings or {})), newer=newer,
                            trace_dir=trace_dir)
    scope = how.scope or Scope()
    file = load_examples(spec) if file is None else file
    result = RunResult({"game": spec.game_id, "rule_examples": len(file.examples)})
    started = time.perf_counter()
    try:
        hello = adapter.hello()
    except EngineFailure as exc:
        result.skipped = f"the engine did not say hello: {exc}"
        return result
    runner = _Runner(adapter, spec, file, hello, how)
    at_default: list[dict[str, str]] = []
    sent_anyway: list[str] = []
    for example in file.examples:
        if how.budget.skip("rule examples"):
            result.cut = how.budget.why
            break
        resolved = config_from_json(spec, example.config_json(spec.game_id))
        config = resolved.to_json()
        outside = scope.outside(resolved)
        if outside is not None:
            result.outside_scope.append({"id": example.id, "why": f"outside the scope asked "
                                         f"({scope.text()}): {outside}"})
            continue
        if how.newer is not None and how.newer(config):
            result.newer.append(example.id)
            continue
        config, defaulted = _at_printed_default(spec, hello, config)
        legacy = (how.legacy_parameters is not None and config["parameters"]
                  and "parameters" not in (hello.games.get(spec.game_id) or {}))
        unsupported = hello.supports(spec.game_id, config["rulings"], config["variants"],
                                     players=config["players"],
                                     parameters={} if legacy else config["parameters"])
        if unsupported:
            result.undeclared.append({"id": example.id, "why": "; ".join(unsupported),
                                      "needs": ", ".join(needs(u) for u in unsupported),
                                      "wants": hello_wants(spec, hello, config,
                                                         legacy=bool(legacy))})
            continue
        if defaulted:
            at_default.append({"id": example.id, "needs": ", ".join(defaulted)})
        if legacy:
            sent_anyway.append(example.id)
        outcome = run_example(spec, example, words_module=file.vocabulary)
        if not outcome.ok:
            continue  # the reference's own tests report it; an engine is not blamed for it
        try:
            failure = runner.run(example, outcome, config, resolved)
        except EngineFailure as exc:
            result.skipped = f"the engine failed during rule example {example.id}: {exc}"
            if isinstance(exc, EngineTimeout):
                how.dead = (f"the engine stopped answering in rule example {example.id} "
                            f"({str(exc).split(';')[0]})")
            break
        result.examples += 1
        result.steps += len(outcome.setup) + len(outcome.steps)
        if failure is not None:
            result.failures.append(failure)
    if not file.examples and result.skipped is None:
        result.skipped = f"the game has no rule examples (none in {file.path})"
    elif not result.examples and result.skipped is None and result.cut is None:
        wanted = ", ".join(f"{a}={o}" for a, o in sorted(scope.rulings.items()))
        result.skipped = ("no rule example fits the engine's declared rulings and variants"
                          + (f" under {wanted}" if wanted else ""))
    result.seconds = time.perf_counter() - started
    # How the parameters were sent, for the report (``rulespec.conformance.reports.report``).
    extra: dict[str, Any] = {}
    if at_default:
        extra["at_printed_default"] = at_default
    if sent_anyway and how.legacy_parameters is not None:
        extra["parameters_sent_undeclared"] = {"examples": sent_anyway,
                                               "why": how.legacy_parameters}
    if extra:
        result.config = {**result.config, **extra}
    return result


def _at_printed_default(spec: Spec, hello: Hello,
                        config: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Return ``config`` without the overrides, of parameters the engine does not declare, that
    set the value the spec prints for it anyway (and those overrides, ``NAME=VALUE``)."""
    declared = (hello.games.get(spec.game_id) or {}).get("parameters") or {}
    overrides = dict(config.get("parameters") or {})
    dropped = []
    for name, value in sorted(overrides.items()):
        if name in declared:
            continue
        rest = {k: v for k, v in overrides.items() if k != name}
        try:
            printed = config_from_json(spec, {**config, "parameters": rest}).parameters.get(name)
        except ConfigError:
            continue
        if _json(printed) == _json(value):
            overrides = rest
            dropped.append(f"{name}={_json(value)}")
    if not dropped:
        return config, []
    return {**config, "parameters": overrides}, dropped


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass
class _Seen:
    """What the engine did in one example: every move tried (accepted or refused), and its
    state and legal actions where it stopped."""

    moves: list[tuple[Any, Any]] = field(default_factory=list)
    refused: set[int] = field(default_factory=set)
    state: dict[str, Any] | None = None
    legal: Legal | None = None


class _Runner:
    """Runs examples on one engine; explains each new cause of failure once."""

    def __init__(self, adapter: Adapter, spec: Spec, file: ExampleFile, hello: Hello,
                 how: ExampleRun) -> None:
        self.adapter, self.spec, self.file, self.hello, self.how = adapter, spec, file, hello, how
        self.level = hello.level(spec.game_id)
        self.schema = StateSchema.of(spec)
        #: Examples that passed, by configuration (evidence for the ruling inference).
        self.passed: dict[str, list[Example]] = {}

    def run(self, example: Example, outcome: Outcome, config: Mapping[str, Any],
            resolved: Config) -> Failure | None:
        seen = _Seen()
        failure = _run_one(self.adapter, example, outcome, config, self.spec, self.level, seen,
                           self.hello)
        key = causes.canonical(config)
        if failure is None:
            self.passed.setdefault(key, []).append(example)
            return None
        failure = self._diverged(failure, outcome, config, resolved)
        failure = self._explain(failure, seen, resolved, key)
        failure = _with_trace(self.spec, failure, outcome, self.how.trace_dir)
        failure = replace(failure, found_after=self.how.budget.elapsed())
        if self.how.on_failure is not None:
            failure = self.how.on_failure(failure)
        return failure

    def _diverged(self, failure: Failure, outcome: Outcome, config: Mapping[str, Any],
                  resolved: Config) -> Failure:
        """Play the example again, reading the engine's state after every move, and name the
        first position where it differs from the reference's (``divergence``)."""
        if self.how.reference is None or self.level == "none":
            return failure
        moves = [m.action for m in (*outcome.setup, *outcome.steps)]
        states: list[Any] = []
        refused: set[int] = set()
        try:
            self.adapter.start(config)
            states.append(self.adapter.state())
            for i, action in enumerate(moves):
                if self.adapter.apply(action) is not None:
                    refused.add(i)
                states.append(self.adapter.state())
        except (EngineError, ConfigError):
            pass  # compared as far as the engine went
        found = first_divergence(self.spec, self.how.reference, resolved, moves, states,
                                 projection(self.spec, self.level), self.schema,
                                 frozenset(refused))
        if found is None:
            return failure
        at, changes = found
        return replace(failure, diff=tuple(c.to_json() for c in changes),
                       message=f"{failure.message}; {divergence_text(at, changes)}")

    def _explain(self, failure: Failure, seen: _Seen, resolved: Config, key: str) -> Failure:
        """Name the ruling the engine follows, if one reproduces what it did (at the full level
        only); the rulings that explained earlier failures are tried first."""
        how = self.how
        if (how.reference is None or not how.infer or self.level != "full"
                or not self.spec.ambiguities
                or causes.cause_of(failure).startswith("refused the configuration")):
            return failure
        n = len(seen.moves)
        evidence = Evidence(tuple(a for _, a in seen.moves), (*([None] * n), seen.state),
                            (*([None] * n), seen.legal), frozenset(seen.refused))
        passing = self.passed.get(key, [])

        def also(override: Mapping[str, str]) -> bool:
            return all(run_example(self.spec, ex, words_module=self.file.vocabulary,
                                   rulings={**resolved.rulings, **override}).ok
                       for ex in passing)

        reference = how.reference
        try:
            matches, note = explain(self.spec, reference, resolved, [evidence],
                                    budget=how.budget.allow(how.infer_seconds), also=also,
                                    known=how.known)
        except RulespecError:
            return failure
        how.known.extend(m for m in matches if m not in how.known)
        return replace(failure, matches=tuple(matches), inference=note)


def _with_trace(spec: Spec, failure: Failure, outcome: Outcome,
                trace_dir: Path | None) -> Failure:
    if trace_dir is None:
        return failure
    # A folder of their own: these traces hold on the reference (they show what the rules
    # demand), unlike the minimal failing games beside them, which the reference refuses.
    folder = trace_dir / "examples"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{spec.game_id}-{outcome.example.id}.jsonl"
    replace(as_trace(spec, outcome), failure=failure_record(failure)).write(path)
    return replace(failure, trace=str(path))


def _run_one(adapter: Adapter, example: Example, outcome: Outcome, config: Mapping[str, Any],
             spec: Spec, level: str, seen: _Seen, hello: Hello) -> Failure | None:
    moves = [*outcome.setup, *outcome.steps]
    done: list[tuple[Any, Mapping[str, Any]]] = []

    def fail(message: str, cause: str | None = None) -> Failure:
        try:
            seen.state, seen.legal = adapter.state(), adapter.legal()
        except (EngineError, ConfigError):
            seen.state, seen.legal = None, None
        return Failure(CHECK, example.clauses, f"example {example.id} ({example.title}): "
                       f"{message}", dict(config), step=len(done), actions=tuple(done),
                       subject=example.id, cause=cause)

    try:
        adapter.start(config)
    except ConfigError as exc:
        says = exc.engine_says if isinstance(exc, ConfigRefused) else str(exc)
        return Failure(CHECK, example.clauses, refusal(
            spec, hello, config, says, f"rule example {example.id}"), dict(config),
            step=0, subject=example.id, cause=causes.refused_config(says))
    try:
        prev: dict[str, Any] = adapter.state()
        for i, move in enumerate(moves):
            if i == len(outcome.setup):
                prev = adapter.state()
            seen.moves.append((move.actor, move.action))
            problem = _play(adapter, move, seen)
            if problem is not None:
                return fail(f"move {i + 1}: {problem[0]}", problem[1])
            if move.kind == "apply":
                done.append((move.actor, move.action))
        if not outcome.steps:
            prev = adapter.state()
        state = adapter.state()
        legal = adapter.legal()
    except (EngineError, ConfigError) as exc:
        return fail(f"the engine refused: {exc}")
    seen.state, seen.legal = state, legal
    observe = projection(spec, level)
    variables = {"state": observe(state), "prev": observe(prev), "result": state.get("result"),
                 "legal": legal.actions, "actor": legal.actor,
                 "odds": odds(list(zip(legal.actions, legal.probabilities or [], strict=False)))}
    failed, why = check_expectations(example.expect, variables, level=level)
    return None if failed is None else Failure(
        CHECK, example.clauses, f"example {example.id} ({example.title}): {why}", dict(config),
        step=len(done), actions=tuple(done), subject=example.id,
        expected={"that": failed.that, "because": failed.because, "holds": True},
        actual={"that": failed.that, "holds": False, "state": variables["state"],
                "legal": legal.to_json()})


def _play(adapter: Adapter, move: Move, seen: _Seen) -> tuple[str, str] | None:
    """Play one move; say what went wrong and its cause (None when the engine did as the rules
    demand)."""
    if move.kind == "refuse":
        before = adapter.state()
        rejection = adapter.apply(move.action)
        if rejection is None:
            return (f"{move.action!r} was accepted, but the rules forbid it here",
                    causes.accepted_illegal(move.action))
        seen.refused.add(len(seen.moves) - 1)
        if adapter.state() != before:
            return (f"refusing {move.action!r} changed the state",
                    causes.refusal_changed_state(move.action))
        return None
    rejection = adapter.apply(move.action)
    if rejection is not None:
        seen.refused.add(len(seen.moves) - 1)
        return (f"{move.action!r} was refused ({rejection.reason}), but the rules allow it here",
                causes.refused_legal(move.action, rejection.reason))
    return None
