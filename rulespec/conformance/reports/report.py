"""Reporters: the kit's findings as text for people, JSON and JUnit XML for CI."""

from __future__ import annotations

import json
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from rulespec.conformance.judging.causes import Cause, report_causes, signatures, where
from rulespec.conformance.judging.checks import BY_ID, CHECKS, Failure, Report, RunResult
from rulespec.conformance.judging.divergence import DIVERGED
from rulespec.conformance.judging.scope import hello_additions, label
from rulespec.conformance.play.coverage import coverage_lines, exercised_line


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


def _labeller(game: str) -> Callable[[Mapping[str, Any]], str]:
    """Return the function that names a configuration of ``game`` short (``scope.label``)."""
    from rulespec.spec.errors import RulespecError
    from rulespec.spec.registry import get_spec

    try:
        spec = get_spec(game)
    except RulespecError:  # a report of a game no longer registered still renders
        return lambda config: f"{game} " + _config_text(dict(config))
    return lambda config: label(spec, config)


def _failure_text(f: Failure) -> list[str]:
    """Return one failure for people, whole (the pytest plugin and JUnit show it alone)."""
    where_ = _labeller(str(f.config.get("game", ""))) if f.config else None
    at = where_(f.config) if where_ else _config_text(dict(f.config))
    return [*_head(f), f"  in: {at}", *_body(f, f.matches)]


def _head(f: Failure) -> list[str]:
    head = f"FAIL {f.check} ({BY_ID[f.check].title})"
    if f.subject and f.check != "EXAMPLE":
        head += f" [{f.subject}]"
    return [head]


def _body(f: Failure, matches: Sequence[Mapping[str, str]],
          game_lines: int | None = None) -> list[str]:
    """Return what a failure says after where it happened: its clauses, message, rulings,
    minimal game (at most ``game_lines`` lines) and trace."""
    most = _GAME_LINES if game_lines is None else game_lines
    clauses = ", ".join(f.clauses[:8]) + (f" and {len(f.clauses) - 8} more"
                                          if len(f.clauses) > 8 else "")
    message, _, first = f.message.partition(f"; {DIVERGED}")
    lines = [*_wrapped(f"clauses: {clauses or '(none: a protocol or whole-game check)'}",
                       "  ", 1),
             *_wrapped(message, "  ", _MESSAGE_LINES - (1 if first else 0))]
    if first:
        lines += _wrapped(f"first difference {first}", "  ", 2)
    if f.also:
        lines.append(f"  also failing at that step: {', '.join(f.also)}")
    lines.extend(f"  {line}" for line in f.changed)
    lines.extend(_rulings_text(f, matches))
    if f.actions:
        shrunk = (f", shrunk from {f.shrunk_from}" if f.shrunk_from is not None
                  and f.shrunk_from != len(f.actions) else "")
        lines.append(f"  minimal game ({len(f.actions)} actions{shrunk}):")
        shown: list[tuple[Any, Any]] = list(f.actions)
        if len(shown) > most:
            hidden = len(shown) - most + 1
            shown = [*shown[:1], ("...", {"kind": f"{hidden} more"}), *shown[-(most - 2):]]
        for actor, action in shown:
            lines.append(f"    {actor}: {json.dumps(action, sort_keys=True)}")
    if f.trace:
        lines.append(f"  trace: {f.trace}  (rulespec replay runs it)")
    return lines


#: Lines of a failure's message and of its minimal game shown in the text report (the JSON
#: report has all of both).
_MESSAGE_LINES = 4
_GAME_LINES = 7
#: Lines of the minimal game of every cause after the first.
_LATER_GAME_LINES = 5
#: Width the text report wraps long lines at.
_WIDTH = 100


def _wrapped(text: str, indent: str, most: int) -> list[str]:
    """Return ``text`` wrapped at ``_WIDTH``, at most ``most`` lines (cut short with ...)."""
    lines = textwrap.wrap(text, _WIDTH - len(indent), break_long_words=True,
                          break_on_hyphens=False) or [""]
    if len(lines) > most:
        lines = [*lines[:most - 1], lines[most - 1][:_WIDTH - len(indent) - 4] + " ..."]
    return [indent + line for line in lines]


#: What each conformance level leaves out, as the run line says it.
_LEVELS = {"full": "", "observable": " at level observable (hidden state not compared)",
           "none": " at level none (states not compared, only results)"}


def _rulings_text(f: Failure, matches: Sequence[Mapping[str, str]]) -> list[str]:
    """Say which ruling options make the reference do what the engine did: only when one
    does (``matches``); a failure no ruling explains gets no rulings line."""
    from rulespec.conformance.judging.versions import ALSO_LATER

    note, _, later = (f.inference or "").partition(f"; {ALSO_LATER}")
    if note.startswith(ALSO_LATER):
        note, later = "", note[len(ALSO_LATER):]
    # A ruling of a release after the one the engine declares is not the engine's reading:
    # it is said apart, on a line of its own (``VersionView.explain``).
    also = [f"  rulings: {ALSO_LATER}{later}"] if later else []
    if not matches:
        return also
    from rulespec.conformance.explain.inference import describe_match

    configured = dict(f.config.get("rulings", {}))
    lines = [f"  rulings: the engine behaves like {describe_match(m, configured)}"
             for m in matches]
    flags = " ".join(f"--ruling {a}={o}" for a, o in sorted(matches[0].items()))
    lines.append(f"    declare it in hello and check with {flags}, or fix the engine "
                 f"({note})")
    lines.append("    its whole ruling profile, every record at every player count: rerun with --infer")
    return lines + [f"  {line}" for line in also]


def _version_lines(report: Report) -> list[str]:
    """Say which release the engine was checked as, when it is not today's spec."""
    view = report.checked_as
    if view is None or view.today:
        return []
    return ["", *view.header()]


def _counted(items: Sequence[Mapping[str, str]]) -> str:
    """Say how many items were left out, by reason: ``outside the scope asked (4 players): 5
    players (3), 6 players (2)``; reasons sharing a head (before ``: ``) are said once."""
    heads: dict[str, dict[str, int]] = {}
    for item in items:
        why = item["why"]
        head, _, tail = why.partition(": ") if why.startswith("outside the scope") else (
            "", "", why)
        tails = heads.setdefault(head, {})
        for need in item["needs"].split(", ") if item.get("needs") else [tail]:
            tails[need] = tails.get(need, 0) + 1
    out = []
    for head, tails in heads.items():
        ranked = sorted(tails.items(), key=lambda item: -item[1])
        listed = ", ".join(f"{t} ({n})" if n > 1 else t for t, n in ranked)
        out.append(f"{head}: {listed}" if head else listed)
    return "; ".join(out)


def _examples_lines(ex: RunResult) -> list[str]:
    """Return the rule examples' lines: how many ran of how many, each group left out with its
    reason, and the ``hello`` lines that would let the undeclared ones run (never cut short)."""
    total = ex.config.get("rule_examples")
    ran = f"{ex.examples} of {total}" if isinstance(total, int) else str(ex.examples)
    out = [f"rule examples: {ran} run, {len(ex.failures)} failed"
           + (f" (skipped: {ex.skipped})" if ex.skipped else "")
           + (f"; stopped: {ex.cut}" if ex.cut else "")]
    at_default = ex.config.get("at_printed_default") or []
    if at_default:
        names = sorted({n for item in at_default for n in str(item["needs"]).split(", ")})
        out += _wrapped(f"{len(at_default)} run at the value the spec prints for a parameter the "
                        f"engine does not declare, sent without the override "
                        f"({', '.join(names)})", "  ", 99)
    sent = ex.config.get("parameters_sent_undeclared")
    if isinstance(sent, Mapping):
        out += _wrapped(f"{len(sent['examples'])} sent their parameter overrides: {sent['why']}",
                        "  ", 99)
    if ex.outside_scope:
        out += _wrapped(f"{len(ex.outside_scope)} not run, " + _counted(ex.outside_scope),
                        "  ", 99)
    if ex.undeclared:
        out += _wrapped(f"{len(ex.undeclared)} not run, needing what the engine does not "
                        "declare: " + _counted(ex.undeclared), "  ", 99)
        game = ex.config.get("game", "GAME")
        additions = hello_additions(str(game), ex.undeclared)
        if additions:
            out.append(f"  to run them, declare in hello's games.{game} (each key's whole value; "
                       "\"...\" is what it declares now):")
            out += [f"    {line}" for line in additions]
    if ex.newer:
        out += _wrapped(f"{len(ex.newer)} left out as newer than the version checked "
                        f"({', '.join(ex.newer)})", "  ", 99)
    return out


def _run_lines(report: Report, name: Callable[[Mapping[str, Any]], str]) -> list[str]:
    """Return the configurations: one line each, or one line for configurations alike but for
    their player count (``fool p4-p8, defaults``)."""
    if not report.runs:
        return []
    rows = [(name(r.config), *_run_status(r)) for r in report.runs]
    groups: list[list[tuple[str, str, str, RunResult]]] = []
    for (text, status, played), run in zip(rows, report.runs, strict=True):
        head, _, rest = text.partition(", ")
        last = groups[-1][-1] if groups else None
        if (last is not None and last[1] == status and last[0].partition(", ")[2] == rest
                and head.rsplit(" p", 1)[0] == last[0].rsplit(" p", 1)[0] and not run.skipped):
            groups[-1].append((text, status, played, run))
        else:
            groups.append([(text, status, played, run)])
    labels = [_group_label(g) for g in groups]
    width = min(max(len(x) for x in labels), 48)
    out = ["configurations:"]
    for group, text in zip(groups, labels, strict=True):
        status, played = group[0][1], group[0][2]
        if len(group) > 1:
            runs = [g[3] for g in group]
            played = (f"{sum(r.examples for r in runs)} games, {sum(r.steps for r in runs):,} "
                      f"steps in {sum(r.seconds for r in runs):.1f} s in all")
            status += " each"
        out += _wrapped(f"{text:{width}} {status}" + (f": {played}" if played else ""), "  ", 2)
    return out


def _group_label(group: Sequence[tuple[str, str, str, RunResult]]) -> str:
    if len(group) == 1:
        return group[0][0]
    head, _, rest = group[0][0].partition(", ")
    counts = [int(g[3].config.get("players", 0)) for g in group]
    span = (f"p{counts[0]}-p{counts[-1]}" if counts == list(range(counts[0], counts[-1] + 1))
            else ", ".join(f"p{n}" for n in counts))
    return f"{head.rsplit(' p', 1)[0]} {span}" + (f", {rest}" if rest else "")


def _run_status(run: RunResult) -> tuple[str, str]:
    """Return a configuration's status word(s) and what was played."""
    if run.skipped is not None:
        return f"skipped: {run.skipped}", ""
    status = (f"FAILED {', '.join(dict.fromkeys(f.check for f in run.failures))}"
              if run.failures else "ok" if run.steps or run.perft else "not run")
    played = (f"{_plural(run.examples, 'game')}, {run.steps:,} steps in {run.seconds:.1f} s"
              + _LEVELS.get(run.level, f" at level {run.level}"))
    if run.perft:
        played += f"; perft to ply {len(run.perft)}"
    if run.cut:
        status += f" (cut short: {run.cut})"
    return status, played


def _golden_lines(report: Report) -> list[str]:
    out: list[str] = []
    if report.golden:
        good = sum(1 for _, f in report.golden if f is None)
        out.append(f"golden traces: {good}/{len(report.golden)} replay exactly"
                   + (f"; {len(report.golden_newer)} left out as newer than the version "
                      "checked" if report.golden_newer else ""))
    if report.golden_skipped:
        if not report.golden:
            out.append("golden traces: none replayed")
        skipped = report.golden_skipped
        scoped = [g for g in skipped if g["why"].startswith("outside the scope")]
        if scoped:
            out += _wrapped(f"{len(scoped)} not replayed, " + _counted(scoped), "  ", 2)
        if len(scoped) < len(skipped):
            out += _wrapped(f"{len(skipped) - len(scoped)} not replayed, needing what the "
                            "engine does not declare: "
                            + _counted([g for g in skipped if g not in scoped]), "  ", 2)
    if report.golden_not_run:
        out.append(f"golden traces: {'the rest ' if report.golden else ''}not run: "
                   f"{report.golden_not_run}")
    return out


def _where_lines(cause: Cause) -> list[str]:
    """Say where a cause showed, by kind: rule examples, golden traces, configurations."""
    kinds: dict[str, list[str]] = {}
    for place, _ in cause.occurrences:
        for prefix, plural in (("rule example ", "rule examples"),
                               ("golden trace ", "golden traces")):
            if place.startswith(prefix):
                kinds.setdefault(plural, []).append(place[len(prefix):].removesuffix(".jsonl"))
                break
        else:
            kinds.setdefault("configurations", []).append(place.removesuffix(", defaults"))
    parts = []
    for kind, listed in kinds.items():
        names = list(dict.fromkeys(listed))
        sep = "; " if kind == "configurations" else ", "
        shown = sep.join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
        parts.append(f"{len(names)} {kind if len(names) > 1 else kind[:-1]} ({shown})")
    return _wrapped("where: " + "; ".join(parts), "  ", 3)


def cause_lines(n: int, cause: Cause, game_lines: int | None = None) -> list[str]:
    """Return one cause for people: its check, count, where it happened, and its most readable
    occurrence in full."""
    place, shown = cause.shown
    count = len(cause.occurrences)
    head = _head(shown)[0]
    others = [c for c in cause.checks if c != shown.check]
    if others:
        head += f", also as {', '.join(others)}"
    out = [f"[{n}] {head}" + (f": {count} failures" if count > 1 else "")]
    config = _in(shown)
    at = place if place == config else f"{place} ({config})"
    if count > 1:
        out += [*_where_lines(cause), *_wrapped(f"shown: {at}", "  ", 2)]
    else:
        out += _wrapped(f"in: {at}", "  ", 2)
    return out + _body(shown, cause.rulings(), game_lines)


def related_lines(n: int, cause: Cause, like: int, shared: Sequence[str]) -> list[str]:
    """Return a cause that shares a rule with cause ``like`` in short: most likely one bug."""
    place, shown = cause.shown
    count = len(cause.occurrences)
    head = _head(shown)[0] + (f": {count} failures" if count > 1 else "")
    about = ", ".join(shared[:3]) + (" ..." if len(shared) > 3 else "")
    out = [f"[{n}] {head}, likely the same cause as [{like}] (both about {about})"]
    out += _where_lines(cause) if count > 1 else _wrapped(f"in: {place}", "  ", 1)
    out += _wrapped(shown.message, "  ", 1)
    if shown.trace:
        out.append(f"  trace: {shown.trace}")
    return out


def _clauses_of(cause: Cause) -> set[str]:
    """Return the clauses a cause is about: its differing fields' (for a state that differs),
    else its failures' own."""
    out: set[str] = set()
    for f in cause.failures:
        if f.diff:
            out.update(str(c) for d in f.diff for c in d.get("clauses") or ())
        else:
            out.update(f.clauses)
    return out


def _in(f: Failure) -> str:
    return _labeller(str(f.config.get("game", "")))(f.config) if f.config else "no game"


def found_text(failure: Failure, *, fail_fast: bool = False) -> str:
    """Return a failure as it is printed when found, before the report."""
    seconds = "" if failure.found_after is None else f" after {failure.found_after:.1f} s"
    then = ("the run stops here (-x)" if fail_fast else
            "the run goes on; the report at the end lists every cause")
    cause = Cause("", [(where(failure, _in(failure)), failure)])
    return "\n".join([f"found{seconds} ({then}):", *cause_lines(1, cause)[:_FOUND_LINES]]) + "\n"


#: Most lines of a failure printed as it is found.
_FOUND_LINES = 24


class FoundStream:
    """Turn each confirmed failure into the text printed at once: one per cause."""

    def __init__(self, *, fail_fast: bool = False) -> None:
        self.fail_fast = fail_fast
        self.seen: set[str] = set()

    def __call__(self, failure: Failure) -> str | None:
        """Return the failure's text, or None when its cause was printed already."""
        keys = signatures(failure)
        printed = any(k in self.seen for k in keys)
        self.seen.update(keys)
        return None if printed else found_text(failure, fail_fast=self.fail_fast)


def _status_line(report: Report) -> list[str]:
    by: dict[str, list[str]] = {}
    for cid, status in report.check_status().items():
        by.setdefault(status, []).append(cid)
    parts = [f"{status} {', '.join(by[status])}" for status in ("failed", "passed", "not run")
             if status in by]
    if "partial" in by:
        parts.insert(1, f"{len(by['partial'])} more passed until a failure stopped play")
    return _wrapped("checks: " + "; ".join(parts), "", 3)


def _budget_lines(report: Report) -> list[str]:
    budget = report.budget or {}
    if not budget.get("seconds") and not budget.get("stopped"):
        return []
    head = (f"budget: {budget['seconds']:g} s, {budget.get('spent', 0):.1f} s spent"
            if budget.get("seconds") else f"{budget.get('spent', 0):.1f} s spent")
    if budget.get("stopped"):
        head += f"; {budget['stopped']}"
        if budget.get("left_out"):
            head += ", so not started: " + ", ".join(budget["left_out"][:4]) + (
                f" and {len(budget['left_out']) - 4} more" if len(budget["left_out"]) > 4
                else "")
    return _wrapped(head, "", 3)


def render_text(report: Report) -> str:
    """Return the report for people: what was run, then each cause of failure once."""
    name = _labeller(report.game)
    out = [f"rulespec conformance: {report.engine} against {report.game} "
           f"(spec {report.spec_version})"]
    out.extend(_version_lines(report))
    out.extend(_budget_lines(report))
    out.append("")
    if report.examples is not None:
        out.extend(_examples_lines(report.examples))
    out.extend(_run_lines(report, name))
    out.extend(_golden_lines(report))
    found = report_causes(report, name)
    if found:
        total = sum(len(c.occurrences) for c in found)
        out += ["", f"{_plural(len(found), 'cause')} of failure, {_plural(total, 'failure')} "
                "(each cause once; every failure in the JSON report):"]
        full: list[tuple[int, set[str]]] = []
        for n, cause in enumerate(found, 1):
            about = _clauses_of(cause)
            like = next(((k, sorted(about & theirs)) for k, theirs in full if about & theirs),
                        None)
            if like is None:
                full.append((n, about))
                out += ["", *cause_lines(n, cause, None if n == 1 else _LATER_GAME_LINES)]
            else:
                out += ["", *related_lines(n, cause, *like)]
    ok_runs = [r for r in report.runs if r.skipped is None and r.coverage is not None]
    if report.ok:
        for run in ok_runs:
            lines = coverage_lines(run.coverage, indent="")
            out += ["", f"{lines[0][:-1]} of {name(run.config)}:", *lines[1:]]
    out.append("")
    out.extend(_status_line(report))
    checked = [r for r in report.runs if r.skipped is None]
    if report.ok:
        out.append(f"CONFORMANT under rulings {_rulings_checked(report.game, checked)}"
                   if checked else "NOTHING CHECKED: every configuration was skipped")
        covered = [r.coverage for r in checked if r.coverage is not None]
        if covered:
            out.append(exercised_line(covered))
    else:
        out.append(f"NOT CONFORMANT: {_plural(len(found), 'cause')}, "
                   f"{_plural(len(report.failures), 'failure')} in "
                   f"{', '.join(report.failed_checks())}")
    return "\n".join(out) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _rulings_checked(game: str, runs: Sequence[RunResult]) -> str:
    """Name the rulings the runs were checked under: those that are not defaults, then the
    defaults in one word (the JSON report lists every one)."""
    from rulespec.spec.errors import RulespecError
    from rulespec.spec.registry import get_spec

    try:
        defaults = get_spec(game).default_rulings()
    except RulespecError:
        defaults = {}
    rulings = {(k, v) for r in runs for k, v in r.config.get("rulings", {}).items()}
    other = sorted(f"{k}={v}" for k, v in rulings if defaults.get(k) != v)
    if not rulings:
        return "(none)"
    return (", ".join(other) + " and the other defaults") if other else "all at their defaults"


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
    name = _labeller(report.game)
    runs: list[dict[str, Any]] = doc["runs"]  # type: ignore[assignment]
    for run, out in zip(report.runs, runs, strict=True):
        out["label"] = name(run.config)
    everything = report.failures
    doc["causes"] = [{"cause": c.key, "checks": c.checks, "count": len(c.occurrences),
                      "where": [place for place, _ in c.occurrences],
                      "failures": [_index(everything, f) for f in c.failures],
                      "shown": _index(everything, c.shown[1]),
                      "rulings": [dict(m) for m in c.rulings()]}
                     for c in report_causes(report, name)]
    doc["golden_skipped"] = list(report.golden_skipped)
    doc["budget"] = report.budget
    doc["scope"] = report.scope
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _index(failures: Sequence[Failure], failure: Failure) -> int:
    """Return the position of ``failure`` (the very object) in the report's ``failures``."""
    return next(i for i, f in enumerate(failures) if f is failure)


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
