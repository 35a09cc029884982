"""The conformance matrix: every engine of a list x each game it plays x its configurations.

``plan`` turns engine lists (``rulespec.conformance.matrix.engines_file``) into jobs: one conformance
report per engine, game and configuration, and one ruling profile per engine and game. Each job
is a picklable :class:`Job` that :func:`run_job` runs anywhere rulespec is installed (this
process, a local worker process, a Dask worker: ``rulespec.executors``) and that returns its
document and its failure traces as text, so the caller writes them where it wants. Every
document is stamped (``matrix``): when it was produced (UTC), by which rulespec, the spec version
of today and the one the engine was checked at, the engine's declared name and version, and the
kit's checks. ``stale`` says which reports of a folder no longer match the engine list, the
kit's checks or today's specs.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulespec.conformance.judging.checks import CHECK_IDS
from rulespec.conformance.matrix.engines_file import Configuration, EngineEntry, EngineList
from rulespec.data import installed_version
from rulespec.spec.errors import Problem, RulespecError

MATRIX_FORMAT = "rulespec-matrix/1"
REPORT_FORMAT = "rulespec-conformance/1"
PROFILE_FORMAT = "rulespec-ruling-profile/2"
#: The matrix's own file in its folder: what was run, what was skipped and why.
INDEX = "index.json"
#: The folder, in the matrix's folder, of the failure traces (one subfolder per report).
FAILURES = "failures"


class MatrixError(RulespecError):
    """A matrix that cannot be planned: a configuration names what its game does not have."""

    exit_code = 2


@dataclass(frozen=True)
class Job:
    """One engine, game and configuration to check (``report``), or one engine and game whose
    ruling profile to infer (``profile``); picklable, so any executor may run it."""

    kind: str
    #: The file stem of its document: ``<game>.<engine>[.<configuration>]`` (``.profile``).
    name: str
    game: str
    engine_id: str
    engine_name: str
    #: The engine's command (None: the reference, in the process that runs the job).
    argv: tuple[str, ...] | None
    cwd: str | None
    env: tuple[tuple[str, str], ...]
    timeout: float
    config: Configuration
    planted_bug: str | None
    examples: int
    budget: float | None
    seed: int | None
    #: The engine list the engine comes from, as the stamp names it.
    source: str = ""


@dataclass(frozen=True)
class Skipped:
    """Rows of the matrix not run here, and why: a game not installed, a program missing."""

    engine_id: str
    engine_name: str
    game: str
    why: str
    #: The files the rows would have written (so that committed ones are not called stale).
    names: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """Return the skipped rows as JSON (in the matrix's index)."""
        return {"engine": self.engine_id, "name": self.engine_name, "game": self.game,
                "why": self.why, "files": [f"{n}.json" for n in self.names]}


@dataclass
class Plan:
    """What ``rulespec matrix`` runs and what it leaves out."""

    jobs: list[Job] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    files: tuple[str, ...] = ()


@dataclass
class JobResult:
    """What a job produced: its stamped document and its failure traces (path in the matrix's
    folder -> text), or why the engine could not be checked."""

    job: Job
    document: dict[str, Any] | None
    traces: dict[str, str] = field(default_factory=dict)
    #: Why no document was produced, and the exit code that stands for it (3: the engine failed
    #: to run; 1: the kit stopped).
    error: str | None = None
    error_code: int = 0
    seconds: float = 0.0

    def expected(self) -> bool:
        """Return whether the engine did what the list expects: an honest engine passes every
        check (and follows an option of every record), a planted-bug engine fails one."""
        if self.document is None:
            return False
        if self.job.kind == "profile":
            clean = not self.document.get("bugs")
            return clean or self.job.planted_bug is not None
        ok = bool(self.document.get("ok"))
        return not ok if self.job.planted_bug is not None else ok

    def summary(self) -> str:
        """Return the outcome in a few words, for the progress lines."""
        if self.document is None:
            return f"not checked: {self.error}"
        if self.job.kind == "profile":
            return str(self.document.get("summary", "profiled"))
        failed = [c["id"] for c in self.document["checks"] if c["status"] == "failed"]
        said = f"fails {', '.join(failed)}" if failed else "passes every check run"
        if self.job.planted_bug is not None:
            said += " (planted bug" + (": found)" if failed else ": NOT found)")
        return said


def _utc_now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# -- planning ----------------------------------------------------------------------------------


def plan(engines: EngineList, *, games: Sequence[str] = (), examples: int = 10,
         budget: float | None = 60.0, seed: int | None = None) -> Plan:
    """Return the jobs of the engine list (only ``games`` when given) and the rows skipped."""
    from rulespec.spec.registry import game_ids

    installed = set(game_ids())
    out = Plan(files=engines.files)
    for entry in engines.engines:
        wanted = _games_of(entry, installed, engines.games)
        if games:
            wanted = [g for g in wanted if g in games]
        missing = [p for p in entry.needs if shutil.which(p) is None]
        for game in wanted:
            names = _names(entry, game)
            if missing:
                out.skipped.append(Skipped(entry.id, entry.name, game, (
                    f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not on the "
                    "PATH here; install it to check this engine"), names))
            elif game not in installed:
                how = engines.games.get(game)
                out.skipped.append(Skipped(entry.id, entry.name, game, (
                    f"the game {game!r} is not installed here" + (
                        f"; install it with: {how}" if how else
                        f" (installed: {', '.join(sorted(installed))})")), names))
            else:
                out.jobs += _jobs(entry, game, examples, budget, seed)
    return out


def _games_of(entry: EngineEntry, installed: set[str], covered: Mapping[str, str]) -> list[str]:
    if entry.games == "all":
        return sorted(installed | set(covered))
    return list(entry.games)


def _names(entry: EngineEntry, game: str) -> tuple[str, ...]:
    configs = entry.configurations_of(game)
    return (*(_report_name(game, entry.id, c) for c in configs),
            f"{game}.{entry.id}.profile")


def _report_name(game: str, engine: str, config: Configuration) -> str:
    return f"{game}.{engine}" + ("" if config.id == "default" else f".{config.id}")


def _jobs(entry: EngineEntry, game: str, examples: int, budget: float | None,
          seed: int | None) -> list[Job]:
    from rulespec.spec.registry import get_spec

    spec = get_spec(game)
    configs = entry.configurations_of(game)
    for config in configs:
        problems = _config_problems(spec, config)
        if problems:
            raise MatrixError(f"{entry.source}: engine {entry.id!r}, {game} configuration "
                              f"{config.id!r}: {'; '.join(problems)}")
    argv = entry.argv(game)
    profile = Job("profile", f"{game}.{entry.id}.profile", game, entry.id, entry.name,
                  None if argv is None else tuple(argv), entry.cwd,
                  tuple(sorted(entry.env.items())), entry.timeout, Configuration(),
                  entry.planted_bug, examples, budget, seed, entry.source)
    return [*(replace(profile, kind="report", name=_report_name(game, entry.id, c), config=c)
              for c in configs), profile]


def _config_problems(spec: Any, config: Configuration) -> list[str]:
    """Return what a configuration names that the game does not have (its ids, not whether
    the engine plays it: the kit says that, as a skipped configuration)."""
    out = []
    ambiguities = spec.ambiguities
    for amb, option in sorted(config.rulings.items()):
        if amb not in ambiguities:
            out.append(f"no ambiguity {amb!r} (known: {', '.join(sorted(ambiguities))})")
        elif option not in {str(o["id"]) for o in ambiguities[amb]["options"]}:
            options = ", ".join(str(o["id"]) for o in ambiguities[amb]["options"])
            out.append(f"{amb} has no option {option!r} (options: {options})")
    out += [f"no variant {v!r} (variants: {', '.join(sorted(spec.variants)) or 'none'})"
            for v in config.variants if v not in spec.variants]
    known = {str(p["id"]) for p in spec.section("parameters")}
    out += [f"no parameter {p!r}" for p in config.parameters if p not in known]
    out += [f"{n} players: {spec.game_id} is for {spec.min_players} to {spec.max_players}"
            for n in config.players if not spec.min_players <= n <= spec.max_players]
    return out


# -- one job, wherever it runs -------------------------------------------------------------------


#: Jobs run one at a time in a process: the threads of a Dask worker would gain nothing (the
#: kit holds the GIL), and CPython 3.11 can fail compiling in two threads at once.
_ONE_AT_A_TIME = threading.Lock()


def run_job(job: Job) -> JobResult:
    """Run one job in this process and return what it produced (never raises for what the
    engine does: an engine that cannot be started is the result's ``error``)."""
    with _ONE_AT_A_TIME:
        return _run_job(job)


def _run_job(job: Job) -> JobResult:
    from rulespec.conformance.engine.adapters import InProcessAdapter, SubprocessAdapter
    from rulespec.conformance.engine.processes import ending_engines_on_signals
    from rulespec.conformance.engine.protocol import EngineFailure
    from rulespec.exitcodes import EXIT_ENGINE

    started = time.perf_counter()
    adapter: Any = (InProcessAdapter(name="rulespec-reference") if job.argv is None else
                    SubprocessAdapter(list(job.argv), timeout=job.timeout, cwd=job.cwd,
                                      env=dict(job.env) or None))
    # In a worker process's main thread, a signal ends the job's engines with it; in a thread
    # (a Dask worker's), the adapter ends its own engine, and the others' are not this job's.
    ending = (ending_engines_on_signals() if threading.current_thread() is threading.main_thread()
              else contextlib.nullcontext())
    with tempfile.TemporaryDirectory(prefix="rulespec-matrix-") as scratch, ending:
        try:
            try:
                hello = adapter.hello()
            except EngineFailure as exc:
                return JobResult(job, None, error=f"the engine failed to run: {exc}",
                                 error_code=EXIT_ENGINE, seconds=time.perf_counter() - started)
            traces: dict[str, str] = {}
            try:
                if job.kind == "profile":
                    document = _profile(job, adapter)
                else:
                    document, traces = _report(job, adapter, Path(scratch))
            except (EngineFailure, RulespecError) as exc:
                return JobResult(job, None, error=f"the kit stopped: {exc}",
                                 error_code=getattr(exc, "exit_code", 1),
                                 seconds=time.perf_counter() - started)
        finally:
            adapter.close()
    document["matrix"] = stamp(job, hello, document)
    return JobResult(job, document, traces, seconds=time.perf_counter() - started)


def _report(job: Job, adapter: Any, scratch: Path) -> tuple[dict[str, Any], dict[str, str]]:
    from rulespec.conformance.play.runner import Options, check_engine
    from rulespec.conformance.reports.report import render

    folder = scratch / FAILURES
    config = job.config
    options = Options(examples=job.examples, seed=job.seed, trace_dir=folder, jobs=1,
                      budget=job.budget)
    report = check_engine(adapter, job.game, players=config.players or None,
                          rulings=dict(config.rulings), variants=config.variants,
                          options=options, engine_name=job.engine_name,
                          parameters=dict(config.parameters), declared=config.declared)
    document: dict[str, Any] = json.loads(render(report, "json"))
    prefix = f"{FAILURES}/{job.name}"
    traces = {f"{prefix}/{p.relative_to(folder).as_posix()}": p.read_text(encoding="utf-8")
              for p in sorted(folder.rglob("*.jsonl"))} if folder.is_dir() else {}
    _relocate(document, str(folder), prefix)
    return document, traces


def _relocate(value: Any, old: str, new: str) -> None:
    """Rewrite every ``trace`` path under ``old`` in a report to one under ``new`` (relative
    to the matrix's folder), in place."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "trace" and isinstance(item, str) and item.startswith(old):
                value[key] = new + item[len(old):].replace("\\", "/")
            else:
                _relocate(item, old, new)
    elif isinstance(value, list):
        for item in value:
            _relocate(item, old, new)


def _profile(job: Job, adapter: Any) -> dict[str, Any]:
    from rulespec.conformance.explain.profile import PLAY_GAMES, PLAY_STEPS, infer_ruling_profile
    from rulespec.conformance.reports.profile_report import to_json
    from rulespec.reference.registry import engine_class
    from rulespec.spec.registry import get_spec

    spec = get_spec(job.game)
    profile = infer_ruling_profile(adapter, spec, engine_class(spec), engine_name=job.engine_name,
                                   games=min(job.examples, PLAY_GAMES), max_steps=PLAY_STEPS,
                                   seed=job.seed or 0)
    return to_json(profile)


def stamp(job: Job, hello: Any, document: Mapping[str, Any]) -> dict[str, Any]:
    """Return a document's ``matrix`` stamp: when, by which rulespec, which engine (as its
    hello declares it), which spec versions, which checks, and how to run it again."""
    from rulespec.releases.store import releases_of
    from rulespec.spec.registry import get_spec, registered

    spec = get_spec(job.game)
    checked = document.get("spec_checked") or {}
    checked_at = str(checked.get("declared") or document.get("checked_as") or spec.version)
    entry = registered(job.game)
    return {
        "format": MATRIX_FORMAT,
        "produced": _utc_now(),
        "rulespec": installed_version(),
        "engine": {"id": job.engine_id, "name": job.engine_name,
                   "declared": {"name": hello.name, "version": hello.version},
                   "command": None if job.argv is None else _shown(job.argv),
                   "planted_bug": job.planted_bug, "list": job.source},
        "game": {"id": job.game, "reference": str(spec.data["game"].get("reference", "")),
                 "distribution": _distribution(entry.distribution)},
        "configuration": {"id": job.config.id, "label": job.config.label(),
                          "options": job.config.conform_options()},
        "spec": {"today": spec.version, "checked_at": checked_at,
                 "releases": [r.version for r in releases_of(spec)]},
        "kit": {"checks": list(CHECK_IDS), "examples": job.examples, "budget": job.budget,
                "seed": job.seed},
    }


def _shown(argv: Sequence[str]) -> str:
    """Return a command line as the stamp shows it: this interpreter's path as ``python``."""
    import shlex
    import sys

    return shlex.join("python" if a == sys.executable else a for a in argv)


def _distribution(name: str) -> str:
    """Return ``name version`` of an installed distribution (just the name when unknown)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{name} {version(name)}"
    except (PackageNotFoundError, ValueError):
        return name


# -- the folder ----------------------------------------------------------------------------------


def _documents(folder: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Yield every matrix document of a folder (reports, profiles, the index) with its data."""
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(doc, dict) and doc.get("format") in (REPORT_FORMAT, PROFILE_FORMAT,
                                                           MATRIX_FORMAT):
            yield path, doc


def write(out: Path, the_plan: Plan, results: Sequence[JobResult], *,
          produced: str | None = None, games: Sequence[str] = ()) -> list[Path]:
    """Replace the matrix in ``out`` with ``results``: the documents of an earlier matrix there
    and their failure traces go, other files stay. With ``games`` (``--game``), only those
    games' documents are replaced: the others, and their rows of the index, stay. Return the
    paths written."""
    out.mkdir(parents=True, exist_ok=True)
    earlier: dict[str, list[Any]] = {"jobs": [], "skipped": []}
    for path, doc in _documents(out):
        if games and doc.get("format") == MATRIX_FORMAT:
            earlier = {key: [row for row in doc.get(key) or [] if isinstance(row, dict)]
                       for key in ("jobs", "skipped")}
            continue
        if games and doc.get("game") not in games:
            continue
        path.unlink()
        stem = path.name.removesuffix(".json")
        shutil.rmtree(out / FAILURES / stem, ignore_errors=True)
    failures = out / FAILURES
    if failures.is_dir() and not any(failures.iterdir()):
        failures.rmdir()
    written = []
    for result in results:
        if result.document is None:
            continue
        path = out / f"{result.job.name}.json"
        path.write_text(json.dumps(result.document, indent=2, ensure_ascii=False) + "\n",
                        encoding="utf-8")
        written.append(path)
        for rel, text in result.traces.items():
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    index = out / INDEX
    doc = index_json(the_plan, results, produced=produced)
    if games:
        doc["jobs"] = _merged(earlier["jobs"], doc["jobs"], games)
        doc["skipped"] = _merged(earlier["skipped"], doc["skipped"], games)
    index.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return [*written, index]


def _merged(earlier: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]],
            games: Sequence[str]) -> list[Mapping[str, Any]]:
    """Return an earlier index's rows with those of ``games`` replaced by ``new``, in place (a
    game's new rows where its first earlier row was; a game new to the index at the end)."""
    out: list[Mapping[str, Any]] = []
    placed: set[str] = set()
    for row in earlier:
        game = str(row.get("game"))
        if game not in games:
            out.append(row)
        elif game not in placed:
            out += [r for r in new if r.get("game") == game]
            placed.add(game)
    return out + [r for r in new if r.get("game") not in placed]


def index_json(the_plan: Plan, results: Sequence[JobResult], *,
               produced: str | None = None) -> dict[str, Any]:
    """Return the matrix's index: when, by which rulespec, from which lists, every job with
    its outcome, and every row skipped with why."""
    return {
        "format": MATRIX_FORMAT,
        "produced": produced or _utc_now(),
        "rulespec": installed_version(),
        "lists": list(the_plan.files),
        "checks": list(CHECK_IDS),
        "jobs": [{"file": f"{r.job.name}.json", "kind": r.job.kind, "engine": r.job.engine_id,
                  "game": r.job.game, "configuration": r.job.config.id,
                  "outcome": r.summary(), "as_expected": r.expected(), "error": r.error}
                 for r in results],
        "skipped": [s.to_json() for s in the_plan.skipped],
    }


# -- freshness -------------------------------------------------------------------------------------


def stale(out: Path, the_plan: Plan) -> tuple[list[Problem], list[str]]:
    """Return why the matrix in ``out`` is not what the plan would produce today (problems),
    and what could not be checked here (notes): a report missing or not in the list, checked
    with other checks than the kit's, or at a spec version that is not today's."""
    from rulespec.spec.registry import get_spec

    problems: list[Problem] = []
    notes: list[str] = []
    found = {p.name.removesuffix(".json"): doc for p, doc in _documents(out)}

    def bad(name: str, message: str) -> None:
        problems.append(Problem(str(out / f"{name}.json"), 0, 0, "$", message))

    if INDEX.removesuffix(".json") not in found:
        problems.append(Problem(str(out), 0, 0, "$", f"no {INDEX}: this folder holds no "
                                                     "matrix made by rulespec matrix"))
    for job in the_plan.jobs:
        doc = found.get(job.name)
        if doc is None:
            bad(job.name, f"missing ({job.engine_name} on {job.game}, "
                          f"{job.config.label()})")
            continue
        _check_document(job.name, doc, bad, get_spec(job.game).version, notes)
    skipped = {n for s in the_plan.skipped for n in s.names}
    for name in sorted(skipped & set(found)):
        _check_document(name, found[name], bad, None, notes)
        notes.append(f"{name}.json: its game or engine is not available here, so only its "
                     "checks were compared, not its spec version")
    planned = {j.name for j in the_plan.jobs} | skipped | {INDEX.removesuffix(".json")}
    for name in sorted(set(found) - planned):
        bad(name, "not in the engine lists given (give the --engines file that lists its "
                  "engine, or delete the report)")
    return problems, notes


def _check_document(name: str, doc: Mapping[str, Any], bad: Any, today: str | None,
                    notes: list[str]) -> None:
    mark = doc.get("matrix")
    if not isinstance(mark, dict):
        bad(name, "has no matrix stamp: it was not produced by rulespec matrix")
        return
    if doc.get("format") == REPORT_FORMAT:
        checks = [str(c.get("id")) for c in doc.get("checks", [])]
        if any(c not in CHECK_IDS for c in checks):
            bad(name, f"was checked with {describe_checks(checks)}")
        elif checks != list(CHECK_IDS):
            # A check the kit gained since (OBSERVATION, after 0.3.0): the report reads as before,
            # that check "not run"; producing the matrix again runs it.
            notes.append(f"{name}.json: made before the kit had "
                         f"{', '.join(c for c in CHECK_IDS if c not in checks)} (shown as not "
                         "run; produce the matrix again to run it)")
    spec = mark.get("spec") or {}
    if today is not None and spec.get("today") != today:
        bad(name, f"was produced at spec {spec.get('today')}; the spec is {today} today")


def describe_checks(checks: Sequence[str]) -> str:
    """Say how a report's check list differs from the kit's."""
    added = [c for c in CHECK_IDS if c not in checks]
    gone = [c for c in checks if c not in CHECK_IDS]
    if not added and not gone:
        return "the kit's checks in another order"
    parts = []
    if added:
        parts.append(f"no {', '.join(added)} (the kit has it now)")
    if gone:
        parts.append(f"{', '.join(gone)}, which the kit no longer has")
    return "other checks than the kit's: " + "; ".join(parts)
