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

**Labels.** A configuration is named once, short, by what differs from the spec's defaults:
``fool p7, defaults except FOOL-AMB-03=eight-only``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.conformance.protocol import Hello
from rulespec.reference.core import Config
from rulespec.spec.model import Spec


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
            f"for {why_sent}, as the engine's hello declares: {sent_because(spec, hello, config)}")
