"""How hard the kit looks, and which configurations it plays."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.conformance.judging.checks import RunResult
from rulespec.spec.model import Spec


@dataclass(frozen=True)
class Options:
    """How hard the kit looks."""

    #: Hypothesis examples (games) per configuration.
    examples: int = 40
    #: Longest game played, in actions (longer games stop there; their checks still count).
    max_steps: int = 3000
    #: Probe an illegal action every this many steps (0: never).
    probe_every: int = 3
    #: Replay every this-many-th game in a fresh game to check determinism (0: never).
    determinism_every: int = 4
    #: Fixed Hypothesis seed for reproducible runs (None: derandomized per configuration).
    seed: int | None = None
    #: Check the engine as this release of the spec, whatever it declares (None: what it
    #: declares in hello; ``rulespec.conformance.judging.versions``).
    spec_version: str | None = None
    #: Where minimal failing traces are written (None: not written).
    trace_dir: Path | None = None
    #: Replay the committed golden traces too.
    golden: bool = True
    #: Shrink failures to a minimal game (turn off only to save time).
    shrink: bool = True
    #: Check the schema and every invariant on every state. Otherwise they are checked on
    #: every state that differs from the reference's, on every terminal state, and on one
    #: state in ``sample_every`` (a state equal to the reference's gets the reference's
    #: verdict, which the reference's own tests check at every step).
    full: bool = False
    #: Without ``full``: check the schema and invariants on one state in this many.
    sample_every: int = 32
    #: Seconds Hypothesis may spend shrinking a failure (the smallest game so far is kept).
    shrink_seconds: float = 15.0
    #: Seconds the PERFT check may spend per configuration before it stops going deeper
    #: (0: no PERFT check).
    perft_seconds: float = 1.0
    #: Run the spec's rule examples first (check EXAMPLE).
    rule_examples: bool = True
    #: The most positions of one ply the PERFT check visits.
    perft_nodes: int = 400
    #: Seconds spent afterwards playing other games capped below the failing game's length, to
    #: find a shorter one with the same check (0: never).
    shorter_seconds: float = 10.0
    #: Games per round of that search for a shorter failing game.
    shorter_examples: int = 30
    #: On a divergence, name the ruling options under which the reference does what the engine
    #: did (replays of the minimal game under each alternative option, then pairs).
    infer_rulings: bool = True
    #: Seconds the ruling inference of one failure may take.
    infer_seconds: float = 10.0
    #: Games per configuration in the first stage, which visits every configuration before any
    #: gets the rest of its games (0: each configuration plays all its games in turn).
    warmup_examples: int = 3
    #: Engine processes checking configurations at once (1: in this process, one at a time;
    #: more: forked workers, each with its own engine; the report is the same).
    jobs: int = 1
    #: Steer play toward what the configuration has not exercised yet: unexercised action kinds
    #: first, and games along the rule examples that reach the spec's rare events first
    #: (``rulespec.conformance.play.steering``). Off: Hypothesis's choices alone.
    steer: bool = True
    #: Actions of reference-only games the steering may play per configuration, after the
    #: Hypothesis games, searching for what is still not reached (the games found are then
    #: played with every check).
    seek_steps: int = 5000
    #: Wall-clock seconds for the whole run, spent by priority (``rulespec.conformance.judging.budget``):
    #: rule examples, golden traces and PERFT first, then games in rounds over every
    #: configuration, then the games sought for what play did not reach. None: no limit (every
    #: game of ``examples`` is played). ``rulespec conform`` sets ``DEFAULT_BUDGET``.
    budget: float | None = None
    #: Stop the run at the first failure confirmed (``-x``).
    fail_fast: bool = False


#: The budget of a ``rulespec conform`` run, in seconds (``--budget``): an honest engine's run
#: ends within it, and a bug the kit can find is almost always found within half of it
#: (``docs/implementers/conformance.md``, "Time budget").
DEFAULT_BUDGET = 60.0
#: Games per configuration in each round of a run with a budget: every configuration gets a
#: round before any gets the next, so a budget spent early leaves none unplayed.
ROUND = 8


def schedule(options: Options) -> list[tuple[int, int]]:
    """Return the stages of a run: (salt, games per configuration), the short stage first.

    With a budget, the games after the first stage come in rounds of ``ROUND``, each played
    over every configuration before the next (each round its own salt, so other games).
    """
    warm = options.warmup_examples
    if not 0 < warm < options.examples:
        return [(0, options.examples)]
    rest = options.examples - warm
    if options.budget is None:
        return [(0, warm), (1, rest)]
    rounds = [(0, warm)]
    while rest > 0:
        rounds.append((len(rounds), min(ROUND, rest)))
        rest -= ROUND
    return rounds


def merge_runs(first: RunResult, then: RunResult) -> RunResult:
    """Return one configuration's result over two stages."""
    return RunResult(first.config, first.examples + then.examples, first.steps + then.steps,
                     first.seconds + then.seconds, first.failures + then.failures,
                     then.skipped, then.level, first.perft or then.perft,
                     cut=then.cut or first.cut, observed=first.observed + then.observed)


def supported_configs(spec: Spec, *, players: Sequence[int] | None = None,
                      rulings: Mapping[str, str] | None = None,
                      variants: Sequence[str] = (),
                      parameters: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Return the configurations to check: one per player count, under the given rulings."""
    counts = list(players) if players else list(range(spec.min_players, spec.max_players + 1))
    return [{"game": spec.game_id, "players": n, "rulings": dict(rulings or {}),
             "variants": list(variants), "parameters": dict(parameters or {})} for n in counts]
