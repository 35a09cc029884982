"""Dado de Ouro: the reference interpreter.

Source: the Portuguese rulebook transcription ``004_967b0044772e61e3.txt`` (sections "Regras",
"Sistema de pontuação", "Empate no final das dez rodadas"), encoded in
``specs/dado-de-ouro.yaml``; clause ids (``DDO-...``) below refer to that spec.

A match is a sequence of games; a game is an opening roll (who starts), a fixed number of
rounds, and possibly an end-of-game tie-break. Every action is a chance roll of the one die by
the player whose turn it is. Rolls are organised in *passes*: one roll by each player taking
part, in clockwise order. When a pass ends it is resolved (opening winner, round scoring,
tie-break winner or loser, draw winner, tie-break totals), which starts the next pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from rulespec.reference import (
    CHANCE,
    Action,
    Actor,
    Config,
    ConfigError,
    Engine,
    Rejection,
    config_tables,
    equal_weights,
    inlines_apply,
    is_among,
    lead_over_others,
    ranking,
)
from rulespec.spec import Spec

# -- constants (names, not rulebook numbers) ------------------------------------------------------

OPENING = "opening"
ROUND = "round"
MAX_TIEBREAK = "max_tiebreak"
MIN_TIEBREAK = "min_tiebreak"
FINAL_DRAW = "final_draw"
FINAL_ROLLS = "final_rolls"
OVER = "over"

MAX = "max"
MIN = "min"

AMB_DIE = "DDO-AMB-01"
AMB_ALL_EQUAL = "DDO-AMB-02"
AMB_TIE_ORDER = "DDO-AMB-03"
AMB_ROUND_STARTER = "DDO-AMB-04"
AMB_GAME_STARTER = "DDO-AMB-05"
AMB_DRAW_TIE = "DDO-AMB-06"
AMB_FINAL_COMPARE = "DDO-AMB-07"
AMB_REROLL_WHO = "DDO-AMB-08"
AMB_FINAL_REPEAT = "DDO-AMB-10"
AMB_FLOOR = "DDO-AMB-09"
AMB_FIRST_ROLLER = "DDO-AMB-11"
AMB_TIE_VALUE = "DDO-AMB-12"
AMB_TIE_START = "DDO-AMB-13"
AMB_DRAW_WHO = "DDO-AMB-14"
AMB_RANKING = "DDO-AMB-15"
AMB_RESET = "DDO-AMB-16"

#: The clause a roll out of turn breaks, by phase.
TURN_CLAUSE = {
    OPENING: "DDO-SETUP-01",
    ROUND: "DDO-ROUND-01",
    MAX_TIEBREAK: "DDO-TIE-01",
    MIN_TIEBREAK: "DDO-TIE-04",
    FINAL_DRAW: "DDO-END-03",
    FINAL_ROLLS: "DDO-END-01",
}

PHASE_TEXT = {
    OPENING: "opening roll",
    ROUND: "round",
    MAX_TIEBREAK: "tie-break for the highest",
    MIN_TIEBREAK: "tie-break for the lowest",
    FINAL_DRAW: "draw for the first tie-break roller",
    FINAL_ROLLS: "end-of-game tie-break",
}

Pass = tuple[int | None, ...]


# -- value types ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rules:
    """The configuration resolved once into plain values the hot path can read cheaply."""

    rounds_per_game: int
    games_to_win: int
    tiebreak_rolls: int
    starting_score: int
    score_floor: int | None
    faces: tuple[int, ...]

    @classmethod
    def from_config(cls, config: Config) -> Rules:
        """Read every parameter and ruling the engine needs from ``config``."""
        faces = tuple(int(f) for f in config.param("die_faces"))
        floor = config.param("score_floor")
        return cls(
            rounds_per_game=int(config.param("rounds_per_game")),
            games_to_win=int(config.param("games_to_win")),
            tiebreak_rolls=int(config.param("tiebreak_rolls")),
            starting_score=int(config.param("starting_score")),
            score_floor=None if floor is None else int(floor),
            faces=faces,
        )


@dataclass(frozen=True)
class ScoredRound:
    """The record of one scored round, kept so the scoring can be checked from the state."""

    game: int
    round: int
    tiebreak: bool
    starter: int
    faces: Pass
    before: tuple[int | None, ...]
    after: tuple[int | None, ...]
    gainer: int | None
    gain: int | None
    loser: int | None
    loss: int | None
    max_passes: tuple[Pass, ...]
    min_passes: tuple[Pass, ...]

    def to_json(self) -> dict[str, Any]:
        """Return the canonical JSON form (``last_round`` of the state)."""
        return {
            "game": self.game,
            "round": self.round,
            "tiebreak": self.tiebreak,
            "starter": self.starter,
            "players": [{"seat": i, "face": f, "before": b, "after": a}
                        for i, (f, b, a) in enumerate(zip(self.faces, self.before, self.after,
                                                          strict=True))],
            "gainer": self.gainer,
            "gain": self.gain,
            "loser": self.loser,
            "loss": self.loss,
            "max_passes": [list(p) for p in self.max_passes],
            "min_passes": [list(p) for p in self.min_passes],
        }


@dataclass(frozen=True)
class FinishedGame:
    """One finished game of the match."""

    scores: tuple[int, ...]
    winner: int
    rounds: int
    starter: int
    leaders: tuple[int, ...] | None
    repetitions: int
    totals: tuple[int | None, ...] | None

    def to_json(self) -> dict[str, Any]:
        """Return the canonical JSON form (an entry of ``history``)."""
        tiebreak = None
        if self.leaders is not None and self.totals is not None:
            tiebreak = {"leaders": list(self.leaders), "repetitions": self.repetitions,
                        "totals": list(self.totals)}
        return {"scores": list(self.scores), "winner": self.winner, "rounds": self.rounds,
                "starter": self.starter, "tiebreak": tiebreak}


@dataclass(frozen=True)
class _Tables:
    """What a configuration precomputes, shared by its games (read-only)."""

    rules: Rules
    #: The roll actions and chance outcomes of each roller, one per face in die_faces order.
    actions: list[list[Action]]
    outcomes: list[list[tuple[Action, Fraction]]]
    #: The roller of each precomputed roll action, by the action's id.
    roller_of: dict[int, int]
    #: What ``chance_weights`` hands out for each roller: its rolls and the fair die's weights.
    weighted: list[tuple[list[Action], tuple[int, ...]]]
    #: Every seat in clockwise order from each seat.
    seats_from: list[tuple[int, ...]]

    @classmethod
    def build(cls, config: Config) -> _Tables:
        """Read the configuration; ConfigError when its die cannot decide a round."""
        rules = Rules.from_config(config)
        if len(set(rules.faces)) < 2:
            raise ConfigError(f"die_faces {list(rules.faces)!r} needs at least two different faces")
        n = config.players
        probability = Fraction(1, len(rules.faces))
        actions: list[list[Action]] = [
            [{"kind": "roll", "player": p, "face": f} for f in rules.faces] for p in range(n)]
        return cls(
            rules=rules,
            actions=actions,
            outcomes=[[(a, probability) for a in row] for row in actions],
            roller_of={id(a): p for p, row in enumerate(actions) for a in row},
            weighted=[(row, equal_weights(len(rules.faces))) for row in actions],
            seats_from=[tuple((first + k) % n for k in range(n)) for first in range(n)])


class Tie:
    """A tie-break being played inside a round (mutable; ``clone`` copies it)."""

    __slots__ = ("kind", "passes", "players", "value")

    def __init__(self, kind: str, value: int, players: list[int]) -> None:
        self.kind = kind
        self.value = value
        self.players = players
        self.passes: list[Pass] = []

    def copy(self) -> Tie:
        """Return an independent copy: the re-roll passes copied (only they grow in place);
        the tied players shared (never changed in place: a pass order may be the same list)."""
        other = Tie.__new__(Tie)
        other.kind = self.kind
        other.value = self.value
        other.players = self.players
        other.passes = self.passes[:]
        return other


class Final:
    """The end-of-game tie-break in progress (mutable; ``clone`` copies it)."""

    __slots__ = ("draw", "draw_all", "leaders", "passes_done", "players", "repetition", "rounds",
                 "rounds_done", "starter", "totals")

    def __init__(self, leaders: list[int], players_count: int, *, rounds: bool) -> None:
        self.leaders = leaders
        self.rounds = rounds
        self.players = list(leaders)
        self.draw: list[Pass] = []
        #: Whether every player rolls in the current draw, not only the tied (DDO-AMB-14).
        self.draw_all = False
        self.starter: int | None = None
        self.repetition = 1
        self.passes_done = 0
        self.rounds_done = 0
        self.totals: list[int | None] = [None] * players_count

    def copy(self) -> Final:
        """Return an independent copy: the draw and the totals copied (they change in place),
        the leaders and players shared (only ever replaced), the rest numbers."""
        other = Final.__new__(Final)
        other.draw = self.draw[:]
        other.draw_all = self.draw_all
        other.leaders = self.leaders
        other.passes_done = self.passes_done
        other.players = self.players
        other.repetition = self.repetition
        other.rounds = self.rounds
        other.rounds_done = self.rounds_done
        other.starter = self.starter
        other.totals = self.totals[:]
        return other


def _event_text(template: str | None, args: tuple[Any, ...]) -> str:
    """Put one narration event in words (player lists are kept as tuples, shown as lists)."""
    if template is None:
        number, tiebreak, gainer, gain, loser, loss = args
        parts = []
        if gainer is not None:
            parts.append(f"player {gainer} +{gain}")
        if loser is not None:
            parts.append(f"player {loser} -{loss}")
        what = "tie-break round" if tiebreak else "round"
        return f"{what} {number} scored: {', '.join(parts) or 'nobody scores'}"
    return template.format(*(list(a) if type(a) is tuple else a for a in args))


# -- the engine ------------------------------------------------------------------------------------


class DadoDeOuro(Engine):
    """The Dado de Ouro match: opening rolls, rounds with both tie-breaks, games, match."""

    RULINGS: ClassVar[dict[str, frozenset[str]]] = {
        AMB_ALL_EQUAL: frozenset({"both-tiebreaks", "max-only", "void-round", "both-distinct"}),
        AMB_TIE_ORDER: frozenset({"max-first", "min-first"}),
        AMB_ROUND_STARTER: frozenset({"game-starter", "rotate-clockwise", "previous-round-winner"}),
        AMB_GAME_STARTER: frozenset({"new-opening-roll", "first-starter", "rotate-clockwise",
                                     "previous-game-winner"}),
        AMB_DRAW_TIE: frozenset({"reroll-tied", "reroll-all", "first-clockwise"}),
        AMB_FINAL_COMPARE: frozenset({"sum-of-rolls", "round-scoring"}),
        AMB_REROLL_WHO: frozenset({"still-tied-only", "all-tied-again"}),
        AMB_FINAL_REPEAT: frozenset({"same-starter", "new-draw"}),
        AMB_FIRST_ROLLER: frozenset({"seat-zero", "last-starter"}),
        AMB_TIE_VALUE: frozenset({"original-value", "reroll-value"}),
        AMB_TIE_START: frozenset({"first-tied-clockwise", "nearest-tied"}),
        AMB_DRAW_WHO: frozenset({"tied-players", "all-players"}),
        AMB_RANKING: frozenset({"games-won", "winner-only"}),
        AMB_RESET: frozenset({"each-game", "carry-over"}),
    }
    VARIANTS: ClassVar[frozenset[str]] = frozenset()
    END_CLAUSES: ClassVar[tuple[str, ...]] = ("DDO-MATCH-02",)
    SHARED: ClassVar[frozenset[str]] = frozenset({"rules", "_actions", "_outcomes", "_face_set",
                                                  "_seats_from", "_weighted",
                                                  "_roller_of"})
    #: What only ``describe`` reads (what the last pass resolution did): never play.
    #: ``rulespec verify`` leaves it out of an engine's memory.
    NARRATION: ClassVar[frozenset[str]] = frozenset({"_events"})

    # What every roll and pass reads lives in slots (``clone`` copies them like the rest): an
    # instance dict of fewer than 30 attributes keeps CPython 3.11's attribute and method
    # lookups on their fast paths.
    __slots__ = ("_events", "_final", "_gain", "_gainer", "_last_round", "_loser", "_loss",
                 "_max_passes", "_min_passes", "_order", "_pending", "_phase", "_pos", "_roller",
                 "_roller_of", "_rolls", "_round", "_round_rolls", "_round_starter",
                 "_rounds_played", "_scores", "_tie", "_to_move", "_weighted")

    def __init__(self, spec: Spec, config: Config) -> None:
        super().__init__(spec, config)
        tables = config_tables(spec, config, "dado-de-ouro", lambda: _Tables.build(config))
        rules = self.rules = tables.rules
        n = self.players
        self._actions = tables.actions
        self._outcomes = tables.outcomes
        self._roller_of = tables.roller_of
        self._face_set = frozenset(rules.faces)
        self._weighted = tables.weighted
        self._seats_from = tables.seats_from
        # Match.
        self._phase = OPENING
        #: Who moves: chance until the match is over (the phase says when), then nobody.
        self._to_move: Actor | None = CHANCE
        self._game = 1
        self._games_won = [0] * n
        self._history: list[FinishedGame] = []
        # Game.
        self._scores = [rules.starting_score] * n
        self._round = 0
        self._rounds_played = 0
        self._game_starter: int | None = None
        self._round_starter: int | None = None
        self._opening: list[Pass] = []
        self._opening_order: list[int] = []
        # Current pass.
        #: Who rolls in this pass, in order (never changed in place: a seat order may be shared).
        self._order: Sequence[int] = ()
        self._pos = 0
        self._roller: int | None = None
        self._rolls: list[int | None] = [None] * n
        # Current round.
        self._round_rolls: list[int | None] = [None] * n
        self._tie: Tie | None = None
        self._pending: list[tuple[str, list[int]]] = []
        #: Whether the round's second tie-break leaves out whom the first settled (DDO-AMB-02).
        self._apart = False
        self._gainer: int | None = None
        self._gain: int | None = None
        self._loser: int | None = None
        self._loss: int | None = None
        self._max_passes: tuple[Pass, ...] = ()
        self._min_passes: tuple[Pass, ...] = ()
        self._last_round: tuple[Any, ...] | None = None
        # The state's views of the finished games and of the last round (see _history_view).
        self._history_json: list[tuple[FinishedGame | None, dict[str, Any]]] = []
        self._last_round_json: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        self._final: Final | None = None
        #: The match's ranking, fixed when the match ends (DDO-AMB-15).
        self._standing: list[list[int]] | None = None
        #: Narration: what the last pass resolution did, kept as (template, arguments) and put
        #: in words only by describe(): (None, round figures) is a scored round. It is about the
        #: last action when that action ended a pass: then the next pass is at its start
        #: (``_pos`` 0), or the match is over (``_win_game`` sets ``_pos`` to 0 too).
        self._events: list[tuple[str | None, tuple[Any, ...]]] = []
        self._start_pass(OPENING, self._clockwise(range(n), 0))
        self._opening_order = list(self._order)

    # -- the engine interface ------------------------------------------------------------------

    def current_player(self) -> Actor | None:
        """Return CHANCE while the match goes on (every action is a roll), else None."""
        return self._to_move

    def legal_actions(self) -> list[Action]:
        """Return the rolls of the roller, one per face in die_faces order."""
        if self._roller is None:
            return []
        return list(self._actions[self._roller])

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return each face of the die with equal probability (DDO-AMB-01: a fair die).

        The list is the engine's precomputed one (shared: do not change it), so a driver can
        remember its weights by identity.
        """
        if self._roller is None:
            return []
        return self._outcomes[self._roller]

    def chance_weights(self) -> tuple[list[Action], tuple[int, ...]] | None:
        """Return the roller's rolls, each of weight one (a fair die), or None when the match
        is over: the same draws as ``chance_outcomes`` without fractions."""
        roller = self._roller
        if roller is None:
            return None
        return self._weighted[roller]

    def is_legal(self, action: Any) -> bool:
        """Return True when ``action`` is exactly one of the roller's rolls (no list copied)."""
        roller = self._roller
        return roller is not None and is_among(action, self._actions[roller])

    @inlines_apply
    def apply(self, action: Any) -> None:
        """Apply ``action`` if it is exactly one of the roller's rolls, else raise IllegalAction.

        The base's check, with its common case inlined: the action is one of the precomputed
        roll objects themselves (a driver picks it from ``chance_outcomes``).
        """
        roller = self._roller
        if roller is not None:
            # One of the precomputed rolls itself (alive, so its id is its own): legal when it
            # is the roller's. Then the roll is recorded here: ``_apply`` inlined, the same steps.
            if self._roller_of.get(id(action), -1) == roller:
                self._rolls[roller] = action["face"]
                self._decisions[AMB_DIE] += 1  # self.reached(AMB_DIE), as in _apply
                pos = self._pos = self._pos + 1
                order = self._order
                if pos < len(order):
                    self._roller = order[pos]
                    return
                self._events = []
                if self._phase == ROUND:
                    self._end_round_roll()
                else:
                    self._end_pass()
                return
            rolls = self._actions[roller]
            try:
                found = rolls[rolls.index(action)]
            except ValueError:
                found = None
            if found is not None and (found is action or is_among(action, rolls)):
                self._apply(action)
                return
        raise self.illegal(action)

    def clone(self) -> DadoDeOuro:
        """Return an independent copy, exact (what ``copy.deepcopy`` gives, but sharing).

        Copied: what an action changes in place (the scores, games won, finished games,
        opening passes, the pass's rolls, the pending tie-breaks, the tie-break in progress, the
        decision counts, the narration events). Shared: the configuration's tables
        (``SHARED``), numbers, strings and tuples, and the lists an action only ever replaces
        (the pass order, the opening order, the previous round's rolls, the match's standing,
        the state's cached views of finished games and of the last round). A subclass (which
        may add attributes of its own) is copied by the base's ``clone``.
        """
        if type(self) is not DadoDeOuro:
            return super().clone()
        other = object.__new__(DadoDeOuro)
        other.__dict__.update(self.__dict__)
        other._decisions = self._decisions.copy()
        other._games_won = self._games_won[:]
        other._history = self._history[:]
        other._opening = self._opening[:]
        # Slots: the numbers, strings and tuples as they are.
        other._phase = self._phase
        other._to_move = self._to_move
        other._pos = self._pos
        other._roller = self._roller
        other._order = self._order
        other._round = self._round
        other._rounds_played = self._rounds_played
        other._round_starter = self._round_starter
        other._gainer = self._gainer
        other._gain = self._gain
        other._loser = self._loser
        other._loss = self._loss
        other._max_passes = self._max_passes
        other._min_passes = self._min_passes
        other._last_round = self._last_round
        other._roller_of = self._roller_of
        other._weighted = self._weighted
        other._scores = self._scores[:]
        rolls = self._rolls
        other._rolls = copied = rolls[:]
        # Between actions the previous round's rolls are never the pass's own list (a new
        # pass starts with a new one), but keep them one list if they ever are.
        other._round_rolls = copied if self._round_rolls is rolls else self._round_rolls
        other._pending = self._pending[:]  # popped; its (kind, players) pairs are not changed
        other._events = self._events[:]  # tuples of numbers, strings and tuples
        tie = self._tie
        other._tie = None if tie is None else tie.copy()
        final = self._final
        other._final = None if final is None else final.copy()
        return other

    def rule_rejection(self, action: Action) -> Rejection:
        """Say why ``action`` is not a legal roll now."""
        if self._roller is None:
            return Rejection("the match is over; nobody rolls", ("DDO-MATCH-02",))
        # The action schema holds: exactly kind, player and face, both integers.
        player, face = action["player"], action["face"]
        clause = TURN_CLAUSE[self._phase]
        if player != self._roller:
            return Rejection(f"it is player {self._roller}'s turn to roll ({PHASE_TEXT[self._phase]}), "
                             f"not player {player!r}", ("DDO-TURN-01", clause))
        if face not in self._face_set:
            return Rejection(f"face {face!r} is not on the die; its faces are "
                             f"{list(self.rules.faces)!r}", ("DDO-DIE-01",))
        return Rejection(f"roll {action!r} is not legal now", (clause,))

    def _apply(self, action: Action) -> None:
        """Record the roll; at the end of a pass, resolve it."""
        roller = self._roller
        if roller is None:  # pragma: no cover - apply() checks legality first
            raise ConfigError("no roll is expected")
        self._rolls[roller] = action["face"]
        self.reached(AMB_DIE)  # the faces rolled from are the ruled die_faces
        pos = self._pos = self._pos + 1
        if pos < len(self._order):
            self._roller = self._order[pos]
            return
        self._events = []
        self._end_pass()

    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state."""
        tie = self._tie
        final = self._final
        return {
            "to_move": None if self._phase == OVER else CHANCE,
            "phase": self._phase,
            "result": self.result(),
            "game": self._game,
            "games_won": list(self._games_won),
            "history": self._history_view(),
            "scores": list(self._scores),
            "round": self._round,
            "rounds_played": self._rounds_played,
            "game_starter": self._game_starter,
            "round_starter": self._round_starter,
            "roller": self._roller,
            "order": list(self._order),
            "rolls": list(self._rolls),
            "opening": [list(p) for p in self._opening],
            # During a round's main roll its faces are the current pass itself.
            "round_rolls": list(self._rolls if self._phase == ROUND else self._round_rolls),
            "tie": None if tie is None else {
                "kind": tie.kind, "value": tie.value, "players": list(tie.players),
                "passes": [list(p) for p in tie.passes]},
            "pending": [kind for kind, _ in self._pending],
            "gainer": self._gainer,
            "gain": self._gain,
            "loser": self._loser,
            "loss": self._loss,
            "last_round": self._last_round_view(),
            "final": None if final is None else {
                "mode": "rounds" if final.rounds else "sum",
                "leaders": list(final.leaders),
                "players": list(final.players),
                "draw": [list(p) for p in final.draw],
                "starter": final.starter,
                "repetition": final.repetition,
                "passes_done": final.passes_done,
                "rounds_done": final.rounds_done,
                "totals": list(final.totals)},
        }

    # States share what has not changed since the previous step (nobody changes a state): the
    # finished games, and the record of the last scored round, each built once.

    def _history_view(self) -> list[dict[str, Any]]:
        """Return the ``history`` of the state: the finished games' records, built once each."""
        views = self._history_json
        history = self._history  # only ever appended to
        if len(views) != len(history) or (views and views[-1][0] is not history[-1]):
            views = self._history_json = [(game, game.to_json()) for game in history]
        return [view for _, view in views]

    def _last_round_view(self) -> dict[str, Any] | None:
        """Return the ``last_round`` of the state, built once per scored round."""
        record = self._last_round
        if record is None:
            return None
        seen = self._last_round_json
        if seen is None or seen[0] is not record:
            seen = self._last_round_json = (record, ScoredRound(*record).to_json())
        return seen[1]

    def result(self) -> dict[str, Any] | None:
        """Return games won as scores, the ranking by games won, and the match winner."""
        if self._phase != OVER:
            return None
        won = self._games_won
        standing = self._standing if self._standing is not None else ranking(won)
        return {
            "scores": list(won),
            "ranking": [list(place) for place in standing],
            "winners": [p for p in range(self.players) if won[p] == self.rules.games_to_win],
            "game_winners": [g.winner for g in self._history],
        }

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line: who rolled what, and what the roll settled, if anything."""
        line = f"player {action.get('player')} rolls {action.get('face')}"
        if self._pos == 0 and self._events:
            line += "; " + "; ".join(_event_text(t, args) for t, args in self._events)
        return line

    # -- passes ----------------------------------------------------------------------------------

    def _clockwise(self, players: Sequence[int], first: int) -> list[int]:
        """Return ``players`` in clockwise order starting from seat ``first`` (or the next one)."""
        n = self.players
        if len(players) == n:  # everyone: the precomputed seat order
            return list(self._seats_from[first])
        return sorted(players, key=lambda p: (p - first) % n)

    def _start_pass(self, phase: str, order: Sequence[int]) -> None:
        """Begin a pass: ``order`` roll once each, in that order."""
        self._phase = phase
        self._order = order
        self._pos = 0
        self._roller = order[0]
        self._rolls = [None] * self.players

    def _end_pass(self) -> None:
        """Resolve the pass that just ended."""
        phase = self._phase
        if phase == ROUND:
            self._end_round_roll()
        elif phase in (MAX_TIEBREAK, MIN_TIEBREAK):
            self._end_tiebreak_pass()
        elif phase == OPENING:
            self._end_opening_pass()
        elif phase == FINAL_DRAW:
            self._end_draw_pass()
        else:
            self._end_final_pass()

    def _highest(self) -> tuple[int, list[int]]:
        """Return the highest face of the pass and who rolled it, in roll order."""
        rolls = self._rolls
        best = max([rolls[p] or 0 for p in self._order])
        return best, [p for p in self._order if rolls[p] == best]

    # -- opening roll and draw (DDO-SETUP-01/02, DDO-END-03, DDO-AMB-06) -------------------------

    def _draw_winner(self, whole: list[int]) -> int | None:
        """Return who won a draw pass, or None after starting the re-roll (DDO-AMB-06)."""
        _, top = self._highest()
        if len(top) == 1:
            return top[0]
        draw_tie = self.ruling(AMB_DRAW_TIE)
        if draw_tie == "first-clockwise":
            return top[0]
        again = top if draw_tie == "reroll-tied" else whole
        self._start_pass(self._phase, list(again))
        self._events.append(("tie between players {}: re-roll", (tuple(top),)))
        return None

    def _end_opening_pass(self) -> None:
        self._opening.append(tuple(self._rolls))
        starter = self._draw_winner(self._opening_order)
        if starter is not None:
            self._events.append(("player {} starts game {}", (starter, self._game)))
            self._begin_game_rounds(starter)

    def _end_draw_pass(self) -> None:
        final = self._final
        if final is None:  # pragma: no cover - the draw only happens in a final
            raise ConfigError("draw without a tie-break")
        final.draw.append(tuple(self._rolls))
        drawing = range(self.players) if final.draw_all else final.players
        starter = self._draw_winner(self._clockwise(drawing, self._draw_origin()))
        if starter is not None:
            if starter not in final.players:
                # Everybody drew (DDO-AMB-14 all-players): the draw's winner fixes the seat the
                # tie-break starts from, and the first tied player from there rolls first.
                starter = self._clockwise(final.players, starter)[0]
            final.starter = starter
            self._events.append(("player {} starts the tie-break", (starter,)))
            self._begin_final_repetition()

    def _draw_origin(self) -> int:
        """Return the seat the opening roll or draw starts from (DDO-AMB-11)."""
        if self._game_starter is not None and self.decide(AMB_FIRST_ROLLER, "last-starter"):
            return self._game_starter
        return 0

    # -- games and rounds ------------------------------------------------------------------------

    def _begin_game_rounds(self, starter: int) -> None:
        self._game_starter = starter
        self._start_round(starter)

    def _start_round(self, starter: int) -> None:
        """Begin a round's main roll (a game round, or a tie-break round under round-scoring)."""
        self._round_starter = starter
        self._tie = None
        self._pending = []
        self._apart = False
        self._gainer = self._gain = self._loser = self._loss = None
        self._max_passes = self._min_passes = ()
        final = self._final
        if final is None:
            self._round = self._rounds_played + 1
            # _start_pass(ROUND, everyone clockwise from the starter), inlined.
            self._phase = ROUND
            self._order = self._seats_from[starter]
            self._pos = 0
            self._roller = starter
            self._rolls = [None] * self.players
        else:
            self._start_pass(ROUND, self._clockwise(final.players, starter))

    def _end_round_roll(self) -> None:
        """Find the highest and lowest of the round; start tie-breaks or score (DDO-SCORE-02/04)."""
        rolls = self._rolls
        order = self._order
        faces = [rolls[p] or 0 for p in order]
        hi = max(faces)
        lo = min(faces)
        self._round_rolls = rolls
        if hi != lo and faces.count(hi) == 1 and faces.count(lo) == 1:
            # The common case: one highest and one lowest, no tie-break to play (the round
            # started with no tie and nothing pending).
            self._gainer, self._gain = order[faces.index(hi)], hi
            self._loser, self._loss = order[faces.index(lo)], lo
            self._score_round()
            return
        ties: list[tuple[str, list[int]]] = []
        if hi == lo:
            mode = self.ruling(AMB_ALL_EQUAL)
            if mode != "void-round":
                ties.append((MAX, list(order)))
                if mode != "max-only":
                    ties.append((MIN, list(order)))
                    self._apart = mode == "both-distinct"
        else:
            if faces.count(hi) == 1:
                self._gainer, self._gain = order[faces.index(hi)], hi
            else:
                ties.append((MAX, [p for p in order if rolls[p] == hi]))
            if faces.count(lo) == 1:
                self._loser, self._loss = order[faces.index(lo)], lo
            else:
                ties.append((MIN, [p for p in order if rolls[p] == lo]))
        if len(ties) > 1 and self.decide(AMB_TIE_ORDER, "min-first"):
            ties.reverse()
        self._pending = ties
        self._next_tie()

    def _next_tie(self) -> None:
        """Start the next pending tie-break of the round, or score the round."""
        if not self._pending:
            self._tie = None
            self._score_round()
            return
        kind, players = self._pending.pop(0)
        rolls = self._round_rolls
        value = rolls[players[0]]
        if value is None:  # pragma: no cover - tied players have rolled
            raise ConfigError("tie-break for a player who did not roll")
        if self._apart:
            # Everybody tied at both ends; whom the first tie-break settled sits this one out.
            players = [p for p in players if p not in (self._gainer, self._loser)]
            if len(players) == 1:
                self._settle(kind, players[0], value, ())
                self._next_tie()
                return
        players = self._tie_order(players)
        self._tie = Tie(kind, value, players)
        self._events.append(("players {} tied for the {} ({}): re-roll",
                             (tuple(players), "highest" if kind == MAX else "lowest", value)))
        self._start_pass(MAX_TIEBREAK if kind == MAX else MIN_TIEBREAK, list(players))

    def _end_tiebreak_pass(self) -> None:
        """Settle a tie-break pass: one clear winner (or loser), or another re-roll (DDO-TIE-03/06)."""
        tie = self._tie
        if tie is None:  # pragma: no cover - a tie-break phase always has a tie
            raise ConfigError("tie-break without a tie")
        rolls = self._rolls
        tie.passes.append(tuple(rolls))
        order = self._order
        faces = [rolls[p] or 0 for p in order]
        best = max(faces) if tie.kind == MAX else min(faces)
        if faces.count(best) > 1:
            still = [p for p in order if rolls[p] == best]
            again = tie.players if self.decide(AMB_REROLL_WHO, "all-tied-again") else still
            again = self._tie_order(again)
            self._events.append(("tied again: players {} re-roll", (tuple(again),)))
            self._start_pass(self._phase, again)
            return
        who = order[faces.index(best)]
        value = best if self.decide(AMB_TIE_VALUE, "reroll-value") else tie.value
        self._settle(tie.kind, who, value, tuple(tie.passes))
        self._next_tie()

    def _settle(self, kind: str, who: int, value: int, passes: tuple[Pass, ...]) -> None:
        """Record who gains (a tie for the highest) or loses (for the lowest) ``value``."""
        if kind == MAX:
            self._gainer, self._gain = who, value
            self._max_passes = passes
        else:
            self._loser, self._loss = who, value
            self._min_passes = passes

    def _tie_order(self, players: list[int]) -> list[int]:
        """Return the tied ``players`` in their re-roll order (DDO-TIE-01/04, DDO-AMB-13).

        ``players`` come in the round's order, clockwise from the player who rolled first in
        the round. When that player is one of them, the re-roll starts with them; otherwise the
        text names nobody, and DDO-AMB-13 decides who starts.
        """
        first = self._round_starter
        if first is None or players[0] == first:
            return players
        if self.decide(AMB_TIE_START, "nearest-tied"):
            n = self.players
            # The tied player fewest seats away either way; clockwise wins a tie of distances.
            nearest = min(players, key=lambda p: (min((p - first) % n, (first - p) % n),
                                                  (p - first) % n))
            return self._clockwise(players, nearest)
        return players

    def _score_round(self) -> None:
        """Apply the round's gain and loss (DDO-SCORE-02/04, DDO-TIE-02/05) and move on."""
        gainer, gain, loser, loss = self._gainer, self._gain, self._loser, self._loss
        final = self._final
        target: list[int | None]
        if final is None:
            scores = self._scores
            before: tuple[int | None, ...] = tuple(scores)
            if gainer is not None and gain is not None:
                scores[gainer] += gain
            if loser is not None:
                if loss is not None:
                    scores[loser] -= loss
                self.reached(AMB_FLOOR)  # score_floor, set by the ruling, decides it here
            rules = self.rules
            floor = rules.score_floor
            if floor is not None:
                for p in (gainer, loser):
                    if p is not None and scores[p] < floor:
                        scores[p] = floor
            number = self._rounds_played = self._rounds_played + 1
            starter = self._round_starter if self._round_starter is not None else 0
            # The fields of a ScoredRound, in order: state() builds the record when asked.
            self._last_round = (self._game, number, False, starter, tuple(self._round_rolls),
                                before, tuple(scores), gainer, gain, loser, loss,
                                self._max_passes, self._min_passes)
            self._events.append((None, (number, False, gainer, gain, loser, loss)))
            if number < rules.rounds_per_game:
                self._start_round(self._next_round_starter())
            else:
                self._end_game()
            return
        target = final.totals
        before = tuple(target)
        if gainer is not None and gain is not None:
            target[gainer] = (target[gainer] or 0) + gain
        if loser is not None and loss is not None:
            target[loser] = (target[loser] or 0) - loss
        final.rounds_done += 1
        number = final.rounds_done
        starter = self._round_starter if self._round_starter is not None else 0
        self._last_round = (self._game, number, True, starter, tuple(self._round_rolls), before,
                            tuple(target), gainer, gain, loser, loss, self._max_passes,
                            self._min_passes)
        self._events.append((None, (number, True, gainer, gain, loser, loss)))
        if final.rounds_done < self.rules.tiebreak_rolls:
            self._start_round(starter)
        else:
            self._end_final_repetition()

    def _next_round_starter(self) -> int:
        """Return who starts the next round of the game (DDO-AMB-04)."""
        current = self._round_starter if self._round_starter is not None else 0
        mode = self.ruling(AMB_ROUND_STARTER)
        if mode == "rotate-clockwise":
            return (current + 1) % self.players
        if mode == "previous-round-winner" and self._gainer is not None:
            return self._gainer
        if mode == "game-starter" and self._game_starter is not None:
            return self._game_starter
        return current

    def _end_game(self) -> None:
        """Find the game winner after the last round, or start the tie-break (DDO-END-01)."""
        scores = self._scores
        best = max(scores)
        leaders = [p for p in range(self.players) if scores[p] == best]
        if len(leaders) == 1:
            self._win_game(leaders[0])
            return
        self._final = Final(leaders, self.players,
                            rounds=self.decide(AMB_FINAL_COMPARE, "round-scoring"))
        self._events.append(("players {} tied on {} points: end-of-game tie-break", (tuple(leaders), best)))
        self._start_final_draw()

    def _start_final_draw(self) -> None:
        final = self._final
        if final is None:  # pragma: no cover
            raise ConfigError("draw without a tie-break")
        final.draw = []
        final.starter = None
        final.draw_all = self.decide(AMB_DRAW_WHO, "all-players")
        drawing = range(self.players) if final.draw_all else final.players
        self._start_pass(FINAL_DRAW, self._clockwise(drawing, self._draw_origin()))

    # -- the end-of-game tie-break (DDO-END-01..04, DDO-AMB-07/10) --------------------------------

    def _begin_final_repetition(self) -> None:
        """Start one repetition of the tie-break: five rolls each, or five tie-break rounds."""
        final = self._final
        if final is None or final.starter is None:  # pragma: no cover
            raise ConfigError("tie-break without a starter")
        final.passes_done = 0
        final.rounds_done = 0
        final.totals = [0 if p in final.players else None for p in range(self.players)]
        if final.rounds:  # decided once per tie-break, when it began (DDO-AMB-07)
            self._start_round(final.starter)
        else:
            self._start_pass(FINAL_ROLLS, self._clockwise(final.players, final.starter))

    def _end_final_pass(self) -> None:
        """Add one pass of tie-break rolls to the totals (sum-of-rolls)."""
        final = self._final
        if final is None:  # pragma: no cover
            raise ConfigError("tie-break roll without a tie-break")
        totals = final.totals
        rolls = self._rolls
        for p in self._order:
            totals[p] = (totals[p] or 0) + (rolls[p] or 0)
        final.passes_done += 1
        if final.passes_done < self.rules.tiebreak_rolls:
            self._start_pass(FINAL_ROLLS, self._order)
        else:
            self._end_final_repetition()

    def _end_final_repetition(self) -> None:
        """Compare the tie-break results; the best alone wins the game, else repeat (DDO-END-04)."""
        final = self._final
        if final is None or final.starter is None:  # pragma: no cover
            raise ConfigError("tie-break result without a tie-break")
        totals = final.totals
        best = max(totals[p] or 0 for p in final.players)
        top = [p for p in final.players if totals[p] == best]
        if len(top) == 1:
            self._win_game(top[0])
            return
        self._events.append(("players {} tied again on {}: the tie-break is repeated", (tuple(top), best)))
        final.players = top
        final.repetition += 1
        if self.decide(AMB_FINAL_REPEAT, "new-draw"):
            self._start_final_draw()
            return
        if final.starter not in top:
            final.starter = self._clockwise(top, final.starter)[0]
        self._begin_final_repetition()

    def _win_game(self, winner: int) -> None:
        """Record the game; end the match at games_to_win wins, else start the next game."""
        final = self._final
        self._games_won[winner] += 1
        starter = self._game_starter if self._game_starter is not None else 0
        self._history.append(FinishedGame(
            scores=tuple(self._scores), winner=winner, rounds=self._rounds_played,
            starter=starter,
            leaders=None if final is None else tuple(final.leaders),
            repetitions=0 if final is None else final.repetition,
            totals=None if final is None else tuple(final.totals)))
        self._final = None
        self._tie = None
        self._pending = []
        self._events.append(("player {} wins game {}", (winner, self._game)))
        if self._games_won[winner] >= self.rules.games_to_win:
            self._phase = OVER
            self._to_move = None
            self._roller = None
            self._order = ()
            self._pos = 0
            self._rolls = [None] * self.players
            self._events.append(("player {} wins the match", (winner,)))
            self._standing = self._final_standing(winner)
            return
        self._new_game(winner, starter)

    def _final_standing(self, winner: int) -> list[list[int]]:
        """Rank the match's players (DDO-AMB-15): the winner first, then the others."""
        if self.decide(AMB_RANKING, "winner-only"):
            others = [p for p in range(self.players) if p != winner]
            return [[winner], others] if others else [[winner]]
        return ranking(self._games_won)

    def _new_game(self, last_winner: int, last_starter: int) -> None:
        """Reset the scores (DDO-SCORE-01, unless DDO-AMB-16 carries them over) and find the
        next game's starter (DDO-AMB-05)."""
        n = self.players
        self._game += 1
        if not self.decide(AMB_RESET, "carry-over"):
            self._scores = [self.rules.starting_score] * n
        self._round = 0
        self._rounds_played = 0
        self._round_starter = None
        self._round_rolls = [None] * n
        self._gainer = self._gain = self._loser = self._loss = None
        self._opening = []
        mode = self.ruling(AMB_GAME_STARTER)
        if mode == "new-opening-roll":
            self._game_starter = None
            origin = last_starter if self.decide(AMB_FIRST_ROLLER, "last-starter") else 0
            self._start_pass(OPENING, self._clockwise(range(n), origin))
            self._opening_order = list(self._order)
            return
        if mode == "first-starter":
            starter = self._history[0].starter
        elif mode == "rotate-clockwise":
            starter = (last_starter + 1) % n
        else:
            starter = last_winner
        self._begin_game_rounds(starter)


ENGINE = DadoDeOuro


# -- the greedy player's heuristic (rulespec.impact) -----------------------------------------------


def heuristic(config: Config, view: Any, player: int) -> float:
    """Return how good ``view`` is for ``player``: its score minus the best other score.

    For the impact lab's greedy and MCTS players. The game leaves the players no choice (every
    action is a die roll), so the heuristic is never consulted in play; it is declared so that
    every game offers the same players.
    """
    return lead_over_others(view["scores"], player)
