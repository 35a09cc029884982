"""The docs generator renders every part of a spec, the schema and the CLI (no site build)."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import click
import pytest

from rulespec import docsgen
from rulespec.cli import cli
from rulespec.spec import Spec, load_spec, spec_paths
from rulespec.spec.validate import spec_schema

HERE = Path(__file__).parent
EXAMPLE = HERE / "example" / "toy-dice.yaml"
EXAMPLE_SOURCES = HERE / "example" / "rulebooks"
README = HERE.parent.parent / "README.md"


@pytest.fixture(scope="module")
def example() -> Spec:
    return load_spec(EXAMPLE, sources=EXAMPLE_SOURCES)


def pages_of(spec: Spec) -> dict[str, str]:
    return {Path(p.path).name: p.markdown for p in docsgen.game_pages(spec)}


def heading_ids(markdown: str) -> list[str]:
    return re.findall(r"^#+ .*\{ #([^ }]+) \}$", markdown, flags=re.MULTILINE)


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def unescape(markdown: str) -> str:
    """Undo the generator's escaping so verbatim text can be searched for."""
    out = re.sub(r"\\(.)", r"\1", markdown)
    return out.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


# -- the example spec, part by part ---------------------------------------------------------------


def test_example_spec_is_valid_with_its_sources(example: Spec) -> None:
    """The docs tests' example spec passes every check, quotes included."""
    assert example.game_id == "toy-dice"


def test_every_game_page_is_generated(example: Spec) -> None:
    """Every page in GAME_PAGES exists under games/<id>/ and starts with a title."""
    paths = [p.path for p in docsgen.game_pages(example)]
    assert paths == [f"games/toy-dice/{name}" for name, _ in docsgen.GAME_PAGES]
    titles = []
    for page in docsgen.game_pages(example):
        head = re.match(r'---\ntitle: "([^"]+)"\n---\n\n# ', page.markdown)
        assert head, f"{page.path} has no front-matter title and heading"
        titles.append(head.group(1))
    assert len(set(titles)) == len(titles), f"page titles repeat: {titles}"
    assert all(t.startswith("Toy Dice: ") for t in titles), "each title names the game"


def test_every_clause_has_its_anchor_quote_and_statement(example: Spec) -> None:
    """Every clause appears under a heading anchored by its id, with quote and statement."""
    rules = pages_of(example)["rules.md"]
    anchors = heading_ids(rules)
    plain = squash(unescape(rules))
    for clause in example.section("clauses"):
        cid = clause["id"]
        assert anchors.count(cid) == 1, f"{cid}: needs exactly one heading anchored #{cid}"
        assert squash(clause["citation"]["quote"]) in plain, f"{cid}: quote missing"
        assert squash(clause["statement"]) in plain, f"{cid}: statement missing"


def test_clause_lists_what_rests_on_it(example: Spec) -> None:
    """A clause links back to the invariants, ambiguities and elements that cite it."""
    rules = pages_of(example)["rules.md"]
    block = rules.split("#### TOY-TURN-02", 1)[1].split("####", 1)[0]
    for user in ("TOY-INV-CONSERVE", "TOY-INV-PAY-ONE", "die_faces", "roll", "pot"):
        assert user in block, f"TOY-TURN-02 should list {user} under 'used by'"
    assert "(invariants.md#TOY-INV-PAY-ONE)" in block


def test_structure_is_an_ordered_outline_with_clause_links(example: Spec) -> None:
    """Setup, flow and end are numbered lists; nested steps are indented; clauses link."""
    rules = pages_of(example)["rules.md"]
    steps = re.sub(r'<span id="step-[^"]+"></span>', "", rules)
    assert "1. Each player takes their starting counters." in steps
    assert "    1. Roll the die." in steps and "    2. Pass to the next player." in steps
    assert re.search(r'^1\. <span id="step-[a-z0-9-]+"></span>Each player', rules, re.MULTILINE), \
        "each structure step has an anchor"
    assert "[<code>TOY-TURN-03</code>](rules.md#TOY-TURN-03)" in rules
    assert "[<code>roll</code>](actions.md#action-roll)" in rules
    assert "repeat: until a player has no counters" in rules


def test_every_table_is_rendered_as_a_table(example: Spec) -> None:
    """Each table has an anchored heading, its column titles and every row's values."""
    tables = pages_of(example)["tables.md"]
    for tab in example.section("tables"):
        assert f"table-{tab['id']}" in heading_ids(tables), f"table {tab['id']} has no anchor"
        header = "| " + " | ".join(docsgen.text(c["title"]) for c in tab["columns"]) + " |"
        assert header in tables, f"table {tab['id']}: header row missing"
        for row in tab["rows"]:
            line = "| " + " | ".join(docsgen.text(row[c["id"]]) for c in tab["columns"]) + " |"
            assert line in tables, f"table {tab['id']}: row {row} missing"
    # A pipe in a title must not split the heading or a cell.
    assert "Die faces \\| with a pipe" in tables


def test_every_parameter_is_listed_with_its_default(example: Spec) -> None:
    """Parameters show literal defaults and where table-driven defaults come from."""
    tables = pages_of(example)["tables.md"]
    for pid in example.parameters:
        assert f'<span id="param-{pid}"></span>' in tables, f"parameter {pid} missing"
    assert "column <code>counters</code> of" in tables
    assert "<code>6</code>" in tables


def test_overview_has_players_components_objective_and_sources(example: Spec) -> None:
    """The overview gives players, nested components with counts, objective and sources."""
    overview = pages_of(example)["index.md"]
    assert "| Players | 2–3" in overview
    assert "Do not be the first player to run out of counters." in overview
    assert '<span id="component-counters-red"></span>Red counters' in overview
    assert "&emsp;" in overview, "parts should be indented under their component"
    assert example.data["sources"][0]["sha256"] in overview
    assert '<span id="zone-pot"></span>Pot' in overview


def test_actions_and_state_schema(example: Spec) -> None:
    """Each action has an anchor, its fields and its JSON Schema; the state lists its fields."""
    page = pages_of(example)["actions.md"]
    assert "action-roll" in heading_ids(page)
    assert "| <code>face</code> | integer (≥ 1) | yes |" in page
    assert '"const": "roll"' in page
    for field in example.state_schema["properties"]:
        assert f"| <code>{field}</code> |" in page, f"state field {field} missing"
    assert "| <code>$.pot</code> | nobody |" in page


def test_invariants_show_their_expressions(example: Spec) -> None:
    """TOY-INV-*: every invariant is anchored and shows its CEL expression verbatim."""
    page = pages_of(example)["invariants.md"]
    for inv in example.section("invariants"):
        assert inv["id"] in heading_ids(page)
        assert inv["expression"] in page, f"{inv['id']}: expression missing"


def test_variants_show_their_overrides(example: Spec) -> None:
    """Each variant is anchored and lists its parameter overrides."""
    page = pages_of(example)["variants.md"]
    assert "variant-long-game" in heading_ids(page)
    assert "[<code>extra_counters</code>](tables.md#param-extra_counters) | <code>2</code>" in page


def test_ambiguity_records_are_complete(example: Spec) -> None:
    """TOY-AMB-01/02: badges, question, sources, options, default, rejected, evidence, history."""
    page = pages_of(example)["ambiguities.md"]
    plain = unescape(page)
    for amb in example.section("ambiguities"):
        aid = amb["id"]
        assert aid in heading_ids(page), f"{aid}: no anchor"
        block = plain.split(f"## {aid}:", 1)[1].split("\n## ", 1)[0]
        for kind in ("status", "severity", "kind"):
            assert f"rs-{kind}-{amb[kind]}" in block, f"{aid}: {kind} badge missing"
        assert squash(amb["question"]) in squash(block)
        for opt in amb["options"]:
            assert f"<code>{opt['id']}</code>" in block, f"{aid}: option {opt['id']} missing"
        assert squash(amb["default"]["rationale"]) in squash(block), f"{aid}: rationale missing"
        for rej in amb.get("rejected", []):
            assert rej["reason"] in block, f"{aid}: rejected reason missing"
        for ev in amb.get("evidence", []):
            assert ev["text"] in block, f"{aid}: evidence missing"
        for src in amb["sources"]:
            assert squash(src["quote"]) in squash(block), f"{aid}: source quote missing"
    assert "Source 1 contradicts source 2." in page
    assert "behaviour in the reference" in page
    assert "| mean turns |" in page or "mean turns" in page, "measured impact is a table"
    assert '"mean_turns"' not in page, "no raw JSON for the measured impact"


def test_register_page_is_filterable_and_lists_every_record(example: Spec) -> None:
    """The cross-game register declares its filters and links every record to its game page."""
    page = docsgen.register_page([example]).markdown
    assert 'data-filters="Game,Status,Severity,Kind,Authority"' in page
    assert '<span data-key="toy-dice">Toy Dice</span>' in page, "the game filters by its id"
    for column in ("Impact", "Clauses", "Options", "Authority", "Last change"):
        assert f"| {column} |" in page, f"register column {column} missing"
    assert "hide:\n  - navigation\n  - toc" in page, "the register has the page's whole width"
    assert 'data-columns="Id,Game,Title,Status,Severity,Default,Measured effect"' in page
    assert "data-search-exclude" in page, "the table repeats the records: not in the search"
    for aid in example.ambiguities:
        assert f"(games/toy-dice/ambiguities.md#{aid})" in page
    assert "2 records: 1 ruled, 1 triaged." in page


def check_links(spec: Spec) -> None:
    """Assert every in-game link names a page of the game and an anchor that page defines."""
    pages = pages_of(spec)
    ids = {name: set(heading_ids(md)) | set(re.findall(r'<(?:span|details)[^>]* id="([^"]+)"', md))
           for name, md in pages.items()}
    found = 0
    for name, markdown in pages.items():
        for target, frag in re.findall(r"\]\(([a-z]+\.md)#([^)]+)\)", markdown):
            found += 1
            assert frag in ids[target], f"{spec.game_id}/{name}: link to {target}#{frag} " \
                "has no anchor"
    assert found >= len(spec.section("clauses")), f"{spec.game_id}: too few links were checked"


def test_links_point_at_existing_anchors(example: Spec) -> None:
    """Every in-game link target names a page of the game and an anchor that page defines."""
    check_links(example)


def test_text_escapes_markdown_and_html() -> None:
    """Rulebook text never turns into markup: pipes, stars, tags and list markers stay text."""
    assert docsgen.text("a | b") == "a \\| b"
    assert docsgen.text("*not bold*") == "\\*not bold\\*"
    assert docsgen.text("<script>") == "&lt;script&gt;"
    assert docsgen.text("1. first") == "1\\. first"
    assert docsgen.text("- item") == "\\- item"
    assert docsgen.text("two\n  lines") == "two lines"
    assert docsgen.code("a|`b`") == "<code>a&#124;`b`</code>"
    assert docsgen.fenced("x ``` y").startswith("````text\n")


# -- every registered spec ------------------------------------------------------------------------


def registered() -> list[Path]:
    return spec_paths()


@pytest.mark.parametrize("path", registered(), ids=lambda p: p.stem)
def test_registered_spec_renders(path: Path) -> None:
    """Every spec in the registry renders every page, with one anchor per clause."""
    spec = load_spec(path)
    pages = pages_of(spec)
    anchors = heading_ids(pages["rules.md"])
    for clause in spec.section("clauses"):
        assert anchors.count(clause["id"]) == 1, f"{path.name}: {clause['id']} has no anchor"
    for tab in spec.section("tables"):
        assert f"table-{tab['id']}" in heading_ids(pages["tables.md"])
    for amb in spec.section("ambiguities"):
        assert amb["id"] in heading_ids(pages["ambiguities.md"])
    check_links(spec)


# -- the spec format reference --------------------------------------------------------------------


def schema_keys(schema: Mapping[str, Any]) -> Iterator[str]:
    """Yield every property name declared anywhere in a JSON Schema."""
    if isinstance(schema, Mapping):
        for key, sub in schema.get("properties", {}).items():
            yield key
            yield from schema_keys(sub)
        for key in ("items", "$defs"):
            sub = schema.get(key)
            if isinstance(sub, Mapping):
                if key == "$defs":
                    for d in sub.values():
                        yield from schema_keys(d)
                else:
                    yield from schema_keys(sub)


def test_spec_format_reference_covers_every_key() -> None:
    """Every property of the spec JSON Schema appears in the generated format reference."""
    schema = spec_schema()
    page = docsgen.spec_format_page(schema).markdown
    for key in set(schema_keys(schema)):
        assert f"| <code>{key}</code> |" in page, f"schema key {key!r} is not documented"
    for name in schema["$defs"]:
        assert f"def-{name.lower()}" in heading_ids(page), f"$defs/{name} has no section"
    assert "Exactly one of: `default`; `from_table` must be present." in page


def test_spec_format_reference_links_resolve() -> None:
    """Every in-page link of the format reference points at a heading of that page."""
    page = docsgen.spec_format_page(spec_schema()).markdown
    ids = set(heading_ids(page))
    for frag in re.findall(r"\]\(#([^)]+)\)", page):
        assert frag in ids, f"link to #{frag} has no heading"


# -- the CLI reference ----------------------------------------------------------------------------


def walk(command: click.Command, ctx: click.Context) -> Iterator[tuple[click.Command,
                                                                      click.Context]]:
    yield command, ctx
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None:
                yield from walk(sub, click.Context(sub, info_name=name, parent=ctx,
                                                  **sub.context_settings))


def test_cli_reference_covers_every_command_and_option() -> None:
    """Every rulespec command has a section with its usage, and every option is listed."""
    page = docsgen.cli_page(cli).markdown
    for command, ctx in walk(cli, click.Context(cli, info_name="rulespec", **cli.context_settings)):
        assert f"`{ctx.command_path}`" in page, f"{ctx.command_path} is not documented"
        assert command.get_usage(ctx) in page
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                for opt in param.opts:
                    assert f"<code>{opt}</code>" in page, f"{ctx.command_path} {opt} missing"
    ids = set(heading_ids(page))
    for frag in re.findall(r"\]\(#([^)]+)\)", page):
        assert frag in ids, f"CLI reference: link to #{frag} has no heading"


# -- the README commands --------------------------------------------------------------------------


def test_getting_started_takes_the_readme_commands() -> None:
    """The getting-started page shows the README's two set-up commands, byte for byte."""
    readme = README.read_text(encoding="utf-8")
    page = (HERE.parent.parent / "docs" / "getting-started.md").read_text(encoding="utf-8")
    filled = docsgen.fill_markers(page, specs=[], readme=readme)
    for name in ("main-command", "test-command"):
        block = docsgen.readme_block(readme, name)
        assert block.startswith("```sh\n") and block in filled, f"{name} not included"
    assert "<!-- rulespec:" not in filled


def test_readme_block_errors_say_what_to_fix() -> None:
    """A missing marker or an unclosed block is a DocsError naming the marker."""
    with pytest.raises(docsgen.DocsError, match="no '<!-- main-command -->' marker"):
        docsgen.readme_block("# nothing here\n", "main-command")
    with pytest.raises(docsgen.DocsError, match="never closed"):
        docsgen.readme_block("<!-- x -->\n```sh\necho\n", "x")
    with pytest.raises(docsgen.DocsError, match="must open a fenced code block"):
        docsgen.readme_block("<!-- x -->\ntext\n", "x")
    with pytest.raises(docsgen.DocsError, match=r"README\.md not found"):
        docsgen.fill_markers("<!-- rulespec:readme x -->", specs=[], readme=None)


def test_games_marker_lists_games(example: Spec) -> None:
    """The home page's games marker becomes a table linking each game, relative to the page."""
    filled = docsgen.fill_markers(docsgen.MARKER_GAMES, specs=[example], readme=None,
                                   prefix="../")
    assert "[Toy Dice](../games/toy-dice/index.md)" in filled


def test_player_range_collapses_a_single_count(example: Spec) -> None:
    """A game for exactly N players shows N, not N–N."""
    assert docsgen.player_range(example) == "2–3"
    data = dict(example.data, game=dict(example.data["game"], players={"min": 4, "max": 4}))
    single = Spec(path=example.path, data=data, marks=example.marks)
    assert docsgen.player_range(single) == "4"


# -- reading aids: numbers, prose, measured data, search, the matrix ------------------------------


def test_counts_agree_in_number() -> None:
    """'1 table', never '1 tables'; bounds too ('at least 1 item')."""
    from rulespec.docsgen.markdown import plural

    assert plural(1, "table") == "1 table" and plural(3, "table") == "3 tables"
    assert docsgen.schema_type({"type": "array", "minItems": 1}) == "array (at least 1 item)"


def test_ids_in_prose_become_links(example: Spec) -> None:
    """Bare permanent ids and code spans naming an element link to it; other text stays text."""
    links = docsgen.Links(example)
    out = links.prose("See TOY-TURN-02 and `roll`, not `nothing` or TOY-NOPE-99.")
    assert "[<code>TOY-TURN-02</code>](rules.md#TOY-TURN-02)" in out
    assert "[<code>roll</code>](actions.md#action-roll)" in out
    assert "<code>nothing</code>" in out and "TOY-NOPE-99" in out and "`" not in out


def test_measured_impact_is_tables_not_json() -> None:
    """Per-option metrics become one matrix; scalars a key/value table without a header row."""
    from rulespec.docsgen.markdown import data_tables

    out = data_tables({"method": "1000 games", "d6": {"mean_score": 19.4, "ties": 21},
                       "d8": {"mean_score": 25.7, "ties": 9}})
    assert '<div class="rs-kv" markdown>' in out and "| method | 1000 games |" in out
    assert "|  | mean score | ties |" in out
    assert "| <code>d6</code> | 19.4 | 21 |" in out and "| <code>d8</code> | 25.7 | 9 |" in out
    assert "{" not in out


def test_nested_state_objects_get_field_tables() -> None:
    """Objects inside the state (players[], result) get their own field table."""
    from rulespec.docsgen.schema import nested_fields

    schema = {"type": "object", "properties": {
        "players": {"type": "array", "items": {"type": "object", "properties": {
            "score": {"type": "integer", "description": "Points so far, see `result`."}}}},
        "result": {"oneOf": [{"type": "null"}, {"type": "object", "properties": {
            "winners": {"type": "array"}}}]}}}
    out = nested_fields(schema)
    assert "**Fields of <code>players&#91;&#93;</code>**" in out and "**Fields of <code>result</code>**" in out
    assert "Points so far, see <code>result</code>." in out


def test_search_index_tags_ids() -> None:
    """A section anchored at an id is tagged with it; the text is left as it is (accents are
    folded by the patched worker, not by hidden copies in the index)."""
    index = {"config": {"separator": "x"}, "docs": [
        {"location": "games/g/rules/#DDO-ROUND-02", "title": "DDO-ROUND-02",
         "text": "Quando todos tiverem lançado o dado"},
        {"location": "games/g/", "title": "Pontuação", "text": "plain"}]}
    tuned = docsgen.tune_index(index)
    assert tuned["docs"][0]["tags"] == ["DDO-ROUND-02"]
    assert tuned["docs"][0]["text"] == "Quando todos tiverem lançado o dado"
    assert "tags" not in tuned["docs"][1] and tuned["docs"][1]["text"] == "plain"
    assert docsgen.fold("pontuação") == "pontuacao"


#: Portuguese (Dado de Ouro) and Galician (Tonto) words as a reader may type them, and the word
#: of the rulebook text each must find.
PLURAL_PAIRS = [("pontuacoes", "pontuação"), ("pontuacao", "pontuações"), ("possivel", "possíveis"),
                ("lancamentos", "lançamento"), ("comodin", "comodíns"), ("regioes", "região"),
                ("vao", "vão"), ("papel", "papéis"), ("maos", "mão"),
                ("puntuacions", "puntuación"), ("ganadores", "gañador"), ("numeros", "número")]


@pytest.mark.skipif(not Path("/usr/bin/node").exists(), reason="node is not installed")
def test_worker_folds_accents_and_reduces_portuguese_and_galician_plurals(tmp_path: Path) -> None:
    """The patched worker's pipeline step (run in Node as the browser runs it): a typed word
    and the rulebook's accented word share a term; an English word gets no marked copy in the
    index, and two different words stay different."""
    from rulespec.docsgen.search import WORKER_FIELDS, WORKER_FOLD

    setup = WORKER_FOLD.removesuffix(WORKER_FIELDS)
    script = tmp_path / "fold.js"
    script.write_text(
        "const self = globalThis;\n"
        "class Token { constructor(s) { this.str = s; } toString() { return this.str; }\n"
        "  clone(fn) { return new Token(fn(this.str)); } }\n"
        "const builder = {pipeline: {_stack: []}, searchPipeline: {_stack: []}};\n"
        f"(function () {{ {setup} }}).call(builder);\n"
        "const run = (p, w) => p._stack[0](new Token(w)).map(String);\n"
        "const pairs = JSON.parse(process.argv[2]);\n"
        "process.stdout.write(JSON.stringify(pairs.map(([typed, text]) => [\n"
        "  run(builder.searchPipeline, typed), run(builder.pipeline, text)])));\n"
        "", encoding="utf-8")
    pairs = [*PLURAL_PAIRS, ("rolls", "rolls"), ("pontuacao", "pontuar"), ("dado", "dados")]
    out = subprocess.run(["node", str(script), json.dumps(pairs)], capture_output=True,
                         text=True, check=True)
    shown = json.loads(out.stdout)
    for (typed, text), (query, indexed) in zip(PLURAL_PAIRS, shown[:len(PLURAL_PAIRS)], strict=True):
        assert set(query) & set(indexed), f"{typed!r} does not find {text!r}: {query} {indexed}"
    assert shown[-3][1] == ["rolls"], "an unaccented word is indexed once"
    assert not set(shown[-2][0]) & set(shown[-2][1]), "pontuacao must not find pontuar"
    assert shown[-1][0] == ["dado", "\u00a7dado"] and shown[-1][1] == ["dados"]


def test_search_worker_patch() -> None:
    """After the patch the theme's worker splits queries on whitespace only and searches each
    word whole (stemmed) as well as as a prefix; without the code it patches, we say so."""
    from rulespec.docsgen.search import (
        WORKER_FIELDS,
        WORKER_FOLD,
        WORKER_FOUND,
        WORKER_FOUND_PATCHED,
        WORKER_MISSING,
        WORKER_MISSING_PATCHED,
        WORKER_PREFIX,
    )

    tail = f";{WORKER_FOUND};{WORKER_MISSING};{WORKER_FIELDS}"
    worker = f"a;t.QueryLexer.termSeparator=t.tokenizer.separator,b;x{WORKER_PREFIX}.join(' ')"
    assert docsgen.patch_worker(worker + tail) == (
        "a;t.QueryLexer.termSeparator=/\\s+/,b;"
        "x.map(r=>/(^[+-]|[~^]\\d+$)/.test(r)?r:`${r}* ${r}`).join(' ')"
        f";{WORKER_FOUND_PATCHED};{WORKER_MISSING_PATCHED};{WORKER_FOLD}")
    assert docsgen.patch_worker(worker) is None, "the missing marks must be patched too"
    assert docsgen.patch_worker("something else") is None
    assert docsgen.patch_worker("a;t.QueryLexer.termSeparator=t.tokenizer.separator") is None, \
        "a worker that no longer adds the prefix star must be looked at, not half patched"


def _stamped(engine: str, failures: list[dict[str, Any]], *, checks: list[str] | None = None,
             planted: str | None = None, version: str = "0.1.0") -> dict[str, Any]:
    """A report as `rulespec matrix` writes it, of the toy game: one configuration, one run."""
    from rulespec.conformance.judging.checks import CHECK_IDS

    failed = {f["check"] for f in failures}
    config = {"game": "toy-dice", "players": 2, "rulings": {}, "variants": [], "parameters": {}}
    for f in failures:
        f.setdefault("config", config)
    return {
        "format": "rulespec-conformance/1", "engine": engine, "game": "toy-dice",
        "spec_version": version, "ok": not failures,
        "checks": [{"id": c, "title": c.lower(), "status": "failed" if c in failed else "passed"}
                   for c in (checks or CHECK_IDS)],
        "runs": [{"config": config, "ok": not failures, "skipped": None,
                  "failures": failures}],
        "rule_examples": {"examples": 3, "failures": []}, "golden": [], "failures": failures,
        "causes": [{"cause": f"cause {n}", "checks": [f["check"]], "count": 1, "where": [],
                    "failures": [n], "shown": n, "rulings": []} for n, f in enumerate(failures)],
        "matrix": {"format": "rulespec-matrix/1", "produced": "2026-01-02T03:04:05Z",
                   "rulespec": "9.9.9",
                   "engine": {"id": engine, "name": engine, "planted_bug": planted,
                              "declared": {"name": f"{engine}.js", "version": "1.2.3"}},
                   "game": {"id": "toy-dice", "reference": "toy", "distribution": "toy 1"},
                   "configuration": {"id": "default", "label": "defaults", "options": []},
                   "spec": {"today": version, "checked_at": version, "releases": [version]},
                   "kit": {"checks": list(CHECK_IDS)}},
    }


def _legal_failure(trace: str | None = None, actions: int = 1) -> dict[str, Any]:
    return {"check": "DIFF-LEGAL", "title": "same legal actions as the reference",
            "clauses": ["TOY-TURN-02"], "subject": None, "message": "order differs",
            "step": actions, "trace": trace, "also": [], "diff": [],
            "actions": [{"actor": "chance", "action": {"kind": "roll", "face": 2}}] * actions,
            "expected": {"legal_actions": [{"kind": "hold"}, {"kind": "roll"}]},
            "actual": {"legal_actions": [{"kind": "roll"}, {"kind": "hold"}]}}


def test_matrix_cells_link_to_their_failures(example: Spec, tmp_path: Path) -> None:
    """A failed check links to its failure: the cause, the broken clause linked to its page,
    the reference's legal actions against the engine's row by row, and the trace viewer on the
    failure's trace (written by the matrix run, with its steps)."""
    from rulespec.docsgen.matrix import matrix_page

    trace = "failures/toy-dice.bad/toy-dice-DIFF-LEGAL-1.jsonl"
    (tmp_path / trace).parent.mkdir(parents=True)
    (tmp_path / trace).write_text('{"type":"header"}\n{"type":"step","n":1}\n'
                                  '{"type":"result"}\n', encoding="utf-8")
    report = _stamped("bad", [_legal_failure(trace)], planted="lists holds first")
    page = matrix_page([report], [example], folder=tmp_path).markdown
    assert 'title: "Conformance matrix"' in page
    assert "✗</span> DIFF-LEGAL](#fail-1)" in page and "{ #fail-1 }" in page
    assert "Broken rule: [<code>TOY-TURN-02</code>](../games/toy-dice/rules.md#TOY-TURN-02)" in page
    assert "| 1 ≠ | <code>{\"kind\": \"hold\"}</code> | <code>{\"kind\": \"roll\"}</code> |" in page
    assert "#trace=failure.toy-dice.bad.toy-DIFF-LEGAL-1" not in page
    assert "#trace=failure.toy-dice.bad.toy-dice-DIFF-LEGAL-1&amp;step=1" in page
    assert "Minimal game (1 action)" in page and "planted bug: lists holds first" in page
    # No trace file where the report says: no link to an empty viewer.
    assert "#trace=" not in matrix_page([report], [example], folder=tmp_path / "x").markdown


def test_a_failure_at_the_start_says_there_is_no_game_to_step(example: Spec,
                                                              tmp_path: Path) -> None:
    from rulespec.docsgen.matrix import matrix_page

    trace = "failures/toy-dice.bad/toy-dice-DIFF-LEGAL-1.jsonl"
    (tmp_path / trace).parent.mkdir(parents=True)
    (tmp_path / trace).write_text('{"type":"header"}\n{"type":"result"}\n', encoding="utf-8")
    page = matrix_page([_stamped("bad", [_legal_failure(trace, actions=0)])], [example],
                       folder=tmp_path).markdown
    assert "#trace=" not in page and "there is no game to step through" in page


def test_matrix_rows_are_stamped_and_fit_in_grouped_columns(example: Spec) -> None:
    """Each row says the spec version it was checked at, the date and the rulespec; the kit's
    checks are grouped into a few columns (every check in exactly one), rule examples first."""
    from rulespec.conformance.judging.checks import CHECK_IDS
    from rulespec.docsgen.matrix import columns, matrix_page

    grouped = [c for _, _, ids in columns() for c in ids]
    assert sorted(grouped) == sorted(CHECK_IDS) and len(columns()) <= 6
    assert columns()[0][2] == ("EXAMPLE",)
    page = matrix_page([_stamped("eng", [])], [example]).markdown
    header = next(line for line in page.splitlines() if line.startswith("| Engine |"))
    assert header.count("|") == 3 + len(columns()) + 1 and ">Examples</abbr>" in header
    row = next(line for line in page.splitlines() if line.startswith("| eng<br>"))
    assert "spec 0\\.1.0<br><small>2026-01-02, rulespec 9\\.9.9</small>" in row
    assert "eng.js 1\\.2.3" in row and "✓</span> 3" in row  # three rule examples passed


def test_matrix_shows_each_engines_ruling_profile(example: Spec) -> None:
    """The engine's profile is summed up under its game's table and detailed below."""
    from rulespec.docsgen.matrix import matrix_page

    profile = {"format": "rulespec-ruling-profile/2", "engine": "eng", "game": "toy-dice",
               "checked_as": "1", "players": [2], "witnesses_run": 3,
               "summary": "follows the defaults except TOY-AMB-01 = high at 2 players",
               "table": [["TOY-AMB-01", "low", "high", "witness TOY-EX-HIGH", "2"]]}
    page = matrix_page([_stamped("eng", [])], [example], [profile]).markdown
    assert ("- eng: follows the defaults except TOY-AMB-01 = high at 2 players "
            "([details](#profile-toy-dice-eng))") in page
    assert "## Ruling profiles" in page and "| TOY-AMB-01 | low | high |" in page


def test_the_docs_refuse_reports_the_kit_would_not_write(example: Spec) -> None:
    """Unstamped reports, a check the kit does not know, a spec version that is not a release:
    each refused with its file and why. A report made before the kit gained a check (fewer
    checks, OBSERVATION in 0.4) is read, that check shown as not run."""
    from rulespec.conformance.judging.checks import CHECK_IDS
    from rulespec.docsgen.markdown import DocsError
    from rulespec.docsgen.matrix import check_reports, refusals

    good = _stamped("eng", [])
    assert refusals([good], [], {}) == []
    old = {**_stamped("old", []), "_file": "old.json"}
    del old["matrix"]
    fewer = {**_stamped("few", [], checks=[c for c in CHECK_IDS if c != "OBSERVATION"]),
             "_file": "few.json"}
    unknown = {**_stamped("odd", [], checks=[*CHECK_IDS, "NO-SUCH-CHECK"]), "_file": "odd.json"}
    found = refusals([old, fewer, unknown, {**good, "_file": "eng.json"}], [],
                     {"toy-dice": example})
    assert found[0] == ("old.json: not produced by rulespec matrix (no matrix stamp: no date, "
                        "no kit version)")
    assert ("odd.json: checked with other checks than the kit's: NO-SUCH-CHECK, which the kit "
            "no longer has") in found
    assert not any(f.startswith("few.json: checked") for f in found)
    # The toy spec records no release: 0.1.0 is not one.
    assert "eng.json: its spec version 0.1.0 (today) is not a release of toy-dice (none)" in found
    with pytest.raises(DocsError, match="Produce them again with `rulespec matrix"):
        check_reports([old], [], {}, Path("reports"))


def test_generated_pages_link_their_source_file() -> None:
    """With a repository URL set, 'Generated from specs/x.yaml' links to the file."""
    md = '<p class="rs-provenance">Generated from <code>specs/fool.yaml</code>, spec 1.</p>'
    out = docsgen.link_repository_files(md, "https://example.org/r/")
    assert '<a href="https://example.org/r/blob/HEAD/specs/fool.yaml"><code>specs/fool.yaml</code></a>' in out


def test_a_charts_title_and_legend_are_its_caption() -> None:
    """A distribution chart's title and legend go into an HTML caption, which wraps (drawn in
    the 320 px picture, Ruby Rhino's nothing-to-move-cannot-complete ran past it and was cut);
    the picture keeps them for its accessible name, the style sheet hides their drawing."""
    from rulespec.docsgen.sweepdocs import captioned
    from rulespec.impact.distchart import win_rate_bars_svg

    result = {"win_counts": {"baseline": [10, 20], "option": [5, 25]}, "games": 50,
              "option": "nothing-to-move-cannot-complete", "agent": "random"}
    svg = win_rate_bars_svg(result, "trade", ident="x")
    out = captioned(svg)
    assert out.startswith('<figure class="rs-chart rs-chart-keyed">\n<figcaption aria-hidden="true">'
                          "<strong>Win rate per seat, nothing-to-move-cannot-complete (random), "
                          "50 games each</strong><br>")
    assert '<span style="color: #0072B2">■</span> trade (default)</span>' in out
    assert '<span style="color: #D55E00">■</span> nothing-to-move-cannot-complete</span>' in out
    assert svg in out and "\n\n" not in out
    assert captioned("<svg></svg>") == "<svg></svg>", "a picture without a title stays as it is"
