"""Reporters: the kit's findings as text for people, JSON and JUnit XML for CI."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from typing import Any

from rulespec.conformance.checks import BY_ID, CHECKS, Failure, Report, RunResult


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
    if f.actions:
        lines.append(f"  minimal game ({len(f.actions)} actions):")
        shown = list(f.actions)
        if len(shown) > 12:
            shown = [*shown[:4], ("...", {"kind": f"{len(shown) - 10} more"}), *shown[-6:]]
        for actor, action in shown:
            lines.append(f"    {actor}: {json.dumps(action, sort_keys=True)}")
    if f.trace:
        lines.append(f"  trace: {f.trace}  (run: rulespec replay {f.trace})")
    return lines


def render_text(report: Report) -> str:
    """Return the report for people."""
    out = [f"rulespec conformance: {report.engine} against {report.game} "
           f"(spec {report.spec_version})"]
    ex = report.examples
    if ex is not None:
        out.append("")
        out.append(f"rule examples: {ex.examples} run, {len(ex.failures)} failed"
                   + (f" (skipped: {ex.skipped})" if ex.skipped else ""))
        for f in ex.failures:
            out.extend("  " + line for line in _failure_text(f))
    for run in report.runs:
        out.append("")
        out.append(f"configuration: {_config_text(dict(run.config))}")
        if run.skipped:
            out.append(f"  skipped: {run.skipped}")
            continue
        status = "ok" if run.ok else "FAILED"
        out.append(f"  {status}: {run.examples} games, {run.steps} steps checked in "
                   f"{run.seconds:.2f} s")
        if run.perft:
            out.append(f"  perft to ply {len(run.perft)}: "
                       + ", ".join(f"{n:,}" for n in run.perft) + " nodes")
        for f in run.failures:
            out.extend("  " + line for line in _failure_text(f))
    if report.golden:
        out.append("")
        good = sum(1 for _, f in report.golden if f is None)
        out.append(f"golden traces: {good}/{len(report.golden)} replay exactly")
        for _, gf in report.golden:
            if gf is not None:
                out.extend("  " + line for line in _failure_text(gf))
    out.append("")
    out.append("checks:")
    for cid, status in report.check_status().items():
        out.append(f"  {status:8} {cid:17} {BY_ID[cid].title}")
    out.append("")
    checked = [r for r in report.runs if r.skipped is None]
    rulings = sorted({f"{k}={v}" for r in checked for k, v in r.config.get("rulings", {}).items()})
    if report.ok:
        out.append(f"CONFORMANT under rulings {', '.join(rulings) or '(none)'}" if checked
                   else "NOTHING CHECKED: every configuration was skipped")
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
        "failures": [f.to_json() for f in report.failures],
    }
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
    suite.set("tests", str(cases))
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, "unicode") + "\n"


RENDERERS = {"text": render_text, "json": render_json, "junit": render_junit}


def render(report: Report, fmt: str) -> str:
    """Render ``report`` as ``text``, ``json`` or ``junit``."""
    return RENDERERS[fmt](report)
