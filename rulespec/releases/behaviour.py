"""The behavioural half of a spec diff: the old spec's evidence replayed on the new reference.

The evidence of a spec is what pins down how it plays: its golden traces, its rule examples and
its perft tables. Each is replayed (or recounted) on the reference engine of the new spec,
configured as recorded; a ruling key the old configuration lacks takes the new spec's default.
A different result is a BEHAVIOUR_CHANGED change naming the trace, example or table, the first
step that differs and the clauses of that step's action.

On every state replayed (and on a few seeded random games of the new reference) the invariants
and events the new spec adds or changes are evaluated, by the same code the conformance kit
runs (``Invariants``, ``compile_events``): an invariant the new reference breaks is
INVARIANT_BROKEN, an event it cannot evaluate EVENT_BROKEN, each at the first step where it
happens. The rule examples the new spec adds or changes are run on the new reference: one that
fails is EXAMPLE_BROKEN.
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespec.releases.change import Change
from rulespec.releases.store import perft_file, read_trace_file, release_traces
from rulespec.releases.values import ABSENT
from rulespec.spec.errors import RulespecError, SpecError
from rulespec.spec.model import Spec

if TYPE_CHECKING:
    from rulespec.spec.events import Event
    from rulespec.spec.invariants import Invariants

#: Called with one line saying what is being replayed.
Progress = Callable[[str], None]

#: Random games of the new reference played to evaluate new or changed invariants and events
#: (seeds 0, 1, ...; the fewest, the most and a middle player count), and the steps each may
#: take before it is cut short.
RANDOM_GAMES = 3
RANDOM_GAME_STEPS = 5_000


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


def _watched(old: Spec | None, new: Spec, section: str, keys: Sequence[str]) -> list[
        Mapping[str, Any]]:
    """Return the elements of a section of ``new`` that ``old`` lacks or has otherwise (by
    ``keys``): every element when there is no old spec."""
    before = {} if old is None else {str(e.get("id")): e for e in old.section(section)}
    return [e for e in new.section(section)
            if str(e.get("id")) not in before or any(
                before[str(e.get("id"))].get(k) != e.get(k) for k in keys)]


@dataclass
class _Break:
    """Where an invariant or event first broke, and in which sources it broke at all."""

    where: str
    detail: str
    sources: set[str] = field(default_factory=set)


class Watch:
    """The invariants and events the new spec adds or changes, evaluated on replayed states.

    The old evidence was recorded by a reference that held the old invariants, so on its states
    only what is new or changed is evaluated; a random game of the new reference reaches states
    no evidence pinned down (more players, say), so there every invariant of the new spec is.
    Each breaks at most once per source (a trace, an example, a random game); the first break
    is the one reported, with the count of sources that broke it.
    """

    def __init__(self, old: Spec | None, new: Spec) -> None:
        from rulespec.spec.events import compile_events
        from rulespec.spec.expressions import ExpressionError
        from rulespec.spec.invariants import Invariants

        self.old, self.new = old, new
        self.invariants: Invariants | None = None
        self.every: Invariants | None = None
        self.events: list[Event] = []
        self.broken: dict[str, _Break] = {}
        self.uncompiled: list[Change] = []
        self.sources: dict[str, int] = {}
        invariants = _watched(old, new, "invariants", ("expression", "scope"))
        good = []
        for inv in invariants:
            try:
                Invariants(dataclasses.replace(new, data={**new.data, "invariants": [inv]}))
            except (ExpressionError, KeyError, TypeError) as exc:
                self.uncompiled.append(self._invariant_change(
                    inv, f"its expression cannot be compiled: {exc}"))
                continue
            good.append(inv)
        if good:
            self.invariants = Invariants(dataclasses.replace(
                new, data={**new.data, "invariants": good}))
        if not self.uncompiled:
            try:
                self.every = Invariants(new)
            except (ExpressionError, KeyError, TypeError):
                self.every = self.invariants
        for event in _watched(old, new, "events", ("when", "kinds")):
            try:
                self.events += compile_events(dataclasses.replace(
                    new, data={**new.data, "events": [event]}))
            except (ExpressionError, KeyError, TypeError) as exc:
                self.uncompiled.append(Change.of(
                    "EVENT_BROKEN", f"events.{event.get('id')}", f"{event.get('id')}: its "
                    f"when cannot be compiled: {exc}", tuple(event.get("clauses") or ()),
                    old=self._old_value("events", str(event.get("id")), "when"),
                    new=event.get("when")))

    @property
    def active(self) -> bool:
        """Return True when there is something to evaluate."""
        return self.invariants is not None or bool(self.events)

    def source(self, kind: str) -> None:
        """Count one more source of ``kind`` (golden trace, rule example, random game)."""
        self.sources[kind] = self.sources.get(kind, 0) + 1

    def step(self, source: str, kind: str, where: str, state: Mapping[str, Any],
             prev: Mapping[str, Any] | None, action: Mapping[str, Any] | None,
             params: Mapping[str, Any], config: Mapping[str, Any], *,
             every: bool = False) -> None:
        """Evaluate the watched invariants (``every`` invariant of the new spec) and events on
        one state reached at ``where``."""
        label = f"{source}, {where}"
        invariants = self.every if every else self.invariants
        if invariants is not None:
            for v in invariants.check(state, prev=prev, action=action, params=params,
                                      config=config):
                self._break(f"invariants.{v.invariant}", kind, source, label,
                            f"{v.description} [{v.detail}]")
        if self.events and prev is not None and action is not None:
            self._events(kind, source, label, state, prev, action, params, config)

    def _events(self, kind: str, source: str, label: str, state: Mapping[str, Any],
                prev: Mapping[str, Any], action: Mapping[str, Any],
                params: Mapping[str, Any], config: Mapping[str, Any]) -> None:
        from rulespec.spec.expressions import ExpressionError, make_context

        context = make_context({"before": prev, "action": dict(action), "after": state,
                                "params": dict(params), "config": dict(config)})
        tagged = f"{kind}\0{source}"
        for event in self.events:
            if event.kinds is not None and str(action.get("kind")) not in event.kinds:
                continue
            found = self.broken.get(f"events.{event.ident}")
            if found is not None and tagged in found.sources:
                # Broken in this source already: the change counts sources, and says where it
                # broke first; evaluating it again at every later step (a failing expression
                # falls back to the slow library each time) changed neither.
                continue
            try:
                event.when.evaluate_in(context)
            except ExpressionError as exc:
                self._break(f"events.{event.ident}", kind, source, label,
                            f"its when cannot be evaluated: {exc}")

    def _break(self, key: str, kind: str, source: str, where: str, detail: str) -> None:
        found = self.broken.get(key)
        if found is None:
            found = self.broken[key] = _Break(where, detail)
        found.sources.add(f"{kind}\0{source}")

    def _old_value(self, section: str, ident: str, key: str) -> Any:
        if self.old is None:
            return ABSENT
        item = self.old.by_id(section).get(ident)
        return ABSENT if item is None else item.get(key, ABSENT)

    def _invariant_change(self, inv: Mapping[str, Any], said: str) -> Change:
        ident = str(inv.get("id"))
        clauses = tuple(str(c) for c in inv.get("clauses") or ())
        return Change.of("INVARIANT_BROKEN", f"invariants.{ident}",
                         f"{ident} ({', '.join(clauses)}): {said}", clauses,
                         old=self._old_value("invariants", ident, "expression"),
                         new=inv.get("expression"))

    def changes(self) -> list[Change]:
        """Return what broke: one change per invariant or event, at its first break."""
        out = list(self.uncompiled)
        invariants = self.new.by_id("invariants")
        events = self.new.by_id("events")
        for key, found in self.broken.items():
            section, _, ident = key.partition(".")
            kinds: dict[str, int] = {}
            for tagged in found.sources:
                kind = tagged.split("\0", 1)[0]
                kinds[kind] = kinds.get(kind, 0) + 1
            counts = ", ".join(f"{n} of {self.sources.get(k, n)} {k}s"
                               for k, n in sorted(kinds.items()))
            said = (f"broken by the new reference at {found.where}: {found.detail}; broken in "
                    f"{counts}")
            if section == "invariants":
                out.append(self._invariant_change(invariants[ident], said))
            else:
                event = events[ident]
                clauses = tuple(str(c) for c in event.get("clauses") or ())
                out.append(Change.of("EVENT_BROKEN", key, f"{ident} ({', '.join(clauses)}): "
                                     f"{said}", clauses,
                                     old=self._old_value("events", ident, "when"),
                                     new=event.get("when")))
        return out


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


def _state_values(changes: Sequence[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return the recorded and the replayed values of differing state fields, by path."""
    return ({c.path: c.got for c in changes[:6]}, {c.path: c.want for c in changes[:6]})


def _setting(engine: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Return an engine's parameters and configuration, as invariants see them."""
    return dict(engine.config.parameters), engine.config.to_json()


def replay_trace(spec: Spec, path: Path, watch: Watch | None = None) -> Change | None:
    """Replay one golden trace on the reference of ``spec``; return the change it reveals.

    With ``watch``, its invariants and events are evaluated on every state replayed.
    """
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
                         f"trace is refused: {exc}", (), tuple(trace.config.get("rulings", {})),
                         old=trace.config, new=f"refused: {exc}")
    watching = watch is not None and watch.active
    params, config = _setting(engine)
    if watch is not None:
        watch.source("golden trace")
    if trace.initial is not None and not strictly_equal(trace.initial, engine.state()):
        changes = diff_states(trace.initial, engine.state(), StateSchema.of(spec))
        old, new = _state_values(changes)
        return Change.of("BEHAVIOUR_CHANGED", where, f"{name}: the state before the first step "
                         f"differs: {describe(changes)}", governing_clauses(changes),
                         old=old, new=new)
    prev: Mapping[str, Any] | None = None
    if watching:
        assert watch is not None
        prev = engine.state()
        watch.step(f"golden trace {name}", "golden trace", "at the start", prev, None, None,
                   params, config)
    for step, recorded in zip(trace.steps, trace.states(), strict=True):
        head = f"{name}: step {step.n} ({json.dumps(step.action, sort_keys=True)})"
        cited = _action_clauses(spec, step.action)
        to_move = engine.current_player()
        if to_move != step.actor:
            who = "nobody (the game is over)" if to_move is None else repr(to_move)
            return Change.of("BEHAVIOUR_CHANGED", where, f"{head}: recorded actor "
                             f"{step.actor!r} but {who} is to move", cited,
                             old=f"{step.actor!r} to move", new=f"{who} to move")
        try:
            engine.apply(step.action)
        except IllegalAction as exc:
            return Change.of("BEHAVIOUR_CHANGED", where, f"{head}: {exc}", cited,
                             old=f"legal: {json.dumps(step.action, sort_keys=True)}",
                             new=f"illegal: {exc}")
        if recorded is not None and not strictly_equal(recorded, engine.state()):
            changes = diff_states(recorded, engine.state(), StateSchema.of(spec))
            clauses = tuple(dict.fromkeys([*governing_clauses(changes), *cited]))
            old, new = _state_values(changes)
            return Change.of("BEHAVIOUR_CHANGED", where, f"{head}: the state differs: "
                             f"{describe(changes)}", clauses, old=old, new=new)
        if watching:
            assert watch is not None
            state = engine.state()
            watch.step(f"golden trace {name}", "golden trace",
                       f"step {step.n} ({json.dumps(step.action, sort_keys=True)})", state, prev,
                       step.action, params, config)
            prev = state
    if not strictly_equal(trace.result, engine.result()):
        return Change.of("BEHAVIOUR_CHANGED", where, f"{name}: result {trace.result!r} recorded, "
                         f"{engine.result()!r} on the new reference", old=trace.result,
                         new=engine.result())
    return None


def _watch_moves(spec: Spec, example: Any, moves: Sequence[Any], watch: Watch) -> None:
    """Play an example's moves again on the reference of ``spec``, watching every state."""
    from rulespec.reference.core import ConfigError, IllegalAction, config_from_json

    try:
        engine = _engine(spec, config_from_json(spec, example.config_json(
            spec.game_id)).to_json())
    except ConfigError:
        return
    params, config = _setting(engine)
    source = f"rule example {example.id}"
    watch.source("rule example")
    prev = engine.state()
    watch.step(source, "rule example", "at the start", prev, None, None, params, config)
    for n, move in enumerate((m for m in moves if m.kind == "apply"), start=1):
        try:
            engine.apply(move.action)
        except IllegalAction:
            return
        state = engine.state()
        watch.step(source, "rule example", f"move {n} ({json.dumps(move.action, sort_keys=True)})",
                   state, prev, move.action, params, config)
        prev = state


def replay_examples(spec: Spec, path: Path, progress: Progress | None = None,
                    watch: Watch | None = None) -> Iterator[Change]:
    """Run the old rule examples at ``path`` on the reference of ``spec`` (with ``watch``,
    evaluating its invariants and events on every state the examples' moves reach)."""
    from rulespec.examples.model import load_examples
    from rulespec.examples.run import run_example
    from rulespec.reference.core import ConfigError, config_from_json

    try:
        file = load_examples(spec, path)
    except SpecError as exc:
        first = exc.problems[0] if exc.problems else None
        more = f" (and {len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
        yield Change.of("EXAMPLES_UNREADABLE", "examples", f"the old rule examples cannot be "
                        f"read against the new spec: {first}{more}", old=str(path),
                        new=f"unreadable: {first}{more}")
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
                            f"configuration is refused: {exc}", tuple(example.clauses), records,
                            old=example.config_json(spec.game_id), new=f"refused: {exc}")
            continue
        outcome = run_example(spec, example, words_module=file.vocabulary)
        if not outcome.ok:
            expected = outcome.failed.that if outcome.failed is not None else "the moves"
            yield Change.of("BEHAVIOUR_CHANGED", where, f"example {example.id} "
                            f"({example.title}): {outcome.message}", tuple(example.clauses),
                            records, old=f"holds: {expected}", new=outcome.message)
        elif watch is not None and watch.active:
            _watch_moves(spec, example, [*outcome.setup, *outcome.steps], watch)


def check_new_examples(spec: Spec, path: Path, ids: frozenset[str],
                       progress: Progress | None = None) -> Iterator[Change]:
    """Run the rule examples ``ids`` of the new spec (at ``path``: those it adds or changes)
    on its own reference; each that fails is EXAMPLE_BROKEN."""
    from rulespec.examples.model import load_examples
    from rulespec.examples.run import run_example

    try:
        file = load_examples(spec, path)
    except SpecError:
        return  # the validator and the examples' own tests say why
    for example in file.examples:
        if example.id not in ids:
            continue
        if progress is not None:
            progress(f"new example {example.id}")
        outcome = run_example(spec, example, words_module=file.vocabulary)
        if not outcome.ok:
            records = (example.witness.ambiguity,) if example.witness else ()
            expected = outcome.failed.that if outcome.failed is not None else "the moves"
            yield Change.of("EXAMPLE_BROKEN", f"examples.{example.id}", f"example "
                            f"{example.id} ({example.title}) fails on the new reference: "
                            f"{outcome.message}", tuple(example.clauses), records,
                            old=f"expected: {expected}", new=outcome.message)


def random_games(spec: Spec, watch: Watch, progress: Progress | None = None,
                 games: int = RANDOM_GAMES, steps: int = RANDOM_GAME_STEPS) -> None:
    """Play ``games`` seeded random games of the reference of ``spec`` under its defaults (the
    fewest players, the most, then a middle count), watching every state."""
    from rulespec.reference.core import ConfigError
    from rulespec.reference.play import random_policy

    low, high = spec.min_players, spec.max_players
    counts = [low, high, (low + high) // 2]
    for seed in range(games):
        players = counts[seed % len(counts)]
        if progress is not None:
            progress(f"random game {seed}")
        try:
            engine = _engine(spec, {"players": players})
        except ConfigError:
            continue
        params, config = _setting(engine)
        source = f"random game seed {seed} ({players} players)"
        watch.source("random game")
        rng = random.Random(seed)
        prev = engine.state()
        watch.step(source, "random game", "at the start", prev, None, None, params, config,
                   every=True)
        for n in range(1, steps + 1):
            if engine.current_player() is None:
                break
            action = random_policy(engine, rng)
            engine.apply(action)
            state = engine.state()
            watch.step(source, "random game", f"step {n} ({json.dumps(action, sort_keys=True)})",
                       state, prev, action, params, config, every=True)
            prev = state


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
                            f"configuration is refused: {exc}", (), tuple(config.get("rulings", {})),
                            old=config, new=f"refused: {exc}")
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
                                f"terminal {new.terminal})", cited,
                                old={"depth": old["depth"], "nodes": old["nodes"],
                                     "weighted": old["weighted"],
                                     "terminal": old.get("terminal")},
                                new={"depth": old["depth"], "nodes": new.nodes,
                                     "weighted": str(new.weighted), "terminal": new.terminal})
                break


def behaviour_changes(evidence: Evidence, new: Spec, progress: Progress | None = None, *,
                      old: Spec | None = None, new_examples: Path | None = None,
                      changed_examples: frozenset[str] = frozenset()) -> list[Change]:
    """Replay the old evidence on the new spec's reference; return what changed.

    The invariants and events ``new`` adds or changes since ``old`` (all of them without
    ``old``) are evaluated on every state replayed and on a few random games; the rule
    examples ``changed_examples`` of ``new`` (at ``new_examples``) are run on its reference.
    """
    check_engine(new)
    out: list[Change] = []
    watch = Watch(old, new)
    for path in evidence.traces:
        if progress is not None:
            progress(f"trace {path.name}")
        change = replay_trace(new, path, watch)
        if change is not None:
            out.append(change)
    if evidence.examples is not None:
        out.extend(replay_examples(new, evidence.examples, progress, watch))
    if evidence.perft is not None:
        out.extend(recount_perft(new, evidence.perft, progress))
    random_games(new, watch, progress)
    out.extend(watch.changes())
    if new_examples is not None and changed_examples:
        out.extend(check_new_examples(new, new_examples, changed_examples, progress))
    return out
