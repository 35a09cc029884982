"""The loaded spec: the JSON data, where each part came from, and typed accessors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.spec.errors import Problem
from rulespec.spec.loader import JsonPath, Marks

JSONValue = Any


@dataclass(frozen=True)
class Spec:
    """A game specification that passed schema and semantic validation."""

    #: The spec file it was loaded from.
    path: Path
    #: The spec document as loaded (read it through the methods below where one fits).
    data: Mapping[str, Any]
    #: Where each JSON path of the document starts in the file, for problems' line numbers.
    marks: Marks
    #: Problems of rules newer than the spec's format: warnings until a named release
    #: (``rulespec.spec.formats``); empty for a spec of the current format.
    warnings: tuple[Problem, ...] = ()

    # -- identity -----------------------------------------------------------------------------

    @property
    def game_id(self) -> str:
        """Return the game id (``dado-de-ouro``)."""
        return str(self.data["game"]["id"])

    @property
    def version(self) -> str:
        """Return the spec version."""
        return str(self.data["game"]["spec_version"])

    @property
    def min_players(self) -> int:
        """Return the smallest player count."""
        return int(self.data["game"]["players"]["min"])

    @property
    def max_players(self) -> int:
        """Return the largest player count."""
        return int(self.data["game"]["players"]["max"])

    @property
    def reference_module(self) -> str:
        """Return the dotted name of the reference interpreter module."""
        return str(self.data["game"]["reference"])

    @property
    def name(self) -> str:
        """Return the original name of the game."""
        return str(self.data["game"]["names"]["original"])

    # -- sections -----------------------------------------------------------------------------

    def section(self, name: str) -> Sequence[Mapping[str, Any]]:
        """Return a list section of the spec (``clauses``, ``tables``, ...)."""
        value = self.data.get(name, [])
        return value if isinstance(value, list) else []

    def by_id(self, name: str) -> dict[str, Mapping[str, Any]]:
        """Return a list section indexed by id."""
        return {str(item["id"]): item for item in self.section(name)}

    def clause(self, clause_id: str) -> Mapping[str, Any]:
        """Return the clause with this id; KeyError if there is none."""
        return self.by_id("clauses")[clause_id]

    def table(self, table_id: str) -> Mapping[str, Any]:
        """Return the table with this id; KeyError if there is none."""
        return self.by_id("tables")[table_id]

    def table_row(self, table_id: str, key: JSONValue) -> Mapping[str, Any]:
        """Return the row of a table whose key column equals ``key``."""
        table = self.table(table_id)
        for row in table["rows"]:
            if row.get(table["key"]) == key:
                return dict(row)
        raise KeyError(f"table {table_id!r} has no row with {table['key']} = {key!r}")

    @property
    def ambiguities(self) -> dict[str, Mapping[str, Any]]:
        """Return the ambiguity register indexed by id."""
        return self.by_id("ambiguities")

    @property
    def variants(self) -> dict[str, Mapping[str, Any]]:
        """Return the variants indexed by id."""
        return self.by_id("variants")

    @property
    def parameters(self) -> dict[str, Mapping[str, Any]]:
        """Return the parameter declarations indexed by id."""
        return self.by_id("parameters")

    @property
    def state_schema(self) -> Mapping[str, Any]:
        """Return the JSON Schema of the canonical state."""
        return dict(self.data["state"]["schema"])

    def default_rulings(self) -> dict[str, str]:
        """Return ambiguity id -> default option id."""
        return {aid: str(a["default"]["option"]) for aid, a in self.ambiguities.items()}

    def default_parameters(self, players: int) -> dict[str, JSONValue]:
        """Return every parameter's default for ``players`` players, tables looked up."""
        out: dict[str, JSONValue] = {}
        for pid, param in self.parameters.items():
            if "default" in param:
                out[pid] = param["default"]
                continue
            ref = param["from_table"]
            table = self.table(ref["table"])
            if "column" in ref:
                out[pid] = self.table_row(ref["table"], players)[ref["column"]]
            elif "key_column" in ref and "value_column" in ref:
                out[pid] = {
                    str(row[ref["key_column"]]): row[ref["value_column"]] for row in table["rows"]
                }
            else:
                out[pid] = [dict(row) for row in table["rows"]]
        return out

    def location(self, path: JsonPath) -> str:
        """Return ``file:line:col`` of a JSON path in the spec file."""
        line, col = self.marks.at(path)
        return f"{self.path}:{line}:{col}"

    def structured_impact(self, ambiguity_id: str) -> Mapping[str, Any] | None:
        """Return a record's ``rulespec-impact/1`` measurement, or None if it has none."""
        from rulespec.spec.impact import structured_impact

        return structured_impact(self.ambiguities[ambiguity_id])
