"""Validate a spec: JSON Schema with file positions, then semantic checks, then sources."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespec.data import specs_dir
from rulespec.spec import cache as spec_cache
from rulespec.spec import formats, provenance
from rulespec.spec.errors import Problem, SpecError
from rulespec.spec.loader import JsonPath, Marks, iter_nodes, load_yaml, read_text
from rulespec.spec.model import Spec

if TYPE_CHECKING:  # jsonschema is imported when a spec is validated, not when one is cached
    import jsonschema

SCHEMA_PATH = specs_dir() / "schema" / "spec.schema.json"

#: Variables an invariant may use, by scope.
INVARIANT_VARIABLES: Mapping[str, frozenset[str]] = {
    "state": frozenset({"state", "params", "config"}),
    "terminal": frozenset({"state", "params", "config"}),
    "transition": frozenset({"state", "prev", "action", "params", "config"}),
}
#: Variables an event's ``when`` expression may use (one step: the states around an action).
EVENT_VARIABLES: frozenset[str] = frozenset({"before", "action", "after", "params", "config"})
#: Variables a ``coverage`` entry's ``when`` may use (a configuration, before any play).
SCOPE_VARIABLES: frozenset[str] = frozenset({"params", "config"})
#: Variables a ``coverage`` entry's ``seek`` hint may use (one choice: a state and an action).
SEEK_VARIABLES: frozenset[str] = frozenset({"state", "action", "params", "config"})


@cache
def spec_schema() -> dict[str, Any]:
    """Return the spec JSON Schema."""
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def _schema_problems(data: Any, marks: Marks) -> list[Problem]:
    import jsonschema
    from jsonschema.exceptions import best_match

    validator = jsonschema.Draft202012Validator(spec_schema())
    problems: list[Problem] = []
    for error in validator.iter_errors(data):
        # oneOf/anyOf failures hide the useful sub-error; pick the most relevant one.
        err = best_match([error]) if error.context else error
        path: JsonPath = tuple(err.absolute_path)
        problem = marks.problem(path, _explain(err))
        if problem not in problems:
            problems.append(problem)
    return problems


def _explain(err: jsonschema.ValidationError) -> str:
    """Turn a schema error into a sentence that says what to fix."""
    validator = err.validator
    if validator == "required":
        wanted = err.validator_value if isinstance(err.validator_value, list) else []
        missing = [m for m in wanted if isinstance(err.instance, dict) and m not in err.instance]
        # jsonschema reports each missing key as its own error ("'x' is a required property").
        named = [m for m in missing if err.message.startswith(f"{m!r} ")]
        key = named[0] if named else missing[0] if missing else None
        return f"missing required key {key!r}; add it" if key is not None else err.message
    if validator == "additionalProperties":
        return f"{err.message}; remove it or fix its spelling"
    if validator == "type":
        return f"{err.instance!r} is not of type {err.validator_value!r}; change the value"
    if validator == "enum":
        return f"{err.instance!r} is not one of {err.validator_value!r}"
    if validator == "pattern":
        return f"{err.instance!r} does not match the id pattern {err.validator_value!r}"
    if validator == "const":
        return f"{err.instance!r} must be {err.validator_value!r}"
    return err.message


def _ref_problems(schema: Any) -> list[tuple[JsonPath, str]]:
    """Return every ``$ref`` of ``schema`` that is not a local pointer to a part of it."""
    out: list[tuple[JsonPath, str]] = []
    for path, value in iter_nodes(schema):
        ref = value.get("$ref") if isinstance(value, dict) else None
        if ref is None:
            continue
        if not isinstance(ref, str) or not ref.startswith("#"):
            out.append(((*path, "$ref"), f"reference {ref!r} is not local; a spec's schemas "
                        "refer only to their own parts ('#/$defs/NAME')"))
        elif not _resolves(schema, ref):
            out.append(((*path, "$ref"), f"reference {ref!r} points to nothing in this schema; "
                        "define it under $defs"))
    return out


def _resolves(schema: Any, ref: str) -> bool:
    """Return whether the JSON pointer of a local ``#/...`` reference exists in ``schema``."""
    node = schema
    for raw in ref[1:].split("/")[1:] if ref != "#" else []:
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False
    return True


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class _Checker:
    """Semantic checks that JSON Schema cannot express."""

    def __init__(self, data: Mapping[str, Any], marks: Marks) -> None:
        self.data = data
        self.marks = marks
        self.problems: list[Problem] = []
        #: Problems of rules newer than the spec's format, before they become errors.
        self.warnings: list[tuple[str, Problem]] = []
        self.release = formats.current_release()

    def add(self, path: JsonPath, message: str) -> None:
        self.problems.append(self.marks.problem(path, message))

    def rule(self, name: str, path: JsonPath, message: str) -> None:
        """Report a problem of a format rule: an error for specs of its format or newer, else a
        warning naming the fix and the release that will refuse it."""
        found = formats.RULES[name]
        declared = self.data.get("format")
        if formats.is_error(found, declared, self.release):
            self.add(path, message)
        else:
            note = formats.deprecation_note(found, declared)
            self.warnings.append((name, self.marks.problem(path, message + note)))

    def items(self, section: str) -> Iterable[tuple[int, Mapping[str, Any]]]:
        value = self.data.get(section, [])
        return enumerate(value) if isinstance(value, list) else iter(())

    def run(self) -> list[Problem]:
        checks = (self.check_ids, self.check_prefix, self.check_players, self.check_clause_refs,
                  self.check_citations, self.check_components, self.check_tables,
                  self.check_parameters, self.check_schemas, self.check_invariants,
                  self.check_events,
                  self.check_variants, self.check_ambiguities, self.check_visibility,
                  self.check_views, self.check_register, self.check_null_keys, self.check_impact,
                  self.check_releases, self.check_provenance)
        for check in checks:
            try:
                check()
            except (KeyError, TypeError, AttributeError, IndexError):
                # The schema already reported the malformed part this check needs; the other
                # checks still run so that every problem is reported at once.
                continue
        return self.problems

    # -- ids ----------------------------------------------------------------------------------

    def check_ids(self) -> None:
        seen: dict[str, JsonPath] = {}
        for section in ("clauses", "invariants", "ambiguities", "tables", "components", "zones",
                        "variants", "actions", "sources", "events"):
            for i, item in self.items(section):
                ident = item.get("id")
                if not isinstance(ident, str):
                    continue
                if ident in seen:
                    first = self.marks.at(seen[ident])[0]
                    self.add((section, i, "id"), f"id {ident!r} is already used (line {first}); "
                             "ids are permanent and unique: pick a new one")
                else:
                    seen[ident] = (section, i, "id")
        for section in ("parameters",):
            ids: set[str] = set()
            for i, item in self.items(section):
                ident = item.get("id")
                if ident in ids:
                    self.add((section, i, "id"), f"parameter {ident!r} is declared twice")
                ids.add(str(ident))

    def check_prefix(self) -> None:
        prefix = self.data["game"]["clause_prefix"]
        for section in ("clauses", "invariants", "ambiguities", "events"):
            for i, item in self.items(section):
                if not str(item.get("id", "")).startswith(prefix + "-"):
                    self.add((section, i, "id"), f"{item.get('id')!r} must start with the "
                             f"game's clause prefix {prefix + '-'!r}")

    def check_players(self) -> None:
        players = self.data["game"]["players"]
        if players["min"] > players["max"]:
            self.add(("game", "players"), f"min {players['min']} is above max {players['max']}")

    def check_provenance(self) -> None:
        """Readings name records; every live record is read; every record says its effect."""
        provenance.check(self.data, self.add, self.rule)

    def check_releases(self) -> None:
        """Releases are oldest first, strictly increasing, dated, and end at spec_version."""
        game = self.data["game"]
        releases = game.get("releases")
        if not isinstance(releases, list):
            return
        previous: tuple[tuple[int, int, int], str] | None = None
        for i, release in enumerate(releases):
            version, date = release.get("version"), release.get("date")
            if isinstance(date, str) and not _iso_date(date):
                self.add(("game", "releases", i, "date"), f"release date {date!r} is not a day "
                         "of the calendar; write it as YYYY-MM-DD (ISO 8601)")
            key = _semver(version)
            if key is None:
                continue
            if previous is not None and key <= previous[0]:
                self.add(("game", "releases", i, "version"), f"release {version!r} comes after "
                         f"{previous[1]!r}; list releases oldest first with strictly increasing "
                         "versions")
            previous = (key, str(version))
        last = releases[-1].get("version") if releases else None
        if last is not None and last != game["spec_version"]:
            self.add(("game", "spec_version"), f"spec_version {game['spec_version']!r} is not the "
                     f"last release ({last!r}); a new version needs its entry at the end of "
                     "game.releases (version, date, summary)")

    # -- references ---------------------------------------------------------------------------

    def clause_ids(self) -> set[str]:
        return {str(c.get("id")) for _, c in self.items("clauses")}

    def check_clause_refs(self) -> None:
        known = self.clause_ids()
        for path, value in iter_nodes(self.data):
            if (path and path[-1] in ("clauses", "x-clauses") and path != ("clauses",)
                    and isinstance(value, list)):
                for j, ref in enumerate(value):
                    if ref not in known:
                        hint = _closest(str(ref), known)
                        self.add((*path, j), f"unknown clause {ref!r}{hint}; declare it under "
                                 "clauses or fix the id")

    def check_citations(self) -> None:
        sources = {s["id"]: {sec["id"] for sec in s.get("sections", [])}
                   for _, s in self.items("sources")}
        for path, value in iter_nodes(self.data):
            if isinstance(value, dict) and {"source", "section", "quote"} <= value.keys():
                src = value["source"]
                if src not in sources:
                    self.add((*path, "source"), f"unknown source {src!r}; declare it under sources")
                elif value["section"] not in sources[src]:
                    self.add((*path, "section"), f"source {src!r} has no section "
                             f"{value['section']!r}; add it to that source's sections")

    def check_components(self) -> None:
        def walk(comp: Mapping[str, Any], path: JsonPath) -> None:
            parts = comp.get("parts")
            if isinstance(parts, list) and parts:
                counts = [p.get("count") for p in parts]
                if comp.get("count") is not None and all(isinstance(c, int) for c in counts):
                    total = sum(c for c in counts if isinstance(c, int))
                    if total != comp["count"]:
                        self.add((*path, "count"), f"component {comp.get('id')!r} counts "
                                 f"{comp['count']} but its parts add up to {total}; fix one of them")
                for k, part in enumerate(parts):
                    walk(part, (*path, "parts", k))
        for i, comp in self.items("components"):
            walk(comp, ("components", i))

    def check_tables(self) -> None:
        players = self.data["game"]["players"]
        for i, table in self.items("tables"):
            columns = [c["id"] for c in table.get("columns", [])]
            key = table.get("key")
            if key not in columns:
                self.add(("tables", i, "key"), f"key {key!r} is not one of the columns {columns!r}")
                continue
            keys: list[Any] = []
            for r, row in enumerate(table.get("rows", [])):
                for col in row:
                    if col not in columns:
                        self.add(("tables", i, "rows", r, str(col)), f"column {col!r} is not declared "
                                 f"in the table's columns {columns!r}")
                for col in columns:
                    if col not in row:
                        self.add(("tables", i, "rows", r), f"row has no value for column {col!r}")
                typed = {c["id"]: c.get("type") for c in table.get("columns", [])}
                for col, val in row.items():
                    want = typed.get(col)
                    if want and not _is_type(val, want):
                        self.add(("tables", i, "rows", r, col), f"{val!r} is not of type {want!r}; "
                                 "change the value or the column type")
                if row.get(key) in keys:
                    self.add(("tables", i, "rows", r, str(key)), f"key {row.get(key)!r} appears twice")
                keys.append(row.get(key))
            if key == "players":
                missing = [n for n in range(players["min"], players["max"] + 1) if n not in keys]
                if missing:
                    self.add(("tables", i, "rows"), f"table {table['id']!r} has no row for "
                             f"{missing!r} players; every player count "
                             f"{players['min']}-{players['max']} needs one")

    def check_parameters(self) -> None:
        tables = {t["id"]: t for _, t in self.items("tables")}
        for i, param in self.items("parameters"):
            ref = param.get("from_table")
            if isinstance(ref, dict):
                table = tables.get(ref.get("table"))
                if table is None:
                    self.add(("parameters", i, "from_table", "table"), f"unknown table "
                             f"{ref.get('table')!r}")
                    continue
                cols = {c["id"] for c in table.get("columns", [])}
                for k in ("column", "key_column", "value_column"):
                    if k in ref and ref[k] not in cols:
                        self.add(("parameters", i, "from_table", k), f"table {table['id']!r} "
                                 f"has no column {ref[k]!r}")
                if "column" in ref and table.get("key") != "players":
                    self.add(("parameters", i, "from_table"), f"table {table['id']!r} is keyed by "
                             f"{table.get('key')!r}, not players; use key_column and value_column")
            elif "default" in param:
                self.check_value(("parameters", i, "default"), param, param["default"])

    def params(self) -> dict[str, Mapping[str, Any]]:
        return {str(p["id"]): p for _, p in self.items("parameters")}

    def check_value(self, path: JsonPath, param: Mapping[str, Any], value: Any) -> None:
        import jsonschema

        schema = param.get("schema", {})
        try:
            # A validator does not check its own schema: an unknown type would raise mid-way.
            _check_schema(schema)
            if _ref_problems(schema):
                return  # reported by check_schemas
            jsonschema.Draft202012Validator(schema).validate(value)
        except jsonschema.ValidationError as exc:
            self.add(path, f"value {value!r} for parameter {param['id']!r} is invalid: "
                     f"{exc.message}")
        except jsonschema.SchemaError:
            pass  # reported by check_schemas

    def check_overrides(self, path: JsonPath, overrides: Any) -> None:
        params = self.params()
        if not isinstance(overrides, dict):
            return
        for name, value in overrides.items():
            if name not in params:
                hint = _closest(name, set(params))
                self.add((*path, name), f"unknown parameter {name!r}{hint}; declare it under "
                         "parameters")
            else:
                self.check_value((*path, name), params[name], value)

    def check_schemas(self) -> None:
        pairs: list[tuple[JsonPath, Any]] = [(("state", "schema"), self.data["state"]["schema"])]
        pairs += [(("parameters", i, "schema"), p.get("schema")) for i, p in self.items("parameters")]
        pairs += [(("actions", i, "params"), a.get("params")) for i, a in self.items("actions")]
        import jsonschema

        for path, schema in pairs:
            try:
                _check_schema(schema)
            except jsonschema.SchemaError as exc:
                self.add(path, f"not a valid JSON Schema: {exc.message}")
                continue
            for where, message in _ref_problems(schema):
                self.add((*path, *where), message)

    def check_visibility(self) -> None:
        from rulespec.spec.visibility import check_hidden, sight_problems

        for section in ("hidden", "public"):
            for i, message in check_hidden(self.data, section):
                self.add(("state", section, i, "path"), message)
        errors, missing = sight_problems(self.data)
        for path, message in errors:
            self.add(path, message)
        for path, message in missing:
            self.rule("OBSERVATION_PROVENANCE", path, message)

    def check_views(self) -> None:
        from rulespec.spec.verify_views import check_views

        for where, message in check_views(self.data):
            self.add(("state", "schema", *where), message)

    def check_invariants(self) -> None:
        from rulespec.spec.expressions import ExpressionError, compile_expression

        for i, inv in self.items("invariants"):
            try:
                compile_expression(str(inv["expression"]), INVARIANT_VARIABLES[inv["scope"]])
            except ExpressionError as exc:
                self.add(("invariants", i, "expression"), str(exc))

    def check_events(self) -> None:
        from rulespec.spec.expressions import ExpressionError, compile_expression

        kinds = {str(a.get("id")) for _, a in self.items("actions")}
        for i, event in self.items("events"):
            try:
                compile_expression(str(event["when"]), EVENT_VARIABLES)
            except ExpressionError as exc:
                self.add(("events", i, "when"), str(exc))
            for j, kind in enumerate(event.get("kinds", [])):
                if kind not in kinds:
                    self.add(("events", i, "kinds", j), f"unknown action kind {kind!r}"
                             f"{_closest(str(kind), kinds)}; name an action id of this spec")
        events = {str(e.get("id")) for _, e in self.items("events")}
        known = kinds | events | {str(a.get("id")) for _, a in self.items("ambiguities")}
        for i, entry in self.items("coverage"):
            for key, variables in (("when", SCOPE_VARIABLES), ("seek", SEEK_VARIABLES)):
                if key not in entry:
                    continue
                try:
                    compile_expression(str(entry[key]), variables)
                except ExpressionError as exc:
                    self.add(("coverage", i, key), str(exc))
            for j, item in enumerate(entry.get("items", [])):
                if item not in known:
                    self.add(("coverage", i, "items", j), f"unknown item {item!r}"
                             f"{_closest(str(item), known)}; name an action kind, an ambiguity "
                             "or an event of this spec")

    def check_variants(self) -> None:
        for i, variant in self.items("variants"):
            self.check_overrides(("variants", i, "parameters"), variant.get("parameters"))
            params = self.params()
            for j, name in enumerate(variant.get("settable", [])):
                if name not in params:
                    self.add(("variants", i, "settable", j), f"unknown parameter {name!r}")

    def check_ambiguities(self) -> None:
        ids = {str(a.get("id")) for _, a in self.items("ambiguities")}
        elements: set[str] = set()
        for section in ("tables", "parameters", "actions", "invariants", "components", "zones",
                        "variants", "clauses"):
            elements |= {str(x.get("id")) for _, x in self.items(section)}
        for i, amb in self.items("ambiguities"):
            options = [o.get("id") for o in amb.get("options", [])]
            if len(set(options)) != len(options):
                self.add(("ambiguities", i, "options"), "option ids must be unique")
            default = amb.get("default", {}).get("option")
            if default not in options:
                self.add(("ambiguities", i, "default", "option"), f"default option {default!r} "
                         f"is not one of the options {options!r}")
            for j, opt in enumerate(amb.get("options", [])):
                self.check_overrides(("ambiguities", i, "options", j, "parameters"),
                                     opt.get("parameters"))
            for j, pair in enumerate(amb.get("conflicts", [])):
                for k, idx in enumerate(pair):
                    if idx >= len(amb.get("sources", [])):
                        self.add(("ambiguities", i, "conflicts", j, k), f"source index {idx} is "
                                 f"out of range: this record has {len(amb.get('sources', []))} sources")
            for j, name in enumerate(amb.get("touches", [])):
                if name not in elements:
                    self.add(("ambiguities", i, "touches", j), f"unknown spec element {name!r}")
            dup = amb.get("duplicate_of")
            if dup is not None and dup not in ids:
                self.add(("ambiguities", i, "duplicate_of"), f"unknown ambiguity {dup!r}")
            if amb.get("status") == "duplicate" and dup is None:
                self.add(("ambiguities", i), "a duplicate needs duplicate_of")


    def check_register(self) -> None:
        """Apply the register policy (docs/editors/register-policy.md)."""
        from rulespec.spec.policy import register_problems

        sources = {str(s.get("id")) for _, s in self.items("sources")}
        for path, message in register_problems(self.data.get("ambiguities", []), sources):
            self.add(path, message)

    def check_impact(self) -> None:
        """Check structured impact (rulespec-impact/1) beyond its schema."""
        from rulespec.spec.impact import impact_problems

        players = self.data["game"]["players"]
        for path, message in impact_problems(self.data.get("ambiguities", []),
                                             (players["min"], players["max"])):
            self.add(path, message)

    def check_null_keys(self) -> None:
        """Refuse null values in the schemas: an unquoted ``, key:`` inside a YAML flow
        mapping makes a bogus key with a null value, and a schema ignores unknown keys."""
        from rulespec.spec.policy import null_keys

        pairs: list[tuple[JsonPath, Any]] = [(("state", "schema"), self.data["state"]["schema"])]
        pairs += [(("parameters", i, "schema"), p.get("schema")) for i, p in self.items("parameters")]
        pairs += [(("actions", i, "params"), a.get("params")) for i, a in self.items("actions")]
        for path, schema in pairs:
            for bad in null_keys(schema, path):
                self.add(bad, f"key {bad[-1]!r} has no value: in a flow mapping an unquoted "
                         "comma starts a new key; quote the text (\"...\") or write it as a "
                         "block")


#: Schemas already checked against the metaschema (by their JSON text): one spec checks the
#: same parameter schema for its default and for every override.
_checked_schemas: dict[str, Exception | None] = {}


def _check_schema(schema: Any) -> None:
    """Check ``schema`` against the JSON Schema metaschema (memoised); raise SchemaError."""
    import jsonschema

    try:
        key = json.dumps(schema, sort_keys=True)
    except (TypeError, ValueError):
        jsonschema.Draft202012Validator.check_schema(schema)
        return
    if key not in _checked_schemas:
        try:
            jsonschema.Draft202012Validator.check_schema(schema)
            _checked_schemas[key] = None
        except jsonschema.SchemaError as exc:
            _checked_schemas[key] = exc
    error = _checked_schemas[key]
    if error is not None:
        raise error


def _is_type(value: Any, want: str) -> bool:
    if want == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if want == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if want == "string":
        return isinstance(value, str)
    return isinstance(value, bool)


def _closest(word: str, known: Iterable[str]) -> str:
    import difflib

    match = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {match[0]!r}?)" if match else ""


def check_sources(data: Mapping[str, Any], marks: Marks, sources_dir: Path) -> list[Problem]:
    """Check every quote is verbatim in its source and every source file's sha256."""
    problems: list[Problem] = []
    texts: dict[str, str] = {}
    sources = data.get("sources")
    for i, src in enumerate(sources if isinstance(sources, list) else []):
        if not (isinstance(src, dict) and isinstance(src.get("file"), str)
                and isinstance(src.get("id"), str)):
            continue  # the schema reports the malformed source
        file = sources_dir / src["file"]
        try:
            raw = file.read_bytes()
        except (OSError, ValueError):  # ValueError: a NUL byte in the file name
            problems.append(marks.problem(("sources", i, "file"), f"source file {str(file)!r} not "
                                          "found; pass the rulebooks folder with --sources"))
            continue
        digest = hashlib.sha256(raw).hexdigest()
        if digest != src.get("sha256"):
            problems.append(marks.problem(("sources", i, "sha256"), f"sha256 of {str(file)!r} is "
                                          f"{digest}, not {src.get('sha256')}; the text changed: "
                                          "re-check the quotes, then update the digest"))
        texts[src["id"]] = _norm(raw.decode("utf-8", errors="replace"))
    for path, value in iter_nodes(data):
        if isinstance(value, dict) and {"source", "section", "quote"} <= value.keys():
            text = texts.get(value["source"]) if isinstance(value["source"], str) else None
            if text is not None and _norm(str(value["quote"])) not in text:
                problems.append(marks.problem((*path, "quote"), "quote not found verbatim in "
                                              f"source {value['source']!r}: "
                                              f"{_short(str(value['quote']))!r}; copy it exactly "
                                              "from the rulebook"))
    return problems


def _semver(text: Any) -> tuple[int, int, int] | None:
    """Return MAJOR.MINOR.PATCH as numbers, or None when ``text`` is not such a version."""
    parts = text.split(".") if isinstance(text, str) else []
    if len(parts) != 3 or not all(p.isdigit() and p.isascii() for p in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def _iso_date(text: str) -> bool:
    """Return True when ``text`` is a real calendar day written YYYY-MM-DD."""
    import datetime

    try:
        return datetime.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False


def _short(text: str) -> str:
    return text if len(text) <= 60 else text[:57] + "..."


def load_spec(path: Path | str, *, sources: Path | None = None) -> Spec:
    """Load and validate a spec file; raise SpecError listing every problem found."""
    path = Path(path)
    return spec_from_text(read_text(path), path, sources=sources)


def spec_from_text(text: str, path: Path, *, sources: Path | None = None,
                   label: str | None = None) -> Spec:
    """Validate the text of a spec file at ``path``; raise SpecError listing every problem.

    ``label`` names the text in problems instead of ``path`` (a text not written yet).
    """
    name = label or str(path)
    key = spec_cache.spec_key(text) if sources is None else None
    if key is not None:
        cached = spec_cache.get(key)
        if cached is not None:  # this very text passed these very checks before
            return Spec(path=path, data=cached, marks=Marks(name, text))
    data, marks = load_yaml(text, name)
    if not isinstance(data, dict):
        raise SpecError([marks.problem((), "a spec must be a mapping at the top level")])
    problems = _schema_problems(data, marks)
    checker = _Checker(data, marks)
    problems += checker.run()
    if sources is not None:
        problems += check_sources(data, marks, sources)
    if problems:
        raise SpecError(problems)
    if checker.warnings:  # not cached: every load of an outdated spec says so
        _warn_outdated(name, data.get("format"), checker.warnings)
        return Spec(path=path, data=data, marks=marks,
                    warnings=tuple(p for _, p in checker.warnings))
    if key is not None:
        spec_cache.put(key, data)
    return Spec(path=path, data=data, marks=marks)


def _warn_outdated(name: str, declared: object, found: list[tuple[str, Problem]]) -> None:
    """Give one deprecation warning per format rule an older spec breaks."""
    import warnings

    counts: dict[str, int] = {}
    for rule_name, _ in found:
        counts[rule_name] = counts.get(rule_name, 0) + 1
    for rule_name, count in counts.items():
        rule = formats.RULES[rule_name]
        warnings.warn(rule.warning(
            f"{name}: {count} place(s) break {rule.name} ({rule.summary}), a rule of format "
            f"{rule.format} since rulespec {rule.introduced}; the spec declares format "
            f"{declared}, and rulespec {rule.refused_from} will refuse it. Fix: {rule.fix} "
            f"(`rulespec validate {name}` shows each place)"), stacklevel=3)
