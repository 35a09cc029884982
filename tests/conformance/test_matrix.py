"""`rulespec matrix`: the engine lists, the plan, a job wherever it runs, the folder it writes,
and the freshness of the matrix committed for the docs (docs/conformance-reports/)."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulespec.conformance.judging.checks import CHECK_IDS
from rulespec.conformance.matrix.engines_file import (
    EngineList,
    EnginesFileError,
    builtin_path,
    load_engines,
)
from rulespec.conformance.matrix.run import (
    FAILURES,
    INDEX,
    Job,
    MatrixError,
    plan,
    run_job,
    stale,
    write,
)
from rulespec.spec.registry import game_ids, get_spec, registered_in_process
from tests.support import dask_cluster, dask_distributed
from tests.test_cli import run

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "tests" / "conformance" / "engines" / "planted.yaml"
COMMITTED = ROOT / "docs" / "conformance-reports"
PIG = ROOT / "examples" / "pig"


def _lists(*paths: Path) -> EngineList:
    out = EngineList((), {}, ())
    for path in paths:
        out = out + load_engines(path)
    return out


def _write_list(tmp_path: Path, text: str, name: str = "engines.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def pig(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pig registered in this process (from examples/pig), as the installed plugin would be."""
    monkeypatch.syspath_prepend(str(PIG))
    monkeypatch.delitem(sys.modules, "rulespec_pig", raising=False)
    from rulespec_pig import GAME

    with registered_in_process("pig", GAME):
        yield


# -- engine lists ----------------------------------------------------------------------------------


def test_the_builtin_list_has_the_reference_both_ways_node_and_pig() -> None:
    """The built-in list: the reference in-process and over the protocol on every game, the
    Node.js engine on Dado de Ouro at the defaults and with a d8, and Pig covered by name."""
    engines = load_engines(builtin_path())
    by_id = {e.id: e for e in engines.engines}
    assert by_id["reference"].command is None and by_id["reference"].games == "all"
    assert (by_id["reference-protocol"].argv("fool") or [])[-3:] == ["rulespec", "serve", "fool"]
    node = by_id["node"]
    assert node.needs == ("node",) and node.games == ("dado-de-ouro",)
    assert [c.id for c in node.configurations_of("dado-de-ouro")] == ["default", "d8"]
    assert dict(node.configurations_of("dado-de-ouro")[1].rulings) == {"DDO-AMB-01": "d8"}
    assert "examples/pig" in engines.games["pig"]
    assert engines.files == ("conformance/engines.yaml",)


def test_a_bad_list_says_every_problem_with_its_line(tmp_path: Path) -> None:
    """Every problem is reported at once, each with the file, line and path."""
    path = _write_list(tmp_path, (
        "format: rulespec-engines/1\n"
        "engines:\n"
        "  - id: mine\n"
        "    command: node mine.js\n"
        "    in_process: reference\n"
        "  - id: Bad Id\n"
        "  - id: other\n"
        "    command: 'node \"x'\n"
        "    colour: blue\n"
        "    configurations:\n"
        "      dado-de-ouro:\n"
        "        - {rulings: {DDO-AMB-01: d8}, declared: true}\n"
        "        - {plyers: 4}\n"))
    with pytest.raises(EnginesFileError) as info:
        load_engines(path)
    said = str(info.value)
    assert "engines.yaml:3:5: $.engines[0]: give either command" in said
    assert "$.engines[1].id: give an id of letters" in said
    assert "$.engines[2].command: cannot be split into words" in said
    assert "engines.yaml:9:13: $.engines[2].colour: unknown key 'colour'" in said
    assert "$.engines[2].configurations.dado-de-ouro[0].declared: declared is true" in said
    assert "unknown key 'plyers'" in said
    assert info.value.exit_code == 2


def test_two_lists_may_not_reuse_an_engine_id(tmp_path: Path) -> None:
    path = _write_list(tmp_path, "format: rulespec-engines/1\nengines:\n"
                                 "  - {id: node, command: node other.js}\n")
    with pytest.raises(EnginesFileError, match="engine id 'node' is also in"):
        _lists(builtin_path(), path)


# -- the plan ------------------------------------------------------------------------------------


def test_the_plan_covers_every_game_both_ways_and_says_what_it_skips(tmp_path: Path) -> None:
    """Every registered game gets the reference in-process and over the protocol (a report per
    configuration, a profile per engine); Pig, not installed, is skipped saying how to install
    it; an engine whose program is missing is skipped saying which."""
    extra = _write_list(tmp_path, "format: rulespec-engines/1\nengines:\n"
                                  "  - id: ghost\n    command: no-such-program-here x.js\n"
                                  "    needs: [no-such-program-here]\n"
                                  "    games: [ruby-rhino]\n")
    the_plan = plan(_lists(builtin_path(), extra), examples=1)
    names = {j.name for j in the_plan.jobs}
    for game in game_ids():
        for engine in ("reference", "reference-protocol"):
            assert {f"{game}.{engine}", f"{game}.{engine}.profile"} <= names
    assert {"dado-de-ouro.reference.d8", "dado-de-ouro.reference-protocol.d8"} <= names
    if shutil.which("node"):
        assert {"dado-de-ouro.node", "dado-de-ouro.node.d8", "dado-de-ouro.node.profile"} <= names
    skipped = {(s.engine_id, s.game): s for s in the_plan.skipped}
    if "pig" not in game_ids():
        assert "pip install -e examples/pig" in skipped[("reference", "pig")].why
        assert skipped[("reference", "pig")].names == ("pig.reference", "pig.reference.profile")
    ghost = skipped[("ghost", "ruby-rhino")]
    assert "no-such-program-here is not on the PATH" in ghost.why


def test_the_plan_refuses_a_configuration_its_game_does_not_have(tmp_path: Path) -> None:
    path = _write_list(tmp_path, "format: rulespec-engines/1\nengines:\n"
                                 "  - id: mine\n    in_process: reference\n"
                                 "    games: [dado-de-ouro]\n    configurations:\n"
                                 "      dado-de-ouro: [{rulings: {DDO-AMB-01: d7}}]\n")
    with pytest.raises(MatrixError, match="DDO-AMB-01 has no option 'd7'"):
        plan(load_engines(path))


def test_only_the_games_asked_for() -> None:
    the_plan = plan(load_engines(builtin_path()), games=["fool"])
    assert {j.game for j in the_plan.jobs} == {"fool"}
    assert all(s.game == "fool" for s in the_plan.skipped)


# -- a job ---------------------------------------------------------------------------------------


def _job(name: str, **changes: Any) -> Job:
    the_plan = plan(_lists(builtin_path(), PLANTED), games=["dado-de-ouro"], examples=1,
                    budget=20.0)
    job = next(j for j in the_plan.jobs if j.name == name)
    from dataclasses import replace

    return replace(job, **changes)


def test_a_job_returns_its_report_stamped() -> None:
    """The report of a job is stamped: when (UTC), by which rulespec, the engine as it declares
    itself, today's spec version and the one checked at, and the kit's checks."""
    result = run_job(_job("dado-de-ouro.reference.d8"))
    doc = result.document
    assert result.error is None and doc is not None and result.expected()
    stamp = doc["matrix"]
    assert stamp["format"] == "rulespec-matrix/1" and stamp["produced"].endswith("Z")
    assert stamp["engine"]["declared"]["name"] == "rulespec-reference"
    assert stamp["spec"]["today"] == get_spec("dado-de-ouro").version == stamp["spec"]["checked_at"]
    assert stamp["kit"]["checks"] == list(CHECK_IDS)
    assert [c["id"] for c in doc["checks"]] == list(CHECK_IDS)
    assert stamp["configuration"] == {"id": "d8", "label": "DDO-AMB-01=d8",
                                      "options": ["-r DDO-AMB-01=d8"]}
    assert {r["config"]["rulings"]["DDO-AMB-01"] for r in doc["runs"]} == {"d8"}


def test_a_planted_bug_fails_with_its_traces_in_the_matrix_folder() -> None:
    """A planted-bug engine over the protocol fails (as its list expects); every failure trace
    is returned as text under failures/<report>/, and the report points there."""
    result = run_job(_job("dado-de-ouro.bad-like-DDO-AMB-04"))
    doc = result.document
    assert doc is not None and not doc["ok"] and result.expected()
    assert "planted bug: found" in result.summary()
    paths = {f["trace"] for f in doc["failures"]}
    assert paths and paths <= set(result.traces)
    assert all(p.startswith(f"{FAILURES}/dado-de-ouro.bad-like-DDO-AMB-04/") for p in paths)
    diff_state = next(f for f in doc["failures"] if f["check"] == "DIFF-STATE")
    steps = [line for line in result.traces[diff_state["trace"]].splitlines()
             if '"type":"step"' in line.replace(" ", "")]
    assert len(steps) == len(diff_state["actions"]) > 0


def test_an_engine_that_cannot_start_is_the_results_error() -> None:
    result = run_job(_job("dado-de-ouro.reference-protocol", argv=("no-such-engine-here",)))
    assert result.document is None and result.error_code == 3
    assert "the engine failed to run" in str(result.error) and not result.expected()


# -- the folder ----------------------------------------------------------------------------------


def _small_matrix(tmp_path: Path) -> tuple[Path, Any]:
    listed = _write_list(tmp_path, "format: rulespec-engines/1\nengines:\n"
                                   "  - {id: ref, in_process: reference, games: [dado-de-ouro]}\n")
    the_plan = plan(load_engines(listed), examples=1, budget=20.0)
    results = [run_job(j) for j in the_plan.jobs]
    out = tmp_path / "matrix"
    out.mkdir()
    (out / "README.txt").write_text("mine\n", encoding="utf-8")
    (out / "old.json").write_text(json.dumps({"format": "rulespec-conformance/1"}),
                                  encoding="utf-8")
    write(out, the_plan, results)
    return out, the_plan


def test_the_folder_is_replaced_and_then_fresh(tmp_path: Path) -> None:
    """Writing replaces an earlier matrix's documents (not other files); the folder is then
    fresh, and each way it can go stale is named."""
    out, the_plan = _small_matrix(tmp_path)
    assert (out / "README.txt").is_file() and not (out / "old.json").exists()
    assert sorted(p.name for p in out.glob("*.json")) == [
        "dado-de-ouro.ref.json", "dado-de-ouro.ref.profile.json", INDEX]
    index = json.loads((out / INDEX).read_text(encoding="utf-8"))
    assert index["checks"] == list(CHECK_IDS) and len(index["jobs"]) == 2
    assert stale(out, the_plan) == ([], [])

    report = out / "dado-de-ouro.ref.json"
    doc = json.loads(report.read_text(encoding="utf-8"))
    # A check the kit gained since the report was made is a note (the report shows it as not
    # run: a matrix of the last release keeps reading); one the kit does not know is a problem.
    doc["checks"] = [c for c in doc["checks"] if c["id"] != "OBSERVATION"]
    report.write_text(json.dumps(doc), encoding="utf-8")
    found, notes = stale(out, the_plan)
    assert found == [] and any("made before the kit had OBSERVATION" in n for n in notes)
    doc["checks"] = [*doc["checks"], {"id": "NO-SUCH-CHECK", "status": "passed"}]
    doc["matrix"]["spec"]["today"] = "0.0.1"
    report.write_text(json.dumps(doc), encoding="utf-8")
    (out / "dado-de-ouro.other.json").write_text(json.dumps(doc), encoding="utf-8")
    (out / "dado-de-ouro.ref.profile.json").unlink()
    problems = [f"{Path(p.file).name}: {p.message}" for p in stale(out, the_plan)[0]]
    assert "dado-de-ouro.ref.json: was checked with other checks than the kit's: no OBSERVATION " \
           "(the kit has it now); NO-SUCH-CHECK, which the kit no longer has" in problems
    today = get_spec("dado-de-ouro").version
    assert f"dado-de-ouro.ref.json: was produced at spec 0.0.1; the spec is {today} today" \
           in problems
    assert any(p.startswith("dado-de-ouro.ref.profile.json: missing") for p in problems)
    assert any(p.startswith("dado-de-ouro.other.json: not in the engine lists") for p in problems)


def test_a_matrix_of_some_games_keeps_the_other_games_reports(tmp_path: Path) -> None:
    """``--game`` replaces only that game's documents and index rows: before, a run for one
    game deleted every other game's reports from the folder."""
    out, the_plan = _small_matrix(tmp_path)
    doc = json.loads((out / "dado-de-ouro.ref.json").read_text(encoding="utf-8"))
    (out / "fool.ref.json").write_text(json.dumps({**doc, "game": "fool"}), encoding="utf-8")
    index = json.loads((out / INDEX).read_text(encoding="utf-8"))
    fool_row = {**index["jobs"][0], "file": "fool.ref.json", "game": "fool"}
    index["jobs"] = [fool_row, *index["jobs"]]
    (out / INDEX).write_text(json.dumps(index), encoding="utf-8")
    results = [run_job(j) for j in the_plan.jobs]
    write(out, the_plan, results, games=("dado-de-ouro",))
    assert (out / "fool.ref.json").is_file()
    rows = json.loads((out / INDEX).read_text(encoding="utf-8"))["jobs"]
    assert [r["file"] for r in rows] == ["fool.ref.json", "dado-de-ouro.ref.json",
                                         "dado-de-ouro.ref.profile.json"]
    write(out, the_plan, results)  # without --game, the whole matrix is replaced
    assert not (out / "fool.ref.json").exists()


def test_matrix_check_exits_1_and_says_what_to_run(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    code, _, err = run(capsys, "matrix", "--check", "--game", "fool", "--out",
                       str(tmp_path / "none"))
    assert code == 1 and "no index.json" in err and "missing" in err
    assert "produce it again with `rulespec matrix --game fool --out" in err


def test_matrix_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "matrix", "--no-builtin", "--list")
    assert code == 2 and "--no-builtin leaves no engine" in err
    code, _, err = run(capsys, "matrix", "--game", "chess", "--list")
    assert code == 2 and "unknown game 'chess'" in err
    bad = _write_list(tmp_path, "format: rulespec-engines/2\nengines: []\n")
    code, _, err = run(capsys, "matrix", "--engines", str(bad), "--list")
    assert code == 2 and "say format: rulespec-engines/1" in err


# -- the committed matrix --------------------------------------------------------------------------


def test_the_committed_matrix_is_fresh(pig: None) -> None:
    """docs/conformance-reports/ is what `rulespec matrix` makes today from the built-in list and
    the planted bugs: a report for every engine, game and configuration, with the kit's checks,
    at today's spec versions (Pig's too: it is registered here from examples/pig). Produce it
    again with the command in docs/implementers/conformance.md when this fails."""
    the_plan = plan(_lists(builtin_path(), PLANTED))
    problems, _ = stale(COMMITTED, the_plan)
    assert not problems, "\n".join(f"{p.file}: {p.message}" for p in problems) + (
        "\nrun: rulespec matrix --engines tests/conformance/engines/planted.yaml "
        "--out docs/conformance-reports (with examples/pig installed)")


def test_the_committed_matrix_has_every_engine_of_the_repository() -> None:
    """Rows for the reference in-process and over the protocol on every game (Pig's included),
    for the Node.js engine and the planted bugs; nothing skipped when it was produced."""
    index = json.loads((COMMITTED / INDEX).read_text(encoding="utf-8"))
    files = {j["file"] for j in index["jobs"]}
    for game in sorted({*game_ids(), "pig"}):
        assert {f"{game}.reference.json", f"{game}.reference-protocol.json"} <= files
    assert {"dado-de-ouro.node.json", "dado-de-ouro.node.d8.json",
            "dado-de-ouro.bad-like-DDO-AMB-04.json"} <= files
    assert index["skipped"] == [] and all(j["as_expected"] for j in index["jobs"])
    assert index["lists"] == ["conformance/engines.yaml", "tests/conformance/engines/planted.yaml"]


# -- executors -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_local_processes_and_a_dask_cluster_give_the_same_outcomes(tmp_path: Path) -> None:
    """The same plan on two local processes and on a Dask LocalCluster: the same outcomes
    (Hypothesis is derandomized per configuration), the protocol engines included."""
    dask_distributed()  # skipped at once where the extra is missing, not after the local run
    from rulespec.conformance.matrix.cli import _run, _Shown
    from rulespec.executors import executor_for

    listed = _write_list(tmp_path, "format: rulespec-engines/1\nengines:\n"
                                   "  - {id: ref, in_process: reference, games: [dado-de-ouro]}\n"
                                   "  - {id: proto, command: '{rulespec} serve {game}',"
                                   " games: [dado-de-ouro]}\n")
    the_plan = plan(load_engines(listed), examples=1, budget=20.0)

    def outcomes(results: list[Any]) -> list[tuple[str, str, list[str]]]:
        return [(r.job.name, r.summary(), [c["status"] for c in r.document.get("checks", [])])
                for r in results]

    with executor_for(2) as pool:
        local = _run(the_plan.jobs, pool, _Shown(len(the_plan.jobs), quiet=True,
                                                  terminal=False))
    # Threads of one worker: the jobs' engines run side by side in one process, and each job
    # ends only its own.
    with dask_cluster() as client:
        dask = _run(the_plan.jobs, client, _Shown(len(the_plan.jobs), quiet=True,
                                                  terminal=False))
    assert outcomes(dask) == outcomes(local)
    assert all(r.document["matrix"]["kit"]["checks"] == list(CHECK_IDS) for r in dask)
