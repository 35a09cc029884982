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
  header, and a failure at a clause (or a ruling) one of them touched says so.

No declared version means today's spec; a version the game never released is an error naming
its releases. ``rulespec conform --spec-version`` checks against an older release on purpose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulespec.conformance.checks import Failure
from rulespec.conformance.protocol import Hello
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


class UnknownSpecVersion(RulespecError):
    """An engine (or ``--spec-version``) names a version the game never released."""

    exit_code = EXIT_USAGE


@dataclass(frozen=True)
class MajorChange:
    """One MAJOR change between the declared release and today's spec."""

    version: str
    rule: str
    reason: str
    clauses: tuple[str, ...] = ()
    records: tuple[str, ...] = ()

    def text(self) -> str:
        """Return the change in one line: where it came in and what it is."""
        return f"{self.version} {self.rule}: {self.reason}"

    def to_json(self) -> dict[str, Any]:
        """Return the change as JSON."""
        return {"version": self.version, "rule": self.rule, "reason": self.reason,
                "clauses": list(self.clauses), "records": list(self.records)}


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

    def touching(self, failure: Failure) -> tuple[str, ...]:
        """Return a sentence for each MAJOR change that touches what ``failure`` is about.

        A change touches a failure when they share a clause (the failure's own or a differing
        field's), or when the change names a record under whose other option the reference does
        what the engine did (the failure's ``matches``).
        """
        clauses = set(failure.clauses)
        for entry in failure.diff:
            clauses.update(entry.get("clauses") or ())
        explained = {amb for match in failure.matches for amb in match}
        out = []
        for change in self.majors:
            if clauses & set(change.clauses) or explained & set(change.records):
                out.append(f"this behaviour changed in {change.version} ({change.rule}): "
                           f"{change.reason}")
        return tuple(out)

    def explain(self, failure: Failure) -> Failure:
        """Return ``failure`` with the MAJOR changes that touch it named (``changed``)."""
        changed = self.touching(failure)
        return replace(failure, changed=changed) if changed else failure

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
                       majors=tuple(_majors(spec, version)))


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
    out: list[MajorChange] = []
    before = release_spec(spec.game_id, declared)
    for version, after in steps:
        found = diff_specs(before, after, behaviour=True)
        out += [MajorChange(version, c.rule, c.reason, tuple(c.clauses), tuple(c.records))
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
