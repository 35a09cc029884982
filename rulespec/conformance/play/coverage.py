"""Coverage: configurations that play every ruling option an engine declares, and what the
games of each configuration exercised (action kinds, decision points, events, invariants,
clauses).

Declaring several options of an ambiguity in ``hello`` says the engine implements each of them.
Every option is then played at least once, and every pair of options of two ambiguities in some
configuration (a pairwise covering array, built greedily), spread over the declared player
counts so the number of configurations stays near the number of rows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.conformance.engine.protocol import Hello
from rulespec.spec.celruntime import result

# Re-exported: these were the kit's names in 0.2 (rulespec.spec.events holds them now).
from rulespec.spec.events import Event as Event  # noqa: PLC0414
from rulespec.spec.events import compile_events as compile_events  # noqa: PLC0414
from rulespec.spec.events import ends_a_game as ends_a_game  # noqa: PLC0414
from rulespec.spec.events import fields_read as fields_read  # noqa: PLC0414
from rulespec.spec.events import premise_of as premise_of  # noqa: PLC0414
from rulespec.spec.events import slim as slim  # noqa: PLC0414
from rulespec.spec.events import split_or as split_or  # noqa: PLC0414
from rulespec.spec.events import split_top as split_top  # noqa: PLC0414
from rulespec.spec.expressions import Expression, ExpressionError, compile_expression, make_context
from rulespec.spec.model import Spec
from rulespec.spec.validate import SCOPE_VARIABLES, SEEK_VARIABLES

Pair = tuple[str, str, str, str]


def pairwise(choices: Mapping[str, Sequence[str]]) -> list[dict[str, str]]:
    """Return rows (ambiguity -> option) that cover every option, and every pair of options of
    two ambiguities; ambiguities with one choice are fixed in every row.

    The first row takes every ambiguity's first choice (put the default first).
    """
    fixed = {a: opts[0] for a, opts in choices.items() if len(opts) == 1}
    free = [a for a, opts in choices.items() if len(opts) > 1]
    if len(free) < 2:
        single = [{a: o} for a in free for o in choices[a]] or [{}]
        return [{**fixed, **r} for r in single]
    order = {a: i for i, a in enumerate(free)}

    def pair(a: str, o: str, b: str, p: str) -> Pair:
        return (a, o, b, p) if order[a] < order[b] else (b, p, a, o)

    todo = {pair(a, o, b, p) for i, a in enumerate(free) for b in free[i + 1:]
            for o in choices[a] for p in choices[b]}
    rows: list[dict[str, str]] = []
    first: dict[str, str] | None = {a: choices[a][0] for a in free}
    while todo:
        a, o, b, p = min(todo)
        row = first or {a: o, b: p}
        first = None
        for c in free:
            if c not in row:
                row[c] = max(choices[c], key=lambda q: sum(
                    pair(x, row[x], c, q) in todo for x in row))
        todo -= {pair(x, row[x], y, row[y]) for i, x in enumerate(free) for y in free[i + 1:]}
        rows.append({**fixed, **row})
    return rows


def declared_configs(spec: Spec, hello: Hello, *, players: Sequence[int] | None = None,
                     variants: Sequence[str] = (),
                     parameters: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Return the configurations that cover what ``hello`` declares for ``spec``'s game."""
    info = hello.games.get(spec.game_id, {})
    counts = [n for n in (players or range(spec.min_players, spec.max_players + 1))
              if info.get("players") is None or n in info["players"]]
    declared = info.get("rulings", {})
    defaults = spec.default_rulings()
    choices = {amb: sorted((o for o in declared.get(amb, []) if o in _options(spec, amb)),
                           key=lambda o: o != defaults[amb])
               for amb in spec.ambiguities}
    choices = {amb: opts for amb, opts in choices.items() if opts}
    rows = pairwise(choices)
    configs = []
    # Every count once with the first row, then the other rows spread over the counts.
    plan = [(n, rows[0]) for n in counts]
    plan += [(counts[i % len(counts)], row) for i, row in enumerate(rows[1:])] if counts else []
    for n, row in plan:
        configs.append({"game": spec.game_id, "players": n, "rulings": dict(row),
                        "variants": list(variants), "parameters": dict(parameters or {})})
    return configs


def _options(spec: Spec, ambiguity: str) -> list[str]:
    return [str(o["id"]) for o in spec.ambiguities[ambiguity]["options"]]


# -- what play exercised -------------------------------------------------------------------------
#
# Each configuration's games are watched on the reference, in lockstep with the engine (a passing
# engine's states are the reference's): the action kinds taken, the decision points reached, the
# spec's rare events seen, and the invariants whose premise held. Only counters are kept (no copy
# of a state), and what is already covered is not evaluated again.

#: Check invariant premises on one state in this many steps (and on every terminal state).
PREMISE_EVERY = 8


@dataclass(frozen=True)
class _Premise:
    ident: str
    scope: str
    clauses: tuple[str, ...]
    expression: Expression | None
    fields: frozenset[str] | None = None


def due_events(events: list[Event]) -> tuple[list[Event], frozenset[str] | None, bool]:
    """Return ``shown``'s first three arguments for ``events``: them, the state fields they
    read together, and whether one of them runs on the CEL library."""
    return (events, _union(e.fields for e in events),
            any(e.when.fast is None for e in events))


def shown(due: Sequence[Event], fields: frozenset[str] | None, library: bool,
          before: Mapping[str, Any], action: Mapping[str, Any], after: Mapping[str, Any],
          params: Mapping[str, Any], config: Mapping[str, Any]) -> list[str]:
    """Return the ids of the events of ``due`` one step shows.

    ``fields`` are the state fields they read together; with ``library`` (one of them runs on
    the CEL library, which converts whole values) the states are cut down to those first.
    """
    variables = {
        "before": slim(before, fields) if library else before, "action": dict(action),
        "after": slim(after, fields) if library else after, "params": params, "config": config}
    context = None
    seen = []
    for event in due:
        when = event.when
        fast = when.fast
        if fast is not None:  # compiled: called directly, the context is made only if it fails
            try:
                if result(fast(variables)) is True:
                    seen.append(event.ident)
                continue
            except Exception:  # the library decides, as ``evaluate_in`` does
                pass
        if context is None:
            context = make_context(variables)
        try:
            hit = when.evaluate_in(context) is True
        except ExpressionError:
            hit = False  # a state without the fields (a partial level) shows no event
        if hit:
            seen.append(event.ident)
    return seen


@dataclass(frozen=True)
class Hint:
    """A seek hint of the spec: which choices lead toward ``items``, and the fields it reads."""

    items: frozenset[str]
    when: Expression
    state: frozenset[str] | None
    params: frozenset[str] | None
    config: frozenset[str] | None


class Universe:
    """What there is to cover in one game: action kinds, decision points, events, invariants,
    clauses (computed once per spec)."""

    def __init__(self, spec: Spec) -> None:
        from rulespec.reference.decisions import live_ambiguities
        from rulespec.spec.validate import INVARIANT_VARIABLES

        self.spec = spec
        self.kind_clauses = {str(a["id"]): tuple(str(c) for c in a["clauses"])
                             for a in spec.section("actions")}
        self.kinds = list(self.kind_clauses)
        self.decision_clauses = {aid: tuple(str(c) for c in amb.get("clauses", []))
                                 for aid, amb in live_ambiguities(spec).items()}
        self.decisions = list(self.decision_clauses)
        self.events = compile_events(spec)
        self.premises: list[_Premise] = []
        for inv in spec.section("invariants"):
            premise = premise_of(str(inv["expression"]))
            variables = INVARIANT_VARIABLES[str(inv["scope"])]
            self.premises.append(_Premise(
                str(inv["id"]), str(inv["scope"]), tuple(str(c) for c in inv["clauses"]),
                compile_expression(premise, variables) if premise is not None else None,
                fields_read(premise, ("state", "prev")) if premise is not None else None))
        self.clauses = [str(c["id"]) for c in spec.section("clauses")]
        self.scope = [(frozenset(str(i) for i in entry["items"]),
                       compile_expression(str(entry["when"]), SCOPE_VARIABLES), str(entry["why"]))
                      for entry in spec.section("coverage") if "when" in entry]
        #: Seek hints (``coverage`` entries with ``seek``; ``rulespec.conformance.play.steering``).
        self.hints = [Hint(frozenset(str(i) for i in entry["items"]),
                           compile_expression(str(entry["seek"]), SEEK_VARIABLES),
                           *(fields_read(str(entry["seek"]), (root,))
                             for root in ("state", "params", "config")))
                      for entry in spec.section("coverage") if "seek" in entry]

    def out_of_scope(self, config: Mapping[str, Any],
                     params: Mapping[str, Any]) -> dict[str, str]:
        """Return the items that cannot happen under a configuration, each with the reason the
        spec gives (its ``coverage`` entries whose ``when`` is false)."""
        out: dict[str, str] = {}
        context = make_context({"config": dict(config), "params": dict(params)})
        for items, when, why in self.scope:
            try:
                applies = when.evaluate_in(context) is True
            except ExpressionError:
                applies = False
            if not applies:
                out.update(dict.fromkeys(sorted(items), why))
        return out


class Coverage:
    """What the games of one configuration exercised: counters only."""

    def __init__(self, universe: Universe) -> None:
        self.universe = universe
        self.kinds: Counter[str] = Counter()
        self.decisions: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self.invariants: set[str] = set()
        self.games = 0
        #: Items that cannot happen under the configuration (not counted), with the reason.
        self.out: dict[str, str] = {}
        self._steps = 0
        #: Set by the steering chooser once a failure is found: coverage read by the chooser
        #: stops changing, so that Hypothesis replays a game the same way while it shrinks.
        self.frozen: frozenset[str] | None = None
        #: Per action kind: the events that may show on it, the state fields they read, and
        #: whether one of them runs on the CEL library (only then are the states cut down to
        #: those fields: a compiled expression reads the fields it needs and nothing else).
        self._due: dict[str, tuple[list[Event], frozenset[str] | None, bool]] = {}

    def __getstate__(self) -> dict[str, Any]:
        """Pickle (a worker of ``conform --jobs`` sends its coverage back) without the cache."""
        return {**self.__dict__, "_due": {}}

    def _due_on(self, kind: str) -> tuple[list[Event], frozenset[str] | None, bool]:
        got = self._due.get(kind)
        if got is None:
            got = self._due[kind] = due_events(
                [e for e in self.universe.events if e.kinds is None or kind in e.kinds])
        return got

    def step(self, before: Mapping[str, Any], action: Mapping[str, Any],
             after: Mapping[str, Any], params: Mapping[str, Any],
             config: Mapping[str, Any]) -> list[str]:
        """Record one step of the reference; return the ids of the events it showed."""
        kind = str(action.get("kind"))
        self.kinds[kind] += 1
        self._steps += 1
        due, fields, library = self._due_on(kind)
        seen = shown(due, fields, library, before, action, after, params, config) if due else []
        if seen:
            self.events.update(seen)
        terminal = after.get("result") is not None
        if terminal or self._steps % PREMISE_EVERY == 0:
            self._premises(before, action, after, params, config, terminal)
        return seen

    def due_on(self, kind: str, among: Collection[str]) -> list[Event]:
        """Return the events of ``among`` that can happen after an action of ``kind``."""
        return [e for e in self._due_on(kind)[0] if e.ident in among]

    def _premises(self, before: Mapping[str, Any], action: Mapping[str, Any],
                  after: Mapping[str, Any], params: Mapping[str, Any],
                  config: Mapping[str, Any], terminal: bool) -> None:
        todo = [p for p in self.universe.premises if p.ident not in self.invariants
                and (p.scope != "terminal" or terminal)]
        for p in todo:
            if p.expression is None:  # no guard: held whenever its scope was checked
                self.invariants.add(p.ident)
        todo = [p for p in todo if p.expression is not None]
        if not todo:
            return
        fields = _union(p.fields for p in todo)
        context = make_context({"state": slim(after, fields), "prev": slim(before, fields),
                                "action": dict(action), "params": params, "config": config})
        for p in todo:
            try:
                held = p.expression is not None and p.expression.evaluate_in(context) is True
            except ExpressionError:
                held = False
            if held:
                self.invariants.add(p.ident)

    def game_over(self, decisions: Mapping[str, int]) -> None:
        """Record a finished (or stopped) game: the reference's decision-point counts."""
        self.games += 1
        self.decisions.update({a: n for a, n in decisions.items() if n})

    def merge(self, other: Coverage) -> None:
        """Add another run's coverage of the same configuration."""
        self.kinds.update(other.kinds)
        self.decisions.update(other.decisions)
        self.events.update(other.events)
        self.invariants |= other.invariants
        self.games += other.games

    def missing(self) -> set[str]:
        """Return the action kinds, decision points and events not reached yet (those the
        configuration can reach)."""
        u = self.universe
        items = [*u.kinds, *u.decisions, *(e.ident for e in u.events)]
        have = set(self.kinds) | set(self.decisions) | set(self.events)
        return {i for i in items if i not in have and i not in self.out}

    def is_new(self, kind: str) -> bool:
        """Return True when no action of ``kind`` was taken yet (as of the freeze, if frozen)."""
        if self.frozen is not None:
            return kind not in self.frozen
        return kind not in self.kinds

    def summary(self) -> CoverageSummary:
        """Return what was exercised and what was not, with the percentages."""
        u = self.universe
        clauses: set[str] = set()
        for kind in self.kinds:
            clauses.update(u.kind_clauses.get(kind, ()))
        for amb in self.decisions:
            clauses.update(u.decision_clauses.get(amb, ()))
        for event in u.events:
            if self.events.get(event.ident):
                clauses.update(event.clauses)
        for p in u.premises:
            if p.ident in self.invariants:
                clauses.update(p.clauses)
        out = self.out
        return CoverageSummary(
            games=self.games,
            kinds={k: self.kinds.get(k, 0) for k in u.kinds if k not in out},
            decisions={a: self.decisions.get(a, 0) for a in u.decisions if a not in out},
            events={e.ident: self.events.get(e.ident, 0) for e in u.events
                    if e.ident not in out},
            event_names={e.ident: e.name for e in u.events},
            invariants={p.ident: p.ident in self.invariants for p in u.premises},
            clauses={c: c in clauses for c in u.clauses},
            out_of_scope=dict(out))


@dataclass(frozen=True)
class CoverageSummary:
    """The coverage of one configuration, as the reports show it."""

    games: int
    kinds: Mapping[str, int]
    decisions: Mapping[str, int]
    events: Mapping[str, int]
    event_names: Mapping[str, str]
    invariants: Mapping[str, bool]
    clauses: Mapping[str, bool]
    #: Items the configuration cannot reach (not counted), with the spec's reason.
    out_of_scope: Mapping[str, str] = field(default_factory=dict)

    def parts(self) -> dict[str, tuple[int, int, list[str]]]:
        """Return, per part, (covered, total, what was never reached)."""
        def part(items: Mapping[str, Any]) -> tuple[int, int, list[str]]:
            missed = [k for k, v in items.items() if not v]
            return len(items) - len(missed), len(items), missed

        return {"action kinds": part(self.kinds), "decision points": part(self.decisions),
                "events": part(self.events), "invariants": part(self.invariants),
                "clauses": part(self.clauses)}

    def to_json(self) -> dict[str, Any]:
        """Return the coverage as JSON (the ``coverage`` key of a run in a JSON report)."""
        out: dict[str, Any] = {"games": self.games}
        keys = {"action kinds": "action_kinds", "decision points": "decision_points",
                "events": "events", "invariants": "invariants", "clauses": "clauses"}
        for name, (covered, total, missed) in self.parts().items():
            out[keys[name]] = {"covered": covered, "total": total,
                               "percent": percent(covered, total), "not_reached": missed}
        out["action_kinds"]["counts"] = dict(self.kinds)
        out["decision_points"]["counts"] = dict(self.decisions)
        out["events"]["counts"] = dict(self.events)
        out["out_of_scope"] = dict(self.out_of_scope)
        return out


def _union(parts: Any) -> frozenset[str] | None:
    """Return the union of field sets, or None when one of them is None (the whole state)."""
    out: set[str] = set()
    for fields in parts:
        if fields is None:
            return None
        out |= fields
    return frozenset(out)


def percent(covered: int, total: int) -> float:
    """Return ``covered`` of ``total`` as a percentage (100 when there is nothing to cover)."""
    return round(100.0 * covered / total, 1) if total else 100.0


def coverage_lines(summary: CoverageSummary, *, indent: str = "  ") -> list[str]:
    """Return the coverage of one configuration for the text report."""
    out = [f"{indent}coverage ({summary.games} games):"]
    for name, (covered, total, missed) in summary.parts().items():
        line = f"{indent}  {name:16} {covered}/{total} ({percent(covered, total):g}%)"
        if missed:
            names = missed if name != "events" else [
                f"{m} ({summary.event_names.get(m, m)})" for m in missed]
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8
                                             else "")
            line += f"; never reached: {shown}" if name != "clauses" else (
                f"; {len(missed)} clauses not exercised (see the JSON report)")
        out.append(line)
    seen = [f"{e} x{n}" for e, n in summary.events.items() if n]
    if seen:
        out.append(f"{indent}  events seen: {', '.join(seen)}")
    if summary.out_of_scope:
        out.append(f"{indent}  not counted here (cannot happen in this configuration): "
                   + ", ".join(sorted(summary.out_of_scope)))
    return out


def totals(summaries: Sequence[CoverageSummary]) -> dict[str, tuple[int, int]]:
    """Return, per part, (covered by some configuration, total) over a whole run."""
    out: dict[str, tuple[int, int]] = {}
    if not summaries:
        return out
    for name in summaries[0].parts():
        covered: set[str] = set()
        total: set[str] = set()
        for s in summaries:
            items = {"action kinds": s.kinds, "decision points": s.decisions,
                     "events": s.events, "invariants": s.invariants,
                     "clauses": s.clauses}[name]
            total.update(items)
            covered.update(k for k, v in items.items() if v)
        out[name] = (len(covered), len(total))
    return out


def exercised_line(summaries: Sequence[CoverageSummary]) -> str:
    """Return the sentence a passing report ends with: what "conformant" rests on."""
    parts = ", ".join(f"{name} {percent(c, t):g}%" for name, (c, t) in totals(summaries).items())
    return f"conformant on what was exercised: {parts}"
