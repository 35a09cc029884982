"""The pages of one game: overview, tables, structure and clauses, actions, invariants, variants,
ambiguities."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulespec.docsgen.changes import (
    CHANGES_PAGE,
    CHANGES_TITLE,
    entry_link,
    lineage_note,
    since_links,
)
from rulespec.docsgen.examples import TO_DOCS, clause_examples, witness_table
from rulespec.docsgen.history import History
from rulespec.docsgen.links import Links, clause_users, game_dir, game_title, player_range
from rulespec.docsgen.markdown import (
    Page,
    anchor,
    attributes,
    badge,
    code,
    details,
    fenced,
    front_matter,
    indent,
    json_text,
    kv_table,
    plural,
    table,
    text,
)
from rulespec.docsgen.register import OPEN_STATUSES, ambiguity_block, register_table
from rulespec.docsgen.schema import nested_fields, property_rows, schema_type
from rulespec.docsgen.traces import golden_traces, record_traces
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



def _header(spec: Spec, title: str) -> str:
    return (front_matter(f"{game_title(spec)}: {title}")
            + f"# {text(game_title(spec))}: {text(title)}\n\n" + _provenance(spec))


def _provenance(spec: Spec) -> str:
    return (f'<p class="rs-provenance">Generated from <code>specs/{spec.path.name}</code>, '
            f"spec version {html.escape(spec.version)}. Do not edit this page: edit the spec.</p>\n\n")


def _clause_line(links: Links, clauses: Sequence[Any]) -> str:
    return f"Clauses: {links.many(clauses)}\n" if clauses else ""


def _readings(spec: Spec, links: Links, readings: Sequence[Any]) -> str:
    """Return the records an element reads, each with its default option."""
    records = spec.ambiguities
    return ", ".join(
        links.to(str(r)) + (f" (default {code(records[str(r)]['default']['option'])})"
                            if str(r) in records else "")
        for r in readings)


def _source_lines(spec: Spec, links: Links, element: Mapping[str, Any]) -> str:
    """Say which part of an enforcing element the text says and which a ruling decides
    (``docs/editors/provenance.md``)."""
    out = ""
    if element.get("clauses"):
        out += f"From the text: {links.many(element['clauses'])}\n"
    if element.get("readings"):
        out += ("\nDecided by rulings (what the quotes do not say): "
                f"{_readings(spec, links, element['readings'])}\n")
    return out


def overview_page(spec: Spec, history: History | None = None) -> str:
    """Return the overview page: names, players, objective, sources, components and zones.

    With the game's ``history`` the spec version links to its entry on the Changes page.
    """
    game = spec.data["game"]
    links = Links(spec)
    names = game["names"]
    out = [front_matter(f"{game_title(spec)}: Overview"), f"# {text(game_title(spec))}\n\n",
           _provenance(spec), _one_name(spec), f"{links.prose(game['summary'])}\n\n",
           open_questions(spec, links)]
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
    current = next((e for e in history.releases if e.version == spec.version), None) \
        if history is not None else None
    facts.append(["Spec version", entry_link(current) if current is not None else
                  code(spec.version)])
    since = since_links(history, page=CHANGES_PAGE) if history is not None else ""
    if since:
        facts.append(["Changes since", f"{since} (everything since that release, one list)"])
    facts.append(["Reference interpreter", code(spec.reference_module)])
    facts.append(["Clause prefix", code(game["clause_prefix"])])
    out.append(kv_table(facts) + "\n")
    if "objective" in game:
        obj = game["objective"]
        out.append("## Objective\n\n" + f"{links.prose(obj['text'])}\n\n" + _clause_line(links, obj["clauses"]))
        out.append("\n")
    out.append("## Contents of the spec\n\n")
    counts = [
        ("Tables and parameters", "tables.md", plural(len(spec.section("tables")), "table")
         + ", " + plural(len(spec.section("parameters")), "parameter")),
        ("Structure and clauses", "rules.md", plural(len(spec.section("clauses")), "clause")),
        ("Actions and state", "actions.md", plural(len(spec.section("actions")), "action")),
        ("Invariants", "invariants.md", plural(len(spec.section("invariants")), "invariant")),
        ("Variants", "variants.md", plural(len(spec.section("variants")), "variant")),
        ("Ambiguity register", "ambiguities.md",
         plural(len(spec.section("ambiguities")), "record")),
    ]
    if history is not None:
        counts.append((CHANGES_TITLE, CHANGES_PAGE, _releases_line(history)))
    out.append(table(["Page", "What"], [[f"[{t}]({p})", c] for t, p, c in counts]) + "\n")
    out.append("## Sources\n\n")
    for src in spec.section("sources"):
        out.append(f"### {text(src['title'])} {anchor('source-' + str(src['id']))}\n\n")
        rows = [["Source id", code(src["id"])], ["Language", code(src["language"])],
                ["File", code(src["file"])], ["sha256", code(src["sha256"])]]
        if src.get("edition"):
            rows.append(["Edition", text(src["edition"])])
        if src.get("notes"):
            rows.append(["Notes", links.prose(src["notes"])])
        rows.append(["Sections", ", ".join(f"{text(s['title'])} ({code(s['id'])})"
                                           for s in src["sections"])])
        out.append(kv_table(rows) + "\n")
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
                             attributes(attrs) if attrs else "",
                             links.prose(comp.get("description", "")),
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
             links.prose(z.get("description", "")), links.many(z.get("clauses", []))]
            for z in zones]) + "\n")
    else:
        out.append("The spec lists no zones.\n\n")
    return "".join(out)


def open_questions(spec: Spec, links: Links) -> str:
    """Return the overview's box of what is still unknown: the open records, outcome first,
    each with what would decide it and what the reference plays until then."""
    records = list(spec.section("ambiguities"))
    still = sorted((a for a in records if a["status"] in OPEN_STATUSES),
                   key=lambda a: a["severity"] != "outcome")
    title = f"Open questions: {len(still)} of {plural(len(records), 'record')}"
    if not still:
        body = ("No question is open: every record of the [ambiguity register](ambiguities.md) "
                "is ruled, resolved, rejected or a duplicate.\n")
    else:
        body = ("What the rulebook does not settle and nothing has decided yet (records "
                "reported, triaged or deferred in the [ambiguity register](ambiguities.md)). "
                "Until one is decided, the reference plays its default; every other reading is "
                "one `--ruling ID=OPTION` away.\n\n")
        for amb in still:
            default = amb["default"]
            line = (f"- {links.to(str(amb['id']))} {text(amb['title'])} "
                    f"{badge('status', str(amb['status']))} "
                    f"{badge('severity', str(amb['severity']))}")
            if amb.get("needs"):
                line += f" **Needs:** {links.prose(amb['needs'])}"
            line += (f" **Until then:** {code(default['option'])} "
                     f"({badge('authority', str(default['authority']))}).")
            body += line + "\n"
    return f'!!! question "{title}"\n\n' + indent(body) + "\n"


def _one_name(spec: Spec) -> str:
    """Return the sentence that says the game's names are one game's."""
    names = spec.data["game"]["names"]
    original = str(names["original"])
    said = (f"*{text(original)}* in its original language, " if original != game_title(spec)
            else "")
    return (f"**{text(game_title(spec))}**: {said}{code(spec.game_id)} in commands "
            f"(`rulespec play {spec.game_id}`); one game.\n\n")


def _releases_line(history: History) -> str:
    released = history.releases
    if not released:
        return "no releases yet"
    line = plural(len(released), "release") + f", the newest {code(released[-1].label)}"
    return line + ("; unreleased edits" if len(history.entries) > len(released) else "")


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
            out.append(f"{links.prose(tab['description'])}\n\n")
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
                         links.prose(param["description"]), schema_type(param["schema"]), default,
                         links.many(param.get("clauses", []))
                         + (" · rulings: " + _readings(spec, links, param["readings"])
                            if param.get("readings") else "")])
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
        line = (f'{pad}{number}. <span id="step-{step["id"]}"></span>'
                f"{links.prose(step['text'])} <small>({code(step['id'])})</small>")
        extras = []
        if step.get("repeat"):
            extras.append(f"repeat: {text(step['repeat'])}")
        if step.get("actions"):
            extras.append("actions: " + links.many(step["actions"]))
        if step.get("clauses"):
            extras.append("from the text: " + links.many(step["clauses"]))
        if step.get("readings"):
            extras.append("decided by rulings: " + links.many(step["readings"]))
        if extras:
            line += " · " + " · ".join(extras)
        out.append(line + "\n")
        if step.get("steps"):
            out.append(_outline(step["steps"], links, depth + 1))
    return "".join(out)


def rules_page(spec: Spec, history: History | None = None) -> str:
    """Return the structure as an outline, then every clause under its permanent anchor.

    With the game's ``history`` each clause says in which release it appeared and last changed.
    """
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
    anchored: set[str] = set()
    for (src_id, sec_id), clauses in groups.items():
        if not clauses:
            continue
        title = sections.get((src_id, sec_id), sec_id)
        suffix = "" if single_source else f" ({src_id})"
        out.append(f"### {text(title)}{text(suffix)} {anchor(f'section-{src_id}-{sec_id}')}\n\n")
        for clause in clauses:
            lineage = "" if history is None else \
                lineage_note(history.lineage("clauses", str(clause["id"])))
            out.append(_clause_block(clause, links, users.get(str(clause["id"]), []), lineage))
            out.append(clause_examples(spec, str(clause["id"]), anchored))
    return "".join(out)


def _clause_block(clause: Mapping[str, Any], links: Links, users: Sequence[str],
                  lineage: str = "") -> str:
    cid = str(clause["id"])
    cit = clause["citation"]
    out = [f"#### {cid} {anchor(cid)}\n\n"]
    out.append(f"> {text(cit['quote'])}\n\n")
    out.append(f"{links.prose(clause['statement'])}\n\n")
    meta = []
    if clause.get("kind"):
        meta.append(badge("clause", str(clause["kind"])))
    if clause.get("tags"):
        meta.append("tags: " + ", ".join(code(t) for t in clause["tags"]))
    if cit.get("note"):
        meta.append(f"note: {links.prose(cit['note'])}")
    steps = [u.split(":", 1)[1] for u in users if u.startswith("step:")]
    others = [u for u in users if not u.startswith("step:")]
    if others:
        meta.append("used by: " + links.many(others))
    if steps:
        meta.append("structure: " + links.many(steps))
    if lineage:
        meta.append(lineage)
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
        [links.to(str(a["id"])), badge("actor", str(a["actor"])), links.prose(a["when"])]
        for a in spec.section("actions")]) + "\n")
    for action in spec.section("actions"):
        out.append(f"### {code(action['id'])} {anchor('action-' + str(action['id']))}\n\n")
        out.append(f"{badge('actor', str(action['actor']))} **When:** "
                   f"{links.prose(action['when'])}\n\n")
        out.append(f"**Effect:** {links.prose(action['effect'])}\n\n")
        if action.get("probability"):
            out.append(f"**Probability:** {text(action['probability'])}\n\n")
        params = action["params"]
        rows = property_rows(params, link=links.link) if isinstance(params, Mapping) else []
        if rows:
            out.append(table(["Field", "Type", "Required", "Description"], rows) + "\n")
        out.append(details("JSON Schema of the action",
                           fenced(json.dumps(params, indent=2, ensure_ascii=False), "json"),
                           searchable=False) + "\n")
        out.append(_source_lines(spec, links, action) + "\n")
    state = spec.data["state"]
    schema = state["schema"]
    out.append(f"## State {anchor('state')}\n\n")
    out.append("The canonical state every engine reports, as JSON. It is omniscient: it includes "
               "what the players cannot see (listed under *Hidden information*).\n\n")
    if state.get("notes"):
        out.append(f"{links.prose(state['notes'])}\n\n")
    rows = property_rows(schema, link=links.link) if isinstance(schema, Mapping) else []
    if rows:
        out.append(table(["Field", "Type", "Required", "Description"], rows) + "\n")
    if isinstance(schema, Mapping):
        out.append(nested_fields(schema, link=links.link))
    out.append(details("JSON Schema of the state",
                       fenced(json.dumps(schema, indent=2, ensure_ascii=False), "json"),
                       searchable=False) + "\n")
    out.append(f"### Hidden information {anchor('hidden')}\n\n")
    hidden = state.get("hidden", [])
    if hidden:
        out.append(table(["Path", "Visible to", "Clauses"], [
            [code(h["path"]), text(h["visible_to"]), links.many(h.get("clauses", []))]
            for h in hidden]))
        out.append("\n*owner*: only the seat the `[*]` of the path stands for; *nobody*: no "
                   "player. Everything else is public. Each player's view replaces what it may "
                   "not see; the [OpenSpiel and PettingZoo bridges](../../implementers/"
                   "bridges.md) observe through it.\n\n")
    else:
        out.append("Nothing in the state is hidden from any player.\n\n")
    out.append(_action_ids(spec))
    return "".join(out)


def _action_ids(spec: Spec) -> str:
    """Return the action numbering the bridges use, or why the spec's actions have none."""
    from rulespec.bridges.encoding import ActionEncoding, EncodingError

    out = [f"### Action ids {anchor('action-ids')}\n\n"]
    try:
        encoding = ActionEncoding(spec)
    except EncodingError as exc:
        return out[0] + f"The actions cannot be numbered: {text(str(exc))}\n"
    out.append(f"The OpenSpiel and PettingZoo bridges number the {encoding.size} actions as "
               "below: an action's id is the kind's first id plus the mixed-radix number of its "
               "parameters' positions in their domains, the last parameter varying fastest.\n\n")
    out.append(table(["Action", "First id", "Ids", "Parameters (most significant first)"], [
        [code(kind), str(first), str(count), ", ".join(code(p) for p in params) or "none"]
        for kind, first, count, params in encoding.table()]))
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
        [links.to(str(i["id"])), badge("scope", str(i["scope"])), links.prose(i["description"])]
        for i in invariants]) + "\n")
    for inv in invariants:
        out.append(f"## {inv['id']} {anchor(str(inv['id']))}\n\n")
        out.append(f"{badge('scope', str(inv['scope']))} {links.prose(inv['description'])}\n\n")
        out.append(fenced(str(inv["expression"]), "text") + "\n")
        out.append(_source_lines(spec, links, inv) + "\n")
    out.append(_events_section(spec, links))
    return "".join(out)


def _events_section(spec: Spec, links: Links) -> str:
    """Return the spec's rare events (what conformance coverage names), when it declares any."""
    events = list(spec.section("events"))
    if not events:
        return ""
    out = [f"## Rare events {anchor('events')}\n\n",
           "Rare paths of play the conformance kit reports as reached or not in every "
           "configuration (see [Coverage](../../implementers/coverage.md)). Each is detected "
           "from one step's canonical states (`before`, `after`) and `action`.\n\n"]
    for event in events:
        kinds = ", ".join(code(str(k)) for k in event.get("kinds", []))
        out.append(f"### {event['id']}: {text(str(event['name']))} {anchor(str(event['id']))}\n\n")
        out.append(f"{links.prose(event['description'])}"
                   + (f" Checked after {kinds}." if kinds else "") + "\n\n")
        out.append(fenced(str(event["when"]), "text") + "\n")
        out.append(_clause_line(links, event["clauses"]) + "\n")
    scope = [e for e in spec.section("coverage") if "when" in e]
    # Scope and hints are about the kit's search, not the rules: their own sections, which the
    # site search ranks after the rules (rulespec.docsgen.search.DEMOTED).
    if scope:
        out.append(f"### Counted only where they can happen {anchor('coverage-scope')}\n\n"
                   "Not counted in every configuration (they cannot happen otherwise):\n\n")
        out.append(table(["Items", "Counted when", "Why"], [
            [", ".join(code(str(i)) for i in entry["items"]), code(str(entry["when"])),
             links.prose(entry["why"])] for entry in scope]) + "\n")
    hints = [e for e in spec.section("coverage") if "seek" in e]
    if hints:
        out.append(f"### Coverage hints {anchor('coverage-hints')}\n\n"
                   "Sought with a hint (the kit's search on the reference prefers the choices "
                   "the hint holds for while these are not reached):\n\n")
        for entry in hints:
            out.append(", ".join(code(str(i)) for i in entry["items"]) + ": "
                       + links.prose(entry["why"]) + "\n\n")
            out.append(fenced(str(entry["seek"]), "text") + "\n")
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
        out.append(f"Variant {code(variant['id'])}. {links.prose(variant['description'])}\n\n")
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


def ambiguities_page(spec: Spec, history: History | None = None) -> str:
    """Return the game's ambiguity register: a filterable summary, then every record.

    With the game's ``history`` each record says in which release it appeared and last changed,
    and a last change that came with a release links to it.
    """
    links = Links(spec)
    out = [_header(spec, "Ambiguity register")]
    records = list(spec.section("ambiguities"))
    if not records:
        out.append("No ambiguities are recorded for this game.\n")
        return "".join(out)
    out.append("Every open question met while encoding the rules. Each option is implemented in "
               "the reference interpreter and selectable with `--ruling ID=OPTION`; the default "
               "is what the reference does when no ruling is given. Each record below shows its "
               "question, its default and what was measured; *The whole record* unfolds its "
               "sources, options, evidence, figures, history and witnesses, and opens by itself "
               "when a link names the record.\n\n")
    histories = {} if history is None else {spec.game_id: history}
    out.append(register_table([(spec, a) for a in records], prefix="", with_game=False,
                              histories=histories))
    traces = golden_traces([spec.game_id])
    for amb in records:
        out.append(ambiguity_block(amb, links, history, more=witness_table(spec, amb)
                                   + record_traces(spec, amb, traces, prefix=TO_DOCS)))
    return "".join(out)



def game_pages(spec: Spec, *, history: History | None = None) -> list[Page]:
    """Return every page of one game (of GAME_PAGES).

    With the game's ``history`` (the site has its Changes page) the overview links to it, and
    the clause and register pages say when each clause and record appeared and last changed.
    """
    render: dict[str, Callable[[], str]] = {
        "index.md": lambda: overview_page(spec, history),
        "tables.md": lambda: tables_page(spec),
        "rules.md": lambda: rules_page(spec, history),
        "actions.md": lambda: actions_page(spec),
        "invariants.md": lambda: invariants_page(spec),
        "variants.md": lambda: variants_page(spec),
        "ambiguities.md": lambda: ambiguities_page(spec, history),
    }
    return [Page(f"{game_dir(spec)}/{name}", render[name]()) for name, _ in GAME_PAGES]
