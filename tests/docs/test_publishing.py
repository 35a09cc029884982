"""Where the site is published and where its code is: a build to read locally points at no
server, a deploy build refuses to start without public addresses (docs/about/publishing.md),
and the home page and Getting started say where the code is and how to install it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulespec import docsgen
from rulespec.cli import main
from rulespec.docsgen import publish
from rulespec.spec import Spec, load_spec

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
EXAMPLE = HERE / "example" / "toy-dice.yaml"


@pytest.fixture(scope="module")
def example() -> Spec:
    return load_spec(EXAMPLE)


def test_the_home_page_and_getting_started_say_where_the_code_is(example: Spec) -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    for page in ("index.md", "getting-started.md"):
        text = (ROOT / "docs" / page).read_text("utf-8")
        assert publish.MARKER_REPOSITORY in text, page
        filled = docsgen.fill_markers(text, specs=[example], readme=readme,
                                      repo_url="https://github.com/OWNER/rulespec/")
        assert "[https://github.com/OWNER/rulespec](https://github.com/OWNER/rulespec)" in filled
        assert "git clone https://github.com/OWNER/rulespec rulespec" in filled
        assert "pip install 'rulespec[docs] @ git+https://github.com/OWNER/rulespec'" in filled
        local = docsgen.fill_markers(text, specs=[example], readme=readme)
        assert "git clone REPOSITORY" in local and "RULESPEC_REPO_URL" in local


@pytest.mark.parametrize(("command", "env", "deploy"), [
    ("build", {}, False), ("serve", {}, False), ("gh-deploy", {}, True),
    ("build", {"RULESPEC_DEPLOY": "1"}, True), ("build", {"RULESPEC_DEPLOY": "0"}, False),
    (None, {"RULESPEC_DEPLOY": "yes"}, True)])
def test_what_is_a_deploy_build(command: str | None, env: dict[str, str], deploy: bool) -> None:
    assert publish.is_deploy(command, env) is deploy


def test_a_deploy_build_needs_public_addresses() -> None:
    assert publish.deploy_problems(site_url="https://example.org/rulespec/",
                                   repo_url="https://github.com/o/rulespec") == []
    problems = publish.deploy_problems(site_url="http://127.0.0.1:8000/", repo_url=None)
    assert len(problems) == 2 and "no reader can reach" in problems[0] and "not set" in problems[1]
    for local in ("http://localhost:8000/", "http://[::1]/", "file:///tmp/site/"):
        assert publish.address_problem("site_url", local), local


def _mkdocs_build(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    run_env = {k: v for k, v in os.environ.items()
               if k not in ("RULESPEC_SITE_URL", "RULESPEC_REPO_URL", "RULESPEC_DEPLOY")}
    run_env.update(env, NO_MKDOCS_2_WARNING="1")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f",
                           str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
                          cwd=ROOT, env=run_env, capture_output=True, text=True, timeout=300,
                          check=False)


def test_mkdocs_refuses_a_deploy_build_without_its_addresses(tmp_path: Path) -> None:
    """RULESPEC_DEPLOY=1 (as gh-deploy) stops before anything is built, saying what to set."""
    done = _mkdocs_build(tmp_path, RULESPEC_DEPLOY="1",
                         RULESPEC_SITE_URL="http://127.0.0.1:8000/")
    assert done.returncode != 0
    assert "a deploy build needs the site's public address" in done.stderr
    assert "RULESPEC_SITE_URL=https://" in done.stderr and "RULESPEC_REPO_URL" in done.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_rulespec_docs_build_deploy_needs_site_url(capsys: pytest.CaptureFixture[str],
                                                   caplog: pytest.LogCaptureFixture,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    for name in ("RULESPEC_SITE_URL", "RULESPEC_REPO_URL", "RULESPEC_DEPLOY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit) as info:
        main(["docs", "build", "--deploy", "--repo-url", "https://github.com/o/rulespec",
              "--site-dir", str(tmp_path / "site")])
    _, err = capsys.readouterr()
    assert info.value.code == 1 and "the docs site did not build" in err
    assert "site_url (RULESPEC_SITE_URL) is not set" in err + caplog.text
    assert "RULESPEC_DEPLOY" not in os.environ, "the flag does not leak out of the build"
