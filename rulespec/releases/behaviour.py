"""The behavioural half of a spec diff: the old spec's evidence replayed on the new reference.

The evidence of a spec is what pins down how it plays: its golden traces, its rule examples and
its perft tables. Each is replayed (or recounted) on the reference engine of the new spec,
configured as recorded; a ruling key the old configuration lacks takes the new spec's default.
A different result is a BEHAVIOUR_CHANGED change naming the trace, example or table, the first
step that differs and the clauses of that step's action.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.releases.change import Change
from rulespec.releases.store import perft_file, read_trace_file, release_traces
from rulespec.spec.errors import RulespecError, SpecError
from rulespec.spec.model import Spec

#: Called with one line saying what is being replayed.
Progress = Callable[[str], None]


class BehaviourError(RulespecError):
    """The new spec's reference cannot be run at all (so nothing can be replayed on it)."""


@dataclass(frozen=True)
class Evidence:
    """What pins down how a spec plays: golden traces, rule examples, perft tables."""

    traces: tuple[Path, ...] = ()
    examples: Path | None = None
    perft: Path | None = None

    def describe(self) -> str:
        """Return what the evidence holds, in words."""
        parts = [f"{len(self.traces)} golden trace(s)"]
        parts.append("rule examples" if self.examples else "no rule examples")
        parts.append("perft tables" if self.perft else "no perft tables")
        return ", ".join(parts)


def evidence_of(spec: Spec) -> Evidence:
    """Return the evidence beside ``spec``: a frozen release's, or a registered game's."""
    from rulespec.examples.model import examples_path

    folder, game = spec.path.parent, spec.game_id
    examples = examples_path(spec)
    found = examples if examples.is_file() else None
    if (folder / "traces").is_dir():
        return Evidence(tuple(release_traces(folder, game)), found, perft_file(folder, game))
    try:
        from rulespec.spec.registry import golden_paths, perft_path, registered

        if registered(game).spec_path.resolve() != spec.path.resolve():
            return Evidence((), found, None)
        perft = perft_path(game)
        return Evidence(tuple(golden_paths(game)), found,
                        perft if perft is not None and perft.is_file() else None)
    except RulespecError:  # not a registered game: only what lies beside the file
        return Evidence((), found, None)


def _engine(spec: Spec, config: Mapping[str, Any]) -> Any:
    from rulespec.reference.core import config_from_json
    from rulespec.reference.registry import engine_class

    return engine_class(spec)(spec, config_from_json(spec, dict(config)))


def check_engine(spec: Spec) -> None:
    """Raise BehaviourError when the reference of ``spec`` cannot be imported."""
    from rulespec.reference.core import ConfigError
    from rulespec.reference.registry import engine_class

    try:
        engine_class(spec)
    except ConfigError as exc:
        raise BehaviourError(f"{exc}; the new side's reference must run to replay the old "
                             "evidence: compare with --no-behaviour, or swap the sides") from None


def _action_clauses(spec: Spec, action: Mapping[str, Any]) -> tuple[str, ...]:
    kinds = {str(a["id"]): a.get("clauses", []) for a in spec.section("actions")}
    return tuple(str(c) for c in kinds.get(str(action.get("kind")), []))


def replay_trace(spec: Spec, path: Path) -> Change | None:
    """Replay one golden trace on the reference of ``spec``; return the change it reveals."""
    from rulespec.reference.actions import strictly_equal
    from rulespec.reference.core import ConfigError, IllegalAction
    from rulespec.spec.statediff import StateSchema, describe, diff_states, governing_clauses

    trace = read_trace_file(path)
    name = path.name.removesuffix(".gz")
    where = f"traces.{name}"
    try:
        engine = _engine(spec, trace.config)
    except ConfigError as exc:
        return Change.of("CONFIGURATION_REFUSED", where, f"{name}: the configuration of the "
                         f"trace is refused: {exc}", (), tuple(trace.config.get("rulings", {})))
    if trace.initial is not None and not strictly_equal(trace.initial, engine.state()):
        changes = diff_states(trace.initial, engine.state(), StateSchema.of(spec))
        return Change.of("BEHAVIOUR_CHANGED", where, f"{name}: the state before the first step "
                         f"differs: {describe(changes)}", governing_clauses(changes))
    for step, recorded in zip(trace.steps, trace.states(), strict=True):
        head = f"{name}: step {step.n} ({json.dumps(step.action, sort_keys=True)})"
        cited = _action_clauses(spec, step.action)
        to_move = engine.current_player()
        if to_move != step.actor:
            who = "nobody (the game is over)" if to_move is None else repr(to_move)
            return Change.of("BEHAVIOUR_CHANGED", where, f"{head}: recorded actor "
                             f"{step.actor!r} but {who} is to move", cited)
        try:
            engine.apply(step.action)
        except IllegalAction as exc:
            return Change.of("BEHAVIOUR_CHANGED", where, f"{head}: {exc}", cited)
        if recorded is not None and not strictly_equal(recorded, engine.state()):
            changes = diff_states(recorded, engine.state(), StateSchema.of(spec))
            clauses = tuple(dict.fromkeys([*governing_clauses(changes), *cited]))
            return Change.of("BEHAVIOUR_CHANGED", where, f"{head}: the state differs: "
                             f"{describe(changes)}", clauses)
    if not strictly_equal(trace.result, engine.result()):
        return Change.of("BEHAVIOUR_CHANGED", where, f"{name}: result {trace.result!r} recorded, "
                         f"{engine.result()!r} on the new reference")
    return None


def replay_examples(spec: Spec, path: Path, progress: Progress | None = None) -> Iterator[Change]:
    """Run the old rule examples at ``path`` on the reference of ``spec``."""
    from rulespec.examples.model import load_examples
    from rulespec.examples.run import run_example
    from rulespec.reference.core import ConfigError, config_from_json

    try:
        file = load_examples(spec, path)
    except SpecError as exc:
        first = exc.problems[0] if exc.problems else None
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        yield Change.of("EXAMPLES_UNREADABLE", "examples", f"the old rule examples cannot be "
                        f"read against the new spec: {first}{more}")
        return
    for example in file.examples:
        if progress is not None:
            progress(f"example {example.id}")
        records = (example.witness.ambiguity,) if example.witness else ()
        where = f"examples.{example.id}"
        try:
            config_from_json(spec, example.config_json(spec.game_id))
        except ConfigError as exc:
            yield Change.of("CONFIGURATION_REFUSED", where, f"example {example.id}: its "
                            f"configuration is refused: {exc}", tuple(example.clauses), records)
            continue
        outcome = run_example(spec, example, words_module=file.vocabulary)
        if not outcome.ok:
            yield Change.of("BEHAVIOUR_CHANGED", where, f"example {example.id} "
                            f"({example.title}): {outcome.message}", tuple(example.clauses),
                            records)


def recount_perft(spec: Spec, path: Path, progress: Progress | None = None) -> Iterator[Change]:
    """Recount the old perft tables at ``path`` on the reference of ``spec``."""
    from rulespec.reference.core import ConfigError
    from rulespec.reference.perft import children, perft

    document = json.loads(path.read_text(encoding="utf-8"))
    tables = [*document.get("defaults", []), *document.get("options", [])]
    for table in tables:
        label = str(table.get("label"))
        if progress is not None:
            progress(f"perft {label}")
        where = f"perft.{label}"
        config = table.get("config") or {}
        try:
            engine = _engine(spec, config)
        except ConfigError as exc:
            yield Change.of("CONFIGURATION_REFUSED", where, f"perft table {label}: the "
                            f"configuration is refused: {exc}", (), tuple(config.get("rulings", {})))
            continue
        rows = perft(engine, int(table["depth"])).rows
        for old, new in zip(table["rows"], rows, strict=False):
            if (old["nodes"], old["weighted"], old.get("terminal")) != (
                    new.nodes, str(new.weighted), new.terminal):
                cited = tuple(dict.fromkeys(c for a, _ in children(engine)
                                            for c in _action_clauses(spec, a)))
                yield Change.of("BEHAVIOUR_CHANGED", where, f"perft table {label}: at depth "
                                f"{old['depth']} the old tables count {old['nodes']} nodes "
                                f"(weighted {old['weighted']}, terminal {old.get('terminal')}), "
                                f"the new reference {new.nodes} (weighted {new.weighted}, "
                                f"terminal {new.terminal})", cited)
                break


def behaviour_changes(evidence: Evidence, new: Spec,
                      progress: Progress | None = None) -> list[Change]:
    """Replay the old evidence on the new spec's reference; return what changed."""
    check_engine(new)
    out: list[Change] = []
    for path in evidence.traces:
        if progress is not None:
            progress(f"trace {path.name}")
        change = replay_trace(new, path)
        if change is not None:
            out.append(change)
    if evidence.examples is not None:
        out.extend(replay_examples(new, evidence.examples, progress))
    if evidence.perft is not None:
        out.extend(recount_perft(new, evidence.perft, progress))
    return out
