"""The failures and ruling profiles below the conformance matrix.

Failures are shown once per cause (the report's ``causes``: failures alike but for where they
happened), each as the reference's side against the engine's: the differing state fields, or
the legal actions, chance outcomes, player to move or result the two gave. The broken clauses
and records link to their game's pages; the minimal game opens in the trace viewer when its
trace has steps.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulespec.docsgen.links import Links, game_title
from rulespec.docsgen.markdown import anchor, code, indent, plural, table, text
from rulespec.spec.model import Spec

#: Rows of a side-by-side list (legal actions, chance outcomes) shown; the rest are counted.
SIDE_ROWS = 12
#: Characters of a JSON value shown in a cell.
VALUE_CHARS = 90
#: Places a cause happened that are listed; the rest are counted.
WHERE_SHOWN = 6


class FailureIndex:
    """The failures the matrix links to, one anchor per cause, numbered as the table meets them."""

    def __init__(self) -> None:
        #: (anchor, report, cause) in the order the anchors were given.
        self.causes: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]] = []
        self._seen: dict[int, list[tuple[str, Mapping[str, Any]]]] = {}

    def _of(self, report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
        key = id(report)
        if key not in self._seen:
            self._seen[key] = []
            for cause in causes_of(report):
                name = f"fail-{len(self.causes) + 1}"
                self.causes.append((name, report, cause))
                self._seen[key].append((name, cause))
        return self._seen[key]

    def anchor_for(self, report: Mapping[str, Any], check: str) -> str | None:
        """Return the anchor of the first cause of ``report`` that fails ``check``."""
        return next((name for name, cause in self._of(report) if check in cause["checks"]),
                    None)


def causes_of(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Return the report's causes; a report without them gets one per failure."""
    failures = list(report.get("failures") or [])
    found = report.get("causes")
    if isinstance(found, list) and found:
        return [dict(c) for c in found]
    return [{"cause": f.get("cause") or f["check"], "checks": [f["check"]], "count": 1,
             "where": [], "failures": [i], "shown": i, "rulings": []}
            for i, f in enumerate(failures)]


def failure_blocks(index: FailureIndex, specs: Mapping[str, Spec], folder: Path | None) -> str:
    """Return the Failures section: one block per cause the matrix links to."""
    out = [f"## Failures {anchor('failures')}\n\n"]
    if not index.causes:
        return out[0] + "No engine fails any check.\n\n"
    for name, report, cause in index.causes:
        out.append(_cause_block(name, report, cause, specs.get(str(report["game"])), folder))
    return "".join(out)


def _cause_block(key: str, report: Mapping[str, Any], cause: Mapping[str, Any],
                 spec: Spec | None, folder: Path | None) -> str:
    failures = list(report.get("failures") or [])
    shown = failures[int(cause["shown"])] if failures else {}
    stamp = report.get("matrix") or {}
    links = Links(spec) if spec is not None else None
    prefix = f"../games/{report['game']}/"

    def link(ident: str) -> str:
        return links.to(ident, prefix=prefix) if links else code(ident)

    game = text(game_title(spec)) if spec else code(report["game"])
    config = text((stamp.get("configuration") or {}).get("label", ""))
    out = [f"### {text(report['engine'])}: {', '.join(cause['checks'])} {anchor(key)}\n\n",
           f"**{text(shown.get('title', ''))}**, on {game} ({config}): "
           f"{text(cause['cause'])}.\n\n"]
    where = [str(w) for w in cause.get("where") or []]
    if len(where) > 1:
        listed = ", ".join(text(w) for w in where[:WHERE_SHOWN])
        more = f" and {len(where) - WHERE_SHOWN} more" if len(where) > WHERE_SHOWN else ""
        out.append(f"Seen {plural(int(cause.get('count', len(where))), 'time')}: {listed}"
                   f"{more}.\n\n")
    clauses = [str(c) for c in shown.get("clauses") or []]
    broken = ", ".join(link(c) for c in clauses) or "none (a protocol or whole-game check)"
    out.append(f"Broken rule: {broken}.")
    subject = shown.get("subject")
    if subject and shown.get("check") == "EXAMPLE":
        out.append(f" Rule example {code(subject)}.")
    elif subject and shown.get("check") in ("INVARIANT", "PERFT"):
        out.append(f" {'Invariant' if shown['check'] == 'INVARIANT' else 'Check'} "
                   f"{link(str(subject))}.")
    for ruling in cause.get("rulings") or []:
        readings = ", ".join(f"{link(str(a))} = {code(o)}" for a, o in sorted(ruling.items()))
        out.append(f" The reference does the same under {readings}.")
    out.append("\n\n")
    out.append(sides(shown, link))
    out.append(_minimal_game(shown, folder))
    message = str(shown.get("message", ""))
    if message:
        out.append('??? quote "The kit\'s message"\n\n' + indent(text(message)) + "\n")
    return "".join(out)


def sides(failure: Mapping[str, Any], link: Any) -> str:
    """Return the reference's side against the engine's: the differing state fields, or what
    else the check compared (empty when the failure has neither)."""
    diff = failure.get("diff") or []
    if diff:
        rows = []
        for change in diff:
            kind = str(change.get("kind", "changed"))
            want = "(absent)" if kind == "extra" else _value(change.get("want"))
            got = "(absent)" if kind == "missing" else _value(change.get("got"))
            note = " (another order)" if change.get("reordered") else ""
            rows.append([code(change.get("path", "")), want, got + note,
                         ", ".join(link(str(c)) for c in change.get("clauses") or [])])
        return ("Expected (the reference's state) against actual (the engine's), field by "
                f"field, after {plural(int(failure.get('step') or 0), 'action')}:\n\n"
                + _wrap(table(["Field", "Expected", "Actual", "Clauses"], rows)))
    expected, actual = failure.get("expected"), failure.get("actual")
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return ""
    out = []
    for key in [k for k in expected if k in actual]:
        want, got = expected[key], actual[key]
        what = key.replace("_", " ")
        if isinstance(want, list) and isinstance(got, list):
            rows = []
            for n in range(max(len(want), len(got))):
                w = _value(want[n]) if n < len(want) else "(none)"
                g = _value(got[n]) if n < len(got) else "(none)"
                rows.append([str(n + 1) + ("" if w == g else " ≠"), w, g])
            more = ""
            if len(rows) > SIDE_ROWS:
                more = f"\n{plural(len(rows) - SIDE_ROWS, 'more row')} in the report.\n"
                rows = rows[:SIDE_ROWS]
            out.append(f"Expected {what} (the reference's) against actual (the engine's), in "
                       "order (≠ where they differ):\n\n"
                       + _wrap(table(["#", "Expected", "Actual"], rows)) + more)
        else:
            out.append(f"Expected {what}: {_value(want)}; actual: {_value(got)}.\n\n")
    return "".join(out)


def _wrap(block: str) -> str:
    return '<div class="rs-diff" markdown>\n\n' + block + "\n</div>\n\n"


def _value(value: Any) -> str:
    raw = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    return code(raw if len(raw) <= VALUE_CHARS else raw[:VALUE_CHARS - 1] + "…")


def _minimal_game(failure: Mapping[str, Any], folder: Path | None) -> str:
    actions = failure.get("actions") or []
    out = []
    if actions:
        rows = [[str(n), text(a["actor"]), code(json.dumps(a["action"], sort_keys=True))]
                for n, a in enumerate(actions, 1)]
        out.append(f'??? example "Minimal game ({plural(len(actions), "action")})"\n\n'
                   + indent(table(["#", "Actor", "Action"], rows)) + "\n")
    trace = failure.get("trace")
    steps = trace_steps(folder, str(trace)) if trace and folder is not None else None
    if steps:
        parts = Path(str(trace)).with_suffix("").parts
        name = "failure." + ".".join(parts[parts.index("failures") + 1:])
        # The step the failure shows at (a rule example's trace goes on after it).
        at = failure.get("step")
        step = at if isinstance(at, int) and 0 < at <= steps else steps
        out.append(f'<a class="md-button" href="../trace-viewer/#trace={html.escape(name)}&amp;'
                   f'step={step}">Step through this game in the trace viewer</a>\n\n')
    elif trace and not actions:
        out.append("It fails at the start position, before any action: there is no game to "
                   "step through.\n\n")
    return "".join(out)


def trace_steps(folder: Path, trace: str) -> int | None:
    """Return how many steps the failure trace ``trace`` (relative to the reports' folder)
    has; None when it is not a file there."""
    parts = Path(trace).parts
    if "failures" not in parts:
        return None
    path = folder.joinpath(*parts[parts.index("failures"):])
    if not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    return sum(1 for line in lines if '"type":"step"' in line.replace(" ", ""))


def profile_anchor(profile: Mapping[str, Any]) -> str:
    """Return the anchor of an engine's ruling profile block."""
    return re.sub(r"[^a-z0-9]+", "-", f"profile-{profile['game']}-{profile['engine']}".lower()
                  ).strip("-")


def profile_blocks(profiles: Sequence[Mapping[str, Any]]) -> str:
    """Return the Ruling profiles section (empty without profiles)."""
    if not profiles:
        return ""
    out = [f"## Ruling profiles {anchor('ruling-profiles')}\n\n"
           "Per engine, which reading of each ambiguity record it follows at each player count "
           "(`rulespec conform --infer`), and what shows it: the record's witness (the rule "
           "example that holds under that reading alone) or, where no witness decides, the "
           "games played.\n\n"]
    for profile in profiles:
        players = profile.get("players") or []
        out.append(f"### {text(profile['engine'])}: {text(profile['game'])} "
                   f"{anchor(profile_anchor(profile))}\n\n"
                   f"**{text(str(profile['summary']))}** (checked as spec "
                   f"{text(str(profile['checked_as']))}, "
                   f"{plural(len(players), 'player count')}, "
                   f"{plural(int(profile.get('witnesses_run', 0)), 'witness run')}).\n\n")
        rows = [[text(c) for c in row] for row in profile.get("table") or []]
        if rows:
            out.append(table(["Record", "Configured", "Follows", "Shown by", "Players"], rows)
                       + "\n")
    return "".join(out)
