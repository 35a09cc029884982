"""What is checked in every state and on every transition, and the violations it reports.

Each kind of violation has a permanent name (as the conformance kit's checks do):

- ``INVARIANT``: a state, transition or terminal invariant of the spec does not hold;
- ``STATE-SCHEMA``: the canonical state does not match the spec's state schema;
- ``CHANCE``: chance outcomes that are not exact positive probabilities summing to 1, that
  repeat an outcome, or that are not the legal actions;
- ``NO-LEGAL-ACTION``: a player is to move and has no legal action (the game is stuck);
- ``RESULT``: a terminal state without a well-formed result, or a result before the end;
- ``REFUSED``: the engine refuses an action it listed as legal;
- ``ENGINE-ERROR``: the engine raised an error;
- ``KEY-BEHAVIOUR``: two states with equal keys behave differently (the key, or the view, does
  not determine the future);
- ``TRAP``: a reachable state from which no terminal state can be reached;
- ``VIEW``: a view's outcome probabilities fall outside what the search on canonical states
  allows (the forgotten fields do decide the future).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from time import perf_counter
from typing import Any

from rulespec.reference.core import CHANCE, Action, Engine
from rulespec.spec.expressions import ExpressionError, compile_expression, make_context
from rulespec.spec.fastschema import compile_schema
from rulespec.spec.model import Spec
from rulespec.spec.validate import INVARIANT_VARIABLES
from rulespec.verify.decides import Abstraction, decides
from rulespec.verify.keys import json_encoder
from rulespec.verify.memo import Fields, Guard, Remembered, SchemaByProperty, guard_of, reads

KINDS = ("INVARIANT", "STATE-SCHEMA", "CHANCE", "NO-LEGAL-ACTION", "RESULT", "REFUSED",
         "ENGINE-ERROR", "KEY-BEHAVIOUR", "TRAP", "VIEW")


@dataclass(frozen=True)
class Violation:
    """Something that went wrong in one state or transition, and the path that reaches it."""

    kind: str
    message: str
    #: The move numbers from the start (the actions of the shortest path, replayed to write it).
    path: tuple[int, ...]
    clauses: tuple[str, ...] = ()
    #: The invariant broken (for INVARIANT).
    subject: str | None = None
    #: For KEY-BEHAVIOUR: the path of the other state with the same key.
    other: tuple[int, ...] | None = None
    #: The trace files written for it.
    traces: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """Return the violation as JSON."""
        return {"kind": self.kind, "message": self.message, "clauses": list(self.clauses),
                "subject": self.subject, "steps": len(self.path), "traces": list(self.traces)}


@dataclass(frozen=True)
class Invariant:
    """One compiled invariant."""

    ident: str
    scope: str
    clauses: tuple[str, ...]
    description: str
    source: str
    expression: Any = field(compare=False, repr=False)


def compile_invariants(spec: Spec) -> list[Invariant]:
    """Return the spec's invariants, compiled, in spec order."""
    out = []
    for inv in spec.section("invariants"):
        scope = str(inv["scope"])
        source = str(inv["expression"])
        out.append(Invariant(str(inv["id"]), scope, tuple(str(c) for c in inv["clauses"]),
                             str(inv["description"]), source,
                             compile_expression(source, INVARIANT_VARIABLES[scope])))
    return out


@dataclass(frozen=True)
class Problem:
    """A violation before its path is known: the kind, a sentence, the clauses."""

    kind: str
    message: str
    clauses: tuple[str, ...] = ()
    subject: str | None = None


class StateChecks:
    """The checks of one configuration: invariants, the state schema, moves and results."""

    def __init__(self, engine: Engine, view: Abstraction | None = None, *,
                 remember: bool = True) -> None:
        spec = engine.spec
        #: What rebuilds these checks in another process (the compiled expressions cannot be
        #: pickled): ``rulespec verify -j`` hands finished searches back from its workers.
        self._origin = (engine, view, remember)
        self.players = engine.players
        self.invariants = compile_invariants(spec)
        self.params = dict(engine.config.parameters)
        self.config = engine.config.to_json()
        self._schema = compile_schema(spec.state_schema)
        #: The schema checked property by property, each value once (``rulespec.verify.memo``).
        self._by_property = SchemaByProperty.of(spec.state_schema) if remember else None
        view = view or Abstraction()
        #: Invariants whose truth a merged state may not share with its representative.
        self.unkeyed = frozenset(i.ident for i in self.invariants
                                 if not decides(i.source, view))
        self.evaluations = 0
        #: Invariants that read the same fields share one memo of the values they passed
        #: with together (``rulespec.verify.memo``); None: no memo.
        self._remember = remember
        self._scoped: dict[tuple[str, bool], list[tuple[Remembered | None, list[Invariant]]]] = {}
        #: By invariant: its guard, the first operands of its ``||`` that read fewer fields
        #: (``rulespec.verify.memo.Guard``; None: it has none).
        self._guards: dict[str, Guard | None] = {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle as the engine and view they were made from (compiled again on loading; the
        memos of values seen start empty, which changes no verdict)."""
        engine, view, remember = self._origin
        return (_rebuild_checks, (engine, view, remember))

    def _variables(self, state: Mapping[str, Any], prev: Mapping[str, Any] | None,
                   action: Action | None) -> dict[str, Any]:
        variables: dict[str, Any] = {"state": state, "params": self.params,
                                     "config": self.config}
        if prev is not None:
            variables["prev"] = prev
            variables["action"] = action
        return variables

    def _evaluate(self, groups: Sequence[tuple[Remembered | None, list[Invariant]]],
                  variables: dict[str, Any], fields: Fields, prev: Fields | None = None,
                  action: Fields | None = None) -> Problem | None:
        context = None
        for memo, items in groups:
            key = None
            timed = False
            if memo is not None and memo.worth():
                timed = memo.keep is None
                if timed:
                    started = perf_counter()
                key = memo.key(fields, prev, action)
                if memo.seen(key):
                    if timed:
                        memo.key_seconds += perf_counter() - started
                        memo.judge()
                    continue
                if timed:
                    looked = perf_counter()
                    memo.key_seconds += looked - started
            if context is None:
                context = make_context(variables)
            guards = self._guards
            for item in items:
                guard = guards.get(item.ident)
                if guard is not None and guard.used and guard.holds(fields, prev, action,
                                                                    context):
                    continue
                self.evaluations += 1
                try:
                    value = item.expression.evaluate_in(context)
                except ExpressionError:
                    value = None
                if value is not True:
                    # The first invariant in the spec's order that fails is the one reported.
                    return self._first_failing([i for _, g in groups for i in g], context)
            if memo is not None and key is not None:
                memo.remember(key)
                if timed:
                    memo.miss_seconds += perf_counter() - looked
                    memo.misses += 1
                    memo.judge()
        return None

    def _first_failing(self, items: Sequence[Invariant], context: Any) -> Problem | None:
        for item in sorted(items, key=self.invariants.index):
            try:
                value = item.expression.evaluate_in(context)
            except ExpressionError as exc:
                return Problem("INVARIANT", f"invariant {item.ident} could not be evaluated: "
                               f"{exc}", item.clauses, item.ident)
            if value is not True:
                return Problem("INVARIANT", f"invariant {item.ident} ({item.description.strip()}) "
                               f"does not hold: {item.source.strip()!r} gave {value!r}",
                               item.clauses, item.ident)
        return None

    def _items(self, scope: str,
               only_unkeyed: bool) -> list[tuple[Remembered | None, list[Invariant]]]:
        """Return the invariants of a scope (``state+terminal``: both), grouped by the fields
        they read, each group with its memo."""
        found = self._scoped.get((scope, only_unkeyed))
        if found is None:
            scopes = scope.split("+")
            groups: dict[Any, tuple[Remembered | None, list[Invariant]]] = {}
            for inv in self.invariants:
                if inv.scope not in scopes or (only_unkeyed and inv.ident not in self.unkeyed):
                    continue
                read = reads(inv.source) if self._remember else None
                label: Any = read if read is not None else inv.ident
                if label not in groups:
                    groups[label] = (None if read is None else Remembered(read), [])
                groups[label][1].append(inv)
                if self._remember and inv.ident not in self._guards:
                    allowed = INVARIANT_VARIABLES[inv.scope]
                    self._guards[inv.ident] = guard_of(
                        inv.source, partial(compile_expression, allowed=allowed))
            found = self._scoped[(scope, only_unkeyed)] = list(groups.values())
        return found

    def state(self, state: Mapping[str, Any], *, only_unkeyed: bool = False,
              fields: Fields | None = None,
              changed: frozenset[str] | None = None) -> Problem | None:
        """Check the schema and the state (and, once over, terminal) invariants of a state
        (``only_unkeyed``: a state merged under a view, whose key decides the other invariants;
        its schema is still checked, since a view may merge a value the schema refuses;
        ``fields``: the state's frozen fields, shared with its other checks; ``changed``: the
        only top-level fields in which the state may differ from one that passed, as a merged
        state's from its representative's outside the fields its view's terms reach: a schema
        checked property by property then checks those alone)."""
        if fields is None:
            fields = Fields(state)
        by_property = self._by_property
        if by_property is not None:
            matches = by_property(state, fields, changed)
        else:
            matches = self._schema(state)
        if not matches:
            return Problem("STATE-SCHEMA", "the canonical state does not match the spec's state "
                           f"schema: {json.dumps(state, sort_keys=True)[:400]}")
        terminal = state.get("result") is not None
        items = self._items("state+terminal" if terminal else "state", only_unkeyed)
        return self._evaluate(items, self._variables(state, None, None), fields) if items else None

    def transition(self, prev: Mapping[str, Any], action: Action, state: Mapping[str, Any], *,
                   prev_fields: Fields | None = None,
                   fields: Fields | None = None, only_unkeyed: bool = False) -> Problem | None:
        """Check the transition invariants of one step (``prev_fields``, ``fields``: the two
        states' frozen fields, shared with their other checks; ``only_unkeyed``: those the
        view does not decide)."""
        items = self._items("transition", only_unkeyed)
        if not items:
            return None
        return self._evaluate(items, self._variables(state, prev, action),
                              fields if fields is not None else Fields(state),
                              prev_fields if prev_fields is not None else Fields(prev),
                              Fields(action))

    def moves(self, engine: Engine) -> tuple[int | None, list[tuple[Action, Fraction]], Problem | None]:
        """Return who moves, the moves with their weights, and what is wrong with them.

        Chance moves carry their exact probabilities; a player's moves weigh ``1/k`` each (the
        uniform random player). A terminal state has no moves and must carry a well-formed
        result; a state that is not terminal must have moves.
        """
        actor = engine.current_player()
        if actor is None:
            return None, [], self._result(engine)
        legal = engine.legal_actions()
        if engine.result() is not None:
            return _actor(actor), [], Problem("RESULT", "the state has a result but the game "
                                              f"is not over: {actor!r} is to move")
        if actor == CHANCE:
            outcomes = engine.chance_outcomes()
            return -1, outcomes, _chance_problem(outcomes, legal)
        if not isinstance(actor, int) or not 0 <= actor < self.players:
            return 0, [], Problem("ENGINE-ERROR", f"current_player() is {actor!r}, neither "
                                  "chance, None nor a seat")
        if not legal:
            return actor, [], Problem("NO-LEGAL-ACTION", f"player {actor} is to move and has no "
                                      "legal action")
        if not _distinct(legal):
            return actor, [], Problem("ENGINE-ERROR", "legal_actions() lists an action twice")
        share = _SHARES.get(len(legal))
        if share is None:
            share = _SHARES.setdefault(len(legal), Fraction(1, len(legal)))
        return actor, [(a, share) for a in legal], None

    def _result(self, engine: Engine) -> Problem | None:
        result = engine.result()
        if result is None:
            return Problem("RESULT", "the game is over (nobody is to move) but result() is None")
        if engine.legal_actions():
            return Problem("RESULT", "the game is over but legal_actions() is not empty")
        return result_problem(result, self.players)


def _rebuild_checks(engine: Engine, view: Abstraction | None, remember: bool) -> StateChecks:
    return StateChecks(engine, view, remember=remember)


#: ``1/k`` by k: one object each, so the store finds its number by the object.
_SHARES: dict[int, Fraction] = {}
#: Lists of legal actions found to hold no action twice, by their ``repr`` (equal for lists of
#: JSON values only when they are the same values of the same types, in the same order, and
#: each list's canonical encodings were compared when it was first met).
_DISTINCT: set[str] = set()


def _distinct(legal: Sequence[Action]) -> bool:
    """Return whether no action is listed twice (by canonical JSON)."""
    text = repr(legal)
    if text in _DISTINCT:
        return True
    if len({_encode(a) for a in legal}) != len(legal):
        return False
    if len(_DISTINCT) >= _CODES_MAX:
        _DISTINCT.clear()
    _DISTINCT.add(text)
    return True


def _actor(actor: Any) -> int:
    return -1 if actor == CHANCE else int(actor)


#: Encoded actions by object id, each entry keeping its object alive (so its id cannot be
#: reused meanwhile): the engines hand out the same precomputed action objects again and again.
_CODES: dict[int, tuple[Any, str]] = {}
_CODES_MAX = 1 << 16


#: Encoded flat actions (a dict of strings and integers) by their items: an engine that hands
#: out a fresh dict at every call (Pig's) is encoded once per distinct action.
_FLAT: dict[tuple[Any, ...], str] = {}


def encode_action(action: Any) -> str:
    """Return the canonical JSON of an action (remembered for objects met before)."""
    hit = _CODES.get(id(action))
    if hit is not None and hit[0] is action:
        return hit[1]
    flat: tuple[Any, ...] | None = None
    if type(action) is dict:
        # Equal items whose values have the same types have the same JSON (True is not 1
        # here), floats aside (0.0 equals -0.0); an unhashable value is not remembered.
        types = tuple(map(type, action.values()))
        if float not in types:
            flat = (tuple(action.items()), types)
            try:
                text = _FLAT.get(flat)
            except TypeError:
                flat = text = None
            if text is not None:
                return text
    text = _ACTION_JSON(action)
    if flat is not None:
        if len(_FLAT) >= _CODES_MAX:
            _FLAT.clear()
        _FLAT[flat] = text
        return text
    if len(_CODES) >= _CODES_MAX:
        _CODES.clear()
    _CODES[id(action)] = (action, text)
    return text


_encode = encode_action
#: ``json.dumps(action, sort_keys=True, separators=(",", ":"))``, its C encoder made once.
_ACTION_JSON = json_encoder(sort_keys=True, ensure_ascii=True)


#: Chance moves found well formed, by their encoding (most chance nodes offer one of a few
#: lists: the faces of a die); the exact sum is computed once per list.
_CHANCE_OK: set[tuple[str, str]] = set()


def _chance_problem(outcomes: Sequence[tuple[Action, Any]], legal: Sequence[Action]) -> Problem | None:
    # By repr: equal for lists of JSON values (and exact probabilities) only when they hold the
    # same values of the same types in the same order; a list is remembered only once
    # ``_chance_problem_of`` found it well formed, its actions encoded.
    signature = (repr(outcomes), repr(legal))
    if signature in _CHANCE_OK:
        return None
    problem = _chance_problem_of(outcomes, legal)
    if problem is None:
        if len(_CHANCE_OK) >= _CODES_MAX:
            _CHANCE_OK.clear()
        _CHANCE_OK.add(signature)
    return problem


def _chance_problem_of(outcomes: Sequence[tuple[Action, Any]],
                       legal: Sequence[Action]) -> Problem | None:
    if not outcomes:
        return Problem("CHANCE", "chance is to move but has no outcome")
    total = Fraction(0)
    for action, p in outcomes:
        if type(p) is not Fraction and type(p) is not int:
            return Problem("CHANCE", f"the probability of {action!r} is {p!r}, not an exact "
                           "fraction")
        if p <= 0:
            return Problem("CHANCE", f"the probability of {action!r} is {p}, not positive")
        total += p
    if total != 1:
        return Problem("CHANCE", f"the chance outcomes' probabilities sum to {total}, not 1")
    encoded = [_encode(a) for a, _ in outcomes]
    if len(set(encoded)) != len(encoded):
        return Problem("CHANCE", "the chance outcomes list an outcome twice")
    if encoded != [_encode(a) for a in legal]:
        return Problem("CHANCE", "the legal actions at a chance node are not the chance "
                       "outcomes in their order")
    return None


def result_problem(result: Any, players: int) -> Problem | None:
    """Say what is wrong with a terminal result (None when it is well formed).

    Well formed: an object whose ``winners`` are distinct seats, at least one; ``ranking``, when
    given, lists disjoint non-empty groups of seats and starts with the winners; ``scores``, when
    given, has one entry per seat.
    """
    if not isinstance(result, dict):
        return Problem("RESULT", f"the result is {result!r}, not an object")
    winners = result.get("winners")
    if not _seats(winners, players) or not winners:
        return Problem("RESULT", f"the result's winners {winners!r} are not distinct seats, "
                       "at least one")
    ranking = result.get("ranking")
    if ranking is not None:
        flat = [p for group in ranking for p in group] if isinstance(ranking, list) and all(
            isinstance(g, list) and g for g in ranking) else None
        if flat is None or not _seats(flat, players):
            return Problem("RESULT", f"the result's ranking {ranking!r} is not a list of "
                           "disjoint groups of seats")
        if sorted(ranking[0]) != sorted(winners):
            return Problem("RESULT", f"the ranking's first place {ranking[0]!r} is not the "
                           f"winners {winners!r}")
    scores = result.get("scores")
    if scores is not None and (not isinstance(scores, list) or len(scores) != players):
        return Problem("RESULT", f"the result's scores {scores!r} are not one per seat")
    return None


def _seats(values: Any, players: int) -> bool:
    return (isinstance(values, list) and all(type(v) is int and 0 <= v < players for v in values)
            and len(set(values)) == len(values))
