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
from pathlib import Path
from typing import Any, NoReturn

from rulespec.conformance.adapters import Adapter, StepResult
from rulespec.conformance.checks import Failure, Report, RunResult
from rulespec.conformance.examples_check import run_rule_examples
from rulespec.conformance.golden import golden_paths
from rulespec.conformance.inference import explain_failure
from rulespec.conformance.levels import projection
from rulespec.conformance.options import Options, merge_runs, schedule, supported_configs
from rulespec.conformance.perft_check import perft_check
from rulespec.conformance.probes import ActionPool, ProbeMaker, after_end
from rulespec.conformance.progress import KitListener
from rulespec.conformance.protocol import EngineError, EngineFailure, EngineTimeout, Legal, legal_of
from rulespec.conformance.replay import load_golden, replay_golden
from rulespec.conformance.steering import Watch, continuation
from rulespec.conformance.tracefile import write_failure_trace
from rulespec.conformance.verdicts import (
    Finding,
    Verdicts,
    state_diff,
    unique,
)
from rulespec.reference.core import (
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    Rejection,
    config_from_json,
)
from rulespec.reference.registry import engine_class
from rulespec.reference.trace import Trace, read_trace
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

__all__ = ["Conformance", "Options", "check_engine", "load_golden", "supported_configs"]

#: Steps of a determinism replay sent before their answers are read (bounded so the requests
#: never fill the pipe while the engine waits for its answers to be read).
_REPLAY_CHUNK = 16


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


class _OutOfTime(BaseException):
    """The shrinking budget is spent: stop Hypothesis at once and keep the smallest failure.

    Returning early from each example instead leaves Hypothesis's shrinker running its own
    bookkeeping over the long choice sequence for many more seconds.
    """


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
        self.probes = ProbeMaker(self.spec)
        self.steps_checked = 0
        #: States that got the schema and invariant checks (all of them with ``full``).
        self.full_checks = 0
        self._examples = 0
        self._last: Failure | None = None
        self._last_states: list[Any] = []
        self._last_legal: Legal | None = None
        self._found_at: float | None = None
        #: Actions of the first failing game of this configuration (before shrinking).
        self._first_length: int | None = None
        #: The conformance level checked (what the engine's hello declares).
        self.level = "full"
        #: While searching for a shorter failing game: its longest length, and the time limit.
        self._cap: int | None = None
        self._deadline = float("inf")
        #: Player counts the run was asked for (golden traces of other counts are not replayed).
        self._players: set[int] = set()
        self._project: Callable[[Any], Any] = projection(self.spec, "full")
        #: The adapter's optional ``expect(state, legal=None)`` (``_announce``).
        self._expect: Callable[..., None] | None = getattr(adapter, "expect", None)
        #: Set when the engine stopped answering (a timeout): the golden traces are then not
        #: replayed, each waiting for the timeout again, but reported "not run" at once.
        self.dead: str | None = None
        #: Told what the kit is doing (a progress display); None: nobody is told.
        self.listener: KitListener | None = None
        #: What each configuration's games exercised, and the chooser steered by it.
        self.watch = Watch(self.spec, self.reference, steer=self.options.steer)

    # -- public ------------------------------------------------------------------------------

    def run(self, configs: Iterable[Mapping[str, Any]]) -> Report:
        """Check every configuration, then the golden traces; return the report."""
        report = Report(self.engine_name, self.spec.game_id, self.spec.version)
        configs = list(configs)
        if self.options.rule_examples:
            self._tell("rule examples")
            asked = dict(configs[0].get("rulings", {})) if configs else {}
            report.examples = run_rule_examples(self.adapter, self.spec, rulings=asked,
                                                trace_dir=self.options.trace_dir)
        # Golden traces follow the player counts asked for (and those the engine declares).
        self._players = {int(c["players"]) for c in configs if "players" in c}
        report.runs = self._run_configs(configs)
        if self.options.golden:
            if self.dead is None:
                self._tell("golden traces")
                report.golden = self.run_golden()
            report.golden_not_run = self.dead
        return report

    def _tell(self, activity: str) -> None:
        if self.listener is not None:
            self.listener.activity(activity)

    def _run_configs(self, configs: list[Mapping[str, Any]]) -> list[RunResult]:
        """Check the configurations here, or in ``options.jobs`` engine processes at once."""
        from rulespec.conformance.parallel import can_run_parallel, run_parallel

        if can_run_parallel(self, configs):
            self._tell(f"{len(configs)} configurations, {min(self.options.jobs, len(configs))} "
                       "engine processes")
            listener = self.listener
            return run_parallel(self, configs,
                                on_steps=None if listener is None else listener.steps,
                                on_done=None if listener is None else listener.config_done)
        return self.run_here(configs)

    def run_here(self, configs: list[Mapping[str, Any]]) -> list[RunResult]:
        """Check the configurations in this process: the interleaved games, then (steered) the
        games sought for what they did not reach; each result gets its coverage."""
        runs = self._run_interleaved(configs)
        if self.options.steer and len(runs) == len(configs):
            runs = [self._seek(c, r) for c, r in zip(configs, runs, strict=True)]
        self.watch.attach(runs)
        return runs

    def _run_interleaved(self, configs: list[Mapping[str, Any]]) -> list[RunResult]:
        """Play every configuration a little first, then deepen each (``schedule``).

        A bug that shows only under the last configuration is then found within the first
        stage, not after every other configuration has had all its games.
        """
        results: list[RunResult | None] = [None] * len(configs)
        stages = schedule(self.options)
        for salt, examples in stages:
            for i, config in enumerate(configs):
                prev = results[i]
                if prev is not None and (prev.skipped is not None or prev.failures):
                    continue
                if self.listener is not None:
                    self.listener.activity(_describe(config, salt))
                got = self.run_config(config, examples=examples, salt=salt)
                done = got if prev is None else merge_runs(prev, got)
                results[i] = done
                if self.listener is not None and (salt == stages[-1][0] or done.failures
                                                  or done.skipped is not None):
                    self.listener.config_done(i, done)
        return [r for r in results if r is not None]

    def run_config(self, config_json: Mapping[str, Any], *, examples: int | None = None,
                   salt: int = 0) -> RunResult:
        """Play Hypothesis-driven games under one configuration.

        ``examples`` overrides the options' count; a nonzero ``salt`` draws other games than the
        first stage did (a fixed seed, so runs stay reproducible).
        """
        config = config_from_json(self.spec, dict(config_json))
        cfg = config.to_json()
        result = RunResult(cfg)
        started = time.perf_counter()
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            result.failures.append(self._protocol_failure(cfg, exc))
            return result
        unsupported = hello.supports(self.spec.game_id, config.rulings, config.variants,
                                     players=config.players, parameters=config.overrides)
        if unsupported:
            result.skipped = "; ".join(unsupported)
            return result
        self.level = hello.level(self.spec.game_id)
        self._project = projection(self.spec, self.level)
        result.level = self.level
        if salt == 0 and self.options.perft_seconds > 0:
            try:
                self._perft(config, result)
            except (EngineFailure, EngineError, ConfigError) as exc:
                result.failures.append(self._protocol_failure(cfg, exc))
                return result
        self._examples = 0
        self._last = None
        self._found_at = None
        self._first_length = None
        steps_before = self.steps_checked
        test = self._hypothesis_test(config, examples or self.options.examples, salt)
        self.watch.configure(config)
        try:
            if salt == 0:
                self.watch.play_seeds(lambda prefix, choose: self._play(config, choose, prefix))
            test()
        except _Abort as abort:
            result.failures.append(self._write_trace(abort.failure))
        except _OutOfTime:
            if self._last is not None:
                result.failures.append(self._keep_smallest(config, salt))
        except Exception as exc:
            # _Found, or Hypothesis's own error when the shrink budget cut shrinking short
            # (its final replay then "passes"): either way the smallest failure seen is kept.
            if self._last is not None:
                result.failures.append(self._keep_smallest(config, salt))
            elif type(exc).__name__ == "Unsatisfiable":
                result.skipped = ("no game fitted in Hypothesis's choice budget (games too "
                                  "long); lower --max-steps")
            else:
                raise
        return self._finish(result, started, steps_before)

    def _seek(self, config_json: Mapping[str, Any], result: RunResult) -> RunResult:
        """Play, with every check, reference games found to reach what the configuration's
        games did not (``rulespec.conformance.steering.seek``)."""
        if result.skipped is not None or result.failures:
            return result
        config = config_from_json(self.spec, dict(config_json))
        self.watch.configure(config)
        games = self.watch.seek(budget=self.options.seek_steps, max_steps=self.options.max_steps)
        if not games:
            return result
        got = RunResult(result.config, level=result.level)
        started, steps_before = time.perf_counter(), self.steps_checked
        self._examples, self._last, self._found_at, self._first_length = 0, None, None, None
        try:
            for i, actions in enumerate(games):
                self._play(config, continuation(i), actions)
        except _Abort as abort:
            got.failures.append(self._write_trace(abort.failure))
        except (_Found, _OutOfTime):
            if self._last is not None:
                got.failures.append(self._keep_smallest(config, 2))
        return merge_runs(result, self._finish(got, started, steps_before))

    def _keep_smallest(self, config: Config, salt: int) -> Failure:
        """Search for a shorter failing game, then write the smallest one found as a trace."""
        self._search_shorter(config, salt)
        if self._last is None:  # pragma: no cover - the caller checked
            raise RuntimeError("no failure to keep")
        return self._write_trace(self._last)

    def _search_shorter(self, config: Config, salt: int) -> None:
        """Play other games capped below the failing game's length, looking for the same check.

        Hypothesis shrinks the choices of the game it found; when that game was among the first
        and simplest it tried, it cannot shrink further, though another game may show the bug far
        sooner. Each round caps games one action below the smallest failure so far, and stops
        when a round finds nothing shorter or ``shorter_seconds`` run out.
        """
        opts = self.options
        skip = ("PROTOCOL", "DETERMINISM")
        if opts.shorter_seconds <= 0 or self._last is None or self._last.check in skip:
            return
        self._deadline = time.perf_counter() + opts.shorter_seconds
        try:
            for attempt in range(1, 1000):
                before = len(self._last.actions)
                if before <= 1 or time.perf_counter() > self._deadline:
                    return
                self._cap = before - 1
                self._found_at = None
                test = self._hypothesis_test(config, opts.shorter_examples, salt + 100 + attempt)
                try:
                    test()
                except _Abort:
                    return
                except (_OutOfTime, Exception):  # a failure found, or the time budget spent
                    pass
                if len(self._last.actions) >= before:
                    return
        finally:
            self._cap = None
            self._deadline = float("inf")

    def run_golden(self) -> list[tuple[str, Failure | None]]:
        """Replay every golden trace of the game the engine supports."""
        out: list[tuple[str, Failure | None]] = []
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            return [("hello", self._protocol_failure({}, exc))]
        self.level = hello.level(self.spec.game_id)
        self._project = projection(self.spec, self.level)
        for path in golden_paths(self.spec.game_id):
            trace = read_trace(path)
            config = config_from_json(self.spec, trace.config)
            if self._players and config.players not in self._players:
                continue
            if hello.supports(self.spec.game_id, config.rulings, config.variants,
                              players=config.players, parameters=config.overrides):
                continue
            if self.dead is not None:
                break
            out.append((path.name, self.replay(path.name, trace, path=path)))
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
        unsupported = hello.supports(self.spec.game_id, config.rulings, config.variants,
                                     players=config.players, parameters=config.overrides)
        if unsupported:
            return None, "; ".join(unsupported)
        return self.replay(name, trace, path=paths[name]), None

    def replay(self, name: str, trace: Trace, *, path: Path | None = None) -> Failure | None:
        """Replay one golden trace (called ``name`` in messages); return its failure or None.

        A failure names the golden file (``path``) and gets the engine's side of the replay
        written as a trace, like any other failure.
        """
        states: list[Any] = []
        failure = replay_golden(self.adapter, self.verdicts, name, trace, self._protocol_failure,
                                states, self._project)
        if failure is None:
            return None
        if path is not None:
            failure = replace(failure, message=f"{failure.message} (golden file: {path})")
        return write_failure_trace(self.spec, failure, states, self.options.trace_dir)

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

    def _hypothesis_test(self, config: Config, examples: int,
                         salt: int = 0) -> Callable[[], None]:
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
        test = settings(max_examples=examples, derandomize=opts.seed is None and not salt,
                        database=None, deadline=None, phases=phases,
                        suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                        print_blob=False, report_multiple_bugs=False)(test)
        if opts.seed is not None or salt:
            test = seed((opts.seed or 0) + salt)(test)
        return test

    def _play(self, config: Config, choose: Callable[[int], int],
              prefix: Sequence[Action] = ()) -> None:
        """Play one game, choosing each action with ``choose(n) -> index``.

        The cyclic garbage collector is paused for the game (and resumed however it ends): the
        game keeps every state it saw, acyclic JSON the collector would otherwise traverse again
        and again as the game grows (a third of the kit's time on long games). Reference counting
        still frees everything else at once; a game is bounded by ``max_steps``.
        """
        self.watch.steering.begin(prefix)
        if not gc.isenabled():
            self._play_game(config, choose)
            return
        gc.disable()
        try:
            self._play_game(config, choose)
        finally:
            gc.enable()

    def _play_game(self, config: Config, choose: Callable[[int], int]) -> None:
        now = time.perf_counter()
        if ((self._found_at is not None and now - self._found_at > self.options.shrink_seconds)
                or now > self._deadline):
            raise _OutOfTime  # keep the smallest failing game found so far
        self._examples += 1
        spec, opts = self.spec, self.options
        cfg = config.to_json()
        game = _Game(config, cfg)
        ref = self.reference(spec, config)
        try:
            self.adapter.start(cfg)
            state = self._project(self.adapter.state())
            legal = self.adapter.legal()
        except (EngineFailure, EngineError, ConfigError) as exc:
            raise _Abort(self._protocol_failure(cfg, exc)) from None
        game.states.append(state)
        game.legal = legal
        expected = self._project(ref.state())
        self._check_state(game, state, expected, None, None)
        ref_legal = legal_of(ref)
        self._check(game, self.verdicts.legal(legal, ref_legal, None))
        pool = ActionPool()
        # The action objects already offered to the pool (held, so that their ids stay theirs):
        # an engine hands out the same objects again and again, keyed once each.
        offered: dict[int, Action] = {}
        # Checks of steps (and probes) sent but not yet checked, oldest first. The next action is
        # chosen from the reference alone, so the engine can work on step n + 1 while the kit
        # checks step n; one step is kept in flight, or the adapter's ``pipeline`` (a process
        # gets that many steps in one write, which saves a round trip per step).
        inflight: list[Callable[[], None]] = []
        depth = max(1, int(getattr(self.adapter, "pipeline", 1)))
        # What every step calls, looked up once per game (none of it changes during a game).
        probe_every, pick, watch = opts.probe_every, self.watch.steering.pick, self.watch.step
        send, project, step_check = self.adapter.send_step, self._project, self._step_check
        current, apply, ref_state = ref.current_player, ref.apply, ref.state
        applied = game.ref_actions.append
        for n in range(1, (self._cap or opts.max_steps) + 1):
            actor = current()
            if actor is None:
                break
            if probe_every and n % probe_every == 0:
                inflight.append(self._send_probe(game, ref, ref_legal, pool, actor, choose))
            # Offsetting each choice by a fixed pseudo-random sequence makes the simplest choice
            # sequence (all zeros, where Hypothesis starts and shrinks to) a varied game rather
            # than a degenerate one (endless dice ties, or a cycle that never ends the game).
            action = pick(ref_legal.actions, choose, n, _offset(n))
            if len(pool) < 256 and id(action) not in offered:
                if len(offered) < 4096:
                    offered[id(action)] = action
                pool.add(action)
            try:
                collect = send(action)
            except (EngineFailure, EngineError) as exc:
                while inflight:
                    inflight.pop(0)()
                game.steps.append((actor, action))
                raise _Abort(self._protocol_failure(cfg, exc, game)) from None
            apply(action)
            applied(action)
            before, expected = expected, project(ref_state())
            watch(before, action, expected)
            ref_legal = legal_of(ref)
            inflight.append(step_check(game, collect, actor, action, expected, ref_legal))
            while len(inflight) > depth:
                inflight.pop(0)()
        while inflight:
            inflight.pop(0)()
        self.watch.game_over(ref)
        if opts.probe_every and game.steps and ref.current_player() is None:
            probe, why = after_end(game.steps[-1][1], self.verdicts.end_clauses)
            self._probe(game, probe.action, why, game.steps[-1][0])()
        if opts.determinism_every and (self._examples - 1) % opts.determinism_every == 0:
            self._check_determinism(game)

    def _step_check(self, game: _Game, collect: Callable[[], StepResult], actor: Actor,
                    action: Action, expected: dict[str, Any],
                    expected_legal: Legal) -> Callable[[], None]:
        """Return the function that collects a sent step and checks it."""

        def check() -> None:
            try:
                self._announce(expected, expected_legal)
                rejection, new_state, legal = collect()
                new_state = self._project(new_state)
            except (EngineFailure, EngineError) as exc:
                game.steps.append((actor, action))
                raise _Abort(self._protocol_failure(game.cfg, exc, game)) from None
            prev = game.states[-1]
            game.steps.append((actor, action))
            game.states.append(new_state)
            game.legal = legal
            if rejection is not None:
                self._check(game, self.verdicts.refused(action, rejection))
            self.steps_checked += 1
            self._check_state(game, new_state, expected, prev, action)
            self._check(game, self.verdicts.legal(legal, expected_legal, action))

        return check

    def _check_state(self, game: _Game, state: dict[str, Any], expected: dict[str, Any],
                     prev: dict[str, Any] | None, action: Action | None) -> None:
        """Check a state: schema and invariants when sampled or different, then the diff."""
        # Compared once (the states can be long); the very object when the adapter found the
        # engine's answer byte for byte the reference's (``expect``).
        differs = state is not expected and state != expected
        full = self.level == "full" and (
            differs or self.options.full or state.get("result") is not None
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
                    pool: ActionPool, actor: Actor,
                    choose: Callable[[int], int]) -> Callable[[], None]:
        """Send an illegal action; return the function that checks how the engine took it.

        A family of probes is chosen first, then a probe of it, so small families (an extra key,
        an unknown kind) are tried as often as large ones (the actions legal earlier).
        """
        legal = ref_legal.actions
        # One Hypothesis choice per probe (the family): more would lengthen the choice sequence
        # the shrinker works on. The template and the probe within the family follow the step.
        n = len(game.steps)
        template = legal[_offset(n) % len(legal)] if legal else None
        probe = self.probes.pick_from_pool(legal, pool, template, choose, _offset(n + 1))
        if probe is None:  # the chosen family held only legal actions: nothing to probe
            return lambda: None
        applied = len(game.ref_actions)

        def why() -> Rejection:
            # Asked only when the engine mishandles the probe: the reference is taken back to
            # the position the probe was sent in (it has moved on since), and says why.
            then = self.reference(self.spec, config_from_json(self.spec, dict(game.cfg)))
            for done in game.ref_actions[:applied]:
                then.apply(done)
            return self.probes.explain(probe, then.rejection(probe.action))

        return self._probe(game, probe.action, why, actor)

    def _probe(self, game: _Game, bad: Any, why: Rejection | Callable[[], Rejection],
               actor: Actor) -> Callable[[], None]:
        """Send the illegal action ``bad``; return the function that checks how it was taken."""
        cfg = game.cfg
        try:
            collect = self.adapter.send_probe(bad)
        except (EngineFailure, EngineError) as exc:
            game.steps.append((actor, bad))
            raise _Abort(self._protocol_failure(cfg, exc, game)) from None

        def check() -> None:
            state = game.states[-1]  # the engine's state before the probe, checked by now
            try:
                self._announce(state)
                rejection, after = collect()
                after = self._project(after) if after is not None else None
            except (EngineFailure, EngineError) as exc:
                game.steps.append((actor, bad))
                raise _Abort(self._protocol_failure(cfg, exc, game)) from None
            found = self.verdicts.probe(bad, why, rejection, state, after)
            if rejection is None:
                game.steps.append((actor, bad))
                game.states.append(None)
                game.legal = None
            self._check(game, found)

        return check

    def _check_determinism(self, game: _Game) -> None:
        try:
            self.adapter.start(game.cfg)
            first = self._project(self.adapter.state())
            if first != game.states[0]:
                self._fail(game, "DETERMINISM", (), "a fresh game starts in a different state: "
                           + state_diff(first, game.states[0] or {}))
            steps = list(enumerate(game.steps, 1))
            # Only the states are compared: an adapter that can leave out the legal actions
            # (``send_replay``, optional) is asked for the states alone.
            send = getattr(self.adapter, "send_replay", None) or self._replay_by_steps
            for start in range(0, len(steps), _REPLAY_CHUNK):
                chunk = steps[start:start + _REPLAY_CHUNK]
                pending = [send(action) for _, (_, action) in chunk]
                for (i, (_, action)), collect in zip(chunk, pending, strict=True):
                    self._announce(game.states[i])
                    rejection, state = collect()
                    state = self._project(state)
                    if rejection is not None or state != game.states[i]:
                        what = (f"refused it ({rejection.reason})" if rejection is not None
                                else state_diff(state, game.states[i] or {}))
                        self._fail(game, "DETERMINISM", self.verdicts.clauses(action),
                                   f"replaying the same actions, step {i} ({action!r}) differs: "
                                   f"{what}", step=i)
        except (EngineFailure, EngineError) as exc:
            raise _Abort(self._protocol_failure(game.cfg, exc, game)) from None

    def _announce(self, state: dict[str, Any] | None, legal: Legal | None = None) -> None:
        """Tell the adapter what a conformant engine answers next (its optional ``expect``),
        so that it may skip parsing that answer; only at level full, where whole states are
        compared."""
        if self._expect is None or state is None or self.level != "full":
            return
        if legal is None:
            self._expect(state)
        else:
            self._expect(state, legal)

    def _replay_by_steps(self, action: Any) -> Callable[[], tuple[Rejection | None, Any]]:
        """``send_replay`` for an adapter without it: a whole step, its legal actions dropped."""
        collect = self.adapter.send_step(action)

        def result() -> tuple[Rejection | None, Any]:
            rejection, state, _ = collect()
            return rejection, state

        return result

    # -- failures ----------------------------------------------------------------------------

    def _check(self, game: _Game, found: Finding | None) -> None:
        """Turn a check's finding into the failure of this game (nothing when it passed)."""
        if found is not None:
            self._fail(game, found.check, found.clauses, found.message, subject=found.subject,
                       also=found.also, diff=tuple(c.to_json() for c in found.diff))

    def _fail(self, game: _Game, check: str, clauses: Iterable[str], message: str, *,
              subject: str | None = None, also: tuple[str, ...] = (),
              step: int | None = None, diff: tuple[Mapping[str, Any], ...] = ()) -> NoReturn:
        at = len(game.steps) if step is None else step
        failure = Failure(check, tuple(unique(clauses)), message, game.cfg, step=at,
                          actions=tuple(game.steps[:at]), also=also, subject=subject, diff=diff)
        game.failure_states = list(game.states[:at + 1])
        if self._found_at is None:
            self._found_at = time.perf_counter()
            self.watch.steering.freeze()
        if self._first_length is None:
            self._first_length = at
        # Hypothesis tries smaller and smaller games: keep the smallest (the first among equals).
        same = self._cap is None or self._last is None or failure.check == self._last.check
        if self._last is None or (len(failure.actions) < len(self._last.actions) and same):
            self._last = replace(failure)
            self._last_states = game.failure_states
            self._last_legal = game.legal if at == len(game.steps) else None
        raise _Found(failure)

    def _protocol_failure(self, cfg: Mapping[str, Any], exc: Exception,
                          game: _Game | None = None) -> Failure:
        kind = getattr(exc, "kind", "error")
        if isinstance(exc, EngineTimeout):
            where = f"a {cfg['players']}-player game" if "players" in cfg else "its handshake"
            self.dead = f"the engine stopped answering in {where} ({str(exc).split(';')[0]})"
        steps = tuple(game.steps) if game else ()
        self._last_states = list(game.states) if game else []
        return Failure("PROTOCOL", (), f"{kind}: {exc}", dict(cfg), step=len(steps),
                       actions=steps, subject=kind)

    def _write_trace(self, failure: Failure) -> Failure:
        """Write the failing game as a trace ``rulespec replay`` runs; return it with the path.

        The failure also gets the length of the first failing game found (before shrinking) and
        the ruling options under which the reference does what the engine did.
        """
        if failure.check != "PROTOCOL" and self._first_length is not None:
            failure = replace(failure, shrunk_from=self._first_length)
        if self.options.infer_rulings and self.level == "full":
            failure = explain_failure(self.spec, self.reference, failure, self._last_states,
                                      self._last_legal, budget=self.options.infer_seconds)
        # Below the full level the states are partial: the trace records the actions only.
        states = self._last_states if self.level == "full" else []
        return write_failure_trace(self.spec, failure, states, self.options.trace_dir)


class _Game:
    """The game being played in one example: its configuration, actions and engine states."""

    def __init__(self, config: Config, cfg: dict[str, Any]) -> None:
        self.cfg = cfg
        self.params = dict(config.parameters)
        self.steps: list[tuple[Actor, Action]] = []
        #: Actions applied to the reference so far (ahead of ``steps`` by the step in flight).
        self.ref_actions: list[Action] = []
        self.states: list[dict[str, Any] | None] = []
        self.failure_states: list[dict[str, Any] | None] = []
        #: The engine's answer to legal_actions after the last step checked.
        self.legal: Legal | None = None
        self.since_full = 0


def _describe(config: Mapping[str, Any], salt: int) -> str:
    """Say which configuration is being checked, in words (for a progress display)."""
    rulings = ", ".join(f"{a}={o}" for a, o in sorted(dict(config.get("rulings", {})).items()))
    stage = "first games" if salt == 0 else "more games"
    return f"{config.get('players')} players{f' ({rulings})' if rulings else ''}: {stage}"


def _offset(n: int) -> int:
    """Return the n-th term of a fixed pseudo-random sequence (Knuth's multiplicative hash)."""
    return ((n * 2654435761) & 0xFFFFFFFF) >> 8


def check_engine(adapter: Adapter, game: str, *, players: Sequence[int] | None = None,
                 rulings: Mapping[str, str] | None = None, variants: Sequence[str] = (),
                 options: Options | None = None, engine_name: str | None = None,
                 parameters: Mapping[str, Any] | None = None, declared: bool = False,
                 show_progress: bool = False) -> Report:
    """Run the kit: check the engine behind ``adapter`` on ``game``; return the report.

    With ``declared`` (and no ``rulings``), every ruling option the engine declares in ``hello``
    is played, pairwise across ambiguities (``rulespec.conformance.coverage``). With
    ``show_progress``, a progress line is drawn on standard error while the kit runs.
    """
    from rulespec.conformance.progress import kit_progress

    kit = Conformance(adapter, game, options=options, engine_name=engine_name)
    if declared and not rulings:
        from rulespec.conformance.coverage import declared_configs

        configs = declared_configs(kit.spec, adapter.hello(), players=players, variants=variants,
                                   parameters=parameters)
    else:
        configs = supported_configs(kit.spec, players=players, rulings=rulings,
                                    variants=variants, parameters=parameters)
    with kit_progress(kit, f"conform {game}", len(configs), show=show_progress):
        return kit.run(configs)
