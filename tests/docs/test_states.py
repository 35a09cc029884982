"""The example-states page: one state per phase of every game, from the golden traces, with the
working fields explained from the spec (issue 19 part 4)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from rulespec.conformance.play import golden
from rulespec.docsgen import DocsError, Links, games_nav
from rulespec.docsgen.site import phase_traces
from rulespec.docsgen.states import (
    STATES_PAGE,
    STATES_TITLE,
    PhaseExample,
    phase_examples,
    phases,
    states_page,
    working_fields,
)
from rulespec.docsgen.traces import golden_traces
from rulespec.spec import load_spec
from rulespec.spec.registry import game_ids, get_spec

GAMES = list(game_ids())
#: The games whose spec marks the working fields of its phases (``x-pending``): the site gives
#: them an example-states page. A plugin game that marks none (Pig) gets no page, and the site
#: builds without one.
PAGED = [g for g in GAMES if phase_traces(get_spec(g))]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return {g: states_page(get_spec(g), golden_traces([g])).markdown for g in PAGED}


@pytest.fixture(scope="module")
def examples() -> dict[str, dict[str, PhaseExample]]:
    return {g: dict(phase_examples(get_spec(g), golden_traces([g]))) for g in PAGED}


def test_every_game_has_a_phase_enum() -> None:
    """Every registered game names its phases in the state schema (the page lists them)."""
    assert GAMES and all(phases(get_spec(g)) for g in GAMES)


@pytest.mark.parametrize("game", PAGED)
def test_the_page_names_every_phase_with_an_example_state(game: str,
                                                           pages: dict[str, str]) -> None:
    """Every phase of the state's phase enum has a section with a state from a golden trace."""
    page = pages[game]
    headings = re.findall(r"^## <code>([a-z_]+)</code> \{ #phase-([a-z_]+) \}$", page,
                          flags=re.MULTILINE)
    assert [h for h, _ in headings] == phases(get_spec(game))
    assert "No golden trace reaches this phase" not in page, "a phase has no example state"
    assert page.count("<summary>The whole state</summary>") == len(phases(get_spec(game)))


@pytest.mark.parametrize("game", PAGED)
def test_every_field_shown_has_its_description(game: str, pages: dict[str, str],
                                               examples: dict[str, dict[str, PhaseExample]]) -> None:
    """Each working field of each example state has a row carrying its schema description."""
    spec = get_spec(game)
    links = Links(spec)
    for phase, example in examples[game].items():
        section = pages[game].split(f"{{ #phase-{phase} }}", 1)[1].split("\n## ", 1)[0]
        fields = working_fields(spec, example.state)
        assert len(fields) > 1, f"{game} {phase}: no working field besides to_move"
        for field in fields:
            description = str(field.schema.get("description", "")).strip()
            assert description, f"{game}: {field.path} has no description"
            rows = [line for line in section.splitlines()
                    if line.startswith(f"| <code>{field.path}</code> |")]
            assert len(rows) == 1, f"{game} {phase}: {field.path} has {len(rows)} rows"
            assert links.prose(description) in rows[0], f"{game} {phase}: {field.path}"


def test_the_pending_object_is_explained_field_by_field(pages: dict[str, str]) -> None:
    """Ouro de Tolo's pending object: every field a row, with its per-phase meaning."""
    page = pages["ouro-de-tolo"]
    for name in ("effect", "by", "target", "left", "queue"):
        assert f"<code>pending.{name}</code>" in page, name
    steal = page.split("{ #phase-steal }", 1)[1].split("\n## ", 1)[0]
    assert "The victim, whose stones are taken." in steal
    assert "Stones still to be taken from the victim." in steal


def test_the_choice_is_deterministic_and_prefers_default_traces(
        examples: dict[str, dict[str, PhaseExample]]) -> None:
    """The same traces give the same states; a phase the default traces reach comes from one."""
    again = phase_examples(get_spec("ruby-rhino"), golden_traces(["ruby-rhino"]))
    assert again == examples["ruby-rhino"]
    roll = examples["ruby-rhino"]["roll"]
    assert roll.trace.endswith("-default")


def _ouro_without(tmp_path: Path, edit: str) -> Path:
    source = Path(get_spec("ouro-de-tolo").path)
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    props = data["state"]["schema"]["properties"]
    if edit == "description":
        pending = next(alt for alt in props["pending"]["oneOf"] if "properties" in alt)
        del pending["properties"]["left"]["description"]
    else:
        del props["phase"]["x-phases"]["steal"]
    path = tmp_path / "ouro-de-tolo.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_field_shown_without_description_fails_loudly(tmp_path: Path) -> None:
    """The generator refuses to build the page and names the field and the spec to fix."""
    spec = load_spec(_ouro_without(tmp_path, "description"))
    traces = [t for t in golden_traces(["ouro-de-tolo"]) if t.name.endswith("p3-default")]
    with pytest.raises(DocsError, match=r"'pending\.left'.*no description"):
        states_page(spec, traces)


def test_a_phase_without_its_sentence_fails_loudly(tmp_path: Path) -> None:
    """Every phase needs its x-phases sentence on the phase property."""
    spec = load_spec(_ouro_without(tmp_path, "phase"))
    with pytest.raises(DocsError, match="steal"):
        states_page(spec, [])


def test_the_page_is_in_the_navigation() -> None:
    """Each game's section with a page lists it right after Actions and state; a game without
    one (a plugin that marks no working fields) has no entry."""
    nav = games_nav([get_spec(g) for g in GAMES])
    assert len(nav) == len(GAMES) and {"dado-de-ouro", "fool", "ouro-de-tolo",
                                       "ruby-rhino"} <= set(PAGED)
    for game, section in zip(GAMES, nav, strict=True):
        (entries,) = section.values()
        titles = [next(iter(e)) for e in entries]
        if game in PAGED:
            assert titles[titles.index("Actions and state") + 1] == STATES_TITLE, game
            assert any(STATES_PAGE in next(iter(e.values())) for e in entries), game
        else:
            assert STATES_TITLE not in titles, game


def test_golden_adds_a_trace_for_a_phase_no_standard_case_reaches() -> None:
    """A phase missing from the standard cases gets the first ruling option that reaches it."""
    spec = get_spec("ruby-rhino")
    reached = set(phases(spec)) - {"choose"}
    added = golden.phase_cases(spec, reached, set())
    assert [c.rulings for c, _ in added] == [{"RR-AMB-04": "player-chooses"}]
    assert not golden.phase_cases(spec, set(phases(spec)), set())


def test_a_spec_without_working_fields_gets_no_page(tmp_path: Path) -> None:
    """A spec written before the page (no x-pending anywhere) still builds its docs, without it."""

    source = Path(get_spec("ruby-rhino").path)
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    for sub in data["state"]["schema"]["properties"].values():
        sub.pop("x-pending", None)
    path = tmp_path / "ruby-rhino.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert phase_traces(load_spec(path)) == []
    assert phase_traces(get_spec("ruby-rhino")), "the registered spec marks its working fields"
