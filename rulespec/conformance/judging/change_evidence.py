"""Whether a spec change can produce a failure: the evidence behind "this behaviour changed in X".

An engine checked as an older release (``rulespec.conformance.judging.versions``) may fail where a MAJOR
change since that release altered the rules; the failure then says so. Sharing a clause with the
change is not evidence: a bug that makes Gold worth 6 shares ``OURO-CARD-01`` with the change
that capped ``play_favor``'s player at 5, and the change has nothing to do with it. A change is
named on a failure only when it touches what differs there:

- an action's parameter schema (``ACTION_PARAMS_CHANGED``): an action of that kind among those
  the failure is about (the legal actions that differ, the action refused or accepted, a rule
  example's move) that one schema accepts and the other refuses;
- a parameter's schema or default (``PARAMETER_*``): the failure's configuration sets that
  parameter to a value one schema accepts and the other refuses; for a default, replaying the
  failing game on the reference with the old default reproduces what the engine did;
- a declared behaviour change naming records (``BEHAVIOUR_DECLARED``, and any change that names
  records): the failure's configuration has the record at an option the change names, a
  differing field (or the rule the failure is about: a rule example's, an invariant's) is
  governed by a clause the change cites, and the record's readings already part where the
  engine first goes otherwise than the reference (replayed on the reference under another
  option of the record, the failing game goes otherwise at or before that point): a bug that
  shows before the record's decision point is not the change's;
- anything else: a differing state field governed by a clause the change cites (the last
  action's clauses alone are not enough).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from jsonschema import Draft202012Validator

from rulespec.conformance.judging.checks import Failure
from rulespec.conformance.judging.divergence import DIVERGED
from rulespec.reference.core import Config, ConfigError, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.releases.change import Change
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

Kind = Literal["action", "parameter", "behaviour", "clauses"]
#: Checks whose clauses are the rule's own (a rule example's, an invariant's, the differing
#: actions', a refusal's), not the last action's: they are evidence as they stand.
RULE_CLAUSES = frozenset({"EXAMPLE", "INVARIANT", "DIFF-LEGAL", "ILLEGAL-REJECTED", "PERFT",
                          "CHANCE-DIST"})


@dataclass(frozen=True)
class Evidence:
    """What a change touches, in the terms a failure can be compared with."""

    kind: Kind
    #: The action kind or the parameter's name.
    name: str = ""
    #: The schema (of an action's params, or a parameter's value) before and after the change.
    before: Any = None
    after: Any = None
    #: For a parameter: its default before and after (None: the default did not change).
    defaults: tuple[Any, Any] | None = None
    #: Record -> the options of it the change is about (all of them when it names none).
    records: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    clauses: tuple[str, ...] = ()


def evidence_of(change: Change, before: Spec, after: Spec) -> Evidence:
    """Return what ``change`` (between ``before`` and ``after``) touches."""
    parts = change.path.split(".")
    if change.records:
        return Evidence("behaviour", records={r: _named_options(after, r, change.reason)
                                              for r in change.records if r in after.ambiguities},
                        clauses=tuple(change.clauses))
    if change.rule.startswith("ACTION_") and len(parts) > 1 and parts[0] == "actions":
        kind = parts[1].split("/")[0]
        return Evidence("action", kind, _action(before, kind).get("params"),
                        _action(after, kind).get("params"), clauses=tuple(change.clauses))
    if change.rule.startswith("PARAMETER_") and len(parts) > 1 and parts[0] == "parameters":
        name = parts[1].split("/")[0]
        a = dict(before.parameters.get(name) or {})
        b = dict(after.parameters.get(name) or {})
        defaults = None
        if change.rule == "PARAMETER_DEFAULT_CHANGED":
            defaults = (a.get("default", a.get("from_table")), b.get("default",
                                                                     b.get("from_table")))
        return Evidence("parameter", name, a.get("schema"), b.get("schema"), defaults,
                        clauses=tuple(change.clauses))
    return Evidence("clauses", clauses=tuple(change.clauses))


def _action(spec: Spec, kind: str) -> Mapping[str, Any]:
    return next((a for a in spec.section("actions") if str(a.get("id")) == kind), {})


def _named_options(spec: Spec, record: str, reason: str) -> tuple[str, ...]:
    """Return the options of ``record`` the change's words name after it (every option when
    they name none): "Under OURO-AMB-06 immediately ..." names ``immediately``."""
    options = [str(o["id"]) for o in spec.ambiguities[record].get("options") or ()]
    named = [o for o in options
             if re.search(rf"{re.escape(record)}\W+(?:=\s*)?{re.escape(o)}\b", reason)]
    return tuple(named or options)


def produces(change: MajorChange, failure: Failure, spec: Spec | None) -> bool:
    """Return True when ``change`` can produce ``failure`` (see the module's rules)."""
    ev = change.evidence
    if ev is None:  # a change built by hand: its clauses must govern a differing field
        ev = Evidence("behaviour" if change.records else "clauses",
                      records={r: () for r in change.records}, clauses=change.clauses)
    if ev.kind == "action":
        return any(_validity_differs(ev, action) for action in _actions_of(failure, ev.name))
    if ev.kind == "parameter":
        return _parameter_produces(ev, failure, spec)
    if ev.kind == "behaviour":
        return _behaviour_produces(ev, failure, spec)
    return bool(set(_field_clauses(failure)) & set(ev.clauses))


# -- actions ------------------------------------------------------------------------------------


def _actions_of(failure: Failure, kind: str) -> Iterator[Mapping[str, Any]]:
    """Yield the actions of ``kind`` the failure is about: those in what the reference and the
    engine gave (legal actions, an action refused or accepted, chance outcomes) and, for a
    refusal or a rule example, the action at the failing step."""
    def walk(value: Any) -> Iterator[Mapping[str, Any]]:
        if isinstance(value, Mapping):
            if value.get("kind") == kind:
                yield value
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list | tuple):
            for item in value:
                yield from walk(item)

    if failure.check in ("DIFF-LEGAL", "ILLEGAL-REJECTED", "PERFT", "CHANCE-DIST", "EXAMPLE",
                         "GOLDEN"):
        yield from walk(failure.expected)
        yield from walk(failure.actual)
    if failure.check in ("ILLEGAL-REJECTED", "EXAMPLE") and failure.actions:
        at = failure.step if failure.step is not None else len(failure.actions) - 1
        if 0 <= at < len(failure.actions):
            yield from walk(failure.actions[at][1])


def _valid(schema: Any, value: Any) -> bool:
    if not isinstance(schema, Mapping):
        return True
    return bool(Draft202012Validator(dict(schema)).is_valid(value))


def _validity_differs(ev: Evidence, action: Mapping[str, Any]) -> bool:
    """Return True when one side's schema of the action's kind accepts ``action`` and the
    other's refuses it (a spec's params schema covers the whole action, ``kind`` included)."""
    return _valid(ev.before, dict(action)) != _valid(ev.after, dict(action))


# -- parameters ---------------------------------------------------------------------------------


def _parameter_produces(ev: Evidence, failure: Failure, spec: Spec | None) -> bool:
    given = dict(failure.config.get("parameters") or {})
    if ev.name in given and _valid(ev.before, given[ev.name]) != _valid(ev.after,
                                                                        given[ev.name]):
        return True
    if ev.defaults is None or ev.name in given or spec is None:
        return False
    # A default changed: the game replayed with the old default must do what the engine did.
    try:
        config = config_from_json(spec, {**dict(failure.config), "parameters": {
            **given, ev.name: ev.defaults[0]}})
    except (ConfigError, RulespecError):
        return False
    return _reproduces(spec, config, failure)


def _reproduces(spec: Spec, config: Config, failure: Failure) -> bool:
    """Return True when the reference under ``config`` ends the failing game in the state the
    engine had there (``failure.actual``)."""
    if not isinstance(failure.actual, Mapping) or failure.check != "DIFF-STATE":
        return False
    state = _replay(spec, config, [a for _, a in failure.actions[:failure.step]])
    return state is not None and state == dict(failure.actual)


def _replay(spec: Spec, config: Config, actions: Sequence[Mapping[str, Any]]) -> Any:
    try:
        engine = engine_class(spec)(spec, config)
        for action in actions:
            engine.apply(dict(action))
        return engine.state()
    except RulespecError:
        return None


# -- records --------------------------------------------------------------------------------------


def _field_clauses(failure: Failure) -> list[str]:
    """Return the clauses that govern the failure's differing state fields."""
    return [str(c) for entry in failure.diff for c in entry.get("clauses") or ()]


def _behaviour_produces(ev: Evidence, failure: Failure, spec: Spec | None) -> bool:
    rulings = dict(failure.config.get("rulings") or {})
    explained = {a for match in failure.matches for a in match}
    records = [r for r, options in ev.records.items()
               if r in explained or not options or rulings.get(r) in options]
    if not records:
        return False
    touched = set(_field_clauses(failure))
    if failure.check in RULE_CLAUSES or not failure.diff:
        touched.update(failure.clauses)
    if not touched & set(ev.clauses) and not explained & set(records):
        return False
    if spec is None:
        return True
    return any(_reaches(spec, failure, record) for record in records)


def _reaches(spec: Spec, failure: Failure, record: str) -> bool:
    """Return True when the record's readings account for where the engine first goes wrong.

    The failing game is replayed on the reference, up to the first difference
    (``first_difference``), under the configured option and under each other option of
    ``record``: they must go otherwise there or before (the decision point is reached), and
    every field that differs between the engine and the reference there must be one the
    readings set otherwise at that point. A bug that shows in a field every reading agrees on
    (a missed accident, when the change is about what follows one) is not the change's.
    """
    try:
        base = config_from_json(spec, dict(failure.config))
    except (ConfigError, RulespecError):
        return False
    if record not in spec.ambiguities:
        return False
    actions = [dict(a) for _, a in failure.actions]
    at = first_difference(failure)
    if at is not None:
        actions = actions[:at]
    mine = _trail(spec, base, actions)
    paths = [str(entry.get("path", "")) for entry in failure.diff]
    for option in (str(o["id"]) for o in spec.ambiguities[record]["options"]):
        if option == base.rulings.get(record):
            continue
        try:
            other = config_from_json(spec, {**dict(failure.config), "rulings": {
                **dict(failure.config.get("rulings") or {}), record: option}})
        except (ConfigError, RulespecError):
            continue
        theirs = _trail(spec, other, actions)
        if theirs == mine:
            continue
        if not paths:
            return True
        if mine and theirs and isinstance(mine[-1], tuple) and isinstance(theirs[-1], tuple):
            parted = list(_leaves(mine[-1][0], theirs[-1][0]))
            if all(any(_related(p, q) for q in parted) for p in paths):
                return True
    return False


def _leaves(a: Any, b: Any, path: str = "") -> Iterator[str]:
    """Yield the JSON Pointers of the leaves where two JSON values differ."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in dict.fromkeys([*a, *b]):
            if a.get(key) != b.get(key):
                yield from _leaves(a.get(key), b.get(key), f"{path}/{key}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                yield from _leaves(x, y, f"{path}/{i}")
    elif a != b:
        yield path


def _related(p: str, q: str) -> bool:
    """Return True when one JSON Pointer is the other or inside it."""
    return p == q or p.startswith(q + "/") or q.startswith(p + "/")


def first_difference(failure: Failure) -> int | None:
    """Return the actions played before the engine first went otherwise than the reference (the
    divergence a rule example or golden trace names, else the failing step; None: unknown)."""
    found = re.search(re.escape(DIVERGED) + r"(at the start|after (\d+) actions?)",
                      failure.message)
    if found:
        return int(found.group(2)) if found.group(2) else 0
    return failure.step


def _trail(spec: Spec, config: Config, actions: Sequence[Mapping[str, Any]]) -> list[Any]:
    """Return what the reference shows at the start and after each action (the state, the
    player to move and the legal actions, or that it refused the action)."""
    try:
        engine = engine_class(spec)(spec, config)
    except RulespecError:
        return []
    out: list[Any] = [(engine.state(), engine.legal_actions())]
    for action in actions:
        try:
            engine.apply(action)
        except RulespecError:
            out.append("refused")
            continue
        out.append((engine.state(), engine.legal_actions()))
    return out


@dataclass(frozen=True)
class MajorChange:
    """One MAJOR change between the declared release and today's spec."""

    version: str
    rule: str
    reason: str
    clauses: tuple[str, ...] = ()
    records: tuple[str, ...] = ()
    #: Where the change is (``actions.play_favor.params/player``), and what it touches, as
    #: this module reads it (not part of the JSON).
    path: str = field(default="", compare=False)
    evidence: Evidence | None = field(default=None, compare=False, repr=False)

    def text(self) -> str:
        """Return the change in one line: where it came in and what it is."""
        return f"{self.version} {self.rule}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """Return the change as JSON."""
        return {"version": self.version, "rule": self.rule, "reason": self.reason,
                "clauses": list(self.clauses), "records": list(self.records)}
