"""`rulespec validate`, `golden`, `examples` and `perft` use the files and folders a game's
package registers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rulespec.conformance import InProcessAdapter
from rulespec.conformance.play import perft_tables
from rulespec.conformance.play.examples_check import run_rule_examples
from rulespec.examples.model import examples_path
from rulespec.spec import registry as registry_module
from rulespec.spec.registry import (
    GamePackage,
    RegisteredGame,
    Registry,
    get_spec,
    perft_path,
    registered,
)
from tests.test_cli import SPECS, run

TOY = SPECS / "valid" / "toy.yaml"
TOY_SOURCES = SPECS / "sources"


def _register(monkeypatch: pytest.MonkeyPatch, game: str, package: GamePackage) -> None:
    """Make the registry hold exactly one game, as if a distribution registered it."""
    fake = Registry({game: RegisteredGame(game, package, "rulespec-test-plugin")}, {})
    monkeypatch.setattr(registry_module, "registry", lambda: fake)


def test_validate_uses_the_registered_rulebook_folder(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --sources, a registered spec's quotes are checked against its package's folder,
    and the output names that folder."""
    _register(monkeypatch, "toy-coin", GamePackage(spec=TOY, rulebooks=TOY_SOURCES))
    _, out, _ = run(capsys, "validate", str(TOY))
    assert f"quotes checked against {TOY_SOURCES}" in out
    _, out, _ = run(capsys, "validate", str(TOY), "--format", "json")
    assert json.loads(out)[0]["sources"] == str(TOY_SOURCES)


def test_validate_reports_a_quote_missing_from_the_registered_folder(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """The registered folder is really used: a changed rules text fails the sha256 check."""
    (tmp_path / "toy.txt").write_text("some other text\n", encoding="utf-8")
    _register(monkeypatch, "toy-coin", GamePackage(spec=TOY, rulebooks=tmp_path))
    code, out, _ = run(capsys, "validate", str(TOY))
    assert code == 1 and "sha256 of" in out and "quote not found verbatim" in out


def test_validate_sources_option_wins_over_the_registered_folder(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """--sources DIR keeps working as before and takes precedence."""
    _register(monkeypatch, "toy-coin", GamePackage(spec=TOY, rulebooks=tmp_path))
    _, out, _ = run(capsys, "validate", str(TOY), "--sources", str(TOY_SOURCES))
    assert f"quotes checked against {TOY_SOURCES}" in out and "sha256" not in out


def test_validate_says_when_no_quote_was_checked(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A spec with no registered rulebook folder and no --sources says its quotes went unchecked."""
    _register(monkeypatch, "toy-coin", GamePackage(spec=TOY))
    _, out, _ = run(capsys, "validate", str(TOY))
    assert "quotes not checked" in out and "--sources" in out


def test_golden_writes_into_the_registered_folder_and_checks_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """`rulespec golden GAME` writes the traces into the game's folder; --check diffs them."""
    game = "ruby-rhino"
    spec = registered(game).spec_path
    _register(monkeypatch, game, GamePackage(spec=spec, traces=tmp_path))
    code, out, _ = run(capsys, "golden", game)
    written = sorted(tmp_path.glob(f"{game}.*.jsonl"))
    assert code == 0 and written and all(f"wrote {p}" in out for p in written)
    code, out, _ = run(capsys, "golden", game, "--check")
    assert code == 0 and "0 difference(s)" in out
    written[0].write_text(written[0].read_text(encoding="utf-8") + "\n", encoding="utf-8")
    (tmp_path / f"{game}.stale.jsonl").write_text("{}\n", encoding="utf-8")
    code, out, _ = run(capsys, "golden", game, "--check")
    assert code == 1 and "differs" in out and f"{game}.stale.jsonl: stale" in out


def test_golden_needs_a_registered_trace_folder(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that registers no trace folder is a usage error that says how to fix it."""
    game = "ruby-rhino"
    _register(monkeypatch, game, GamePackage(spec=registered(game).spec_path))
    code, _, err = run(capsys, "golden", game)
    assert code == 2 and "traces=" in err


def test_golden_unknown_game_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown game id exits 2 and lists the known games."""
    code, _, err = run(capsys, "golden", "nosuch")
    assert code == 2 and "unknown game 'nosuch'" in err


# -- rule examples and perft tables: the files a package registers ------------------------------


def test_examples_reads_the_file_the_package_registers(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    """`rulespec examples GAME` (and every other reader) runs the examples file the game's
    GamePackage names as ``examples``, wherever it is."""
    game = "dado-de-ouro"
    entry = registered(game)
    data = yaml.safe_load(entry.package.examples_file().read_text(encoding="utf-8"))
    data["examples"] = data["examples"][:2]
    mine = tmp_path / "mine.yaml"
    mine.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    _register(monkeypatch, game, GamePackage(spec=entry.spec_path, examples=mine))
    assert examples_path(get_spec(game)) == mine
    code, out, _ = run(capsys, "examples", game)
    assert code == 0 and f"{game}: 2/2 examples hold" in out, out


def test_examples_says_where_the_missing_examples_go(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A game without an examples file is not '0/0 examples hold': the command says there are
    none and names the file they go in (by default examples/<spec file name> beside the spec),
    and exits 1; the kit's EXAMPLE check says the same instead of blaming the engine."""
    _register(monkeypatch, "toy-coin", GamePackage(spec=TOY))
    expected = TOY.parent / "examples" / TOY.name
    code, out, _ = run(capsys, "examples", "toy-coin")
    assert code == 1 and "0/0" not in out
    assert f"toy-coin: no rule examples yet; write them in {expected}" in out, out
    code, out, _ = run(capsys, "examples", "toy-coin", "--format", "json")
    assert json.loads(out)[0]["written"] is False


def test_the_kit_says_a_game_has_no_rule_examples(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """Check EXAMPLE is skipped with the reason and the file, not as a mismatch of rulings."""
    game = "ruby-rhino"
    nowhere = tmp_path / "none.yaml"
    _register(monkeypatch, game, GamePackage(spec=registered(game).spec_path, examples=nowhere))
    result = run_rule_examples(InProcessAdapter(), get_spec(game))
    assert result.skipped == f"the game has no rule examples (none in {nowhere})"


def test_perft_tables_go_to_the_file_the_package_registers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """``perft=`` names the perft tables file: --write-tables writes it, --check-tables and the
    docs read it; without it the file is <game>.perft.json in the trace folder."""
    game = "ruby-rhino"
    spec = registered(game).spec_path
    _register(monkeypatch, game, GamePackage(spec=spec, traces=tmp_path / "traces"))
    assert perft_path(game) == tmp_path / "traces" / f"{game}.perft.json"
    tables = tmp_path / "counts" / "rhino-perft.json"
    _register(monkeypatch, game, GamePackage(spec=spec, perft=tables))
    assert perft_path(game) == tables and perft_tables.load(game) is None
    code, out, _ = run(capsys, "perft", game, "--write-tables")
    assert code == 0 and f"wrote {tables}" in out and tables.is_file()
    code, out, _ = run(capsys, "perft", game, "--check-tables")
    assert code == 0 and "0 difference(s)" in out
    assert perft_tables.load(game) == json.loads(tables.read_text(encoding="utf-8"))
