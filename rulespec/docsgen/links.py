"""Where each element of a spec is documented, and which elements rest on each clause."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rulespec.docsgen.markdown import code, rich
from rulespec.spec.model import Spec


def game_dir(spec: Spec) -> str:
    """Return the docs folder of a game's pages (``games/<id>``)."""
    return f"games/{spec.game_id}"


class Links:
    """Where each element of one spec is documented, relative to that game's folder."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.targets: dict[str, str] = {}
        for clause in spec.section("clauses"):
            self.targets[str(clause["id"])] = f"rules.md#{clause['id']}"
        for inv in spec.section("invariants"):
            self.targets[str(inv["id"])] = f"invariants.md#{inv['id']}"
        for amb in spec.section("ambiguities"):
            self.targets[str(amb["id"])] = f"ambiguities.md#{amb['id']}"
        for tab in spec.section("tables"):
            self.targets.setdefault(str(tab["id"]), f"tables.md#table-{tab['id']}")
        for param in spec.section("parameters"):
            self.targets.setdefault(str(param["id"]), f"tables.md#param-{param['id']}")
        for action in spec.section("actions"):
            self.targets.setdefault(str(action["id"]), f"actions.md#action-{action['id']}")
        for variant in spec.section("variants"):
            self.targets.setdefault(str(variant["id"]), f"variants.md#variant-{variant['id']}")
        for step in steps(spec):
            self.targets.setdefault(str(step["id"]), f"rules.md#step-{step['id']}")
        for zone in spec.section("zones"):
            self.targets.setdefault(str(zone["id"]), f"index.md#zone-{zone['id']}")
        for comp in components(spec.section("components")):
            self.targets.setdefault(str(comp["id"]), f"index.md#component-{comp['id']}")

    def to(self, ident: str, *, prefix: str = "") -> str:
        """Return a Markdown link to element ``ident`` (plain code if it is unknown)."""
        target = self.targets.get(ident)
        if target is None:
            return code(ident)
        return f"[{code(ident)}]({prefix}{target})"

    def link(self, ident: str, *, prefix: str = "") -> str | None:
        """Return a Markdown link to element ``ident``, or None if the spec has no such id."""
        target = self.targets.get(ident)
        return None if target is None else f"[{code(ident)}]({prefix}{target})"

    def prose(self, value: object, *, prefix: str = "") -> str:
        """Return prose as inline Markdown with every known id in it linked."""
        return rich(value, lambda ident: self.link(ident, prefix=prefix))

    def many(self, idents: Iterable[Any], *, prefix: str = "") -> str:
        """Return links to several elements, comma separated."""
        return ", ".join(self.to(str(i), prefix=prefix) for i in idents)


def components(items: Sequence[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for item in items:
        yield item
        yield from components(item.get("parts", []))


def steps(spec: Spec) -> Iterable[Mapping[str, Any]]:
    """Yield every structure step of a spec (setup, flow, end), depth first."""
    def walk(items: Sequence[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
        for item in items:
            yield item
            yield from walk(item.get("steps", []))

    structure = spec.data.get("structure", {})
    for part in ("setup", "flow", "end"):
        yield from walk(structure.get(part, []))


def clause_users(spec: Spec) -> dict[str, list[str]]:
    """Return clause id -> ids of the spec elements that rest on it, in spec order."""
    users: dict[str, list[str]] = {}

    def add(owner: str, clauses: Iterable[Any]) -> None:
        for cid in clauses:
            users.setdefault(str(cid), [])
            if owner not in users[str(cid)]:
                users[str(cid)].append(owner)

    def walk_steps(steps: Sequence[Mapping[str, Any]]) -> None:
        for step in steps:
            add(f"step:{step['id']}", step.get("clauses", []))
            walk_steps(step.get("steps", []))

    for section in ("tables", "parameters", "actions", "invariants", "variants", "ambiguities",
                    "zones"):
        for item in spec.section(section):
            add(str(item["id"]), item.get("clauses", []))
    for comp in components(spec.section("components")):
        add(str(comp["id"]), comp.get("clauses", []))
    structure = spec.data.get("structure", {})
    for part in ("setup", "flow", "end"):
        walk_steps(structure.get(part, []))
    return users


def game_title(spec: Spec) -> str:
    """Return the English name of a game."""
    return str(spec.data["game"]["names"]["english"])


def game_label(spec: Spec) -> str:
    """Return the game's one name for menus: ``Fool's Gold (Ouro de Tolo · ouro-de-tolo)``, its
    English name, its original-language title when it differs, and its command id."""
    original = str(spec.data["game"]["names"]["original"])
    also = [original] if original != game_title(spec) else []
    return f"{game_title(spec)} ({' · '.join([*also, spec.game_id])})"


def player_range(spec: Spec) -> str:
    """Return the player count as ``3–6``, or ``4`` when there is only one."""
    low, high = spec.min_players, spec.max_players
    return str(low) if low == high else f"{low}–{high}"
