"""The trace viewer's data: every golden trace, and what it needs to explain each step.

The viewer (``docs/javascripts/trace-viewer.js``) must work from a site opened offline, even
from ``file://`` where ``fetch`` is refused, so the data is written as small scripts that
call back into the viewer: ``traces/catalog.js`` (the trace list, and per game the clauses of
each action kind and each clause's statement) and one ``traces/<name>.js`` per trace.

Three kinds of trace: the golden traces each game registers, the minimal failing games the
committed conformance reports point to, and one trace per rule example (its moves from the
start with the reference's state at every step and its expectations), made at build time.
Generated pages link a trace at a step with :func:`viewer_link`.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rulespec.docsgen.links import game_dir, game_title
from rulespec.docsgen.markdown import code
from rulespec.spec.model import Spec

#: Where the data scripts go, relative to the site root.
TRACE_DIR = "traces"


#: The viewer's page, relative to the docs folder.
VIEWER_PAGE = "implementers/trace-viewer.md"


@dataclass(frozen=True)
class TraceFile:
    """One trace the viewer offers: a golden trace, a conformance failure's minimal game, or a
    rule example played from the start (``text``: the trace, when it is not a file)."""

    name: str
    game: str
    path: Path | None
    kind: str = "golden"
    text: str | None = None

    def read(self) -> str:
        """Return the trace's JSON Lines text."""
        if self.text is not None:
            return self.text
        if self.path is None:
            raise ValueError(f"trace {self.name} has neither a file nor a text")
        return self.path.read_text(encoding="utf-8")


def viewer_link(label: str, trace: str, step: int, *, prefix: str) -> str:
    """Return a Markdown link that opens ``trace`` at ``step`` in the viewer (``prefix`` leads
    from the page to the docs folder). The trace goes in the query, which the docs build keeps
    and does not take for an anchor to check."""
    return f"[{label}]({prefix}{VIEWER_PAGE}?trace={quote(trace)}&step={step})"


def example_trace_name(game: str, example: str) -> str:
    """Return the viewer's name of a rule example's trace."""
    return f"example.{game}.{example}"


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


def game_catalog(spec: Spec, *, documented: bool, since: Sequence[str] = ()) -> dict[str, Any]:
    """Return what the viewer shows about one game: clauses per action kind, statements, its
    version and the releases its Changes page lists the changes since (``since``)."""
    return {
        "title": game_title(spec),
        "docs": f"{game_dir(spec)}/" if documented else None,
        "version": spec.version,
        "since": list(since),
        "actions": {str(a["id"]): [str(c) for c in a.get("clauses", [])]
                    for a in spec.section("actions")},
        "clauses": {str(c["id"]): str(c["statement"]) for c in spec.section("clauses")},
    }


def catalog_script(traces: Sequence[TraceFile], specs: Sequence[Spec],
                   documented: Iterable[str], *,
                   since: Mapping[str, Sequence[str]] | None = None) -> str:
    """Return ``traces/catalog.js`` (``since``: by game, the releases its Changes page lists
    the changes since)."""
    shown = set(documented)
    data = {
        "traces": [{"name": t.name, "game": t.game, "kind": t.kind} for t in traces],
        "games": {spec.game_id: game_catalog(spec, documented=spec.game_id in shown,
                                             since=(since or {}).get(spec.game_id, ()))
                  for spec in specs},
    }
    return f"window.rulespecTraceCatalog({json.dumps(data, ensure_ascii=False)});\n"


def trace_script(trace: TraceFile, *, packed: bool = True) -> str:
    """Return ``traces/<name>.js``: the trace's JSON Lines text handed to the viewer.

    ``packed`` (the site's build): the text gzipped (level 9, no time stamp, so a build is
    reproducible) and in base64, ``{gzip: "..."}``, which the viewer unpacks with the browser's
    DecompressionStream: the traces' JSON repeats its keys and states step after step, and
    packed they weigh about a ninth (10.0 MB of scripts became 1.1 MB on 2026-12-02). Otherwise
    the text as a single-quoted string (its JSON's double quotes need no backslash there),
    which the viewer still reads.
    """
    body = trace.read()
    if packed:
        data = base64.b64encode(gzip.compress(body.encode("utf-8"), compresslevel=9, mtime=0))
        return (f"window.rulespecTraceLoaded({json.dumps(trace.name)}, "
                f"{{gzip: '{data.decode('ascii')}'}});\n")
    return f"window.rulespecTraceLoaded({json.dumps(trace.name)}, {js_string(body)});\n"


def js_string(value: str) -> str:
    """Return ``value`` as a single-quoted JavaScript string literal."""
    escaped = (value.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n")
               .replace("\r", "\\r").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
    return f"'{escaped}'"


def _rulings(trace: TraceFile) -> dict[str, str]:
    """Return the rulings a trace's header configures."""
    if trace.path is not None:
        with trace.path.open(encoding="utf-8") as handle:
            first = handle.readline()
    else:
        first = trace.read().split("\n", 1)[0]
    rulings = json.loads(first or "{}").get("config", {}).get("rulings", {})
    return {str(k): str(v) for k, v in rulings.items()} if isinstance(rulings, dict) else {}


def record_traces(spec: Spec, ambiguity: Mapping[str, Any], traces: Sequence[TraceFile], *,
                  prefix: str) -> str:
    """Return the paragraph that links an ambiguity record to the golden traces played under
    each of its options (the default's: the traces of the default configurations), or ""."""
    aid = str(ambiguity["id"])
    default = str(spec.default_rulings().get(aid, ""))
    under: dict[str, list[str]] = {}
    for trace in traces:
        option = _rulings(trace).get(aid, default)
        if option != default or trace.name.endswith("-default"):
            under.setdefault(option, []).append(trace.name)
    if not under:
        return ""
    parts = []
    for option in [str(o["id"]) for o in ambiguity["options"]]:
        names = under.get(option)
        if not names:
            continue
        links = ", ".join(viewer_link(code(name), name, 0, prefix=prefix) for name in names)
        parts.append(f"under {'the default ' if option == default else ''}{code(option)}: {links}")
    others = "" if len(under) > 1 else " (no golden trace is played under its other options)"
    return (f"**Golden traces** of whole games{others}, in the trace viewer: "
            + "; ".join(parts) + ".\n\n")
