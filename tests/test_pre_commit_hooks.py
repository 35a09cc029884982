"""The pre-commit hooks rulespec ships (``.pre-commit-hooks.yaml``), run the way pre-commit runs
them: the manifest read by pre-commit's own loader, the files chosen by its classifier, the
entry and args split as its ``hook_cmd`` does, then run with the file names appended."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pre_commit.clientlib import load_manifest
from pre_commit.commands.run import Classifier
from pre_commit.hook import Hook
from pre_commit.lang_base import hook_cmd
from pre_commit.prefix import Prefix

from rulespec.spec.registry import registered

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
HOOK_IDS = ["rulespec-validate", "rulespec-validate-system"]
#: The hook that checks each staged spec's version bump against its previous release.
DIFF_HOOK = "rulespec-diff-check"
GAME = "ruby-rhino"


def _hooks() -> dict[str, Hook]:
    prefix = Prefix(str(ROOT))
    return {h["id"]: Hook.create(str(MANIFEST), prefix, h) for h in load_manifest(str(MANIFEST))}


def _spec_repository(root: Path) -> Path:
    """Lay out a spec repository: a good spec, a broken one, and files the hook must skip."""
    spec = registered(GAME).spec_path
    (root / "specs" / "schema").mkdir(parents=True)
    shutil.copy(spec, root / "specs" / f"{GAME}.yaml")
    text = spec.read_text(encoding="utf-8")
    broken = text.replace("  - id: RR-COMP-02\n", "  - id: RR-COMP-01\n", 1)
    assert broken != text
    (root / "specs" / "broken.yaml").write_text(broken, encoding="utf-8")
    (root / "specs" / "schema" / "spec.schema.json").write_text("{}", encoding="utf-8")
    (root / ".github").mkdir()
    (root / ".github" / "ci.yaml").write_text("on: push\n", encoding="utf-8")
    return root


def _run_hook(hook: Hook, repo: Path, only: list[str] | None = None) -> (
        tuple[list[str], subprocess.CompletedProcess[str]]):
    """Choose the hook's files as pre-commit does, then run its entry on them in ``repo``."""
    names = sorted(p.relative_to(repo).as_posix() for p in repo.rglob("*") if p.is_file())
    cwd = Path.cwd()
    os.chdir(repo)  # the classifier checks the files exist relative to the working directory
    try:
        chosen = list(Classifier.from_config(names, "", "^$").filenames_for_hook(hook))
    finally:
        os.chdir(cwd)
    files = [f for f in chosen if only is None or f in only]
    command = list(hook_cmd(hook.entry, hook.args))
    # language: python and system both run the installed console script.
    command[0] = str(Path(sys.executable).parent / command[0])
    proc = subprocess.run([*command, *files], cwd=repo, capture_output=True, text=True,
                          timeout=120, check=False)
    return chosen, proc


def test_the_manifest_loads_with_pre_commits_loader() -> None:
    """pre-commit accepts the manifest; every hook runs `rulespec validate` on file names."""
    hooks = _hooks()
    assert list(hooks) == [*HOOK_IDS, DIFF_HOOK]
    assert hooks[DIFF_HOOK].entry.startswith("rulespec diff --check --previous")
    assert hooks[DIFF_HOOK].pass_filenames and hooks[DIFF_HOOK].language == "python"
    for hook in (hooks[h] for h in HOOK_IDS):
        assert hook.entry == "rulespec validate" and hook.pass_filenames
        assert hook.types == ["yaml"]
    assert hooks["rulespec-validate"].language == "python"
    assert hooks[DIFF_HOOK].types == ["yaml"]
    # pre-commit 4.4 renamed the "system" language "unsupported" (and still reads "system").
    assert hooks["rulespec-validate-system"].language in {"system", "unsupported"}


@pytest.mark.parametrize("hook_id", HOOK_IDS)
def test_the_hook_passes_a_good_spec_and_fails_a_broken_one(hook_id: str, tmp_path: Path) -> None:
    """Only specs/*.yaml are passed; a good spec exits 0, a broken one 1 with file:line:col."""
    repo = _spec_repository(tmp_path)
    hook = _hooks()[hook_id]
    chosen, proc = _run_hook(hook, repo, only=[f"specs/{GAME}.yaml"])
    assert chosen == ["specs/broken.yaml", f"specs/{GAME}.yaml"]
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"specs/{GAME}.yaml: ok" in proc.stdout
    _, proc = _run_hook(hook, repo)
    assert proc.returncode == 1
    assert "specs/broken.yaml:" in proc.stdout and "'RR-COMP-01' is already used" in proc.stdout


def test_the_hook_checks_quotes_with_sources_in_args(tmp_path: Path, rulebooks: Path) -> None:
    """With `args: [--sources, rulebooks]` the hook checks every quote and the sha256."""
    repo = _spec_repository(tmp_path)
    shutil.copytree(rulebooks, repo / "rulebooks")
    hook = _hooks()["rulespec-validate"]._replace(args=["--sources", "rulebooks"])
    _, proc = _run_hook(hook, repo, only=[f"specs/{GAME}.yaml"])
    assert proc.returncode == 0 and "quotes checked against rulebooks" in proc.stdout
    (repo / "specs" / f"{GAME}.yaml").write_text(
        registered(GAME).spec_path.read_text(encoding="utf-8").replace(
            "- 20 fake gold coins", "- 21 fake gold coins"), encoding="utf-8")
    _, proc = _run_hook(hook, repo, only=[f"specs/{GAME}.yaml"])
    assert proc.returncode == 1 and "quote not found verbatim" in proc.stdout


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("RULESPEC_TRY_REPO"),
                    reason="installs rulespec into a pre-commit environment (minutes, needs the "
                           "package index); set RULESPEC_TRY_REPO=1 to run")
def test_the_diff_hook_passes_a_released_spec_and_fails_an_unbumped_change(
        tmp_path: Path) -> None:
    """rulespec-diff-check passes the staged spec as released, and fails it (exit 1) once a
    change that needs a MINOR bump (a new variant) is staged without one."""
    repo = _spec_repository(tmp_path)
    hook = _hooks()[DIFF_HOOK]
    chosen, proc = _run_hook(hook, repo, only=[f"specs/{GAME}.yaml"])
    assert f"specs/{GAME}.yaml" in chosen
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no change (ok)" in proc.stdout
    spec = repo / "specs" / f"{GAME}.yaml"
    text = spec.read_text(encoding="utf-8")
    marker = "variants:\n"
    assert text.count(marker) == 1
    spec.write_text(text.replace(marker, marker + (
        "  - id: house-rule\n    name: A house rule\n    description: Nothing yet.\n"
        "    settable: [target_score]\n    clauses: [RR-OBJ-01]\n"), 1), encoding="utf-8")
    _, proc = _run_hook(hook, repo, only=[f"specs/{GAME}.yaml"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "VARIANT_ADDED" in proc.stdout and "too small" in proc.stdout


@pytest.mark.integration
def test_pre_commit_try_repo(tmp_path: Path) -> None:
    """`pre-commit try-repo` installs this checkout as a hook repository and runs the hook."""
    repo = _spec_repository(tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    pre_commit = Path(sys.executable).parent / "pre-commit"
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}

    def try_repo(spec: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(pre_commit), "try-repo", str(ROOT), "rulespec-validate",
                               "--files", spec], cwd=repo, env=env, capture_output=True,
                              text=True, timeout=900, check=False)

    proc = try_repo(f"specs/{GAME}.yaml")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    proc = try_repo("specs/broken.yaml")
    assert proc.returncode == 1 and "is already used" in proc.stdout, proc.stdout
