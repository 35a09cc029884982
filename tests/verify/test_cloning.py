"""The explorer's engine copies share the constant tables, and nothing else.

``rulespec.verify.cloning``: a search with sharing finds the same graph as one without (same
states, fingerprints, edges and probabilities), and a shared object an engine changes in place
is given back its contents for every other engine at once.
"""

from __future__ import annotations

from typing import Any

from rulespec.reference.core import Engine
from rulespec.verify.cloning import Cloner
from rulespec.verify.explore import Explorer
from tests.verify.support import PIG_ON_HOLD, rhino_engine
from tests.verify.support import pig_engine as _pig_engine


def pig_engine(rulings: dict[str, str] | None = None) -> Engine:
    """Return the coin-die Pig copied by ``Engine.clone`` with nothing declared shared (Pig
    itself declares its tables ``SHARED`` and copies itself): what the cloner has to find."""
    engine: Any = _pig_engine(rulings)

    class PlainPig(type(engine)):  # type: ignore[misc]
        SHARED: frozenset[str] = frozenset()
        clone = Engine.clone

    plain = PlainPig.__new__(PlainPig)
    plain.__dict__.update(engine.__dict__)
    return plain


def _graph(ex: Explorer) -> tuple[list[int], list[int], list[int], list[str]]:
    result = ex.run()
    store = result.store
    return (list(store.fingerprints), list(store.targets), list(store.offsets),
            [str(p) for p in store.probabilities])


def test_pig_shares_its_die_and_explores_the_same_graph() -> None:
    """PIG-TURN-04, PIG-TURN-05: the coin-die Pig under on-hold, every state and edge alike
    with and without sharing."""
    engine = pig_engine({"PIG-AMB-01": "on-hold"})
    shared = Explorer(engine, view=PIG_ON_HOLD)
    assert "_die_outcomes" in shared.cloner.shared
    plain = Explorer(engine, view=PIG_ON_HOLD, share=False)
    assert not plain.cloner.shared
    assert _graph(shared) == _graph(plain)


def test_ruby_rhino_explores_the_same_graph_with_sharing() -> None:
    engine = rhino_engine()
    view = ("history", "relative(round)")
    assert _graph(Explorer(engine, view=view, max_states=3000)) == _graph(
        Explorer(engine, view=view, max_states=3000, share=False))


def test_a_shared_table_changed_in_place_is_restored_for_the_others() -> None:
    engine = pig_engine()
    cloner = Cloner(engine)
    parent = cloner.adopt(engine)
    table = cloner.shared["_effects"]
    child = cloner.clone(parent)
    assert child._effects is table  # type: ignore[attr-defined]
    child._effects[99] = "add"  # type: ignore[attr-defined]  # as an engine's apply might
    cloner.check(child)
    assert 99 not in parent._effects  # type: ignore[attr-defined]
    assert child._effects[99] == "add"  # type: ignore[attr-defined]
    assert child._effects is not table  # type: ignore[attr-defined]
    assert "_effects" not in cloner.shared and cloner.changed == ["_effects"]
    assert cloner.clone(parent)._effects is not table  # type: ignore[attr-defined]


def test_a_constant_the_engine_rebinds_is_memory() -> None:
    """Found by an audit: a table that held one value throughout the probe games is shared and
    left out of an engine's memory; an engine that rebinds it to a table of its own (play the
    probes never reached) must not have the memory of one that still holds the shared table,
    or a merged engine could reuse the digest of one that plays otherwise. The shared table's
    own holders keep it out of memory."""
    engine = pig_engine()
    cloner = Cloner(engine)
    assert "_effects" in cloner.shared
    one = cloner.adopt(engine)
    other = cloner.clone(one)
    assert cloner.memory(one) == cloner.memory(other)  # both hold the shared table
    other._effects = {**cloner.shared["_effects"], 99: "add"}  # type: ignore[attr-defined]
    cloner.check(other)  # rebound, not changed in place: still shared for the others
    assert "_effects" in cloner.shared and not cloner.changed
    assert cloner.memory(one) != cloner.memory(other)
    again = cloner.clone(other)
    assert cloner.memory(again) == cloner.memory(other)  # the copy holds the same own table


def test_a_game_with_its_own_clone_is_copied_by_it() -> None:
    engine = pig_engine()
    calls: list[int] = []

    class OwnClone(type(engine)):  # type: ignore[misc]
        def clone(self):  # type: ignore[no-untyped-def]
            calls.append(1)
            return super().clone()

    own = OwnClone(engine.spec, engine.config)
    cloner = Cloner(own)
    assert not cloner.shared
    cloner.clone(own)
    assert calls
