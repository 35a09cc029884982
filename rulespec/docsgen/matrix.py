"""The conformance matrix: engines x configurations x checks, from JSON reports in a folder.

The reports are what ``rulespec conform --format json`` writes; beside them, each engine's
ruling profile (``rulespec conform --infer --format json``, ``<job>.profile.json``) gives its
row a one-line summary of the readings it follows, detailed below the matrix. They are committed in
``docs/conformance-reports/`` (docs input, not package data; mkdocs.yml excludes the folder
from the site) so the docs build stays fast; refresh them with::

    python -m rulespec.docsgen.matrix            # every job in JOBS, into docs/conformance-reports/
    python -m rulespec.docsgen.matrix --out DIR  # elsewhere

Every cell of the matrix links to the failure it stands for, listed below the matrix with
its clauses, configuration, message and minimal game.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespec.docsgen.links import Links, game_title
from rulespec.docsgen.markdown import Page, anchor, code, plural, table, text
from rulespec.spec.model import Spec

#: Where the matrix page lives, relative to the docs folder.
MATRIX_PAGE = "implementers/matrix.md"
REPORT_FORMAT = "rulespec-conformance/1"
PROFILE_FORMAT = "rulespec-ruling-profile/2"


@dataclass(frozen=True)
class Job:
    """One ``rulespec conform`` run whose JSON report the matrix shows."""

    name: str
    game: str
    engine: str | None = None
    args: tuple[str, ...] = ()
    #: The engine's name in the matrix (the report's own is its command line).
    label: str = "reference (in-process)"
    #: Also write the engine's ruling profile (once per engine and game).
    profile: bool = False

    def command(self, report: Path, failures: Path) -> list[str]:
        """Return the command line that writes this job's report."""
        cmd = [sys.executable, "-m", "rulespec", "conform", "--game", self.game, "--examples",
               "10", "--format", "json", "--report", str(report), "--trace-dir", str(failures)]
        if self.engine:
            cmd += ["--engine", self.engine]
        return cmd + list(self.args)

    def profile_command(self, report: Path) -> list[str]:
        """Return the command line that writes this engine's ruling profile (as it declares,
        so without the job's other options)."""
        cmd = [sys.executable, "-m", "rulespec", "conform", "--game", self.game, "--infer",
               "--format", "json", "--report", str(report)]
        return cmd + (["--engine", self.engine] if self.engine else [])


_NODE = "Node.js: conformance/engines/dado_de_ouro.js"

_BAD = f"{sys.executable} -m tests.conformance.engines.bad_server dado-de-ouro"

#: The reports committed for the docs: the reference on every built-in game, the bundled
#: Node.js engine, and two known-bad engines of the negative corpus, to show what a failure
#: and another reading look like; each engine's ruling profile too.
JOBS: tuple[Job, ...] = (
    *(Job(f"{game}.reference", game, profile=True)
      for game in ("dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino")),
    Job("dado-de-ouro.reference.d8", "dado-de-ouro", args=("-r", "DDO-AMB-01=d8")),
    Job("dado-de-ouro.node", "dado-de-ouro", "node conformance/engines/dado_de_ouro.js",
        label=_NODE, profile=True),
    Job("dado-de-ouro.node.d8", "dado-de-ouro", "node conformance/engines/dado_de_ouro.js",
        ("-r", "DDO-AMB-01=d8"), label=_NODE),
    Job("dado-de-ouro.bad-reversed-order", "dado-de-ouro", f"{_BAD} reversed-order",
        ("--no-golden",), label="known-bad: reversed-order (negative corpus)", profile=True),
    Job("dado-de-ouro.bad-like-DDO-AMB-04", "dado-de-ouro", f"{_BAD} like-DDO-AMB-04",
        ("--no-golden",), label="known-bad: like-DDO-AMB-04 (negative corpus)", profile=True),
)


def load_reports(folder: Path) -> list[dict[str, Any]]:
    """Return the conformance reports (``*.json``) of ``folder``, sorted by file name."""
    reports = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and doc.get("format") == REPORT_FORMAT:
            doc["_file"] = path.name
            reports.append(doc)
    return reports


def load_profiles(folder: Path) -> list[dict[str, Any]]:
    """Return the ruling profiles (``*.profile.json``) of ``folder``, sorted by file name."""
    profiles = []
    for path in sorted(folder.glob("*.profile.json")) if folder.is_dir() else []:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and doc.get("format") == PROFILE_FORMAT:
            profiles.append(doc)
    return profiles


def config_label(config: Mapping[str, Any], spec: Spec | None) -> str:
    """Return a configuration as ``4 players, DDO-AMB-01=d8`` (rulings that differ from the
    defaults only)."""
    defaults = ({str(a["id"]): str(a["default"]["option"]) for a in spec.section("ambiguities")}
                if spec is not None else {})
    parts = [plural(int(config.get("players", 0)), "player")]
    parts += [f"{k}={v}" for k, v in sorted(config.get("rulings", {}).items())
              if defaults.get(k) != v]
    parts += [f"variant {v}" for v in config.get("variants", [])]
    parts += [f"{k}={json.dumps(v)}" for k, v in sorted(config.get("parameters", {}).items())]
    return ", ".join(parts)


_MARK = {"passed": "✓", "failed": "✗", "skipped": "–", "not run": "·"}


def _cell(status: str, href: str | None = None) -> str:
    label = f'<span class="rs-cell rs-cell-{status.replace(" ", "-")}" title="{status}">' \
            f"{_MARK[status]}</span>"
    return f"[{label}]({href})" if href else label


def matrix_page(reports: Sequence[Mapping[str, Any]], specs: Sequence[Spec],
                profiles: Sequence[Mapping[str, Any]] = ()) -> Page:
    """Return the conformance matrix page; an engine's ruling profile, when given, is in its
    first row and detailed below the failures."""
    by_game = {spec.game_id: spec for spec in specs}
    profile_of = {(str(p["game"]), str(p["engine"])): p for p in profiles}
    # No contents sidebar: the matrix needs the width.
    out = ['---\ntitle: "Conformance matrix"\nhide:\n  - toc\n---\n\n', "# Conformance matrix\n\n",
           "Which engine passes which check, in which configuration, built from the JSON "
           "reports of `rulespec conform --format json` in `docs/conformance-reports/`. Each "
           "✗ links to its failure below: the check, the clauses, the message and the minimal "
           "game. ✓ passed, – skipped (the engine does not support the configuration), "
           "· not run. The *Rulings* column sums up the engine's ruling profile (`rulespec "
           "conform --infer`: which reading of each ambiguity it follows, shown by the spec's "
           "witnesses), detailed below the failures. Refresh the reports with "
           "`python -m rulespec.docsgen.matrix`.\n\n"]
    if not reports:
        return Page(MATRIX_PAGE, "".join(out) + "No conformance reports are committed yet.\n")
    checks = [(c["id"], c["title"]) for c in reports[0]["checks"]]
    failures: list[tuple[str, Mapping[str, Any], Mapping[str, Any]]] = []
    games = sorted({str(r["game"]) for r in reports})
    for game in games:
        spec = by_game.get(game)
        out.append(f"## {text(game_title(spec)) if spec else code(game)} {anchor('game-' + game)}\n\n")
        rows = []
        # The reference first, known-bad engines last, so a reader compares against the top row.
        ordered = sorted((r for r in reports if r["game"] == game),
                         key=lambda r: (str(r["engine"]).startswith("known-bad"),
                                        not str(r["engine"]).startswith("reference"),
                                        str(r.get("_file", "")).removesuffix(".json")))
        profiled: set[str] = set()
        for report in ordered:
            engine = text(report["engine"])
            found = profile_of.get((game, str(report["engine"])))
            # The profile is the engine's, not a configuration's: in its first row only.
            rulings = "" if found is None or engine in profiled else text(str(found["summary"]))
            profiled.add(engine)
            for run in report["runs"]:
                failed: dict[str, str] = {}
                for failure in run["failures"]:
                    key = f"fail-{len(failures) + 1}"
                    failed.setdefault(failure["check"], key)
                    failures.append((key, report, failure))
                row = [engine, text(config_label(run["config"], spec)), rulings]
                rulings = ""
                for cid, _ in checks:
                    if run.get("skipped"):
                        row.append(_cell("skipped"))
                    elif cid in failed:
                        row.append(_cell("failed", f"#{failed[cid]}"))
                    elif cid == "GOLDEN":
                        row.append(_cell("not run"))
                    else:
                        row.append(_cell("passed"))
                rows.append(row)
            if report.get("golden"):
                bad = [g for g in report["golden"] if not g["ok"]]
                golden = _cell("passed")
                if bad:
                    key = f"fail-{len(failures) + 1}"
                    failures += [(key, report, g["failure"]) for g in bad]
                    golden = _cell("failed", f"#{key}")
                rows.append([engine, "golden traces", ""]
                            + [golden if cid == "GOLDEN" else _cell("not run") for cid, _ in checks])
        headers = ["Engine", "Configuration", "Rulings"] + [
            f'<abbr title="{text(title)}">{text(cid)}</abbr>' for cid, title in checks]
        out.append('<div class="rs-matrix" markdown>\n\n' + table(headers, rows) + "\n</div>\n\n")
    out.append(f"## Failures {anchor('failures')}\n\n")
    if not failures:
        out.append("No engine fails any check.\n")
    seen: set[str] = set()
    for key, report, failure in failures:
        if key in seen:
            continue
        seen.add(key)
        out.append(_failure_block(key, report, failure, by_game.get(str(report["game"]))))
    if profiles:
        out.append(f"## Ruling profiles {anchor('ruling-profiles')}\n\n"
                   "Per engine, which reading of each ambiguity record it follows at each "
                   "player count (`rulespec conform --infer`), and what shows it: the record's "
                   "witness (the rule example that holds under that reading alone) or, where "
                   "no witness decides, the games played.\n\n")
        out += [_profile_block(p) for p in profiles]
    return Page(MATRIX_PAGE, "".join(out))


def _profile_block(profile: Mapping[str, Any]) -> str:
    """Return one engine's ruling profile: its summary and its table."""
    game, engine = str(profile["game"]), str(profile["engine"])
    players = profile.get("players") or []
    slug = re.sub(r"[^a-z0-9]+", "-", f"profile-{game}-{engine}".lower()).strip("-")
    out = [f"### {text(engine)}: {text(game)} {anchor(slug)}\n\n",
           f"**{text(str(profile['summary']))}** (checked as spec "
           f"{text(str(profile['checked_as']))}, "
           f"{plural(len(players), 'player count')}, "
           f"{plural(int(profile.get('witnesses_run', 0)), 'witness run')}).\n\n"]
    rows = [[text(c) for c in row] for row in profile.get("table") or []]
    if rows:
        out.append(table(["Record", "Configured", "Follows", "Shown by", "Players"], rows)
                   + "\n")
    return "".join(out)


def _failure_block(key: str, report: Mapping[str, Any], failure: Mapping[str, Any],
                   spec: Spec | None) -> str:
    links = Links(spec) if spec is not None else None
    prefix = f"../games/{report['game']}/"
    clauses = (links.many(failure["clauses"], prefix=prefix) if links
               else ", ".join(code(c) for c in failure["clauses"]))
    out = [f"### {text(report['engine'])}: {text(failure['check'])} {anchor(key)}\n\n",
           f"**{text(failure['title'])}**. {text(failure['message'])}\n\n",
           f"Configuration: {text(config_label(failure['config'], spec))}. "
           f"Clauses: {clauses or 'none (a protocol or whole-game check)'}.\n\n"]
    actions = failure.get("actions") or []
    if actions:
        out.append(f"Minimal game ({plural(len(actions), 'action')}):\n\n")
        out.append(table(["#", "Actor", "Action"], [
            [str(n), text(a["actor"]), code(json.dumps(a["action"], sort_keys=True))]
            for n, a in enumerate(actions, 1)]) + "\n")
    trace = failure.get("trace")
    if trace and "failures" in Path(trace).parts:
        parts = Path(trace).with_suffix("").parts
        name = "failure." + ".".join(parts[parts.index("failures") + 1:])
        out.append(f'<a class="md-button" href="../trace-viewer/#trace={html.escape(name)}&amp;'
                   f'step={len(actions)}">Step through this game in the trace viewer</a>\n\n')
    return "".join(out)


def refresh(out: Path, jobs: Sequence[Job] = JOBS, *, root: Path | None = None) -> list[Path]:
    """Run every job and write its JSON report (and ruling profile) into ``out``; return the
    paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for job in jobs:
        report = out / f"{job.name}.json"
        failures = out / "failures" / job.name
        shutil.rmtree(failures, ignore_errors=True)  # the kit numbers traces after old ones
        subprocess.run(job.command(report, failures), cwd=root, check=False,
                       stdout=subprocess.DEVNULL)
        if not report.is_file():
            raise RuntimeError(f"{job.name}: rulespec conform wrote no report; run "
                               f"{' '.join(job.command(report, failures))!r} to see why")
        relabel(report, job.label)
        written.append(report)
        if job.profile:
            written.append(write_profile(job, out, root=root))
    return written


def write_profile(job: Job, out: Path, *, root: Path | None = None) -> Path:
    """Write ``job``'s engine's ruling profile into ``out``; return its path."""
    path = out / f"{job.name}.profile.json"
    subprocess.run(job.profile_command(path), cwd=root, check=False, stdout=subprocess.DEVNULL)
    if not path.is_file():
        raise RuntimeError(f"{job.name}: rulespec conform --infer wrote no profile; run "
                           f"{' '.join(job.profile_command(path))!r} to see why")
    relabel(path, job.label)
    return path


def relabel(report: Path, label: str) -> None:
    """Name the engine of a report file ``label`` instead of its machine-specific command."""
    doc = json.loads(report.read_text(encoding="utf-8"))
    doc["engine"] = label
    report.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """Refresh the committed conformance reports."""
    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/conformance-reports"))
    args = parser.parse_args(argv)
    for path in refresh(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
