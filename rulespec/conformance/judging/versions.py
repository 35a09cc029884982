"""The spec version an engine declares, and what the kit does with it.

An engine says in ``hello`` which release of a game's spec it implements
(``games.<game>.spec_version``). The policy (``docs/editors/versioning.md``) promises that an
engine conformant to X.Y stays conformant to every later X.Z when it declares X.Y, so the kit
checks it as that release would have:

- records added after the declared release are held at their default (which, by the policy, is
  the behaviour the release specified) and left out of ``start``, so an engine that refuses
  rulings it does not know is not refused for a record it could not have known;
- configurations, rule examples and golden traces that need something newer (a non-default
  option of such a record, a new option, variant or parameter) are skipped and counted, as
  test262 skips the features an implementation does not declare;
- the MAJOR changes between the declared release and today's spec are listed in the report's
  header, and a failure says "this behaviour changed in X" only when the change can produce it
  (``rulespec.conformance.judging.change_evidence``): an action's schema change only on an action whose
  validity it changes, a parameter's only on a configuration that sets it, a declared behaviour
  change only where the failing game reaches the record it names;
- explanations speak the declared release's terms: a ruling that names a record or an option
  added after it is not offered as the engine's reading, only as "also possible if you move to
  X" (``VersionView.explain``).

No declared version means today's spec; a version the game never released is an error naming
its releases. ``rulespec conform --spec-version`` checks against an older release on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulespec.conformance.engine.protocol import Hello

# Defined beside the evidence it carries; the kit's name for it is rulespec.conformance.judging.versions.
from rulespec.conformance.judging.change_evidence import MajorChange as MajorChange  # noqa: PLC0414
from rulespec.conformance.judging.checks import Failure
from rulespec.exitcodes import EXIT_USAGE
from rulespec.releases.diff import diff_specs
from rulespec.releases.store import (
    UnknownRelease,
    parse_version,
    release_spec,
    releases,
)
from rulespec.spec.errors import RulespecError
from rulespec.spec.model import Spec

#: How an explanation names a ruling of a later release (``VersionView.explain``): the text
#: report prints what follows it on a line of its own.
ALSO_LATER = "also possible if you move to "


class UnknownSpecVersion(RulespecError):
    """An engine (or ``--spec-version``) names a version the game never released."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class VersionView:
    """The release an engine is checked as, against today's spec of the same game."""

    game: str
    #: The version the engine is checked as.
    declared: str
    #: Today's ``spec_version``.
    current: str
    #: Where ``declared`` comes from: the engine's hello, ``--spec-version``, or nobody.
    source: str
    #: Records added after ``declared``: id -> today's default option (held, not sent).
    held: Mapping[str, str] = field(default_factory=dict)
    #: Options added after ``declared`` to records the release had.
    added_options: Mapping[str, frozenset[str]] = field(default_factory=dict)
    added_variants: frozenset[str] = frozenset()
    added_parameters: frozenset[str] = frozenset()
    majors: tuple[MajorChange, ...] = ()
    #: The release that added each held record (``REC``) and each added option (``REC=opt``).
    added_in: Mapping[str, str] = field(default_factory=dict)
    #: Today's spec (None in views built by hand): what the evidence of a change replays on.
    spec: Spec | None = field(default=None, compare=False, repr=False)

    @property
    def today(self) -> bool:
        """Return True when the engine is checked as today's spec (nothing held or skipped)."""
        return self.declared == self.current

    def newer(self, config: Mapping[str, Any]) -> str | None:
        """Say what ``config`` needs that came after the declared release (None: nothing)."""
        if self.today:
            return None
        wants = [f"{amb}={opt}" for amb, opt in sorted(dict(config.get("rulings") or {}).items())
                 if (amb in self.held and opt != self.held[amb])
                 or opt in self.added_options.get(amb, frozenset())]
        wants += [f"variant {v}" for v in config.get("variants") or () if v in self.added_variants]
        wants += [f"parameter {p}" for p in sorted(dict(config.get("parameters") or {}))
                  if p in self.added_parameters]
        if not wants:
            return None
        return (f"needs {', '.join(wants)}, added after {self.declared} (the version the "
                f"engine is checked as)")

    def later(self, record: str, option: str) -> str | None:
        """Return the release that added ``record`` or its ``option`` after the declared one
        (None: the declared release has both)."""
        if self.today:
            return None
        if record in self.held:
            return self.added_in.get(record, self.current)
        if option in self.added_options.get(record, frozenset()):
            return self.added_in.get(f"{record}={option}", self.current)
        return None

    def in_release(self, match: Mapping[str, str]) -> bool:
        """Return True when every record and option of ``match`` is in the declared release."""
        return all(self.later(a, o) is None for a, o in match.items())

    def options(self, spec: Spec, record: str) -> list[str]:
        """Return the options of ``record`` the declared release has, in spec order (none for
        a record added after it)."""
        if record in self.held:
            return []
        newer = self.added_options.get(record, frozenset())
        return [str(o["id"]) for o in spec.ambiguities[record]["options"]
                if str(o["id"]) not in newer]

    def touching(self, failure: Failure) -> tuple[str, ...]:
        """Return a sentence for each MAJOR change that can produce ``failure``.

        Sharing a clause is not enough: the change must touch what differs (an action whose
        validity its schema change alters, a parameter the configuration sets, a record the
        failing game reaches under the option it changed), as
        ``rulespec.conformance.judging.change_evidence`` decides.
        """
        from rulespec.conformance.judging.change_evidence import produces

        return tuple(self._changed_text(change) for change in self.majors
                     if produces(change, failure, self.spec))

    def _changed_text(self, change: MajorChange) -> str:
        """Say a change that can produce a failure; one that declares a behaviour no longer
        played says the engine may follow the declared release there."""
        text = f"this behaviour changed in {change.version} ({change.rule}): {change.reason}"
        if change.rule == "BEHAVIOUR_DECLARED":
            text += (f" The engine may follow what {self.declared} specified here, which "
                     "today's reference no longer plays.")
        return text

    def explain(self, failure: Failure) -> Failure:
        """Return ``failure`` in the declared release's terms: the rulings of a later release
        moved out of ``matches`` into an "also possible if you move to X" note, and the MAJOR
        changes that can produce it named (``changed``)."""
        if self.today:
            return failure
        kept = tuple(m for m in failure.matches if self.in_release(m))
        if len(kept) < len(failure.matches):
            later = [m for m in failure.matches if not self.in_release(m)]
            failure = replace(failure, matches=kept,
                              inference=_with_later(failure.inference, self.later_text(later)))
        changed = self.touching(failure)
        return replace(failure, changed=changed) if changed else failure

    def later_text(self, matches: Sequence[Mapping[str, str]]) -> str:
        """Say the rulings of later releases: ``also possible if you move to 1.2.0: ...``."""
        by: dict[str, list[str]] = {}
        for match in matches:
            version = max((self.later(a, o) or self.declared for a, o in match.items()),
                          key=parse_version)
            by.setdefault(version, []).append(" with ".join(f"{a} = {o}"
                                                            for a, o in sorted(match.items())))
        return "; ".join(f"{ALSO_LATER}{v}: {' or '.join(names)} (not in {self.declared})"
                         for v, names in sorted(by.items(), key=lambda x: parse_version(x[0])))

    def header(self) -> list[str]:
        """Return the report's lines about the version checked."""
        if self.today:
            return []
        out = [f"checked as {self.game} {self.declared} ({self.source}); today's spec is "
               f"{self.current}"]
        if self.held:
            out.append("  held at their default and not sent in start (added after "
                       f"{self.declared}): " + ", ".join(f"{a}={o}" for a, o in
                                                       sorted(self.held.items())))
        if self.majors:
            out.append(f"  MAJOR changes since {self.declared} (an engine written for it may "
                       "differ here):")
            out.extend(f"    {m.text()}" for m in self.majors)
        else:
            out.append(f"  no MAJOR change since {self.declared}: an engine conformant to it "
                       "stays conformant")
        return out

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON (the report's ``spec_checked`` object)."""
        return {"declared": self.declared, "current": self.current, "source": self.source,
                "held": dict(sorted(self.held.items())),
                "added_options": {a: sorted(o) for a, o in sorted(self.added_options.items())},
                "added_variants": sorted(self.added_variants),
                "added_parameters": sorted(self.added_parameters),
                "majors": [m.to_json() for m in self.majors]}


def today(spec: Spec, source: str = "today's spec") -> VersionView:
    """Return the view of an engine checked as today's spec."""
    return VersionView(spec.game_id, spec.version, spec.version, source)


def declared_version(hello: Hello, game: str) -> str | None:
    """Return the ``spec_version`` the engine declares for ``game`` (None: it declares none)."""
    info = hello.games.get(game) or {}
    found = info.get("spec_version")
    return found if isinstance(found, str) and found else None


def view_for(spec: Spec, hello: Hello | None, *, override: str | None = None) -> VersionView:
    """Return the release the engine behind ``hello`` is checked as, against today's ``spec``.

    ``override`` (``--spec-version``) wins over what the engine declares.
    """
    if override is not None:
        version, source = override, "--spec-version"
    else:
        found = declared_version(hello, spec.game_id) if hello is not None else None
        if found is None:
            return today(spec, "the engine declares no spec_version: today's")
        version, source = found, "as the engine declares"
    if version == spec.version:
        return today(spec, source)
    known = [r.version for r in releases(spec.game_id)]
    if version not in known:
        listed = ", ".join(known) or "none"
        raise UnknownSpecVersion(
            f"{spec.game_id}: spec_version {version!r} ({source}) is not a release of "
            f"{spec.game_id} (its releases: {listed}); declare one of them, or leave "
            "spec_version out to be checked against today's spec")
    if parse_version(version) > parse_version(spec.version):
        raise UnknownSpecVersion(
            f"{spec.game_id}: spec_version {version!r} ({source}) is newer than this "
            f"rulespec's spec ({spec.version}); upgrade rulespec to check against it")
    try:
        old = release_spec(spec.game_id, version)
    except UnknownRelease as exc:
        raise UnknownSpecVersion(str(exc)) from None
    return VersionView(spec.game_id, version, spec.version, source,
                       held=_held(old, spec), added_options=_added_options(old, spec),
                       added_variants=frozenset(spec.variants) - frozenset(old.variants),
                       added_parameters=frozenset(spec.parameters) - frozenset(old.parameters),
                       majors=tuple(_majors(spec, version)), added_in=_added_in(spec, version),
                       spec=spec)


def _held(old: Spec, new: Spec) -> dict[str, str]:
    defaults = new.default_rulings()
    return {aid: defaults[aid] for aid in new.ambiguities if aid not in old.ambiguities}


def _added_options(old: Spec, new: Spec) -> dict[str, frozenset[str]]:
    out = {}
    for aid, record in new.ambiguities.items():
        if aid not in old.ambiguities:
            continue
        before = {str(o["id"]) for o in old.ambiguities[aid].get("options") or ()}
        added = {str(o["id"]) for o in record.get("options") or ()} - before
        if added:
            out[aid] = frozenset(added)
    return out


def _with_later(note: str | None, later: str) -> str:
    """Return the inference note with what a later release would explain added."""
    if note and ALSO_LATER in note:
        note = note.split(f"; {ALSO_LATER}")[0]
    return f"{note}; {later}" if note else later


def _added_in(spec: Spec, declared: str) -> dict[str, str]:
    """Return, for each record (``REC``) and option (``REC=opt``) added after ``declared``,
    the first release that has it (today's, when no frozen release in between does)."""
    low = parse_version(declared)
    seen = release_spec(spec.game_id, declared)
    have = {aid: {str(o["id"]) for o in rec.get("options") or ()}
            for aid, rec in seen.ambiguities.items()}
    out: dict[str, str] = {}
    later: list[tuple[str, Spec]] = []
    for item in releases(spec.game_id):
        if low < item.key < parse_version(spec.version):
            try:
                later.append((item.version, release_spec(spec.game_id, item.version)))
            except UnknownRelease:
                continue
    later.append((spec.version, spec))
    for version, each in later:
        for aid, rec in each.ambiguities.items():
            if aid not in have:
                out.setdefault(aid, version)
                have[aid] = set()
            for option in (str(o["id"]) for o in rec.get("options") or ()):
                if option not in have[aid]:
                    out.setdefault(f"{aid}={option}", version)
                    have[aid].add(option)
    return out


def _majors(spec: Spec, declared: str) -> list[MajorChange]:
    """Return the MAJOR changes from release ``declared`` to today's ``spec``, by release.

    Consecutive frozen releases are compared (text, declared behaviour changes and replayed
    evidence), then the newest frozen one with today's spec; a change is dated by the later
    side of the pair it shows in.
    """
    low, high = parse_version(declared), parse_version(spec.version)
    steps: list[tuple[str, Spec]] = []
    for item in releases(spec.game_id):
        if low < item.key < high:
            try:
                steps.append((item.version, release_spec(spec.game_id, item.version)))
            except UnknownRelease:
                continue  # recorded but not frozen: its changes show in the next pair
    steps.append((spec.version, spec))
    from rulespec.conformance.judging.change_evidence import evidence_of

    out: list[MajorChange] = []
    before = release_spec(spec.game_id, declared)
    for version, after in steps:
        found = diff_specs(before, after, behaviour=True)
        out += [MajorChange(version, c.rule, c.reason, tuple(c.clauses), tuple(c.records),
                            c.path, evidence_of(c, before, after))
                for c in found.changes if c.level == "major"]
        before = after
    return _unique(out)


def _unique(changes: Sequence[MajorChange]) -> list[MajorChange]:
    seen: set[tuple[str, str, str]] = set()
    out = []
    for change in changes:
        key = (change.version, change.rule, change.reason)
        if key not in seen:
            seen.add(key)
            out.append(change)
    return out
