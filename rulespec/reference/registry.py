"""Find the reference engine of a game from its spec, and check the two agree."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from types import ModuleType
from typing import Any

from rulespec.reference.core import ConfigError, Engine, make_config
from rulespec.spec.errors import Problem
from rulespec.spec.model import Spec
from rulespec.spec.registry import UntrustedModule, get_spec, trusted_reference


def reference_module(spec: Spec) -> ModuleType:
    """Import and return the reference module of ``spec``'s game, as its registration names it.

    A spec file is untrusted input: its ``game.reference`` is imported only when it is the module
    the installed distribution registering the game vouches for (``trusted_reference``);
    otherwise ConfigError says why, and nothing is imported.
    """
    try:
        name = trusted_reference(spec)
    except UntrustedModule as exc:
        raise ConfigError(str(exc)) from None
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ConfigError(f"{spec.path}: reference module {name!r} cannot be imported: "
                          f"{exc}; reinstall the distribution that registers "
                          f"{spec.game_id!r}") from None


def engine_class(spec: Spec) -> type[Engine]:
    """Import the spec's reference module (as its game's registration names it) and return its
    ENGINE class."""
    module = reference_module(spec)
    name = module.__name__
    engine = getattr(module, "ENGINE", None)
    if not (isinstance(engine, type) and issubclass(engine, Engine)):
        raise ConfigError(f"{name} has no ENGINE class derived from rulespec.reference.core.Engine")
    return engine


def new_game(
    game_id: str,
    *,
    players: int | None = None,
    rulings: Mapping[str, str] | None = None,
    variants: Sequence[str] = (),
    parameters: Mapping[str, Any] | None = None,
) -> Engine:
    """Start a new game of ``game_id`` with the reference engine."""
    spec = get_spec(game_id)
    config = make_config(spec, players=players, rulings=rulings, variants=variants,
                         parameters=parameters)
    return engine_class(spec)(spec, config)


def check_implementation(spec: Spec) -> list[Problem]:
    """Check every behaviour option and variant of the spec is implemented, and no more."""
    problems: list[Problem] = []
    try:
        engine = engine_class(spec)
    except ConfigError as exc:
        return [spec.marks.problem(("game", "reference"), str(exc))]
    implemented = {amb: set(opts) for amb, opts in engine.RULINGS.items()}
    for i, amb in enumerate(spec.section("ambiguities")):
        aid = str(amb["id"])
        have = implemented.pop(aid, set())
        for j, opt in enumerate(amb["options"]):
            if opt.get("behaviour") and opt["id"] not in have:
                problems.append(spec.marks.problem(
                    ("ambiguities", i, "options", j),
                    f"option {opt['id']!r} of {aid} is marked behaviour but "
                    f"{spec.reference_module}.ENGINE.RULINGS does not implement it; implement it "
                    "or describe it with parameter overrides"))
            have.discard(str(opt["id"]))
        for extra in sorted(have):
            problems.append(spec.marks.problem(
                ("ambiguities", i, "options"),
                f"{spec.reference_module} implements option {extra!r} of {aid}, which the spec "
                "does not list; add it to the options or remove it from RULINGS"))
    for aid in sorted(implemented):
        problems.append(spec.marks.problem(
            ("ambiguities",), f"{spec.reference_module} implements ambiguity {aid!r}, which the "
            "spec does not register; add the record or remove it from RULINGS"))
    declared = {str(v["id"]) for v in spec.section("variants") if v.get("behaviour")}
    for missing in sorted(declared - engine.VARIANTS):
        problems.append(spec.marks.problem(
            ("variants",), f"variant {missing!r} is marked behaviour but "
            f"{spec.reference_module}.ENGINE.VARIANTS does not implement it"))
    for extra in sorted(engine.VARIANTS - declared):
        problems.append(spec.marks.problem(
            ("variants",), f"{spec.reference_module} implements variant {extra!r}, which the spec "
            "does not mark as behaviour"))
    if engine.rule_rejection is Engine.rule_rejection and engine.rejection is Engine.rejection:
        problems.append(spec.marks.problem(
            ("game", "reference"), f"{spec.reference_module}.ENGINE says nothing about illegal "
            "actions; define rule_rejection(action), which returns the Rejection (reason and "
            "clauses) for a well-formed action that is not legal now"))
    return problems
