"""Run rule examples on the reference; check witnesses; measure clause coverage."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulespec.examples.errors import ExampleError
from rulespec.examples.model import Example, ExampleFile, Expectation, load_examples
from rulespec.examples.position import Driver, Move, vocabulary
from rulespec.reference.core import CHANCE, Action, ConfigError, Engine, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.reference.trace import Trace, recorded_steps
from rulespec.reference.trace_expect import TraceExpectation
from rulespec.spec.expressions import ExpressionError, compile_expression
from rulespec.spec.model import Spec


@dataclass(frozen=True)
class Outcome:
    """What running one example found."""

    example: Example
    ok: bool
    message: str
    #: The expectation that failed (None when all held, or the moves could not be made).
    failed: Expectation | None = None
    #: The setup and step moves, expanded into actions (all of them when the moves were made).
    setup: tuple[Move, ...] = ()
    steps: tuple[Move, ...] = ()

    def describe(self) -> str:
        """Return one line: the example, its clauses and what went wrong."""
        ex = self.example
        head = f"{ex.id} ({', '.join(ex.clauses)}) {ex.title!r}"
        if self.ok:
            return f"{head}: ok"
        return f"{ex.where}: {head}: {self.message}"


#: The variables that hold an engine's state, which an engine below the full conformance level
#: does not (entirely) expose.
_STATE_WORDS = re.compile(r"\b(state|prev)\b")


def check_expectations(expect: Sequence[Expectation], variables: Mapping[str, Any], *,
                       level: str = "full") -> tuple[Expectation | None, str]:
    """Return the first expectation that does not hold (and why), or (None, "").

    Below the ``full`` conformance level only what the engine exposes is checked: at ``none``
    an expectation about ``state`` or ``prev`` is not evaluated, and at ``observable`` one
    that cannot be evaluated (it reads a field the engine does not expose) is left out.
    """
    for exp in expect:
        if level == "none" and _STATE_WORDS.search(exp.that):
            continue
        try:
            value = compile_expression(exp.that, variables.keys()).evaluate(variables)
        except ExpressionError as exc:
            if level != "full":
                continue
            return exp, f"{exp.because} (the check could not be evaluated: {exc})"
        if value is not True:
            return exp, f"{exp.because} (expected {exp.that!r})"
    return None, ""


def variables(engine: Engine, prev: Mapping[str, Any]) -> dict[str, Any]:
    """Return the variables an expectation sees after the steps."""
    actor = engine.current_player()
    chance = engine.chance_outcomes() if actor == CHANCE else []
    return {"state": engine.state(), "prev": dict(prev), "result": engine.result(),
            "legal": engine.legal_actions(), "actor": actor, "odds": odds(chance)}


def odds(outcomes: Sequence[tuple[Action, Fraction]]) -> list[dict[str, Any]]:
    """Return chance outcomes as an expectation sees them: ``{"action": ..., "p": "1/3"}``."""
    return [{"action": a, "p": str(p)} for a, p in outcomes]


def run_example(spec: Spec, example: Example, *, words_module: str | None = None,
                rulings: Mapping[str, str] | None = None) -> Outcome:
    """Run ``example`` on the reference (``rulings`` laid over its own); say what held."""
    try:
        config = config_from_json(spec, example.config_json(spec.game_id, rulings))
        engine = engine_class(spec)(spec, config)
        driver = Driver(engine, vocabulary(words_module, spec.game_id))
        for move in example.setup:
            driver.run(move)
        prev = engine.state()
        setup = tuple(driver.moves)
        for move in example.steps:
            driver.run(move)
    except (ExampleError, ConfigError) as exc:
        return Outcome(example, False, f"the moves cannot be made: {exc}")
    steps = tuple(driver.moves[len(setup):])
    failed, why = check_expectations(example.expect, variables(engine, prev))
    if failed is not None:
        return Outcome(example, False, why, failed, setup, steps)
    return Outcome(example, True, "ok", None, setup, steps)


def run_examples(spec: Spec, file: ExampleFile | None = None) -> list[Outcome]:
    """Run every example of ``spec`` under its own configuration."""
    file = load_examples(spec) if file is None else file
    return [run_example(spec, ex, words_module=file.vocabulary) for ex in file.examples]


@dataclass(frozen=True)
class WitnessVerdict:
    """One witness run under every option of its ambiguity."""

    example: Example
    #: Option id -> the outcome under that option.
    outcomes: Mapping[str, Outcome]

    @property
    def distinguishes(self) -> bool:
        """Return True when it holds under its option and under no other."""
        w = self.example.witness
        return w is not None and all(o.ok == (opt == w.option) for opt, o in self.outcomes.items())

    def problem(self) -> str:
        """Say which options the witness does not tell apart."""
        w = self.example.witness
        if w is None:
            return f"{self.example.where}: {self.example.id} is not a witness"
        bad = [f"fails under its own option {opt!r}: {o.message}" if opt == w.option
               else f"also holds under {opt!r}"
               for opt, o in self.outcomes.items() if o.ok != (opt == w.option)]
        return f"{self.example.where}: witness {self.example.id} of {w.ambiguity}={w.option}: " + \
            "; ".join(bad)


def judge_witnesses(spec: Spec, file: ExampleFile | None = None) -> list[WitnessVerdict]:
    """Run every witness under every option of its ambiguity."""
    file = load_examples(spec) if file is None else file
    out = []
    for ex in file.examples:
        if ex.witness is None:
            continue
        options = [str(o["id"]) for o in spec.ambiguities[ex.witness.ambiguity]["options"]]
        outcomes = {opt: run_example(spec, ex, words_module=file.vocabulary,
                                     rulings={ex.witness.ambiguity: opt}) for opt in options}
        out.append(WitnessVerdict(ex, outcomes))
    return out


def options_without_witness(spec: Spec, file: ExampleFile) -> list[tuple[str, str]]:
    """Return every (ambiguity, option) that no example witnesses.

    Ambiguities whose options change nothing the game does (no parameters, no behaviour: a
    question about the text only) are left out: no play can tell their options apart.
    """
    have = {(e.witness.ambiguity, e.witness.option) for e in file.examples if e.witness}
    return [(aid, str(o["id"])) for aid, amb in spec.ambiguities.items()
            if not textual(amb)
            for o in amb["options"] if (aid, str(o["id"])) not in have]


def textual(ambiguity: Mapping[str, Any]) -> bool:
    """Return True when no option of ``ambiguity`` changes play (no parameters, no behaviour)."""
    return all(not o.get("parameters") and not o.get("behaviour") for o in ambiguity["options"])


def as_trace(spec: Spec, outcome: Outcome) -> Trace:
    """Return an example that ran as a trace: its actions with the reference's state before and
    after each, then its expectations as lines.

    Moves the example marks illegal are left out (a trace records only what was played).
    """
    played = [m for m in (*outcome.setup, *outcome.steps) if m.kind == "apply"]
    after = len(played)
    since = sum(1 for m in outcome.setup if m.kind == "apply")
    expects = [TraceExpectation(after, e.that, e.because, since=since)
               for e in outcome.example.expect if "odds" not in e.that]
    config = config_from_json(spec, outcome.example.config_json(spec.game_id)).to_json()
    engine = engine_class(spec)(spec, config_from_json(spec, config))
    initial = engine.state()
    moves: list[tuple[Any, Action, dict[str, Any] | None]] = []
    for m in played:
        engine.apply(m.action)
        moves.append((m.actor if m.actor is not None else 0, dict(m.action), engine.state()))
    return Trace(spec.game_id, spec.version, config, recorded_steps(moves, initial),
                 engine.result(), expects, initial=initial)
