"""Reports of ``rulespec verify``: text for people (TLC's figures first), JSON for programs."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from rulespec.verify.explore import Stats
from rulespec.verify.outcomes import EXACT_BITS, Number, Outcomes, decimal_digits, number_json
from rulespec.verify.run import RulingsRun, Verification
from rulespec.verify.walks import WALK_STEPS, Walks

FORMAT = "rulespec-verify/1"

#: What the engine attributes that differ between engines with equal keys usually are.
_KNOWN_MEMORY = {"_decisions": "the decision-point tally, never read by the rules"}


def number(x: Number, digits: int = 10) -> str:
    """Return a probability or expectation for people: the exact fraction when it is short."""
    if isinstance(x, Fraction):
        if x.denominator.bit_length() > 200:  # no string of thousands of digits (nor past
            # Python's limit on converting an integer to a string)
            return (f"{float(x):.{digits}f} (exact fraction of about "
                    f"{decimal_digits(x.denominator):,} digits)")
        text = str(x)
        decimal = f"{float(x):.{digits}f}"
        return f"{text} ({decimal})" if len(text) <= 24 and x.denominator != 1 else (
            text if x.denominator == 1 else f"{decimal} (exact fraction of "
                                            f"{len(str(x.denominator))} digits)")
    return f"{x:.{digits}f} (floating point)"


def describe_config(config: dict[str, Any], baseline: dict[str, str] | None = None) -> str:
    """Return a configuration in one line: players, parameters, variants, non-default rulings."""
    parts = [f"{config['players']} players"]
    parts += [f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in
              config.get("parameters", {}).items()]
    parts += [f"variant {v}" for v in config.get("variants", [])]
    rulings = config.get("rulings", {})
    if baseline is not None:
        parts += [f"{k}={v}" for k, v in rulings.items() if baseline.get(k) != v]
    return ", ".join(parts)


def verification_text(v: Verification, defaults: dict[str, str]) -> list[str]:
    """Return the report of one configuration, line by line."""
    ex = v.exploration
    s = ex.stats
    lines = [f"{ex.engine.spec.game_id}: {describe_config(v.config, defaults)}"]
    key = "the canonical state"
    if ex.view:
        key += f", under the view {ex.view.describe()}"
        if v.bounds.view_source == "spec":
            key += (" (the view the spec declares beside its fields, x-verify; --canonical "
                    "for none)")
    if ex.rotation is not None:
        key += (", up to a rotation of the seats (the spec declares them interchangeable, "
                "x-verify; asked for with --symmetry)")
    lines.append(f"  states identified by {key}")
    if ex.rotation is not None:
        lines.append(f"  seat symmetry: {s.rotated_merges:,} merges into another rotation of "
                     f"the seats; the {s.states:,} states up to rotation stand for "
                     f"{v.unfolded_states:,} states as reached, on which the outcomes are solved")
    bounded = ex.stopped in ("max-states", "max-depth", "max-memory")
    left = f", {s.queued:,} left on the queue" if bounded else ""
    lines.append(f"  {s.states:,} distinct states, {s.transitions:,} transitions, depth {s.depth}, "
                 f"{s.terminals:,} terminal{left}")
    lines.append(f"  {s.seconds:.2f} s ({s.states_per_second:,.0f} states/s; {s.cpu_seconds:.2f} s "
                 f"CPU, {s.states_per_cpu_second:,.0f} states per CPU second), store "
                 f"{s.bytes_per_state:.0f} bytes/state, peak memory {s.peak_rss / 2**20:,.0f} MiB"
                 f"{_workers_memory(s)}; fingerprint collision probability (optimistic) "
                 f"{v.collision_probability:.1e}")
    if bounded:
        what = f"--{ex.stopped}"
        lines.append(f"  BOUNDED: the search stopped at {what}; what follows holds for the "
                     "states explored, not for every reachable state")
    lines += _merges(v)
    lines += _invariants(v)
    if not v.violations:
        lines.append("  end: every state explored can reach the end of the game (no trap)")
        lines.append("  the state graph is acyclic" if v.acyclic else
                     f"  the state graph has cycles: {v.cyclic_components:,} cyclic "
                     f"component(s), the largest of {v.largest_component:,} states")
    if v.canonical is not None and not v.violations:
        c = v.canonical
        mass = c.uniform.unexplored if c.uniform is not None else 0
        lines.append(f"  the view agrees with the search on canonical states "
                     f"({c.exploration.stats.states:,} states, {float(mass):.1e} unexplored): "
                     "every seat's win probability lies within its interval")
    for violation in v.violations:
        lines.append(f"  VIOLATION {violation.kind}: {violation.message}")
        lines.append(f"    shortest path: {len(violation.path)} step(s)"
                     + (f"; the other state: {len(violation.other)} step(s)"
                        if violation.other is not None else ""))
        if violation.clauses:
            lines.append(f"    clauses: {', '.join(violation.clauses)}")
        for trace in violation.traces:
            lines.append(f"    trace written to {trace} (rulespec replay {trace})")
    if v.uniform is not None:
        lines += outcomes_text("uniform random players", v.uniform)
    if v.optimal is not None:
        lines.append(f"  optimal play (value iteration, {v.optimal.sweeps} sweeps): value "
                     f"{v.optimal.value:+.10f} for seat 0")
        lines += outcomes_text("the optimal strategies", v.optimal.outcomes)[1:]
    return lines


def _workers_memory(s: Stats) -> str:
    """Return what the worker processes held, for the report's line of costs ("" with none)."""
    if not s.worker_processes:
        return ""
    held = f" here and {s.workers_rss / 2**20:,.0f} MiB in its"
    if s.worker_processes == 1:
        return f"{held} worker process at its largest after a task"
    return f"{held} {s.worker_processes} worker processes (each at its largest after a task)"


def _merges(v: Verification) -> list[str]:
    ex = v.exploration
    s = ex.stats
    if not v.bounds.check_merges:
        return [f"  {s.merges:,} merges, not checked (--no-check-merges)"]
    lines = [f"  {s.merges_checked:,} merges checked one step ahead: equal keys behaved alike"
             if not any(x.kind == "KEY-BEHAVIOUR" for x in v.violations)
             else f"  {s.merges_checked:,} merges checked one step ahead"]
    if s.digests_reused:
        lines.append(f"    {s.digests_reused:,} of them by the digest of an engine with the same "
                     "memory (one in 50 of those worked out again and compared)")
    if ex.memory:
        named = [f"{m} ({_KNOWN_MEMORY[m]})" if m in _KNOWN_MEMORY else m
                 for m in sorted(ex.memory)]
        lines.append(f"  engines with equal keys differed in: {', '.join(named)}")
    if ex.unchecked_merges:
        lines.append(f"  {ex.unchecked_merges:,} merge(s) into states never expanded were not "
                     "checked")
    if v.walks is not None:
        lines += walks_text(v.walks, found=any(x.kind == "KEY-BEHAVIOUR" for x in v.violations))
    return lines


def walks_text(w: Walks, *, found: bool = False) -> list[str]:
    """Return the lines on a search's merge walks (``found``: the last found a difference)."""
    if not w.walked:
        return []
    if found:
        return [f"  merge walks: walk {w.walked:,} (of {w.merges:,} merges) found the "
                f"difference above, {w.steps:,} moves walked in all"]
    every = "every merge" if w.walked >= w.merges else f"{w.walked:,} of {w.merges:,} merges"
    lines = [f"  merge walks: {every} walked on along random moves ({w.steps:,} moves): "
             f"{w.converged:,} came to the same engine, {w.ended:,} reached the end alike"
             + (f", {w.cut:,} cut at {WALK_STEPS:,} moves" if w.cut else "")]
    power = w.power
    if power is not None:
        lines.append(f"    a difference that one walk in {1 / power:,.0f} would show is found "
                     "with probability 95%; rarer ones may remain (--merge-walks N walks more)")
    return lines


def _invariants(v: Verification) -> list[str]:
    status = v.invariant_status
    proven = [i for i, s in status.items() if s == "proven"]
    checked = [i for i, s in status.items() if s == "checked"]
    lines = []
    if proven:
        lines.append(f"  {len(proven)} invariant(s) proven in every reachable state")
    if checked and not v.violations:
        why = ("they read a forgotten field" if v.exploration.complete
               else "the search was bounded")
        lines.append(f"  {len(checked)} invariant(s) held in every state explored but are not "
                     f"proven ({why}): {', '.join(checked)}")
    return lines


def outcomes_text(who: str, o: Outcomes) -> list[str]:
    """Return the outcome probabilities under ``who``, line by line."""
    how = ""
    if o.outgrew:
        how = (f" (to about 1e-12: in floating point, since the exact fractions passed "
               f"{EXACT_BITS:,} bits, about {decimal_digits(1 << EXACT_BITS):,} digits)")
    elif not o.exact:
        how = " (to about 1e-12)"
    lines = [f"  outcomes under {who}{how}:"]
    for seat, w in enumerate(o.wins):
        lines.append(f"    seat {seat} wins: {number(w)}")
    if o.unexplored:
        lines.append(f"    unexplored: {float(o.unexplored):.1e}; each win probability lies "
                     "between its figure and its figure plus this")
        lines.append(f"    expected length: at least {number(o.length, 3)} actions")
    else:
        lines.append(f"    expected length: {number(o.length, 6)} actions")
    return lines


def rulings_text(run: RulingsRun, defaults: dict[str, str]) -> list[str]:
    """Return the report of a baseline and every option it reaches."""
    lines = ["baseline:", *verification_text(run.baseline, defaults)]
    if run.uncounted:
        lines.append("the engine counts no decision point, so every ambiguity's options are run")
    else:
        lines.append(f"ambiguities reached: {', '.join(run.reached) or 'none'}")
    for option in run.options:
        head = f"{option.ambiguity}={option.option}"
        if option.verification is None:
            lines.append(f"{head}: not run: {option.skipped}")
            continue
        lines.append(f"{head}:")
        lines += verification_text(option.verification, defaults)[1:]
        changes = option.win_changes(run.baseline)
        if changes is not None:
            lines.append("  change in win probability against the baseline: " + ", ".join(
                f"seat {k} {_signed(c)}" for k, c in enumerate(changes)))
    return lines


def _signed(x: Number) -> str:
    if isinstance(x, Fraction) and x.denominator.bit_length() <= 80 and len(str(x)) <= 24:
        sign = "+" if x > 0 else ""
        return f"{sign}{x} ({float(x):+.10f})" if x else "0"
    return f"{float(x):+.10f}"


def verification_json(v: Verification) -> dict[str, Any]:
    """Return one configuration's figures as JSON."""
    ex = v.exploration
    s = ex.stats
    return {
        "game": ex.engine.spec.game_id, "spec_version": ex.engine.spec.version,
        "config": v.config, "forget": list(ex.view.forget), "view": list(ex.view.terms),
        "view_source": v.bounds.view_source or "command", "status": v.status,
        "symmetry": None if ex.rotation is None else {
            "seats": "rotate", "rotated_merges": s.rotated_merges,
            "states_as_reached": v.unfolded_states},
        "stopped": ex.stopped,
        "states": s.states, "transitions": s.transitions, "depth": s.depth,
        "terminals": s.terminals, "queued": s.queued, "seconds": round(s.seconds, 3), "cpu_seconds": round(s.cpu_seconds, 3),
        "states_per_second": round(s.states_per_second, 1),
        "store_bytes_per_state": round(s.bytes_per_state, 1), "peak_rss": s.peak_rss,
        "workers_rss": None if not s.worker_processes else {
            "processes": s.worker_processes, "bytes": s.workers_rss},
        "collision_probability": v.collision_probability,
        "merges": s.merges, "merges_checked": s.merges_checked if v.bounds.check_merges else None,
        "merge_walks": None if v.walks is None else v.walks.to_json(),
        "engine_memory": sorted(ex.memory), "reached": sorted(ex.reached),
        "invariants": v.invariant_status, "acyclic": v.acyclic,
        "cyclic_components": v.cyclic_components, "largest_component": v.largest_component,
        "traps": len(v.trap_states),
        "cross_check": None if v.canonical is None else {
            "states": v.canonical.exploration.stats.states,
            "uniform": (v.canonical.uniform.to_json() if v.canonical.uniform is not None
                        else None)},
        "violations": [x.to_json() for x in v.violations],
        "uniform": v.uniform.to_json() if v.uniform is not None else None,
        "optimal": None if v.optimal is None else {
            "value": v.optimal.value, "sweeps": v.optimal.sweeps,
            "outcomes": v.optimal.outcomes.to_json()},
    }


def rulings_json(run: RulingsRun) -> dict[str, Any]:
    """Return a baseline and its options as JSON."""
    options = []
    for option in run.options:
        changes = option.win_changes(run.baseline)
        options.append({
            "ambiguity": option.ambiguity, "option": option.option, "skipped": option.skipped,
            "verification": (verification_json(option.verification)
                             if option.verification is not None else None),
            "win_changes": None if changes is None else [number_json(c) for c in changes]})
    return {"format": FORMAT, "baseline": verification_json(run.baseline),
            "reached": run.reached, "uncounted": run.uncounted, "options": options}
