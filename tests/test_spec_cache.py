"""The fast spec loader and the loaded-spec cache: same data, same marks, never stale.

libyaml parses when present and the pure-Python parser only reports problems; marks are
found when first asked for; a validated spec is cached under the hash of its text and of
the checking code (``rulespec/spec/cache.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulespec.spec import cache as spec_cache
from rulespec.spec import loader as spec_loader
from rulespec.spec import validate
from rulespec.spec.errors import SpecError
from rulespec.spec.registry import spec_paths
from rulespec.spec.validate import load_spec

TOY = Path(__file__).parent / "specs" / "valid" / "toy.yaml"


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh cache folder and an empty in-process memo."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(spec_cache.CACHE_ENV, str(folder))
    spec_cache.clear_memo()
    yield folder
    spec_cache.clear_memo()


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    real = validate.load_yaml  # type: ignore[attr-defined]

    def counting(text: str, file: str) -> object:
        seen.append(file)
        return real(text, file)

    monkeypatch.setattr(validate, "load_yaml", counting)
    return seen


@pytest.mark.skipif(not spec_loader.WITH_LIBYAML, reason="PyYAML was built without libyaml")
@pytest.mark.parametrize("path", spec_paths(), ids=lambda p: p.stem)
def test_fast_loader_matches_the_reference(path: Path) -> None:
    """libyaml and the pure-Python parser give the same data and the same marks."""
    text = path.read_text(encoding="utf-8")
    fast, lazy = spec_loader.load_yaml(text, str(path))
    slow, eager = spec_loader._load_reference(text, str(path))
    assert fast == slow
    assert lazy._marks == {}  # not found yet
    assert lazy.at(("clauses", 0, "id")) == eager.at(("clauses", 0, "id"))
    assert lazy._marks == eager._marks and len(eager._marks) > 100


def test_second_load_comes_from_the_cache(cache_dir: Path, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "toy.yaml"
    spec.write_text(TOY.read_text(encoding="utf-8"), encoding="utf-8")
    parses = _count_parses(monkeypatch)
    first = load_spec(spec)
    assert len(parses) == 1 and len(list(cache_dir.glob("*.spec"))) == 1
    spec_cache.clear_memo()  # the file serves it
    second = load_spec(spec)
    assert len(parses) == 1
    assert second.data == first.data and second.data is not first.data
    # Marks of a cached spec are found from the text when asked for.
    assert second.location(("clauses", 0)) == first.location(("clauses", 0))
    assert second.location(("clauses", 0)).startswith(f"{spec}:")


def test_a_changed_spec_is_validated_again(cache_dir: Path, tmp_path: Path) -> None:
    spec = tmp_path / "toy.yaml"
    text = TOY.read_text(encoding="utf-8")
    spec.write_text(text, encoding="utf-8")
    load_spec(spec)
    spec.write_text(text + "bogus_top_level_key: 1\n", encoding="utf-8")
    with pytest.raises(SpecError) as exc:
        load_spec(spec)
    message = str(exc.value)
    assert "bogus_top_level_key" in message and f"{spec}:" in message


def test_a_changed_validator_misses_the_cache(cache_dir: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    text = TOY.read_text(encoding="utf-8")
    before = spec_cache.spec_key(text)
    monkeypatch.setattr(spec_cache, "_code_fingerprint", lambda: "another validator")
    assert spec_cache.spec_key(text) != before


def test_a_corrupt_cache_file_is_ignored(cache_dir: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "toy.yaml"
    spec.write_text(TOY.read_text(encoding="utf-8"), encoding="utf-8")
    first = load_spec(spec)
    (entry,) = cache_dir.glob("*.spec")
    raw = entry.read_bytes()
    parses = _count_parses(monkeypatch)
    for broken in (raw[: len(raw) // 2], raw[:-1] + bytes([raw[-1] ^ 1]), b"", b"\0" * 64):
        entry.write_bytes(broken)
        spec_cache.clear_memo()
        assert load_spec(spec).data == first.data
    assert len(parses) == 4  # each broken file was validated again (and rewritten)
    assert entry.read_bytes() == raw


def test_an_unwritable_cache_only_costs_time(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(spec_cache.CACHE_ENV, str(blocker / "cache"))
    spec_cache.clear_memo()
    assert load_spec(TOY).game_id
    monkeypatch.setenv(spec_cache.CACHE_ENV, "off")
    assert spec_cache.cache_dir() is None
    assert load_spec(TOY).game_id
    spec_cache.clear_memo()


def test_problems_are_never_cached(cache_dir: Path, tmp_path: Path) -> None:
    spec = tmp_path / "bad.yaml"
    spec.write_text("game: {id: x}\ngame: {id: y}\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(SpecError) as exc:
            load_spec(spec)
        assert f"{spec}:2:1" in str(exc.value) and "duplicate key 'game'" in str(exc.value)
    assert not list(cache_dir.glob("*.spec"))


def test_the_cache_keeps_a_bounded_number_of_files(cache_dir: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spec_cache, "MAX_FILES", 3)
    for i in range(5):
        spec_cache.put(f"{i:064x}", {"n": i})
        os.utime(cache_dir / f"{i:064x}.spec", ns=(i * 10**9, i * 10**9))
    assert len(list(cache_dir.glob("*.spec"))) == 3
