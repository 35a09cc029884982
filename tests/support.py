"""Helpers for the game tests: random games under rulings with every invariant checked."""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import math
import os
import random
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import jsonschema
import pytest

from rulespec.reference.core import Action, Actor, Engine
from rulespec.reference.play import playout
from rulespec.reference.registry import new_game
from rulespec.spec.invariants import Invariants
from rulespec.spec.model import Spec
from rulespec.spec.registry import get_spec

#: The benchmark scripts, which are not a package.
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark_script(name: str) -> ModuleType:
    """Return ``benchmarks/NAME.py`` loaded as a module (registered, so its dataclasses and
    pickles find it)."""
    spec = importlib.util.spec_from_file_location(f"rulespec_benchmark_{name}",
                                                  BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def ruling_sets(spec: Spec, *, limit: int = 64) -> list[dict[str, str]]:
    """Return rulings covering every option of every ambiguity.

    All combinations when there are at most ``limit``; otherwise the defaults with one option
    changed at a time (every option exercised at least once), plus a few mixed combinations.
    """
    ambs = spec.ambiguities
    choices = {aid: [str(o["id"]) for o in a["options"]] for aid, a in ambs.items()}
    total = 1
    for opts in choices.values():
        total *= len(opts)
    if total <= limit:
        return [dict(zip(choices, combo, strict=True))
                for combo in itertools.product(*choices.values())]
    defaults = spec.default_rulings()
    out = [dict(defaults)]
    for aid, opts in choices.items():
        for opt in opts:
            if opt != defaults[aid]:
                out.append({**defaults, aid: opt})
    rng = random.Random(spec.game_id)
    for _ in range(8):
        out.append({aid: rng.choice(opts) for aid, opts in choices.items()})
    return out


def checked_game(
    game_id: str,
    *,
    seed: int,
    players: int | None = None,
    rulings: Mapping[str, str] | None = None,
    variants: Sequence[str] = (),
    parameters: Mapping[str, Any] | None = None,
    max_steps: int = 200_000,
) -> Engine:
    """Play one random game, checking schema and every invariant at every step."""
    spec = get_spec(game_id)
    engine = new_game(game_id, players=players, rulings=rulings, variants=variants,
                      parameters=parameters)
    invariants = Invariants(spec)
    validator = jsonschema.Draft202012Validator(spec.state_schema)
    config = engine.config.to_json()
    params = dict(engine.config.parameters)
    prev = engine.state()
    _check(validator, invariants, prev, None, None, params, config, 0)
    for n, step in enumerate(playout(engine, random.Random(seed), max_steps=max_steps), 1):
        state = engine.state()
        _check(validator, invariants, state, prev, step.action, params, config, n)
        prev = state
    return engine


def _check(
    validator: jsonschema.Draft202012Validator,
    invariants: Invariants,
    state: dict[str, Any],
    prev: dict[str, Any] | None,
    action: Action | None,
    params: dict[str, Any],
    config: dict[str, Any],
    n: int,
) -> None:
    errors = sorted(validator.iter_errors(state), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path)
        raise AssertionError(f"step {n}: state does not match the state schema at {where}: "
                             f"{errors[0].message}")
    violations = invariants.check(state, prev=prev, action=action, params=params, config=config)
    if violations:
        raise AssertionError(f"step {n} after {action!r} under {config!r}: "
                             + "; ".join(str(v) for v in violations))


def apply_all(engine: Engine, actions: Sequence[Action]) -> None:
    """Apply a scripted sequence of actions."""
    for action in actions:
        engine.apply(action)


def actors(engine: Engine) -> Iterator[Actor | None]:
    """Yield who is to move (test helper for scripted scenarios)."""
    yield engine.current_player()


def same_json(a: Any, b: Any) -> bool:
    """Equal values of the same types all the way down (``1 == True`` is not enough; a NaN is
    the same as a NaN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    return bool(a == b) or (isinstance(a, float) and math.isnan(a) and math.isnan(b))


def without_keys(value: Any, keys: frozenset[str] | set[str]) -> Any:
    """Return a JSON value with every object's ``keys`` left out, at every depth (a report's
    timings, the only fields two runs of the same work may differ in)."""
    if isinstance(value, dict):
        return {k: without_keys(v, keys) for k, v in value.items() if k not in keys}
    if isinstance(value, list):
        return [without_keys(v, keys) for v in value]
    return value


@contextmanager
def dask_cluster() -> Iterator[Any]:
    """Yield the client of a Dask LocalCluster of one worker with two threads in this process
    (the executors' ``--cluster``), closed at the end; skipped as ``dask_distributed`` says."""
    distributed = dask_distributed()
    from rulespec.executors import executor_for

    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                       dashboard_address=None)
    try:
        with executor_for(1, cluster.scheduler_address) as client:
            yield client
    finally:
        cluster.close()


def dask_distributed() -> Any:
    """Return Dask's ``distributed`` module; skip the test where the ``cluster`` extra is not
    installed (fail it in CI, which installs it)."""
    try:
        return importlib.import_module("distributed")
    except ImportError as exc:
        message = (f"Dask distributed is not installed ({exc}); install the 'cluster' extra: "
                   "pip install -e '.[cluster]'")
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
