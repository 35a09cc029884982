"""A game's perft page: the published tree counts an implementer compares an engine with.

Read from the committed ``<game>.perft.json`` (see ``rulespec.conformance.play.perft_tables``), so
building the site counts nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import Page, code, front_matter, table, text
from rulespec.spec.model import Spec

PERFT_PAGE = "perft.md"
PERFT_TITLE = "Perft tables"


def _rows(rows: Sequence[Mapping[str, Any]]) -> str:
    body = [[str(r["depth"]), f"{r['nodes']:,}",
             "–" if r.get("terminal") is None else f"{r['terminal']:,}", code(r["weighted"])]
            for r in rows]
    return table(["Ply", "Nodes", "Games over", "Weighted"], body)


def _rulings(table_json: Mapping[str, Any], defaults: Mapping[str, str]) -> dict[str, str]:
    rulings: dict[str, str] = table_json["config"].get("rulings", {})
    return {a: o for a, o in rulings.items() if defaults.get(a) != o}


def perft_page(spec: Spec, document: Mapping[str, Any]) -> Page:
    """Return the perft page of one game from its published perft document."""
    links = Links(spec)
    defaults = spec.default_rulings()
    out = [front_matter(f"{game_title(spec)}: {PERFT_TITLE}"),
           f"# {text(game_title(spec))}: perft tables\n\n",
           "Exact counts of the game tree of the reference engine, ply by ply from the start "
           "(chance outcomes count as moves; transpositions are not merged). *Weighted* sums the "
           "probability of reaching each node, player moves weighing one: the expected number "
           "of action sequences of that length. Check your engine's counts with "
           f"`rulespec perft {spec.game_id} --depth D`; `--divide` splits a count by first "
           "move, and the conformance kit's `PERFT` check compares the trees position by "
           "position over the engine protocol.\n\n",
           f"Spec version {code(document['spec_version'])}. Tables go one ply deeper while the "
           f"deepest ply has at most {document['node_budget']:,} nodes "
           f"(the per-option tables: {document['option_node_budget']:,}).\n\n",
           "## Default rulings\n\n"]
    for t in document["defaults"]:
        out.append(f"### {t['config']['players']} players\n\n")
        out.append(_rows(t["rows"]) + "\n")
    out.append("## Ambiguity options that change the first plies\n\n")
    depth = document["option_depth"]
    base = document["option_base"]
    options = document["options"]
    out.append(f"At {base['config']['players']} players, to ply {depth}, every option of every "
               "ambiguity was counted; an option is listed when its counts differ from the "
               "defaults' below: a cheap witness that it changes the legal moves or chance "
               "early. An option not listed may still change the game later.\n\n")
    out.append(f"Defaults, for comparison:\n\n{_rows(base['rows'])}\n")
    if not options:
        out.append("No option changes the counts this early.\n")
    for t in options:
        chosen = ", ".join(f"{links.to(a)} = {code(o)}" for a, o in _rulings(t, defaults).items())
        out.append(f"### {chosen}\n\n{_rows(t['rows'])}\n")
    return Page(f"{game_dir(spec)}/{PERFT_PAGE}", "".join(out))
