"""Check configurations in several engine processes at once (``rulespec conform --jobs N``).

Each worker is a fork of the kit with its own engine (a fresh ``SubprocessAdapter`` on the same
command, or a fresh ``InProcessAdapter``); it checks a fixed share of the configurations (shared
out by player count, ``_shares``), stage by stage over its share as the sequential kit does over all of them (so a
budget is spent over every configuration, not on the first ones), and sends back each result as
it is finished, and each failure as it is confirmed. Without a budget the report is the
sequential one: results come back in the configurations' order, each configuration's games
depend only on it and the seed (Hypothesis is seeded per configuration), and failure traces are
written by each worker in a folder of its own then moved into the trace folder in the order the
sequential kit would have written them, so they get the same names. The budget's deadline and
``-x``'s stop flag are shared with the workers (``rulespec.conformance.judging.budget``).

Ending: a worker ends its engines on SIGINT/SIGTERM/SIGHUP like the kit does (the handlers are
inherited through the fork); the kit terminates its workers however it ends, and a worker whose
kit has gone stops by itself before its next configuration.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from rulespec.conformance.engine import processes
from rulespec.conformance.engine.adapters import InProcessAdapter, SubprocessAdapter
from rulespec.conformance.judging.budget import Budget
from rulespec.conformance.judging.checks import Failure, RunResult
from rulespec.conformance.play.options import Options
from rulespec.conformance.play.progress import KitListener
from rulespec.spec.errors import RulespecError


class ParallelKit(Protocol):
    """What the workers use of the kit (``rulespec.conformance.play.runner.Conformance``).

    Named here rather than imported, so that the kit's driver may import this module and not
    the other way round.
    """

    adapter: Any
    options: Options
    listener: KitListener | None
    steps_checked: int
    full_checks: int
    dead: str | None
    level: str
    budget: Budget

    def run_here(self, configs: list[Mapping[str, Any]]) -> list[RunResult]:
        """Check the configurations in this process."""

class WorkerFailed(RulespecError):
    """A worker process of the kit ended or failed before finishing its configurations."""


#: Seconds between two reports of a worker's checked steps (for the progress display).
_TICK = 0.5


def default_jobs() -> int:
    """Return the default number of engine processes: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def fresh_adapter(adapter: Any) -> Any | None:
    """Return a new adapter to the same engine as ``adapter`` (None when it cannot be copied),
    holding back the same rulings."""
    fresh: SubprocessAdapter | InProcessAdapter
    if isinstance(adapter, SubprocessAdapter):
        fresh = SubprocessAdapter(adapter.argv, timeout=adapter.timeout,
                                  startup_timeout=adapter.startup_timeout,
                                  max_line=adapter.max_line, cwd=adapter.cwd, env=adapter.env)
    elif type(adapter) is InProcessAdapter:
        fresh = InProcessAdapter(adapter._engines, name=adapter.name, factory=adapter._factory)
    else:
        return None
    fresh.hold(adapter.held)
    return fresh


def can_run_parallel(kit: ParallelKit, configs: Sequence[Mapping[str, Any]]) -> bool:
    """Return True when ``kit`` can check ``configs`` in more than one process."""
    return (kit.options.jobs > 1 and len(configs) > 1 and fresh_adapter(kit.adapter) is not None
            and "fork" in multiprocessing.get_all_start_methods())


def run_parallel(kit: ParallelKit, configs: Sequence[Mapping[str, Any]],
                 on_steps: Callable[[int], None] | None = None,
                 on_done: Callable[[int, RunResult], None] | None = None,
                 on_failure: Callable[[Failure], None] | None = None) -> list[RunResult]:
    """Check ``configs`` in ``kit.options.jobs`` forked workers; return results in order.

    ``on_steps(n)`` is called with steps checked since its last call, ``on_done(i, result)``
    when configuration ``i`` is finished, ``on_failure(failure)`` when a worker confirmed a
    failure (all in this process, for a progress display).
    """
    ctx = multiprocessing.get_context("fork")
    jobs = min(kit.options.jobs, len(configs))
    scratch = Path(tempfile.mkdtemp(prefix="rulespec-jobs-"))
    results: Any = ctx.Queue()
    shares = [[(i, dict(configs[i])) for i in share] for share in _shares(configs, jobs)]
    workers = [ctx.Process(target=_worker, args=(kit, share, results, scratch, os.getpid()),
                           daemon=True, name=f"rulespec-job-{n}")
               for n, share in enumerate(shares)]
    got: dict[int, tuple[RunResult, str | None]] = {}
    counted: dict[str, tuple[int, int]] = {}
    ticked = 0
    try:
        for w in workers:
            w.start()
        while len(got) < len(configs) or len(counted) < len(workers):
            try:
                msg = results.get(timeout=1.0)
            except queue.Empty:
                dead = [w for w in workers if w.exitcode not in (None, 0)]
                if dead:
                    raise WorkerFailed(f"a worker of the kit ended with status "
                                       f"{dead[0].exitcode} before finishing its "
                                       "configurations; run with --jobs 1 to see why") from None
                continue
            if msg[0] == "steps":
                ticked += msg[1]
                if on_steps is not None:
                    on_steps(msg[1])
            elif msg[0] == "error":
                raise WorkerFailed(f"a worker of the kit failed: {msg[1]}; run with --jobs 1 "
                                   "to see where")
            elif msg[0] == "failure":
                if on_failure is not None:
                    on_failure(msg[1])
            elif msg[0] == "counted":
                counted[msg[1]] = (msg[2], msg[3])
            else:
                _, i, result, dead_msg = msg
                got[i] = (result, dead_msg)
                if on_done is not None:
                    on_done(i, result)
        for steps, full in counted.values():
            kit.steps_checked += steps
            kit.full_checks += full
        out: list[RunResult] = []
        for i in range(len(configs)):
            result, dead_msg = got[i]
            if dead_msg is not None:
                kit.dead = dead_msg  # the last one in configuration order, as sequentially
            if result.level is not None:
                kit.level = result.level
            out.append(_move_traces(result, kit.options.trace_dir))
        if on_steps is not None and ticked:
            on_steps(-ticked)  # now counted in kit.steps_checked
        return out
    finally:
        _stop(workers)
        results.close()
        results.cancel_join_thread()
        shutil.rmtree(scratch, ignore_errors=True)


def _shares(configs: Sequence[Mapping[str, Any]], jobs: int) -> list[list[int]]:
    """Split the configurations among ``jobs`` workers, the largest player counts first, each
    to the worker with the fewest players so far (longer games go with more players): under a
    budget no worker sits idle with its share done while another's is cut short. Each share
    keeps the configurations' order."""
    load = [0] * jobs
    shares: list[list[int]] = [[] for _ in range(jobs)]
    order = sorted(range(len(configs)), key=lambda i: -int(configs[i].get("players", 0)))
    for i in order:
        n = load.index(min(load))
        shares[n].append(i)
        load[n] += int(configs[i].get("players", 0)) or 1
    return [sorted(share) for share in shares if share]


def _stop(workers: Sequence[Any]) -> None:
    """End every worker (each ends its engines on SIGTERM), killing any that lingers."""
    for w in workers:
        if w.is_alive():
            with contextlib.suppress(OSError):
                os.kill(w.pid, signal.SIGTERM)
    for w in workers:
        w.join(timeout=5)
        if w.is_alive():  # pragma: no cover - a worker stuck past its handler
            w.kill()
            w.join(timeout=2)


def _move_traces(result: RunResult, trace_dir: Path | None) -> RunResult:
    """Move a worker's traces into ``trace_dir`` under the names the sequential kit gives."""
    if trace_dir is None or not any(f.trace for f in result.failures):
        return result
    moved: list[Failure] = []
    for failure in result.failures:
        if failure.trace is None or not Path(failure.trace).is_file():
            moved.append(failure)
            continue
        source = Path(failure.trace)
        prefix = source.name.rsplit("-", 1)[0]  # GAME-CHECK, numbered per folder
        trace_dir.mkdir(parents=True, exist_ok=True)
        n = len(list(trace_dir.glob(f"{prefix}-*.jsonl"))) + 1
        target = trace_dir / f"{prefix}-{n}.jsonl"
        shutil.move(str(source), target)
        moved.append(replace(failure, trace=str(target)))
    result.failures = moved
    return result


def _worker(kit: ParallelKit, share: list[tuple[int, dict[str, Any]]], results: Any,
            scratch: Path, parent: int) -> None:
    """Check the configurations of ``share`` with a fresh engine; put each result as it is
    finished, each failure as it is confirmed, and the steps checked at the end."""
    # The kit's engines were copied into this process's registry by the fork: not ours.
    processes._LIVE.clear()
    for sig in processes.SIGNALS:  # end this worker's engines on a signal, whoever set what
        signal.signal(sig, _end_worker)
    code = 0
    try:
        fresh = fresh_adapter(kit.adapter)
        if fresh is None:  # pragma: no cover - can_run_parallel checked
            raise RuntimeError("this adapter cannot be copied into a worker")
        kit.adapter = fresh
        # The kit's display lives in the kit's process: this worker forwards to it.
        kit.listener = _Forward(kit, results, [i for i, _ in share], parent)
        ticker = _Ticker(kit, results)
        try:
            kit.options = replace(kit.options, trace_dir=(
                None if kit.options.trace_dir is None else scratch / f"job-{share[0][0]}"))
            steps, full = kit.steps_checked, kit.full_checks
            kit.dead = None
            kit.run_here([config for _, config in share])
            ticker.flush()
            results.put(("counted", f"job-{share[0][0]}", kit.steps_checked - steps,
                         kit.full_checks - full))
        finally:
            ticker.stop()
            with contextlib.suppress(Exception):
                kit.adapter.close()
    except processes.Interrupted as exc:
        code = exc.code
    except BaseException as exc:  # reported to the kit, which says it in words
        with contextlib.suppress(Exception):
            results.put(("error", f"{type(exc).__name__}: {exc}"))
        code = 1
    finally:
        processes.end_all()
    results.close()
    results.join_thread()
    os._exit(code)


def _end_worker(signum: int, frame: object) -> None:
    """End this worker's engines, then the worker, at once (no exception to be swallowed).

    While an engine is being started the signal waits, as in the kit, until it is registered
    (``processes.spawning`` then raises ``Interrupted``, which ends the worker the same way).
    """
    if processes._spawning:
        processes._pending.append(signum)
        return
    processes.end_all()
    os._exit(128 + signum)


class _Forward:
    """The listener of a worker's kit: finished configurations and confirmed failures go to
    the kit's process; a worker whose kit has gone stops before its next stage."""

    def __init__(self, kit: ParallelKit, results: Any, indices: list[int], parent: int) -> None:
        self.kit = kit
        self.results = results
        self.indices = indices
        self.parent = parent

    def activity(self, text: str) -> None:
        """Stop when the kit has gone (nothing is displayed here)."""
        if os.getppid() != self.parent:
            raise processes.Interrupted(signal.SIGHUP)

    def config_done(self, index: int, result: RunResult) -> None:
        """Send configuration ``index`` of this worker's share, finished."""
        self.results.put(("done", self.indices[index], result, self.kit.dead))

    def steps(self, count: int) -> None:
        """Steps are sent by the ticker."""

    def failure(self, failure: Failure) -> None:
        """Send a confirmed failure, to be shown at once."""
        self.results.put(("failure", failure))


class _Ticker:
    """Send the worker's checked steps to the kit every ``_TICK`` seconds."""

    def __init__(self, kit: ParallelKit, results: Any) -> None:
        self.kit = kit
        self.results = results
        self.sent = kit.steps_checked
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(_TICK):
            self.flush()

    def flush(self) -> None:
        with self._lock:
            now = self.kit.steps_checked
            if now != self.sent:
                self.results.put(("steps", now - self.sent))
                self.sent = now

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
