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

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import Hello, Legal, legal_of
from rulespec.conformance.judging.checks import Failure
from rulespec.reference.core import Action, Config, Engine, config_from_json, make_config
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: Builds a reference engine for a configuration.
Reference = Callable[[Spec, Config], Engine]
#: Checks whose failure is not a behaviour another ruling could produce.
NOT_EXPLAINED = frozenset({"PROTOCOL", "DETERMINISM", "STATE-SCHEMA"})


@dataclass(frozen=True)
class Evidence:
    """What an engine did in one game: the actions, then per position its state and legal answer.

    Position 0 is before the first action; ``None`` marks what was not recorded there.
    """

    actions: tuple[Action, ...]
    states: tuple[Mapping[str, Any] | None, ...]
    legals: tuple[Legal | None, ...]
    #: Indices of the actions the engine refused (a rule example's illegal moves, or a legal
    #: move it refused): the reference must refuse them too, and they change nothing.
    refused: frozenset[int] = frozenset()

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
            if i and _applied(engine, evidence.actions[i - 1]) == (i - 1 in evidence.refused):
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
    #: Games the engine played that passed every check (their actions): the engine follows the
    #: configured rulings there, so a ruling under which the reference plays them otherwise does
    #: not describe the engine.
    passed: Sequence[Sequence[Action]] = ()
    #: Other checks that a ruling must pass to describe the engine (a rule example's passing
    #: examples, run under it): True when it passes.
    also: Callable[[Mapping[str, str]], bool] | None = None

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

    def describes(self, override: Mapping[str, str]) -> bool:
        """Return True when ``override`` also plays, on the reference, the games the engine
        passed exactly as the configured rulings do (and passes ``also``); False when it
        departs from them, or when there is no time left to tell."""
        try:
            alt = with_rulings(self.spec, self.base, override)
        except RulespecError:
            return False
        for actions in self.passed:
            if self.late() or _departs(self.spec, self.reference, self.base, alt, actions,
                                       self.deadline):
                return False
        return self.also is None or (not self.late() and self.also(override))


def _departs(spec: Spec, reference: Reference, base: Config, alt: Config,
             actions: Sequence[Action], deadline: float) -> bool:
    """Return True when the reference under ``alt`` plays ``actions`` otherwise than under
    ``base`` (another state, player to move, legal action or chance outcome), or when the
    deadline passes first."""
    one, two = reference(spec, base), reference(spec, alt)
    for n, action in enumerate(actions):
        if n % 64 == 0 and time.monotonic() > deadline:
            return True
        if one.state() != two.state() or legal_of(one) != legal_of(two):
            return True
        one.apply(action)
        if not _applied(two, action):
            return True
    return one.state() != two.state()


def explain(spec: Spec, reference: Reference, base: Config, evidence: Sequence[Evidence], *,
            budget: float = 10.0, passed: Sequence[Sequence[Action]] = (),
            also: Callable[[Mapping[str, str]], bool] | None = None,
            known: Sequence[Mapping[str, str]] = ()) -> tuple[list[dict[str, str]], str]:
    """Return the rulings (ambiguity -> option) that reproduce ``evidence``, and what was tried.

    Single alternative options first; pairs only when no single option is enough: a pair joins an
    option that reproduces more of the evidence than the configured rulings with any option of
    another ambiguity. A ruling is named only if it also describes what the engine did right:
    the games it ``passed`` play the same under it, and ``also`` (more evidence) accepts it; a
    plain bug that one game happens to share with a ruling is then not blamed on the ruling.
    The rulings ``known`` to explain earlier failures of the run are tried first: one that
    explains this failure too is named without a search.
    """
    s = _Search(spec, reference, base, evidence, time.monotonic() + budget, passed=passed,
                also=also)
    base_scores = s.scores({})
    if base_scores == s.full:
        return [], ("the reference under the configured rulings does the same in this game, so "
                    "no ruling explains the failure")
    for match in known:
        if (all(base.rulings.get(a) != o for a, o in match.items())
                and s.scores(match) == s.full and s.describes(match)):
            return [dict(match)], "the ruling that explains the run's earlier failures"
    found, note = _candidates(s, base_scores)
    s.deadline = time.monotonic() + budget  # telling them apart gets time of its own
    named = [m for m in found if s.describes(m)]
    if len(named) < len(found):
        note += (f"; {len(found) - len(named)} reproducing this game left unnamed: the engine "
                 "passed games (or rule examples) they play otherwise")
    return named, note


def _candidates(s: _Search, base_scores: tuple[int, ...]) -> tuple[list[dict[str, str]], str]:
    """Return the single options (then pairs) that reproduce the evidence, and what was tried."""
    spec, base = s.spec, s.base
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
                    legal: Legal | None, *, budget: float = 10.0,
                    passed: Sequence[Sequence[Action]] = (),
                    refused: frozenset[int] = frozenset(),
                    also: Callable[[Mapping[str, str]], bool] | None = None,
                    known: Sequence[Mapping[str, str]] = ()) -> Failure:
    """Return ``failure`` with the rulings under which the reference does what the engine did
    (and does what it did right: the games it ``passed``, and ``also``)."""
    if failure.check in NOT_EXPLAINED or not spec.ambiguities:
        return failure
    if failure.cause and failure.cause.startswith("refused the configuration"):
        return failure
    try:
        base = config_from_json(spec, dict(failure.config))
    except RulespecError:
        return failure
    evidence = replace(failure_evidence(failure, states, legal), refused=refused)
    matches, note = explain(spec, reference, base, [evidence], budget=budget, passed=passed,
                            also=also, known=known)
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
                  seed: int = 0, budget: float = 60.0,
                  skipped: list[str] | None = None) -> list[Profile]:
    """Play the engine under each player count and infer its ruling profile for each.

    Only what the engine's hello declares is played: a player count it does not declare is
    left out (and said in ``skipped``), and a record whose default option it does not declare
    is started under the first option it does.
    """
    hello = adapter.hello()
    out = []
    for n in players:
        base, why = declared_base(spec, hello, n, dict(rulings or {}), variants)
        if base is None:
            if skipped is not None:
                skipped.append(f"{n} players not played: {why}")
            continue
        evidence = play_engine(adapter, base, games=games, max_steps=max_steps, seed=seed)
        out.append(infer_profile(spec, reference, base, evidence, budget=budget))
    return out


def declared_base(spec: Spec, hello: Hello, players: int, rulings: Mapping[str, str],
                  variants: Sequence[str]) -> tuple[Config | None, str]:
    """Return the configuration to start inference games with, inside what ``hello``
    declares (the asked ``rulings``, a declared option where a default is not declared), or
    None and why it cannot be."""
    declared = (hello.games.get(spec.game_id) or {}).get("rulings") or {}
    chosen = dict(rulings)
    for amb, default in spec.default_rulings().items():
        options = declared.get(amb)
        if amb not in chosen and options and default not in options:
            chosen[amb] = options[0]
    base = make_config(spec, players=players, rulings=chosen, variants=variants)
    problems = hello.supports(spec.game_id, base.rulings, base.variants, players=players,
                              parameters=base.overrides)
    return (None, "; ".join(problems)) if problems else (base, "")
