"""The conformance matrix page, from the stamped reports ``rulespec matrix`` writes in a folder.

The reports (``rulespec conform --format json`` documents with a ``matrix`` stamp), the ruling
profiles and the index of ``docs/conformance-reports/`` are docs input, not package data
(mkdocs.yml keeps the folder out of the site); they are produced, never written by hand::

    rulespec matrix --engines tests/conformance/engines/planted.yaml --out docs/conformance-reports

:func:`refusals` says why a folder cannot be shown (the docs build stops on any): a report not
stamped by ``rulespec matrix``, checked with other checks than the kit's, or at a spec version
that is not a release of its game's spec. The page has one table per game, a row per report
(engine x configuration) with when, by which rulespec and at which spec version it was checked;
the kit's checks are grouped in a few columns so the table fits the page, each failed check
linked to its failure below, shown as the reference's side against the engine's
(``rulespec.docsgen.matrix_failures``).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from rulespec.conformance.judging.checks import BY_ID, CHECK_IDS
from rulespec.docsgen.links import game_title
from rulespec.docsgen.markdown import DocsError, Page, anchor, code, plural, table, text
from rulespec.docsgen.matrix_failures import (
    FailureIndex,
    failure_blocks,
    profile_anchor,
    profile_blocks,
)
from rulespec.spec.model import Spec

#: Where the matrix page lives, relative to the docs folder.
MATRIX_PAGE = "implementers/matrix.md"
REPORT_FORMAT = "rulespec-conformance/1"
PROFILE_FORMAT = "rulespec-ruling-profile/2"
MATRIX_FORMAT = "rulespec-matrix/1"
#: The command that produces the docs' reports.
COMMAND = ("rulespec matrix --engines tests/conformance/engines/planted.yaml "
           "--out docs/conformance-reports")

#: The columns of the matrix: the kit's checks, grouped so the table fits the page. A check
#: the kit adds and no group names gets a column of its own (``columns``).
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("Examples", "the spec's rule examples", ("EXAMPLE",)),
    ("Golden", "the golden traces", ("GOLDEN",)),
    ("Tree", "the game tree of the first plies and the chance nodes", ("PERFT", "CHANCE-DIST")),
    ("Play", "games played side by side with the reference",
     ("DIFF-LEGAL", "DIFF-STATE", "DIFF-RESULT")),
    ("States", "the state schema, the spec's invariants and each player's observation",
     ("STATE-SCHEMA", "INVARIANT", "OBSERVATION")),
    ("Protocol", "the protocol, illegal actions and replays",
     ("PROTOCOL", "ILLEGAL-REJECTED", "DETERMINISM")),
)

_MARK = {"passed": "✓", "failed": "✗", "partial": "◐", "not run": "·", "skipped": "–"}
_SAID = {"passed": "passed", "failed": "failed", "not run": "not run",
         "partial": "passed as far as play went (a configuration stopped at its first failure)",
         "skipped": "skipped (the engine does not play this configuration)"}


def columns() -> list[tuple[str, str, tuple[str, ...]]]:
    """Return the matrix's check columns: the groups, then any kit check no group names."""
    named = {c for _, _, ids in GROUPS for c in ids}
    return [*GROUPS, *((c, BY_ID[c].title, (c,)) for c in CHECK_IDS if c not in named)]


# -- reading and refusing ------------------------------------------------------------------------


def _load(folder: Path, fmt: str) -> list[dict[str, Any]]:
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DocsError(f"{path}: cannot be read as JSON ({exc}); produce the folder again "
                            f"with `{COMMAND}`") from None
        if isinstance(doc, dict) and doc.get("format") == fmt:
            doc["_file"] = path.name
            out.append(doc)
    return out


def load_reports(folder: Path) -> list[dict[str, Any]]:
    """Return the conformance reports (``*.json``) of ``folder``, sorted by file name."""
    return _load(folder, REPORT_FORMAT)


def load_profiles(folder: Path) -> list[dict[str, Any]]:
    """Return the ruling profiles (``*.profile.json``) of ``folder``, sorted by file name."""
    return _load(folder, PROFILE_FORMAT)


def load_index(folder: Path) -> dict[str, Any] | None:
    """Return the matrix's index (``index.json``) of ``folder``, or None when there is none."""
    found = _load(folder, MATRIX_FORMAT)
    return found[0] if found else None


def refusals(reports: Sequence[Mapping[str, Any]], profiles: Sequence[Mapping[str, Any]],
             known: Mapping[str, Spec]) -> list[str]:
    """Return why the documents cannot be shown: not stamped by ``rulespec matrix``, checked
    with other checks than the kit's, or at a spec version that is not a release of the spec
    (checked for the games in ``known``; the page says which could not be)."""
    from rulespec.conformance.matrix.run import describe_checks

    out = []
    for doc in [*reports, *profiles]:
        name = str(doc.get("_file", doc.get("engine")))
        stamp = doc.get("matrix")
        if not isinstance(stamp, dict):
            out.append(f"{name}: not produced by rulespec matrix (no matrix stamp: no date, no "
                       "kit version)")
            continue
        if doc.get("format") == REPORT_FORMAT:
            checks = [str(c.get("id")) for c in doc.get("checks", [])]
            # A check the kit gained since the report was made shows as not run; one the kit
            # does not know has no column to go in.
            if any(c not in CHECK_IDS for c in checks):
                out.append(f"{name}: checked with {describe_checks(checks)}")
        spec = known.get(str(doc.get("game")))
        if spec is None:
            continue
        releases = [str(r["version"]) for r in spec.data["game"].get("releases") or []]
        versions = stamp.get("spec") or {}
        for what in ("today", "checked_at"):
            version = str(versions.get(what))
            if version not in releases:
                out.append(f"{name}: its spec version {version} ({what.replace('_', ' ')}) is "
                           f"not a release of {spec.game_id} ({', '.join(releases) or 'none'})")
    return out


def check_reports(reports: Sequence[Mapping[str, Any]], profiles: Sequence[Mapping[str, Any]],
                  known: Mapping[str, Spec], folder: Path) -> None:
    """Raise DocsError, saying every problem and what to do, when the documents cannot be
    shown (``refusals``)."""
    found = refusals(reports, profiles, known)
    if found:
        raise DocsError(f"the conformance reports in {folder} cannot be shown:\n  "
                        + "\n  ".join(found) + f"\nProduce them again with `{COMMAND}`.")


# -- the page ------------------------------------------------------------------------------------


def matrix_page(reports: Sequence[Mapping[str, Any]], specs: Sequence[Spec],
                profiles: Sequence[Mapping[str, Any]] = (),
                index: Mapping[str, Any] | None = None, folder: Path | None = None,
                checked: Collection[str] | None = None) -> Page:
    """Return the conformance matrix page: a table per game, the failures, the profiles.

    ``specs`` are the documented games (their clauses and records are linked); ``folder``,
    when given, is where the failure traces are (a trace viewer link is given only for a trace
    that has steps); ``checked`` the games whose reports' spec versions were checked against
    their releases (``refusals``; default: the documented ones).
    """
    checked = {s.game_id for s in specs} if checked is None else set(checked)
    by_game = {spec.game_id: spec for spec in specs}
    out = ['---\ntitle: "Conformance matrix"\nhide:\n  - toc\n---\n\n', "# Conformance matrix\n\n",
           _intro(reports, index)]
    if not reports:
        return Page(MATRIX_PAGE, "".join(out) + "No conformance reports are committed yet.\n")
    out.append(_legend())
    out.append(_skipped(index))
    failures = FailureIndex()
    for game in sorted({str(r["game"]) for r in reports}):
        spec = by_game.get(game)
        out.append(_game_section(game, spec, [r for r in reports if r["game"] == game],
                                 [p for p in profiles if p["game"] == game], failures,
                                 game in checked))
    out.append(failure_blocks(failures, by_game, folder))
    out.append(profile_blocks(profiles))
    return Page(MATRIX_PAGE, "".join(out))


def _intro(reports: Sequence[Mapping[str, Any]], index: Mapping[str, Any] | None) -> str:
    dates = sorted({str(r["matrix"]["produced"])[:10] for r in reports if r.get("matrix")})
    kits = sorted({str(r["matrix"]["rulespec"]) for r in reports if r.get("matrix")})
    made = ""
    if dates:
        span = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
        made = (f"These reports were produced by `rulespec matrix` on {span} (UTC) with "
                f"rulespec {', '.join(kits)}")
        if index is not None and index.get("lists"):
            made += ", from the engine lists " + ", ".join(code(x) for x in index["lists"])
        made += ". "
    return ("Which engine passes which of the kit's checks, on which game and in which "
            "configuration. Each row is one `rulespec conform` report: an engine checked on a "
            "game under one configuration (every player count it plays, unless the row says), "
            "stamped with the spec version it was checked at, the date and the rulespec that "
            f"checked it. {made}The docs build refuses a report whose checks are not the kit's "
            "or whose spec version is not a release; produce the reports again with "
            f"`{COMMAND}` ([how](conformance.md#9-the-conformance-matrix)).\n\n")


def _legend() -> str:
    rows = [[f"**{name}**", text(what), ", ".join(
        f'<abbr title="{text(BY_ID[c].title)}">{c}</abbr>' for c in ids)]
        for name, what, ids in columns()]
    marks = " · ".join(f"{m} {s.split(' (')[0]}" for s, m in
                       (("passed", "✓"), ("failed", "✗"), ("partial", "◐"), ("not run", "·"),
                        ("skipped", "–")))
    return ('<div class="rs-kv" markdown>\n\n' + table(["Column", "What", "Checks, in order"],
                                                        rows)
            + "\n</div>\n\n" + f"Each mark is one check, in the column's order: {marks} "
            "(◐: passed as far as play went, a configuration having stopped at its first "
            "failure; –: the engine does not play the configuration). A failed check links to "
            "its failure below.\n\n")


def _skipped(index: Mapping[str, Any] | None) -> str:
    rows = (index or {}).get("skipped") or []
    if not rows:
        return ""
    lines = [f"- {text(s['name'])} on {code(s['game'])}: {text(s['why'])}\n" for s in rows]
    return ('!!! note "Not in this matrix"\n\n    Left out when the matrix was produced:\n\n'
            + "".join("    " + line for line in lines) + "\n")


def _order(report: Mapping[str, Any]) -> tuple[int, str, bool, str]:
    """Sort rows: the reference in-process, over the protocol, other engines, planted bugs;
    an engine's defaults before its other configurations."""
    stamp = report.get("matrix") or {}
    engine = stamp.get("engine") or {}
    eid = str(engine.get("id", ""))
    rank = 0 if eid == "reference" else 1 if eid == "reference-protocol" else (
        3 if engine.get("planted_bug") else 2)
    config = str((stamp.get("configuration") or {}).get("id", ""))
    return rank, eid, config != "default", config


def _game_section(game: str, spec: Spec | None, reports: Sequence[Mapping[str, Any]],
                  profiles: Sequence[Mapping[str, Any]], failures: FailureIndex,
                  checked: bool) -> str:
    title = text(game_title(spec)) if spec else code(game)
    out = [f"## {title} {anchor('game-' + game)}\n\n"]
    stamp = next((r["matrix"] for r in reports if r.get("matrix")), None)
    if stamp is not None:
        ref = stamp["game"]
        out.append(f"Spec {stamp['spec']['today']} today; its reference interpreter is "
                   f"{code(ref['reference'])} ({text(ref['distribution'])}).")
        if spec is None:
            out.append(" This game is not documented on this site, so its clauses are not "
                       "linked.")
        if not checked:
            out.append(" It was not installed when the site was built, so the reports' spec "
                       "versions were not checked against its releases.")
        out.append("\n\n")
    headers = ["Engine", "Configuration", "Checked"] + [
        f'<abbr title="{text(what)}: {", ".join(ids)}">{name}</abbr>'
        for name, what, ids in columns()]
    rows = [_row(report, failures) for report in sorted(reports, key=_order)]
    out.append('<div class="rs-matrix" markdown>\n\n' + table(headers, rows) + "\n</div>\n\n")
    if profiles:
        out.append("Ruling profiles (`rulespec conform --infer`: which reading of each ambiguity "
                   "the engine follows):\n\n")
        for p in sorted(profiles, key=_order):
            out.append(f"- {text(p['engine'])}: {text(p['summary'])} "
                       f"([details](#{profile_anchor(p)}))\n")
        out.append("\n")
    return "".join(out)


def _row(report: Mapping[str, Any], failures: FailureIndex) -> list[str]:
    stamp = report["matrix"]
    engine = stamp["engine"]
    declared = engine["declared"]
    who = f"{text(engine['name'])}<br><small>{text(declared['name'])} {text(declared['version'])}"
    if engine.get("planted_bug"):
        who += f"; planted bug: {text(engine['planted_bug'])}"
    who += "</small>"
    counts = sorted({int(r["config"]["players"]) for r in report["runs"] if r.get("config")})
    skipped = [r for r in report["runs"] if r.get("skipped")]
    config = text(stamp["configuration"]["label"])
    config += f"<br><small>{_counts(counts)}"
    if skipped:
        config += f", {len(skipped)} skipped"
    config += "</small>"
    spec = stamp["spec"]
    version = spec["checked_at"] + ("" if spec["checked_at"] == spec["today"]
                                    else f" (today {spec['today']})")
    checked = (f"spec {text(version)}<br><small>{text(stamp['produced'][:10])}, "
               f"rulespec {text(stamp['rulespec'])}</small>")
    status = {str(c["id"]): str(c["status"]) for c in report["checks"]}
    if report["runs"] and all(r.get("skipped") for r in report["runs"]):
        status = {c: "skipped" if s != "failed" else s for c, s in status.items()}
    cells = [_group_cell(report, ids, status, failures) for _, _, ids in columns()]
    return [who, config, checked, *cells]


def _counts(counts: Sequence[int]) -> str:
    if not counts:
        return "no game played"
    if len(counts) > 2 and counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}–{counts[-1]} players"
    return plural(len(counts), "player count") if len(counts) > 3 else (
        ", ".join(map(str, counts)) + (" player" if counts == [1] else " players"))


def _group_cell(report: Mapping[str, Any], ids: Sequence[str], status: Mapping[str, str],
                failures: FailureIndex) -> str:
    marks = []
    for cid in ids:
        state = status.get(cid, "not run")
        said = f"{cid}: {_SAID[state]}"
        mark = (f'<span class="rs-cell rs-cell-{state.replace(" ", "-")}" title="{said}">'
                f"{_MARK[state]}</span>")
        key = failures.anchor_for(report, cid) if state == "failed" else None
        if key is not None:
            mark = f"[{mark} {_count(report, cid)}](#{key})"
        elif state == "failed" or (state == "passed" and cid in ("EXAMPLE", "GOLDEN")):
            mark += f" {_count(report, cid)}"
        marks.append(mark)
    return " ".join(marks)


def _count(report: Mapping[str, Any], cid: str) -> str:
    """Return how many rule examples or golden traces ran (and failed), or the check's id."""
    if cid == "EXAMPLE" and report.get("rule_examples"):
        ran = int(report["rule_examples"].get("examples") or 0)
        bad = len(report["rule_examples"].get("failures") or [])
        return f"{bad} of {ran}" if bad else str(ran)
    if cid == "GOLDEN" and report.get("golden"):
        ran = len(report["golden"])
        bad = sum(1 for g in report["golden"] if not g["ok"])
        return f"{bad} of {ran}" if bad else str(ran)
    return cid
