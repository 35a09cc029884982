"""The releases a spec records, their frozen copies, and the validator's checks of the list."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from rulespec.releases.store import (
    BadVersion,
    Release,
    UnknownRelease,
    frozen_releases,
    parse_version,
    previous_release,
    release_dir,
    release_spec,
    releases,
)
from rulespec.spec import registry as registry_module
from rulespec.spec.errors import SpecError
from rulespec.spec.registry import GamePackage, RegisteredGame, Registry, get_spec
from rulespec.spec.validate import load_spec
from tests.releases.support import today_data, write_copy

GAMES = ["dado-de-ouro", "fool", "ouro-de-tolo", "ruby-rhino"]
TOY = Path(__file__).resolve().parent.parent / "specs" / "valid" / "toy.yaml"


@pytest.mark.parametrize("game", GAMES)
def test_every_recorded_release_is_frozen_and_loads(game: str) -> None:
    """Each release of a built-in game is frozen; its spec says its own game and version."""
    listed = releases(game)
    assert listed and listed[-1].version == get_spec(game).version
    assert [r.version for r in frozen_releases(game)] == [r.version for r in listed]
    for item in listed:
        spec = release_spec(game, item.version)
        assert (spec.game_id, spec.version) == (game, item.version)
        assert spec.path.parent == release_dir(game, item.version)
        datetime.date.fromisoformat(item.date)
    assert [r.key for r in listed] == sorted({r.key for r in listed})


def test_ouro_de_tolo_has_a_first_release_and_a_major_one() -> None:
    """The first release is what landed at 3e44d90; OURO-CARD-11 made the next one MAJOR."""
    assert [(r.version, r.date) for r in releases("ouro-de-tolo")] == [
        ("1.0.0", "2026-11-29"), ("2.0.0", "2026-12-01"), ("2.1.0", "2026-12-01"),
        ("2.1.1", "2026-12-01"), ("2.2.0", "2026-12-02"), ("2.3.0", "2026-12-02")]
    first = release_spec("ouro-de-tolo", "1.0.0")
    assert "OURO-CARD-11" not in first.by_id("clauses")
    assert first.reference_module == "reference.games.ouro_de_tolo"


def test_a_frozen_spec_is_cached() -> None:
    """Loading a release twice reads it once."""
    assert release_spec("fool", "1.0.0") is release_spec("fool", "1.0.0")


def test_an_unknown_release_names_the_releases() -> None:
    """The error says which releases there are, in a whole sentence."""
    with pytest.raises(UnknownRelease) as err:
        release_spec("fool", "9.9.9")
    assert str(err.value) == "fool has no release '9.9.9'; the releases of 'fool' are 1.0.0, 1.1.0, 1.2.0, 1.2.1, 1.3.0, 1.4.0"


def test_a_bad_version_says_how_to_write_one() -> None:
    """MAJOR.MINOR.PATCH, three whole numbers without leading zeros."""
    assert parse_version("10.2.0") == (10, 2, 0)
    for bad in ("1.0", "01.0.0", "1.0.0-rc1", "v1.0.0", ""):
        with pytest.raises(BadVersion, match=r"is not MAJOR\.MINOR\.PATCH"):
            parse_version(bad)


def test_the_previous_release_is_the_frozen_current_version() -> None:
    """Today's spec is checked against the frozen copy of its own version when there is one."""
    found = previous_release("ruby-rhino")
    assert found == Release("ruby-rhino", "0.2.6", "2026-12-03", found.summary if found else "")


def test_a_plugin_game_without_releases_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game registered by another distribution (here the toy spec) may record no releases:
    the list is empty and asking for one is a clear error, not a crash."""
    fake = Registry({"toy-coin": RegisteredGame("toy-coin", GamePackage(spec=TOY), "toy")}, {})
    monkeypatch.setattr(registry_module, "registry", lambda: fake)
    assert releases("toy-coin") == [] and frozen_releases("toy-coin") == []
    assert previous_release("toy-coin") is None
    with pytest.raises(UnknownRelease, match="records no releases"):
        release_dir("toy-coin", "0.1.0")


def _release_problems(tmp_path: Path, entries: list[dict[str, str]], version: str) -> list[str]:
    data = today_data("dado-de-ouro")
    data["game"]["releases"] = entries
    data["game"]["spec_version"] = version
    try:
        load_spec(write_copy(tmp_path, "dado-de-ouro", data))
    except SpecError as exc:
        return [p.message for p in exc.problems]
    return []


def test_the_validator_checks_the_release_list(tmp_path: Path) -> None:
    """Versions strictly increase, dates are calendar days, the last is spec_version."""
    one = {"version": "1.0.0", "date": "2026-11-29", "summary": "First."}
    two = {"version": "1.1.0", "date": "2026-12-01", "summary": "Second."}
    assert _release_problems(tmp_path / "ok", [one, two], "1.1.0") == []
    assert _release_problems(tmp_path / "order", [two, one], "1.0.0") == [
        "release '1.0.0' comes after '1.1.0'; list releases oldest first with strictly "
        "increasing versions"]
    assert _release_problems(tmp_path / "last", [one, two], "1.2.0") == [
        "spec_version '1.2.0' is not the last release ('1.1.0'); a new version needs its entry "
        "at the end of game.releases (version, date, summary)"]
    bad_day = {**two, "date": "2026-02-30"}
    assert _release_problems(tmp_path / "date", [one, bad_day], "1.1.0") == [
        "release date '2026-02-30' is not a day of the calendar; write it as YYYY-MM-DD "
        "(ISO 8601)"]
