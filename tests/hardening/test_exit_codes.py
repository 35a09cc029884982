"""One exit-code contract for every command: 0 ok, 1 a check failed, 2 usage or input, 3 engine.

Every command of the ``rulespec`` group is run here (in-process) for each code it can give; the
corpus (``corpus.py``) adds the many ways to get a 2. The contract is stated in the CLI's help
and in docs/reference/limits.md.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import click
import pytest

from rulespec.cli import cli, main
from rulespec.exitcodes import CONTRACT, EXIT_ENGINE, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from rulespec.spec.registry import spec_paths
from tests.hardening.corpus import CASES, ENGINE, GOLDEN

#: An engine that declares one parameter of Ruby Rhino (total_coins), not target_score.
STRICT = (f"{sys.executable} "
          f"{Path(__file__).parents[1] / 'conformance' / 'engines' / 'strict.py'} ruby-rhino")

HELLO = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "hello",
                    "params": {"protocol": "rulespec-engine/1"}})

#: (command, arguments, exit code): every command with every code it can give.
RUNS: list[tuple[str, list[str], int]] = [
    ("games", ["games"], EXIT_OK),
    ("games", ["games", "--format", "yaml"], EXIT_USAGE),
    ("validate", ["validate", str(spec_paths()[0])], EXIT_OK),
    ("validate", ["validate", "bad.yaml"], EXIT_FAILED),
    ("validate", ["validate", "missing.yaml"], EXIT_USAGE),
    ("play", ["play", "fool", "-q"], EXIT_OK),
    ("play", ["play", "fool", "-q", "--max-steps", "3"], EXIT_FAILED),
    ("play", ["play", "fool", "--players", "99"], EXIT_USAGE),
    ("replay", ["replay", str(GOLDEN)], EXIT_OK),
    ("replay", ["replay", "wrong.jsonl"], EXIT_FAILED),
    ("replay", ["replay", "bad.yaml"], EXIT_USAGE),
    ("ambiguities", ["ambiguities", "fool"], EXIT_OK),
    ("ambiguities", ["ambiguities", "chess"], EXIT_USAGE),
    ("bench", ["bench", "ruby-rhino", "--seconds", "0.05"], EXIT_OK),
    ("bench", ["bench", "--seconds", "-1"], EXIT_USAGE),
    ("conform", ["conform", "--game", "ruby-rhino", "-n", "2", "--examples", "1", "--no-golden"],
     EXIT_OK),
    ("conform", ["conform", "--engine", f"{ENGINE} crash 5", "--game", "ruby-rhino", "-n", "2",
                 "--examples", "1", "--no-golden"], EXIT_FAILED),
    ("conform", ["conform", "--game", "fool", "--timeout", "0"], EXIT_USAGE),
    ("conform", ["conform", "--engine", f"{ENGINE} exit", "--game", "fool"], EXIT_ENGINE),
    # --param (or --ruling) naming what the engine's hello does not declare: a usage error.
    ("conform", ["conform", "--engine", STRICT, "--game", "ruby-rhino", "-p", "target_score=30"],
     EXIT_USAGE),
    ("serve", ["serve", "fool"], EXIT_OK),
    ("serve", ["serve", "chess"], EXIT_USAGE),
    ("conform-bench", ["conform-bench", "chess"], EXIT_USAGE),
    ("golden", ["golden", "ruby-rhino", "--check"], EXIT_OK),
    ("golden", ["golden", "chess"], EXIT_USAGE),
    ("perft", ["perft", "dado-de-ouro", "--depth", "2"], EXIT_OK),
    ("perft", ["perft", "dado-de-ouro", "-r", "DDO-AMB-01=d6", "-r", "DDO-AMB-01=d8"],
     EXIT_USAGE),
    ("examples", ["examples", "dado-de-ouro"], EXIT_OK),
    ("examples", ["examples", "chess"], EXIT_USAGE),
    ("impact", ["impact", "dado-de-ouro", "DDO-AMB-01", "--agents", "random", "--games", "2",
                "--batch-size", "1", "-q"], EXIT_OK),
    ("impact", ["impact", "chess"], EXIT_USAGE),
    ("diff", ["diff", "--check", "-q", "fool"], EXIT_OK),
    ("diff", ["diff", "fool@9.9.9", "fool@1.1.0"], EXIT_USAGE),
    ("diff", ["diff", "--check", "-q", "bad.yaml"], EXIT_USAGE),
    ("releases", ["releases", "fool"], EXIT_OK),
    ("releases", ["releases", "chess"], EXIT_USAGE),
    ("freeze", ["freeze", "dado-de-ouro", "--output", "frozen"], EXIT_OK),
    ("freeze", ["freeze", "chess"], EXIT_USAGE),
    ("verify", ["verify", "dado-de-ouro", "--max-states", "500"], EXIT_OK),
    ("verify", ["verify", "chess"], EXIT_USAGE),
    ("new-game", ["new-game", "tiny-take", "--dir", "tiny"], EXIT_OK),
    ("new-game", ["new-game", "Tiny_Take"], EXIT_USAGE),
    # --dry-run: the built-in spec is shown at format rulespec/2 and not written.
    ("upgrade", ["upgrade", "--dry-run", str(spec_paths()[0])], EXIT_OK),
    ("upgrade", ["upgrade", "bad.yaml"], EXIT_USAGE),
    ("upgrade", ["upgrade", "missing.yaml"], EXIT_USAGE),
    ("docs", ["docs", "build", "--site-dir", "site", "--fast"], EXIT_USAGE),
    # A whole matrix is a run too slow for this table (tests/conformance/test_matrix.py runs
    # one); its plan is not.
    ("matrix", ["matrix", "--list", "--game", "ruby-rhino"], EXIT_OK),
    ("matrix", ["matrix", "--engines", "bad.yaml"], EXIT_USAGE),
]
#: Commands whose exit 0 is a run too slow for this table, and where it is tested instead.
SLOW_OK = {"conform-bench": "tests/conformance", "docs": "tests/docs/test_docs_command.py"}


def test_every_command_has_its_codes_tested() -> None:
    """Each command is run here with exit 0 (except the slow ones, SLOW_OK) and exit 2."""
    tested = {(command, code) for command, _, code in RUNS}
    # list_commands, not cli.commands: the group imports the kit's commands only when asked.
    for command in cli.list_commands(click.Context(cli)):
        assert (command, EXIT_USAGE) in tested, command
        assert command in SLOW_OK or (command, EXIT_OK) in tested, command
    assert (("conform", EXIT_ENGINE) in tested and ("conform", EXIT_FAILED) in tested)
    assert len([c for c in CASES if c.code == EXIT_USAGE]) >= 100


def test_contract_in_help() -> None:
    """The CLI's help (and so the generated CLI reference) states the contract."""
    assert "Exit codes" in (cli.help or "") and "3 the engine under test failed" in (
        cli.help or "").replace("\n", " ").replace("    ", " ")
    assert "3 the engine under test failed to run" in CONTRACT


@pytest.mark.parametrize(("command", "argv", "code"), RUNS,
                         ids=[f"{c}-{code}-{i}" for i, (c, _, code) in enumerate(RUNS)])
def test_exit_code(command: str, argv: list[str], code: int, tmp_path: Path,
                   monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The command exits with the contract's code, and never with a traceback."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text("x: 1\n", encoding="utf-8")
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace('"actor":"chance"', '"actor":2')
    (tmp_path / "wrong.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(HELLO + "\n"))
    with pytest.raises(SystemExit) as info:
        main(argv)
    out, err = capsys.readouterr()
    assert info.value.code == code, out[-1500:] + err[-1500:]
    assert "Traceback" not in err
