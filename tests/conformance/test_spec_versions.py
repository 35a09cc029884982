"""The kit honours the spec version an engine declares (issue 27, docs/editors/versioning.md).

An engine written for an older release, and never changed since, is conformant today when its
behaviour is what that release specified: records added later are held at their default and not
sent in ``start``, and what needs them is skipped and counted. A MAJOR change since that release
that touches what the engine does fails it, and the failure names the change.

The engines here are the repository's own: the reference declaring an older release and refusing
the rulings that release did not have (as the outside engines written from the docs do), and the
Node.js Dado de Ouro engine, unchanged since the first release. Edited specs are copies written
to a temporary folder and registered in place of the built-in one.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

import rulespec.spec.registry as registry_module
from rulespec.conformance import InProcessAdapter, Options, SubprocessAdapter, check_engine
from rulespec.conformance.engine.protocol import Hello, without_rulings
from rulespec.conformance.judging.versions import UnknownSpecVersion
from rulespec.conformance.reports.report import render
from rulespec.data import kit_dir
from rulespec.reference import ConfigError
from rulespec.releases.store import release_spec, releases_root
from rulespec.spec import GamePackage, get_spec
from rulespec.spec.registry import RegisteredGame, Registry

QUICK = Options(examples=3, max_steps=400, golden=False, jobs=1, shorter_seconds=0,
                shrink_seconds=2, seek_steps=0, perft_seconds=0)


class DeclaredEngine(InProcessAdapter):
    """The reference of ``game`` as an engine written for release ``version`` would show it.

    Its hello declares ``version`` and the ruling options of that release; it refuses a ruling
    that release did not have, and plays ``plays`` (ambiguity -> option) whatever it is told.
    """

    def __init__(self, game: str, version: str, *, plays: Mapping[str, str] | None = None,
                 declare: str | None = None) -> None:
        super().__init__(name=f"{game} as written for {version}")
        self.game = game
        self.declare = version if declare is None else declare
        self.known = {aid: [str(o["id"]) for o in record["options"]]
                      for aid, record in release_spec(game, version).ambiguities.items()}
        self.plays = dict(plays or {})

    def hello(self) -> Hello:
        hello = super().hello()
        games = dict(hello.games)
        games[self.game] = {**games[self.game], "spec_version": self.declare,
                            "rulings": {a: o for a, o in self.known.items() if a not in self.plays}}
        return replace(hello, games=games)

    def start(self, config: Mapping[str, Any]) -> None:
        config = without_rulings(config, self.held)
        unknown = sorted(set(config.get("rulings") or {}) - set(self.known))
        if unknown:
            raise ConfigError(f"unsupported ruling {unknown[0]}={config['rulings'][unknown[0]]}")
        super().start({**config, "rulings": {**config.get("rulings", {}), **self.plays}})


# Integration: a whole conform run against Fool's first release, 10 s (issue 46's budget).
@pytest.mark.integration
def test_an_engine_of_fools_first_release_is_conformant_today() -> None:
    """FOOL-AMB-15 came in 1.1.0 (FOOL-DEAL-01): held at its default, never sent."""
    engine = DeclaredEngine("fool", "1.0.0")
    report = check_engine(engine, "fool", players=[4], options=QUICK)
    view = report.checked_as
    assert report.ok, render(report, "text")
    assert view.declared == "1.0.0" and view.current == get_spec("fool").version
    # Held: every record today's spec has and 1.0.0 had not, each at today's default (FOOL-AMB-15
    # to -20 and those added since, such as FOOL-AMB-21), computed, so a release that adds a
    # record keeps this test true.
    first = set(release_spec("fool", "1.0.0").ambiguities)
    today = get_spec("fool")
    expected = {r: o for r, o in today.default_rulings().items() if r not in first}
    assert {"FOOL-AMB-15", "FOOL-AMB-20"} <= set(expected)
    assert expected["FOOL-AMB-15"] == "one-at-a-time" and expected["FOOL-AMB-20"] == "running-total"
    assert dict(view.held) == expected
    assert view.majors == ()
    assert report.examples is not None and report.examples.examples > 0
    assert report.examples.newer, "the witness of FOOL-AMB-15's other option needs 1.1.0"
    text = render(report, "text")
    assert "checked as fool 1.0.0 (as the engine declares)" in text
    assert "no MAJOR change since 1.0.0" in text


def test_the_same_engine_claiming_todays_version_is_refused_the_new_record() -> None:
    """The control: without the hold, the unknown record breaks every game (as it did)."""
    engine = DeclaredEngine("fool", "1.0.0", declare=get_spec("fool").version)
    report = check_engine(engine, "fool", players=[4], options=QUICK)
    assert not report.ok
    assert any("unsupported ruling FOOL-AMB-15" in f.message for f in report.failures)


def test_ouro_de_tolo_from_its_first_release_lists_the_major_changes() -> None:
    """OURO-CARD-11 changed play in 2.0.0: the header names it for an engine of 1.0.0."""
    report = check_engine(DeclaredEngine("ouro-de-tolo", "1.0.0"), "ouro-de-tolo", players=[3],
                          options=QUICK)
    assert report.ok, render(report, "text")
    view = report.checked_as
    assert "OURO-AMB-23" in view.held
    assert any("OURO-CARD-11" in m.clauses for m in view.majors)
    text = render(report, "text")
    assert "MAJOR changes since 1.0.0" in text and "OURO-CARD-11" not in text.split("\n")[0]


FROZEN = Path(__file__).parent / "engines" / "frozen"


# Integration: two whole kit runs on the Node.js engines (CI runs it as a step; the default run stays under five minutes).
@pytest.mark.integration
@pytest.mark.parametrize(("engine", "declared"), [
    (FROZEN / "dado_de_ouro-1.0.0.js", "1.0.0"),
    (kit_dir() / "engines" / "dado_de_ouro.js", "1.1.0"),
], ids=["frozen-at-1.0.0", "maintained-at-1.1.0"])
def test_the_node_engines_are_conformant_today(engine: Path, declared: str) -> None:
    """The Node.js Dado de Ouro engine as frozen at the first release, and as maintained: it
    implements 1.1.0 (not 1.2.0's new options), declares it, and stays conformant."""
    adapter = SubprocessAdapter(["node", str(engine)])
    try:
        report = check_engine(adapter, "dado-de-ouro", options=QUICK)
    finally:
        adapter.close()
    assert report.ok, render(report, "text")
    assert report.checked_as.declared == declared
    assert report.checked_as.today == (declared == get_spec("dado-de-ouro").version)


def test_an_unknown_declared_version_names_the_releases() -> None:
    with pytest.raises(UnknownSpecVersion, match=r"not a release of fool \(its releases: 1\.0\.0"):
        check_engine(DeclaredEngine("fool", "1.0.0", declare="0.9.0"), "fool", players=[4],
                     options=QUICK)


# Integration: a whole conform run against an older release, 11 s (issue 46's budget).
@pytest.mark.integration
def test_spec_version_option_checks_an_older_release_on_purpose() -> None:
    report = check_engine(InProcessAdapter(), "fool", players=[4],
                          options=replace(QUICK, spec_version="1.0.0"))
    assert report.ok
    assert report.checked_as.source == "--spec-version"
    assert "FOOL-AMB-15" in report.checked_as.held


# -- edits made to a copy of a spec ------------------------------------------------------------


@pytest.fixture
def edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Return a function that registers an edited copy of Dado de Ouro's spec, released."""
    real = get_spec("dado-de-ouro")
    folder = tmp_path / "specs"
    (folder / "examples").mkdir(parents=True)
    shutil.copy(real.path.parent / "examples" / "dado-de-ouro.yaml", folder / "examples")
    shutil.copytree(releases_root("dado-de-ouro"), folder / "releases" / "dado-de-ouro")
    original = registry_module.registry()

    def register(version: str, edit: Any) -> None:
        data = yaml.safe_load(real.path.read_text(encoding="utf-8"))
        edit(data)
        data["game"]["spec_version"] = version
        data["game"]["releases"].append({"version": version, "date": "2026-12-02",
                                         "summary": "an edit made by a test"})
        path = folder / "dado-de-ouro.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True),
                        encoding="utf-8")
        games = dict(original.games)
        games["dado-de-ouro"] = RegisteredGame(
            "dado-de-ouro", GamePackage(spec=path, traces=kit_dir() / "traces"), "a test")
        monkeypatch.setattr(registry_module, "registry", lambda: Registry(games, {}))

    yield register


def _new_record(data: dict[str, Any]) -> None:
    record = dict(data["ambiguities"][0])
    record.update(id="DDO-AMB-99", title="A question found by a test",
                  options=[{"id": "as-before", "summary": "As the reference always played.",
                            "parameters": {}},
                           {"id": "ten-faces", "summary": "A ten-sided die.",
                            "parameters": {"die_faces": list(range(1, 11))}}],
                  default={**record["default"], "option": "as-before"}, effect="outcome")
    record.pop("impact", None)
    data["ambiguities"].append(record)
    die = next(p for p in data["parameters"] if p["id"] == "die_faces")
    die["readings"] = [*die.get("readings", []), "DDO-AMB-99"]


def test_a_new_record_keeps_an_engine_of_the_last_release_conformant(edited: Any) -> None:
    """A record whose default keeps the old behaviour is MINOR: nothing the engine does moves."""
    last = get_spec("dado-de-ouro").version
    major, minor, _ = (int(x) for x in last.split("."))
    edited(f"{major}.{minor + 1}.0", _new_record)
    report = check_engine(DeclaredEngine("dado-de-ouro", last), "dado-de-ouro",
                          options=QUICK)
    assert report.ok, render(report, "text")
    assert dict(report.checked_as.held) == {"DDO-AMB-99": "as-before"}
    assert report.checked_as.majors == ()


def _d8_by_default(data: dict[str, Any]) -> None:
    for record in data["ambiguities"]:
        if record["id"] == "DDO-AMB-01":
            record["default"] = {**record["default"], "option": "d8"}
            record.pop("impact", None)  # measured against the old default


def test_a_changed_default_fails_an_engine_of_the_last_release_and_names_the_change(
        edited: Any) -> None:
    """DDO-AMB-01's default moved from d6 to d8 (DDO-DIE-01): MAJOR, 2.0.0."""
    last = get_spec("dado-de-ouro").version
    edited(f"{int(last.split('.')[0]) + 1}.0.0", _d8_by_default)
    engine = DeclaredEngine("dado-de-ouro", last, plays={"DDO-AMB-01": "d6"})
    report = check_engine(engine, "dado-de-ouro", options=QUICK)
    assert not report.ok
    majors = report.checked_as.majors
    assert [m.rule for m in majors] == ["RECORD_DEFAULT_CHANGED"]
    named = [f for f in report.failures if f.changed]
    assert named, render(report, "text")
    assert all("this behaviour changed in 2.0.0 (RECORD_DEFAULT_CHANGED)" in f.changed[0]
               for f in named)
    assert "this behaviour changed in 2.0.0" in render(report, "text")
    assert "changed" in render(report, "json")
