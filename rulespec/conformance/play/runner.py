"""The kit's driver: which games are played against an engine under test, and in what order.

Each configuration is played in stages (``schedule``), then, steered, in games sought for what
it did not reach; the golden traces are replayed last. One game is played and checked step by
step by the mixin ``GamePlay`` (``rulespec.conformance.play.playing``). Hypothesis drives the play (``st.data()`` picks each action, chance outcomes included), so a
failure shrinks to a minimal game. Each configuration is one Hypothesis run; the first failing
check stops it, Hypothesis shrinks the game, and the minimal game is written as a trace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import EngineError, EngineFailure, Legal
from rulespec.conformance.explain.inference import explain_failure
from rulespec.conformance.judging.budget import Budget
from rulespec.conformance.judging.causes import canonical
from rulespec.conformance.judging.checks import Failure, Report, RunResult
from rulespec.conformance.judging.divergence import divergence_text, first_divergence
from rulespec.conformance.judging.levels import projection
from rulespec.conformance.judging.scope import Scope, label, legacy_parameters, needs
from rulespec.conformance.judging.verdicts import Verdicts
from rulespec.conformance.judging.versions import VersionView, today, view_for
from rulespec.conformance.play.examples_check import ExampleRun, run_rule_examples
from rulespec.conformance.play.options import Options, merge_runs, schedule, supported_configs
from rulespec.conformance.play.parallel import can_run_parallel, run_parallel
from rulespec.conformance.play.perft_check import perft_check
from rulespec.conformance.play.playing import (
    AbortConfig,
    FoundFailure,
    GamePlay,
    OutOfTime,
    Stopped,
)
from rulespec.conformance.play.probes import ProbeMaker
from rulespec.conformance.play.progress import KitListener
from rulespec.conformance.play.replay import load_golden, replay_golden
from rulespec.conformance.play.steering import Watch, continuation
from rulespec.conformance.play.tracefile import write_failure_trace
from rulespec.reference.core import Config, ConfigError, Engine, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.reference.trace import Trace, read_trace
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec, golden_paths

__all__ = ["Conformance", "Options", "check_engine", "load_golden", "supported_configs"]


class Conformance(GamePlay):
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
        #: Player observations compared with the reference's (check OBSERVATION).
        self.observed = 0
        self._observed_before = 0
        self._observes: bool | None = None
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
        #: The release the engine is checked as (``run`` asks the engine; today's until then).
        self.version: VersionView = today(self.spec)
        #: Golden traces left out as newer than that release.
        self.golden_newer: list[str] = []
        #: What the run was asked for (None: what its configurations share, ``Scope.of``).
        self.scope: Scope | None = None
        #: The run's deadline and stop flag (a fresh one per ``run``; none until then).
        self.budget = Budget()
        self._shrink_for = self.options.shrink_seconds
        self.known_matches: list[dict[str, str]] = []
        #: Per configuration, the games that passed (``GamePlay._keep_passed``).
        self._passed_by: dict[str, list[list[Any]]] = {}
        self._passed: list[list[Any]] = []

    # -- public ------------------------------------------------------------------------------

    def run(self, configs: Iterable[Mapping[str, Any]]) -> Report:
        """Check the rule examples, the golden traces, then every configuration; return the
        report. With a budget, each stage starts only while the budget lasts (``budget``)."""
        self.budget = Budget(self.options.budget, fail_fast=self.options.fail_fast)
        report = Report(self.engine_name, self.spec.game_id, self.spec.version)
        configs = list(configs)
        report.checked_as = self.version = self._checked_as()
        hold = getattr(self.adapter, "hold", None)
        if callable(hold):
            hold(frozenset(self.version.held))
        scope = self.scope or Scope.of(configs)
        report.scope = scope.to_json()
        if self.options.rule_examples and not self.budget.skip("rule examples"):
            self._tell("rule examples")
            how = ExampleRun(scope=scope, newer=self.version.newer, budget=self.budget,
                             trace_dir=self.options.trace_dir, on_failure=self._confirmed,
                             reference=self.reference, infer=self.options.infer_rulings,
                             infer_seconds=self.options.infer_seconds, known=self.known_matches,
                             legacy_parameters=self._legacy_parameters())
            report.examples = run_rule_examples(self.adapter, self.spec, how=how)
            self.dead = how.dead
        # Golden traces follow the scope asked (and what the engine declares).
        self._players = set(scope.players)
        if self.options.golden:
            if self.dead is None and not self.budget.skip("golden traces"):
                self._tell("golden traces")
                report.golden = self.run_golden(scope, report.golden_skipped)
            report.golden_not_run = self.dead or (
                self.budget.why if "golden traces" in self.budget.left_out else None)
            report.golden_newer = list(self.golden_newer)
        report.runs = self._run_configs(configs)
        if not self.version.today:
            _explain_changes(report, self.version)
        cut = next((r.cut for r in report.runs if r.cut), None)  # a worker's, perhaps
        self.budget.why = self.budget.why or cut
        report.budget = self.budget.to_json()
        return report

    def _checked_as(self) -> VersionView:
        """Return the release the engine is checked as (today's when it cannot be asked: the
        failure to answer is reported by the checks that need the engine)."""
        try:
            hello = self.adapter.hello()
        except EngineFailure:
            hello = None
        return view_for(self.spec, hello, override=self.options.spec_version)

    def _legacy_parameters(self) -> str | None:
        """Say why the rule examples send their parameter overrides to an engine that declares
        none (its release predates hello's ``parameters``: ``scope.legacy_parameters``)."""
        try:
            hello = self.adapter.hello()
        except EngineFailure:
            return None
        return legacy_parameters(self.spec, hello, self.version.declared)

    def _tell(self, activity: str) -> None:
        if self.listener is not None:
            self.listener.activity(activity)

    def _run_configs(self, configs: list[Mapping[str, Any]]) -> list[RunResult]:
        """Check the configurations here, or in ``options.jobs`` engine processes at once."""
        if can_run_parallel(self, configs):
            self._tell(f"{len(configs)} configurations, {min(self.options.jobs, len(configs))} "
                       "engine processes")
            listener = self.listener
            return run_parallel(self, configs,
                                on_steps=None if listener is None else listener.steps,
                                on_done=None if listener is None else listener.config_done,
                                on_failure=None if listener is None else listener.failure)
        return self.run_here(configs)

    def run_here(self, configs: list[Mapping[str, Any]]) -> list[RunResult]:
        """Check the configurations in this process, stage by stage over all of them: PERFT,
        the games in rounds (``schedule``), then (steered) the games sought for what they did
        not reach. Each result gets its coverage; the listener hears of each as it is done."""
        results: list[RunResult | None] = [None] * len(configs)
        stages: list[tuple[str, int, int]] = []
        if self.options.perft_seconds > 0:
            stages.append(("perft", 0, 0))
        stages += [("games", salt, games) for salt, games in schedule(self.options)]
        if self.options.steer:
            stages.append(("seek", 0, 0))
        for n, (stage, salt, games) in enumerate(stages):
            for i, config in enumerate(configs):
                prev = results[i]
                if prev is not None and (prev.skipped is not None or prev.failures
                                         or prev.cut is not None):
                    continue
                if self.budget.skip(label(self.spec, config)):
                    results[i] = self._cut(config, prev)
                    self._done(i, results[i])
                    continue
                if self.listener is not None:
                    self.listener.activity(_describe(self.spec, config, stage, salt))
                got = self._stage(config, stage, games, salt, prev)
                results[i] = got
                if (n == len(stages) - 1 or got.failures or got.skipped is not None
                        or got.cut is not None):
                    self._done(i, got)
        return [r for r in results if r is not None]

    def _done(self, i: int, result: RunResult | None) -> None:
        """Give a finished configuration its coverage and tell the listener."""
        if result is None:
            return
        self.watch.attach([result])
        if self.listener is not None:
            self.listener.config_done(i, result)

    def _cut(self, config: Mapping[str, Any], prev: RunResult | None) -> RunResult:
        """Return a configuration's result as the budget (or ``-x``) left it."""
        out = prev or RunResult(config_from_json(self.spec, dict(config)).to_json())
        out.cut = self.budget.why
        return out

    def _stage(self, config: Mapping[str, Any], stage: str, games: int, salt: int,
               prev: RunResult | None) -> RunResult:
        """Run one stage of one configuration; return its result so far."""
        if stage == "perft":
            return self._play_stage(config, perft=self.options.perft_seconds > 0)
        if prev is None:  # no PERFT stage came first
            prev = RunResult(config_from_json(self.spec, dict(config)).to_json())
        if stage == "seek":
            return self._seek(config, prev)
        return merge_runs(prev, self._play_stage(config, examples=games, salt=salt,
                                                 seeds=salt == 0))

    def run_config(self, config_json: Mapping[str, Any], *, examples: int | None = None,
                   salt: int = 0) -> RunResult:
        """Play Hypothesis-driven games under one configuration (PERFT first, with salt 0).

        ``examples`` overrides the options' count; a nonzero ``salt`` draws other games than the
        first stage did (a fixed seed, so runs stay reproducible).
        """
        first = salt == 0
        return self._play_stage(config_json, examples=examples or self.options.examples,
                                salt=salt, perft=first and self.options.perft_seconds > 0,
                                seeds=first)

    def _play_stage(self, config_json: Mapping[str, Any], *, examples: int = 0, salt: int = 0,
                    perft: bool = False, seeds: bool = False) -> RunResult:
        """Check one configuration: PERFT (``perft``), the games along the rule examples
        (``seeds``), then ``examples`` Hypothesis games drawn with ``salt``."""
        config = config_from_json(self.spec, dict(config_json))
        cfg = config.to_json()
        result = RunResult(cfg)
        started = time.perf_counter()
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            result.failures.append(self._confirmed(self._protocol_failure(cfg, exc)))
            return result
        unsupported = hello.supports(self.spec.game_id, config.rulings, config.variants,
                                     players=config.players, parameters=config.overrides)
        newer = self.version.newer(cfg)
        if unsupported or newer:
            result.skipped = "; ".join([newer] if newer else unsupported)
            return result
        self.level = hello.level(self.spec.game_id)
        self._project = projection(self.spec, self.level)
        result.level = self.level
        self._passed = self._passed_by.setdefault(canonical(cfg), [])
        if perft:
            try:
                self._perft(config, result)
            except (EngineFailure, EngineError, ConfigError) as exc:
                result.failures.append(self._confirmed(self._protocol_failure(cfg, exc)))
                return result
            if result.failures:
                return result
        if not examples and not seeds:
            return self._finish(result, started, self.steps_checked)
        self._examples = 0
        self._last = None
        self._found_at = None
        self._first_length = None
        steps_before = self.steps_checked
        test = self._hypothesis_test(config, examples, salt) if examples else None
        self.watch.configure(config)
        try:
            if seeds:
                self.watch.play_seeds(lambda prefix, choose: self._play(config, choose, prefix))
            if test is not None:
                test()
        except AbortConfig as abort:
            result.failures.append(self._write_trace(abort.failure))
        except Stopped as stop:
            result.cut = stop.reason
        except OutOfTime:
            if self._last is not None:
                result.failures.append(self._keep_smallest(config, salt))
        except Exception as exc:
            # FoundFailure, or Hypothesis's own error when the shrink budget cut shrinking short
            # (its final replay then "passes"): either way the smallest failure seen is kept.
            if self._last is not None:
                result.failures.append(self._keep_smallest(config, salt))
            elif isinstance(exc.__context__, Stopped):
                # Hypothesis records every test case it runs, and may take a game stopped
                # before its first choice for one that changed its mind (flaky data): the stop
                # it masks is what happened.
                result.cut = exc.__context__.reason
            elif type(exc).__name__ == "Unsatisfiable":
                result.skipped = ("no game fitted in Hypothesis's choice budget (games too "
                                  "long); lower --max-steps")
            else:
                raise
        return self._finish(result, started, steps_before)

    def _seek(self, config_json: Mapping[str, Any], result: RunResult) -> RunResult:
        """Play, with every check, reference games found to reach what the configuration's
        games did not (``rulespec.conformance.play.steering.seek``)."""
        if result.skipped is not None or result.failures:
            return result
        config = config_from_json(self.spec, dict(config_json))
        self.watch.configure(config)
        self._passed = self._passed_by.setdefault(canonical(config.to_json()), [])
        games = self.watch.seek(budget=self.options.seek_steps, max_steps=self.options.max_steps)
        if not games:
            return result
        got = RunResult(result.config, level=result.level)
        started, steps_before = time.perf_counter(), self.steps_checked
        self._examples, self._last, self._found_at, self._first_length = 0, None, None, None
        try:
            for i, actions in enumerate(games):
                self._play(config, continuation(i), actions)
        except AbortConfig as abort:
            got.failures.append(self._write_trace(abort.failure))
        except Stopped as stop:
            got.cut = stop.reason
        except (FoundFailure, OutOfTime):
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
        self._deadline = time.perf_counter() + self.budget.allow(opts.shorter_seconds)
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
                except AbortConfig:
                    return
                except (OutOfTime, Exception):  # a failure found, or the time budget spent
                    pass
                if len(self._last.actions) >= before:
                    return
        finally:
            self._cap = None
            self._deadline = float("inf")

    def run_golden(self, scope: Scope | None = None,
                   skipped: list[dict[str, str]] | None = None) -> list[tuple[str, Failure | None]]:
        """Replay every golden trace of the game inside ``scope`` that the engine supports;
        those left out are added to ``skipped`` with the reason (newer ones to
        ``golden_newer``)."""
        out: list[tuple[str, Failure | None]] = []
        try:
            hello = self.adapter.hello()
        except EngineFailure as exc:
            return [("hello", self._confirmed(self._protocol_failure({}, exc)))]
        self.level = hello.level(self.spec.game_id)
        self._project = projection(self.spec, self.level)
        self.golden_newer = []
        scope = scope or Scope(players=frozenset(self._players))
        left = skipped if skipped is not None else []
        for path in golden_paths(self.spec.game_id):
            trace = read_trace(path)
            config = config_from_json(self.spec, trace.config)
            outside = scope.outside(config)
            if outside is not None:
                left.append({"trace": path.name, "why": f"outside the scope asked ({scope.text()}): "
                             f"{outside}"})
                continue
            if self.version.newer(config.to_json()):
                self.golden_newer.append(path.name)
                continue
            unsupported = hello.supports(self.spec.game_id, config.rulings, config.variants,
                                         players=config.players, parameters=config.overrides)
            if unsupported:
                left.append({"trace": path.name, "why": "; ".join(unsupported),
                             "needs": ", ".join(needs(u) for u in unsupported)})
                continue
            if self.dead is not None or self.budget.skip("golden traces"):
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
        newer = self.version.newer(config.to_json())
        if unsupported or newer:
            return None, "; ".join([newer] if newer else unsupported)
        return self.replay(name, trace, path=paths[name]), None

    def replay(self, name: str, trace: Trace, *, path: Path | None = None) -> Failure | None:
        """Replay one golden trace (called ``name`` in messages); return its failure or None.

        A failure names the golden file (``path``) and gets the engine's side of the replay
        written as a trace, like any other failure.
        """
        states: list[Any] = []
        def protocol(cfg: Mapping[str, Any], exc: Exception) -> Failure:
            return self._protocol_failure(cfg, exc, why_sent=f"golden trace {name}")

        failure = replay_golden(self.adapter, self.verdicts, name, trace, protocol, states,
                                self._project)
        if failure is None:
            return None
        failure = self._diverged(failure, trace, states)
        if self.options.infer_rulings and self.level == "full":
            failure = explain_failure(self.spec, self.reference, failure, states, None,
                                      budget=self.budget.allow(self.options.infer_seconds),
                                      known=self.known_matches)
        if path is not None:
            failure = replace(failure, message=f"{failure.message} (golden file: {path})")
        return self._confirmed(write_failure_trace(self.spec, failure, states,
                                                   self.options.trace_dir))

    def _diverged(self, failure: Failure, trace: Trace, states: list[Any]) -> Failure:
        """Name where a golden replay's engine states first differ from the reference's, when
        that is before the failure the trace's recorded states show."""
        if self.level == "none" or failure.check != "GOLDEN":
            return failure
        try:
            config = config_from_json(self.spec, dict(trace.config))
        except ConfigError:
            return failure
        found = first_divergence(self.spec, self.reference, config,
                                 [a for _, a in failure.actions], states, self._project,
                                 self.verdicts.schema)
        if found is None or (failure.diff and found[0] >= (failure.step or 0)):
            return failure
        at, changes = found
        return replace(failure, diff=tuple(c.to_json() for c in changes),
                       message=f"{failure.message}; {divergence_text(at, changes)}")

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
        result.observed = self.observed - self._observed_before
        self._observed_before = self.observed
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


def _explain_changes(report: Report, version: VersionView) -> None:
    """Name, in each failure, the MAJOR spec changes since ``version`` that touch it."""
    if report.examples is not None:
        report.examples.failures = [version.explain(f) for f in report.examples.failures]
    for run in report.runs:
        run.failures = [version.explain(f) for f in run.failures]
    report.golden = [(name, None if f is None else version.explain(f))
                     for name, f in report.golden]


def _describe(spec: Spec, config: Mapping[str, Any], stage: str, salt: int) -> str:
    """Say which configuration is being checked, in words (for a progress display)."""
    what = {"perft": "PERFT", "seek": "games sought for what play missed"}.get(
        stage, "first games" if salt == 0 else f"games, round {salt}")
    return f"{label(spec, config)}: {what}"



def check_engine(adapter: Adapter, game: str, *, players: Sequence[int] | None = None,
                 rulings: Mapping[str, str] | None = None, variants: Sequence[str] = (),
                 options: Options | None = None, engine_name: str | None = None,
                 parameters: Mapping[str, Any] | None = None, declared: bool = False,
                 show_progress: bool = False,
                 on_failure: Callable[[Failure], str | None] | None = None) -> Report:
    """Run the kit: check the engine behind ``adapter`` on ``game``; return the report.

    With ``declared`` (and no ``rulings``), every ruling option the engine declares in ``hello``
    is played, pairwise across ambiguities (``rulespec.conformance.play.coverage``). The player
    counts, rulings, variants and parameters asked for apply to every stage: configurations,
    rule examples and golden traces (``rulespec.conformance.judging.scope``). With ``show_progress``, a
    progress line is drawn on standard error while the kit runs; each failure is given to
    ``on_failure`` as soon as it is confirmed, and what it returns is printed there.
    """
    from rulespec.conformance.play.progress import kit_progress

    kit = Conformance(adapter, game, options=options, engine_name=engine_name)
    kit.scope = Scope(frozenset(players or ()), dict(rulings or {}),
                      tuple(variants) if variants else None, dict(parameters or {}))
    if declared and not rulings:
        from rulespec.conformance.play.coverage import declared_configs

        configs = declared_configs(kit.spec, adapter.hello(), players=players, variants=variants,
                                   parameters=parameters)
    else:
        configs = supported_configs(kit.spec, players=players, rulings=rulings,
                                    variants=variants, parameters=parameters)
    budget = kit.options.budget
    title = f"conform {game}" + (f" (budget {budget:g} s)" if budget else "")
    with kit_progress(kit, title, len(configs), show=show_progress, on_failure=on_failure):
        return kit.run(configs)
