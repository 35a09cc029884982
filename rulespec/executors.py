"""Where long work runs: this process, local worker processes, or a Dask distributed cluster.

The impact lab (``rulespec impact``) and the conformance matrix (``rulespec matrix``) split their
work into independent, picklable tasks and hand them to one of these executors, which offer the
``concurrent.futures`` interface (``submit`` returning a future with ``result``): a Dask
``distributed.Client`` offers the same, so a task runs unchanged on a cluster's workers. A task
must depend only on its arguments (and the rulespec installed where it runs), never on the
calling process's state, so that its result is the same whichever executor ran it.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, ClassVar

from rulespec.exitcodes import EXIT_USAGE

#: The extra that installs Dask distributed, as ``pip`` names it.
CLUSTER_EXTRA = "pip install 'rulespec[cluster]'"
#: Seconds the local worker processes are given to exit once the work is done (or abandoned)
#: before they are terminated.
SHUTDOWN_GRACE = 30.0


class ExecutorError(Exception):
    """An executor that cannot be had: Dask not installed, or its scheduler unreachable."""

    #: A usage error (``rulespec.exitcodes``): the command's options ask for what is not there.
    exit_code: ClassVar[int] = EXIT_USAGE


class InlineExecutor(Executor):
    """Run each task at once in this process (``--jobs 1``)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn`` now and return a finished future."""
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


@contextmanager
def executor_for(jobs: int, cluster: str | None = None) -> Iterator[Any]:
    """Yield an executor: in-process (1 job), ``jobs`` local processes, or the client of the
    Dask scheduler at ``cluster`` (``tcp://HOST:8786``), closed at the end of the block."""
    if cluster is not None:
        try:
            # Imported by name: the extra is optional, and Dask ships no type information.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise ExecutorError(f"--cluster needs Dask distributed; install the extra: "
                                f"{CLUSTER_EXTRA}") from None
        try:
            client = distributed.Client(cluster, timeout="10s")
        except (OSError, TimeoutError) as exc:
            raise ExecutorError(f"cannot reach the Dask scheduler at {cluster}: {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    if jobs <= 1:
        yield InlineExecutor()
        return
    pool = ProcessPoolExecutor(max_workers=jobs)
    try:
        yield pool
    finally:
        shut_down(pool, grace=SHUTDOWN_GRACE)


def shut_down(pool: ProcessPoolExecutor, *, grace: float) -> list[int]:
    """Shut ``pool`` down without waiting forever; return the pids of workers terminated.

    ``ProcessPoolExecutor``'s own exit waits for every worker, however long: a worker stuck (a
    task that never returns, or, seen once at the end of a ``rulespec matrix`` run, a worker
    blocked on the result queue's lock while the pool's manager thread joined it) held the
    command, and the interpreter's exit after it, for good, deaf to SIGTERM. Here the tasks not
    started are cancelled, the workers get ``grace`` seconds to finish what they run and exit,
    and the ones still alive are terminated, with a line on stderr naming them. The work handed
    back before is not touched: every caller has its results by then, or is leaving on an error.
    """
    # A snapshot of the workers and of the pool's manager thread before shutdown forgets them.
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + grace
    if manager is not None:
        # The manager thread joins every worker once the work is done, and ends: then none is
        # stuck. Joining the workers from here as well raced with it: the one that reaped a
        # worker first left the other's wait with "no child process", so a worker that had
        # exited looked alive, and was reported terminated (seen under pytest, about one shut
        # down in five).
        manager.join(timeout=grace)
        if not manager.is_alive():
            return []
    for worker in workers:
        worker.join(timeout=max(0.0, deadline - time.monotonic()))
    stuck = [w for w in workers if w.exitcode is None]
    for worker in stuck:
        worker.terminate()
    for worker in stuck:
        worker.join(timeout=5.0)
    if stuck:
        pids = ", ".join(str(w.pid) for w in stuck)
        print(f"rulespec: {len(stuck)} worker process(es) still running {grace:g} s after "
              f"the work ended were terminated (pid {pids})", file=sys.stderr)
    return [int(w.pid or 0) for w in stuck]
