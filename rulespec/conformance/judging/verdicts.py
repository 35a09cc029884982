"""The step checks of the kit as pure functions: what the engine said against the reference.

Each check returns a :class:`Finding` (or ``None`` when it passes) and has no side effect; the
driver (``rulespec.conformance.play.runner``) decides when to call them, records the game, and turns
a finding into a :class:`~rulespec.conformance.judging.checks.Failure`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulespec.conformance.engine.protocol import Legal, same_fractions
from rulespec.conformance.judging import causes
from rulespec.conformance.judging.validation import StateValidator
from rulespec.reference.core import CHANCE, Action, Actor, Rejection
from rulespec.spec.invariants import Invariants
from rulespec.spec.model import Spec
from rulespec.spec.statediff import Change, StateSchema, describe, diff_states, governing_clauses


@dataclass(frozen=True)
class Finding:
    """A check that did not pass: which, the clauses it concerns, and a sentence."""

    check: str
    clauses: tuple[str, ...]
    message: str
    subject: str | None = None
    also: tuple[str, ...] = ()
    #: Every differing field, when the finding compares two states.
    diff: tuple[Change, ...] = ()
    #: What went wrong, without where (``rulespec.conformance.judging.causes``), when the check knows.
    cause: str | None = None
    #: The reference's and the engine's side of what was compared, when it is not a state
    #: (``rulespec.conformance.judging.checks.Failure.expected``).
    expected: Any = None
    actual: Any = None


class Verdicts:
    """The checks of one game, with what they need from its spec computed once."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.invariants = Invariants(spec)
        self.validator = StateValidator(spec.state_schema)
        self.schema = StateSchema.of(spec)
        self.action_clauses = {str(a["id"]): tuple(str(c) for c in a["clauses"])
                               for a in spec.section("actions")}
        objective = spec.data["game"].get("objective", {})
        terminal = [c for inv in spec.section("invariants") if inv["scope"] == "terminal"
                    for c in inv["clauses"]]
        setup = spec.data.get("structure", {}).get("setup", [])
        self.setup_clauses = tuple(unique(c for step in setup for c in step.get("clauses", [])))
        self.end_clauses = tuple(unique([*objective.get("clauses", []), *terminal]))

    def clauses(self, action: Mapping[str, Any] | None) -> tuple[str, ...]:
        """Return the clauses of an action's kind (none for no action)."""
        if action is None:
            return ()
        return self.action_clauses.get(str(action.get("kind")), ())

    def _kind_clauses(self, actions: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
        return tuple(unique(c for a in actions for c in self.clauses(a)))

    def schema_and_invariants(self, state: dict[str, Any], prev: dict[str, Any] | None,
                              action: Action | None, params: Mapping[str, Any],
                              cfg: Mapping[str, Any]) -> Finding | None:
        """Check the state against the state schema, then every invariant."""
        if not self.validator.is_valid(state):
            errors = self.validator.errors(state)
            err = min(errors, key=lambda e: len(list(e.absolute_path)))
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            return Finding("STATE-SCHEMA", self.clauses(action),
                           f"the state does not match the spec's state schema at {where}: "
                           f"{err.message[:300]}", expected={"at": where, "schema": err.schema},
                           actual={"at": where, "value": err.instance})
        violations = self.invariants.check(state, prev=prev, action=action, params=params,
                                           config=cfg)
        if violations:
            v = violations[0]
            return Finding("INVARIANT", v.clauses, str(v), subject=v.invariant,
                           also=tuple(x.invariant for x in violations[1:]),
                           expected={"invariant": v.invariant, "holds": True,
                                     "description": v.description},
                           actual={"invariant": v.invariant, "holds": False,
                                   "detail": v.detail})
        return None

    def state(self, state: Mapping[str, Any], expected: Mapping[str, Any],
              action: Action | None) -> Finding | None:
        """Compare a state with the reference's (the caller knows they differ)."""
        clauses = self.clauses(action) if action is not None else self.setup_clauses
        ended = (state.get("result") is not None, expected.get("result") is not None)
        if ended != (False, False) and state.get("result") != expected.get("result"):
            return Finding("DIFF-RESULT", self.end_clauses + clauses,
                           f"result {state.get('result')!r} but the reference gives "
                           f"{expected.get('result')!r}",
                           expected={"result": expected.get("result")},
                           actual={"result": state.get("result")})
        changes = tuple(diff_states(state, expected, self.schema))
        if not changes:
            return None  # they differ only where the spec's conventions say it does not matter
        # The clauses that govern the differing fields say what rule is broken; the last
        # action's clauses only say what was being done, so they come after.
        return Finding("DIFF-STATE", governing_clauses(changes) + clauses,
                       describe(changes), diff=changes, expected=dict(expected),
                       actual=dict(state))

    def refused(self, action: Action, rejection: Rejection) -> Finding:
        """The engine refused an action the reference allows."""
        return Finding("DIFF-LEGAL", self.clauses(action) + rejection.clauses,
                       f"the engine refused {action!r}, which the reference allows; it said: "
                       f"{rejection.reason}", cause=causes.refused_legal(action, rejection.reason),
                       expected={"action": action, "accepted": True},
                       actual={"action": action, "accepted": False, "reason": rejection.reason})

    def legal(self, legal: Legal, expected: Legal, last: Action | None) -> Finding | None:
        """Compare who moves and the legal actions (and chance outcomes) with the reference's."""
        if legal.actor == expected.actor and legal.actions == expected.actions and (
                expected.actor != CHANCE
                or same_fractions(legal.probabilities, expected.probabilities)):
            return None  # the usual case, settled before anything is looked up
        last_clauses = self.clauses(last)
        want, got = expected.to_json(), legal.to_json()
        if legal.actor != expected.actor:
            said = (f"the engine says {who(legal.actor)} is to move but the reference says "
                    f"{who(expected.actor)}")
            want, got = {"to_move": who(expected.actor)}, {"to_move": who(legal.actor)}
            if legal.actor is None or expected.actor is None:
                return Finding("DIFF-RESULT", self.end_clauses + last_clauses, said,
                               expected=want, actual=got)
            return Finding("DIFF-LEGAL", last_clauses, said,
                           cause=f"another player to move after {causes.kind_of(last)}",
                           expected=want, actual=got)
        if expected.actor == CHANCE:
            found = self.chance(legal, expected)
            if found is not None:
                return found
        if legal.actions == expected.actions:
            return None
        mine = {key(a) for a in legal.actions}
        theirs = {key(a) for a in expected.actions}
        extra = [a for a in legal.actions if key(a) not in theirs]
        missing = [a for a in expected.actions if key(a) not in mine]
        if extra or missing:
            clauses = self._kind_clauses(extra + missing)
            msg = (f"legal actions differ from the reference: the engine also allows "
                   f"{extra[:5]!r} and lacks {missing[:5]!r}")
            cause = (f"legal actions differ: extra {causes.kinds(extra)}, missing "
                     f"{causes.kinds(missing)}")
        else:
            clauses = self._kind_clauses(expected.actions)
            msg = ("legal actions are the reference's but not in canonical order: the engine "
                   f"lists {legal.actions[:8]!r}, the reference {expected.actions[:8]!r}")
            cause = f"legal {causes.kinds(expected.actions)} not in canonical order"
        return Finding("DIFF-LEGAL", clauses or last_clauses, msg, cause=cause,
                       expected={"legal_actions": list(expected.actions[:SIDE_ITEMS])},
                       actual={"legal_actions": list(legal.actions[:SIDE_ITEMS])})

    def chance(self, legal: Legal, expected: Legal) -> Finding | None:
        """Compare the chance outcomes and their exact probabilities with the reference's."""
        if legal.actions == expected.actions and same_fractions(legal.probabilities,
                                                                expected.probabilities):
            return None  # the reference's outcomes, which its own tests show sum to exactly 1
        clauses = self._kind_clauses(expected.actions)
        what = f"chance {causes.kinds(expected.actions)}"
        theirs, mine = ({"chance_outcomes": outcomes(expected)},
                        {"chance_outcomes": outcomes(legal)})
        if legal.probabilities is None:
            return Finding("CHANCE-DIST", clauses, "chance is to move but the engine gives no "
                           "probabilities; list one exact fraction per outcome",
                           cause=f"{what}: no probabilities", expected=theirs,
                           actual=mine)
        got = {key(a): p for a, p in zip(legal.actions, legal.probabilities, strict=True)}
        want = {key(a): p for a, p in zip(expected.actions, expected.probabilities or [],
                                          strict=True)}
        total = sum(legal.probabilities, Fraction(0))
        if got.keys() != want.keys():
            extra = sorted(got.keys() - want.keys())[:5]
            missing = sorted(want.keys() - got.keys())[:5]
            return Finding("CHANCE-DIST", clauses, f"chance outcome set differs from the "
                           f"reference: extra {extra}, missing {missing}",
                           cause=f"{what}: another outcome set", expected=theirs,
                           actual=mine)
        wrong = [(k, got[k], want[k]) for k in want if got[k] != want[k]]
        if wrong or total != 1:
            shown = ", ".join(f"{k}: {g} instead of {w}" for k, g, w in wrong[:4])
            return Finding("CHANCE-DIST", clauses, f"chance probabilities differ from the "
                           f"reference ({shown or 'none differ'}); they sum to {total}",
                           cause=f"{what}: other probabilities", expected=theirs,
                           actual=mine)
        return None

    @staticmethod
    def probe(bad: Action, why: Rejection | Callable[[], Rejection],
              rejection: Rejection | None, before: Mapping[str, Any] | None,
              after: Mapping[str, Any] | None) -> Finding | None:
        """Check how the engine took an illegal action: refused, and its state unchanged.

        ``why`` (the rule the action breaks) may be a function, asked only for a finding.
        """
        if rejection is not None and after == before:
            return None
        said = why() if callable(why) else why
        if rejection is None:
            return Finding("ILLEGAL-REJECTED", said.clauses,
                           f"the engine accepted {bad!r}, which is illegal now: {said.reason}",
                           cause=causes.accepted_illegal(bad),
                           expected={"action": bad, "accepted": False, "reason": said.reason},
                           actual={"action": bad, "accepted": True})
        if after != before:
            return Finding("ILLEGAL-REJECTED", said.clauses,
                           f"the engine refused {bad!r} but its state changed: "
                           + state_diff(after or {}, before or {}),
                           cause=causes.refusal_changed_state(bad),
                           expected=None if before is None else dict(before),
                           actual=None if after is None else dict(after))
        return None


#: The most legal actions or chance outcomes a failure keeps of each side (its message says
#: how many differ; a report stays small).
SIDE_ITEMS = 40


def outcomes(legal: Legal) -> list[dict[str, Any]]:
    """Return chance outcomes as JSON: each outcome with its probability as an exact fraction
    (``"1/6"``), or None when the engine gave none."""
    probabilities = list(legal.probabilities or [])
    return [{"outcome": a, "probability": str(probabilities[i]) if i < len(probabilities)
             else None} for i, a in enumerate(legal.actions[:SIDE_ITEMS])]


def key(action: Any) -> str:
    """Return a canonical JSON key of an action (or any JSON value)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def fast_key(action: Mapping[str, Any]) -> Any:
    """Return a hashable key of an action (a tuple of its items when they are hashable)."""
    try:
        k = tuple(sorted(action.items()))
        hash(k)
        return k
    except TypeError:
        return key(action)


def unique(items: Iterable[str]) -> list[str]:
    """Return the items without repeats, in first-seen order."""
    return list(dict.fromkeys(items))


def who(actor: Actor | None) -> str:
    """Name whoever is to move, in words."""
    if actor is None:
        return "nobody (the game is over)"
    return "chance" if actor == CHANCE else f"player {actor}"


def state_diff(got: Mapping[str, Any], want: Mapping[str, Any],
               schema: StateSchema | None = None) -> str:
    """Describe every difference between two canonical states (the first few in full)."""
    return describe(diff_states(got, want, schema))
