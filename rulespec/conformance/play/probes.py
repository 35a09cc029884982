"""Illegal actions the kit tries on an engine, each with the rule or schema it breaks.

Probes come in families, so every family is tried often whatever its size: an action legal
earlier but not now, a value out of the range the legal actions take (a die face 9 on a six-sided
die), a key the action's schema does not allow, a field of the wrong JSON type, a missing field,
and a kind no spec declares. After the game is over every action is illegal; the driver probes
that too (``after_end``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, overload

import jsonschema

from rulespec.conformance.judging.verdicts import fast_key
from rulespec.reference.core import Action, Rejection
from rulespec.spec.model import Spec

#: An action kind no spec declares.
BOGUS_KIND = "__not_an_action__"
#: A key no action schema declares.
EXTRA_KEY = "x_unexpected"


#: The family of the actions legal earlier in the game, and what they break.
_WRONG_TIME = ("wrong time", "it was legal earlier in this game but is not now")

#: A family of probes as built: its name, its actions, and what its i-th action breaks, in
#: words (worded only for the probe sent).
_Family = tuple[str, list[Action], Callable[[int], str]]


@dataclass(frozen=True)
class Probe:
    """An action the rules forbid now, and the rule or schema it breaks, in words."""

    action: Any
    family: str
    breaks: str


def _jkey(value: Any) -> str:
    """Return a type-strict key (``true`` is not ``1``, ``1.5`` is not ``1``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _part(value: Any) -> Any:
    """Return a hashable, type-strict key of one JSON value (equal iff their JSON is equal)."""
    if isinstance(value, str):
        return value if type(value) is str else str.__str__(value)
    if isinstance(value, bool):
        return (value,)  # a 1-tuple: never equal to the ("i", n) of an integer
    if isinstance(value, int):
        return ("i", int(value))
    if isinstance(value, float):
        return ("f", float.__repr__(value))
    if value is None:
        return None
    return ("j", _jkey(value))


def strict_key(value: Any) -> Any:
    """Return a type-strict key of an action, as ``_jkey`` compares them but cheaper.

    Two actions get equal keys exactly when their canonical JSON is equal: an object with
    string keys becomes a sorted tuple of (key, typed value) pairs; anything else its JSON.
    """
    if isinstance(value, dict) and all(type(k) is str for k in value):
        return tuple(sorted((k, _part(v)) for k, v in value.items()))
    return ("j", _jkey(value))


def wrong_types(value: Any) -> list[Any]:
    """Return values of other JSON types than ``value`` (never a bool for a number or back)."""
    if isinstance(value, bool):
        return [str(value).lower(), None, [value]]
    if isinstance(value, int):
        return [str(value), None, [value], {"value": value}, value + 0.5]
    if isinstance(value, str):
        return [len(value), None, [value], {"value": value}]
    if value is None:
        return ["null", [None]]
    return ["x", 7]


def out_of_range(values: Sequence[Any], schema: Mapping[str, Any]) -> list[Any]:
    """Return integers outside the range ``values`` take (and outside the schema's bounds)."""
    ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    if not ints:
        strs = [v for v in values if isinstance(v, str)]
        return ["no-such-" + strs[0]] if strs else []
    lo, hi = min(ints), max(ints)
    out = [hi + 1, hi + 3, lo - 1, -1]
    for bound, step in (("maximum", 1), ("minimum", -1)):
        if isinstance(schema.get(bound), int):
            out.append(schema[bound] + step)
    seen = set(ints)
    return list(dict.fromkeys(v for v in out if v not in seen))


class ProbeMaker:
    """Build the probes of one game from its action schemas."""

    def __init__(self, spec: Spec) -> None:
        self.params: dict[str, Mapping[str, Any]] = {
            str(a["id"]): a.get("params") or {} for a in spec.section("actions")}
        self._validators = {k: jsonschema.Draft202012Validator(dict(v))
                            for k, v in self.params.items()}

    def _schema_says(self, action: Mapping[str, Any]) -> str | None:
        """Return why ``action`` breaks its kind's params schema (None if it does not)."""
        validator = self._validators.get(str(action.get("kind")))
        if validator is None or validator.is_valid(action):
            return None
        err = min(validator.iter_errors(action), key=lambda e: len(list(e.absolute_path)))
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        return (f"it breaks the spec's params schema of action {action.get('kind')!r} at "
                f"{where}: {err.message[:160]}")

    def families(self, legal: Sequence[Action], earlier: Sequence[Action],
                 template: Action | None) -> list[list[Probe]]:
        """Return the probes now, by family; none is a legal action (compared type-strictly).

        ``earlier`` are actions seen in this game that are not legal now; ``template`` is the
        legal action the value, key and type probes are made from.
        """
        legal_keys = {strict_key(a) for a in legal}
        return [[p for p in fam if strict_key(p.action) not in legal_keys]
                for fam in self._unfiltered(legal, earlier, template)]

    def pick(self, legal: Sequence[Action], earlier: Sequence[Action], template: Action | None,
             choose: Callable[[int], int], at: int) -> Probe | None:
        """Return the probe ``families(...)[choose(len)][at % len(family)]`` stands for.

        Only the chosen family is built and compared with the legal actions (whether a family
        is empty does not depend on that comparison), so a probe costs the size of one family,
        not of all. None when every member of the chosen family is legal after all.
        """
        menu = self._menu(legal, (lambda: earlier) if earlier else None, template,
                          checked=False)
        return menu.take(choose(len(menu)), at)

    def pick_from_pool(self, legal: Sequence[Action],
                       pool: ActionPool | Mapping[Any, Action], template: Action | None,
                       choose: Callable[[int], int], at: int) -> Probe | None:
        """Return what ``pick`` returns for the actions of ``pool`` not legal now."""
        menu = self.menu(legal, pool, template)
        return menu.take(choose(len(menu)), at)

    def menu(self, legal: Sequence[Action], pool: ActionPool | Mapping[Any, Action],
             template: Action | None) -> ProbeMenu:
        """Return the families open now, to choose from, for the actions of ``pool`` not legal
        now (``pick_from_pool`` is ``menu.take(choose(len(menu)), at)``).

        ``pool`` holds the actions seen earlier in the game (an ``ActionPool``, or a mapping
        from ``fast_key(action)`` to the action, in the order seen). The actions legal earlier
        are found only when their family is the one chosen; an action whose fast key is not a
        legal action's is never strictly equal to one (equal JSON means equal items), so that
        family needs no other comparison.
        """
        if not isinstance(pool, ActionPool):
            pool = ActionPool.of(pool)
        if not pool:
            return self._menu(legal, None, template, checked=True)
        if len(pool) > len(legal):  # some of them cannot be legal: found only if chosen
            return self._menu(legal, lambda: pool.not_legal(legal), template, checked=True)
        earlier = pool.not_legal(legal)
        return self._menu(legal, (lambda: earlier) if earlier else None, template, checked=True)

    def _menu(self, legal: Sequence[Action], earlier: Callable[[], Sequence[Action]] | None,
              template: Action | None, *, checked: bool) -> ProbeMenu:
        """Return the non-empty families (in ``_unfiltered``'s order), none built yet.
        ``checked``: the earlier actions are known not to be legal."""
        makers: list[Callable[[], _Family] | None] = [None] if earlier is not None else []
        if template is not None:
            makers.extend(self._template_makers(template, legal))
        makers.append(_bogus)
        return ProbeMenu(legal, makers, earlier, checked)

    @staticmethod
    def _earlier(actions: Sequence[Action]) -> list[Probe]:
        return [Probe(a, *_WRONG_TIME) for a in actions]

    def _unfiltered(self, legal: Sequence[Action], earlier: Sequence[Action],
                    template: Action | None) -> list[list[Probe]]:
        """Return the non-empty families before the legal actions are taken out."""
        out: list[list[Probe]] = [self._earlier(earlier)]
        built = ([make() for make in self._template_makers(template, legal)]
                 if template is not None else [])
        for name, members, breaks in [*built, _bogus()]:
            out.append([Probe(a, name, breaks(i)) for i, a in enumerate(members)])
        return [fam for fam in out if fam]

    def _template_makers(self, template: Action,
                         legal: Sequence[Action]) -> list[Callable[[], _Family]]:
        """Return the builders of the non-empty families made from ``template``, in order:
        out-of-range values, the extra key, wrong JSON types, missing keys."""
        kind = str(template.get("kind"))
        fields = [f for f in template if f != "kind"]

        def same() -> list[Action]:
            return [a for a in legal if a.get("kind") == kind]

        def schema(f: str) -> Mapping[str, Any]:
            props = self.params.get(kind, {}).get("properties", {})
            return props.get(f, {}) if isinstance(props, Mapping) else {}

        def values() -> _Family:
            alike = same()
            changes = [(f, v) for f in fields
                       for v in out_of_range([a.get(f) for a in alike], schema(f))]
            return ("out-of-range value", [{**template, f: v} for f, v in changes],
                    lambda i: f"no legal {kind} now has {changes[i][0]} = {changes[i][1]!r}")

        def extra() -> _Family:
            return ("extra key", [{**template, EXTRA_KEY: 0}],
                    lambda _i: f"a {kind} has no key {EXTRA_KEY!r}")

        def types() -> _Family:
            changes = [(f, v) for f in fields for v in wrong_types(template[f])]

            def breaks(i: int) -> str:
                f, v = changes[i]
                return f"{f} must be a {type(template[f]).__name__}-typed JSON value, not {v!r}"

            return "wrong JSON type", [{**template, f: v} for f, v in changes], breaks

        def missing() -> _Family:
            return ("missing key",
                    [{k: v for k, v in template.items() if k != f} for f in fields],
                    lambda i: f"a {kind} needs its {fields[i]!r}")

        makers: list[Callable[[], _Family]] = []
        # When the template is one of the legal actions (the kit's is), its own values decide
        # at once in the usual case, without going through the others (identities compared
        # in C).
        ranged = has_range(template[f] for f in fields) and id(template) in map(id, legal)
        if not ranged:
            alike = same()
            ranged = any(has_range(a.get(f) for a in alike) for f in fields)
        if ranged:
            makers.append(values)
        makers.append(extra)
        if fields:  # wrong_types gives every value at least two others
            makers.extend((types, missing))
        return makers

    def explain(self, probe: Probe, why: Rejection) -> Rejection:
        """Return the reference's rejection with what the probe breaks (its schema, if it does).

        The schema is consulted only for the probe sent, not for every candidate: probes are
        made every few steps.
        """
        schema = (self._schema_says(probe.action)
                  if probe.family not in ("wrong time", "after the end") else None)
        if schema is not None:
            return Rejection(f"{probe.family}: {schema}; the reference says: {why.reason}",
                             why.clauses)
        return Rejection(f"{why.reason} ({probe.family}: {probe.breaks})", why.clauses)


def has_range(values: Iterable[Any]) -> bool:
    """Return True when ``out_of_range`` of these values is not empty (an integer or a string
    among them), without building it."""
    return any(isinstance(v, str) or (isinstance(v, int) and not isinstance(v, bool))
               for v in values)


def _strictly_legal(action: Any, legal: Sequence[Action]) -> bool:
    """Return True when ``action`` is one of ``legal`` compared type-strictly.

    Equal JSON implies Python equality (a NaN aside, which no reference action holds), so the
    list's own membership test, in C, rules out almost every candidate; only a candidate equal
    to a legal action gets the strict keys compared.
    """
    if action not in legal:
        return False
    mine = strict_key(action)
    return any(strict_key(a) == mine for a in legal if a == action)


class ProbeMenu:
    """The probe families open at one step, in order, before one is chosen: its length is the
    number of families; ``take`` builds the chosen one alone."""

    __slots__ = ("_checked", "_earlier", "_legal", "_makers")

    def __init__(self, legal: Sequence[Action], makers: list[Callable[[], _Family] | None],
                 earlier: Callable[[], Sequence[Action]] | None, checked: bool) -> None:
        self._legal = legal
        self._makers = makers
        self._earlier = earlier
        self._checked = checked

    def __len__(self) -> int:
        return len(self._makers)

    def take(self, index: int, at: int) -> Probe | None:
        """Return the ``at``-th member not legal of family ``index`` (None if it has none).

        Only that member is worded: a family's actions are built, not its sentences.
        """
        legal = self._legal
        chosen = self._makers[index]
        if chosen is None:  # the actions legal earlier
            actions = self._earlier() if self._earlier is not None else ()
            if not self._checked:
                actions = [a for a in actions if not _strictly_legal(a, legal)]
            if not actions:
                return None
            return Probe(actions[at % len(actions)], *_WRONG_TIME)
        name, members, breaks = chosen()
        kept = [i for i, a in enumerate(members) if not _strictly_legal(a, legal)]
        if not kept:
            return None
        i = kept[at % len(kept)]
        return Probe(members[i], name, breaks(i))


class ActionPool:
    """The distinct actions seen in one game (by ``fast_key``), in the order first seen.

    The kit offers every action it plays; the probes of the "wrong time" family are the
    pool's actions not legal now (``not_legal``), found in the time of the legal actions, not
    of the pool: a long game's pool is far larger than one step's legal actions.
    """

    __slots__ = ("actions", "index")

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}
        self.actions: list[Action] = []

    @classmethod
    def of(cls, pool: Mapping[Any, Action]) -> ActionPool:
        """Return the pool of a mapping from ``fast_key(action)`` to the action, in its order."""
        made = cls()
        made.index = {key: i for i, key in enumerate(pool)}
        made.actions = list(pool.values())
        return made

    def __len__(self) -> int:
        return len(self.actions)

    def add(self, action: Action) -> None:
        """Add ``action`` unless an action with its ``fast_key`` is in the pool already."""
        key = fast_key(action)
        if key not in self.index:
            self.index[key] = len(self.actions)
            self.actions.append(action)

    def not_legal(self, legal: Sequence[Action]) -> Sequence[Action]:
        """Return the actions of the pool whose ``fast_key`` no legal action has, in order: a
        view of the pool, not a copy (read it before the pool grows)."""
        get = self.index.get
        legal_at = sorted({i for i in map(get, map(fast_key, legal)) if i is not None})
        if not legal_at:
            return self.actions
        return _Without(self.actions, legal_at)


class _Without(Sequence[Action]):
    """``actions`` without the items at the positions ``gone`` (ascending), not copied."""

    __slots__ = ("_actions", "_gone")

    def __init__(self, actions: list[Action], gone: list[int]) -> None:
        self._actions = actions
        self._gone = gone

    def __len__(self) -> int:
        return len(self._actions) - len(self._gone)

    @overload
    def __getitem__(self, at: int) -> Action: ...

    @overload
    def __getitem__(self, at: slice) -> Sequence[Action]: ...

    def __getitem__(self, at: int | slice) -> Action | Sequence[Action]:
        if isinstance(at, slice):
            return list(self)[at]
        size = len(self)
        if not -size <= at < size:
            raise IndexError(at)
        at %= size
        for g in self._gone:  # the position of the at-th remaining action
            if g > at:
                break
            at += 1
        return self._actions[at]

    def __iter__(self) -> Iterator[Action]:
        gone = set(self._gone)
        return (a for i, a in enumerate(self._actions) if i not in gone)


def _bogus() -> _Family:
    return ("unknown kind", [{"kind": BOGUS_KIND}],
            lambda _i: f"no action of the spec has the kind {BOGUS_KIND!r}")


def after_end(last: Action, end_clauses: Sequence[str]) -> tuple[Probe, Rejection]:
    """Return the probe of an action after the game is over, and why it is illegal."""
    probe = Probe(dict(last), "after the end", "the game is over; no action is legal")
    return probe, Rejection("the game is over; no action is legal", tuple(end_clauses))
