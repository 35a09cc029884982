"""Generate the docs site's pages from the specs, the spec JSON Schema, the CLI and the README.

Nothing of a spec is written by hand in ``docs/``: the mkdocs hook ``docs/hooks/rulespec_docs.py``
calls :func:`site_pages` at build time and adds the pages it returns, so the site cannot drift
from the specs. Every function here is pure (data in, Markdown out) so tests can run it on any
spec without building the site.
"""

from __future__ import annotations

import html
import inspect
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import click

from rulespec.spec.model import Spec

#: The pages of one game, in navigation order: (file name, navigation title).
GAME_PAGES: tuple[tuple[str, str], ...] = (
    ("index.md", "Overview"),
    ("tables.md", "Tables and parameters"),
    ("rules.md", "Structure and clauses"),
    ("actions.md", "Actions and state"),
    ("invariants.md", "Invariants"),
    ("variants.md", "Variants"),
    ("ambiguities.md", "Ambiguity register"),
)

#: Markers a hand-written page may contain; the hook replaces them with generated Markdown.
MARKER_GAMES = "<!-- rulespec:games -->"
MARKER_README = re.compile(r"<!-- rulespec:readme (?P<name>[a-z0-9-]+) -->")

#: Where the cross-game ambiguity register lives, relative to the docs folder.
REGISTER_PAGE = "ambiguities.md"


class DocsError(Exception):
    """Something the docs need is missing or malformed; the message says what to fix."""


@dataclass(frozen=True)
class Page:
    """One generated Markdown page: where it goes in the docs folder and its content."""

    path: str
    markdown: str


# -- Markdown helpers ---------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}|#~^])")


def text(value: object) -> str:
    """Return ``value`` as inline Markdown text: one line, markup characters escaped."""
    raw = re.sub(r"\s+", " ", str(value)).strip()
    raw = raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    raw = _MD_SPECIAL.sub(r"\\\1", raw)
    # A line starting with "1." or "-" would become a list; escape the marker.
    return re.sub(r"^(\d+)\.", r"\1\\.", re.sub(r"^([-+])", r"\\\1", raw))


def code(value: object) -> str:
    """Return ``value`` as inline code that survives any backticks and table pipes in it."""
    raw = re.sub(r"\s+", " ", str(value)).strip()
    raw = raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "&#124;")
    return f"<code>{raw}</code>"


def json_text(value: Any) -> str:
    """Return ``value`` as compact JSON."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Return a Markdown table; cells must already be inline Markdown."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell or " " for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fenced(body: str, lang: str = "text") -> str:
    """Return a fenced code block that no backtick run inside ``body`` can close."""
    fence = "`" * max(3, 1 + max((len(m) for m in re.findall(r"`+", body)), default=0))
    return f"{fence}{lang}\n{body.rstrip()}\n{fence}\n"


def indent(block: str, prefix: str = "    ") -> str:
    """Indent every non-empty line of ``block`` (for admonition and list bodies)."""
    return "\n".join(prefix + line if line else line for line in block.splitlines()) + "\n"


def badge(kind: str, value: str) -> str:
    """Return a coloured badge for an ambiguity status, severity, kind or scope."""
    return f'<span class="rs-badge rs-{kind} rs-{kind}-{value}">{value}</span>'


def anchor(ident: str) -> str:
    """Return the attr_list suffix that gives a heading the permanent anchor ``ident``."""
    return f"{{ #{ident} }}"


# -- where things are ---------------------------------------------------------------------------


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
        for zone in spec.section("zones"):
            self.targets.setdefault(str(zone["id"]), f"index.md#zone-{zone['id']}")
        for comp in _components(spec.section("components")):
            self.targets.setdefault(str(comp["id"]), f"index.md#component-{comp['id']}")

    def to(self, ident: str, *, prefix: str = "") -> str:
        """Return a Markdown link to element ``ident`` (plain code if it is unknown)."""
        target = self.targets.get(ident)
        if target is None:
            return code(ident)
        return f"[{code(ident)}]({prefix}{target})"

    def many(self, idents: Iterable[Any], *, prefix: str = "") -> str:
        """Return links to several elements, comma separated."""
        return ", ".join(self.to(str(i), prefix=prefix) for i in idents)


def _components(items: Sequence[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    for item in items:
        yield item
        yield from _components(item.get("parts", []))


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
    for comp in _components(spec.section("components")):
        add(str(comp["id"]), comp.get("clauses", []))
    structure = spec.data.get("structure", {})
    for part in ("setup", "flow", "end"):
        walk_steps(structure.get(part, []))
    return users


# -- schema summaries ---------------------------------------------------------------------------


def schema_type(schema: Any, *, ref_link: str | None = None) -> str:
    """Return a short inline description of a JSON Schema (``integer ≥ 0``, ``array of …``)."""
    if not isinstance(schema, Mapping):
        return "any" if schema is True or schema == {} else "nothing"
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return f"[{name}]({ref_link}{name.lower()})" if ref_link is not None else code(name)
    if "const" in schema:
        return code(json_text(schema["const"]))
    if "enum" in schema:
        return "one of " + ", ".join(code(json_text(v)) for v in schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema and "type" not in schema and all(isinstance(s, Mapping) and
                                                          ("type" in s or "$ref" in s or "const" in s)
                                                          for s in schema[key]):
            return " or ".join(schema_type(s, ref_link=ref_link) for s in schema[key])
    kind = schema.get("type")
    if isinstance(kind, list):
        base = " or ".join(str(k) for k in kind)
    elif kind is None:
        base = "object" if "properties" in schema else "any"
    else:
        base = str(kind)
    if kind == "array" and "items" in schema:
        base = f"array of {schema_type(schema['items'], ref_link=ref_link)}"
    bounds = []
    if "minimum" in schema:
        bounds.append(f"≥ {schema['minimum']}")
    if "maximum" in schema:
        bounds.append(f"≤ {schema['maximum']}")
    if "minItems" in schema:
        bounds.append(f"at least {schema['minItems']} items")
    if "maxItems" in schema:
        bounds.append(f"at most {schema['maxItems']} items")
    if "minLength" in schema and schema["minLength"] > 1:
        bounds.append(f"at least {schema['minLength']} characters")
    if schema.get("uniqueItems"):
        bounds.append("unique")
    if "pattern" in schema:
        bounds.append(f"matching {code(schema['pattern'])}")
    return base + (f" ({', '.join(bounds)})" if bounds else "")


def property_rows(schema: Mapping[str, Any], *, ref_link: str | None = None) -> list[list[str]]:
    """Return rows (key, type, required, description) for an object schema's properties."""
    required = set(schema.get("required", []))
    rows = []
    for key, sub in schema.get("properties", {}).items():
        desc = sub.get("description", "") if isinstance(sub, Mapping) else ""
        rows.append([code(key), schema_type(sub, ref_link=ref_link),
                     "yes" if key in required else "", text(desc)])
    return rows


# -- one game -----------------------------------------------------------------------------------


def game_title(spec: Spec) -> str:
    """Return the English name of a game."""
    return str(spec.data["game"]["names"]["english"])


def player_range(spec: Spec) -> str:
    """Return the player count as ``3–6``, or ``4`` when there is only one."""
    low, high = spec.min_players, spec.max_players
    return str(low) if low == high else f"{low}–{high}"


def _header(spec: Spec, title: str) -> str:
    return f"# {text(game_title(spec))}: {text(title)}\n\n" + _provenance(spec)


def _provenance(spec: Spec) -> str:
    return (f'<p class="rs-provenance">Generated from <code>specs/{spec.path.name}</code>, '
            f"spec version {html.escape(spec.version)}. Do not edit this page: edit the spec.</p>\n\n")


def _clause_line(links: Links, clauses: Sequence[Any]) -> str:
    return f"Clauses: {links.many(clauses)}\n" if clauses else ""


def overview_page(spec: Spec) -> str:
    """Return the overview page: names, players, objective, sources, components and zones."""
    game = spec.data["game"]
    links = Links(spec)
    names = game["names"]
    out = [f"# {text(game_title(spec))}\n\n", _provenance(spec), f"{text(game['summary'])}\n\n"]
    facts = [["Game id", code(spec.game_id)],
             ["Original name", text(names["original"])],
             ["English name", text(names["english"])]]
    if names.get("aliases"):
        facts.append(["Also known as", ", ".join(text(a) for a in names["aliases"])])
    players = game["players"]
    facts.append(["Players", player_range(spec)
                  + (f" ({links.many(players['clauses'])})" if players.get("clauses") else "")])
    if game.get("designers"):
        facts.append(["Designers", ", ".join(text(d) for d in game["designers"])])
    if game.get("publisher"):
        facts.append(["Publisher", text(game["publisher"])])
    facts.append(["Spec version", code(spec.version)])
    facts.append(["Reference interpreter", code(spec.reference_module)])
    facts.append(["Clause prefix", code(game["clause_prefix"])])
    out.append(table(["", ""], facts) + "\n")
    if "objective" in game:
        obj = game["objective"]
        out.append("## Objective\n\n" + f"{text(obj['text'])}\n\n" + _clause_line(links, obj["clauses"]))
        out.append("\n")
    out.append("## Contents of the spec\n\n")
    counts = [
        ("Tables and parameters", "tables.md", f"{len(spec.section('tables'))} tables, "
         f"{len(spec.section('parameters'))} parameters"),
        ("Structure and clauses", "rules.md", f"{len(spec.section('clauses'))} clauses"),
        ("Actions and state", "actions.md", f"{len(spec.section('actions'))} actions"),
        ("Invariants", "invariants.md", f"{len(spec.section('invariants'))} invariants"),
        ("Variants", "variants.md", f"{len(spec.section('variants'))} variants"),
        ("Ambiguity register", "ambiguities.md", f"{len(spec.section('ambiguities'))} records"),
    ]
    out.append(table(["Page", "What"], [[f"[{t}]({p})", c] for t, p, c in counts]) + "\n")
    out.append("## Sources\n\n")
    for src in spec.section("sources"):
        out.append(f"### {text(src['title'])} {anchor('source-' + str(src['id']))}\n\n")
        rows = [["Source id", code(src["id"])], ["Language", code(src["language"])],
                ["File", code(src["file"])], ["sha256", code(src["sha256"])]]
        if src.get("edition"):
            rows.append(["Edition", text(src["edition"])])
        if src.get("notes"):
            rows.append(["Notes", text(src["notes"])])
        rows.append(["Sections", ", ".join(f"{text(s['title'])} ({code(s['id'])})"
                                           for s in src["sections"])])
        out.append(table(["", ""], rows) + "\n")
    out.append("## Components\n\n")
    comps = list(spec.section("components"))
    if comps:
        rows = []

        def walk(items: Sequence[Mapping[str, Any]], depth: int) -> None:
            for comp in items:
                name = ("&emsp;" * depth) + f'<span id="component-{comp["id"]}"></span>' + text(comp["name"])
                count = "not given" if comp.get("count") is None else str(comp["count"])
                attrs = comp.get("attributes")
                rows.append([name, code(comp["id"]), count,
                             code(json_text(attrs)) if attrs else "",
                             text(comp.get("description", "")),
                             links.many(comp.get("clauses", []))])
                walk(comp.get("parts", []), depth + 1)

        walk(comps, 0)
        out.append(table(["Component", "Id", "Count", "Attributes", "Description", "Clauses"],
                         rows) + "\n")
    else:
        out.append("The spec lists no components.\n\n")
    out.append("## Zones\n\n")
    zones = list(spec.section("zones"))
    if zones:
        out.append(table(["Zone", "Id", "Visibility", "Owner", "Ordered", "Description", "Clauses"], [
            [f'<span id="zone-{z["id"]}"></span>' + text(z["name"]), code(z["id"]),
             text(z["visibility"]), text(z["owner"]), "yes" if z.get("ordered") else "",
             text(z.get("description", "")), links.many(z.get("clauses", []))]
            for z in zones]) + "\n")
    else:
        out.append("The spec lists no zones.\n\n")
    return "".join(out)


def tables_page(spec: Spec) -> str:
    """Return every table of the rulebook as a table, then the parameters."""
    links = Links(spec)
    out = [_header(spec, "Tables and parameters")]
    out.append("## Tables\n\n")
    tables = list(spec.section("tables"))
    if not tables:
        out.append("The rulebook prints no tables.\n\n")
    for tab in tables:
        out.append(f"### {text(tab['title'])} {anchor('table-' + str(tab['id']))}\n\n")
        meta = f"Table {code(tab['id'])}, looked up by {code(tab['key'])}"
        if tab.get("as_printed"):
            meta += ", transcribed exactly as printed (errors included)"
        out.append(meta + ".\n\n")
        if tab.get("description"):
            out.append(f"{text(tab['description'])}\n\n")
        columns = tab["columns"]
        out.append(table([text(c["title"]) for c in columns],
                         [[_cell(row.get(c["id"])) for c in columns] for row in tab["rows"]]))
        out.append("\n" + _clause_line(links, tab["clauses"]) + "\n")
    out.append("## Parameters\n\n")
    out.append("The named values the reference interpreter reads. Override any of them with "
               "`--param NAME=VALUE`; variants and ambiguity options override some of them.\n\n")
    params = list(spec.section("parameters"))
    if params:
        rows = []
        for param in params:
            if "default" in param:
                default = code(json_text(param["default"]))
            else:
                ref = param["from_table"]
                where = links.to(str(ref["table"]))
                if "column" in ref:
                    default = f"column {code(ref['column'])} of {where} for the player count"
                elif "key_column" in ref and "value_column" in ref:
                    default = (f"{where} as a mapping {code(ref['key_column'])} → "
                               f"{code(ref['value_column'])}")
                else:
                    default = f"every row of {where}"
            rows.append([f'<span id="param-{param["id"]}"></span>' + code(param["id"]),
                         text(param["description"]), schema_type(param["schema"]), default,
                         links.many(param.get("clauses", []))])
        out.append(table(["Parameter", "Description", "Values", "Default", "Clauses"], rows))
    else:
        out.append("The spec declares no parameters.\n")
    return "".join(out)


def _cell(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return text(value)


def _outline(steps: Sequence[Mapping[str, Any]], links: Links, depth: int = 0) -> str:
    out = []
    pad = "    " * depth
    for number, step in enumerate(steps, 1):
        line = f"{pad}{number}. {text(step['text'])} <small>({code(step['id'])})</small>"
        extras = []
        if step.get("repeat"):
            extras.append(f"repeat: {text(step['repeat'])}")
        if step.get("actions"):
            extras.append("actions: " + links.many(step["actions"]))
        if step.get("clauses"):
            extras.append("clauses: " + links.many(step["clauses"]))
        if extras:
            line += " · " + " · ".join(extras)
        out.append(line + "\n")
        if step.get("steps"):
            out.append(_outline(step["steps"], links, depth + 1))
    return "".join(out)


def rules_page(spec: Spec) -> str:
    """Return the structure as an outline, then every clause under its permanent anchor."""
    links = Links(spec)
    out = [_header(spec, "Structure and clauses")]
    structure = spec.data["structure"]
    out.append("## Structure\n\n")
    for part, title in (("setup", "Setup"), ("flow", "Play"), ("end", "End of the game")):
        steps = structure.get(part, [])
        if steps:
            out.append(f"### {title} {anchor('structure-' + part)}\n\n{_outline(steps, links)}\n")
    out.append("## Clauses\n\n")
    out.append("Every normative sentence of the rulebook, grouped by the section it is quoted "
               "from. Each clause has a permanent anchor named by its id: link to it as "
               f"`{game_dir(spec)}/rules/#<CLAUSE-ID>`.\n\n")
    sections: dict[tuple[str, str], str] = {}
    for src in spec.section("sources"):
        for sec in src["sections"]:
            sections[(str(src["id"]), str(sec["id"]))] = str(sec["title"])
    single_source = len(spec.section("sources")) == 1
    groups: dict[tuple[str, str], list[Mapping[str, Any]]] = {key: [] for key in sections}
    for clause in spec.section("clauses"):
        cit = clause["citation"]
        groups.setdefault((str(cit["source"]), str(cit["section"])), []).append(clause)
    users = clause_users(spec)
    for (src_id, sec_id), clauses in groups.items():
        if not clauses:
            continue
        title = sections.get((src_id, sec_id), sec_id)
        suffix = "" if single_source else f" ({src_id})"
        out.append(f"### {text(title)}{text(suffix)} {anchor(f'section-{src_id}-{sec_id}')}\n\n")
        for clause in clauses:
            out.append(_clause_block(clause, links, users.get(str(clause["id"]), [])))
    return "".join(out)


def _clause_block(clause: Mapping[str, Any], links: Links, users: Sequence[str]) -> str:
    cid = str(clause["id"])
    cit = clause["citation"]
    out = [f"#### {cid} {anchor(cid)}\n\n"]
    out.append(f"> {text(cit['quote'])}\n\n")
    out.append(f"{text(clause['statement'])}\n\n")
    meta = []
    if clause.get("kind"):
        meta.append(badge("clause", str(clause["kind"])))
    if clause.get("tags"):
        meta.append("tags: " + ", ".join(code(t) for t in clause["tags"]))
    if cit.get("note"):
        meta.append(f"note: {text(cit['note'])}")
    steps = [u.split(":", 1)[1] for u in users if u.startswith("step:")]
    others = [u for u in users if not u.startswith("step:")]
    if others:
        meta.append("used by: " + links.many(others))
    if steps:
        meta.append("structure: " + ", ".join(code(s) for s in steps))
    if meta:
        out.append('<div class="rs-meta" markdown>' + " · ".join(meta) + "</div>\n\n")
    return "".join(out)


def actions_page(spec: Spec) -> str:
    """Return the action vocabulary, then the canonical state schema and what is hidden."""
    links = Links(spec)
    out = [_header(spec, "Actions and state")]
    out.append("## Actions\n\n")
    out.append('Actions are JSON objects `{"kind": <action id>, ...}`. Chance outcomes are '
               "actions too: when chance is to move, the legal actions are exactly its "
               "outcomes, with exact probabilities.\n\n")
    out.append(table(["Action", "Actor", "When"], [
        [links.to(str(a["id"])), badge("actor", str(a["actor"])), text(a["when"])]
        for a in spec.section("actions")]) + "\n")
    for action in spec.section("actions"):
        out.append(f"### {code(action['id'])} {anchor('action-' + str(action['id']))}\n\n")
        out.append(f"{badge('actor', str(action['actor']))} **When:** {text(action['when'])}\n\n")
        out.append(f"**Effect:** {text(action['effect'])}\n\n")
        if action.get("probability"):
            out.append(f"**Probability:** {text(action['probability'])}\n\n")
        params = action["params"]
        rows = property_rows(params) if isinstance(params, Mapping) else []
        if rows:
            out.append(table(["Field", "Type", "Required", "Description"], rows) + "\n")
        out.append('??? note "JSON Schema of the action"\n\n'
                   + indent(fenced(json.dumps(params, indent=2, ensure_ascii=False), "json")) + "\n")
        out.append(_clause_line(links, action["clauses"]) + "\n")
    state = spec.data["state"]
    schema = state["schema"]
    out.append(f"## State {anchor('state')}\n\n")
    out.append("The canonical state every engine reports, as JSON. It is omniscient: it includes "
               "what the players cannot see (listed under *Hidden information*).\n\n")
    if state.get("notes"):
        out.append(f"{text(state['notes'])}\n\n")
    rows = property_rows(schema) if isinstance(schema, Mapping) else []
    if rows:
        out.append(table(["Field", "Type", "Required", "Description"], rows) + "\n")
    out.append('??? note "JSON Schema of the state"\n\n'
               + indent(fenced(json.dumps(schema, indent=2, ensure_ascii=False), "json")) + "\n")
    out.append(f"### Hidden information {anchor('hidden')}\n\n")
    hidden = state.get("hidden", [])
    if hidden:
        out.append(table(["Path", "Visible to", "Clauses"], [
            [code(h["path"]), text(h["visible_to"]), links.many(h.get("clauses", []))]
            for h in hidden]))
    else:
        out.append("Nothing in the state is hidden from any player.\n")
    return "".join(out)


def invariants_page(spec: Spec) -> str:
    """Return every invariant with its scope, clauses and CEL expression."""
    links = Links(spec)
    out = [_header(spec, "Invariants")]
    out.append("Properties that hold in every reachable state (`state`), on every step "
               "(`transition`, which also sees `prev` and `action`) or in the final state "
               "(`terminal`). Each expression is CEL over the canonical state, evaluated by the "
               "conformance kit at every step.\n\n")
    invariants = list(spec.section("invariants"))
    out.append(table(["Invariant", "Scope", "Description"], [
        [links.to(str(i["id"])), badge("scope", str(i["scope"])), text(i["description"])]
        for i in invariants]) + "\n")
    for inv in invariants:
        out.append(f"## {inv['id']} {anchor(str(inv['id']))}\n\n")
        out.append(f"{badge('scope', str(inv['scope']))} {text(inv['description'])}\n\n")
        out.append(fenced(str(inv["expression"]), "text") + "\n")
        out.append(_clause_line(links, inv["clauses"]) + "\n")
    return "".join(out)


def variants_page(spec: Spec) -> str:
    """Return the rulebook's optional rules."""
    links = Links(spec)
    out = [_header(spec, "Variants")]
    variants = list(spec.section("variants"))
    if not variants:
        out.append("The rulebook has no variants.\n")
    else:
        out.append("Select a variant with `--variant ID`.\n\n")
    for variant in variants:
        out.append(f"## {text(variant['name'])} {anchor('variant-' + str(variant['id']))}\n\n")
        out.append(f"Variant {code(variant['id'])}. {text(variant['description'])}\n\n")
        if variant.get("parameters"):
            out.append(table(["Parameter", "Value"], [
                [links.to(str(k)), code(json_text(v))] for k, v in variant["parameters"].items()]))
            out.append("\n")
        if variant.get("behaviour"):
            out.append("The reference interpreter implements this variant as named behaviour.\n\n")
        if variant.get("settable"):
            out.append("Players choose: " + links.many(variant["settable"])
                       + " (with `--param`).\n\n")
        out.append(_clause_line(links, variant["clauses"]) + "\n")
    return "".join(out)


def ambiguities_page(spec: Spec) -> str:
    """Return the game's ambiguity register: a filterable summary, then every record."""
    links = Links(spec)
    out = [_header(spec, "Ambiguity register")]
    records = list(spec.section("ambiguities"))
    if not records:
        out.append("No ambiguities are recorded for this game.\n")
        return "".join(out)
    out.append("Every open question met while encoding the rules. Each option is implemented in "
               "the reference interpreter and selectable with `--ruling ID=OPTION`; the default "
               "is what the reference does when no ruling is given.\n\n")
    out.append(register_table([(spec, a) for a in records], prefix="", with_game=False))
    for amb in records:
        out.append(_ambiguity_block(amb, links))
    return "".join(out)


def register_table(items: Sequence[tuple[Spec, Mapping[str, Any]]], *, prefix: str,
                   with_game: bool) -> str:
    """Return the sortable, filterable summary table of ambiguity records."""
    filters = (["Game"] if with_game else []) + ["Status", "Severity", "Kind"]
    headers = ["Id", *(["Game"] if with_game else []), "Title", "Status", "Severity", "Kind",
               "Default"]
    rows = []
    for spec, amb in items:
        link_prefix = f"{prefix}{game_dir(spec)}/" if with_game else ""
        row = [Links(spec).to(str(amb["id"]), prefix=link_prefix)]
        if with_game:
            row.append(text(game_title(spec)))
        row += [text(amb["title"]), badge("status", str(amb["status"])),
                badge("severity", str(amb["severity"])), badge("kind", str(amb["kind"])),
                code(amb["default"]["option"])]
        rows.append(row)
    return (f'<div class="rs-register" data-filters="{",".join(filters)}" markdown>\n\n'
            + table(headers, rows) + "\n</div>\n\n")


def _ambiguity_block(amb: Mapping[str, Any], links: Links) -> str:
    aid = str(amb["id"])
    out = [f"## {aid}: {text(amb['title'])} {anchor(aid)}\n\n"]
    out.append(" ".join([badge("status", str(amb["status"])), badge("severity", str(amb["severity"])),
                         badge("kind", str(amb["kind"]))]) + "\n\n")
    out.append(f"**Question.** {text(amb['question'])}\n\n")
    if amb.get("duplicate_of"):
        out.append(f"Duplicate of {links.to(str(amb['duplicate_of']))}.\n\n")
    if amb.get("sources"):
        out.append("**Sources.**\n\n")
        for number, cit in enumerate(amb["sources"], 1):
            where = f"{code(cit['source'])}, section {code(cit['section'])}"
            out.append(f"{number}. “{text(cit['quote'])}” ({where})"
                       + (f": {text(cit['note'])}" if cit.get("note") else "") + "\n")
        out.append("\n")
        for a, b in amb.get("conflicts", []):
            out.append(f"Source {a + 1} contradicts source {b + 1}.\n\n")
    out.append(f"**Clauses:** {links.many(amb['clauses'])}\n\n" if amb["clauses"] else "")
    if amb.get("touches"):
        out.append(f"**Touches:** {links.many(amb['touches'])}\n\n")
    default = amb["default"]
    rows = []
    for opt in amb["options"]:
        how = []
        if opt.get("parameters"):
            how.append("parameters " + code(json_text(opt["parameters"])))
        if opt.get("behaviour"):
            how.append("behaviour in the reference")
        mark = "**default**" if opt["id"] == default["option"] else ""
        rows.append([code(opt["id"]), text(opt["summary"]), "; ".join(how), mark])
    out.append("**Options.**\n\n" + table(["Option", "Reading", "Implemented as", ""], rows) + "\n")
    out.append(f"**Default:** {code(default['option'])} (authority: "
               f"{badge('authority', str(default['authority']))}). {text(default['rationale'])}\n\n")
    if amb.get("rejected"):
        out.append("**Rejected readings.**\n\n")
        for rej in amb["rejected"]:
            out.append(f"- {text(rej['summary'])} Rejected because: {text(rej['reason'])}\n")
        out.append("\n")
    if amb.get("evidence"):
        out.append("**Evidence.**\n\n")
        for ev in amb["evidence"]:
            src = f" (source: {text(ev['source'])})" if ev.get("source") else ""
            out.append(f"- {text(ev['text'])}{src}\n")
        out.append("\n")
    if amb.get("impact"):
        impact = amb["impact"]
        out.append(f"**Impact.** {text(impact['text'])}\n\n")
        if impact.get("measured"):
            out.append(fenced(json.dumps(impact["measured"], indent=2, ensure_ascii=False),
                              "json") + "\n")
    if amb.get("history"):
        out.append("**History.**\n\n" + table(["Date", "Status", "Note"], [
            [code(h["date"]), text(h["status"]), text(h.get("note", ""))] for h in amb["history"]])
            + "\n")
    return "".join(out)


def game_pages(spec: Spec) -> list[Page]:
    """Return every page of one game."""
    render = {
        "index.md": overview_page,
        "tables.md": tables_page,
        "rules.md": rules_page,
        "actions.md": actions_page,
        "invariants.md": invariants_page,
        "variants.md": variants_page,
        "ambiguities.md": ambiguities_page,
    }
    return [Page(f"{game_dir(spec)}/{name}", render[name](spec)) for name, _ in GAME_PAGES]


# -- across games -------------------------------------------------------------------------------


def games_table(specs: Sequence[Spec], *, prefix: str = "") -> str:
    """Return a table of every game with links to its pages."""
    if not specs:
        return "No game specs are registered yet.\n"
    rows = []
    for spec in specs:
        rows.append([f"[{text(game_title(spec))}]({prefix}{game_dir(spec)}/index.md)",
                     text(spec.name), code(spec.game_id), player_range(spec),
                     str(len(spec.section("clauses"))),
                     f"[{len(spec.section('ambiguities'))}]({prefix}{game_dir(spec)}/ambiguities.md)"])
    return table(["Game", "Original name", "Id", "Players", "Clauses", "Ambiguities"], rows)


def games_index(specs: Sequence[Spec]) -> Page:
    """Return the games landing page."""
    body = ("# Games\n\nEvery game in the registry, generated from its spec in `specs/`. Each game "
            "has an overview, its tables, the structure and every clause with its verbatim quote, "
            "the actions and state, the invariants, the variants and the ambiguity register.\n\n"
            + games_table(specs, prefix="../") + "\n"
            + f"All ambiguities of all games in one place: [ambiguity register](../{REGISTER_PAGE}).\n")
    return Page("games/index.md", body)


def register_page(specs: Sequence[Spec]) -> Page:
    """Return the cross-game ambiguity register for rule editors."""
    items = [(spec, amb) for spec in specs for amb in spec.section("ambiguities")]
    out = ["---\nhide:\n  - toc\n---\n\n# Ambiguity register\n\n",
           "Every ambiguity of every game: contradictions, gaps, unclear wording, translation "
           "damage and editorial slips. Filter by game, status, severity and kind; click a column "
           "heading to sort. The filters are kept in the address (`?status=reported`), so a "
           "filtered view can be shared. See [the ambiguity lifecycle]"
           "(editors/ambiguity-lifecycle.md) for what each status means.\n\n"]
    if not items:
        out.append("No ambiguities are recorded yet.\n")
        return Page(REGISTER_PAGE, "".join(out))
    counts: dict[str, int] = {}
    for _, amb in items:
        counts[str(amb["status"])] = counts.get(str(amb["status"]), 0) + 1
    out.append(f"{len(items)} records: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))
               + ".\n\n")
    out.append(register_table(items, prefix="", with_game=True))
    return Page(REGISTER_PAGE, "".join(out))


# -- the spec format reference ------------------------------------------------------------------


def spec_format_page(schema: Mapping[str, Any]) -> Page:
    """Return the spec format reference, generated from the spec JSON Schema."""
    out = ["# Spec format reference\n\n",
           '<p class="rs-provenance">Generated from <code>specs/schema/spec.schema.json</code>. '
           "Do not edit this page: edit the schema.</p>\n\n",
           f"{text(schema.get('description', ''))}\n\n",
           "A spec is a YAML file `specs/<game-id>.yaml` whose first line is "
           "`# yaml-language-server: $schema=schema/spec.schema.json`, so editors complete and check "
           "it as you type. Beyond this schema the validator checks ids are unique, every "
           "reference resolves, tables cover every player count, component counts add up, "
           "expressions compile, and (with `--sources`) every quote is verbatim.\n\n"]
    ref_link = "#def-"
    sections: list[str] = []

    def obj(path: str, sub: Mapping[str, Any], level: int) -> None:
        slug = "key-" + re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-")
        block = [f"{'#' * level} `{path}` {anchor(slug)}\n\n"]
        if sub.get("description"):
            block.append(f"{text(sub['description'])}\n\n")
        block.append(_object_body(sub, ref_link))
        sections.append("".join(block))
        for key, child in sub.get("properties", {}).items():
            _descend(f"{path}.{key}", child, level, obj)

    top_rows = property_rows(schema, ref_link=ref_link)
    out.append("## Top level\n\n" + table(["Key", "Type", "Required", "Description"], top_rows)
               + "\n")
    for key, child in schema.get("properties", {}).items():
        _descend(key, child, 2, obj)
    out.extend(sections)
    out.append("## Definitions\n\n")
    for name, sub in schema.get("$defs", {}).items():
        sections.clear()
        out.append(f"### `{name}` {anchor('def-' + name.lower())}\n\n")
        if sub.get("description"):
            out.append(f"{text(sub['description'])}\n\n")
        out.append(_object_body(sub, ref_link))
        for key, child in sub.get("properties", {}).items():
            _descend(f"{name}.{key}", child, 4, obj)
        out.extend(sections)
    return Page("reference/spec-format.md", "".join(out))


def _descend(path: str, sub: Any, level: int, obj: Any) -> None:
    """Document nested object schemas (directly or as array items) under ``path``."""
    if not isinstance(sub, Mapping):
        return
    if "properties" in sub:
        obj(path, sub, min(level + 1, 6))
    elif sub.get("type") == "array" and isinstance(sub.get("items"), Mapping) \
            and "properties" in sub["items"]:
        items = dict(sub["items"])
        if sub.get("description") and "description" not in items:
            items["description"] = sub["description"]
        obj(f"{path}[]", items, min(level + 1, 6))


def _object_body(sub: Mapping[str, Any], ref_link: str) -> str:
    out = []
    if "properties" in sub:
        out.append(table(["Key", "Type", "Required", "Description"],
                         property_rows(sub, ref_link=ref_link)))
        if sub.get("additionalProperties") is False:
            out.append("\nNo other keys are allowed.\n")
    else:
        out.append(f"Type: {schema_type(sub, ref_link=ref_link)}.\n")
    for key, words in (("oneOf", "Exactly one of"), ("anyOf", "At least one of")):
        groups = sub.get(key, [])
        names = [", ".join(f"`{r}`" for r in g.get("required", [])) for g in groups
                 if isinstance(g, Mapping) and set(g) == {"required"}]
        if names and len(names) == len(groups):
            out.append(f"\n{words}: " + "; ".join(names) + " must be present.\n")
    return "".join(out) + "\n"


# -- the CLI reference --------------------------------------------------------------------------


def cli_page(command: click.Command, name: str = "rulespec") -> Page:
    """Return the CLI reference, generated by walking the click command tree."""
    out = ["# Command line reference\n\n",
           '<p class="rs-provenance">Generated from the <code>rulespec</code> command itself. '
           "Do not edit this page: edit the command's help.</p>\n\n"]
    _cli_command(command, name, None, out, level=2)
    return Page("reference/cli.md", "".join(out))


def _help(command: click.Command) -> str:
    # Click keeps a docstring's indentation; dedent it, or later paragraphs become code blocks.
    lines = [line for line in inspect.cleandoc(command.help or "").splitlines()
             if line.strip() != "\b"]
    return "\n".join(lines).strip()


def _cli_command(command: click.Command, name: str, parent: click.Context | None,
                 out: list[str], level: int) -> None:
    ctx = click.Context(command, info_name=name, parent=parent, **command.context_settings)
    path = ctx.command_path
    slug = "cli-" + "-".join(path.split()[1:]) if " " in path else "cli"
    out.append(f"{'#' * level} `{path}` {anchor(slug)}\n\n")
    if _help(command):
        out.append(_help(command) + "\n\n")
    out.append(fenced(command.get_usage(ctx), "text") + "\n")
    rows = []
    for param in command.get_params(ctx):
        if isinstance(param, click.Argument):
            rows.append([code(param.human_readable_name), "argument",
                         "yes" if param.required else "", param.type.name,
                         "" if param.nargs == 1 else "many"])
            continue
        record = param.get_help_record(ctx)
        if record is None or not isinstance(param, click.Option):
            continue
        names = ", ".join(code(n) for n in [*param.opts, *param.secondary_opts])
        values = param.type.name
        if isinstance(param.type, click.Choice):
            values = "one of " + ", ".join(code(c) for c in param.type.choices)
        elif param.metavar:
            values = code(param.metavar)
        if param.multiple:
            values += ", repeatable"
        rows.append([names, "option", "yes" if param.required else "", values,
                     text(record[1])])
    if rows:
        out.append(table(["Name", "Kind", "Required", "Values", "Help"], rows) + "\n")
    if isinstance(command, click.Group):
        subs = command.list_commands(ctx)
        if subs:
            out.append("Commands: " + ", ".join(f"[`{s}`](#{_sub_slug(slug, s)})" for s in subs)
                       + "\n\n")
        for sub_name in subs:
            sub = command.get_command(ctx, sub_name)
            if sub is not None and not sub.hidden:
                _cli_command(sub, sub_name, ctx, out, min(level + 1, 6))


def _sub_slug(parent_slug: str, name: str) -> str:
    return f"{parent_slug}-{name}"


# -- the README ---------------------------------------------------------------------------------


def readme_block(readme: str, name: str) -> str:
    """Return the fenced code block that follows ``<!-- name -->`` in the README, fence included."""
    marker = f"<!-- {name} -->"
    lines = readme.splitlines()
    try:
        start = lines.index(marker)
    except ValueError:
        raise DocsError(f"README.md has no {marker!r} marker; the docs include the block that "
                        "follows it, so add the marker back above the command") from None
    block: list[str] = []
    for line in lines[start + 1:]:
        if not block and not line.strip():
            continue
        if not block and not line.startswith("```"):
            raise DocsError(f"README.md: the line after {marker!r} must open a fenced code block, "
                            f"found {line!r}")
        block.append(line)
        if len(block) > 1 and line.startswith("```"):
            return "\n".join(block) + "\n"
    raise DocsError(f"README.md: the code block after {marker!r} is never closed")


def fill_markers(markdown: str, *, specs: Sequence[Spec], readme: str | None,
                 prefix: str = "") -> str:
    """Replace the generation markers of a hand-written page."""
    if MARKER_GAMES in markdown:
        markdown = markdown.replace(MARKER_GAMES, games_table(specs, prefix=prefix))

    def readme_sub(match: re.Match[str]) -> str:
        if readme is None:
            raise DocsError("README.md not found beside mkdocs.yml; the docs include its commands")
        return readme_block(readme, match.group("name"))

    return MARKER_README.sub(readme_sub, markdown)


# -- everything ---------------------------------------------------------------------------------


def site_pages(specs: Sequence[Spec], *, schema: Mapping[str, Any],
               cli: click.Command | None) -> list[Page]:
    """Return every generated page of the site."""
    pages = [games_index(specs), register_page(specs), spec_format_page(schema)]
    if cli is not None:
        pages.append(cli_page(cli))
    for spec in specs:
        pages.extend(game_pages(spec))
    return pages


def games_nav(specs: Sequence[Spec]) -> list[dict[str, list[dict[str, str]]]]:
    """Return the navigation entries of the games, one section per game."""
    return [{game_title(spec): [{title: f"{game_dir(spec)}/{name}"} for name, title in GAME_PAGES]}
            for spec in specs]
