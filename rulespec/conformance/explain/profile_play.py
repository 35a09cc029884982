"""The fallback of ``conform --infer``: what the witnesses leave open, inferred from play.

A few random games are played on the engine alone at each player count and replayed on the
reference (as ``rulespec.conformance.explain.inference`` does) under the readings the witnesses showed.
Only the records the witnesses left open are varied. A reading is named only when the
reference under it reproduces every game and no other option of the record does as well. A
game that no reading reproduces is traced to the record to blame, if one is
(``rulespec.conformance.explain.profile_blame``): that catches a bug that coincides with another
option in the one position a witness shows.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import EngineError, Legal
from rulespec.conformance.explain.inference import Evidence, Reference, with_rulings
from rulespec.conformance.explain.profile_blame import Observe, Parting, agreement, blame
from rulespec.reference.core import Action, Config, ConfigError, make_config
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec


@dataclass(frozen=True)
class PlayVerdict:
    """What the games played at one player count say about the records in question."""

    players: int
    games: int
    steps: int
    #: Record -> the options under which the reference reproduces the most of the games.
    consistent: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Games the reference reproduces under no reading tried.
    unexplained: int = 0
    note: str = ""
    #: Where each of those games parts from the reference, and the record to blame.
    partings: tuple[Parting, ...] = ()

    def named(self, record: str) -> str | None:
        """Return the one option the games show for ``record`` (None: they do not tell)."""
        options = self.consistent.get(record, ())
        return options[0] if len(options) == 1 and not self.unexplained else None

    def blamed(self) -> dict[str, Parting]:
        """Return record -> the first game that parts from every reading of it, and of no other
        record (the engine follows no option of it there)."""
        out: dict[str, Parting] = {}
        for p in self.partings:
            if len(p.records) == 1:
                out.setdefault(p.records[0], p)
        return out

    def to_json(self) -> dict[str, Any]:
        """Return the verdict as JSON."""
        return {"players": self.players, "games": self.games, "steps": self.steps,
                "consistent": {r: list(o) for r, o in self.consistent.items()},
                "unexplained": self.unexplained, "note": self.note,
                "partings": [{"game": p.game + 1, "action": p.position, "fields": list(p.fields),
                              "records": list(p.records),
                              "shows": {r: list(o) for r, o in p.shows.items()}}
                             for p in self.partings]}


@dataclass
class _Replays:
    spec: Spec
    reference: Reference
    base: Config
    evidence: Sequence[Evidence]
    deadline: float
    observe: Observe
    replays: int = 0

    def scores(self, override: Mapping[str, str]) -> tuple[int, ...]:
        try:
            config = with_rulings(self.spec, self.base, override)
        except RulespecError:
            return tuple(0 for _ in self.evidence)
        self.replays += 1
        return tuple(agreement(self.spec, self.reference, config, ev, self.observe)
                     for ev in self.evidence)

    @property
    def full(self) -> tuple[int, ...]:
        return tuple(ev.length for ev in self.evidence)

    def late(self) -> bool:
        return time.monotonic() > self.deadline


def infer_by_play(adapter: Adapter, spec: Spec, reference: Reference, *, players: int,
                  configured: Mapping[str, str], shown: Mapping[str, str],
                  records: Sequence[str], observe: Observe = lambda s: s,
                  variants: Sequence[str] = (), games: int = 3, max_steps: int = 400,
                  seed: int = 0, deadline: float = float("inf"),
                  options: Mapping[str, Sequence[str]] | None = None) -> PlayVerdict:
    """Play ``games`` games on the engine at ``players`` and infer the options of ``records``.

    The engine is configured with ``configured``; the reference replays the games under
    ``configured`` overlaid with ``shown`` (what the witnesses showed) and each option of each
    record in question. Greedy: the option that reproduces the most positions is taken, until
    every game is reproduced or no option helps; then each record's options are scored again,
    and each game still not reproduced is traced to the record to blame.

    ``options`` (record -> its options) keeps the readings tried to those of the release the
    engine is checked as (``VersionView.options``); a record it leaves out is not varied.
    """
    def choices(record: str) -> list[str]:
        return _options(spec, record) if options is None else list(options.get(record, ()))

    try:
        config = make_config(spec, players=players, rulings=configured, variants=variants)
        evidence = play_games(adapter, config, games=games, max_steps=max_steps, seed=seed,
                              deadline=deadline)
    except (ConfigError, EngineError) as exc:
        return PlayVerdict(players, 0, 0, note=f"not played: {exc}")
    steps = sum(len(ev.actions) for ev in evidence)
    s = _Replays(spec, reference, config, evidence, deadline, observe)
    chosen = dict(shown)
    scores = s.scores(chosen)
    while scores != s.full and not s.late():
        best: tuple[int, str, str] | None = None
        for record in records:
            for option in choices(record):
                if option == chosen.get(record, configured.get(record)):
                    continue
                got = sum(s.scores({**chosen, record: option}))
                if got > sum(scores) and (best is None or got > best[0]):
                    best = (got, record, option)
        if best is None:
            break
        chosen[best[1]] = best[2]
        scores = s.scores(chosen)
    consistent: dict[str, tuple[str, ...]] = {}
    for record in records:
        mine = chosen.get(record, configured.get(record))
        totals = {o: sum(scores) if o == mine else sum(s.scores({**chosen, record: o}))
                  for o in choices(record)}
        if not totals:
            continue
        top = max(totals.values())
        consistent[record] = tuple(o for o, t in totals.items() if t == top)
    unexplained = sum(1 for a, b in zip(scores, s.full, strict=True) if a != b)
    note = f"{s.replays} replays" + (", stopped by the time budget" if s.late() else "")
    partings = blame(spec, reference, with_rulings(spec, config, chosen), evidence, scores,
                     observe, options=options) if unexplained else []
    return PlayVerdict(players, len(evidence), steps, consistent, unexplained, note,
                       tuple(partings))


def play_games(adapter: Adapter, config: Config, *, games: int, max_steps: int, seed: int = 0,
               deadline: float = float("inf")) -> list[Evidence]:
    """Play random games on the engine alone; return what it did in each.

    As ``inference.play_engine``, but the time budget ends the play (at least one action of
    one game is played): the fallback must not hold up the profile.
    """
    rng = random.Random(seed)
    cfg = config.to_json()
    out: list[Evidence] = []
    for _ in range(games):
        if out and time.monotonic() > deadline:
            break
        adapter.start(cfg)
        states: list[Mapping[str, Any] | None] = [adapter.state()]
        legals: list[Legal | None] = [adapter.legal()]
        actions: list[Action] = []
        for _ in range(max_steps):
            legal = legals[-1]
            if legal is None or legal.actor is None or not legal.actions or (
                    actions and time.monotonic() > deadline):
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


def _options(spec: Spec, record: str) -> list[str]:
    return [str(o["id"]) for o in spec.ambiguities[record]["options"]]
