"""Golden traces: reference games with the state after every step, committed under traces/.

The header records the state before the first step; each step the state after it, in full every
few steps (``rulespec.reference.trace.recorded_steps``) and as a delta of the state before it
elsewhere, so that the files stay small while a replay pins a difference to its exact step.

Several per game, chosen from the spec alone (no game is special-cased): the smallest and
largest player counts under the default rulings, each non-default ruling option, and each
variant. The seed of each trace is derived from its label, so regenerating gives the same files;
a test regenerates them and fails on any difference.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.reference.core import ConfigError, make_config
from rulespec.reference.play import playout
from rulespec.reference.registry import engine_class, new_game
from rulespec.reference.trace import Trace, recorded_steps
from rulespec.spec.model import Spec
from rulespec.spec.registry import game_ids, get_spec, golden_paths, registered

#: At most this many non-default ruling traces per game (keeps the folder reviewable).
MAX_RULING_TRACES = 4
#: A golden game longer than this is a bug in the reference (it must end).
MAX_STEPS = 100_000


@dataclass(frozen=True)
class GoldenCase:
    """One golden trace to generate: a label and the configuration to play."""

    game: str
    label: str
    players: int
    rulings: dict[str, str]
    variants: tuple[str, ...] = ()

    @property
    def seed(self) -> int:
        """Return the playout seed, derived from the label."""
        return zlib.crc32(f"{self.game}/{self.label}".encode())

    @property
    def filename(self) -> str:
        """Return the trace file name (``<game>.<label>.jsonl``)."""
        return f"{self.game}.{self.label}.jsonl"


def cases(spec: Spec) -> list[GoldenCase]:
    """Return the golden cases of one game, from its spec."""
    game, lo, hi = spec.game_id, spec.min_players, spec.max_players
    out = [GoldenCase(game, f"p{n}-default", n, {}) for n in sorted({lo, hi})]
    defaults = spec.default_rulings()
    changed: list[tuple[str, str]] = []
    for aid, amb in spec.ambiguities.items():
        changed.extend((aid, str(o["id"])) for o in amb["options"] if o["id"] != defaults[aid])
    step = max(1, len(changed) // MAX_RULING_TRACES)
    for i, (aid, opt) in enumerate(changed[::step][:MAX_RULING_TRACES]):
        players = (lo, hi)[i % 2]
        out.append(GoldenCase(game, f"p{players}-{aid}-{opt}", players, {aid: opt}))
    for vid in sorted(spec.variants):
        out.append(GoldenCase(game, f"p{lo}-variant-{vid}", lo, {}, (vid,)))
    return out


def state_phases(spec: Spec) -> list[str]:
    """Return the phases the state schema names (its ``phase`` enum), or none."""
    phase = spec.data.get("state", {}).get("schema", {}).get("properties", {}).get("phase", {})
    return [str(p) for p in phase.get("enum", []) if p is not None]


def play_case(case: GoldenCase) -> list[str]:
    """Play one case with the reference and return the trace lines."""
    return _play(case)[0]


def phase_cases(spec: Spec, reached: set[str],
                taken: set[str]) -> list[tuple[GoldenCase, list[str]]]:
    """Return extra cases, with their lines, for the phases no standard case reaches.

    Every phase of the state should appear in some golden trace (the docs show an example
    state per phase from them). For each phase still missing, the first non-default ruling
    option in register order whose playout (at the minimum player count) reaches it is added.
    """
    missing = [p for p in state_phases(spec) if p not in reached]
    out: list[tuple[GoldenCase, list[str]]] = []
    defaults = spec.default_rulings()
    for aid, amb in spec.ambiguities.items():
        if not missing:
            break
        for option in amb["options"]:
            opt = str(option["id"])
            case = GoldenCase(spec.game_id, f"p{spec.min_players}-{aid}-{opt}",
                              spec.min_players, {aid: opt})
            if opt == defaults[aid] or case.filename in taken:
                continue
            try:
                lines, phases = _play(case)
            except ConfigError:
                continue
            if phases & set(missing):
                out.append((case, lines))
                missing = [p for p in missing if p not in phases]
            if not missing:
                break
    return out


def _play(case: GoldenCase) -> tuple[list[str], set[str]]:
    """Play one case with the reference; return the trace lines and the phases reached.

    The state before the first step and after every step is recorded (``recorded_steps``).
    """
    engine = new_game(case.game, players=case.players, rulings=case.rulings,
                      variants=case.variants)
    rng = random.Random(case.seed)
    played: list[tuple[Any, Any, dict[str, Any] | None]] = []
    initial = engine.state()
    phases = {initial.get("phase")}
    try:
        for step in playout(engine, rng, max_steps=MAX_STEPS):
            state = engine.state()
            played.append((step.actor, step.action, state))
            phases.add(state.get("phase"))
    except RuntimeError as exc:
        raise RuntimeError(f"{case.filename}: {exc}") from None
    trace = Trace(case.game, engine.spec.version, engine.config.to_json(),
                  recorded_steps(played, initial), engine.result(), initial=initial)
    return list(trace.lines()), {str(p) for p in phases if p is not None}


def generate(games: list[str] | None = None) -> dict[str, str]:
    """Return file name -> text of every golden trace (nothing is written).

    A case whose configuration the reference refuses (a variant that needs a parameter value
    of the players' choosing, for example) has no trace; ``skipped`` lists them.
    """
    out: dict[str, str] = {}
    for gid in games or game_ids():
        spec = get_spec(gid)
        reached: set[str] = set()
        for case in cases(spec):
            try:
                lines, phases = _play(case)
            except ConfigError:
                continue
            out[case.filename] = "\n".join(lines) + "\n"
            reached |= phases
        for case, lines in phase_cases(spec, reached, set(out)):
            out[case.filename] = "\n".join(lines) + "\n"
    return out


def skipped(games: list[str] | None = None) -> list[str]:
    """Return the cases the reference cannot play as configured, with the reason."""
    out = []
    for gid in games or game_ids():
        spec = get_spec(gid)
        for case in cases(spec):
            try:
                config = make_config(spec, players=case.players, rulings=case.rulings,
                                     variants=case.variants)
                engine_class(spec)(spec, config)
            except ConfigError as exc:
                out.append(f"{case.filename}: {exc}")
    return out


def trace_dir(game: str) -> Path:
    """Return the folder holding the golden traces of ``game``, as its package registers it."""
    folder = registered(game).package.traces
    if folder is None:
        raise ConfigError(f"game {game!r} registers no golden-trace folder; set traces= in its "
                          "GamePackage")
    return folder


def write(directory: Path | None = None, games: list[str] | None = None) -> list[Path]:
    """Regenerate the golden traces of ``games`` (all by default); drop stale ones.

    Each game's traces go to its registered folder unless ``directory`` is given.
    """
    written = []
    for game in games or game_ids():
        folder = directory or trace_dir(game)
        folder.mkdir(parents=True, exist_ok=True)
        texts = generate([game])
        for old in golden_paths(game, folder):
            if old.name not in texts:
                old.unlink()
        for name, text in sorted(texts.items()):
            path = folder / name
            path.write_text(text, encoding="utf-8")
            written.append(path)
    return written


def differences(directory: Path | None = None, games: list[str] | None = None) -> list[str]:
    """Return what differs between the committed traces and freshly generated ones."""
    problems: list[str] = []
    for game in games or game_ids():
        folder = directory or trace_dir(game)
        texts = generate([game])
        for name, text in sorted(texts.items()):
            path = folder / name
            if not path.is_file():
                problems.append(f"{name}: missing; run rulespec golden {game}")
            elif (committed := path.read_text(encoding="utf-8")) != text and not (
                    _same_play_as_recorded(committed, text)):
                problems.append(f"{name}: differs from a fresh reference playout; if the "
                                f"change is intended, regenerate with rulespec golden {game}")
        for path in golden_paths(game, folder):
            if path.name not in texts:
                problems.append(f"{path.name}: stale (no case generates it); delete it")
    return problems


def _same_play_as_recorded(committed: str, fresh: str) -> bool:
    """Return whether a committed trace records the fresh playout's game as far as it records
    anything: same game, spec version, configuration, actors, actions and result, and the same
    state wherever the committed trace has one.

    Only a trace of the revision before traces recorded a state at every step (no state before
    the first step; at most the final state) is compared so: one written by an earlier rulespec
    is then still up to date, and only a different play is a difference. A trace of today's
    revision must match byte for byte.
    """
    import io

    from rulespec.reference.actions import strictly_equal
    from rulespec.reference.trace import TraceError, read_trace

    try:
        old, new = read_trace(io.StringIO(committed)), read_trace(io.StringIO(fresh))
    except TraceError:
        return False
    if old.initial is not None:
        return False  # today's revision (a state before the first step): byte for byte
    if (old.game, old.spec_version, old.config, old.result, old.expectations, old.failure) != (
            new.game, new.spec_version, new.config, new.result, new.expectations, new.failure):
        return False
    if len(old.steps) != len(new.steps) or any(
            (a.actor, a.action) != (b.actor, b.action) for a, b in zip(old.steps, new.steps,
                                                                       strict=True)):
        return False
    return all(was is None or strictly_equal(was, now)
               for was, now in zip(old.states(), new.states(), strict=True))


def summary(games: list[str] | None = None) -> list[dict[str, Any]]:
    """Return one row per committed trace: file, game, steps."""
    from rulespec.reference.trace import read_trace

    rows = []
    for path in [p for g in games or game_ids() for p in golden_paths(g)]:
        trace = read_trace(path)
        rows.append({"file": path.name, "game": trace.game, "steps": len(trace.steps)})
    return rows
