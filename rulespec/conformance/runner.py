"""The kit's driver: which games are played against an engine under test, and in what order.

Each configuration is played in stages (``schedule``), then, steered, in games sought for what
it did not reach; the golden traces are replayed last. One game is played and checked step by
step by the mixin ``GamePlay`` (``rulespec.conformance.playing``). Hypothesis drives the play (``st.data()`` picks each action, chance outcomes included), so a
failure shrinks to a minimal game. Each configuration is one Hypothesis run; the first failing
check stops it, Hypothesis shrinks the game, and the minimal game is written as a trace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulespec.conformance.adapters import Adapter
from rulespec.conformance.checks import Failure, Report, RunResult
from rulespec.conformance.examples_check import run_rule_examples
from rulespec.conformance.levels import projection
from rulespec.conformance.options import Options, merge_runs, schedule, supported_configs
from rulespec.conformance.parallel import can_run_parallel, run_parallel
from rulespec.conformance.perft_check import perft_check
from rulespec.conformance.playing import AbortConfig, FoundFailure, GamePlay, OutOfTime
from rulespec.conformance.probes import ProbeMaker
from rulespec.conformance.progress import KitListener
from rulespec.conformance.protocol import EngineError, EngineFailure, Legal
from rulespec.conformance.replay import load_golden, replay_golden
from rulespec.conformance.steering import Watch, continuation
from rulespec.conformance.tracefile import write_failure_trace
from rulespec.conformance.verdicts import Verdicts
from rulespec.conformance.versions import VersionView, today, view_for
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

    # -- public ------------------------------------------------------------------------------

    def run(self, configs: Iterable[Mapping[str, Any]]) -> Report:
        """Check every configuration, then the golden traces; return the report."""
        report = Report(self.engine_name, self.spec.game_id, self.spec.version)
        configs = list(configs)
        report.checked_as = self.version = self._checked_as()
        hold = getattr(self.adapter, "hold", None)
        if callable(hold):
            hold(frozenset(self.version.held))
        if self.options.rule_examples:
            self._tell("rule examples")
            asked = dict(configs[0].get("rulings", {})) if configs else {}
            report.examples = run_rule_examples(self.adapter, self.spec, rulings=asked,
                                                trace_dir=self.options.trace_dir,
                                                newer=self.version.newer)
        # Golden traces follow the player counts asked for (and those the engine declares).
        self._players = {int(c["players"]) for c in configs if "players" in c}
        report.runs = self._run_configs(configs)
        if self.options.golden:
            if self.dead is None:
                self._tell("golden traces")
                report.golden = self.run_golden()
            report.golden_not_run = self.dead
            report.golden_newer = list(self.golden_newer)
        if not self.version.today:
            _explain_changes(report, self.version)
        return report

    def _checked_as(self) -> VersionView:
        """Return the release the engine is checked as (today's when it cannot be asked: the
        failure to answer is reported by the checks that need the engine)."""
        try:
            hello = self.adapter.hello()
        except EngineFailure:
            hello = None
        return view_for(self.spec, hello, override=self.options.spec_version)

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
        newer = self.version.newer(cfg)
        if unsupported or newer:
            result.skipped = "; ".join([newer] if newer else unsupported)
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
        except AbortConfig as abort:
            result.failures.append(self._write_trace(abort.failure))
        except OutOfTime:
            if self._last is not None:
                result.failures.append(self._keep_smallest(config, salt))
        except Exception as exc:
            # FoundFailure, or Hypothesis's own error when the shrink budget cut shrinking short
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
        except AbortConfig as abort:
            got.failures.append(self._write_trace(abort.failure))
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
                except AbortConfig:
                    return
                except (OutOfTime, Exception):  # a failure found, or the time budget spent
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
        self.golden_newer = []
        for path in golden_paths(self.spec.game_id):
            trace = read_trace(path)
            config = config_from_json(self.spec, trace.config)
            if self._players and config.players not in self._players:
                continue
            if self.version.newer(config.to_json()):
                self.golden_newer.append(path.name)
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


def _explain_changes(report: Report, version: VersionView) -> None:
    """Name, in each failure, the MAJOR spec changes since ``version`` that touch it."""
    if report.examples is not None:
        report.examples.failures = [version.explain(f) for f in report.examples.failures]
    for run in report.runs:
        run.failures = [version.explain(f) for f in run.failures]
    report.golden = [(name, None if f is None else version.explain(f))
                     for name, f in report.golden]


def _describe(config: Mapping[str, Any], salt: int) -> str:
    """Say which configuration is being checked, in words (for a progress display)."""
    rulings = ", ".join(f"{a}={o}" for a, o in sorted(dict(config.get("rulings", {})).items()))
    stage = "first games" if salt == 0 else "more games"
    return f"{config.get('players')} players{f' ({rulings})' if rulings else ''}: {stage}"



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
