"""Rule examples: a position, the moves taken from it, and what the rules demand afterwards.

A game's examples live in the file its ``GamePackage`` registers (by default beside its spec, in
``examples/<spec file name>``), and are checked
against ``schema/examples.schema.json`` and against the spec (clauses, ambiguities, options,
expressions), every problem reported at once with ``file:line:col``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from rulespec.examples.errors import ExampleError
from rulespec.spec.errors import Problem, RulespecError, SpecError
from rulespec.spec.expressions import ExpressionError, compile_expression
from rulespec.spec.loader import JsonPath, Marks, load_yaml, read_text
from rulespec.spec.model import Spec
from rulespec.spec.registry import registered
from rulespec.spec.validate import SCHEMA_PATH

EXAMPLES_FORMAT = "rulespec-examples/1"
EXAMPLES_SCHEMA_PATH = SCHEMA_PATH.parent / "examples.schema.json"
#: The variables an expectation may use.
VARIABLES = ("state", "prev", "result", "legal", "actor", "odds")
#: Clause kinds that state no rule: they need no example.
NOT_RULES = frozenset({"definition", "flavour"})


@dataclass(frozen=True)
class Expectation:
    """A CEL expression that must hold after the steps, and the rule's demand in a sentence."""

    that: str
    because: str


@dataclass(frozen=True)
class Witness:
    """The ambiguity option an example holds under (and no other option of it)."""

    ambiguity: str
    option: str


@dataclass(frozen=True)
class Example:
    """One rule example."""

    id: str
    title: str
    clauses: tuple[str, ...]
    config: Mapping[str, Any]
    setup: tuple[Mapping[str, Any], ...]
    steps: tuple[Mapping[str, Any], ...]
    expect: tuple[Expectation, ...]
    witness: Witness | None = None
    #: ``file:line:col`` of the example in its file.
    where: str = ""

    def config_json(self, game: str, rulings: Mapping[str, str] | None = None) -> dict[str, Any]:
        """Return the configuration as JSON, with ``rulings`` laid over the example's own.

        A witness runs under its own option unless ``rulings`` says otherwise.
        """
        merged = dict(self.config.get("rulings", {}))
        if self.witness is not None:
            merged[self.witness.ambiguity] = self.witness.option
        merged.update(rulings or {})
        out: dict[str, Any] = {"game": game, "rulings": merged}
        for key in ("players", "variants", "parameters"):
            if key in self.config:
                out[key] = self.config[key]
        return out


@dataclass(frozen=True)
class ExampleFile:
    """Every example of one game."""

    path: Path
    game: str
    vocabulary: str | None
    examples: tuple[Example, ...] = field(default_factory=tuple)

    def by_id(self) -> dict[str, Example]:
        """Return the examples indexed by id."""
        return {e.id: e for e in self.examples}


def examples_path(spec: Spec) -> Path:
    """Return where the examples of ``spec`` live (the file may not exist).

    For the spec a game registers, the examples file its package names; for any other spec (a
    frozen release, a file given by path), ``examples/<spec file name>`` beside it.
    """
    beside = spec.path.parent / "examples" / spec.path.name
    try:
        entry = registered(spec.game_id)
    except RulespecError:
        return beside
    if entry.spec_path.resolve() != spec.path.resolve():
        return beside
    return entry.package.examples_file()


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(EXAMPLES_SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


def _schema_problems(data: Any, marks: Marks) -> list[Problem]:
    validator = jsonschema.Draft202012Validator(_schema())
    problems = []
    for error in validator.iter_errors(data):
        err = best_match([error]) if error.context else error
        problems.append(marks.problem(tuple(err.absolute_path), f"{err.message}; fix the example"))
    return problems


def _semantic_problems(spec: Spec, data: Mapping[str, Any], marks: Marks) -> list[Problem]:
    problems: list[Problem] = []

    def add(path: JsonPath, message: str) -> None:
        problems.append(marks.problem(path, message))

    if data["game"] != spec.game_id:
        add(("game",), f"examples for {data['game']!r} beside the spec of {spec.game_id!r}; "
                       "put them beside their game's spec")
    clauses = {str(c["id"]) for c in spec.section("clauses")}
    ambiguities = spec.ambiguities
    words = _known_words(data.get("vocabulary"), spec.game_id, add)
    seen: set[str] = set()
    for i, ex in enumerate(data["examples"]):
        base: JsonPath = ("examples", i)
        if ex["id"] in seen:
            add((*base, "id"), f"duplicate example id {ex['id']!r}; ids must be unique")
        seen.add(ex["id"])
        for j, cid in enumerate(ex["clauses"]):
            if cid not in clauses:
                add((*base, "clauses", j), f"unknown clause {cid!r}; use a clause id of the spec")
        for amb, opt in ex.get("config", {}).get("rulings", {}).items():
            _check_option(ambiguities, amb, opt, (*base, "config", "rulings", amb), add)
        if "witness" in ex:
            w = ex["witness"]
            _check_option(ambiguities, w["ambiguity"], w["option"], (*base, "witness"), add)
            if w["ambiguity"] in ex.get("config", {}).get("rulings", {}):
                add((*base, "witness"), "a witness must not fix its own ambiguity in config."
                    "rulings; the witness test sets every option in turn")
        for part in ("setup", "steps"):
            for j, move in enumerate(ex.get(part, [])):
                word = next(iter(move))
                if words is not None and word not in words:
                    add((*base, part, j, word), f"unknown word {word!r}; known: "
                        f"{', '.join(sorted(words))}")
        for j, exp in enumerate(ex["expect"]):
            try:
                compile_expression(exp["that"], VARIABLES)
            except ExpressionError as exc:
                add((*base, "expect", j, "that"), str(exc))
    return problems


def _known_words(module: str | None, game_id: str, add: Any) -> set[str] | None:
    """Return the words the examples may use (None when the vocabulary cannot be loaded)."""
    # Imported here: the driver brings the reference engine, which loading a file does not need.
    from rulespec.examples.position import BUILTIN, vocabulary

    try:
        return set(BUILTIN) | set(vocabulary(module, game_id))
    except ExampleError as exc:
        add(("vocabulary",), str(exc))
        return None


def _check_option(ambiguities: Mapping[str, Mapping[str, Any]], amb: str, opt: str,
                  path: JsonPath, add: Any) -> None:
    if amb not in ambiguities:
        add(path, f"unknown ambiguity {amb!r}; known: {', '.join(sorted(ambiguities))}")
        return
    options = [str(o["id"]) for o in ambiguities[amb]["options"]]
    if opt not in options:
        add(path, f"ambiguity {amb!r} has no option {opt!r}; options: {', '.join(options)}")


def _build(data: Mapping[str, Any], path: Path, marks: Marks) -> ExampleFile:
    examples = []
    for i, ex in enumerate(data["examples"]):
        line, col = marks.at(("examples", i))
        w = ex.get("witness")
        examples.append(Example(
            id=ex["id"], title=ex["title"], clauses=tuple(ex["clauses"]),
            config=dict(ex.get("config", {})), setup=tuple(ex.get("setup", [])),
            steps=tuple(ex["steps"]),
            expect=tuple(Expectation(e["that"], e["because"]) for e in ex["expect"]),
            witness=None if w is None else Witness(w["ambiguity"], w["option"]),
            where=f"{path}:{line}:{col}"))
    return ExampleFile(path, str(data["game"]), data.get("vocabulary"), tuple(examples))


def load_examples(spec: Spec, path: Path | None = None) -> ExampleFile:
    """Load and check the examples of ``spec``; SpecError lists every problem at once.

    A game without an examples file has no examples (an empty file is returned).
    """
    path = examples_path(spec) if path is None else path
    if not path.exists():
        return ExampleFile(path, spec.game_id, None, ())
    key = (str(spec.path), spec.version, str(path), path.stat().st_mtime_ns)
    if key not in _LOADED:
        _LOADED[key] = _load(spec, path)
    return _LOADED[key]


#: Examples files already checked, by spec, file and modification time (the kit loads them
#: once per configuration; parsing YAML is the slow part).
_LOADED: dict[tuple[str, str, str, int], ExampleFile] = {}


def _load(spec: Spec, path: Path) -> ExampleFile:
    data, marks = load_yaml(read_text(path), str(path))
    if not isinstance(data, dict):
        raise SpecError([marks.problem((), "an examples file must be a mapping at the top level")])
    problems = _schema_problems(data, marks)
    if not problems:
        problems = _semantic_problems(spec, data, marks)
    if problems:
        raise SpecError(problems)
    return _build(data, path, marks)


def example_problems(spec: Spec) -> list[Problem]:
    """Return the problems of the examples file of ``spec`` (empty when fine or absent)."""
    try:
        load_examples(spec)
    except SpecError as exc:
        return list(exc.problems)
    return []


def rule_clauses(spec: Spec) -> list[str]:
    """Return the ids of the clauses that state a rule (not definitions, not flavour)."""
    return [str(c["id"]) for c in spec.section("clauses") if c.get("kind") not in NOT_RULES]


def uncovered(spec: Spec, examples: Sequence[Example]) -> list[str]:
    """Return the rule clauses no example illustrates, in spec order."""
    covered = {c for e in examples for c in e.clauses}
    return [c for c in rule_clauses(spec) if c not in covered]
