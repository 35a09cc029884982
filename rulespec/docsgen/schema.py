"""JSON Schema in prose: short type descriptions, property tables, the spec format reference."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rulespec.docsgen.markdown import Page, anchor, code, json_text, plural, rich, table


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
        bounds.append(f"at least {plural(schema['minItems'], 'item')}")
    if "maxItems" in schema:
        bounds.append(f"at most {plural(schema['maxItems'], 'item')}")
    if "minLength" in schema and schema["minLength"] > 1:
        bounds.append(f"at least {schema['minLength']} characters")
    if schema.get("uniqueItems"):
        bounds.append("unique")
    if "pattern" in schema:
        bounds.append(f"matching {code(schema['pattern'])}")
    return base + (f" ({', '.join(bounds)})" if bounds else "")


def property_rows(schema: Mapping[str, Any], *, ref_link: str | None = None,
                  link: Callable[[str], str | None] | None = None) -> list[list[str]]:
    """Return rows (key, type, required, description) for an object schema's properties."""
    required = set(schema.get("required", []))
    rows = []
    for key, sub in schema.get("properties", {}).items():
        desc = sub.get("description", "") if isinstance(sub, Mapping) else ""
        rows.append([code(key), schema_type(sub, ref_link=ref_link),
                     "yes" if key in required else "", rich(desc, link)])
    return rows


def _object_of(schema: Any) -> tuple[str, Mapping[str, Any]] | None:
    """Return (suffix, object schema) when ``schema`` is an object or an array of objects."""
    if not isinstance(schema, Mapping):
        return None
    if isinstance(schema.get("properties"), Mapping):
        return "", schema
    for key in ("oneOf", "anyOf"):  # a nullable object: {"oneOf": [{"type": "null"}, {...}]}
        for alternative in schema.get(key, []):
            found = _object_of(alternative)
            if found is not None:
                return found
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, Mapping):
        inner = _object_of(items)
        if inner is not None:
            return "[]" + inner[0], inner[1]
    return None


def nested_fields(schema: Mapping[str, Any], path: str = "", *,
                  link: Callable[[str], str | None] | None = None) -> str:
    """Return a field table for every nested object (``pending``, ``players[]``) of a schema."""
    out = []
    for key, sub in schema.get("properties", {}).items():
        found = _object_of(sub)
        if found is None:
            continue
        where = f"{path}.{key}{found[0]}" if path else f"{key}{found[0]}"
        rows = property_rows(found[1], link=link)
        if rows:
            out.append(f"**Fields of {code(where)}**\n\n"
                       + table(["Field", "Type", "Required", "Description"], rows) + "\n")
        out.append(nested_fields(found[1], where, link=link))
    return "".join(out)


def spec_format_page(schema: Mapping[str, Any]) -> Page:
    """Return the spec format reference, generated from the spec JSON Schema."""
    out = ["# Spec format reference\n\n",
           '<p class="rs-provenance">Generated from <code>specs/schema/spec.schema.json</code>. '
           "Do not edit this page: edit the schema.</p>\n\n",
           f"{rich(schema.get('description', ''))}\n\n",
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
            block.append(f"{rich(sub['description'])}\n\n")
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
            out.append(f"{rich(sub['description'])}\n\n")
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
