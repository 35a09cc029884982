"""Reporters: the kit's findings as text for people, JSON and JUnit XML for CI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from rulespec.conformance.checks import BY_ID, CHECKS, Failure, Report, RunResult
from rulespec.conformance.coverage import coverage_lines, exercised_line


def _config_text(config: dict[str, Any]) -> str:
    if not config:
        return "none (the engine failed before any game started)"
    rulings = ", ".join(f"{k}={v}" for k, v in sorted(config.get("rulings", {}).items()))
    parts = [f"{config.get('players')} players"]
    if rulings:
        parts.append(f"rulings {rulings}")
    if config.get("variants"):
        parts.append(f"variants {', '.join(config['variants'])}")
    if config.get("parameters"):
        parts.append(f"parameters {json.dumps(config['parameters'], sort_keys=True)}")
    return "; ".join(parts)


def _failure_text(f: Failure) -> list[str]:
    check = BY_ID[f.check]
    head = f"FAIL {f.check} ({check.title})"
    if f.subject:
        head += f" [{f.subject}]"
    lines = [head,
             f"  clauses: {', '.join(f.clauses) or '(none: a protocol or whole-game check)'}",
             f"  configuration: {_config_text(dict(f.config))}",
             f"  {f.message}"]
    if f.also:
        lines.append(f"  also failing at that step: {', '.join(f.also)}")
    lines.extend(f"  {line}" for line in f.changed)
    lines.extend(_rulings_text(f))
    if f.actions:
        shrunk = (f", shrunk from {f.shrunk_from}" if f.shrunk_from is not None
                  and f.shrunk_from != len(f.actions) else "")
        lines.append(f"  minimal game ({len(f.actions)} actions{shrunk}):")
        shown = list(f.actions)
        if len(shown) > 12:
            shown = [*shown[:4], ("...", {"kind": f"{len(shown) - 10} more"}), *shown[-6:]]
        for actor, action in shown:
            lines.append(f"    {actor}: {json.dumps(action, sort_keys=True)}")
    if f.trace:
        lines.append(f"  trace: {f.trace}  (run: rulespec replay {f.trace})")
    return lines


#: What each conformance level leaves out, as the run line says it.
_LEVELS = {"full": "", "observable": " at level observable (hidden state not compared)",
           "none": " at level none (states not compared, only results)"}


def _rulings_text(f: Failure) -> list[str]:
    """Say which ruling options make the reference do what the engine did."""
    if f.inference is None:
        return []
    if not f.matches:
        return [f"  rulings: no alternative option reproduces the engine's behaviour "
                f"({f.inference})"]
    from rulespec.conformance.inference import describe_match

    configured = dict(f.config.get("rulings", {}))
    lines = [f"  rulings: the engine behaves like {describe_match(m, configured)}"
             for m in f.matches]
    flags = " ".join(f"--ruling {a}={o}" for a, o in sorted(f.matches[0].items()))
    lines.append(f"    declare it in hello and check with {flags}, or fix the engine "
                 f"({f.inference})")
    lines.append("    its whole ruling profile, every record at every player count: rerun with --infer")
    return lines


#: Column heads of the configuration-by-check matrix.
_SHORT = {"PROTOCOL": "PROT", "STATE-SCHEMA": "SCHM", "INVARIANT": "INV", "DIFF-LEGAL": "LEGL",
          "DIFF-STATE": "STAT", "DIFF-RESULT": "RSLT", "ILLEGAL-REJECTED": "ILLG",
          "DETERMINISM": "DET", "CHANCE-DIST": "CHNC"}


def _label(run: RunResult, defaults: dict[str, str]) -> str:
    """Name a configuration by what differs from the defaults."""
    config = dict(run.config)
    parts = [f"{config.get('players')} players"]
    parts += [f"{a}={o}" for a, o in sorted(config.get("rulings", {}).items())
              if defaults.get(a) != o]
    parts += list(config.get("variants", []))
    parts += [f"{k}={v}" for k, v in sorted(config.get("parameters", {}).items())]
    return ", ".join(parts)


def _matrix(report: Report) -> list[str]:
    """Return the configuration-by-check matrix (more than one configuration only)."""
    if len(report.runs) < 2:
        return []
    from rulespec.spec.errors import RulespecError
    from rulespec.spec.registry import get_spec

    try:
        defaults = get_spec(report.game).default_rulings()
    except RulespecError:  # a report of a game no longer registered still renders
        defaults = {}
    labels = [_label(r, defaults) for r in report.runs]
    width = min(max(len(x) for x in labels), 60)
    out = ["", "configuration by check (FAIL failed, part: passed until a failure stopped play):",
           ("  " + " " * width + " " + " ".join(f"{h:4}" for h in _SHORT.values())).rstrip()]
    for run, label in zip(report.runs, labels, strict=True):
        failed = {f.check for f in run.failures}
        cells = ["skip" if run.skipped is not None else "FAIL" if cid in failed
                 else "part" if failed else "ok" for cid in _SHORT]
        out.append((f"  {label[:width]:{width}} " + " ".join(f"{c:4}" for c in cells)).rstrip())
    return out


def _version_lines(report: Report) -> list[str]:
    """Say which release the engine was checked as, when it is not today's spec."""
    view = report.checked_as
    if view is None or view.today:
        return []
    return ["", *view.header()]


def render_text(report: Report) -> str:
    """Return the report for people."""
    out = [f"rulespec conformance: {report.engine} against {report.game} "
           f"(spec {report.spec_version})"]
    out.extend(_version_lines(report))
    ex = report.examples
    if ex is not None:
        out.append("")
        out.append(f"rule examples: {ex.examples} run, {len(ex.failures)} failed"
                   + (f" (skipped: {ex.skipped})" if ex.skipped else "")
                   + (f"; {len(ex.newer)} left out as newer than the version checked "
                      f"({', '.join(ex.newer)})" if ex.newer else ""))
        for f in ex.failures:
            out.extend("  " + line for line in _failure_text(f))
    for run in report.runs:
        out.append("")
        out.append(f"configuration: {_config_text(dict(run.config))}")
        if run.skipped:
            out.append(f"  skipped: {run.skipped}")
            continue
        status = "ok" if run.ok else "FAILED"
        level = _LEVELS.get(run.level, f" at level {run.level}")
        out.append(f"  {status}: {run.examples} games, {run.steps} steps checked in "
                   f"{run.seconds:.2f} s{level}")
        if run.perft:
            out.append(f"  perft to ply {len(run.perft)}: "
                       + ", ".join(f"{n:,}" for n in run.perft) + " nodes")
        for f in run.failures:
            out.extend("  " + line for line in _failure_text(f))
        if run.coverage is not None:
            out.extend(coverage_lines(run.coverage))
    if report.golden:
        out.append("")
        good = sum(1 for _, f in report.golden if f is None)
        out.append(f"golden traces: {good}/{len(report.golden)} replay exactly"
                   + (f"; {len(report.golden_newer)} left out as newer than the version "
                      "checked" if report.golden_newer else ""))
        for _, gf in report.golden:
            if gf is not None:
                out.extend("  " + line for line in _failure_text(gf))
    if report.golden_not_run:
        out.append("")
        out.append(f"golden traces: {'the rest ' if report.golden else ''}not run: "
                   f"{report.golden_not_run}")
    out.append("")
    out.append("checks:")
    for cid, status in report.check_status().items():
        out.append(f"  {status:8} {cid:17} {BY_ID[cid].title}")
    out.extend(_matrix(report))
    out.append("")
    checked = [r for r in report.runs if r.skipped is None]
    rulings = sorted({f"{k}={v}" for r in checked for k, v in r.config.get("rulings", {}).items()})
    if report.ok:
        out.append(f"CONFORMANT under rulings {', '.join(rulings) or '(none)'}" if checked
                   else "NOTHING CHECKED: every configuration was skipped")
        covered = [r.coverage for r in checked if r.coverage is not None]
        if covered:
            out.append(exercised_line(covered))
    else:
        out.append(f"NOT CONFORMANT: {len(report.failures)} failure(s) in "
                   f"{', '.join(report.failed_checks())}")
    return "\n".join(out) + "\n"


def render_json(report: Report) -> str:
    """Return the report as JSON (stable keys, for CI and tools)."""
    doc = {
        "format": "rulespec-conformance/1",
        "engine": report.engine,
        "game": report.game,
        "spec_version": report.spec_version,
        "ok": report.ok and any(r.skipped is None for r in report.runs),
        "checks": [{"id": c.id, "title": c.title, "status": report.check_status()[c.id]}
                   for c in CHECKS],
        "runs": [r.to_json() for r in report.runs],
        "rule_examples": report.examples.to_json() if report.examples is not None else None,
        "golden": [{"trace": name, "ok": f is None, "failure": f.to_json() if f else None}
                   for name, f in report.golden],
        "golden_not_run": report.golden_not_run,
        "failures": [f.to_json() for f in report.failures],
    }
    if report.checked_as is not None:
        doc["spec_checked"] = report.checked_as.to_json()
        doc["golden_newer"] = list(report.golden_newer)
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _case(suite: ET.Element, name: str, classname: str, run: RunResult | None,
          failure: Failure | None, skipped: str | None = None) -> None:
    case = ET.SubElement(suite, "testcase", name=name, classname=classname,
                         time=f"{run.seconds:.3f}" if run else "0")
    if skipped:
        ET.SubElement(case, "skipped", message=skipped)
    elif failure is not None:
        el = ET.SubElement(case, "failure", type=failure.check,
                           message=f"{failure.check} ({', '.join(failure.clauses)}): "
                                   f"{failure.message}"[:1000])
        el.text = "\n".join(_failure_text(failure))


def render_junit(report: Report) -> str:
    """Return the report as JUnit XML: one test case per configuration and check."""
    suites = ET.Element("testsuites", name=f"rulespec conformance {report.game}")
    suite = ET.SubElement(suites, "testsuite", name=f"{report.engine} vs {report.game}")
    cases = failures = skipped = 0
    for run in report.runs:
        classname = f"{report.game}.{_config_text(dict(run.config))}"
        failed = {f.check: f for f in run.failures}
        for check in CHECKS:
            if check.id in ("GOLDEN", "EXAMPLE"):
                continue
            cases += 1
            fail = failed.get(check.id)
            failures += fail is not None
            skipped += run.skipped is not None
            _case(suite, check.id, classname, run, fail, run.skipped)
    if report.examples is not None:
        ex = report.examples
        listed: list[Failure | None] = list(ex.failures) or [None]
        for fail in listed:
            cases += 1
            failures += fail is not None
            skipped += ex.skipped is not None
            name = f"EXAMPLE {fail.subject}" if fail is not None else "EXAMPLE"
            _case(suite, name, f"{report.game}.examples", ex, fail, ex.skipped)
    for name, fail in report.golden:
        cases += 1
        failures += fail is not None
        _case(suite, f"GOLDEN {name}", f"{report.game}.golden", None, fail)
    if report.golden_not_run:
        cases += 1
        skipped += 1
        _case(suite, "GOLDEN", f"{report.game}.golden", None, None, report.golden_not_run)
    _coverage_junit(suite, report)
    suite.set("tests", str(cases))
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


def _coverage_junit(suite: ET.Element, report: Report) -> None:
    """Put each configuration's coverage in the suite's properties and system-out."""
    runs = [r for r in report.runs if r.coverage is not None]
    if not runs:
        return
    props = ET.Element("properties")
    lines: list[str] = []
    for run in runs:
        label = _config_text(dict(run.config))
        for name, (covered, total, _) in run.coverage.parts().items():
            ET.SubElement(props, "property", name=f"coverage {name} [{label}]",
                          value=f"{covered}/{total}")
        lines.append(f"configuration: {label}")
        lines.extend(coverage_lines(run.coverage))
    suite.insert(0, props)
    out = ET.SubElement(suite, "system-out")
    out.text = "\n".join([*lines, exercised_line([r.coverage for r in runs])])


RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit}


def render(report: Report, fmt: str) -> str:
    """Render ``report`` as ``text``, ``json`` or ``junit``."""
    return RENDERERS[fmt](report)
