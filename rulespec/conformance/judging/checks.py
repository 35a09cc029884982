"""The checks of the kit: each has a permanent id, a sentence, and the clauses it covers.

Checking is separate from reporting: the runner produces ``Failure`` records, the reporters in
``rulespec.conformance.reports.report`` turn them into text, JSON or JUnit XML.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Check:
    """One kind of check."""

    id: str
    title: str
    explanation: str


CHECKS: tuple[Check, ...] = (
    Check("EXAMPLE", "the spec's rule examples hold",
          "every rule example of the spec (a position reached by forced chance and player "
          "actions, the steps taken from it, and what the rules demand afterwards) holds on the "
          "engine; run first, its failures are the most readable counterexamples"),
    Check("PROTOCOL", "the engine speaks the protocol",
          "every call is answered in time with a valid JSON-RPC 2.0 response; no crash, hang, "
          "garbage, wrong id or oversized line"),
    Check("PERFT", "the first plies have the reference's game tree",
          "every position of the first plies (as deep as a small time budget allows) has the "
          "reference's player to move, legal actions in order and chance outcomes with their "
          "exact probabilities; run first, it names the first position where the trees part"),
    Check("STATE-SCHEMA", "the state matches the spec's state schema",
          "every canonical state the engine reports validates against state.schema"),
    Check("INVARIANT", "every spec invariant holds at every step",
          "state, transition and terminal invariants of the spec, evaluated on the engine's states"),
    Check("DIFF-LEGAL", "same legal actions as the reference",
          "after the same actions, the engine lists the same player to move and the same legal "
          "actions in the same canonical order, and accepts every one of them"),
    Check("DIFF-STATE", "same canonical state as the reference",
          "after the same actions, the engine's canonical state equals the reference's"),
    Check("DIFF-RESULT", "same end and result as the reference",
          "the game ends after the same actions, with the same scores, ranking and winners"),
    Check("ILLEGAL-REJECTED", "illegal actions are rejected and change nothing",
          "an action the rules forbid now is refused with an illegal-action error and the state "
          "is unchanged"),
    Check("DETERMINISM", "the same actions give the same states",
          "replaying a game's actions in a fresh game gives the same state at every step"),
    Check("CHANCE-DIST", "chance outcomes and exact probabilities match the reference",
          "at every chance node, the outcome set is the reference's and each probability is the "
          "same exact fraction; they sum to 1"),
    Check("GOLDEN", "golden traces replay exactly",
          "every committed golden trace the engine supports replays with the recorded state at "
          "every step and the recorded result"),
    Check("OBSERVATION", "each player sees what the rules let them see",
          "for an engine that declares the observation capability: replaying a game, each "
          "player's observation at every step is the reference's (the canonical state with "
          "what the spec's state.hidden and the configured rulings hide from that player "
          "replaced); not run for an engine that does not declare it"),
)

CHECK_IDS = tuple(c.id for c in CHECKS)
BY_ID: Mapping[str, Check] = {c.id: c for c in CHECKS}


@dataclass(frozen=True)
class Failure:
    """A check that failed, with what is needed to understand and replay it."""

    #: The check that failed: an id of ``CHECKS`` (``EXAMPLE``, ``PROTOCOL``, ``PERFT``, ...).
    check: str
    #: The clauses the failed check enforces here.
    clauses: tuple[str, ...]
    #: What went wrong, in words.
    message: str
    #: The configuration it failed in, in its JSON form.
    config: Mapping[str, Any]
    #: Number of actions applied before the failure showed (None when not tied to a step).
    step: int | None = None
    #: The actions of the minimal failing game, in order (each with its actor).
    actions: tuple[tuple[Any, Mapping[str, Any]], ...] = ()
    #: Where the minimal failing trace was written (a file ``rulespec replay`` runs).
    trace: str | None = None
    #: Other checks that failed at the same step (reported after the first).
    also: tuple[str, ...] = ()
    #: An invariant id, a golden trace name, ... that makes the failure more precise.
    subject: str | None = None
    #: Every differing field (``{"path", "kind", "got", "want", "clauses"}``), for a state diff.
    diff: tuple[Mapping[str, Any], ...] = ()
    #: Actions of the first failing game found, before it was shrunk to ``actions``.
    shrunk_from: int | None = None
    #: Ruling options (ambiguity -> option) under which the reference does what the engine did.
    matches: tuple[Mapping[str, str], ...] = ()
    #: What the ruling inference tried, in words (None when it did not run).
    inference: str | None = None
    #: The MAJOR spec changes since the release the engine declares that touch this failure,
    #: each a sentence ("this behaviour changed in 2.0.0 (...): ...").
    changed: tuple[str, ...] = ()
    #: What went wrong, without where (``rulespec.conformance.judging.causes``): failures with the same
    #: cause are reported once. None: the reporter derives it from the check and the message.
    cause: str | None = None
    #: Seconds from the start of the run to when the failure was confirmed (shrunk, written).
    found_after: float | None = None
    #: What the check expected at ``step``, as JSON: for the checks that compare something other
    #: than a state, an object keyed by what was compared (``{"legal_actions": [...]}``,
    #: ``{"to_move": ...}``, ``{"chance_outcomes": [...]}``, ``{"result": ...}``), with the same
    #: keys in ``actual``; for a state, the reference's (or the recorded golden) state. None
    #: when the message says it all.
    expected: Any = None
    #: What the engine did there instead, as JSON, beside ``expected``.
    actual: Any = None

    def to_json(self) -> dict[str, Any]:
        """Return the failure as JSON."""
        return {"check": self.check, "title": BY_ID[self.check].title,
                "clauses": list(self.clauses), "subject": self.subject,
                "message": self.message, "config": dict(self.config), "step": self.step,
                "actions": [{"actor": a, "action": dict(x)} for a, x in self.actions],
                "trace": self.trace, "also": list(self.also), "diff": list(self.diff),
                "shrunk_from": self.shrunk_from,
                "matches": [dict(m) for m in self.matches], "inference": self.inference,
                "changed": list(self.changed), "cause": self.cause,
                "found_after": None if self.found_after is None else round(self.found_after, 3),
                "expected": json_value(self.expected), "actual": json_value(self.actual)}


def json_value(value: Any) -> Any:
    """Return ``value`` as plain JSON data (a value JSON cannot hold, such as a fraction, as its
    text), so that a failure's expected and actual always fit a report and a trace."""
    return None if value is None else json.loads(json.dumps(value, default=str))


@dataclass
class RunResult:
    """What the kit found for one configuration."""

    #: The configuration, in its JSON form.
    config: Mapping[str, Any]
    #: Games played (rule examples run, in the rule examples' run).
    examples: int = 0
    #: Actions checked.
    steps: int = 0
    #: Wall-clock seconds spent.
    seconds: float = 0.0
    #: What failed, the first failure of each cause.
    failures: list[Failure] = field(default_factory=list)
    #: Why the configuration was not checked (None: it was).
    skipped: str | None = None
    #: The conformance level checked: full, observable or none (what the engine declares).
    level: str = "full"
    #: The engine's node count at each ply that the PERFT check visited (equal to the
    #: reference's unless PERFT failed).
    perft: list[int] = field(default_factory=list)
    #: What the games exercised (a ``rulespec.conformance.play.coverage.CoverageSummary``), set by
    #: the kit once the configuration is done; None for rule examples and skipped runs.
    coverage: Any = None
    #: Rule examples left out because they need something added after the release the engine
    #: is checked as (their ids; only in the rule examples' run).
    newer: list[str] = field(default_factory=list)
    #: Why play stopped before every game was played (the budget, ``-x``); None: it did not.
    cut: str | None = None
    #: Rule examples left out, each ``{"id", "why"}``: outside the scope asked (``-n``,
    #: ``--ruling``...), or needing what the engine does not declare (only in the rule
    #: examples' run).
    outside_scope: list[dict[str, str]] = field(default_factory=list)
    #: Rule examples left out because they need a ruling, variant or player count the engine
    #: does not declare, each ``{"id", "why"}`` (only in the rule examples' run).
    undeclared: list[dict[str, str]] = field(default_factory=list)
    #: Player observations compared with the reference's (check OBSERVATION; 0 when the engine
    #: does not declare the capability).
    observed: int = 0

    @property
    def ok(self) -> bool:
        """Return True when nothing failed."""
        return not self.failures

    def to_json(self) -> dict[str, Any]:
        """Return the run as JSON."""
        out = {"config": dict(self.config), "ok": self.ok, "examples": self.examples,
               "steps": self.steps, "seconds": round(self.seconds, 3),
               "skipped": self.skipped, "level": self.level, "perft": list(self.perft),
               "failures": [f.to_json() for f in self.failures]}
        if self.coverage is not None:
            out["coverage"] = self.coverage.to_json()
        if self.newer:
            out["newer"] = list(self.newer)
        if self.cut is not None:
            out["cut"] = self.cut
        if self.observed:
            out["observed"] = self.observed
        if "rule_examples" in self.config:
            out["outside_scope"] = list(self.outside_scope)
            out["undeclared"] = list(self.undeclared)
        return out


@dataclass
class Report:
    """Everything one kit run found: per configuration, plus the golden traces."""

    #: The name the engine was checked under.
    engine: str
    #: The game id.
    game: str
    #: The version of the spec the kit checked with.
    spec_version: str
    #: One result per configuration checked.
    runs: list[RunResult] = field(default_factory=list)
    #: Each golden trace replayed, with its failure (None: it replayed).
    golden: list[tuple[str, Failure | None]] = field(default_factory=list)
    #: Why the (remaining) golden traces were not replayed: the engine stopped answering.
    golden_not_run: str | None = None
    #: The run of the spec's rule examples (check EXAMPLE), when they were run.
    examples: RunResult | None = None
    #: The release the engine was checked as (``rulespec.conformance.judging.versions.VersionView``);
    #: None when the engine could not be asked.
    checked_as: Any = None
    #: Golden traces left out because they need something added after that release.
    golden_newer: list[str] = field(default_factory=list)
    #: Golden traces left out, each ``{"trace", "why"}``: outside the scope asked, or needing
    #: what the engine does not declare.
    golden_skipped: list[dict[str, str]] = field(default_factory=list)
    #: The run's budget and stop (``rulespec.conformance.judging.budget.Budget.to_json``), when known.
    budget: dict[str, Any] | None = None
    #: What the run was asked for (``rulespec.conformance.judging.scope.Scope.to_json``), when known.
    scope: dict[str, Any] | None = None

    @property
    def failures(self) -> list[Failure]:
        """Return every failure: rule examples first, then configurations, then golden traces."""
        out = list(self.examples.failures) if self.examples is not None else []
        out += [f for r in self.runs for f in r.failures]
        out += [f for _, f in self.golden if f is not None]
        return out

    @property
    def ok(self) -> bool:
        """Return True when every check passed."""
        return not self.failures

    def failed_checks(self) -> list[str]:
        """Return the ids of the checks that failed, in check order, without repeats."""
        seen = {f.check for f in self.failures}
        return [c for c in CHECK_IDS if c in seen]

    def check_status(self) -> dict[str, str]:
        """Return check id -> "passed", "failed", "partial" or "not run"."""
        failed = set(self.failed_checks())
        # A run that failed before its first step exercised nothing: it does not count as run.
        ran = any(r.skipped is None and r.steps > 0 for r in self.runs)
        clean = any(r.skipped is None and r.ok for r in self.runs)
        out = {}
        for cid in CHECK_IDS:
            if cid in failed:
                out[cid] = "failed"
            elif cid == "EXAMPLE":
                ex = self.examples
                out[cid] = "passed" if ex is not None and ex.skipped is None and ex.examples else \
                    "not run"
            elif cid == "GOLDEN":
                if not self.golden:
                    out[cid] = "not run"
                elif any(f is not None for _, f in self.golden):
                    # The engine could not even be asked (hello failed): nothing replayed.
                    out[cid] = "failed"
                else:
                    out[cid] = "passed"
            elif not ran or (cid == "OBSERVATION"
                             and not any(r.observed for r in self.runs)):
                out[cid] = "not run"
            else:
                # Play stops at a configuration's first failure: without one clean run the
                # other checks were exercised only up to that point.
                out[cid] = "passed" if clean else "partial"
        return out
