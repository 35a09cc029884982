"""The conformance matrix: every engine of a list on every game it plays, in parallel, stamped.

The engine list file (``engines_file``, format ``rulespec-engines/1``), the run and its stamped
reports (``run``) and ``rulespec matrix`` (``cli``). Until rulespec 0.4.0 ``run`` was the module
``rulespec.conformance.matrix`` itself: its names still read from here, with a warning, until
rulespec 0.5.0.

May use: every other stage of the kit. Running many things at once over an executor (this
process, local processes, a Dask cluster) goes here or in ``rulespec.executors``, never in a
stage below.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

#: This package's own modules: never looked up in ``run``.
_MODULES = frozenset({"cli", "engines_file", "run"})


def __getattr__(name: str) -> Any:
    if name.startswith("__") or name in _MODULES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from rulespec.conformance import _moved

    run = importlib.import_module(f"{__name__}.run")
    if not hasattr(run, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"{__name__}.{name} moved to {run.__name__}.{name} in rulespec 0.4.0; the old name stops "
        f"working in rulespec {_moved.REMOVED_IN}: import it from {run.__name__}",
        _moved.RemovedIn05Warning, stacklevel=2)
    return getattr(run, name)
