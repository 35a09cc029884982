"""Wider probing: out-of-range values, extra keys, wrong JSON types, unknown kinds, after the end."""

from __future__ import annotations

import json

import pytest

from rulespec.conformance.play.probes import ProbeMaker, after_end
from rulespec.reference.core import Rejection
from rulespec.reference.registry import new_game
from rulespec.spec.registry import get_spec


def _roll_families() -> tuple[list[dict[str, object]], dict[str, list[object]]]:
    engine = new_game("dado-de-ouro", players=4)
    legal = [a for a, _ in engine.chance_outcomes()]
    families = ProbeMaker(get_spec("dado-de-ouro")).families(legal, [], legal[0])
    by_family: dict[str, list[object]] = {}
    for fam in families:
        for p in fam:
            by_family.setdefault(p.family, []).append(p.action)
    return legal, by_family


def test_probes_try_a_die_face_the_die_does_not_have() -> None:
    """DDO-TURN-01: with a six-sided die, a roll of 9 is among the out-of-range probes."""
    _, by_family = _roll_families()
    faces = [a["face"] for a in by_family["out-of-range value"]
             if isinstance(a, dict)]
    assert 9 in faces and 7 in faces and 0 in faces


def test_probes_cover_every_family_and_are_never_legal() -> None:
    """Every family is present, and no probe equals a legal action (compared type-strictly)."""
    legal, by_family = _roll_families()
    assert {"out-of-range value", "extra key", "wrong JSON type", "missing key",
            "unknown kind"} <= set(by_family)
    legal_keys = {json.dumps(a, sort_keys=True) for a in legal}
    for actions in by_family.values():
        for a in actions:
            assert json.dumps(a, sort_keys=True) not in legal_keys, a
    wrong = by_family["wrong JSON type"]
    assert not any(isinstance(a, dict) and isinstance(a.get("face"), bool) for a in wrong)


def test_schema_breaking_probe_says_which_schema() -> None:
    """A probe with an extra key cites the action's params schema, not only the reference."""
    spec = get_spec("dado-de-ouro")
    maker = ProbeMaker(spec)
    _, by_family = _roll_families()
    extra = next(p for fam in maker.families([], [], by_family["extra key"][0])  # type: ignore[arg-type]
                 for p in fam if p.family == "extra key")
    why = maker.explain(extra, Rejection("not legal", ("DDO-TURN-01",)))
    assert "params schema of action 'roll'" in why.reason and why.clauses == ("DDO-TURN-01",)


def test_after_the_end_cites_the_end_clauses() -> None:
    """Any action after the game is over is illegal, citing the clauses that end the game."""
    probe, why = after_end({"kind": "roll", "player": 0, "face": 3}, ["DDO-MATCH-02"])
    assert probe.family == "after the end" and why.clauses == ("DDO-MATCH-02",)


def test_strict_key_is_equal_exactly_when_the_json_is() -> None:
    """The cheap probe key compares like canonical JSON: true is not 1, 1.0 is not 1."""
    from rulespec.conformance.play.probes import _jkey, strict_key

    values: list[object] = [
        {"kind": "roll", "face": 1}, {"kind": "roll", "face": True}, {"kind": "roll", "face": 1.0},
        {"kind": "roll", "face": "1"}, {"face": 1, "kind": "roll"}, {"kind": "roll", "face": [1]},
        {"kind": "roll", "face": None}, {"kind": "roll"}, {"kind": "roll", "face": -0.0},
        {"kind": "roll", "face": 0.0}, {"kind": "roll", "face": {"a": 1}}, [1], "roll", None,
    ]
    for a in values:
        for b in values:
            assert (strict_key(a) == strict_key(b)) == (_jkey(a) == _jkey(b)), (a, b)


def test_pick_is_the_chosen_family_of_families() -> None:
    """pick() returns the probe families() gives for the same choices (one family filtered)."""
    engine = new_game("dado-de-ouro", players=4)
    legal = [a for a, _ in engine.chance_outcomes()]
    maker = ProbeMaker(get_spec("dado-de-ouro"))
    earlier = [{"kind": "roll", "player": 0, "face": 9}, legal[0]]
    families = maker.families(legal, earlier, legal[0])
    for i in range(len(families)):
        for at in range(5):
            got = maker.pick(legal, earlier, legal[0], lambda n, i=i: i, at)  # type: ignore[misc]
            fam = families[i]
            assert got == (fam[at % len(fam)] if fam else None)


def test_pick_from_pool_is_pick_of_the_actions_not_legal_now() -> None:
    """The runner's probe (from the game's pool of actions, keyed by fast_key) is the probe
    pick() gives for the pool's actions that are not legal now, in every family, along random
    Fool and Ruby Rhino games (FOOL-FOLLOW-01 and RR-TURN-01: what is legal changes each step)."""
    import random

    from rulespec.conformance.engine.protocol import legal_of
    from rulespec.conformance.judging.verdicts import fast_key
    from rulespec.conformance.play.probes import ActionPool, strict_key

    for game, players in (("fool", 5), ("ruby-rhino", 3)):
        maker = ProbeMaker(get_spec(game))
        engine = new_game(game, players=players)
        rng = random.Random(3)
        pool: dict[object, dict[str, object]] = {}
        kept = ActionPool()
        checked = 0
        while engine.current_player() is not None and checked < 200:
            legal = legal_of(engine).actions
            keys = {fast_key(a) for a in legal}
            earlier = [a for k, a in pool.items() if k not in keys]
            template = legal[rng.randrange(len(legal))]
            families = maker.families(legal, earlier, template)
            legal_strict = {strict_key(a) for a in legal}
            for i in range(len(families)):
                at = rng.randrange(1000)

                def family(_n: int, i: int = i) -> int:
                    return i

                fam = families[i]
                want = fam[at % len(fam)] if fam else None
                # The runner's ActionPool and a plain mapping in the same order agree.
                for given in (pool, kept):
                    got = maker.pick_from_pool(legal, given, template, family, at)
                    assert got == want, (game, i, type(given).__name__)
                    assert got is None or strict_key(got.action) not in legal_strict
            action = legal[rng.randrange(len(legal))]
            pool.setdefault(fast_key(action), action)
            kept.add(action)
            engine.apply(action)
            checked += 1


def test_has_range_says_when_out_of_range_has_values() -> None:
    """The cheap test of whether the out-of-range family is empty agrees with building it."""
    from rulespec.conformance.play.probes import has_range, out_of_range

    samples: list[list[object]] = [[], [None], [True, False], [1.5], ["a"], [1, True], [0],
                                   [None, "x"], [[1]], [{"a": 1}], [2.0, 3], [False, "b", 1]]
    for values in samples:
        assert has_range(values) == bool(out_of_range(values, {"maximum": 6})), values


def test_action_pool_without_legal_is_the_pool_in_order() -> None:
    """ActionPool.not_legal keeps the pool's order and skips exactly the legal actions' keys,
    indexing and iterating alike (the 'wrong time' probes, FOOL-FOLLOW-01)."""
    from rulespec.conformance.play.probes import ActionPool

    pool = ActionPool()
    actions = [{"kind": "play", "card": n} for n in range(10)]
    for a in [*actions, dict(actions[3])]:  # a repeat is kept once
        pool.add(a)
    assert len(pool) == 10
    legal = [actions[0], actions[4], actions[9], {"kind": "play", "card": 99}]
    rest = pool.not_legal(legal)
    want = [a for a in actions if a not in legal]
    assert list(rest) == want
    assert [rest[i] for i in range(len(rest))] == want
    assert rest[-1] == want[-1] and rest[1:3] == want[1:3]
    with pytest.raises(IndexError):
        rest[len(want)]
    assert list(pool.not_legal([])) == actions
    assert len(pool.not_legal(actions)) == 0
