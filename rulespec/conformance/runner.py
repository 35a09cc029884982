"""The kit: play games against an engine under test and the reference, checking every step.

Hypothesis drives the play (``st.data()`` picks each action, chance outcomes included), so a
failure shrinks to a minimal game. Each configuration is one Hypothesis run; the first failing
check stops it, Hypothesis shrinks the game, and the minimal game is written as a trace.
"""

from __future__ import annotations

import gc
import json
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from rulespec.conformance.adapters import Adapter, StepResult
from rulespec.conformance.checks import Failure, Report, RunResult
from rulespec.conformance.golden import golden_paths
from rulespec.conformance.protocol import EngineError, EngineFailure, Legal
from rulespec.conformance.validation import StateValidator
from rulespec.reference.core import (
    CHANCE,
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    config_from_json,
)
from rulespec.reference.registry import engine_class
from rulespec.reference.trace import Trace, TraceStep, read_trace
from rulespec.spec.invariants import Invariants
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

#: Steps of a determinism replay sent before their answers are read (bounded so the requests
#: never fill the pipe while the engine waits for its answers to be read).
_REPLAY_CHUNK = 16
#: An action kind no spec declares: the first illegal action every engine must refuse.
BOGUS_KIND = "__not_an_action__"


@dataclass(frozen=True)
class Options:
    """How hard the kit looks."""

    #: Hypothesis examples (games) per configuration.
    examples: int = 40
    #: Longest game played, in actions (longer games stop there; their checks still count).
    max_steps: int = 3000
    #: Probe an illegal action every this many steps (0: never).
    probe_every: int = 3
    #: Replay every this-many-th game in a fresh game to check determinism (0: never).
    determinism_every: int = 4
    #: Fixed Hypothesis seed for reproducible runs (None: derandomized per configuration).
    seed: int | None = None
    #: Where minimal failing traces are written (None: not written).
    trace_dir: Path | None = None
    #: Replay the committed golden traces too.
    golden: bool = True
    #: Shrink failures to a minimal game (turn off only to save time).
    shrink: bool = True
    #: Check the schema and every invariant on every state. Otherwise they are checked on
    #: every state that differs from the reference's, on every terminal state, and on one
    #: state in ``sample_every`` (a state equal to the reference's gets the reference's
    #: verdict, which the reference's own tests check at every step).
    full: bool = False
    sample_every: int = 32
    #: Seconds Hypothesis may spend shrinking a failure (the smallest game so far is kept).
    shrink_seconds: float = 15.0


class _Found(Exception):
    """A check failed inside a Hypothesis example (Hypothesis shrinks these)."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(f"{failure.check}: {failure.message}")
        self.failure = failure


class _Abort(BaseException):
    """The engine broke the protocol: stop this configuration at once, without shrinking."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


def supported_configs(spec: Spec, *, players: Sequence[int] | None = None,
                      rulings: Mapping[str, str] | None = None,
                      variants: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Return the configurations to check: one per player count, under the given rulings."""
    counts = list(players) if players else list(range(spec.min_players, spec.max_players + 1))
    return [{"game": spec.game_id, "players": n, "rulings": dict(rulings or {}),
             "variants": list(variants), "parameters": {}} for n in counts]


class Conformance:
    """Check one engine (through an adapter) against the spec and reference of one game."""

    def __init__(self, adapter: Adapter, game: str, *, options: Options | None = None,
                 engine_name: str | None = None,
                 reference: Callable[[Spec, Config], Engine] | None = None) -> None:
        self.adapter = adapter
        self.spec = get_spec(game)
        self.options = options or Options()
        self.engine_name = engine_name or "engine"
        self.reference = reference or engine_class(self.spec)
        self.invariants = Invariants(self.spec)
        self.validator = StateValidator(self.spec.state_schema)
        self.action_clauses = {str(a["id"]): tuple(str(c) for c in a["clauses"])
                               for a in self.spec.section("actions")}
        objective = self.spec.data["game"].get("objective", {})
        terminal = [c for inv in self.spec.section("invariants") if inv["scope"] == "terminal"
                    for c in inv["clauses"]]
        setup = self.spec.data.get("structure", {}).get("setup", [])
        self.setup_clauses = tuple(_unique(c for step in setup for c in step.get("clauses", [])))
        self.end_clauses = tuple(_unique([*objective.get("clauses", []), *terminal]))
        self.steps_checked = 0
        #: States that got the schema and invariant checks (all of them with ``full``).
        self.full_checks = 0
        self._examples = 0
        self._last: Failure | None = None
        self._last_states: list[Any] = []
        self._found_at: float | None = None

    # -- public ------------------------------------------------------------------------------

    def run(self, configs: Iterable[Mapping[str, Any]]) -> Report:
        """Check every configuration, then the golden traces; return the report."""
        report = Report(self.engine_name, self.spec.game_id, self.spec.version)
        for config in configs:
            report.runs.append(self.run_config(config))
        if self.options.golden:
            report.golden = self.run_golden()
        return report

    def run_config(self, config_json: Mapping[str, Any]) -> RunResult:
        """Play Hypothesis-driven games under one configuration."""
        config = config_from_json(self.spec, dict(config_json))
        cfg = config.to_json()
        result = RunResult(cfg)
        started = time.perf_counter()
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            result.failures.append(self._protocol_failure(cfg, exc))
            return result
        unsupported = hello.supports(self.spec.game_id, config.rulings, config.variants)
        if unsupported:
            result.skipped = "; ".join(unsupported)
            return result
        self._examples = 0
        self._last = None
        self._found_at = None
        steps_before = self.steps_checked
        test = self._hypothesis_test(config)
        try:
            test()
        except _Abort as abort:
            result.failures.append(self._write_trace(abort.failure))
        except Exception as exc:
            # _Found, or Hypothesis's own error when the shrink budget cut shrinking short
            # (its final replay then "passes"): either way the smallest failure seen is kept.
            if self._last is not None:
                result.failures.append(self._write_trace(self._last))
            elif type(exc).__name__ == "Unsatisfiable":
                result.skipped = ("no game fitted in Hypothesis's choice budget (games too "
                                  "long); lower --max-steps")
            else:
                raise
        return self._finish(result, started, steps_before)

    def run_golden(self) -> list[tuple[str, Failure | None]]:
        """Replay every golden trace of the game the engine supports."""
        out: list[tuple[str, Failure | None]] = []
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            return [("hello", self._protocol_failure({}, exc))]
        for path in golden_paths(self.spec.game_id):
            trace = read_trace(path)
            config = config_from_json(self.spec, trace.config)
            if hello.supports(self.spec.game_id, config.rulings, config.variants):
                continue
            out.append((path.name, self._replay_golden(path.name, trace)))
        return out

    def run_golden_trace(self, name: str) -> tuple[Failure | None, str | None]:
        """Replay the one golden trace called ``name``: (its failure, or why it was skipped)."""
        paths = {p.name: p for p in golden_paths(self.spec.game_id)}
        if name not in paths:
            raise ConfigError(f"no golden trace {name!r} for {self.spec.game_id}; known: "
                              f"{', '.join(sorted(paths))}")
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            return self._protocol_failure({}, exc), None
        trace = read_trace(paths[name])
        config = config_from_json(self.spec, trace.config)
        unsupported = hello.supports(self.spec.game_id, config.rulings, config.variants)
        if unsupported:
            return None, "; ".join(unsupported)
        return self._replay_golden(name, trace), None

    # -- play --------------------------------------------------------------------------------

    def _finish(self, result: RunResult, started: float, before: int) -> RunResult:
        result.examples = self._examples
        result.steps = self.steps_checked - before
        result.seconds = time.perf_counter() - started
        return result

    def _hypothesis_test(self, config: Config) -> Callable[[], None]:
        from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
        from hypothesis import strategies as st

        opts = self.options
        phases = [Phase.explicit, Phase.reuse, Phase.generate]
        if opts.shrink:
            phases.append(Phase.shrink)

        def play(data: st.DataObject) -> None:
            # One integer choice per step. The choice sequence underneath st.data() is drawn
            # from directly when this Hypothesis exposes it: the same choices (and shrinking),
            # without the per-draw bookkeeping of the public API, which dominates long games.
            raw = getattr(getattr(data, "conjecture_data", None), "draw_integer", None)
            if raw is not None:
                self._play(config, lambda n: int(raw(0, n - 1)))
            else:  # pragma: no cover - other Hypothesis versions
                self._play(config, lambda n: data.draw(st.integers(0, n - 1)))

        test = given(st.data())(play)
        test = settings(max_examples=opts.examples, derandomize=opts.seed is None,
                        database=None, deadline=None, phases=phases,
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        print_blob=False, report_multiple_bugs=False)(test)
        if opts.seed is not None:
            test = seed(opts.seed)(test)
        return test

    def _play(self, config: Config, choose: Callable[[int], int]) -> None:
        """Play one game, choosing each action with ``choose(n) -> index``.

        The cyclic garbage collector is paused for the game (and resumed however it ends): the
        game keeps every state it saw, acyclic JSON the collector would otherwise traverse again
        and again as the game grows (a third of the kit's time on long games). Reference counting
        still frees everything else at once; a game is bounded by ``max_steps``.
        """
        if not gc.isenabled():
            self._play_game(config, choose)
            return
        gc.disable()
        try:
            self._play_game(config, choose)
        finally:
            gc.enable()

    def _play_game(self, config: Config, choose: Callable[[int], int]) -> None:
        if (self._found_at is not None
                and time.perf_counter() - self._found_at > self.options.shrink_seconds):
            return  # out of shrinking time: keep the smallest failing game found so far
        self._examples += 1
        spec, opts = self.spec, self.options
        cfg = config.to_json()
        game = _Game(config, cfg)
        ref = self.reference(spec, config)
        try:
            self.adapter.start(cfg)
            state = self.adapter.state()
            legal = self.adapter.legal()
        except (EngineFailure, EngineError, ConfigError) as exc:
            raise _Abort(self._protocol_failure(cfg, exc)) from None
        game.states.append(state)
        self._check_state(game, state, ref.state(), None, None)
        ref_legal = self._check_legal(game, legal, _legal_of(ref))
        pool: dict[Any, Action] = {}
        # Checks of steps (and probes) sent but not yet checked, oldest first. The next action is
        # chosen from the reference alone, so the engine can work on step n + 1 while the kit
        # checks step n; one step is kept in flight.
        inflight: list[Callable[[], None]] = []
        for n in range(1, opts.max_steps + 1):
            actor = ref.current_player()
            if actor is None:
                break
            if opts.probe_every and n % opts.probe_every == 0:
                inflight.append(self._send_probe(game, ref, ref_legal, pool, actor, choose))
            # Offsetting each choice by a fixed pseudo-random sequence makes the simplest choice
            # sequence (all zeros, where Hypothesis starts and shrinks to) a varied game rather
            # than a degenerate one (endless dice ties, or a cycle that never ends the game).
            count = len(ref_legal.actions)
            action = ref_legal.actions[(choose(count) + _offset(n)) % count]
            if len(pool) < 256:
                pool.setdefault(_fast_key(action), action)
            try:
                collect = self.adapter.send_step(action)
            except (EngineFailure, EngineError) as exc:
                while inflight:
                    inflight.pop(0)()
                game.steps.append((actor, action))
                raise _Abort(self._protocol_failure(cfg, exc, game)) from None
            ref.apply(action)
            expected = ref.state()
            ref_legal = _legal_of(ref)
            inflight.append(self._step_check(game, collect, actor, action, expected, ref_legal))
            while len(inflight) > 1:
                inflight.pop(0)()
        while inflight:
            inflight.pop(0)()
        if opts.determinism_every and (self._examples - 1) % opts.determinism_every == 0:
            self._check_determinism(game)

    def _step_check(self, game: _Game, collect: Callable[[], StepResult], actor: Actor,
                    action: Action, expected: dict[str, Any],
                    expected_legal: Legal) -> Callable[[], None]:
        """Return the function that collects a sent step and checks it."""

        def check() -> None:
            try:
                rejection, new_state, legal = collect()
            except (EngineFailure, EngineError) as exc:
                game.steps.append((actor, action))
                raise _Abort(self._protocol_failure(game.cfg, exc, game)) from None
            prev = game.states[-1]
            game.steps.append((actor, action))
            game.states.append(new_state)
            if rejection is not None:
                self._fail(game, "DIFF-LEGAL", self._clauses(action) + rejection.clauses,
                           f"the engine refused {action!r}, which the reference allows; it "
                           f"said: {rejection.reason}")
            self.steps_checked += 1
            self._check_state(game, new_state, expected, prev, action)
            self._check_legal(game, legal, expected_legal)

        return check

    def _check_state(self, game: _Game, state: dict[str, Any], expected: dict[str, Any],
                     prev: dict[str, Any] | None, action: Action | None) -> None:
        differs = state != expected  # compared once: the states can be long
        full = (differs or self.options.full or state.get("result") is not None
                or game.since_full >= self.options.sample_every)
        if full:
            game.since_full = 0
            self._check_schema_and_invariants(game, state, prev, action)
        else:
            game.since_full += 1
        if differs:
            clauses = self._clauses(action) if action is not None else self.setup_clauses
            ended = (state.get("result") is not None, expected.get("result") is not None)
            if ended != (False, False) and state.get("result") != expected.get("result"):
                self._fail(game, "DIFF-RESULT", self.end_clauses + clauses,
                           f"result {state.get('result')!r} but the reference gives "
                           f"{expected.get('result')!r}")
            self._fail(game, "DIFF-STATE", clauses, _state_diff(state, expected))

    def _check_schema_and_invariants(self, game: _Game, state: dict[str, Any],
                                     prev: dict[str, Any] | None, action: Action | None) -> None:
        self.full_checks += 1
        if not self.validator.is_valid(state):
            errors = self.validator.errors(state)
            err = min(errors, key=lambda e: len(list(e.absolute_path)))
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            self._fail(game, "STATE-SCHEMA", self._clauses(action),
                       f"the state does not match the spec's state schema at {where}: "
                       f"{err.message[:300]}")
        violations = self.invariants.check(state, prev=prev, action=action,
                                           params=game.params, config=game.cfg)
        if violations:
            v = violations[0]
            self._fail(game, "INVARIANT", v.clauses, str(v), subject=v.invariant,
                       also=tuple(x.invariant for x in violations[1:]))

    def _check_legal(self, game: _Game, legal: Legal, expected: Legal) -> Legal:
        actor = expected.actor
        if legal.actor != expected.actor:
            if legal.actor is None or expected.actor is None:
                self._fail(game, "DIFF-RESULT", self.end_clauses + self._last_clauses(game),
                           f"the engine says {_who(legal.actor)} is to move but the reference "
                           f"says {_who(expected.actor)}")
            self._fail(game, "DIFF-LEGAL", self._last_clauses(game),
                       f"the engine says {_who(legal.actor)} is to move but the reference says "
                       f"{_who(expected.actor)}")
        if actor == CHANCE:
            self._check_chance(game, legal, expected)
        if legal.actions != expected.actions:
            mine = {_key(a) for a in legal.actions}
            theirs = {_key(a) for a in expected.actions}
            extra = [a for a in legal.actions if _key(a) not in theirs]
            missing = [a for a in expected.actions if _key(a) not in mine]
            kinds = _unique(str(a.get("kind")) for a in extra + missing)
            clauses = _unique(c for k in kinds for c in self.action_clauses.get(k, ()))
            if extra or missing:
                msg = (f"legal actions differ from the reference: the engine also allows "
                       f"{extra[:5]!r} and lacks {missing[:5]!r}")
            else:
                msg = ("legal actions are the reference's but not in canonical order: the engine "
                       f"lists {legal.actions[:8]!r}, the reference {expected.actions[:8]!r}")
                clauses = _unique(c for a in expected.actions
                                  for c in self.action_clauses.get(str(a.get("kind")), ()))
            self._fail(game, "DIFF-LEGAL", tuple(clauses) or self._last_clauses(game), msg)
        return expected

    def _check_chance(self, game: _Game, legal: Legal, expected: Legal) -> None:
        if legal.actions == expected.actions and legal.probabilities == expected.probabilities:
            return  # the reference's outcomes, which its own tests show sum to exactly 1
        clauses = _unique(c for a in expected.actions
                          for c in self.action_clauses.get(str(a.get("kind")), ()))
        if legal.probabilities is None:
            self._fail(game, "CHANCE-DIST", clauses, "chance is to move but the engine gives no "
                       "probabilities; list one exact fraction per outcome")
        got = {_key(a): p for a, p in zip(legal.actions, legal.probabilities, strict=True)}
        want = {_key(a): p for a, p in zip(expected.actions, expected.probabilities or [],
                                           strict=True)}
        total = sum(legal.probabilities, Fraction(0))
        if got.keys() != want.keys():
            extra = sorted(got.keys() - want.keys())[:5]
            missing = sorted(want.keys() - got.keys())[:5]
            self._fail(game, "CHANCE-DIST", clauses, f"chance outcome set differs from the "
                       f"reference: extra {extra}, missing {missing}")
        wrong = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
        if wrong or total != 1:
            shown = ", ".join(f"{k}: {g} instead of {w}" for k, g, w in wrong[:4])
            self._fail(game, "CHANCE-DIST", clauses, f"chance probabilities differ from the "
                       f"reference ({shown or 'none differ'}); they sum to {total}")

    def _send_probe(self, game: _Game, ref: Engine, ref_legal: Legal,
                    pool: Mapping[Any, Action], actor: Actor,
                    choose: Callable[[int], int]) -> Callable[[], None]:
        """Send an illegal action; return the function that checks how the engine took it."""
        legal_keys = {_fast_key(a) for a in ref_legal.actions}
        candidates = [a for k, a in pool.items() if k not in legal_keys]
        candidates.append({"kind": BOGUS_KIND})
        bad = candidates[choose(len(candidates))]
        why = ref.rejection(bad)
        cfg = game.cfg
        try:
            collect = self.adapter.send_probe(bad)
        except (EngineFailure, EngineError) as exc:
            game.steps.append((actor, bad))
            raise _Abort(self._protocol_failure(cfg, exc, game)) from None

        def check() -> None:
            state = game.states[-1]  # the engine's state before the probe, checked by now
            try:
                rejection, after = collect()
            except (EngineFailure, EngineError) as exc:
                game.steps.append((actor, bad))
                raise _Abort(self._protocol_failure(cfg, exc, game)) from None
            if rejection is None:
                game.steps.append((actor, bad))
                game.states.append(None)
                self._fail(game, "ILLEGAL-REJECTED", why.clauses,
                           f"the engine accepted {bad!r}, which is illegal now: {why.reason}")
            if after != state:
                self._fail(game, "ILLEGAL-REJECTED", why.clauses,
                           f"the engine refused {bad!r} but its state changed: "
                           + _state_diff(after or {}, state or {}))

        return check

    def _check_determinism(self, game: _Game) -> None:
        try:
            self.adapter.start(game.cfg)
            first = self.adapter.state()
            if first != game.states[0]:
                self._fail(game, "DETERMINISM", (), "a fresh game starts in a different state: "
                           + _state_diff(first, game.states[0] or {}))
            steps = list(enumerate(game.steps, 1))
            for start in range(0, len(steps), _REPLAY_CHUNK):
                chunk = steps[start:start + _REPLAY_CHUNK]
                pending = [self.adapter.send_step(action) for _, (_, action) in chunk]
                for (i, (_, action)), collect in zip(chunk, pending, strict=True):
                    rejection, state, _ = collect()
                    if rejection is not None or state != game.states[i]:
                        what = (f"refused it ({rejection.reason})" if rejection is not None
                                else _state_diff(state, game.states[i] or {}))
                        self._fail(game, "DETERMINISM", self._clauses(action),
                                   f"replaying the same actions, step {i} ({action!r}) differs: "
                                   f"{what}", step=i)
        except (EngineFailure, EngineError) as exc:
            raise _Abort(self._protocol_failure(game.cfg, exc, game)) from None

    # -- failures ----------------------------------------------------------------------------

    def _clauses(self, action: Mapping[str, Any] | None) -> tuple[str, ...]:
        if action is None:
            return ()
        return self.action_clauses.get(str(action.get("kind")), ())

    def _last_clauses(self, game: _Game) -> tuple[str, ...]:
        return self._clauses(game.steps[-1][1]) if game.steps else ()

    def _fail(self, game: _Game, check: str, clauses: Iterable[str], message: str, *,
              subject: str | None = None, also: tuple[str, ...] = (),
              step: int | None = None) -> NoReturn:
        at = len(game.steps) if step is None else step
        failure = Failure(check, tuple(_unique(clauses)), message, game.cfg, step=at,
                          actions=tuple(game.steps[:at]), also=also, subject=subject)
        game.failure_states = list(game.states[:at + 1])
        if self._found_at is None:
            self._found_at = time.perf_counter()
        # Hypothesis tries smaller and smaller games: keep the smallest (the first among equals).
        if self._last is None or len(failure.actions) < len(self._last.actions):
            self._last = replace(failure)
            self._last_states = game.failure_states
        raise _Found(failure)

    def _protocol_failure(self, cfg: Mapping[str, Any], exc: Exception,
                          game: _Game | None = None) -> Failure:
        kind = getattr(exc, "kind", "error")
        steps = tuple(game.steps) if game else ()
        self._last_states = list(game.states) if game else []
        return Failure("PROTOCOL", (), f"{kind}: {exc}", dict(cfg), step=len(steps),
                       actions=steps, subject=kind)

    def _write_trace(self, failure: Failure) -> Failure:
        """Write the failing game as a trace ``rulespec replay`` runs; return it with the path."""
        directory = self.options.trace_dir
        if directory is None:
            return failure
        directory.mkdir(parents=True, exist_ok=True)
        states = self._last_states
        steps = [TraceStep(i, actor, dict(action),
                           states[i] if i < len(states) and isinstance(states[i], dict) else None)
                 for i, (actor, action) in enumerate(failure.actions, 1)]
        last = states[len(steps)] if len(states) > len(steps) else None
        result = last.get("result") if isinstance(last, dict) else None
        trace = Trace(self.spec.game_id, self.spec.version, dict(failure.config), steps,
                      result if isinstance(result, dict) else None)
        n = len(list(directory.glob(f"{self.spec.game_id}-{failure.check}-*.jsonl"))) + 1
        path = directory / f"{self.spec.game_id}-{failure.check}-{n}.jsonl"
        trace.write(path)
        return replace(failure, trace=str(path))

    def _replay_golden(self, name: str, trace: Trace) -> Failure | None:
        cfg = dict(trace.config)
        steps: list[tuple[Any, Mapping[str, Any]]] = []
        try:
            self.adapter.start(cfg)
            for step in trace.steps:
                steps.append((step.actor, step.action))
                rejection, state, _ = self.adapter.step(step.action)
                if rejection is not None:
                    return Failure("GOLDEN", self._clauses(step.action),
                                   f"{name} step {step.n}: the engine refused {step.action!r}: "
                                   f"{rejection.reason}", cfg, step.n, tuple(steps),
                                   subject=name)
                if step.state is not None and state != step.state:
                    return Failure("GOLDEN", self._clauses(step.action),
                                   f"{name} step {step.n}: " + _state_diff(state, step.state),
                                   cfg, step.n, tuple(steps), subject=name)
            final = self.adapter.state()
        except (EngineFailure, EngineError, ConfigError) as exc:
            return replace(self._protocol_failure(cfg, exc), check="GOLDEN", subject=name)
        if final.get("result") != trace.result:
            return Failure("GOLDEN", self.end_clauses, f"{name}: result {final.get('result')!r} "
                           f"but the trace records {trace.result!r}", cfg, len(steps),
                           tuple(steps), subject=name)
        return None


class _Game:
    """The game being played in one example: its configuration, actions and engine states."""

    def __init__(self, config: Config, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.params = dict(config.parameters)
        self.steps: list[tuple[Actor, Action]] = []
        self.states: list[dict[str, Any] | None] = []
        self.failure_states: list[dict[str, Any] | None] = []
        self.since_full = 0


def _offset(n: int) -> int:
    """Return the n-th term of a fixed pseudo-random sequence (Knuth's multiplicative hash)."""
    return ((n * 2654435761) & 0xFFFFFFFF) >> 8


def _legal_of(ref: Engine) -> Legal:
    """Return who moves in the reference and its legal actions (outcomes at chance nodes)."""
    actor = ref.current_player()
    if actor == CHANCE:
        outcomes = ref.chance_outcomes()
        return Legal(actor, [a for a, _ in outcomes], [p for _, p in outcomes])
    if actor is None:
        return Legal(None, [])
    return Legal(actor, ref.legal_actions())


def _key(action: Any) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _fast_key(action: Mapping[str, Any]) -> Any:
    """Return a hashable key of an action (a tuple of its items when they are hashable)."""
    try:
        key = tuple(sorted(action.items()))
        hash(key)
        return key
    except TypeError:
        return _key(action)


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _who(actor: Actor | None) -> str:
    if actor is None:
        return "nobody (the game is over)"
    return "chance" if actor == CHANCE else f"player {actor}"


def _state_diff(got: Mapping[str, Any], want: Mapping[str, Any], path: str = "") -> str:
    """Describe the first difference between two canonical states."""
    for key in sorted(set(got) | set(want)):
        where = f"{path}/{key}"
        if key not in got:
            return f"state lacks {where} (the reference has {want[key]!r:.120})"
        if key not in want:
            return f"state has {where} = {got[key]!r:.120}, which the reference does not"
        a, b = got[key], want[key]
        if a != b:
            if isinstance(a, dict) and isinstance(b, dict):
                return _state_diff(a, b, where)
            if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
                for i, (x, y) in enumerate(zip(a, b, strict=True)):
                    if x != y:
                        if isinstance(x, dict) and isinstance(y, dict):
                            return _state_diff(x, y, f"{where}/{i}")
                        return f"{where}/{i} is {x!r:.120} but the reference has {y!r:.120}"
            return f"{where} is {a!r:.160} but the reference has {b!r:.160}"
    return "states differ"


def check_engine(adapter: Adapter, game: str, *, players: Sequence[int] | None = None,
                 rulings: Mapping[str, str] | None = None, variants: Sequence[str] = (),
                 options: Options | None = None, engine_name: str | None = None) -> Report:
    """Run the kit: check the engine behind ``adapter`` on ``game``; return the report."""
    kit = Conformance(adapter, game, options=options, engine_name=engine_name)
    configs = supported_configs(kit.spec, players=players, rulings=rulings, variants=variants)
    return kit.run(configs)


def load_golden(game: str) -> list[tuple[Path, Trace]]:
    """Return the golden traces of ``game`` with their paths."""
    return [(p, read_trace(p)) for p in golden_paths(game)]
