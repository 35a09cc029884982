"""Issue 42 item 3: seat symmetry. Where a spec declares its seats interchangeable up to the
turn order (``x-verify: {rotate: ...}``), states equal up to a rotation of the seats are one
state; permuted states behave alike, each seat's exact figures are those of the search without
symmetry, and an engine that favours a seat is caught, not answered wrongly."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rulespec.reference.core import Action, Engine, make_config
from rulespec.reference.registry import engine_class, new_game
from rulespec.spec.registry import get_spec
from rulespec.spec.verify_views import (
    ViewDeclarationError,
    check_views,
    declared_seats,
    declared_view_terms,
)
from rulespec.verify.explore import Explorer
from rulespec.verify.keys import View
from rulespec.verify.run import Bounds, Setup, Verification, verify, verify_rulings
from rulespec.verify.store import StateStore
from rulespec.verify.symmetry import Rotation, Seats, SymmetryError, unfold
from tests.bridges.support import pig
from tests.verify.support import PIG_COIN, PIG_ON_HOLD, RHINO_SUMMARY, RHINO_TINY

#: Ruby Rhino's seat fields, as its spec declares them (release 0.2.5): the lists by seat and
#: the fields naming seats, the record of rounds' included.
RHINO_SEATS = Seats(*(declared_seats(get_spec("ruby-rhino")) or ((), ())))


#: Pig's published on-hold view, with who went first and the turn counts forgotten: under
#: PIG-AMB-02 immediate they decide nothing, and without them a position with seat 1 to move is
#: the rotation of one with seat 0 to move.
ON_HOLD_UNORDERED = (*(t for t in PIG_ON_HOLD if t != "relative(turns)"), "turns", "first")


def _pig_seats() -> Seats:
    spec, _ = pig()
    declared = declared_seats(spec)
    assert declared is not None
    return Seats(*declared)


def _pig(rulings: dict[str, str], engine_type: type[Engine] | None = None,
         **parameters: Any) -> Engine:
    spec, pig_type = pig()
    config = make_config(spec, players=2, rulings=rulings,
                         parameters={**PIG_COIN, **parameters})
    return (engine_type or pig_type)(spec, config)


def _both(engine: Engine, seats: Seats, view: tuple[str, ...], *,
          optimal: bool = False) -> tuple[Verification, Verification]:
    """Return the verification with seat symmetry and without."""
    common: dict[str, Any] = {"view": view, "cross_check": 0, "optimal": optimal}
    return (verify(engine, Bounds(symmetry=seats, **common)),
            verify(engine, Bounds(**common)))


# -- the declaration ------------------------------------------------------------------------------


def test_pig_declares_its_seats_and_the_validator_accepts_it() -> None:
    """PIG-TURN-01 (turns pass to the left) and PIG-SETUP-02: Pig's seats rotate."""
    spec, _ = pig()
    assert check_views(spec.data) == []
    assert _pig_seats() == Seats(lists=("scores", "turns", "result.scores"),
                                 numbers=("to_move", "first", "turn", "result.ranking",
                                          "result.winners"))
    terms = declared_view_terms(spec, {"target_score": 3})
    assert not any("rotate" in t or "seat" in t for t in terms), terms


def test_ruby_rhino_declares_its_seats_and_the_validator_accepts_it() -> None:
    """RR-TURN-01 (turns pass to the left), RR-SETUP-02 and RR-ROUND-04: a built-in game's seats
    rotate, the record of finished rounds' seats too; the declaration is no view term."""
    spec = get_spec("ruby-rhino")
    assert check_views(spec.data) == []
    assert Seats(
        lists=("coins", "scores", "result.scores", "history.*.coins_at_end"),
        numbers=("to_move", "turn", "starter", "rhino", "result.ranking", "result.winners",
                 "history.*.winner")) == RHINO_SEATS
    terms = declared_view_terms(spec, dict(RHINO_TINY))
    assert not any("rotate" in t for t in terms), terms


@pytest.mark.parametrize(("own", "message"), [
    (["rotate"], "declares seat symmetry; write x-verify: {rotate:"),
    ({"rotate": {"mirror": ["scores"]}}, "must map seats and seat to lists of field paths"),
    ({"rotate": {"seats": ["scores", "nosuch"]}}, "'nosuch' names no property"),
    ({"rotate": {"seats": ["result.*.scores"]}}, "'result.*.scores' names no property"),
    ({"rotate": {"seats": ["turn"], "seat": ["turn"]}}, "lists turn twice"),
    ({"rotate": {}}, "rotate lists no field"),
])
def test_a_malformed_declaration_is_refused(own: Any, message: str) -> None:
    spec, _ = pig()
    data = copy.deepcopy(dict(spec.data))
    data["state"]["schema"]["x-verify"] = own
    problems = check_views(data)
    assert any(message in text for _, text in problems), problems
    with pytest.raises(ViewDeclarationError, match=r"state\.schema\.x-verify"):
        declared_seats(data)


def test_a_path_through_list_items_is_accepted() -> None:
    spec, _ = pig()
    data = copy.deepcopy(dict(spec.data))
    data["state"]["schema"]["x-verify"] = {"rotate": {"seat": ["result.ranking.*"]}}
    assert check_views(data) == []
    assert declared_seats(data) == ((), ("result.ranking.*",))


# -- rotations ------------------------------------------------------------------------------------


def test_a_rotation_relabels_seats_and_turns_lists() -> None:
    rotation = Rotation(RHINO_SEATS, 3)
    state = {"coins": [5, 6, 7], "scores": [0, 1, 2], "turn": 1, "starter": 0, "rhino": "chest",
             "to_move": "chance", "chest": 4,
             "history": [{"winner": 2, "coins_at_end": [1, 0, 3]}],
             "result": {"scores": [0, 1, 2], "ranking": [[0, 2], [1]], "winners": [0, 2]}}
    turned = rotation.rotate(state, 1)
    assert turned["coins"] == [6, 7, 5] and turned["turn"] == 0 and turned["starter"] == 2
    assert turned["rhino"] == "chest" and turned["to_move"] == "chance" and turned["chest"] == 4
    assert turned["history"] == [{"winner": 1, "coins_at_end": [0, 3, 1]}]
    # A list of seats is a set, kept ascending; a ranking's places keep their order.
    assert turned["result"] == {"scores": [1, 2, 0], "ranking": [[1, 2], [0]], "winners": [1, 2]}
    assert state["coins"] == [5, 6, 7]  # the state rotated is not changed
    assert rotation.rotate(rotation.rotate(state, 1), 2) == state
    key, frames = rotation.canonical(View(), state)
    # The least rotation orders the seat fields first: coins [5, 6, 7] is least unturned.
    assert frames == (0,) and key == View().key(state)
    assert all(rotation.canonical(View(), rotation.rotate(state, r))[0] == key for r in range(3))


#: One level down, values Python orders only in part: a number beside null or a string raises
#: TypeError, so whether two seats' values compare depends on which two they are.
_NESTED = st.lists(st.lists(st.one_of(st.integers(-2, 10), st.none(), st.sampled_from(["K", "c"])),
                            max_size=2), max_size=2)
_SEAT_VALUE = st.one_of(st.integers(-2, 2), st.none(), st.booleans(), st.sampled_from(
    [1.0, 0.5, float("nan"), "a", "b"]), st.lists(st.integers(0, 2), max_size=2), _NESTED)


_SEATS = Seats(lists=("a", "b"), numbers=("t", "w"))


@st.composite
def _seated(draw: st.DrawFn) -> tuple[int, dict[str, Any]]:
    """A state of three or four seats: two lists by seat, two fields naming seats (a set of
    seats in ascending order, as declared), one that is not."""
    n = draw(st.sampled_from([3, 4]))

    def by_seat() -> Any:
        return draw(st.one_of(st.lists(_SEAT_VALUE, min_size=n, max_size=n), _SEAT_VALUE))
    return n, {"a": by_seat(), "b": by_seat(),
               "t": draw(st.one_of(st.integers(-1, n), st.none(),
                                   st.sampled_from(["chance", 1.0, True]))),
               "w": sorted(draw(st.lists(st.integers(0, n - 1), max_size=n, unique=True))),
               "x": draw(st.integers(0, 3))}


@settings(max_examples=400)
@given(_seated(), st.sampled_from([(), ("cap(a, 1)",), ("relative(b)",), ("a",), ("t", "b"),
                                   ("last(a)", "keep(state.x > 1)"), ("x",)]),
       st.integers(0, 3))
def test_the_least_rotation_is_one_of_the_orbit_whichever_rotation_is_met(
        seated: tuple[int, dict[str, Any]], terms: tuple[str, ...], turn: int) -> None:
    """The key a state is stored under is the same from every rotation of it, is the key of
    the rotation its frame names, and the frames are every rotation giving that key: ordering
    rotations by their seat fields before their keys (values Python orders as numbers, as
    strings, in part, or not at all: null, NaN, booleans, lists of mixed values) changes none
    of that."""
    n, state = seated
    rotation = Rotation(_SEATS, n)
    view = View(terms)
    view.bind({}, {})
    try:
        keys = [view.key(rotation.rotate(state, r)) for r in range(n)]
    except TypeError:  # relative(b) of strings: View.check refuses such a state first
        assume(False)
    key, frames = rotation.canonical(view, state)
    assert key == keys[frames[0]]
    assert frames == tuple(r for r in range(n) if keys[r] == key)
    assert rotation.canonical(view, rotation.rotate(state, turn % n))[0] == key
    forgotten = {**state, "x": state["x"] + 1}  # a field the view may forget: keys agree
    if view.key(forgotten) == view.key(state):
        assert rotation.canonical(view, forgotten)[0] == key


@pytest.mark.parametrize(("n", "field", "items"), [
    # Cards as (rank, suit), ranks as numbers or letters: the 2 and the K of the last two seats
    # are not ordered, while both order after the first seat's 9.
    (3, "hand", [[[9, "h"]], [[10, "s"], [2, "c"]], [[10, "s"], ["K", "c"]]]),
    # Dice not rolled yet (null) beside rolled ones, four seats.
    (4, "dice", [[-2], [-1, None], [-1, 5], [3]]),
])
def test_an_orbit_has_one_key_though_some_rotations_are_not_ordered(
        n: int, field: str, items: list[Any]) -> None:
    """Found by an audit of the ordering: a rotation ordered before every other one is taken
    alone whichever rotation is met first, although two other rotations do not compare (it
    used to depend on whether the scan happened to compare those two)."""
    rotation = Rotation(Seats(lists=(field,)), n)
    view = View()
    state = {field: items}
    keys = {rotation.canonical(view, rotation.rotate(state, r))[0] for r in range(n)}
    assert len(keys) == 1, keys
    fresh = {field: json.loads(json.dumps(items[1:] + items[:1]))}  # built apart, as an engine
    assert rotation.canonical(view, fresh)[0] in keys


def test_a_view_bound_again_is_ordered_by_its_new_ceilings() -> None:
    """The seat fields a view holds are remembered per binding: bound again with another
    ceiling, the rotations are ordered (and the frames found) under the new one."""
    rotation = Rotation(Seats(lists=("a",)), 2)
    view = View(["cap(a, params.K)"])
    view.bind({"K": 5}, {})
    assert rotation.canonical(view, {"a": [2, 3]})[1] == (0,)
    view.bind({"K": 1}, {})  # both seats capped at 1: the state is its own rotation
    assert rotation.canonical(view, {"a": [2, 3]})[1] == (0, 1)


def test_a_seat_list_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(SymmetryError, match="one item per seat"):
        Rotation(Seats(lists=("scores",)), 3).check({"scores": [0, 0]})


def test_permuted_states_behave_alike() -> None:
    """PIG-SETUP-02 under PIG-AMB-03 chance-draw, PIG-TURN-01: the game drawn to start at seat 1
    is the one drawn to start at seat 0 with the seats rotated, move for move."""
    rotation = _pig_seats().bind(2)
    view = View(("relative(turns)",))
    start = _pig({"PIG-AMB-01": "at-once", "PIG-AMB-03": "chance-draw"})
    draws = [a for a, _ in start.chance_outcomes()]
    games = []
    for draw in draws:
        game = start.clone()
        game.apply(draw)
        games.append(game)
    for _ in range(12):  # the same moves in both games
        a, b = games
        assert rotation.rotate(b.state(), 1) == a.state()
        assert rotation.canonical(view, a.state())[0] == rotation.canonical(view, b.state())[0]
        mover_a, mover_b = a.current_player(), b.current_player()
        assert mover_a == (mover_b if not isinstance(mover_b, int) else (mover_b - 1) % 2)
        assert a.legal_actions() == b.legal_actions()
        if a.result() is not None:
            break
        if mover_a == "chance":
            assert a.chance_outcomes() == b.chance_outcomes()
        move: Action = a.legal_actions()[-1]  # the adding face, or hold
        a.apply(move)
        b.apply(move)


# -- exact per-seat figures -----------------------------------------------------------------------


def test_pig_seat_figures_are_exact_with_symmetry() -> None:
    """PIG-END-01: seat 0 goes first (PIG-AMB-03 seat-zero) and wins more often; with who went
    first and the turn counts forgotten (they decide nothing under PIG-AMB-02 immediate, and the
    merges check so),
    the search merges the two seats' positions and recovers each seat's own exact figures,
    under uniform random players and optimal play."""
    engine = _pig({"PIG-AMB-01": "on-hold"}, target_score=4)
    merged, plain = _both(engine, _pig_seats(), ON_HOLD_UNORDERED, optimal=True)
    assert merged.status == plain.status == "proved", merged.violations
    assert merged.uniform is not None and plain.uniform is not None
    assert merged.uniform == plain.uniform and merged.uniform.exact
    assert merged.uniform.wins[0] != merged.uniform.wins[1]
    assert merged.optimal is not None and plain.optimal is not None
    assert merged.optimal.outcomes == plain.optimal.outcomes
    assert merged.optimal.value == pytest.approx(plain.optimal.value, abs=1e-12)
    stats = merged.exploration.stats
    assert stats.rotated_merges > 0
    assert stats.states < plain.exploration.stats.states
    assert merged.unfolded_states >= plain.exploration.stats.states
    assert merged.invariant_status == plain.invariant_status


def test_the_published_pig_seats_view_halves_pig_at_once_and_proves_as_much() -> None:
    """PIG-TURN-01, PIG-END-01: the published view pig-seats with --symmetry, on the spec's own
    die to 10 under PIG-AMB-01 at-once: exactly half the states of pig-at-once (a position and
    its seats swapped are one state, and no position is its own swap), each seat's own exact
    figures under uniform random players and optimal play, and every invariant still proven
    (what PIG-INV-PLAYERS, -TURNS and -EQUAL-TURNS read of the forgotten turn counts is kept)."""
    from rulespec.verify.published import load_views

    views = load_views()
    engine = _pig({"PIG-AMB-01": "at-once"}, target_score=10,
                  die=pig()[0].default_parameters(2)["die"])  # the spec's own die
    common: dict[str, Any] = {"cross_check": 0, "optimal": True}
    merged = verify(engine, Bounds(view=views["pig-seats"].terms, symmetry=_pig_seats(),
                                   **common))
    plain = verify(engine, Bounds(view=views["pig-at-once"].terms, **common))
    assert merged.status == plain.status == "proved", merged.violations
    assert merged.exploration.stats.states * 2 == plain.exploration.stats.states
    assert merged.uniform is not None and merged.uniform == plain.uniform
    assert merged.uniform.exact
    assert merged.optimal is not None and plain.optimal is not None
    assert merged.optimal.outcomes == plain.optimal.outcomes
    assert merged.optimal.value == pytest.approx(plain.optimal.value, abs=1e-12)
    assert set(merged.invariant_status.values()) == {"proven"}
    assert merged.invariant_status == plain.invariant_status


def test_pig_first_player_draw_figures_are_exact_with_symmetry() -> None:
    """PIG-AMB-03 chance-draw: the two draws are one game, rotated; the figures are 1/2 each."""
    engine = _pig({"PIG-AMB-01": "at-once", "PIG-AMB-03": "chance-draw"})
    merged, plain = _both(engine, _pig_seats(), ("relative(turns)", "cap(rolls, 1)"))
    assert merged.status == plain.status == "proved"
    assert merged.uniform == plain.uniform
    assert merged.uniform is not None and merged.uniform.wins == (Fraction(1, 2),) * 2
    assert merged.exploration.stats.states * 2 - 1 == plain.exploration.stats.states


def test_ruby_rhino_seat_figures_are_exact_with_symmetry() -> None:
    """RR-TURN-01 (turns pass to the left) and RR-END-01: a built-in game's exact figures, each
    seat's own (seat 0 starts, RR-AMB-10 player-zero, and wins more often)."""
    engine = new_game("ruby-rhino", players=2, parameters=RHINO_TINY)
    merged, plain = _both(engine, RHINO_SEATS, (*RHINO_SUMMARY, "starter"))
    assert merged.status == plain.status == "proved", merged.violations
    assert merged.uniform == plain.uniform
    assert merged.uniform is not None and merged.uniform.exact
    assert merged.uniform.wins[0] > merged.uniform.wins[1]
    assert merged.exploration.stats.states * 2 == plain.exploration.stats.states


# Two searches of every option the configuration reaches: about two minutes.
@pytest.mark.integration
def test_ruby_rhino_seats_rotate_under_every_option() -> None:
    """RR-TURN-01, RR-ROUND-04 and every RR-AMB option a two-round configuration reaches
    (RR-AMB-10's and RR-AMB-11's rules of who starts among them), under the published view:
    with the declared symmetry each search is proved and gives every seat exactly the figures of
    the search without it, from no more states; rotations merge under most options."""
    spec = get_spec("ruby-rhino")
    setup = Setup(spec, engine_class(spec), 2, {}, (), {**RHINO_TINY, "target_score": 2})
    common: dict[str, Any] = {"view": RHINO_SUMMARY, "cross_check": 0}
    merged = verify_rulings(setup, Bounds(symmetry=RHINO_SEATS, **common), options=True)
    plain = verify_rulings(setup, Bounds(**common), options=True)
    pairs = [(merged.baseline, plain.baseline)]
    pairs += [(a.verification, b.verification) for a, b in zip(merged.options, plain.options,
                                                                 strict=True)
              if a.verification is not None and b.verification is not None]
    assert len(pairs) > 20
    for a, b in pairs:
        assert a.status == b.status == "proved", a.violations
        assert a.uniform == b.uniform
        assert a.exploration.stats.states <= b.exploration.stats.states
    rotated = [a for a, _ in pairs if a.exploration.stats.rotated_merges]
    assert len(rotated) * 2 > len(pairs)


# With the search on canonical states the default run makes (20,000 states): about 30 s.
@pytest.mark.integration
# Three seats solve about 3,600 states' figures twice: some 20 s, past the default run's budget.
@pytest.mark.integration
def test_ruby_rhino_three_seats_figures_are_the_same_with_symmetry() -> None:
    """RR-TURN-01 and RR-END-01 through the three rotations of three seats."""
    engine = new_game("ruby-rhino", players=3, parameters=RHINO_TINY)
    merged, plain = _both(engine, RHINO_SEATS, (*RHINO_SUMMARY, "starter"))
    assert merged.status == plain.status == "proved", merged.violations
    assert merged.uniform == plain.uniform
    assert merged.exploration.stats.states * 3 == plain.exploration.stats.states


# -- a game that favours a seat -------------------------------------------------------------------


def _favour_seat_zero(base: type[Engine]) -> type[Engine]:
    class Favoured(base):  # type: ignore[valid-type, misc]
        """Pig whose die rolls high more often for seat 0: not symmetric."""

        def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
            outcomes: list[tuple[Action, Fraction]] = super().chance_outcomes()
            if self.state()["phase"] != "roll" or self.state()["turn"] != 0:
                return outcomes
            (bust, p), (add, q) = outcomes
            return [(bust, p / 2), (add, q + p / 2)]

    return Favoured


def test_a_seat_favoured_by_the_engine_is_caught() -> None:
    """The merge check compares a state with its rotated representative one step ahead: an
    engine that favours seat 0 while the spec says the seats are alike is KEY-BEHAVIOUR, not a
    wrong figure."""
    _, pig_type = pig()
    engine = _pig({"PIG-AMB-01": "on-hold"}, _favour_seat_zero(pig_type), target_score=4)
    merged, plain = _both(engine, _pig_seats(), ON_HOLD_UNORDERED)
    assert plain.status == "proved"
    assert merged.status == "violated"
    assert merged.violations[0].kind == "KEY-BEHAVIOUR"
    assert merged.violations[0].other is not None


def test_without_symmetry_declared_nothing_is_rotated() -> None:
    explorer = Explorer(_pig({"PIG-AMB-01": "at-once"}), view=("relative(turns)",))
    found = explorer.run()
    assert found.rotation is None and len(found.rotations) == 0
    assert found.stats.rotated_merges == 0


def test_unfolding_puts_the_expanded_states_first() -> None:
    """A bounded search's frontier stays after every expanded state, as the solvers expect."""
    explorer = Explorer(_pig({"PIG-AMB-01": "at-once", "PIG-AMB-03": "chance-draw"}),
                        view=("relative(turns)",), symmetry=_pig_seats(), max_states=12)
    found = explorer.run()
    assert found.stopped == "max-states"
    out: StateStore = unfold(found.store, found.rotations, 2)
    assert 0 < out.expanded < len(out)
    assert all(out.parents[i] < i for i in range(1, len(out)))
    assert len(out.targets) >= len(found.store.targets)


# -- the command ----------------------------------------------------------------------------------


def test_the_report_says_symmetry_was_used_and_no_symmetry_turns_it_off() -> None:
    """PIG-AMB-03 chance-draw: with --symmetry the command merges the two draws (the spec
    declares the seats interchangeable) and says so; without it (the default, or --no-symmetry)
    it gives the same figures from twice the states."""
    import json

    from click.testing import CliRunner

    from rulespec.cli import cli
    from rulespec.spec.registry import registered_in_process

    pig()  # Pig's source tree on the path
    from rulespec_pig import GAME  # type: ignore[import-not-found, unused-ignore]

    args = ["verify", "pig", "-n", "2", "-p", "target_score=3", "-p",
            'die=[{"face": 1, "effect": "bust"}, {"face": 2, "effect": "add"}]',
            "-r", "PIG-AMB-01=at-once", "-r", "PIG-AMB-03=chance-draw", "-q", "--cross-check", "0"]
    with registered_in_process("pig", GAME):
        text = CliRunner().invoke(cli, [*args, "--symmetry"])
        merged = CliRunner().invoke(cli, [*args, "--format", "json", "--symmetry"])
        plain = CliRunner().invoke(cli, [*args, "--format", "json", "--no-symmetry"])
        default = CliRunner().invoke(cli, [*args, "--format", "json"])
    assert text.exit_code == 0, text.output
    assert "up to a rotation of the seats" in text.output
    assert "seat symmetry: 1 merges into another rotation of the seats" in text.output
    a, b = json.loads(merged.output), json.loads(plain.output)
    assert a["symmetry"]["rotated_merges"] == 1 and b["symmetry"] is None
    assert a["states"] * 2 - 1 == b["states"] == a["symmetry"]["states_as_reached"]
    assert a["uniform"] == b["uniform"]
    default_json = json.loads(default.output)
    assert default_json["symmetry"] is None and default_json["states"] == b["states"]
    assert default_json["uniform"] == b["uniform"]
