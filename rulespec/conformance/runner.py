"""The kit: play games against an engine under test and the reference, checking every step.

Hypothesis drives the play (``st.data()`` picks each action, chance outcomes included), so a
failure shrinks to a minimal game. Each configuration is one Hypothesis run; the first failing
check stops it, Hypothesis shrinks the game, and the minimal game is written as a trace.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NoReturn

from rulespec.conformance.adapters import Adapter, StepResult
from rulespec.conformance.checks import Failure, Report, RunResult
from rulespec.conformance.examples_check import run_rule_examples
from rulespec.conformance.golden import golden_paths
from rulespec.conformance.options import Options, supported_configs
from rulespec.conformance.perft_check import perft_check
from rulespec.conformance.protocol import EngineError, EngineFailure, Legal
from rulespec.conformance.replay import load_golden, replay_golden
from rulespec.conformance.tracefile import write_failure_trace
from rulespec.conformance.verdicts import (
    Finding,
    Verdicts,
    fast_key,
    legal_of,
    state_diff,
    unique,
)
from rulespec.reference.core import Action, Actor, Config, ConfigError, Engine, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.reference.trace import Trace, read_trace
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

__all__ = ["Conformance", "Options", "check_engine", "load_golden", "supported_configs"]

#: Steps of a determinism replay sent before their answers are read (bounded so the requests
#: never fill the pipe while the engine waits for its answers to be read).
_REPLAY_CHUNK = 16
#: An action kind no spec declares: the first illegal action every engine must refuse.
BOGUS_KIND = "__not_an_action__"


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
        self.verdicts = Verdicts(self.spec)
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
        configs = list(configs)
        if self.options.rule_examples:
            asked = dict(configs[0].get("rulings", {})) if configs else {}
            report.examples = run_rule_examples(self.adapter, self.spec, rulings=asked,
                                                trace_dir=self.options.trace_dir)
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
        if self.options.perft_seconds > 0:
            try:
                self._perft(config, result)
            except (EngineFailure, EngineError, ConfigError) as exc:
                result.failures.append(self._protocol_failure(cfg, exc))
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
            out.append((path.name, self.replay(path.name, trace)))
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
        return self.replay(name, trace), None

    def replay(self, name: str, trace: Trace) -> Failure | None:
        """Replay one golden trace (called ``name`` in messages); return its failure or None."""
        return replay_golden(self.adapter, self.verdicts, name, trace, self._protocol_failure)

    def _perft(self, config: Config, result: RunResult) -> None:
        """Run the PERFT check first: deterministic, cheap, and the most precise failure."""
        found = perft_check(self.adapter, self.verdicts, config, self.reference,
                            seconds=self.options.perft_seconds,
                            max_nodes=self.options.perft_nodes)
        result.perft = found.nodes
        if found.failure is not None:
            self._last_states = []
            result.failures.append(self._write_trace(found.failure))

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
        ref_legal = legal_of(ref)
        self._check(game, self.verdicts.legal(legal, ref_legal, None))
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
                pool.setdefault(fast_key(action), action)
            try:
                collect = self.adapter.send_step(action)
            except (EngineFailure, EngineError) as exc:
                while inflight:
                    inflight.pop(0)()
                game.steps.append((actor, action))
                raise _Abort(self._protocol_failure(cfg, exc, game)) from None
            ref.apply(action)
            expected = ref.state()
            ref_legal = legal_of(ref)
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
                self._check(game, self.verdicts.refused(action, rejection))
            self.steps_checked += 1
            self._check_state(game, new_state, expected, prev, action)
            self._check(game, self.verdicts.legal(legal, expected_legal, action))

        return check

    def _check_state(self, game: _Game, state: dict[str, Any], expected: dict[str, Any],
                     prev: dict[str, Any] | None, action: Action | None) -> None:
        """Check a state: schema and invariants when sampled or different, then the diff."""
        differs = state != expected  # compared once: the states can be long
        full = (differs or self.options.full or state.get("result") is not None
                or game.since_full >= self.options.sample_every)
        if full:
            game.since_full = 0
            self.full_checks += 1
            self._check(game, self.verdicts.schema_and_invariants(state, prev, action,
                                                                  game.params, game.cfg))
        else:
            game.since_full += 1
        if differs:
            self._check(game, self.verdicts.state(state, expected, action))

    def _send_probe(self, game: _Game, ref: Engine, ref_legal: Legal,
                    pool: Mapping[Any, Action], actor: Actor,
                    choose: Callable[[int], int]) -> Callable[[], None]:
        """Send an illegal action; return the function that checks how the engine took it."""
        legal_keys = {fast_key(a) for a in ref_legal.actions}
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
            found = self.verdicts.probe(bad, why, rejection, state, after)
            if rejection is None:
                game.steps.append((actor, bad))
                game.states.append(None)
            self._check(game, found)

        return check

    def _check_determinism(self, game: _Game) -> None:
        try:
            self.adapter.start(game.cfg)
            first = self.adapter.state()
            if first != game.states[0]:
                self._fail(game, "DETERMINISM", (), "a fresh game starts in a different state: "
                           + state_diff(first, game.states[0] or {}))
            steps = list(enumerate(game.steps, 1))
            for start in range(0, len(steps), _REPLAY_CHUNK):
                chunk = steps[start:start + _REPLAY_CHUNK]
                pending = [self.adapter.send_step(action) for _, (_, action) in chunk]
                for (i, (_, action)), collect in zip(chunk, pending, strict=True):
                    rejection, state, _ = collect()
                    if rejection is not None or state != game.states[i]:
                        what = (f"refused it ({rejection.reason})" if rejection is not None
                                else state_diff(state, game.states[i] or {}))
                        self._fail(game, "DETERMINISM", self.verdicts.clauses(action),
                                   f"replaying the same actions, step {i} ({action!r}) differs: "
                                   f"{what}", step=i)
        except (EngineFailure, EngineError) as exc:
            raise _Abort(self._protocol_failure(game.cfg, exc, game)) from None

    # -- failures ----------------------------------------------------------------------------

    def _check(self, game: _Game, found: Finding | None) -> None:
        """Turn a check's finding into the failure of this game (nothing when it passed)."""
        if found is not None:
            self._fail(game, found.check, found.clauses, found.message, subject=found.subject,
                       also=found.also)

    def _fail(self, game: _Game, check: str, clauses: Iterable[str], message: str, *,
              subject: str | None = None, also: tuple[str, ...] = (),
              step: int | None = None) -> NoReturn:
        at = len(game.steps) if step is None else step
        failure = Failure(check, tuple(unique(clauses)), message, game.cfg, step=at,
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
        return write_failure_trace(self.spec, failure, self._last_states, self.options.trace_dir)


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


def check_engine(adapter: Adapter, game: str, *, players: Sequence[int] | None = None,
                 rulings: Mapping[str, str] | None = None, variants: Sequence[str] = (),
                 options: Options | None = None, engine_name: str | None = None) -> Report:
    """Run the kit: check the engine behind ``adapter`` on ``game``; return the report."""
    kit = Conformance(adapter, game, options=options, engine_name=engine_name)
    configs = supported_configs(kit.spec, players=players, rulings=rulings, variants=variants)
    return kit.run(configs)
