"""What the kit was asked to check, what it may send an engine, and how it names a configuration.

**Scope.** The options that narrow a run (``-n``, ``--ruling``, ``--variant``, ``--param``) apply
to every stage alike: the configurations played, the rule examples and the golden traces. A rule
example or golden trace outside them is left out and counted, never played.

**The contract.** The kit sends an engine only what its hello declares: a player count it lists
(every count of the spec when it lists none), a ruling option it lists (any option of a record
it does not list), a variant it lists, and a parameter override only for a parameter it lists,
within its range. What needs anything else is skipped and counted (``Hello.supports`` says why).
When an engine still refuses a configuration, ``refusal`` says what was refused and why the kit
sent it.

**Releases before hello's ``parameters``.** The ``parameters`` key of ``hello`` came on
``PARAMETERS_IN_HELLO``; until then the kit sent rule examples their parameter overrides
whatever the engine declared. An engine that declares a release from before that date, and no
``parameters``, was written under that contract: it is sent the rule examples' overrides still
(``legacy_parameters`` says why), and nothing else (``--param`` asks it to declare them).

**Labels.** A configuration is named once, short, by what differs from the spec's defaults:
``fool p7, defaults except FOOL-AMB-03=eight-only``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from rulespec.conformance.engine.protocol import Hello
from rulespec.exitcodes import EXIT_USAGE
from rulespec.reference.core import Config
from rulespec.releases.implementers import (
    PARAMETERS_IN_HELLO,
    migration,
    predates_parameters,
    releases_listed,
)
from rulespec.releases.store import UnknownRelease, parse_version, release_spec
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec


def legacy_parameters(spec: Spec, hello: Hello | None, version: str) -> str | None:
    """Say why an engine is sent the rule examples' parameter overrides although its hello
    declares no parameters: it checks as ``version`` of ``spec``'s game, a release dated before
    hello had ``parameters``. None when it declares ``parameters`` (even ``{}``) or its release is
    later (then it is sent only what it declares)."""
    if hello is None or "parameters" in (hello.games.get(spec.game_id) or {}):
        return None
    date = predates_parameters(spec, version)
    if date is None:
        return None
    return (f"the engine is checked as {spec.game_id} {version} ({date}), a release from before "
            f"hello could declare parameters ({PARAMETERS_IN_HELLO}), and declares none: rule "
            "examples are sent their parameter overrides, as the kit of its release did; declare "
            "`parameters` in hello to be sent only those")


@dataclass(frozen=True)
class Scope:
    """The configurations a run was asked for; an empty field asks for anything declared."""

    players: frozenset[int] = frozenset()
    rulings: Mapping[str, str] = field(default_factory=dict)
    #: The variants asked for (None: not asked, any the engine declares).
    variants: tuple[str, ...] | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, configs: Sequence[Mapping[str, Any]]) -> Scope:
        """Return the scope a list of configurations was built for: their player counts, and
        the rulings, variants and parameters they all share."""
        if not configs:
            return cls()
        rulings = _common(dict(c.get("rulings") or {}) for c in configs)
        parameters = _common(dict(c.get("parameters") or {}) for c in configs)
        variants = {tuple(sorted(c.get("variants") or ())) for c in configs}
        asked = next(iter(variants)) if len(variants) == 1 else ()
        return cls(frozenset(int(c["players"]) for c in configs if "players" in c), rulings,
                   asked or None, parameters)

    def outside(self, config: Config) -> str | None:
        """Say what puts ``config`` outside the scope asked (None: it is inside)."""
        if self.players and config.players not in self.players:
            return f"{config.players} players"
        for amb, opt in sorted(self.rulings.items()):
            if config.rulings.get(amb) != opt:
                return f"{amb}={config.rulings.get(amb)}"
        if self.variants is not None and sorted(config.variants) != sorted(self.variants):
            return "variants " + (", ".join(config.variants) or "none")
        for name, value in sorted(self.parameters.items()):
            if _json(config.parameters.get(name)) != _json(value):
                return f"{name}={_json(config.parameters.get(name))}"
        return None

    def text(self) -> str:
        """Say the scope asked in words (``4 players, FOOL-AMB-03=eight-only``)."""
        parts = []
        if self.players:
            parts.append(", ".join(str(n) for n in sorted(self.players)) + " players")
        parts += [f"{a}={o}" for a, o in sorted(self.rulings.items())]
        if self.variants is not None:
            parts.append("variants " + (", ".join(self.variants) or "none"))
        parts += [f"{k}={_json(v)}" for k, v in sorted(self.parameters.items())]
        return ", ".join(parts) or "everything declared"

    def to_json(self) -> dict[str, Any]:
        """Return the scope as JSON (the report's ``scope``)."""
        return {"players": sorted(self.players), "rulings": dict(sorted(self.rulings.items())),
                "variants": None if self.variants is None else list(self.variants),
                "parameters": dict(sorted(self.parameters.items()))}


def _common(dicts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    items: list[dict[str, Any]] = list(dicts)
    first = items[0]
    return {k: v for k, v in first.items() if all(k in d and _json(d[k]) == _json(v)
                                                  for d in items[1:])}


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def hello_additions(game: str, undeclared: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return the ``hello`` lines that would let the rule examples left out as undeclared run:
    one line per key of ``games.GAME`` (its whole new value), and how many examples need it.

    Each entry's ``wants`` is what ``_wants`` wrote; entries without one (an older report) are
    left out.
    """
    rulings: dict[str, list[str]] = {}
    variants: list[str] = []
    players: list[int] = []
    declared: dict[str, Any] = {}
    values: dict[str, list[Any]] = {}
    counts = {"rulings": 0, "variants": 0, "players": 0, "parameters": 0}
    for entry in undeclared:
        if not entry.get("wants"):
            continue
        wants = json.loads(str(entry["wants"]))
        for key in wants:
            counts[key] += 1
        for amb, options in (wants.get("rulings") or {}).items():
            have = rulings.setdefault(amb, [])
            have.extend(o for o in options if o not in have)
        variants.extend(v for v in wants.get("variants") or () if v not in variants)
        players.extend(n for n in wants.get("players") or () if n not in players)
        if "parameters" in wants:
            declared.update(wants["parameters"]["declared"])
            for name, value in wants["parameters"]["values"].items():
                values.setdefault(name, []).append(value)
    lines = []
    if rulings:
        body = ", ".join(f"{json.dumps(a)}: {json.dumps(o)}" for a, o in sorted(rulings.items()))
        lines.append((f'"rulings": {{..., {body}}}', counts["rulings"]))
    if variants:
        lines.append((f'"variants": {json.dumps(variants)}', counts["variants"]))
    if players:
        lines.append((f'"players": {json.dumps(sorted(players))}', counts["players"]))
    if values:
        params = {**declared}
        for name, seen in sorted(values.items()):
            params[name] = _widened(params.get(name), seen)
        lines.append((f'"parameters": {json.dumps(params, sort_keys=True)}',
                      counts["parameters"]))
    return [f"{line}  (needed by {n} example{'s' if n != 1 else ''})" for line, n in lines]


def _widened(declared: Mapping[str, Any] | None, seen: Sequence[Any]) -> dict[str, Any]:
    """Return a parameter's declaration widened to the values ``seen``: a range for integers
    (from what is declared, if anything), else a list of values."""
    base = dict(declared or {})
    if all(isinstance(v, int) and not isinstance(v, bool) for v in seen) and "values" not in base:
        low = min([*seen, *([base["minimum"]] if "minimum" in base else [])])
        high = max([*seen, *([base["maximum"]] if "maximum" in base else [])])
        return {"minimum": low, "maximum": high}
    listed = list(base.get("values") or [])
    listed.extend(v for v in seen if _json(v) not in {_json(x) for x in listed})
    return {"values": listed}


def hello_wants(spec: Spec, hello: Hello, config: Mapping[str, Any], *, legacy: bool = False) -> str:
    """Return (as JSON text) what ``hello`` would have to declare for ``config``: each
    ``hello`` key with its whole new value (what it declares, and what is missing); no
    parameters when they are sent anyway (``legacy``)."""
    info = hello.games.get(spec.game_id) or {}
    wants: dict[str, Any] = {}
    declared = info.get("rulings") or {}
    rulings = {amb: [*declared[amb], opt] for amb, opt in sorted(config["rulings"].items())
               if amb in declared and opt not in declared[amb]}
    if rulings:
        wants["rulings"] = rulings
    variants = [v for v in config["variants"] if v not in (info.get("variants") or [])]
    if variants:
        wants["variants"] = [*(info.get("variants") or []), *variants]
    counts = info.get("players")
    if counts is not None and config["players"] not in counts:
        wants["players"] = [*counts, config["players"]]
    params = {name: value for name, value in sorted(config["parameters"].items())
              if not legacy and hello.supports(spec.game_id, {}, [], parameters={name: value})}
    if params:
        wants["parameters"] = {"declared": info.get("parameters") or {}, "values": params}
    return json.dumps(wants, sort_keys=True)

class NotDeclared(RulespecError):
    """The run asks (``--ruling``, ``--variant``, ``--param``) for what the engine's hello does
    not declare: nothing could be checked under it, so it is a usage error."""

    exit_code = EXIT_USAGE


def asked_undeclared(spec: Spec, hello: Hello, scope: Scope,
                     newer: Callable[[Mapping[str, Any]], str | None] | None = None) -> str | None:
    """Say what of the scope asked the engine behind ``hello`` does not declare, and the
    ``hello`` lines that would let it be checked (None: it declares all of it). ``newer``
    (``VersionView.newer``) says what came after the release the engine is checked as."""
    rulings, variants = dict(scope.rulings), list(scope.variants or ())
    counts = (hello.games.get(spec.game_id) or {}).get("players") or [spec.min_players]
    config: dict[str, Any] = {"game": spec.game_id, "players": counts[0],
                              "rulings": rulings, "variants": variants,
                              "parameters": dict(scope.parameters)}
    problems = hello.supports(spec.game_id, rulings, variants, parameters=scope.parameters)
    later = newer(config) if newer is not None else None
    if later:
        problems = [later, *problems]
    if not problems:
        return None
    asked = ", ".join([*(f"--ruling {a}={o}" for a, o in sorted(scope.rulings.items())),
                       *(f"--variant {v}" for v in scope.variants or ()),
                       *(f"--param {k}={_json(v)}" for k, v in sorted(scope.parameters.items()))])
    lines = hello_additions(spec.game_id, [{"wants": hello_wants(spec, hello, config)}])
    out = (f"{asked}: the engine's hello does not declare it ({'; '.join(problems)}), so "
           "nothing could be checked under it")
    if lines:
        out += (f". To check it, declare in hello's games.{spec.game_id} (each key's whole "
                "value; \"...\" is what it declares now): " + "; ".join(
                    line.rsplit("  (needed by", 1)[0] for line in lines))
    if later:
        out += (". What came after the release the engine is checked as needs that release "
                "declared (spec_version) and implemented: `rulespec diff GAME@OLD GAME@NEW "
                "--for-implementers` lists it")
    return out + "; or leave the option out"


def needs(problem: str) -> str:
    """Return what a ``Hello.supports`` sentence says is missing, short: ``parameter
    card_counts``, ``OURO-AMB-03=owner``, ``variant hard-week``, ``5 players``."""
    found = re.match(r"(?:ruling )?(\S+=\S+) is not supported", problem)
    if found:
        return found.group(1)
    found = re.match(r"parameter (\S+?)(?:=\S+)? is", problem)
    if found:
        return f"parameter {found.group(1)}"
    found = re.match(r"variant '?([^' ]+)'? is not supported", problem)
    if found:
        return f"variant {found.group(1)}"
    found = re.search(r", not (\d+)$", problem)
    if found:
        return f"{found.group(1)} players"
    return problem


def label(spec: Spec, config: Mapping[str, Any]) -> str:
    """Name a configuration by what differs from the spec's defaults (``fool p7, defaults
    except FOOL-AMB-03=eight-only``); rulings left out of the configuration are defaults."""
    if not config or "players" not in config:
        return f"{spec.game_id} (no configuration: the engine failed before any game)"
    defaults = spec.default_rulings()
    changed = [f"{a}={o}" for a, o in sorted(dict(config.get("rulings") or {}).items())
               if defaults.get(a) != o]
    changed += [f"variant {v}" for v in config.get("variants") or ()]
    changed += [f"{k}={_json(v)}" for k, v in sorted(dict(config.get("parameters") or {}).items())]
    head = f"{spec.game_id} p{config['players']}"
    return f"{head}, defaults" + (f" except {', '.join(changed)}" if changed else "")


def sent_because(spec: Spec, hello: Hello | None, config: Mapping[str, Any]) -> str:
    """Say why the kit could send ``config``: what the engine's hello declares for each part of
    it that is not a default (and for the player count)."""
    if hello is None:
        return "the engine's hello was not read"
    info = hello.games.get(spec.game_id) or {}
    counts = info.get("players")
    n = config.get("players")
    parts = [f"{n} players (hello " + (f"declares {', '.join(map(str, counts))})" if counts
                                         else "declares no player counts: every count)")]
    defaults = spec.default_rulings()
    declared = info.get("rulings") or {}
    for amb, opt in sorted(dict(config.get("rulings") or {}).items()):
        if opt == defaults.get(amb):
            continue
        parts.append(f"{amb}={opt} (hello " + (f"declares {', '.join(declared[amb])})"
                                               if amb in declared
                                               else f"does not list {amb}: any option)"))
    parts += [f"variant {v} (hello declares it)" for v in config.get("variants") or ()]
    if len(parts) == 1:
        parts.append("every ruling at its default")
    params = info.get("parameters") or {}
    for name, value in sorted(dict(config.get("parameters") or {}).items()):
        parts.append(f"parameter {name}={_json(value)} (hello declares {name}"
                     + (f" {_range(params[name])})" if name in params else ")"))
    return "; ".join(parts)


def _range(declared: Mapping[str, Any]) -> str:
    if "values" in declared:
        return "among " + _json(declared["values"])
    if "minimum" in declared or "maximum" in declared:
        return f"{declared.get('minimum', '')}..{declared.get('maximum', '')}"
    return "with any value"


def refusal(spec: Spec, hello: Hello | None, config: Mapping[str, Any], engine_says: str,
            why_sent: str) -> str:
    """Return the message of a configuration the engine refused in ``start``: what was refused,
    what the engine said, and why the kit sent it (``why_sent``: which stage needed it)."""
    return (f"the engine refused to start {label(spec, config)}: {engine_says}; the kit sent it "
            f"for {why_sent}, as the engine's hello declares: {sent_because(spec, hello, config)}"
            + claimed_mismatch(spec, hello, config, engine_says))


def claimed_mismatch(spec: Spec, hello: Hello | None, config: Mapping[str, Any],
                     engine_says: str) -> str:
    """Say, when the engine refused a record its hello does not list and that came after the
    newest release whose records its hello does list, that it claims a release its hello does
    not match: what was added since (records, options, parameters) and the lines to add.
    Empty otherwise."""
    info = (hello.games.get(spec.game_id) or {}) if hello is not None else {}
    claimed = info.get("spec_version")
    listed = sorted(info.get("rulings") or {})
    unlisted = [a for a in sorted(dict(config.get("rulings") or {})) if a not in listed]
    if not isinstance(claimed, str) or not listed or not any(a in engine_says for a in unlisted):
        return ""
    params = tuple(sorted(info.get("parameters") or {}))
    return _mismatch_text(spec.game_id, claimed, tuple(listed), params)


@lru_cache(maxsize=64)
def _mismatch_text(game: str, claimed: str, listed: tuple[str, ...],
                   params: tuple[str, ...]) -> str:
    from rulespec.spec.registry import get_spec

    spec = get_spec(game)
    matched = releases_listed(spec, listed)
    try:
        if matched is None or parse_version(matched) >= parse_version(claimed):
            return ""
        new = spec if claimed == spec.version else release_spec(game, claimed)
        moved = migration(release_spec(game, matched), new)
    except (UnknownRelease, ValueError):
        return ""
    moved = replace(moved, undeclared_before={k: v for k, v in moved.undeclared_before.items()
                                              if k not in params})
    added = [f"{a.kind} {a.id} (since {a.since})" for a in moved.added]
    if not added:
        return ""
    return (f". The engine's hello claims {game} {claimed} but lists the records of {matched}; "
            f"added since {matched}: {', '.join(added)}. To claim {claimed}, declare in hello's "
            f"games.{game} (\"...\" is what it declares now): "
            + "; ".join(moved.hello_lines()[1:]) + " and accept them in start, or declare "
            f"spec_version {matched} (`rulespec diff {game}@{matched} {game}@{claimed} "
            "--for-implementers`)")
