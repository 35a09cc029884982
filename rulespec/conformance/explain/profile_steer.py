"""Steered games for ``conform --infer``: where neither witness nor random play tells a record's
options apart at a player count, search for a game that does, then play it on the engine.

The search runs on the reference alone, under every option still in question at once (the
other records as the engine was shown to play them): the games are played in lockstep, and a
game is *telling* as soon as, after one action, two options leave another state (as the
engine's conformance level compares it), another player to move or other legal actions. Each
choice is steered toward the record's decision point (``Engine.decisions``) and the actions
that read the record (its ``readings`` in the spec): whenever such an action is legal, and at
some other choices, the legal actions and chance outcomes are looked ahead at, and one after
which the options part is taken at once, else one that reaches the decision point; otherwise
an action reading the record is preferred, else a random one. Later games restart, part of the
time, from positions kept near the decision point. Chance is steered too: the kit sends the
outcomes, so the game found is played on the engine exactly.

The telling game is then played on the engine and replayed on the reference under each option:
the options under which the reference reproduces it stay in question. The search goes on, game
after game, until one option is left or its budget (reference actions, and a wall-clock
deadline) ends, and says which. The games depend only on the seed, the record and the player
count, so a run with the same ``--seed`` plays the same games.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import EngineError, Legal, legal_of
from rulespec.conformance.explain.inference import Evidence, Reference, with_rulings
from rulespec.conformance.explain.profile_blame import Observe
from rulespec.reference.core import CHANCE, Action, Config, ConfigError, Engine
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: Actions of the reference the search may play per record and player count (the budget that
#: makes it reproducible; the deadline only stops it sooner on a slow machine).
STEER_STEPS = 100000
#: Legal actions (or chance outcomes) looked ahead at each choice, and the share of choices
#: that look ahead at all (the others are random, so the games spread).
LOOK_AHEAD = 6
LOOK_SHARE = 0.3


@dataclass(frozen=True)
class Steered:
    """What the steered games said about one record at one player count."""

    record: str
    players: int
    #: The options still in question after the games (one: the engine follows it).
    options: tuple[str, ...]
    #: Telling games found on the reference, and played on the engine.
    games: int
    #: Reference actions the search played.
    steps: int
    #: Why the search stopped: ``told`` (one option left), ``budget`` (its actions),
    #: ``time`` (the deadline), or ``none`` (no option is reproduced by a telling game).
    stopped: str
    seconds: float
    #: Times the search reached the record's decision point (0: never, so the budget went on
    #: games that could not tell).
    reached: int = 0
    #: The variants the games were played with (the record's own, where it is about one).
    variants: tuple[str, ...] = ()

    @property
    def option(self) -> str | None:
        """Return the option the games show (None: they do not tell)."""
        return self.options[0] if len(self.options) == 1 and self.stopped == "told" else None

    def text(self) -> str:
        """Say what the steered games showed, and why they stopped."""
        games = f"{self.games} steered game{'s' if self.games != 1 else ''}"
        if self.variants:
            games += f" (variant {', '.join(self.variants)})"
        if self.option is not None:
            return f"{games} show{'s' if self.games == 1 else ''} {self.option}"
        never = "" if self.reached else ", never reaching the record's decision point"
        why = {"budget": f"the search's budget ({self.steps} reference actions) ran out{never}",
               "time": "the time budget ran out",
               "none": "no reading reproduces the engine where they part"}.get(self.stopped,
                                                                               self.stopped)
        left = ", ".join(self.options)
        return f"{games} do not tell {left} apart: {why}"

    def to_json(self) -> dict[str, Any]:
        """Return the search as JSON."""
        return {"record": self.record, "players": self.players, "options": list(self.options),
                "games": self.games, "steps": self.steps, "stopped": self.stopped,
                "reached": self.reached, "variants": list(self.variants),
                "seconds": round(self.seconds, 3)}


def reading_kinds(spec: Spec, record: str) -> frozenset[str]:
    """Return the action kinds whose rules read ``record`` (the spec's ``readings``): the
    search prefers them, as the way toward the record's decision point."""
    return frozenset(str(a["id"]) for a in spec.section("actions")
                     if record in (a.get("readings") or ()))


def seed_for(seed: int, record: str, players: int) -> int:
    """Return the search's seed for one record and player count (stable across runs)."""
    return zlib.crc32(f"{seed}:{record}:{players}".encode()) & 0xFFFFFFFF


@dataclass
class Progress:
    """Where one search stands, so that a later call goes on with it (its random stream, its
    positions near the decision point, what it spent) rather than starting again."""

    rng: random.Random
    archive: _Archive
    left: list[str]
    used: int = 0
    games: int = 0
    seconds: float = 0.0


def steer(adapter: Adapter, spec: Spec, reference: Reference, *, record: str, players: int,
          options: Sequence[str], configured: Mapping[str, str], believed: Mapping[str, str],
          variants: Sequence[str] = (), observe: Observe = lambda s: s, seed: int = 0,
          max_steps: int = 400, steps: int = STEER_STEPS, deadline: float = float("inf"),
          progress: Progress | None = None) -> Steered:
    """Tell ``options`` of ``record`` apart at ``players`` with steered games (module doc),
    until ``steps`` reference actions were played in all; with ``progress`` (from
    ``start``), a call goes on where the last one stopped."""
    started = time.monotonic()
    if progress is None:
        progress = start(spec, record, players, options, seed)
    left = progress.left
    try:
        sent = with_rulings(spec, _config(spec, players, configured, variants), {})
        base = with_rulings(spec, sent, dict(believed))
    except (ConfigError, RulespecError) as exc:
        return Steered(record, players, tuple(left), 0, 0, f"not played: {exc}", 0.0,
                       variants=tuple(variants))
    rng, archive = progress.rng, progress.archive
    stopped = "budget"
    while len(left) > 1:
        if time.monotonic() > deadline:
            stopped = "time"
            break
        if progress.used >= steps:
            break
        if not archive.reached and progress.used >= steps * GIVE_UP:
            break  # the decision point is not within reach of these games: say so
        game, spent = _search(spec, reference, base, record, left, observe, rng, archive,
                              max_steps=max_steps, budget=steps - progress.used,
                              deadline=deadline)
        progress.used += spent
        if game is None:
            continue
        evidence = _play(adapter, sent, game)
        if evidence is None:
            continue
        progress.games += 1
        keep = [o for o in left if _reproduces(spec, reference, with_rulings(
            spec, base, {record: o}), evidence, observe)]
        if not keep:
            stopped = "none"
            break
        left[:] = keep
    if len(left) == 1:
        stopped = "told"
    progress.seconds += time.monotonic() - started
    return Steered(record, players, tuple(left), progress.games, progress.used, stopped,
                   progress.seconds, archive.reached, tuple(variants))


def start(spec: Spec, record: str, players: int, options: Sequence[str],
          seed: int = 0) -> Progress:
    """Return a search not begun: its seed depends only on ``seed``, the record and the count."""
    return Progress(random.Random(seed_for(seed, record, players)),
                    _Archive([], reading_kinds(spec, record)), list(options))


def _config(spec: Spec, players: int, rulings: Mapping[str, str],
            variants: Sequence[str]) -> Config:
    from rulespec.reference.core import make_config

    return make_config(spec, players=players, rulings=dict(rulings), variants=variants)


def _snapshot(engine: Engine, observe: Observe) -> tuple[Any, Legal]:
    return observe(engine.state()), legal_of(engine)


def _parted(engines: Sequence[Engine], observe: Observe) -> bool:
    first = _snapshot(engines[0], observe)
    return any(_snapshot(e, observe) != first for e in engines[1:])


def _choices(engine: Engine) -> list[Action]:
    if engine.current_player() == CHANCE:
        return [a for a, _ in engine.chance_outcomes()]
    return list(engine.legal_actions())


@dataclass
class _Archive:
    """Positions of the search where the record's decision point was reached without the
    options parting yet: later games start from one of them (their actions, and the engines
    under each option there), so the search stays near the decision point."""

    entries: list[tuple[list[Action], list[Engine]]]
    #: The action kinds whose rules read the record (its ``readings`` in the spec).
    kinds: frozenset[str] = frozenset()
    #: Times the decision point (or an action of a kind that reads the record) was reached.
    reached: int = 0

    def keep(self, actions: list[Action], engines: Sequence[Engine], rng: random.Random) -> None:
        self.reached += 1
        entry = (list(actions), [e.clone() for e in engines])
        if len(self.entries) < ARCHIVE:
            self.entries.append(entry)
        else:
            self.entries[rng.randrange(ARCHIVE)] = entry


#: Actions between two checks of whether the options parted where no engine consulted the
#: record (a reading may be read without being counted).
CHECK_EVERY = 16
#: The share of choices that take an action of a kind reading the record, when there is one.
PREFER_READING = 0.3
#: The share of the budget after which a search that never reached the decision point stops.
GIVE_UP = 0.25
#: Positions kept near the decision point, and the share of games that start from one.
ARCHIVE = 64
RESTART_SHARE = 0.3


def _search(spec: Spec, reference: Reference, base: Config, record: str,
            options: Sequence[str], observe: Observe, rng: random.Random, archive: _Archive, *,
            max_steps: int, budget: int, deadline: float) -> tuple[list[Action] | None, int]:
    """Play one game on the reference under every option at once; return it when it tells
    them apart (None otherwise), and the actions played. The game starts from a position of
    the ``archive`` (most of the time, once it has some) or from the start, and plays at most
    ``max_steps`` actions, or ``budget`` reference actions counting those looked ahead."""
    actions: list[Action] = []
    if archive.entries and rng.random() < RESTART_SHARE:
        prefix, kept = archive.entries[rng.randrange(len(archive.entries))]
        actions = list(prefix)
        engines = [e.clone() for e in kept]
    else:
        try:
            engines = [reference(spec, with_rulings(spec, base, {record: o})) for o in options]
        except RulespecError:
            return None, budget
    spent = 0
    start = len(actions)
    while (len(actions) - start < max_steps and spent < budget
           and engines[0].current_player() is not None):
        if spent % 32 == 0 and time.monotonic() > deadline:
            break
        legal = _choices(engines[0])
        if not legal:
            break
        action = None
        reading = [a for a in legal if a.get("kind") in archive.kinds]
        if len(legal) > 1 and (reading or rng.random() < LOOK_SHARE):
            sample = rng.sample(legal, min(len(legal), LOOK_AHEAD))
            sample += [a for a in reading if a not in sample][:LOOK_AHEAD]
            action = _look(engines, record, sample, observe, archive.kinds)
            spent += len(engines) * len(sample)
        if action is None and reading and rng.random() < PREFER_READING:
            action = reading[rng.randrange(len(reading))]
        if action is None:
            action = legal[rng.randrange(len(legal))]
        before = _counts(engines, record)
        try:
            for engine in engines:
                engine.apply(action)
        except RulespecError:
            actions.append(action)
            return actions, spent  # one reading refuses what another allows: that tells
        spent += len(engines)
        actions.append(action)
        consulted = _counts(engines, record) != before
        near = consulted or action.get("kind") in archive.kinds
        if (near or len(actions) % CHECK_EVERY == 0) and _parted(engines, observe):
            return actions, spent
        if near:
            archive.keep(actions, engines, rng)
    return None, spent


def _look(engines: Sequence[Engine], record: str, candidates: Sequence[Action],
          observe: Observe, kinds: frozenset[str]) -> Action | None:
    """Return the candidate after which the options part, else one that reaches the record's
    decision point, else None."""
    reaching = None
    before = _counts(engines, record)
    for action in candidates:
        clones = [e.clone() for e in engines]
        try:
            for clone in clones:
                clone.apply(action)
        except RulespecError:
            return action
        consulted = _counts(clones, record) != before
        if (consulted or action.get("kind") in kinds) and _parted(clones, observe):
            return action
        if reaching is None and consulted:
            reaching = action
    return reaching


def _counts(engines: Sequence[Engine], record: str) -> list[int]:
    """Return how often each engine consulted ``record`` (``Engine.decisions``): readings can
    part only where one does (or where an engine reads it without counting, which the
    periodic check and the replay on the engine's side catch)."""
    return [e.decisions[record] for e in engines]


def _play(adapter: Adapter, config: Config, actions: Sequence[Action]) -> Evidence | None:
    """Play ``actions`` on the engine; return what it did (None: it could not be started)."""
    try:
        adapter.start(config.to_json())
        states: list[Mapping[str, Any] | None] = [adapter.state()]
        legals: list[Legal | None] = [adapter.legal()]
        done: list[Action] = []
        for action in actions:
            rejection, state, after = adapter.step(action)
            if rejection is not None:
                return Evidence(tuple([*done, action]), tuple([*states, None]),
                                tuple([*legals, None]), refused=frozenset({len(done)}))
            done.append(action)
            states.append(state)
            legals.append(after)
    except (ConfigError, EngineError):
        return None
    return Evidence(tuple(done), tuple(states), tuple(legals))


def _reproduces(spec: Spec, reference: Reference, config: Config, evidence: Evidence,
                observe: Observe) -> bool:
    """Return True when the reference under ``config`` does all the engine did: the same
    states (as compared at its level) and legal answers, refusing what it refused."""
    try:
        engine = reference(spec, config)
        for i in range(evidence.length):
            if i:
                action = evidence.actions[i - 1]
                try:
                    engine.apply(action)
                    applied = True
                except RulespecError:
                    applied = False
                if applied == (i - 1 in evidence.refused):
                    return False
            state = evidence.states[i]
            if state is not None and observe(state) != observe(engine.state()):
                return False
            legal = evidence.legals[i]
            if legal is not None and legal != legal_of(engine):
                return False
    except RulespecError:
        return False
    return True
