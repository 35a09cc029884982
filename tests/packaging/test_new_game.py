"""`rulespec new-game` from an installed rulespec: the skeleton, installed like any plugin, is
registered, validates, plays, passes the kit over the engine protocol, and its own tests, ruff
and mypy --strict pass as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.packaging.conftest import ChildEnv, make_child, run


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> ChildEnv:
    """A child venv with rulespec from the wheel and nothing else installed."""
    return make_child(tmp_path_factory.mktemp("new-game"), wheel)


@pytest.mark.integration
def test_a_new_game_works_out_of_the_box(fresh: ChildEnv, tmp_path: Path) -> None:
    """new-game, pip install -e, then validate, play, conform over the protocol, pytest."""
    rulespec = fresh.bin("rulespec")
    out = fresh.run(rulespec, "new-game", "take-away", cwd=tmp_path).stdout
    project = tmp_path / "rulespec-take-away"
    assert "wrote 13 files" in out and (project / "pyproject.toml").is_file(), out
    run([fresh.python, "-m", "pip", "--disable-pip-version-check", "-q", "install",
         "--no-deps", "--no-build-isolation", "--no-index", "-e", project], cwd=tmp_path,
        env=fresh.env)
    games = fresh.run(rulespec, "games", cwd=tmp_path).stdout
    assert "take-away" in games, games
    out = fresh.run(rulespec, "validate", cwd=tmp_path).stdout
    assert "take-away.yaml: ok (quotes checked against" in out, out
    assert "winner" in fresh.run(rulespec, "play", "take-away", "-q", cwd=tmp_path).stdout
    out = fresh.run(rulespec, "conform", "--game", "take-away", "--engine",
                    f"{rulespec} serve take-away", "--examples", "5", cwd=tmp_path).stdout
    assert "CONFORMANT under rulings" in out, out
    out = fresh.run(fresh.python, "-m", "pytest", "-q", cwd=project).stdout
    assert " passed" in out and "failed" not in out, out
    fresh.run(fresh.python, "-m", "ruff", "check", ".", cwd=project)
    fresh.run(fresh.python, "-m", "mypy", "--strict", "rulespec_take_away", "tests", cwd=project)
