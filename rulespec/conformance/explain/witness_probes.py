"""Witness probes: the rule examples that tell a record's options apart, run on an engine.

A witness of option O of an ambiguity record holds under O and fails under every other option
of the record on the reference (the spec's own tests check it). Played on an engine that is
*configured* with the record's usual option, a witness tells which reading the engine follows:
the one whose witness holds. That is exact (one position, the rule's own demand), deterministic
and fast (a few dozen actions), unlike inferring a ruling from random games.

A witness is written for one player count. It is also tried at the others: wherever it still
separates the record's options on the reference (its words still make sense, its expectations
still hold under its option and only under it), it is a probe at that count too.

The moves are expanded on the reference under the witness's option, with every other record
as the engine is believed to play it (its configured rulings, overlaid with what the witnesses
already showed it follows), so that a reading found elsewhere does not spoil this record's
witnesses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import EngineError, Hello
from rulespec.conformance.judging.levels import projection
from rulespec.conformance.judging.versions import VersionView
from rulespec.examples.model import Example, ExampleFile
from rulespec.examples.position import Move
from rulespec.examples.run import Outcome, check_expectations, odds, run_example
from rulespec.reference.core import ConfigError, config_from_json
from rulespec.reference.registry import engine_class
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec


@dataclass(frozen=True)
class Probe:
    """One witness, ready to run on the engine at one player count."""

    example: Example
    record: str
    option: str
    players: int
    #: The configuration sent to the engine: the record at its configured option.
    config: Mapping[str, Any]
    #: The witness run on the reference under its option (its moves, expanded).
    outcome: Outcome
    #: True when the example is written for another player count.
    transplanted: bool = False
    #: The first move at which the record's readings part on the reference (the number of
    #: moves when only the expectations tell them apart): a failure before it is not the
    #: record's.
    parts_at: int = 0


@dataclass(frozen=True)
class ProbeResult:
    """A witness run on the engine: did it hold, and if not, why."""

    probe: Probe
    holds: bool
    message: str = ""
    #: The move the engine got wrong (-1: it refused the configuration; None: it made every
    #: move, and an expectation failed or all held).
    move: int | None = None

    @property
    def before_record(self) -> bool:
        """Return True when the engine failed where every reading of the record agrees: the
        witness's position is not reached, and the failure says nothing of the record."""
        return not self.holds and self.move is not None and self.move < self.probe.parts_at

    def to_json(self) -> dict[str, Any]:
        """Return the run as JSON."""
        p = self.probe
        return {"example": p.example.id, "option": p.option, "players": p.players,
                "holds": self.holds, "message": self.message, "transplanted": p.transplanted,
                "before_record": self.before_record}


@dataclass
class Probes:
    """The separating witnesses of one record at one player count, and why others are not run."""

    record: str
    players: int
    found: list[Probe] = field(default_factory=list)
    #: Witness id -> why it is not run on this engine (newer than its release, unsupported).
    skipped: dict[str, str] = field(default_factory=dict)
    #: Witnesses of the record that do not separate its options at this count.
    not_separating: list[str] = field(default_factory=list)

    @property
    def options(self) -> set[str]:
        """Return the options that have at least one probe."""
        return {p.option for p in self.found}


class WitnessBench:
    """Find, per record and player count, the witnesses that separate its options; run them."""

    def __init__(self, spec: Spec, file: ExampleFile, hello: Hello, view: VersionView) -> None:
        self.spec = spec
        self.file = file
        self.hello = hello
        self.view = view
        self.level = hello.level(spec.game_id)
        self._observe = projection(spec, self.level)
        self._outcomes: dict[tuple[str, int, str], Outcome] = {}
        #: Witness runs on the engine so far.
        self.runs = 0

    def witnesses(self, record: str) -> list[Example]:
        """Return the witnesses of ``record``, in file order."""
        return [e for e in self.file.examples
                if e.witness is not None and e.witness.ambiguity == record]

    def probes(self, record: str, players: int, believed: Mapping[str, str],
               configured: Mapping[str, str]) -> Probes:
        """Return the witnesses of ``record`` that separate its options at ``players``.

        ``believed`` are the rulings the reference expands the moves under (the engine's
        configured rulings overlaid with what it was shown to follow); ``configured`` are those
        sent to the engine.
        """
        out = Probes(record, players)
        added = self.view.added_options.get(record, frozenset())
        for example in self.witnesses(record):
            option = example.witness.option if example.witness else ""
            if option in added:
                out.skipped[example.id] = (f"option {option} was added after "
                                           f"{self.view.declared}, the release the engine is "
                                           "checked as")
                continue
            probe, why = self._probe(example, record, option, players, believed, configured)
            if probe is not None:
                out.found.append(probe)
            elif why:
                out.skipped[example.id] = why
            else:
                out.not_separating.append(example.id)
        return out

    def _probe(self, example: Example, record: str, option: str, players: int,
               believed: Mapping[str, str], configured: Mapping[str, str]
               ) -> tuple[Probe | None, str]:
        """Return the probe (or None), and why it cannot run on this engine ("" if it could)."""
        own_rulings = dict(example.config.get("rulings", {}))
        try:
            own_players = config_from_json(self.spec, example.config_json(self.spec.game_id)).players
        except ConfigError:
            return None, ""
        moved = example if own_players == players else replace(
            example, config={**example.config, "players": players})
        outcome = self._separating(moved, record, option, believed, own_rulings)
        if outcome is None:
            return None, ""
        try:
            sent = config_from_json(self.spec, {
                **moved.config_json(self.spec.game_id), "rulings": {
                    **{a: o for a, o in configured.items() if a not in own_rulings},
                    **own_rulings}}).to_json()
        except ConfigError:
            return None, ""
        why = self.view.newer(sent) or "; ".join(self.hello.supports(
            self.spec.game_id, sent["rulings"], sent["variants"], players=players,
            parameters=sent["parameters"]))
        if why:
            return None, why
        parts_at = self._parting_move(moved, record, option, believed, own_rulings, outcome)
        return Probe(example, record, option, players, sent, outcome,
                     own_players != players, parts_at), ""

    def _separating(self, example: Example, record: str, option: str,
                    believed: Mapping[str, str], own: Mapping[str, str]) -> Outcome | None:
        """Return the witness's run under its option when it separates the record's options at
        its configuration (it holds under its option and under no other), else None."""
        base = {a: o for a, o in believed.items() if a not in own and a != record}
        mine: Outcome | None = None
        for opt in (str(o["id"]) for o in self.spec.ambiguities[record]["options"]):
            outcome = self._run_on_reference(example, {**base, record: opt})
            if outcome.ok != (opt == option):
                return None
            if opt == option:
                mine = outcome
        return mine

    def _parting_move(self, example: Example, record: str, option: str,
                      believed: Mapping[str, str], own: Mapping[str, str],
                      outcome: Outcome) -> int:
        """Return the first move of ``outcome`` at which another reading of ``record`` does
        otherwise on the reference (refuses it, or is left in another state after it)."""
        base = {a: o for a, o in believed.items() if a not in own and a != record}
        moves = [*outcome.setup, *outcome.steps]
        mine = self._trail(example, {**base, record: option}, moves)
        first = len(moves)
        for opt in (str(o["id"]) for o in self.spec.ambiguities[record]["options"]):
            if opt == option:
                continue
            other = self._trail(example, {**base, record: opt}, moves)
            if not other:
                return 0
            for k, (a, b) in enumerate(zip(mine, other, strict=False)):
                if a != b:
                    # Entry k > 0 follows move k - 1 and records whether it was made: a reading
                    # that refuses move k - 1 parts there; one that only leaves another state
                    # parts at the next move.
                    first = min(first, k - 1 if k and a[0] != b[0] else k)
                    break
        return first

    def _trail(self, example: Example, rulings: Mapping[str, str],
               moves: Sequence[Move]) -> list[tuple[bool, Any, Any]]:
        """Return (accepted, state, legal) at the start and after each move, on the reference,
        up to the first move it does not make as the witness does."""
        try:
            config = config_from_json(self.spec, example.config_json(self.spec.game_id, rulings))
            engine = engine_class(self.spec)(self.spec, config)
        except ConfigError:
            return []
        out: list[tuple[bool, Any, Any]] = [(True, engine.state(), engine.legal_actions())]
        for move in moves:
            if move.kind == "refuse":
                ok = not engine.is_legal(move.action)
            else:
                try:
                    engine.apply(move.action)
                    ok = True
                except RulespecError:
                    ok = False
            out.append((ok, engine.state(), engine.legal_actions()))
            if not ok:
                break
        return out

    def _run_on_reference(self, example: Example, rulings: Mapping[str, str]) -> Outcome:
        key = (example.id, int(example.config.get("players", 0)),
               repr(sorted(rulings.items())))
        if key not in self._outcomes:
            self._outcomes[key] = run_example(self.spec, example,
                                              words_module=self.file.vocabulary,
                                              rulings=rulings)
        return self._outcomes[key]

    def run(self, adapter: Adapter, probe: Probe) -> ProbeResult:
        """Play ``probe`` on the engine; say whether the witness holds there.

        EngineFailure (the engine died or broke the protocol) is not caught: nothing more can
        be learnt from that engine.
        """
        self.runs += 1
        try:
            return self._run(adapter, probe)
        except EngineError as exc:
            return ProbeResult(probe, False, f"the engine answered with an error: {exc}")
        except ConfigError as exc:
            return ProbeResult(probe, False, f"the engine refused the configuration: {exc}", -1)

    def _run(self, adapter: Adapter, probe: Probe) -> ProbeResult:
        outcome = probe.outcome
        moves = [*outcome.setup, *outcome.steps]
        adapter.start(probe.config)
        prev: dict[str, Any] = adapter.state()
        for i, move in enumerate(moves):
            if i == len(outcome.setup):
                prev = adapter.state()
            problem = _play(adapter, move)
            if problem is not None:
                return ProbeResult(probe, False, f"move {i + 1}: {problem}", i)
        if not outcome.steps:
            prev = adapter.state()
        state = adapter.state()
        legal = adapter.legal()
        variables = {"state": self._observe(state), "prev": self._observe(prev),
                     "result": state.get("result"), "legal": legal.actions, "actor": legal.actor,
                     "odds": odds(list(zip(legal.actions, legal.probabilities or [],
                                           strict=False)))}
        failed, why = check_expectations(probe.example.expect, variables, level=self.level)
        return ProbeResult(probe, failed is None, why)


def _play(adapter: Adapter, move: Move) -> str | None:
    """Play one move; say what went wrong (None when the engine did as the witness demands)."""
    if move.kind == "refuse":
        before = adapter.state()
        if adapter.apply(move.action) is None:
            return f"{move.action!r} was accepted, but this reading forbids it here"
        if adapter.state() != before:
            return f"refusing {move.action!r} changed the state"
        return None
    rejection = adapter.apply(move.action)
    if rejection is not None:
        return f"{move.action!r} was refused ({rejection.reason}), but this reading allows it"
    return None


def options_held(results: Sequence[ProbeResult]) -> list[str]:
    """Return the options every witness of which held on the engine."""
    held: dict[str, bool] = {}
    for r in results:
        held[r.probe.option] = held.get(r.probe.option, True) and r.holds
    return [o for o, ok in held.items() if ok]
