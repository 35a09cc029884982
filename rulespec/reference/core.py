"""The engine core: configuration, actions, the engine base class and its errors.

An engine is a deterministic state machine. Randomness is explicit: when chance is to move,
the legal actions are the chance outcomes, each with an exact probability, and whoever drives
the game picks one. Actions are JSON objects with a ``kind`` (an action id of the spec).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any, ClassVar, Literal, Self, TypeVar

import jsonschema

from rulespec.exitcodes import EXIT_USAGE
from rulespec.reference.actions import action_schemas, is_among
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec
from rulespec.spec.visibility import HiddenField, hidden_when

#: An action: a JSON object whose ``kind`` names an action of the spec.
Action = dict[str, Any]
#: Who moves: a player index (0-based) or chance.
Actor = int | Literal["chance"]
CHANCE: Literal["chance"] = "chance"


class ConfigError(RulespecError):
    """A game configuration that cannot be played (unknown ruling, bad player count, ...)."""

    exit_code = EXIT_USAGE


class IllegalAction(RulespecError):
    """An action the rules do not allow now; the state is unchanged."""

    def __init__(self, action: Any, reason: str, clauses: Sequence[str] = ()) -> None:
        self.action = action
        self.reason = reason
        self.clauses = tuple(clauses)
        # The message is written only when asked for: the kit has engines refuse thousands of
        # probes and reads the reason and clauses alone. The arguments rebuild it (pickling).
        super().__init__(action, reason, self.clauses)

    def __str__(self) -> str:
        cite = f" (clause {', '.join(self.clauses)})" if self.clauses else ""
        return f"illegal action {self.action!r}: {self.reason}{cite}"


@dataclass(frozen=True)
class Rejection:
    """Why an action is not legal: a sentence and the clauses it breaks."""

    #: The rule broken, in a sentence.
    reason: str
    #: The ids of the clauses that forbid the action.
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Config:
    """A fully resolved game configuration."""

    #: The game id.
    game: str
    #: The number of players.
    players: int
    #: The option of every ambiguity record (ambiguity id -> option id), defaults filled in.
    rulings: Mapping[str, str]
    #: The variants played, in the order given.
    variants: tuple[str, ...] = ()
    #: The value of every parameter: the spec's defaults for the player count, then the
    #: rulings', the variants' and the overrides' values.
    parameters: Mapping[str, Any] = field(default_factory=dict)
    #: The parameters set explicitly (``--param``), which the JSON form carries.
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def ruling(self, ambiguity: str) -> str:
        """Return the option chosen for ``ambiguity``."""
        return self.rulings[ambiguity]

    def param(self, name: str) -> Any:
        """Return the value of parameter ``name``.

        A parameter this configuration's spec lacks, because it came in a later release than
        the spec being played (today's reference replaying a frozen release), takes its default
        in today's spec, which by the versioning policy is the behaviour from before it existed.
        """
        try:
            return self.parameters[name]
        except KeyError:
            from rulespec.spec.registry import get_spec

            today = get_spec(self.game)
            if name not in today.parameters:
                raise
            return today.default_parameters(self.players)[name]

    def to_json(self) -> dict[str, Any]:
        """Return the configuration as it is written in trace headers and sent to engines."""
        return {
            "game": self.game,
            "players": self.players,
            "rulings": dict(sorted(self.rulings.items())),
            "variants": list(self.variants),
            "parameters": dict(sorted(self.overrides.items())),
        }


def make_config(
    spec: Spec,
    *,
    players: int | None = None,
    rulings: Mapping[str, str] | None = None,
    variants: Sequence[str] = (),
    parameters: Mapping[str, Any] | None = None,
) -> Config:
    """Resolve a configuration against ``spec``; ConfigError lists every problem at once.

    Parameter values are layered: table or default, then the chosen ruling options, then the
    variants in order, then the explicit ``parameters``. A configuration is resolved once per
    spec object and request, then shared (nothing changes a Config).
    """
    key = ("config", repr((players, rulings, list(variants), parameters)))
    return shared_tables(spec, key, lambda: _resolve_config(spec, players, rulings, variants,
                                                            parameters))


def _resolve_config(spec: Spec, players: int | None, rulings: Mapping[str, str] | None,
                    variants: Sequence[str], parameters: Mapping[str, Any] | None) -> Config:
    problems: list[str] = []
    game = spec.game_id
    n = spec.min_players if players is None else players
    if not isinstance(n, int) or isinstance(n, bool) or not spec.min_players <= n <= spec.max_players:
        if spec.min_players == spec.max_players:
            problems.append(f"{game} is for {spec.min_players} players, not {n!r}")
        else:
            problems.append(f"{game} is for {spec.min_players} to {spec.max_players} players, "
                            f"not {n!r}; choose a count in that range")
        n = spec.min_players
    ambiguities = spec.ambiguities
    chosen = spec.default_rulings()
    for amb, option in (rulings or {}).items():
        if amb not in ambiguities:
            problems.append(f"unknown ambiguity {amb!r} for {game}; known: "
                            f"{', '.join(sorted(ambiguities))}")
            continue
        options = [str(o["id"]) for o in ambiguities[amb]["options"]]
        if option not in options:
            problems.append(f"ambiguity {amb!r} has no option {option!r}; options: "
                            f"{', '.join(options)}")
            continue
        chosen[amb] = option
    known_variants = spec.variants
    seen: list[str] = []
    for v in variants:
        if v not in known_variants:
            problems.append(f"unknown variant {v!r} for {game}; known: "
                            f"{', '.join(sorted(known_variants)) or 'none'}")
        elif v in seen:
            problems.append(f"variant {v!r} is given twice")
        else:
            seen.append(v)
    values = spec.default_parameters(n)
    for amb, option in sorted(chosen.items()):
        for opt in ambiguities[amb]["options"]:
            if opt["id"] == option:
                values.update(opt.get("parameters", {}))
    for v in seen:
        values.update(known_variants[v].get("parameters", {}))
    declared = spec.parameters
    overrides = dict(parameters or {})
    for name, value in overrides.items():
        if name not in declared:
            problems.append(f"unknown parameter {name!r} for {game}; known: "
                            f"{', '.join(sorted(declared))}")
            continue
        try:
            jsonschema.Draft202012Validator(declared[name]["schema"]).validate(value)
        except jsonschema.ValidationError as exc:
            problems.append(f"parameter {name!r} = {value!r} is invalid: {exc.message}")
            continue
        values[name] = value
    if problems:
        raise ConfigError("bad configuration: " + "; ".join(problems))
    return Config(game=game, players=n, rulings=chosen, variants=tuple(seen),
                  parameters=values, overrides=overrides)


def config_from_json(spec: Spec, data: Any) -> Config:
    """Rebuild a configuration from its JSON form (trace header, protocol request)."""
    if not isinstance(data, dict):
        raise ConfigError(f"a configuration must be a JSON object, not {data!r}")
    unknown = set(data) - {"game", "players", "rulings", "variants", "parameters"}
    if unknown:
        raise ConfigError(f"unknown configuration keys {sorted(unknown)!r}; allowed: game, "
                          "players, rulings, variants, parameters")
    if data.get("game", spec.game_id) != spec.game_id:
        raise ConfigError(f"configuration is for game {data.get('game')!r}, not {spec.game_id!r}")
    rulings = data.get("rulings", {})
    variants = data.get("variants", [])
    parameters = data.get("parameters", {})
    if not isinstance(rulings, dict) or not all(isinstance(v, str) for v in rulings.values()):
        raise ConfigError("rulings must map ambiguity ids to option ids")
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        raise ConfigError("variants must be a list of variant ids")
    if not isinstance(parameters, dict):
        raise ConfigError("parameters must be an object of parameter values")
    return make_config(spec, players=data.get("players"), rulings=rulings, variants=variants,
                       parameters=parameters)


def _with_later_records(spec: Spec, rulings: Mapping[str, str],
                        implemented: Mapping[str, Any]) -> Mapping[str, str]:
    """Return ``rulings``, plus today's default of each record the engine implements but
    ``spec`` lacks.

    That happens when today's reference plays an older release of its spec (``rulespec diff``
    replaying a frozen release's evidence, the kit checking an engine as an older release): the
    record came later, and by the versioning policy its default is the behaviour from before it
    existed. Today's default is read from the registered spec of the game.
    """
    later = [amb for amb in implemented if amb not in rulings]
    if not later:
        return rulings
    from rulespec.spec.registry import get_spec

    today = get_spec(spec.game_id).default_rulings()
    unknown = [amb for amb in later if amb not in today]
    if unknown:
        raise ConfigError(f"{spec.game_id}: the reference implements {', '.join(unknown)}, "
                          "which neither this spec nor today's registers; fix the engine's "
                          "RULINGS or the spec")
    return {**rulings, **{amb: today[amb] for amb in later}}


class Engine(ABC):
    """A game's reference interpreter. Subclasses fill in the rules; the base does the checks.

    Subclasses declare which ambiguity options and variants they implement as behaviour (the
    validator checks these against the spec both ways), and implement the abstract methods.
    """

    #: Ambiguity id -> the option ids implemented as behaviour (not as parameter overrides).
    RULINGS: ClassVar[Mapping[str, frozenset[str]]] = {}
    #: Variant ids implemented as behaviour.
    VARIANTS: ClassVar[frozenset[str]] = frozenset()
    #: The clauses an action breaks when it comes after the end of the game.
    END_CLAUSES: ClassVar[tuple[str, ...]] = ()
    #: Attributes whose values are never changed in place (tables, precomputed actions): ``clone``
    #: shares them instead of copying them. Naming one here is only an optimisation.
    SHARED: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, spec: Spec, config: Config) -> None:
        if config.game != spec.game_id:
            raise ConfigError(f"configuration for {config.game!r} given to the "
                              f"{spec.game_id!r} engine")
        self.spec = spec
        self.config = config
        self.players = config.players
        self._rulings: Mapping[str, str] = _with_later_records(spec, config.rulings,
                                                               type(self).RULINGS)
        # A plain dict of ints, every known ambiguity at 0: counting is one ``+= 1`` and
        # ``clone`` copies it cheaply (a Counter would be deep-copied).
        self._decisions: dict[str, int] = dict.fromkeys(self._rulings, 0)

    # -- what a game implements --------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> Actor | None:
        """Return who moves now: a player index, CHANCE, or None once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Return every legal action in canonical order (the chance outcomes at chance nodes)."""

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """Return the chance outcomes with exact probabilities (only when chance moves)."""
        raise IllegalAction(None, "chance is not to move")

    def chance_weights(self) -> tuple[Sequence[Action], Sequence[int]] | None:
        """Return the chance outcomes with positive integer weights, or None (the default).

        An optional shortcut for samplers: the outcomes of ``chance_outcomes`` in the same
        order, each weighted in proportion to its probability (deck counts, say), without
        building fractions. None means "use ``chance_outcomes``". A subclass that overrides
        ``chance_outcomes`` without overriding this gets the default back, so the two cannot
        disagree.
        """
        return None

    def chance_split(self) -> tuple[list[Action], list[Fraction]]:
        """Return the chance outcomes' actions and their exact probabilities as two lists, in
        ``chance_outcomes``'s order (what the conformance kit compares at every chance step).

        An optional shortcut: a game may build the two lists directly instead of a list of
        pairs. A subclass that overrides ``chance_outcomes`` without overriding this gets the
        default back, as with ``chance_weights``.
        """
        outcomes = self.chance_outcomes()
        return [a for a, _ in outcomes], [p for _, p in outcomes]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "chance_outcomes" in cls.__dict__:
            if "chance_weights" not in cls.__dict__:
                cls.chance_weights = Engine.chance_weights  # type: ignore[method-assign]
            if "chance_split" not in cls.__dict__:
                cls.chance_split = Engine.chance_split  # type: ignore[method-assign]
        # An ``apply`` that does its class's ``_apply`` itself on a fast path (see
        # ``inlines_apply``) would skip a subclass's own ``_apply`` or ``is_legal``: such a
        # subclass gets the base's ``apply`` back, which calls both.
        if (cls.apply in _INLINED_APPLY and "apply" not in cls.__dict__
                and ("_apply" in cls.__dict__ or "is_legal" in cls.__dict__)):
            cls.apply = Engine.apply  # type: ignore[method-assign]

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action (legality has been checked)."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state."""

    @abstractmethod
    def result(self) -> dict[str, Any] | None:
        """Return the result (scores, ranking, winners) once terminal, else None."""

    def hidden_by_rulings(self) -> tuple[HiddenField, ...]:
        """Return what this configuration's rulings hide beyond what the spec's ``state.hidden``
        hides under the default rulings: its entries whose ``when`` holds under these rulings and
        not the defaults (a record's reading of who sees what, such as OURO-AMB-37 in-hand). An
        option that hides less than the default (FOOL-AMB-21 open) is served by
        ``rulespec.reference.observation.observed_fields``. See ``observation``.
        It reads the rulings with ``ruled``: asking what a player sees is not play, and must
        not count a decision point in the engine asked (the game counts the decision point
        where the question comes up in play, a deal for instance)."""
        return hidden_when(self.spec.data, self.ruled)

    def rule_rejection(self, action: Action) -> Rejection:
        """Say why the well-formed ``action`` is not legal now, citing the clause it breaks.

        Called by ``rejection`` once the action fits the action schema of its kind, so a game
        says only what its rules forbid (whose turn it is, what the phase allows), never what
        the schema already says. Every game implements it (or, as games written before it did,
        overrides ``rejection`` whole); ``check_implementation`` reports a game that does
        neither.
        """
        raise NotImplementedError(
            f"{type(self).__name__} says nothing about illegal actions: define "
            "rule_rejection(action), which returns the Rejection for a well-formed action")

    def describe(self, action: Action, actor: Actor) -> str:
        """Return one line of narration for ``action`` taken by ``actor``."""
        who = "chance" if actor == CHANCE else f"player {actor}"
        return f"{who}: {action}"

    # -- decision points ----------------------------------------------------------------------

    def ruling(self, ambiguity: str) -> str:
        """Return the option chosen for ``ambiguity`` and count this decision point as reached.

        Call it where the behaviour branches, not once at set-up: the count is how often the
        question the rulebook leaves open actually came up in play.
        """
        self._decisions[ambiguity] += 1
        return self._rulings[ambiguity]

    def decide(self, ambiguity: str, option: str) -> bool:
        """Return True when ``ambiguity`` is ruled ``option``; count the decision point."""
        self._decisions[ambiguity] += 1
        return self._rulings[ambiguity] == option

    def reached(self, ambiguity: str) -> None:
        """Count a decision point whose reading is carried by parameter overrides.

        A ruling whose options only override parameters is applied when the configuration is
        resolved; the engine calls this where it uses those parameters for the decision the
        rulebook leaves open (a stone scored, a die rolled), so the count means the same thing
        for every ruling.
        """
        try:
            self._decisions[ambiguity] += 1
        except KeyError:  # a record an older release of the spec lacks (_with_later_records)
            self._decisions[ambiguity] = 1

    def ruled(self, ambiguity: str) -> str:
        """Return the option chosen for ``ambiguity`` without counting a decision point.

        Only for code that reports or checks a ruling without playing it: narration
        (``describe``), what a player may see (``hidden_by_rulings``), refusing an unplayable
        configuration at set-up. Behaviour goes through
        ``ruling``, ``decide`` or ``reached``; the decision-point test checks which is used where.
        """
        return self._rulings[ambiguity]

    @property
    def decisions(self) -> Counter[str]:
        """Return how often each ambiguity's decision point was reached in this engine.

        Every ambiguity of the configuration is a key, with 0 when it was never reached.
        """
        return Counter(self._decisions)

    # -- what the base provides --------------------------------------------------------------

    def is_terminal(self) -> bool:
        """Return True once the game is over."""
        return self.current_player() is None

    def apply(self, action: Any) -> None:
        """Apply ``action`` if it is exactly a legal action; otherwise raise IllegalAction.

        "Exactly" counts JSON types, as the spec's action schemas do: ``true`` is not ``1`` and
        ``1.0`` is not ``1``, though Python's ``True == 1 == 1.0`` says they are. An illegal
        action changes nothing.
        """
        if self.is_legal(action):
            self._apply(action)
            return
        # Whatever the engine cached is rebuilt after a refusal, so that "an illegal action
        # changes nothing" is checked against a fresh state, not against a cached copy.
        self.invalidate()
        raise self.illegal(action)

    def invalidate(self) -> None:  # noqa: B027 - an optional hook: nothing cached by default
        """Forget what the engine cached about its current state (none by default).

        A game that caches its state or legal actions per step clears them here and in its
        ``_apply``. The base calls it after refusing an action.
        """

    def is_legal(self, action: Any) -> bool:
        """Return True when ``action`` is exactly (type-strictly) one of the legal actions.

        A game may override this with a cheaper test that is just as exact.
        """
        return is_among(action, self.legal_actions())

    def illegal(self, action: Any) -> IllegalAction:
        """Return the error that says why ``action`` is not legal now (it must not be)."""
        if self.is_terminal():
            return IllegalAction(action, "the game is over; no action is legal",
                                 self.END_CLAUSES)
        why = self.rejection(action)
        return IllegalAction(action, why.reason, why.clauses)

    def rejection(self, action: Any) -> Rejection:
        """Say why ``action`` is not legal now, citing the clause it breaks.

        A malformed action is refused for its shape first (``check_action``: which key is
        wrong, what the schema wants); a well-formed one for the game's rules
        (``rule_rejection``). Call it only for an action that is not legal.
        """
        bad = self.check_action(action)
        if bad is not None:
            return bad
        return self.rule_rejection(action)

    def check_action(self, action: Any) -> Rejection | None:
        """Return a rejection if ``action`` does not fit the action schema of its kind, else None.

        ``rejection`` starts with this, so that ``apply`` and ``rejection`` say the same thing
        about a malformed action in every game: which key is wrong, and what the schema wants.
        """
        problem = action_schemas(self.spec).problem(action)
        return None if problem is None else Rejection(*problem)

    #: The former name of ``check_action`` (it checks the whole action now, not just its kind).
    check_kind = check_action

    def clone(self) -> Self:
        """Return an independent copy: the state copied, what never changes shared.

        Lists, dicts and mutable objects are copied; numbers, strings, tuples of them, frozen
        dataclasses, the spec, the configuration and the attributes named in ``SHARED`` are
        shared. State attributes must not share one list between them (override ``clone`` if
        they must). Attributes a game keeps in ``__slots__`` are copied the same way.
        """
        kind = type(self)
        other = object.__new__(kind)
        shared = _BASE_SHARED | self.SHARED
        atoms = _ATOMS
        other.__dict__.update({
            name: value if name in shared or type(value) in atoms else copy_state(value)
            for name, value in self.__dict__.items()
        })
        for name in slot_names(kind):
            try:
                value = getattr(self, name)
            except AttributeError:  # a slot never set stays unset
                continue
            setattr(other, name, value if name in shared or type(value) in atoms
                    else copy_state(value))
        return other


@cache
def slot_names(kind: type) -> tuple[str, ...]:
    """Return the attribute names the ``__slots__`` of ``kind`` and its bases declare.

    A game may keep its busiest attributes in slots: CPython 3.11 keeps its fast attribute and
    method lookups for an instance with fewer than 30 attributes in its ``__dict__``.
    """
    names: list[str] = []
    for base in kind.__mro__:
        declared = base.__dict__.get("__slots__", ())
        for slot in (declared,) if isinstance(declared, str) else declared:
            if slot in ("__dict__", "__weakref__"):
                continue
            private = slot.startswith("__") and not slot.endswith("__")
            name = f"_{base.__name__.lstrip('_')}{slot}" if private else slot
            if name not in names:
                names.append(name)
    return tuple(names)


#: The ``apply`` methods marked by ``inlines_apply``.
_INLINED_APPLY: set[Callable[..., None]] = set()

ApplyMethod = TypeVar("ApplyMethod", bound=Callable[..., None])


def inlines_apply(method: ApplyMethod) -> ApplyMethod:
    """Mark a game's ``apply`` that applies some actions itself instead of calling ``_apply``.

    A fast path may record the common action in ``apply`` directly, doing exactly what its
    class's ``_apply`` does (and checking exactly what ``is_legal`` checks). A subclass that
    overrides ``_apply`` or ``is_legal`` (a variant engine, a deliberately broken one in a test
    corpus) then gets ``Engine.apply`` back, so its own hooks are called for every action.
    """
    _INLINED_APPLY.add(method)
    return method


class StepMemo(Engine):
    """An engine that builds its canonical state and legal actions at most once per step.

    A game derives from this instead of ``Engine`` and implements ``_build_state`` and
    ``_build_legal`` instead of ``state`` and ``legal_actions``; its ``_apply`` starts with
    ``self.invalidate()``, which drops both (the base calls it after refusing an action too).
    Both are replaced, never changed in place, so a clone shares them (``clone`` does).
    """

    _state_memo: dict[str, Any] | None = None
    _legal_memo: list[Action] | None = None

    @abstractmethod
    def _build_state(self) -> dict[str, Any]:
        """Return the canonical JSON state of this step (built once per step)."""

    @abstractmethod
    def _build_legal(self) -> list[Action]:
        """Return the legal actions of this step in canonical order (built once per step)."""

    def state(self) -> dict[str, Any]:
        """Return the canonical JSON state.

        Built once per step and handed out again until the next action: do not change it.
        """
        memo = self._state_memo
        if memo is None:
            memo = self._state_memo = self._build_state()
        return memo

    def legal(self) -> list[Action]:
        """Return the legal actions of this step, built once: do not change the list."""
        memo = self._legal_memo
        if memo is None:
            memo = self._legal_memo = self._build_legal()
        return memo

    def legal_actions(self) -> list[Action]:
        """Return every legal action in canonical order (a copy of ``legal``)."""
        memo = self._legal_memo
        if memo is None:
            memo = self._legal_memo = self._build_legal()
        return list(memo)

    def is_legal(self, action: Any) -> bool:
        """Return True when ``action`` is exactly one of the legal actions of this step."""
        legal = self._legal_memo
        if legal is None:
            legal = self._legal_memo = self._build_legal()
        return is_among(action, legal)

    def invalidate(self) -> None:
        """Forget the state and legal actions built for this step."""
        self._state_memo = None
        self._legal_memo = None


#: Attributes the base class sets that never change during a game.
#: The step memos of ``StepMemo`` are replaced, never changed in place: clones share them.
_BASE_SHARED = frozenset({"spec", "config", "players", "_rulings", "_state_memo", "_legal_memo"})
_ATOMS = frozenset({int, float, str, bool, type(None), Fraction})


def copy_state(value: Any) -> Any:
    """Return a copy of a piece of game state that shares nothing mutable with ``value``."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is list:
        if _ATOMS.issuperset(map(type, value)):
            return value[:]
        return [copy_state(v) for v in value]
    if kind is dict:
        if _ATOMS.issuperset(map(type, value.values())):
            return value.copy()
        return {k: copy_state(v) for k, v in value.items()}
    if kind is bytearray:
        return bytearray(value)
    if kind is tuple or kind is frozenset:
        if _ATOMS.issuperset(map(type, value)):
            return value
        return kind(copy_state(v) for v in value)
    params = getattr(kind, "__dataclass_params__", None)
    if params is not None and params.frozen:
        return value
    return copy.deepcopy(value)


T = TypeVar("T")

_TABLES: dict[tuple[int, Hashable], tuple[Spec, Any]] = {}
_TABLES_MAX = 256


def shared_tables(spec: Spec, key: Hashable, build: Callable[[], T]) -> T:
    """Return ``build()``, built once per spec object and ``key``, then handed out again.

    For what an engine precomputes from its configuration and never changes (card tables,
    action objects): every new game of the same configuration shares them instead of building
    them again. ``key`` must name everything ``build`` reads (the ``repr`` of parameter values
    tells JSON types and key orders apart); the engine lists the attributes holding them in
    ``SHARED``.
    """
    full = (id(spec), key)
    hit = _TABLES.get(full)
    if hit is not None and hit[0] is spec:
        return hit[1]  # type: ignore[no-any-return]
    value = build()
    if len(_TABLES) >= _TABLES_MAX:
        _TABLES.clear()
    _TABLES[full] = (spec, value)
    return value


def config_tables(spec: Spec, config: Config, name: str, build: Callable[[], T]) -> T:
    """Return ``build()``, built once per configuration object (``shared_tables`` keyed by it).

    ``make_config`` hands out one Config per spec and request, so every new game of the same
    configuration shares what ``build`` reads from it. The entry keeps its Config alive, so its
    id cannot stand for another one meanwhile.
    """
    entry = shared_tables(spec, (name, id(config)), lambda: (config, build()))
    if entry[0] is not config:  # pragma: no cover - the entry keeps its config alive
        return build()
    return entry[1]


_EQUAL_WEIGHTS: dict[int, tuple[int, ...]] = {}


def equal_weights(count: int) -> tuple[int, ...]:
    """Return ``count`` weights of one, the same tuple every time (for ``chance_weights``: a
    sampler remembers the draw table of a weight tuple by identity)."""
    found = _EQUAL_WEIGHTS.get(count)
    if found is None:
        found = _EQUAL_WEIGHTS[count] = (1,) * count
    return found


def lead_over_others(scores: Sequence[float], player: int, own: float | None = None) -> float:
    """Return ``own`` (by default ``scores[player]``) minus the best score of the other players
    (0 when there are none): the margin the games' heuristics (``rulespec.impact``) score."""
    others = [s for i, s in enumerate(scores) if i != player]
    return float((scores[player] if own is None else own) - (max(others) if others else 0))


def ranking(keys: Sequence[Any], players: Iterable[int] | None = None) -> list[list[int]]:
    """Group players by their key, highest first; players with equal keys share a place.

    ``keys[p]`` is player ``p``'s score (or a tuple of tie-breaks compared in order); only
    ``players`` are ranked (default: everyone). Each place lists its players by seat.
    """
    seats = list(range(len(keys)) if players is None else players)
    levels = sorted({keys[p] for p in seats}, reverse=True)
    return [[p for p in seats if keys[p] == level] for level in levels]
