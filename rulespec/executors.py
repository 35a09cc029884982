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
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, ClassVar

from rulespec.exitcodes import EXIT_USAGE

#: The extra that installs Dask distributed, as ``pip`` names it.
CLUSTER_EXTRA = "pip install 'rulespec[cluster]'"


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
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield pool
