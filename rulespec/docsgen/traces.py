"""The trace viewer's data: every golden trace, and what it needs to explain each step.

The viewer (``docs/javascripts/trace-viewer.js``) must work from a site opened offline, even
from ``file://`` where ``fetch`` is refused, so the data is written as small scripts that
call back into the viewer: ``traces/catalog.js`` (the trace list, and per game the clauses of
each action kind and each clause's statement) and one ``traces/<name>.js`` per trace.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.docsgen.links import game_dir, game_title
from rulespec.spec.model import Spec

#: Where the data scripts go, relative to the site root.
TRACE_DIR = "traces"


@dataclass(frozen=True)
class TraceFile:
    """One trace the viewer offers: a golden trace, or a conformance failure's minimal game."""

    name: str
    game: str
    path: Path
    kind: str = "golden"


def golden_traces(games: Iterable[str]) -> list[TraceFile]:
    """Return the golden traces each game's package registers (none for an unknown game)."""
    from rulespec.spec.errors import RulespecError
    from rulespec.spec.registry import registered

    out = []
    for game in games:
        try:
            folder = registered(game).package.traces
        except RulespecError:
            continue
        if folder is None:
            continue
        out += [TraceFile(p.name.removesuffix(".jsonl"), game, p)
                for p in sorted(Path(folder).glob(f"{game}.*.jsonl"))]
    return out


def failure_traces(folder: Path) -> list[TraceFile]:
    """Return the minimal failing games the committed conformance reports point to."""
    out = []
    for path in sorted(folder.rglob("*.jsonl")) if folder.is_dir() else []:
        header = json.loads(path.read_text(encoding="utf-8").split("\n", 1)[0])
        name = "failure." + ".".join(path.relative_to(folder).with_suffix("").parts)
        out.append(TraceFile(name, str(header.get("game", "")), path, "failure"))
    return out


def game_catalog(spec: Spec, *, documented: bool) -> dict[str, Any]:
    """Return what the viewer shows about one game: clauses per action kind, statements."""
    return {
        "title": game_title(spec),
        "docs": f"{game_dir(spec)}/" if documented else None,
        "actions": {str(a["id"]): [str(c) for c in a.get("clauses", [])]
                    for a in spec.section("actions")},
        "clauses": {str(c["id"]): str(c["statement"]) for c in spec.section("clauses")},
    }


def catalog_script(traces: Sequence[TraceFile], specs: Sequence[Spec],
                   documented: Iterable[str]) -> str:
    """Return ``traces/catalog.js``."""
    shown = set(documented)
    data = {
        "traces": [{"name": t.name, "game": t.game, "kind": t.kind} for t in traces],
        "games": {spec.game_id: game_catalog(spec, documented=spec.game_id in shown)
                  for spec in specs},
    }
    return f"window.rulespecTraceCatalog({json.dumps(data, ensure_ascii=False)});\n"


def trace_script(trace: TraceFile) -> str:
    """Return ``traces/<name>.js``: the trace's JSON Lines text handed to the viewer."""
    body = trace.path.read_text(encoding="utf-8")
    return (f"window.rulespecTraceLoaded({json.dumps(trace.name)}, "
            f"{json.dumps(body, ensure_ascii=False)});\n")
