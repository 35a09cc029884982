"""An engine's ruling profile (``rulespec conform --infer``): which reading of each open question
it follows, at each player count, shown by the spec's witnesses.

For every record the engine's configuration reaches, the witnesses of all its options are played
on the engine configured as it declares (``rulespec.conformance.explain.witness_probes``); the option
whose witnesses hold is the one it follows. When the witnesses of every option fail, the engine
follows no option: a plain bug at the record's decision point, reported as such. Only where no
witness decides (none separates the options at that player count, or the engine is not
configurable for one) are games played (``rulespec.conformance.explain.profile_play``).

What the profile does not ask: records whose options change no play, records whose options are
the same at a player count (a table that differs only at 7 players), and, for an engine checked
as an older release, the records and options added after it (``rulespec.conformance.judging.versions``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from rulespec.conformance.engine.adapters import Adapter
from rulespec.conformance.engine.protocol import Hello
from rulespec.conformance.explain.inference import Reference
from rulespec.conformance.explain.profile_blame import Observe, Parting
from rulespec.conformance.explain.profile_play import PlayVerdict, infer_by_play
from rulespec.conformance.explain.profile_steer import Progress, Steered, start, steer
from rulespec.conformance.explain.witness_probes import (
    ProbeResult,
    Probes,
    WitnessBench,
    options_held,
)
from rulespec.conformance.judging.levels import projection
from rulespec.conformance.judging.versions import VersionView, view_for
from rulespec.examples.model import load_examples
from rulespec.examples.run import textual
from rulespec.reference.core import make_config
from rulespec.spec.model import Spec

PROFILE_FORMAT = "rulespec-ruling-profile/2"
#: Games played per player count where no witness decides, and their longest length.
PLAY_GAMES = 3
PLAY_STEPS = 400
#: Seconds the fallback play may take in all, and the witnesses and the play together: the
#: witnesses are quick, the play is what a slow engine makes slow.
PLAY_SECONDS = 5.0
PROFILE_SECONDS = 9.0
#: Seconds the steered games may take in all (``rulespec.conformance.explain.profile_steer``): spent
#: only where neither the witnesses nor the random games told a record's options apart.
STEER_SECONDS = 40.0
#: Reference actions each record's steered search may have played by the end of each round
#: (every record still open goes on with its search, round after round), while
#: ``STEER_SECONDS`` last.
STEER_ROUNDS = (15000, 60000, 200000)

Verdict = Literal["follows", "no-option", "unreached", "undecided", "same", "no-play", "newer",
                  "older"]


@dataclass(frozen=True)
class Finding:
    """What the profile found about one record at one player count."""

    record: str
    players: int
    verdict: Verdict
    #: The option the engine follows (``follows``), or the candidates left (``undecided``).
    options: tuple[str, ...] = ()
    #: ``witness``, ``play`` or ``steered`` (games searched for the record's decision point)
    #: for a ``follows`` verdict.
    by: str = ""
    witnesses: tuple[ProbeResult, ...] = ()
    note: str = ""
    #: Why the games played at this count cast doubt on it ("" when they do not).
    doubt: str = ""

    @property
    def option(self) -> str | None:
        """Return the option followed (None unless the verdict is ``follows``)."""
        return self.options[0] if self.verdict == "follows" else None

    def to_json(self) -> dict[str, Any]:
        """Return the finding as JSON."""
        return {"players": self.players, "verdict": self.verdict, "options": list(self.options),
                "by": self.by or None, "witnesses": [w.to_json() for w in self.witnesses],
                "note": self.note, "doubt": self.doubt or None}


@dataclass(frozen=True)
class Deviation:
    """An option the engine follows other than the configured one, and where."""

    record: str
    option: str
    #: Player counts where its witnesses show it, and where only the games played do.
    by_witness: tuple[int, ...]
    by_play: tuple[int, ...]
    #: Counts where the games played part from the reference under every reading tried, so
    #: a bug no ruling explains may have made the witness hold.
    unconfirmed: tuple[int, ...] = ()


@dataclass
class RulingProfile:
    """Per record and player count, the reading an engine follows."""

    game: str
    engine: str
    spec_version: str
    version: VersionView
    players: tuple[int, ...]
    level: str
    #: The rulings the engine is configured with (what it declares; defaults elsewhere).
    configured: dict[str, str]
    defaults: dict[str, str]
    #: Record -> its findings, one per player count, in spec order.
    findings: dict[str, list[Finding]] = field(default_factory=dict)
    play: list[PlayVerdict] = field(default_factory=list)
    #: The steered games' searches, one per record and player count they were needed at.
    steered: list[Steered] = field(default_factory=list)
    witnesses_run: int = 0
    seconds: float = 0.0

    def deviations(self) -> list[Deviation]:
        """Return every option the engine follows other than the configured one."""
        out = []
        for record, found in self.findings.items():
            by: dict[str, list[Finding]] = {}
            for f in found:
                if f.option is not None and f.option != self.configured[record]:
                    by.setdefault(f.option, []).append(f)
            out += [Deviation(record, option,
                              tuple(f.players for f in fs if f.by == "witness"),
                              tuple(f.players for f in fs if f.by in ("play", "steered")),
                              tuple(f.players for f in fs if f.doubt))
                    for option, fs in by.items()]
        return out

    def bugs(self) -> list[tuple[str, list[Finding]]]:
        """Return every record the engine follows no option of, with those findings."""
        out = []
        for record, found in self.findings.items():
            bad = [f for f in found if f.verdict == "no-option"]
            if bad:
                out.append((record, bad))
        return out

    def undecided(self) -> dict[str, list[int]]:
        """Return record -> the player counts where neither witness nor play told its options
        apart (the records whose options change no play, or are the same there, left out)."""
        out: dict[str, list[int]] = {}
        for record, found in self.findings.items():
            counts = [f.players for f in found if f.verdict == "undecided"]
            if counts:
                out[record] = counts
        return out

    def unreached(self) -> dict[str, list[int]]:
        """Return record -> the player counts where the engine fails its witnesses before the
        record's readings part (a bug elsewhere keeps the witness's position from being
        reached)."""
        out: dict[str, list[int]] = {}
        for record, found in self.findings.items():
            counts = [f.players for f in found if f.verdict == "unreached"]
            if counts:
                out[record] = counts
        return out

    def older(self) -> list[tuple[str, list[Finding]]]:
        """Return every record whose configured option the engine follows as the declared
        release specified it, before a MAJOR change altered what that option does, with those
        findings (not a bug of the release it declares)."""
        out = []
        for record, found in self.findings.items():
            old = [f for f in found if f.verdict == "older"]
            if old:
                out.append((record, old))
        return out

    def newer(self) -> list[str]:
        """Return the records not asked because they came after the release checked."""
        return [r for r, found in self.findings.items()
                if any(f.verdict == "newer" for f in found)]


# -- what is asked where ------------------------------------------------------------------------


def configured_rulings(spec: Spec, hello: Hello, asked: Mapping[str, str]) -> dict[str, str]:
    """Return the rulings the engine is configured with: those asked for, else the default when
    the engine declares it (or declares nothing for the record), else the first it declares."""
    declared = hello.games.get(spec.game_id, {}).get("rulings", {})
    out = {}
    for record, default in spec.default_rulings().items():
        options = list(declared.get(record) or [])
        if record in asked:
            out[record] = asked[record]
        elif options and default not in options:
            out[record] = str(options[0])
        else:
            out[record] = default
    return out


def player_counts(spec: Spec, hello: Hello, asked: Sequence[int]) -> tuple[int, ...]:
    """Return the player counts profiled: those asked for, else every count the engine plays."""
    if asked:
        return tuple(sorted(set(asked)))
    declared = hello.games.get(spec.game_id, {}).get("players")
    counts = range(spec.min_players, spec.max_players + 1)
    return tuple(n for n in counts if declared is None or n in declared)


def same_at(spec: Spec, record: str, players: int, rulings: Mapping[str, str],
            variants: Sequence[str] = ()) -> bool:
    """Return True when every option of ``record`` plays alike at ``players``: no option has a
    behaviour of its own, and their parameters agree once tables by player count are read at
    ``players`` (FOOL-AMB-03's Fools per trick differ only at 7 players)."""
    options = spec.ambiguities[record]["options"]
    if any(o.get("behaviour") for o in options):
        return False
    keys = {str(n) for n in range(spec.min_players, spec.max_players + 1)}

    def at_count(value: Any) -> Any:
        if isinstance(value, dict) and set(value) == keys:
            return value[str(players)]
        return value

    seen = []
    for option in options:
        config = make_config(spec, players=players, rulings={**rulings, record: str(option["id"])},
                             variants=variants)
        seen.append({k: at_count(v) for k, v in config.parameters.items()})
    return all(s == seen[0] for s in seen)


def _static(spec: Spec, record: str, players: int, view: VersionView,
            configured: Mapping[str, str], variants: Sequence[str]) -> Finding | None:
    """Return the finding for a record the engine need not be asked about, else None."""
    if textual(spec.ambiguities[record]):
        return Finding(record, players, "no-play", note="its options change no play")
    if record in view.held:
        return Finding(record, players, "newer",
                       note=f"added after {view.declared}, the release the engine is checked "
                            "as: held at its default, its witnesses not run")
    if same_at(spec, record, players, configured, variants):
        return Finding(record, players, "same",
                       note=f"its options play alike at {players} players")
    return None


# -- the witnesses ------------------------------------------------------------------------------


def judge(bench: WitnessBench, adapter: Adapter, record: str, players: int,
          believed: Mapping[str, str], configured: Mapping[str, str]) -> Finding:
    """Run the separating witnesses of ``record`` at ``players`` on the engine; say what it
    follows (and which witnesses were not run, and why)."""
    probes = bench.probes(record, players, believed, configured)
    finding = _verdict(bench, adapter, record, players, probes)
    if not probes.skipped:
        return finding
    skipped = "; ".join(f"{w}: {why}" for w, why in probes.skipped.items())
    return _note(finding, f"not run: {skipped}")


def _verdict(bench: WitnessBench, adapter: Adapter, record: str, players: int,
             probes: Probes) -> Finding:
    if not probes.found:
        if probes.skipped and not probes.not_separating:
            why = "its witnesses are not run on this engine"
        elif bench.witnesses(record):
            why = f"no witness separates its options at {players} players"
        else:
            why = "it has no witness"
        return Finding(record, players, "undecided", note=why)
    results = tuple(bench.run(adapter, p) for p in probes.found)
    held = options_held(results)
    if len(held) == 1:
        return Finding(record, players, "follows", (held[0],), "witness", results)
    if held:
        return Finding(record, players, "undecided", tuple(held), witnesses=results,
                       note="the witnesses of several options hold on this engine")
    newer = bench.view.added_options.get(record, frozenset())
    every = [str(o["id"]) for o in bench.spec.ambiguities[record]["options"]
             if o["id"] not in newer]
    refuted = {r.probe.option for r in results if not r.holds and not r.before_record}
    if refuted == set(every):
        return Finding(record, players, "no-option", witnesses=results,
                       note=f"the witness of every option fails at {players} players")
    early = [r for r in results if r.before_record]
    if early:
        first = early[0]
        return Finding(record, players, "unreached", witnesses=results,
                       note=f"witness {first.probe.example.id} fails before the record's "
                            f"readings part ({first.message}): a bug before its decision "
                            "point")
    unwitnessed = [o for o in every if o not in probes.options]
    return Finding(record, players, "undecided", tuple(unwitnessed), witnesses=results,
                   note=f"every witness run fails; {', '.join(unwitnessed)} has no witness "
                        f"at {players} players")


def _judge_count(bench: WitnessBench, adapter: Adapter, records: Sequence[str], players: int,
                 configured: Mapping[str, str]) -> dict[str, Finding]:
    """Judge every record at one player count, again under what the others were shown to
    follow, until that stops changing (a reading of one record can spoil another's witness)."""
    found: dict[str, Finding] = {}
    shown: dict[str, str] = {}
    pending = list(records)
    for _ in range(len(records) + 1):
        believed = {**configured, **shown}
        for record in pending:
            found[record] = judge(bench, adapter, record, players, believed, configured)
        now = {r: f.options[0] for r, f in found.items()
               if f.verdict == "follows" and f.options[0] != configured[r]}
        if now == shown:
            break
        shown = now
        # Asked again under what the others were shown to follow: every record not settled,
        # and every reading other than the configured one, which another record's reading may
        # have made its witness hold (FOOL-AMB-16's second Fool, when FOOL-AMB-03's reading
        # leaves one Fool at 7 players).
        pending = [r for r in records if found[r].verdict != "follows" or r in shown]
    return found


# -- the profile --------------------------------------------------------------------------------


def infer_ruling_profile(adapter: Adapter, spec: Spec, reference: Reference, *,
                         players: Sequence[int] = (), rulings: Mapping[str, str] | None = None,
                         variants: Sequence[str] = (), engine_name: str = "engine",
                         spec_version: str | None = None, games: int = PLAY_GAMES,
                         max_steps: int = PLAY_STEPS, seed: int = 0,
                         play_seconds: float = PLAY_SECONDS,
                         budget: float = PROFILE_SECONDS,
                         steer_seconds: float | None = None) -> RulingProfile:
    """Return the ruling profile of the engine behind ``adapter`` for ``spec``'s game.

    The witnesses come first, at every player count; then games are played (at most ``games``
    per count, ``max_steps`` long, ``play_seconds`` in all, and no longer than what is left of
    ``budget`` seconds for the whole profile) for what they leave open and to check them; and
    where a record is still not told apart, steered games (``profile_steer``, at most
    ``steer_seconds`` in all, reproducible with ``seed``) until it is or that budget ends.
    ``play_seconds=0`` plays no game at all: the witnesses alone; by default the steered games
    get ``STEER_SECONDS`` for the default ``PLAY_SECONDS``, in proportion to ``play_seconds``.
    """
    started = time.perf_counter()
    hello = adapter.hello()
    view = view_for(spec, hello, override=spec_version)
    hold = getattr(adapter, "hold", None)
    if callable(hold):
        hold(frozenset(view.held))
    configured = configured_rulings(spec, hello, dict(rulings or {}))
    bench = WitnessBench(spec, load_examples(spec), hello, view)
    profile = RulingProfile(spec.game_id, engine_name, spec.version, view,
                            player_counts(spec, hello, players), hello.level(spec.game_id),
                            configured, spec.default_rulings(),
                            {r: [] for r in spec.ambiguities})
    by_count: dict[int, dict[str, Finding]] = {}
    for n in profile.players:
        static = {r: _static(spec, r, n, view, configured, variants) for r in spec.ambiguities}
        asked = [r for r, f in static.items() if f is None]
        judged = _judge_count(bench, adapter, asked, n, configured)
        by_count[n] = {r: f if f is not None else judged[r] for r, f in static.items()}
    # Games are played at every count: for what the witnesses leave open, and to catch a bug
    # that coincides with another option in a witness's position. The budget is shared out,
    # each count getting its share of what is left, so a slow engine gets a game at each.
    left = budget - (time.perf_counter() - started)
    ends = time.monotonic() + max(0.0, min(play_seconds, left))
    observe = projection(spec, profile.level)
    for i, n in enumerate(profile.players):
        deadline = time.monotonic() + (ends - time.monotonic()) / (len(profile.players) - i)
        by_count[n] = _fall_back(adapter, spec, reference, by_count[n], profile, variants,
                                 observe, games=games, max_steps=max_steps, seed=seed,
                                 deadline=deadline)
    if play_seconds > 0:
        steering = (STEER_SECONDS * play_seconds / PLAY_SECONDS if steer_seconds is None
                    else steer_seconds)
        _steer(adapter, spec, reference, by_count, profile, variants, observe, seed=seed,
               max_steps=max_steps, deadline=time.monotonic() + steering)
    for n in profile.players:
        for record, finding in by_count[n].items():
            profile.findings[record].append(_older(finding, profile))
    profile.witnesses_run = bench.runs
    profile.seconds = time.perf_counter() - started
    return profile


def _fall_back(adapter: Adapter, spec: Spec, reference: Reference, found: dict[str, Finding],
               profile: RulingProfile, variants: Sequence[str], observe: Observe, *,
               games: int, max_steps: int, seed: int, deadline: float) -> dict[str, Finding]:
    """Play games at one player count: for the records the witnesses left open, and to check
    what they showed."""
    open_ = _open(found)
    n = next(iter(found.values())).players
    if time.monotonic() > deadline:
        return {r: _note(f, "no game played: the time budget ran out")
                if f.verdict == "undecided" else f for r, f in found.items()}
    shown = {r: f.options[0] for r, f in found.items() if f.verdict == "follows"}
    verdict = infer_by_play(adapter, spec, reference, players=n, configured=profile.configured,
                            shown=shown, records=open_, observe=observe, variants=variants,
                            games=games, max_steps=max_steps, seed=seed, deadline=deadline,
                            options={r: profile.version.options(spec, r)
                                     for r in spec.ambiguities})
    profile.play.append(verdict)
    out = dict(found)
    for record in open_:
        f = found[record]
        named = verdict.named(record)
        said = _play_note(verdict, record)
        if f.verdict == "no-option" or (f.verdict == "unreached" and named is None):
            out[record] = _note(f, said)
        elif named is not None:
            out[record] = Finding(record, n, "follows", (named,), "play", f.witnesses,
                                  f"{f.note}; {said}")
        else:
            out[record] = Finding(record, n, "undecided", verdict.consistent.get(record, ()),
                                  witnesses=f.witnesses, note=f"{f.note}; {said}")
    for record, parting in verdict.blamed().items():
        f = out[record]
        if f.verdict in ("follows", "undecided", "unreached"):
            out[record] = Finding(record, n, "no-option", (), "play", f.witnesses,
                                  _blame_note(f, parting))
    loose = [p for p in verdict.partings if len(p.records) != 1]
    if loose:
        doubt = (f"{loose[0].text()} under every reading tried: a bug no ruling explains may "
                 "make this witness hold")
        for record, f in out.items():
            if f.option is not None and f.option != profile.configured[record]:
                out[record] = replace(f, doubt=doubt)
    return out


def _steer(adapter: Adapter, spec: Spec, reference: Reference,
           by_count: dict[int, dict[str, Finding]], profile: RulingProfile,
           variants: Sequence[str], observe: Observe, *, seed: int, max_steps: int,
           deadline: float) -> None:
    """Play steered games for every record still not told apart, at every player count.

    In rounds (``STEER_ROUNDS``): each round lets the search of every record still open go on
    to a larger budget, so the records that are quick to tell apart are settled first and the
    rest get the longer searches while the time lasts. The records the engine was seen to
    part from its configured reading at another count (``suspects``) have every round first:
    an engine that plays a record otherwise at one count most likely does at the others, and
    their searches must not wait behind the many records an honest engine leaves open (that
    wait is what left OURO-AMB-17 undecided at 4 players on a loaded machine).
    """
    _confirm(adapter, spec, reference, by_count, profile, variants, observe, seed=seed,
             max_steps=max_steps, deadline=deadline)
    notes = {(n, r): f.note for n, found in by_count.items() for r, f in found.items()}
    settled: set[tuple[int, str]] = set()
    searches: dict[tuple[int, str], Steered] = {}
    going: dict[tuple[int, str], Progress] = {}
    first = suspects(by_count, profile.configured)
    offered = declared_variants(adapter, spec)
    passes = [(steps, True) for steps in STEER_ROUNDS] if first else []
    for steps, only_suspects in [*passes, *((steps, False) for steps in STEER_ROUNDS)]:
        pending = [(n, r) for n in profile.players for r, f in by_count[n].items()
                   if f.verdict == "undecided" and (n, r) not in settled
                   and (r in first or not only_suspects)]
        for n, record in pending:
            if time.monotonic() > deadline:
                break
            f = by_count[n][record]
            release = profile.version.options(spec, record)
            options = [o for o in f.options if o in release] if len(f.options) > 1 else release
            if len(options) < 2:
                settled.add((n, record))
                continue
            believed = {**profile.configured, **{r: g.options[0] for r, g in by_count[n].items()
                                                 if g.verdict == "follows"}}
            if (n, record) not in going:
                going[(n, record)] = start(spec, record, n, options, seed)
            on = record_variants(spec, record, variants)
            if not set(on) - set(variants) <= offered:
                settled.add((n, record))  # its variant is one the engine does not play
                missing = ", ".join(sorted(set(on) - set(variants)))
                by_count[n][record] = _note(f, f"{record} arises only under variant {missing}, "
                                               "which the engine does not declare: no steered game")
                continue
            search = steer(adapter, spec, reference, record=record, players=n,
                           options=options, configured=profile.configured, believed=believed,
                           variants=on, observe=observe, max_steps=max_steps,
                           steps=steps, deadline=deadline, progress=going[(n, record)])
            searches[(n, record)] = search
            note = f"{notes[(n, record)]}; {search.text()}"
            if search.option is not None:
                by_count[n][record] = Finding(record, n, "follows", (search.option,),
                                              "steered", f.witnesses, note)
                continue
            if search.stopped == "none" or not search.reached:
                settled.add((n, record))  # no reading fits, or the search cannot reach it
            by_count[n][record] = Finding(record, n, "undecided", search.options,
                                          witnesses=f.witnesses, note=note)
    profile.steered.extend(searches.values())


def record_variants(spec: Spec, record: str, variants: Sequence[str]) -> tuple[str, ...]:
    """Return the variants a steered game for ``record`` is played with: those asked, and the
    variants the record is about (its ``touches``), without which its question never arises
    (OURO-AMB-16, who buys a card in the gold fever)."""
    own = [str(t) for t in spec.ambiguities[record].get("touches") or ()
           if t in spec.variants and t not in variants]
    return (*variants, *own)


def declared_variants(adapter: Adapter, spec: Spec) -> set[str]:
    """Return the variants the engine declares for ``spec``'s game."""
    return set(adapter.hello().games.get(spec.game_id, {}).get("variants") or ())


def suspects(by_count: Mapping[int, Mapping[str, Finding]],
             configured: Mapping[str, str]) -> frozenset[str]:
    """Return the records the engine was seen, at some count, to play otherwise than it is
    configured: following another option, or none."""
    return frozenset(r for found in by_count.values() for r, f in found.items()
                     if f.verdict == "no-option"
                     or (f.verdict == "follows" and f.options[0] != configured[r]))


def _confirm(adapter: Adapter, spec: Spec, reference: Reference,
             by_count: dict[int, dict[str, Finding]], profile: RulingProfile,
             variants: Sequence[str], observe: Observe, *, seed: int, max_steps: int,
             deadline: float) -> None:
    """Check each reading a witness showed other than the configured one with a steered game
    between the two: another record's reading can make a witness hold in its one position
    (OURO-AMB-16's fever for everyone looks, there, like OURO-AMB-35's card that costs money).
    A steered game that shows the configured reading overrules the witness."""
    offered = declared_variants(adapter, spec)
    for n in profile.players:
        for record, f in list(by_count[n].items()):
            configured = profile.configured[record]
            if f.verdict != "follows" or f.by != "witness" or f.options[0] == configured:
                continue
            if time.monotonic() > deadline:
                return
            believed = {**profile.configured, **{r: g.options[0] for r, g in by_count[n].items()
                                                 if g.verdict == "follows" and r != record}}
            on = record_variants(spec, record, variants)
            search = steer(adapter, spec, reference, record=record, players=n,
                           options=[configured, f.options[0]], configured=profile.configured,
                           believed=believed, variants=on if set(on) <= offered | set(variants)
                           else variants, observe=observe, seed=seed,
                           max_steps=max_steps, steps=STEER_ROUNDS[1], deadline=deadline)
            profile.steered.append(search)
            if search.option == configured:
                by_count[n][record] = Finding(
                    record, n, "follows", (configured,), "steered", f.witnesses,
                    f"its witness shows {f.options[0]}, but {search.text()}: the witness's "
                    "position is reached otherwise (another record's reading)")
            elif search.option is not None:
                by_count[n][record] = replace(f, note=_join(f.note, search.text()))


def _join(note: str, more: str) -> str:
    return f"{note}; {more}" if note else more


def _older(finding: Finding, profile: RulingProfile) -> Finding:
    """Return ``finding`` as ``older`` when the engine follows no option of today's spec where a
    MAJOR change since the declared release altered what its configured option does, and what
    fails is that change's: a witness of the configured option that fails cites a clause the
    change cites (or the games played part at the record). The old behaviour is not played by
    today's reference, so the profile says exactly that, rather than calling it a bug."""
    if finding.verdict != "no-option":
        return finding
    option = profile.configured.get(finding.record, "")
    for change in profile.version.majors:
        ev = change.evidence
        options = (ev.records.get(finding.record) if ev is not None
                   else (() if finding.record in change.records else None))
        if options is None or (options and option not in options):
            continue
        failing = [w for w in finding.witnesses
                   if not w.holds and w.probe.option == option and not w.before_record]
        cited = any(set(w.probe.example.clauses) & set(change.clauses) for w in failing)
        if not (cited or (finding.by == "play" and not failing)):
            continue
        return replace(finding, verdict="older", options=(option,), note=(
            f"follows {finding.record} = {option} as {profile.version.declared} specified it: "
            f"{change.version} changed it ({change.rule}: {change.reason}); "
            f"today's reading fails here: {finding.note}"))
    return finding


def _blame_note(finding: Finding, parting: Parting) -> str:
    """Say why a record the witnesses (or nothing) decided is a bug after all."""
    shows = parting.shows.get(finding.record, ())
    game = (f"{parting.text()}, where the reference's readings of {finding.record} differ, and "
            + (f"only under {' or '.join(shows)} does the reference play that whole game"
               if shows else "no reading of it reproduces the game"))
    if finding.verdict == "follows" and finding.by == "witness":
        return f"its witnesses show {finding.options[0]}, but {game}"
    return game


def _open(found: Mapping[str, Finding]) -> list[str]:
    """Return the records the witnesses left open (undecided, or a bug play may say more of)."""
    return [r for r, f in found.items() if f.verdict in ("undecided", "unreached", "no-option")]


def _play_note(verdict: PlayVerdict, record: str) -> str:
    games = f"{verdict.games} game{'s' if verdict.games != 1 else ''} played"
    if not verdict.games:
        return verdict.note
    if verdict.unexplained:
        return (f"{games}, {verdict.unexplained} not reproduced under any reading tried (the "
                "engine also differs in ways no ruling explains)")
    options = verdict.consistent.get(record, ())
    if len(options) == 1:
        return f"{games} show {options[0]}"
    return f"{games} do not tell {', '.join(options)} apart"


def _note(finding: Finding, note: str) -> Finding:
    return replace(finding, note=f"{finding.note}; {note}" if finding.note else note)
