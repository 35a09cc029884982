"""Verify one configuration, or one configuration under every option it reaches.

``verify`` explores a configuration, then checks the end conditions on the whole graph (no
trap; acyclic or not), says which invariants are proven and which only checked, writes the
shortest trace of a violation, and solves the outcome probabilities. ``verify_rulings`` does it
for the configuration as given (the baseline) and again for every other option of every
ambiguity the baseline reaches, one option at a time, as the impact lab pairs its games, and
gives each seat's exact change in win probability.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulespec.reference.core import Config, ConfigError, Engine, make_config
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec
from rulespec.verify.checks import Violation
from rulespec.verify.explore import Exploration, Explorer, Progress
from rulespec.verify.graph import components, cyclic_components, traps
from rulespec.verify.keys import collision_probability
from rulespec.verify.outcomes import OptimalPlay, Outcomes, optimal_play, uniform_outcomes
from rulespec.verify.parallel import ParallelExplorer
from rulespec.verify.store import StateStore
from rulespec.verify.symmetry import Seats, unfold
from rulespec.verify.traces import write_trace
from rulespec.verify.walks import MERGE_WALKS, Drawn, Walks, draw_merges, walk_drawn

#: Above this many states the outcome probabilities are solved in floating point only.
EXACT_STATES = 300_000
#: The search stops at this many distinct states unless told otherwise.
MAX_STATES = 2_000_000
#: ... or when the process holds this much memory (the engines on the queue grow it).
MAX_MEMORY = 4 * 2**30


@dataclass(frozen=True)
class Bounds:
    """How far to search and what to compute."""

    #: The view's terms (``rulespec.verify.keys.View``): fields forgotten or abstracted.
    view: tuple[str, ...] = ()
    max_states: int | None = MAX_STATES
    max_depth: int | None = None
    max_memory: int | None = MAX_MEMORY
    check_merges: bool = True
    optimal: bool = False
    outcomes: bool = True
    #: With a view: distinct states of the search on canonical states whose outcome
    #: probabilities the view's must fall within (0: no cross-check).
    cross_check: int = 20_000
    #: Where the view comes from, said in the report: "" (the command line, or none) or
    #: "spec" (the view the spec declares beside its fields, x-verify).
    view_source: str = ""
    #: The seats' rotations merged (the spec's declaration, ``x-verify: {rotate: ...}``);
    #: None: no seat symmetry.
    symmetry: Seats | None = None
    #: Merges walked after the search, each merged engine with its representative along the
    #: same random moves (``rulespec.verify.walks``; 0: none).
    merge_walks: int = MERGE_WALKS


@dataclass(frozen=True)
class Setup:
    """A game and a configuration to verify, from which variations under other rulings come."""

    spec: Spec
    engine_type: type[Engine]
    players: int | None = None
    rulings: Mapping[str, str] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, spec: Spec, **kwargs: Any) -> Setup:
        """Return the setup of the reference engine of ``spec``."""
        return cls(spec, engine_class(spec), **kwargs)

    def config(self, extra: Mapping[str, str] | None = None) -> Config:
        """Return the resolved configuration (with ``extra`` rulings on top)."""
        return make_config(self.spec, players=self.players, rulings={**self.rulings, **(extra or {})},
                           variants=self.variants, parameters=self.parameters)

    def engine(self, extra: Mapping[str, str] | None = None) -> Engine:
        """Return a fresh engine of the configuration (with ``extra`` rulings on top)."""
        return self.engine_type(self.spec, self.config(extra))


@dataclass
class Verification:
    """What verifying one configuration found."""

    config: dict[str, Any]
    exploration: Exploration
    bounds: Bounds
    #: Expanded states from which no terminal state can be reached (a trap), first ones first.
    trap_states: list[int] = field(default_factory=list)
    acyclic: bool = True
    cyclic_components: int = 0
    largest_component: int = 1
    uniform: Outcomes | None = None
    optimal: OptimalPlay | None = None
    #: With a view: the search on canonical states the view's outcomes were checked against.
    canonical: Verification | None = None
    #: Invariant id -> "proven", or "checked" (held wherever it was evaluated, not proven).
    invariant_status: dict[str, str] = field(default_factory=dict)
    #: With seat symmetry: the states as reached that the states up to rotation stand for (the
    #: graph the outcome figures are solved on).
    unfolded_states: int = 0
    #: What the merge walks did (None: none were walked).
    walks: Walks | None = None

    @property
    def violations(self) -> list[Violation]:
        """Return the violations found (at most one per kind of search: the search stops)."""
        return self.exploration.violations

    @property
    def status(self) -> str:
        """Return ``violated``, ``proved`` (every reachable state) or ``bounded``."""
        if self.violations:
            return "violated"
        return "proved" if self.exploration.complete else "bounded"

    @property
    def collision_probability(self) -> float:
        """Return TLC's optimistic estimate of a fingerprint collision among the states."""
        return collision_probability(self.exploration.stats.states)


def verify(engine: Engine, bounds: Bounds, *, trace_dir: Path | None = None,
           progress: Progress | None = None, trace_tag: str = "", executor: Any = None,
           workers: int = 1) -> Verification:
    """Explore ``engine``'s configuration from its start and check everything (see module;
    ``trace_tag``: a word in the names of the traces written, so that the searches of one run
    under other options do not write over each other's; ``executor``: the search's work per
    state shared out between its ``workers``, ``rulespec.verify.parallel``, with the same
    result)."""
    options: dict[str, Any] = dict(
        view=bounds.view, max_states=bounds.max_states, max_depth=bounds.max_depth,
        max_memory=bounds.max_memory, check_merges=bounds.check_merges, progress=progress,
        symmetry=bounds.symmetry)
    explorer = (Explorer(engine, **options) if executor is None
                else ParallelExplorer(engine, executor=executor, workers=workers, **options))
    exploration = explorer.run()
    out = Verification(engine.config.to_json(), exploration, bounds)
    store = exploration.store
    states = f"{len(store):,} states"
    if not exploration.violations:
        _stage(progress, f"searched {states}: can every state reach the end?")
        found = traps(store)
        if found:
            out.trap_states = found
            exploration.violations.append(Violation(
                "TRAP", f"{len(found):,} reachable state(s) cannot reach the end of the game "
                "(a cycle with no way out, or a state nobody can leave); the trace leads to the "
                "nearest", tuple(store.path(found[0]))))
    # With workers, the walks and the view's cross-check run on them while this process
    # solves the outcomes (which a difference the walks find then drops, as if not solved).
    walking = checking = None
    if not exploration.violations and bounds.check_merges and bounds.merge_walks:
        _stage(progress, f"searched {states}: walking {bounds.merge_walks:,} merges")
        if executor is None:
            _walk(engine, bounds, out)
        else:
            walking = executor.submit(_walk_drawn, engine, bounds,
                                      draw_merges(exploration, bounds.merge_walks))
    if (executor is not None and bounds.view and bounds.cross_check and bounds.outcomes
            and not exploration.violations):
        checking = executor.submit(verify, engine, _plain(bounds))
    groups = components(store)
    cyclic = cyclic_components(store, groups)
    out.acyclic = not cyclic
    out.cyclic_components = len(cyclic)
    out.largest_component = max((len(g) for g in groups), default=1)
    if bounds.outcomes and not exploration.violations:
        # A bounded search's figures are intervals anyway, and their exact fractions grow a
        # digit or more per level: floating point there.
        solved = _as_reached(exploration, out)
        exact = exploration.complete and len(solved) <= EXACT_STATES
        _stage(progress, f"searched {states}: solving the outcomes under uniform random "
               f"players{' in exact fractions' if exact else ''}")
        out.uniform = uniform_outcomes(solved, engine.players, exact=exact)
        if bounds.optimal and engine.players == 2 and exploration.complete:
            _stage(progress, f"searched {states}: solving optimal play")
            out.optimal = optimal_play(solved)
    if walking is not None:
        _stage(progress, f"searched {states}: waiting for the walks")
        out.walks, found = walking.result()
        if found is not None:
            exploration.violations.append(found)
            out.uniform = out.optimal = None
            out.unfolded_states = 0
    out.invariant_status = _invariant_status(exploration)
    if bounds.view and bounds.cross_check and out.uniform is not None:
        _stage(progress, f"searched {states}: checking the view against up to "
               f"{bounds.cross_check:,} canonical states")
        _cross_check(engine, bounds, out, None if checking is None else checking.result())
    elif checking is not None:
        checking.cancel()
    if trace_dir is not None:
        _write_traces(exploration, trace_dir, trace_tag)
    return out


def _stage(progress: Progress | None, text: str) -> None:
    """Say on the progress line what the run does after its search (a progress that has a
    ``stage`` method, as the command line's has; the searches report through ``progress``)."""
    say = getattr(progress, "stage", None)
    if callable(say):
        say(text)


def _as_reached(exploration: Exploration, out: Verification) -> StateStore:
    """Return the graph the outcomes are solved on: the explored one, or with seat symmetry
    the states as reached rebuilt from it, so each seat's figures are its own."""
    rotation = exploration.rotation
    if rotation is None:
        return exploration.store
    solved = unfold(exploration.store, exploration.rotations, rotation.players)
    out.unfolded_states = len(solved)
    return solved


def _walk(engine: Engine, bounds: Bounds, out: Verification) -> None:
    """Walk a sample of the search's merges further than one step (``rulespec.verify.walks``)."""
    out.walks, found = _walk_drawn(engine, bounds, draw_merges(out.exploration,
                                                               bounds.merge_walks))
    if found is not None:
        out.exploration.violations.append(found)


def _walk_drawn(engine: Engine, bounds: Bounds, drawn: Drawn) -> tuple[Walks, Violation | None]:
    """Walk the merges drawn, with an explorer of the configuration of its own (a task a
    worker can run: the paths, not the graph)."""
    walker = Explorer(engine, view=bounds.view, symmetry=bounds.symmetry, share=False,
                      remember=False)
    return walk_drawn(walker, drawn)


#: Floating-point slack when comparing a view's outcomes with the canonical search's.
SLACK = 1e-9


def _plain(bounds: Bounds) -> Bounds:
    """Return the bounds of the view's cross-check: canonical states, up to ``cross_check``."""
    return Bounds(max_states=bounds.cross_check, max_depth=bounds.max_depth,
                  max_memory=bounds.max_memory, check_merges=bounds.check_merges,
                  cross_check=0, merge_walks=0)


def _cross_check(engine: Engine, bounds: Bounds, out: Verification,
                 canonical: Verification | None = None) -> None:
    """Search canonical states (no view, bounded; ``canonical``: that search, made on a
    worker) and check the view's win probabilities lie within the intervals that search gives;
    its own violations are reported too."""
    if canonical is None:
        canonical = verify(engine, _plain(bounds))
    out.canonical = canonical
    violations = out.exploration.violations
    if canonical.violations:
        found = canonical.violations[0]
        violations.append(Violation(found.kind, found.message + " (found by the search on "
                                    "canonical states that checks the view)", found.path,
                                    found.clauses, found.subject, found.other))
        return
    assert out.uniform is not None and canonical.uniform is not None
    slack = canonical.uniform.unexplored
    for seat, (mine, low) in enumerate(zip(out.uniform.wins, canonical.uniform.wins,
                                           strict=True)):
        if not float(low) - SLACK <= float(mine) <= float(low + slack) + SLACK:
            violations.append(Violation(
                "VIEW", f"the view changes the outcomes: seat {seat} wins with probability "
                f"{float(mine):.9f} in the merged graph, but between {float(low):.9f} and "
                f"{float(low + slack):.9f} on canonical states ({canonical.exploration.stats.states:,} "
                f"states searched): the forgotten fields decide the future somewhere the "
                "one-step check of merges did not look", ()))
            return


def _invariant_status(exploration: Exploration) -> dict[str, str]:
    complete = exploration.complete and not exploration.violations
    unkeyed = exploration.checks.unkeyed
    return {inv.ident: ("proven" if complete and inv.ident not in unkeyed else "checked")
            for inv in exploration.checks.invariants}


def _write_traces(exploration: Exploration, folder: Path, tag: str = "") -> None:
    game = exploration.engine.spec.game_id + (f"-{tag}" if tag else "")
    for n, v in enumerate(exploration.violations):
        if v.kind == "VIEW":  # about the whole graph, not one path
            continue
        paths = [v.path] if v.other is None else [v.path, v.other]
        written = []
        for k, path in enumerate(paths):
            suffix = "" if len(paths) == 1 else f"-{'ab'[k]}"
            name = f"verify-{game}-{v.kind.lower()}{'-' + str(n) if n else ''}{suffix}.jsonl"
            written.append(str(write_trace(exploration.engine, path, folder / name)))
        exploration.violations[n] = Violation(v.kind, v.message, v.path, v.clauses, v.subject,
                                              v.other, tuple(written))


# -- every option the configuration reaches --------------------------------------------------------


@dataclass(frozen=True)
class OptionRun:
    """One other option of a reached ambiguity, verified with the baseline's bounds."""

    ambiguity: str
    option: str
    verification: Verification | None
    #: Why it was not run (its readings play exactly as the baseline here, or it is refused).
    skipped: str | None = None

    def win_changes(self, baseline: Verification) -> list[Fraction | float] | None:
        """Return each seat's win probability under this option minus the baseline's."""
        if self.verification is None or self.verification.uniform is None:
            return None
        if baseline.uniform is None:
            return None
        return [a - b for a, b in zip(self.verification.uniform.wins, baseline.uniform.wins,
                                      strict=True)]


@dataclass
class RulingsRun:
    """A baseline configuration and every other option of every ambiguity it reaches."""

    baseline: Verification
    options: list[OptionRun]
    #: The ambiguities the baseline reaches (decision points counted by the engine).
    reached: list[str]
    #: True when the engine counts no decision point at all, so every ambiguity was run.
    uncounted: bool = False


def options_to_run(setup: Setup, baseline: Verification) -> tuple[list[str], bool]:
    """Return the ambiguities whose other options are run, and whether the engine counts none."""
    reached = sorted(baseline.exploration.reached)
    if reached:
        return reached, False
    return sorted(setup.spec.ambiguities), True


def verify_rulings(setup: Setup, bounds: Bounds, *, trace_dir: Path | None = None,
                   progress: Progress | None = None, announce: Any = None,
                   options: bool = True, executor: Any = None) -> RulingsRun:
    """Verify the baseline, then (unless ``options`` is false) each other option of every
    ambiguity it reaches.

    With an ``executor`` (``rulespec.executors``: local processes or a Dask cluster) the
    options' searches run on it side by side, each the same search as in this process, so the
    run is the same whichever ran it; ``announce`` is then called as each one ends, with the
    count done, not before it starts."""
    baseline_engine = setup.engine()
    baseline = verify(baseline_engine, bounds, trace_dir=trace_dir, progress=progress)
    ambiguities, uncounted = options_to_run(setup, baseline)
    base_config = baseline_engine.config
    wanted = [(amb, option) for amb in (ambiguities if options else ())
              for option in _other_options(setup.spec, amb, base_config.rulings[amb])]
    if executor is None:
        runs: list[OptionRun] = []
        for amb, option in wanted:
            if announce is not None:
                announce(amb, option)
            runs.append(_run_option(setup, bounds, amb, option, base_config, trace_dir,
                                    progress))
    else:
        futures = [executor.submit(_run_option, setup, bounds, amb, option, base_config,
                                   trace_dir, None) for amb, option in wanted]
        runs = gather(futures, wanted, announce)
    return RulingsRun(baseline, runs, ambiguities, uncounted)


def gather(futures: Sequence[Any], wanted: Sequence[tuple[str, str]],
           announce: Any = None) -> list[OptionRun]:
    """Return the option runs of ``futures`` in the order submitted, announcing each as it
    ends (``announce(AMB, "OPTION (k of n done)")``, from this thread)."""
    for done, k in enumerate(as_they_end(futures), start=1):
        if announce is not None:
            amb, option = wanted[k]
            announce(amb, f"{option} ({done} of {len(futures)} done)")
    return [f.result() for f in futures]


def as_they_end(futures: Sequence[Any]) -> Iterator[int]:
    """Yield the index of each future as it ends (local processes' futures and Dask's alike:
    both call back when a task ends, from a thread of theirs)."""
    import queue

    ended: queue.Queue[int] = queue.Queue()
    for k, future in enumerate(futures):
        future.add_done_callback(lambda _f, k=k: ended.put(k))
    for _ in futures:
        yield ended.get()


def _other_options(spec: Spec, ambiguity: str, chosen: str) -> Sequence[str]:
    return [str(o["id"]) for o in spec.ambiguities[ambiguity]["options"] if o["id"] != chosen]


def _run_option(setup: Setup, bounds: Bounds, amb: str, option: str, base: Config,
                trace_dir: Path | None, progress: Progress | None) -> OptionRun:
    try:
        config = setup.config({amb: option})
    except ConfigError as exc:
        return OptionRun(amb, option, None, f"refused: {exc}")
    record = next(o for o in setup.spec.ambiguities[amb]["options"] if o["id"] == option)
    if not record.get("behaviour") and dict(config.parameters) == dict(base.parameters):
        return OptionRun(amb, option, None, "its parameters are overridden by the "
                         "configuration's own, so it plays exactly as the baseline")
    engine = setup.engine_type(setup.spec, config)
    return OptionRun(amb, option, verify(engine, bounds, trace_dir=trace_dir, progress=progress,
                                        trace_tag=f"{amb.lower()}-{option}"))
