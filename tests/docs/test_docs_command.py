"""`rulespec docs build`: the site of every registered game, plugins included, built from the
docs installed with rulespec (tests/packaging checks it from a wheel, without the repository)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulespec.cli import main
from rulespec.data import site_project
from rulespec.spec import registry as registry_module
from rulespec.spec.registry import RegisteredGame, Registry

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"


def _with_pig(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register Pig in this process beside the installed games, as its entry point would."""
    monkeypatch.syspath_prepend(str(PIG))
    monkeypatch.delitem(sys.modules, "rulespec_pig", raising=False)
    from rulespec_pig import GAME

    installed = registry_module.registry()
    games = {**installed.games, "pig": RegisteredGame("pig", GAME, "rulespec-pig")}
    monkeypatch.setattr(registry_module, "registry", lambda: Registry(games, {}))


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return int(info.value.code or 0), out, err


def test_the_site_sources_are_found() -> None:
    """An editable install builds from its checkout; a wheel from rulespec/data/site."""
    project = site_project()
    assert (project / "mkdocs.yml").is_file() and (project / "docs" / "hooks").is_dir()


@pytest.mark.integration
def test_docs_build_documents_a_plugin_game(capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    """A registered plugin game (Pig) gets its pages, rule examples and perft tables included,
    and its rows in the ambiguity register, from `rulespec docs build --site-dir DIR`."""
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.delenv("RULESPEC_DOCS_SPECS", raising=False)
    _with_pig(monkeypatch)
    site = tmp_path / "site"
    code, out, err = _run(capsys, "docs", "build", "--site-dir", str(site))
    assert code == 0, err
    assert f"into {site}" in out and "pig" in out
    pig = site / "games" / "pig"
    assert (pig / "index.html").is_file() and (pig / "perft" / "index.html").is_file()
    assert "PIG-EX-BUST" in (pig / "rules" / "index.html").read_text(encoding="utf-8")
    register = (site / "ambiguities" / "index.html").read_text(encoding="utf-8")
    assert "PIG-AMB-01" in register


def test_docs_build_fails_on_an_invalid_spec(capsys: pytest.CaptureFixture[str],
                                             caplog: pytest.LogCaptureFixture,
                                             monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    """A spec the site cannot document stops the build with exit 1; mkdocs' log says why."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: rulespec/1\ngame: {}\n", encoding="utf-8")
    monkeypatch.setenv("RULESPEC_DOCS_SPECS", str(bad))
    code, _, err = _run(capsys, "docs", "build", "--site-dir", str(tmp_path / "site"))
    assert code == 1 and "the docs site did not build" in err
    assert "a spec is invalid" in caplog.text and "bad.yaml:2:7" in caplog.text
