"""Decision points: where a reference engine plays a reading the rulebook does not fix.

Every branch of a reference engine on a ruling asks the core (``Engine.ruling``, ``decide``,
``reached``), which counts it. This module checks both halves of "no silent rulings":

- ``static_problems`` reads a game module's source (AST) and refuses a ruling read that does
  not go through a decision point, an ambiguity no decision point names, and an option name a
  decision point tests that the ambiguity does not have;
- ``sweep`` plays random games under a set of configurations and adds up the counts, so that a
  test can name the records never reached in play (dead records).

The counts are also what an impact study reads as a ruling's trigger rate.
"""

from __future__ import annotations

import ast
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulespec.reference.core import Config, make_config
from rulespec.reference.play import playout
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec

#: The engine methods that are decision points (they count).
DECISION_METHODS = frozenset({"ruling", "decide", "reached"})
#: Engine methods that read a ruling without counting (narration, set-up checks only).
PEEK_METHODS = frozenset({"ruled"})
#: Statuses whose records are not questions of play (no decision point is needed).
CLOSED_STATUSES = frozenset({"rejected", "duplicate"})


def live_ambiguities(spec: Spec) -> dict[str, Mapping[str, Any]]:
    """Return the records that need a decision point: every one not rejected or a duplicate."""
    return {aid: amb for aid, amb in spec.ambiguities.items()
            if amb.get("status") not in CLOSED_STATUSES}


# -- the static check -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionCall:
    """One decision point in a module's source."""

    method: str
    ambiguity: str
    option: str | None
    line: int


@dataclass
class _Scan:
    calls: list[DecisionCall] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _constants(tree: ast.Module) -> dict[str, str]:
    """Return the module-level names bound to string constants (``AMB_X = "GAME-AMB-01"``)."""
    out: dict[str, str] = {}
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
            out[node.targets[0].id] = node.value.value
    return out


def _literal(node: ast.expr, constants: Mapping[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def scan_source(source: str, filename: str = "<game>") -> tuple[list[DecisionCall], list[str]]:
    """Return the decision points of a game module and its ruling reads that bypass them."""
    tree = ast.parse(source, filename)
    constants = _constants(tree)
    scan = _Scan()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in ("rulings", "_rulings"):
            scan.problems.append(f"{filename}:{node.lineno}: reads .{node.attr} directly; ask "
                                 "the core with self.ruling(AMB) or self.decide(AMB, OPTION) at "
                                 "the point of decision")
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        if method not in DECISION_METHODS | PEEK_METHODS:
            continue
        owner = node.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "self"):
            scan.problems.append(f"{filename}:{node.lineno}: .{method}(...) is called on "
                                 f"{ast.unparse(owner)!r}, not on the engine; use "
                                 f"self.{method}(...) so the decision point is counted")
            continue
        if not node.args:
            continue
        amb = _literal(node.args[0], constants)
        if amb is None:
            scan.problems.append(f"{filename}:{node.lineno}: self.{method}() needs the ambiguity "
                                 "id as a string or a module constant, so that the check can "
                                 f"see it; got {ast.unparse(node.args[0])!r}")
            continue
        option = _literal(node.args[1], constants) if len(node.args) > 1 else None
        if method in DECISION_METHODS:
            scan.calls.append(DecisionCall(method, amb, option, node.lineno))
    return scan.calls, scan.problems


def static_problems(spec: Spec, source: str | None = None) -> list[str]:
    """Check a game module's decision points against its spec's register; [] when clean."""
    if source is None:
        source = module_path(spec).read_text(encoding="utf-8")
    filename = spec.reference_module
    calls, problems = scan_source(source, filename)
    register = spec.ambiguities
    live = live_ambiguities(spec)
    behaviour = engine_class(spec).RULINGS
    seen: dict[str, set[str]] = {}
    for call in calls:
        amb = register.get(call.ambiguity)
        if amb is None:
            problems.append(f"{filename}:{call.line}: {call.ambiguity!r} is not an ambiguity of "
                            f"{spec.game_id}; register it or fix the id")
            continue
        seen.setdefault(call.ambiguity, set()).add(call.method)
        options = {str(o["id"]) for o in amb["options"]}
        if call.option is not None and call.option not in options:
            problems.append(f"{filename}:{call.line}: {call.ambiguity} has no option "
                            f"{call.option!r}; options: {', '.join(sorted(options))}")
        if call.method == "reached" and call.ambiguity in behaviour:
            problems.append(f"{filename}:{call.line}: {call.ambiguity} has behaviour options; "
                            "branch on it with self.ruling or self.decide, not self.reached")
    for aid in sorted(set(live) - set(seen)):
        how = "self.ruling/self.decide" if aid in behaviour else "self.reached"
        problems.append(f"{filename}: no decision point for {aid}; call {how}({aid!r}) where "
                        "the engine plays the reading the record rules")
    return problems


def module_path(spec: Spec) -> Path:
    """Return the source file of the spec's reference module."""
    import importlib

    module = importlib.import_module(spec.reference_module)
    if module.__file__ is None:  # pragma: no cover - namespace packages only
        raise FileNotFoundError(spec.reference_module)
    return Path(module.__file__)


# -- reaching them in play ------------------------------------------------------------------------


def sweep_configs(spec: Spec, players: Iterable[int]) -> Iterator[Config]:
    """Yield the configurations a sweep plays: per player count, the defaults, each option of
    each ambiguity on its own, and each variant on its own (variants that need a parameter
    are given it by their ``settable`` parameters' defaults and skipped when that is refused)."""
    from rulespec.reference.core import ConfigError

    for n in players:
        yield make_config(spec, players=n)
        for aid, amb in spec.ambiguities.items():
            default = amb["default"]["option"]
            for opt in amb["options"]:
                if opt["id"] != default:
                    yield make_config(spec, players=n, rulings={aid: str(opt["id"])})
        for vid in spec.variants:
            try:
                config = make_config(spec, players=n, variants=[vid])
                engine_class(spec)(spec, config)
            except ConfigError:
                continue  # needs a parameter only the player can choose (a shorter game)
            yield config


def sweep(spec: Spec, configs: Iterable[Config], *, games: int, seed: int = 0) -> Counter[str]:
    """Play ``games`` random games under each configuration; return the summed decision counts."""
    engine_type = engine_class(spec)
    rng = random.Random(seed)
    total: Counter[str] = Counter(dict.fromkeys(spec.ambiguities, 0))
    for config in configs:
        for _ in range(games):
            engine = engine_type(spec, config)
            for _step in playout(engine, rng):
                pass
            total.update(engine.decisions)
    return total


def dead_records(spec: Spec, counts: Mapping[str, int]) -> list[str]:
    """Return the live ambiguities no decision point reached in ``counts``."""
    return sorted(aid for aid in live_ambiguities(spec) if not counts.get(aid))


# -- for a game's own tests (public through rulespec.reference) -----------------------------------


def decision_point_problems(spec: Spec) -> list[str]:
    """Return what breaks the decision-point policy in the reference module of ``spec``: a
    ruling read from the configuration, an option or record that does not exist, a live record
    with no decision point; [] when clean."""
    return static_problems(spec)


def unreached_records(spec: Spec, *, players: Iterable[int] | None = None, games: int = 3,
                      seed: int = 0) -> list[str]:
    """Return the live records that random games under every option of every record (and every
    variant) never reach: ``games`` games per configuration, at ``players`` (default: the least
    and the most players)."""
    counts = [spec.min_players, spec.max_players] if players is None else list(players)
    return dead_records(spec, sweep(spec, sweep_configs(spec, counts), games=games, seed=seed))
