"""Ruling inference: which options of a spec's ambiguities make the reference do what an engine did.

An engine that differs from the reference often follows another reading of an ambiguous rule.
The evidence is what the engine did in a game (its states and legal actions after the same
actions); the reference is replayed on those actions under alternative options, one at a time,
then in pairs, and every ruling under which it reproduces the evidence is named. Played over
many games (``infer_profile``), the same replays give a *ruling profile*: per ambiguity, the
options the engine's behaviour is consistent with.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulespec.conformance.adapters import Adapter
from rulespec.conformance.checks import Failure
from rulespec.conformance.protocol import Legal, legal_of
from rulespec.reference.core import Action, Config, Engine, config_from_json, make_config
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: Builds a reference engine for a configuration.
Reference = Callable[[Spec, Config], Engine]
#: Checks whose failure is not a behaviour another ruling could produce.
NOT_EXPLAINED = frozenset({"PROTOCOL", "DETERMINISM", "GOLDEN", "STATE-SCHEMA"})


@dataclass(frozen=True)
class Evidence:
    """What an engine did in one game: the actions, then per position its state and legal answer.

    Position 0 is before the first action; ``None`` marks what was not recorded there.
    """

    actions: tuple[Action, ...]
    states: tuple[Mapping[str, Any] | None, ...]
    legals: tuple[Legal | None, ...]

    @property
    def length(self) -> int:
        """Return the number of positions (one more than the actions)."""
        return len(self.actions) + 1


def agreement(spec: Spec, reference: Reference, config: Config, evidence: Evidence) -> int:
    """Return how many positions of ``evidence`` the reference under ``config`` reproduces.

    Replay stops at the first position where the reference's state or legal actions differ from
    the engine's, or where it refuses the engine's next action; ``evidence.length`` means all.
    """
    try:
        engine = reference(spec, config)
        for i in range(evidence.length):
            if i and not _applied(engine, evidence.actions[i - 1]):
                return i
            if not _agrees(engine, evidence, i):
                return i
    except RulespecError:
        return 0
    return evidence.length


def _applied(engine: Engine, action: Action) -> bool:
    try:
        engine.apply(action)
    except RulespecError:
        return False
    return True


def _agrees(engine: Engine, evidence: Evidence, i: int) -> bool:
    state = evidence.states[i] if i < len(evidence.states) else None
    if state is not None and state != engine.state():
        return False
    legal = evidence.legals[i] if i < len(evidence.legals) else None
    return legal is None or legal == legal_of(engine)


def with_rulings(spec: Spec, base: Config, override: Mapping[str, str]) -> Config:
    """Return ``base`` with the rulings of ``override`` changed."""
    return make_config(spec, players=base.players, rulings={**base.rulings, **override},
                       variants=base.variants, parameters=base.overrides)


def alternatives(spec: Spec, rulings: Mapping[str, str]) -> list[tuple[str, str]]:
    """Return every (ambiguity, option) other than the one ``rulings`` chose, in spec order."""
    return [(amb, str(o["id"])) for amb, rec in spec.ambiguities.items()
            for o in rec["options"] if str(o["id"]) != rulings.get(amb)]


@dataclass
class _Search:
    spec: Spec
    reference: Reference
    base: Config
    evidence: Sequence[Evidence]
    deadline: float
    replays: int = 0

    def scores(self, override: Mapping[str, str]) -> tuple[int, ...]:
        try:
            config = with_rulings(self.spec, self.base, override)
        except RulespecError:
            return tuple(0 for _ in self.evidence)
        self.replays += 1
        return tuple(agreement(self.spec, self.reference, config, ev) for ev in self.evidence)

    @property
    def full(self) -> tuple[int, ...]:
        return tuple(ev.length for ev in self.evidence)

    def late(self) -> bool:
        return time.monotonic() > self.deadline


def explain(spec: Spec, reference: Reference, base: Config, evidence: Sequence[Evidence], *,
            budget: float = 10.0) -> tuple[list[dict[str, str]], str]:
    """Return the rulings (ambiguity -> option) that reproduce ``evidence``, and what was tried.

    Single alternative options first; pairs only when no single option is enough: a pair joins an
    option that reproduces more of the evidence than the configured rulings with any option of
    another ambiguity.
    """
    s = _Search(spec, reference, base, evidence, time.monotonic() + budget)
    base_scores = s.scores({})
    if base_scores == s.full:
        return [], ("the reference under the configured rulings does the same in this game, so "
                    "no ruling explains the failure")
    alts = alternatives(spec, base.rulings)
    found: list[dict[str, str]] = []
    better: list[tuple[str, str]] = []
    for amb, opt in alts:
        if s.late():
            return found, f"stopped after {s.replays} replays (time budget)"
        got = s.scores({amb: opt})
        if got == s.full:
            found.append({amb: opt})
        elif sum(got) > sum(base_scores):
            better.append((amb, opt))
    if found:
        return found, f"tried {len(alts)} single options"
    if not better:
        return found, (f"tried {len(alts)} single options; none reproduces more of the game than "
                       "the configured rulings, so no pair was tried")
    firsts = better
    pairs = 0
    for (a1, o1), (a2, o2) in itertools.product(firsts, alts):
        if a1 == a2 or ((a2, o2) in firsts and (a2, o2) < (a1, o1)):
            continue  # each unordered pair once, never two options of one ambiguity
        if s.late():
            return found, f"stopped after {s.replays} replays (time budget)"
        pairs += 1
        if s.scores({a1: o1, a2: o2}) == s.full:
            found.append({a1: o1, a2: o2})
    return found, f"tried {len(alts)} single options and {pairs} pairs"


def failure_evidence(failure: Failure, states: Sequence[Any], legal: Legal | None) -> Evidence:
    """Return the evidence of a failing game: its actions, the engine's states, its last answer."""
    actions = tuple(dict(a) for _, a in failure.actions)
    recorded = [s if isinstance(s, dict) else None for s in states[:len(actions) + 1]]
    recorded += [None] * (len(actions) + 1 - len(recorded))
    legals: list[Legal | None] = [None] * len(actions)
    legals.append(legal)
    return Evidence(actions, tuple(recorded), tuple(legals))


def explain_failure(spec: Spec, reference: Reference, failure: Failure, states: Sequence[Any],
                    legal: Legal | None, *, budget: float = 10.0) -> Failure:
    """Return ``failure`` with the rulings under which the reference does what the engine did."""
    if failure.check in NOT_EXPLAINED or not spec.ambiguities:
        return failure
    try:
        base = config_from_json(spec, dict(failure.config))
    except RulespecError:
        return failure
    evidence = failure_evidence(failure, states, legal)
    matches, note = explain(spec, reference, base, [evidence], budget=budget)
    return replace(failure, matches=tuple(matches), inference=note)


def describe_match(match: Mapping[str, str], configured: Mapping[str, str]) -> str:
    """Say one ruling in words: ``FOOL-AMB-03 = eight-only (configured: seven-and-eight)``."""
    parts = []
    for amb, opt in sorted(match.items()):
        was = configured.get(amb)
        parts.append(f"{amb} = {opt}" + (f" (and not {was}, as configured)" if was else ""))
    return " with ".join(parts)


# -- ruling profile ---------------------------------------------------------------------------


@dataclass
class Profile:
    """Per ambiguity, the options an engine's behaviour is consistent with."""

    game: str
    config: Mapping[str, Any]
    games: int
    steps: int
    #: The rulings that reproduce the most of the games (the configured ones, improved greedily).
    rulings: dict[str, str] = field(default_factory=dict)
    #: Ambiguity -> the options that reproduce the most of the games, given the other rulings of
    #: the profile (consistent with every game when ``unexplained`` is 0).
    consistent: dict[str, list[str]] = field(default_factory=dict)
    #: Games the reference does not reproduce even under the profile.
    unexplained: int = 0
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return the profile as JSON."""
        return {"format": "rulespec-ruling-profile/1", "game": self.game,
                "config": dict(self.config), "games": self.games, "steps": self.steps,
                "rulings": dict(self.rulings), "consistent": dict(self.consistent),
                "unexplained": self.unexplained, "note": self.note}


def play_engine(adapter: Adapter, config: Config, *, games: int, max_steps: int,
                seed: int = 0) -> list[Evidence]:
    """Play ``games`` random games on the engine alone; return what it did in each."""
    rng = random.Random(seed)
    cfg = config.to_json()
    out: list[Evidence] = []
    for _ in range(games):
        adapter.start(cfg)
        states: list[Mapping[str, Any] | None] = [adapter.state()]
        legals: list[Legal | None] = [adapter.legal()]
        actions: list[Action] = []
        for _ in range(max_steps):
            legal = legals[-1]
            if legal is None or legal.actor is None or not legal.actions:
                break
            action = rng.choice(legal.actions)
            rejection, state, after = adapter.step(action)
            if rejection is not None:
                break  # the engine refuses its own legal action: the kit's checks say more
            actions.append(action)
            states.append(state)
            legals.append(after)
        out.append(Evidence(tuple(actions), tuple(states), tuple(legals)))
    return out


def infer_profile(spec: Spec, reference: Reference, base: Config, evidence: Sequence[Evidence],
                  *, budget: float = 120.0) -> Profile:
    """Infer the ruling profile the engine's games are consistent with.

    Greedy: starting from the configured rulings, take the alternative option that makes the
    reference reproduce the most positions of the games, until every game is reproduced or no
    option helps; then, per ambiguity, test every option against that profile.
    """
    s = _Search(spec, reference, base, evidence, time.monotonic() + budget)
    profile: dict[str, str] = {}
    scores = s.scores(profile)
    while scores != s.full and not s.late():
        best: tuple[int, dict[str, str]] | None = None
        for amb, opt in alternatives(spec, {**base.rulings, **profile}):
            if s.late():
                break
            got = sum(s.scores({**profile, amb: opt}))
            if got > sum(scores) and (best is None or got > best[0]):
                best = (got, {amb: opt})
        if best is None:
            break
        profile.update(best[1])
        scores = s.scores(profile)
    chosen = {**base.rulings, **profile}
    consistent: dict[str, list[str]] = {}
    for amb, rec in spec.ambiguities.items():
        totals = {str(o["id"]): sum(scores) if o["id"] == chosen[amb]
                  else sum(s.scores({**profile, amb: str(o["id"])})) for o in rec["options"]}
        top = max(totals.values())
        consistent[amb] = [o for o, t in totals.items() if t == top]
    unexplained = sum(1 for a, b in zip(scores, s.full, strict=True) if a != b)
    note = f"{s.replays} replays" + (" (stopped by the time budget)" if s.late() else "")
    return Profile(spec.game_id, base.to_json(), len(evidence),
                   sum(len(ev.actions) for ev in evidence), chosen, consistent, unexplained, note)


def render_profile(profile: Profile, defaults: Mapping[str, str]) -> str:
    """Return the ruling profile for people."""
    out = [f"ruling profile for {profile.game} ({profile.config.get('players')} players, "
           f"{profile.games} games, {profile.steps} steps played):"]
    for amb, options in profile.consistent.items():
        default = defaults.get(amb)
        if len(options) == 1:
            opt = options[0]
            tail = " (the default)" if opt == default else f" (not the default {default})"
            out.append(f"  {amb}: {opt}{tail}")
        else:
            out.append(f"  {amb}: any of {', '.join(options)} (the games played do not tell "
                       "them apart)")
    if profile.unexplained:
        out.append(f"{profile.unexplained} of {profile.games} games are not reproduced under any "
                   "profile tried: the engine also differs in ways no ruling explains "
                   "(run the kit without --infer)")
    else:
        out.append(f"the reference under this profile reproduces all {profile.games} games")
    return "\n".join(out) + "\n"


def run_inference(adapter: Adapter, spec: Spec, reference: Reference, *,
                  players: Sequence[int], rulings: Mapping[str, str] | None = None,
                  variants: Sequence[str] = (), games: int = 10, max_steps: int = 500,
                  seed: int = 0, budget: float = 60.0) -> list[Profile]:
    """Play the engine under each player count and infer its ruling profile for each."""
    out = []
    for n in players:
        base = make_config(spec, players=n, rulings=rulings, variants=variants)
        evidence = play_engine(adapter, base, games=games, max_steps=max_steps, seed=seed)
        out.append(infer_profile(spec, reference, base, evidence, budget=budget))
    return out
