"""Rule examples in the docs: a play-by-play under each clause, witnesses side by side under each
ambiguity record. The examples are run on the reference at build time, so the narration is the
reference's own and cannot drift from the examples file."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from rulespec.docsgen.markdown import code, details, json_text, table, text, unsearched
from rulespec.docsgen.traces import TraceFile, example_trace_name, viewer_link
from rulespec.examples.model import Example, load_examples
from rulespec.examples.run import Outcome, as_trace, run_example
from rulespec.reference.core import config_from_json
from rulespec.reference.registry import engine_class
from rulespec.spec.model import Spec

#: The longest play-by-play shown (longer step lists are cut, with a note).
MAX_LINES = 12
#: From a game's pages (``games/<id>/``) to the docs folder.
TO_DOCS = "../../"


_Run = tuple[tuple[Example, Outcome, tuple[str, ...]], ...]
#: Examples run once per spec file and build (the clause and register pages share them).
_RUNS: dict[str, _Run] = {}


def _examples(spec: Spec) -> _Run:
    key = f"{spec.path}:{spec.version}"
    if key not in _RUNS:
        _RUNS[key] = _run(spec)
    return _RUNS[key]


def _run(spec: Spec) -> _Run:
    file = load_examples(spec)
    out = []
    for ex in file.examples:
        outcome = run_example(spec, ex, words_module=file.vocabulary)
        out.append((ex, outcome, tuple(_narrate(spec, ex, outcome))))
    return tuple(out)


def _narrate(spec: Spec, example: Example, outcome: Outcome) -> list[str]:
    """Return one line per step move, in the reference's words."""
    if not outcome.ok:
        return []
    engine = engine_class(spec)(spec, config_from_json(spec, example.config_json(spec.game_id)))
    for move in outcome.setup:
        if move.kind == "apply":
            engine.apply(move.action)
    lines = []
    for move in outcome.steps:
        if move.kind == "refuse":
            lines.append(f"refused, as the rules demand: {move.action}")
            continue
        engine.apply(move.action)
        lines.append(engine.describe(move.action, move.actor if move.actor is not None else 0))
    return lines


def _words(moves: Sequence[Mapping[str, object]]) -> str:
    return "; ".join(yaml.safe_dump(dict(m), default_flow_style=True, width=10_000).strip()
                     .strip("{}") for m in moves)


def example_traces(spec: Spec) -> list[TraceFile]:
    """Return a trace of every rule example that holds on the reference: its moves from the
    start with the reference's state at every step, and its expectations at the end."""
    return [TraceFile(example_trace_name(spec.game_id, ex.id), spec.game_id, None, "example",
                      "\n".join(as_trace(spec, outcome).lines()) + "\n")
            for ex, outcome, _ in _examples(spec) if outcome.ok]


def _played(outcome: Outcome) -> int:
    """Return how many moves of an example are played (its trace's last step)."""
    return sum(1 for m in (*outcome.setup, *outcome.steps) if m.kind == "apply")


def _viewer(spec: Spec, example: Example, outcome: Outcome, label: str) -> str:
    return viewer_link(label, example_trace_name(spec.game_id, example.id), _played(outcome),
                       prefix=TO_DOCS)


def example_block(spec: Spec, example: Example, lines: Sequence[str],
                  outcome: Outcome | None = None, *, anchored: bool = True) -> str:
    """Return one example as a folded Given / When / Then block, with a link to its trace in
    the viewer when its ``outcome`` on the reference holds.

    The block is anchored at the example's id (``rules/#DDO-EX-DIE-D8`` opens it) where it is
    ``anchored``: under the first clause it illustrates. Under the others it is a copy, left out
    of the site search. The search finds an example by its id and title; its steps, which show
    the clause at work, are left out (they were a seventh of the index).
    """
    body = []
    config = {k: v for k, v in example.config_json(spec.game_id).items() if k != "game" and v}
    if config:
        body.append(f"**Configuration:** {code(json_text(config))}\n")
    if example.setup:
        body.append(f"**Given** {code(_words(example.setup))}\n")
    shown = list(lines[:MAX_LINES])
    if len(lines) > MAX_LINES:
        shown.append(f"... {len(lines) - MAX_LINES} more moves")
    if shown:
        body.append("**When**\n\n" + "".join(f"1. {text(line)}\n" for line in shown))
    body.append("**Then**\n\n" + "".join(f"- {text(e.because)} {code(e.that)}\n"
                                          for e in example.expect))
    if example.witness is not None:
        body.append(f"Witness of {code(example.witness.ambiguity)} option "
                    f"{code(example.witness.option)}: it holds under that option only "
                    f"([the record](ambiguities.md#{example.witness.ambiguity})).\n")
    if outcome is not None and outcome.ok:
        body.append(_viewer(spec, example, outcome, "Step through this example, with the state "
                            "at every step, in the trace viewer") + "\n")
    return details(f"{example.id}: {example.title}", unsearched("\n".join(body)),
                   kind="example", ident=example.id if anchored else None,
                   searchable=anchored) + "\n"


def clause_examples(spec: Spec, clause_id: str, anchored: set[str] | None = None) -> str:
    """Return the examples that illustrate ``clause_id`` (empty when there are none).

    ``anchored`` collects, over one page, the examples already shown with their anchor; an
    example met again is shown without it (an id is unique on a page).
    """
    seen = set() if anchored is None else anchored
    blocks = []
    for ex, outcome, lines in _examples(spec):
        if clause_id in ex.clauses:
            blocks.append(example_block(spec, ex, lines, outcome, anchored=ex.id not in seen))
            seen.add(ex.id)
    return "".join(blocks)


def witness_table(spec: Spec, ambiguity: Mapping[str, Any]) -> str:
    """Return the witnesses of an ambiguity side by side, one column per option.

    Each witness is anchored by its id on the register page (``ambiguities/#DDO-EX-DIE-D8``)
    and links to its whole example on the clauses page.
    """
    aid = str(ambiguity["id"])
    options = [str(o["id"]) for o in ambiguity["options"]]
    found: dict[str, list[Example]] = {o: [] for o in options}
    outcomes: dict[str, Outcome] = {}
    for ex, outcome, _ in _examples(spec):
        if ex.witness is not None and ex.witness.ambiguity == aid:
            found.setdefault(ex.witness.option, []).append(ex)
            outcomes[ex.id] = outcome
    if not any(found.values()):
        return ""

    rows = [
        [" ".join(f'<span id="{ex.id}"></span>[{code(ex.id)}](rules.md#{ex.id})'
                  + (" " + _viewer(spec, ex, outcomes[ex.id], "(trace)")
                     if outcomes[ex.id].ok else "")
                  for ex in found[o]) for o in options],
        ["<br>".join(text(ex.title) for ex in found[o]) for o in options],
        ["<br>".join(text(e.because) for ex in found[o] for e in ex.expect) for o in options],
    ]
    intro = (f'<span id="witnesses-{aid}"></span>**Witnesses.** Each example holds under its '
             "option and fails under every other option (the test suite runs each under all "
             "of them). Its id links to the whole example under its clause; (trace) opens it "
             "in the trace viewer.\n\n")
    return unsearched(intro + table([code(o) for o in options], rows)) + "\n"
