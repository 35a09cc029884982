"""Input files as rulespec 0.2.0 users wrote them (tests/compat/files/README.md), loaded by
today's loaders: an engine list (``rulespec-engines/1``), an impact sweep
(``rulespec-impact-sweep/1``) and published verify configurations (the
``rulespec/verify/published.yaml`` format, with view terms)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

from rulespec.conformance.matrix.engines_file import load_engines
from rulespec.docsgen.sweepdocs import measured_prose, sweep_block
from rulespec.impact.sweep import SWEEP_FORMAT, finish, load_sweep, ranked
from rulespec.impact.sweepcli import verdicts_text
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec
from rulespec.verify.keys import View
from rulespec.verify.published import load_published
from tests.compat.conftest import ENGINES, FILES, rulespec


def test_the_engine_list_loads() -> None:
    """``rulespec-engines/1``: every key a 0.2.0 list may use (games with install, command,
    needs, games, configurations with players and rulings, timeout, planted_bug, cwd, env)
    loads, and commands resolve against the file's folder."""
    engines = load_engines(FILES / "engines.yaml")
    by_id = {e.id: e for e in engines.engines}
    assert list(by_id) == ["reference-served", "node-first-release", "planted-rotating-starter"]
    assert engines.games == {"tally-ho": "pip install tests/compat/plugins/rulespec-tally-ho"}
    served = by_id["reference-served"]
    assert served.timeout == 30
    assert [c.id for c in served.configurations_of("dado-de-ouro")] == ["default", "d8-four"]
    d8 = served.configurations_of("dado-de-ouro")[1]
    assert d8.players == (4,) and dict(d8.rulings) == {"DDO-AMB-01": "d8"}
    node = by_id["node-first-release"]
    assert node.needs == ("node",)
    argv = node.argv("dado-de-ouro")
    assert argv is not None and argv[0] == "node"
    planted = by_id["planted-rotating-starter"]
    assert planted.planted_bug and dict(planted.env) == {"PYTHONHASHSEED": "0"}
    where = Path(planted.cwd or "")
    assert where.resolve() == FILES.parents[2].resolve() or not where.is_absolute()
    assert (ENGINES / "dado_de_ouro-1.0.0.js").is_file()


def test_the_engine_list_plans_its_matrix() -> None:
    """``rulespec matrix --list`` plans the 0.2.0 list: every job, and the uninstalled game's
    row skipped, saying how to install it."""
    proc = rulespec("matrix", "--no-builtin", "--engines", FILES / "engines.yaml", "--list")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for name in ("dado-de-ouro.reference-served.d8-four.json",
                 "dado-de-ouro.planted-rotating-starter.profile.json"):
        assert name in proc.stdout, proc.stdout
    if "tally-ho" not in game_ids():
        assert "pip install tests/compat/plugins/rulespec-tally-ho" in proc.stderr, proc.stderr


def test_the_impact_sweep_is_read_judged_and_shown(tmp_path: Path) -> None:
    """``rulespec-impact-sweep/1`` (specs/impact/GAME.json, written by ``rulespec impact
    --reached --save``): today's loader reads it beside a spec, ``--rejudge``'s correction runs
    on it, the CLI's verdicts and the docs' sweep prose render every record."""
    (tmp_path / "impact").mkdir()
    shutil.copy(FILES / "impact" / "dado-de-ouro.json", tmp_path / "impact" / "dado-de-ouro.json")
    data = load_sweep(tmp_path / "dado-de-ouro.yaml", "dado-de-ouro")
    assert data is not None and data["format"] == SWEEP_FORMAT
    judged = copy.deepcopy(data)
    assert finish({"dado-de-ouro": judged}) > 0
    assert [a for a, _ in ranked(judged)] == [a for a, _ in ranked(data)], (
        "judged again, the frozen sweep gives the same verdicts")
    assert "What matters most in dado-de-ouro" in verdicts_text("dado-de-ouro", judged)
    for amb, record in data["records"].items():
        assert isinstance(measured_prose(record, data), str), amb
        assert isinstance(sweep_block(amb, record, data), str), amb


def test_the_published_verify_configurations_load_and_bind() -> None:
    """The published verify configurations (``rulespec verify --published``'s file): every
    entry loads, its view terms (FIELD, last, relative, cap with a number or params.NAME, keep
    over a state or a move) parse, and for a registered game its configuration resolves and the
    view binds to it and keys the starting state."""
    entries = load_published(FILES / "published.yaml")
    assert len(entries) == 9 and {"pig", "dado-de-ouro", "fool"} <= {e.game for e in entries}
    for entry in entries:
        view = View(entry.view)
        assert entry.command().startswith(f"rulespec verify {entry.game} -n {entry.players}")
        if entry.game not in game_ids():
            continue  # Pig is a plugin; its entries parse, they bind where it is installed
        spec = get_spec(entry.game)
        setup = entry.setup(spec, engine_class(spec))
        engine = setup.engine()
        view.bind(dict(engine.config.parameters), engine.config.to_json())
        view.check(engine.state())
        assert view.apply(engine.state()) is not None, entry.command()
