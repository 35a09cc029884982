"""A game's example states: one canonical state per phase, taken from the golden traces.

Implementers asked what the state holds in each phase (the ``pending`` object above all: the
target, the stones or cards left, the players still to decide). This page answers with real
states: every golden trace is replayed on the reference engine and, for every phase the state
schema's ``phase`` enum names, one state is chosen and shown with its working fields explained.

Everything the page says about a field comes from the spec's state schema, never from Python:

- the top-level properties marked ``x-pending`` are the phase's working fields (the ``pending``
  object, or each game's equivalent); each is shown with its value (``x-pending: true``), or
  field by field (``x-pending: fields``, for an object such as ``pending``);
- a field's ``description`` says what it holds; ``x-phases`` (phase -> text) on a field adds what
  it holds in one phase; ``x-clauses`` names the clauses it rests on;
- ``x-phases`` on the ``phase`` property itself says what happens in each phase.

A field shown without a ``description``, a phase without its ``x-phases`` text, or an
``x-phases`` key that is not a phase is a :class:`DocsError`: the page cannot be built until the
spec says it.

The choice is deterministic: traces under the default rulings first, then the others, each in
name order, the initial state first; of the states in a phase, the first with the most
informative working fields (the most non-empty values) is shown.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import (
    DocsError,
    Page,
    anchor,
    code,
    details,
    fenced,
    front_matter,
    json_text,
    table,
    text,
)
from rulespec.docsgen.traces import TraceFile, viewer_link
from rulespec.spec.model import Spec

STATES_PAGE = "states.md"
STATES_TITLE = "Example states"
#: Marks a top-level state property as one of the phase's working fields: ``true`` (shown
#: whole) or ``"fields"`` (an object, shown field by field).
PENDING_KEYWORD = "x-pending"
OPEN = "fields"
#: phase -> text: what a field holds in that phase (on ``phase``: what happens in it).
PHASES_KEYWORD = "x-phases"


@dataclass(frozen=True)
class PhaseExample:
    """The state chosen for one phase and where it comes from."""

    phase: str
    trace: str
    step: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Field:
    """One working field shown for a phase: its path, schema and value."""

    path: str
    schema: Mapping[str, Any]
    value: Any
    #: An object value whose fields follow as their own rows.
    opened: bool = False


def _schema(spec: Spec) -> Mapping[str, Any]:
    state = spec.data.get("state", {})
    schema = state.get("schema", {}) if isinstance(state, Mapping) else {}
    return schema if isinstance(schema, Mapping) else {}


def phases(spec: Spec) -> list[str]:
    """Return the phases of the state schema's ``phase`` enum, in schema order."""
    phase = _schema(spec).get("properties", {}).get("phase", {})
    return [str(p) for p in phase.get("enum", []) if p is not None]


def pending_keys(spec: Spec) -> list[str]:
    """Return the top-level state properties marked ``x-pending``, in schema order."""
    return [str(k) for k, sub in _schema(spec).get("properties", {}).items()
            if isinstance(sub, Mapping) and sub.get(PENDING_KEYWORD) in (True, OPEN)]


def _resolve(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any]:
    """Follow a local ``$ref`` (``#/$defs/x``) of the state schema."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        target: Any = root
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        return target if isinstance(target, Mapping) else {}
    return schema


def _object_schema(schema: Mapping[str, Any], root: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """Return the object schema of a (possibly nullable) object property, or None."""
    schema = _resolve(schema, root)
    if isinstance(schema.get("properties"), Mapping):
        return schema
    for key in ("oneOf", "anyOf"):
        for alternative in schema.get(key, []):
            if isinstance(alternative, Mapping):
                found = _object_schema(alternative, root)
                if found is not None:
                    return found
    return None


def working_fields(spec: Spec, state: Mapping[str, Any]) -> list[Field]:
    """Return the fields shown for ``state``: ``to_move``, then each ``x-pending`` property;
    an object value is shown field by field (the fields present in it, in schema order)."""
    root = _schema(spec)
    props = root.get("properties", {})
    out: list[Field] = []
    for key in ["to_move", *pending_keys(spec)]:
        if key not in props or key not in state:
            continue
        sub = props[key]
        value = state[key]
        obj = _object_schema(sub, root)
        if sub.get(PENDING_KEYWORD) == OPEN and obj is None:
            raise DocsError(f"specs/{spec.path.name}: state field {key!r} is marked "
                            f"{PENDING_KEYWORD}: {OPEN} but its schema is not an object; "
                            "use true to show it whole")
        if isinstance(value, Mapping) and obj is not None and sub.get(PENDING_KEYWORD) == OPEN:
            out.append(Field(key, sub, value, opened=True))
            for name, child in obj.get("properties", {}).items():
                if name in value:
                    out.append(Field(f"{key}.{name}", child, value[name]))
        else:
            out.append(Field(key, sub, value))
    return out


def _informative(value: Any) -> int:
    """Return how many non-empty values ``value`` holds (None, 0, false, empty count nothing)."""
    if isinstance(value, Mapping):
        return sum(_informative(v) for v in value.values())
    if isinstance(value, list):
        return sum(_informative(v) for v in value)
    return 0 if value in (None, 0, False, "") else 1


def _score(spec: Spec, state: Mapping[str, Any]) -> int:
    return sum(_informative(state.get(k)) for k in pending_keys(spec))


def _ordered(traces: Sequence[TraceFile]) -> list[TraceFile]:
    """Default-ruling traces first, then the others, each in name order."""
    return sorted(traces, key=lambda t: (not t.name.endswith("-default"), t.name))


def phase_examples(spec: Spec, traces: Sequence[TraceFile]) -> dict[str, PhaseExample]:
    """Replay ``traces`` on the reference and return the chosen state of every phase reached."""
    from rulespec.reference.core import config_from_json
    from rulespec.reference.registry import engine_class
    from rulespec.reference.trace import read_trace

    best: dict[str, tuple[int, PhaseExample]] = {}

    def offer(trace: str, step: int, state: dict[str, Any]) -> None:
        phase = str(state.get("phase"))
        score = _score(spec, state)
        if phase not in best or score > best[phase][0]:
            best[phase] = (score, PhaseExample(phase, trace, step, state))

    cls = engine_class(spec)
    for trace_file in _ordered(traces):
        trace = read_trace(io.StringIO(trace_file.read()))
        engine = cls(spec, config_from_json(spec, trace.config))
        offer(trace_file.name, 0, engine.state())
        for step in trace.steps:
            engine.apply(step.action)
            offer(trace_file.name, step.n, engine.state())
    return {phase: example for phase, (_, example) in best.items()}


def _phase_texts(spec: Spec) -> dict[str, str]:
    """Return what happens in each phase (``x-phases`` of the ``phase`` property)."""
    where = f"specs/{spec.path.name}: state.schema.properties.phase"
    phase = _schema(spec).get("properties", {}).get("phase", {})
    texts = phase.get(PHASES_KEYWORD, {})
    if not isinstance(texts, Mapping):
        raise DocsError(f"{where}.{PHASES_KEYWORD} must map each phase to a sentence")
    missing = [p for p in phases(spec) if not texts.get(p)]
    if missing:
        raise DocsError(f"{where}.{PHASES_KEYWORD} says nothing about the phase(s) "
                        f"{', '.join(missing)}; add a sentence for each (the example-states "
                        "page explains every phase)")
    return {str(k): str(v) for k, v in texts.items()}


def _check_field(spec: Spec, field: Field, known: Iterable[str]) -> None:
    where = f"specs/{spec.path.name}: state field {field.path!r}"
    if not str(field.schema.get("description", "")).strip():
        raise DocsError(f"{where} is shown on the example-states page but has no description; "
                        "add one to the state schema (and x-clauses where fitting)")
    notes = field.schema.get(PHASES_KEYWORD, {})
    if not isinstance(notes, Mapping):
        raise DocsError(f"{where}: {PHASES_KEYWORD} must map phases to text")
    unknown = sorted(set(map(str, notes)) - set(known))
    if unknown:
        raise DocsError(f"{where}: {PHASES_KEYWORD} names {', '.join(unknown)}, which the "
                        "phase enum does not list")


def _value(value: Any) -> str:
    return code(json_text(value))


def _field_rows(spec: Spec, links: Links, example: PhaseExample) -> list[list[str]]:
    rows = []
    for field in working_fields(spec, example.state):
        _check_field(spec, field, phases(spec))
        meaning = links.prose(field.schema["description"])
        note = field.schema.get(PHASES_KEYWORD, {}).get(example.phase)
        if note:
            meaning += f" <br>*In this phase:* {links.prose(note)}"
        value = "the fields below" if field.opened else _value(field.value)
        rows.append([code(field.path), value, meaning,
                     links.many(field.schema.get("x-clauses", []))])
    return rows


#: From a game's pages (``games/<id>/``) to the docs folder.
TO_DOCS = "../../"


def _at(example: PhaseExample) -> str:
    """Return where an example state comes from, linked to that step in the viewer."""
    return viewer_link(f"{code(example.trace + '.jsonl')}, step {example.step}", example.trace,
                       example.step, prefix=TO_DOCS)


def states_page(spec: Spec, traces: Sequence[TraceFile]) -> Page:
    """Return the example-states page of one game from its golden traces."""
    links = Links(spec)
    all_phases = phases(spec)
    if not all_phases:
        raise DocsError(f"specs/{spec.path.name}: the state schema has no phase enum; the "
                        "example-states page needs one")
    texts = _phase_texts(spec)
    examples = phase_examples(spec, traces)
    out = [front_matter(f"{game_title(spec)}: {STATES_TITLE}"),
           f"# {text(game_title(spec))}: {STATES_TITLE}\n\n",
           f'<p class="rs-provenance">Generated from <code>specs/{spec.path.name}</code> and the '
           "golden traces in <code>conformance/traces/</code>, replayed on the reference "
           "engine. Do not edit this page: edit the spec.</p>\n\n",
           "One state for every phase of the game, taken from the golden traces: what an engine "
           "must report when that phase is reached. The table under each phase explains the "
           "working fields (`to_move` and the fields that hold the move in progress: "
           + ", ".join(code(k) for k in pending_keys(spec)) + ") with the text of the state "
           "schema ([Actions and state](actions.md)). The whole state follows, folded.\n\n"
           "Which state: traces under the default rulings first, then the others, in name "
           "order; in each phase, the first state whose working fields hold the most values. "
           "Replay a trace with `rulespec replay FILE`; each state links to its step in the "
           "[trace viewer](../../implementers/trace-viewer.md), which shows the steps around "
           "it.\n\n"]
    rows = []
    for phase in all_phases:
        example = examples.get(phase)
        where = (_at(example) if example else "no golden trace")
        rows.append([f"[{code(phase)}](#phase-{phase})", links.prose(texts[phase]), where])
    out.append(table(["Phase", "What happens", "Example from"], rows) + "\n")
    for phase in all_phases:
        out.append(f"## {code(phase)} {anchor('phase-' + phase)}\n\n{links.prose(texts[phase])}\n\n")
        example = examples.get(phase)
        if example is None:
            out.append("No golden trace reaches this phase, so there is no example state. "
                       "`rulespec golden` adds a trace under the first ruling option that "
                       "reaches a missing phase; none does.\n\n")
            continue
        after = "the start of the game" if example.step == 0 else f"step {example.step}"
        out.append(f"From {code(example.trace + '.jsonl')}, the state at {after} "
                   f"({viewer_link('step through it', example.trace, example.step, prefix=TO_DOCS)}"
                   ").\n\n")
        out.append(table(["Field", "Value", "Meaning", "Clauses"],
                         _field_rows(spec, links, example)) + "\n")
        body = json.dumps(example.state, ensure_ascii=False, indent=2, sort_keys=True)
        out.append(details("The whole state", fenced(body, "json"), kind="example",
                           searchable=False) + "\n")
    return Page(f"{game_dir(spec)}/{STATES_PAGE}", "".join(out))
