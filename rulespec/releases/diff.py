"""``diff_specs``: classify every change between two specs, textual and behavioural.

The textual half (``textdiff``) compares the two specs section by section; the behavioural
half (``behaviour``) replays the old spec's golden traces and rule examples, and recounts its
perft tables, on the new spec's reference. Each change is named by a rule of ``rules.RULES``
and needs a PATCH, MINOR or MAJOR bump; the diff says which bump the new version needs and
whether it has it. Nothing is printed here: ``report`` formats a ``SpecDiff``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal

from rulespec.releases import textdiff
from rulespec.releases.behaviour import Evidence, Progress, behaviour_changes, evidence_of
from rulespec.releases.change import Change
from rulespec.releases.rules import RULE, Level, level_rank
from rulespec.releases.store import (
    declared_changes,
    format_version,
    parse_version,
)
from rulespec.spec.errors import RulespecError
from rulespec.spec.loader import load_yaml, read_text
from rulespec.spec.model import Spec

__all__ = ["RULE", "Change", "DiffError", "Evidence", "SpecDiff", "bump", "diff_specs"]

#: The largest change of a diff, or "none" when nothing changed.
DiffLevel = Literal["none", "patch", "minor", "major"]


class DiffError(RulespecError):
    """Two specs that cannot be compared (other games)."""


def bump(version: str, level: DiffLevel) -> str:
    """Return the smallest version after ``version`` that a change of ``level`` needs.

    Under 1.0.0 (initial development, as semver and Cargo read it) a MAJOR change bumps the
    minor number and a MINOR or PATCH change the patch number.
    """
    major, minor, patch = parse_version(version)
    if level == "none":
        return version
    if major == 0:
        key = (0, minor + 1, 0) if level == "major" else (0, minor, patch + 1)
    elif level == "major":
        key = (major + 1, 0, 0)
    elif level == "minor":
        key = (major, minor + 1, 0)
    else:
        key = (major, minor, patch + 1)
    return format_version(key)


@dataclass(frozen=True)
class SpecDiff:
    """Every change between two versions of a game's spec, and what bump they need."""

    game: str
    old_version: str
    new_version: str
    changes: tuple[Change, ...]
    #: What the behaviour check replayed (empty when it was not run).
    replayed: str = ""
    #: Labels of the two sides as given (a file, GAME@VERSION, git:REV...).
    old_label: str = ""
    new_label: str = ""
    notes: tuple[str, ...] = field(default=())
    #: What the diff suggests but does not count (POSSIBLY_RENAMED): no bump is needed for them.
    hints: tuple[Change, ...] = field(default=())

    @property
    def level(self) -> DiffLevel:
        """Return the largest level among the changes ("none" when there are none)."""
        found = [c.level for c in self.changes if c.level != "info"]
        if not found:
            return "none"
        largest: DiffLevel = max(found, key=level_rank)
        return largest

    def required_bump(self, old_version: str | None = None) -> str:
        """Return the smallest version the new spec may carry after ``old_version``."""
        return bump(old_version or self.old_version, self.level)

    @property
    def ok(self) -> bool:
        """Return True when the new version is at least the bump its changes need."""
        return parse_version(self.new_version) >= parse_version(self.required_bump())

    def by_level(self, level: Level) -> list[Change]:
        """Return the changes of one level, in the order found."""
        return [c for c in self.changes if c.level == level]

    def counts(self) -> dict[str, int]:
        """Return how many changes each rule found, largest level first."""
        found = Counter(c.rule for c in self.changes)
        order = sorted(found, key=lambda r: (-level_rank(RULE[r].level), r))
        return {rule: found[rule] for rule in order}

    def verdict(self) -> str:
        """Return one sentence: the level, the bump needed and whether the new version has it."""
        need = self.required_bump()
        if self.level == "none":
            head = f"{self.game} {self.old_version} -> {self.new_version}: no change"
        else:
            head = (f"{self.game} {self.old_version} -> {self.new_version}: {len(self.changes)} "
                    f"change(s), the largest {self.level.upper()}; needs at least {need}")
        if self.ok:
            return head + " (ok)"
        return (head + f"; {self.new_version} is too small: bump game.spec_version to {need} "
                "(or more), add its game.releases entry and freeze it")

    def to_json(self) -> dict[str, Any]:
        """Return the diff as a JSON object."""
        return {"format": "rulespec-diff/1", "game": self.game, "old": {
            "version": self.old_version, "label": self.old_label}, "new": {
            "version": self.new_version, "label": self.new_label}, "level": self.level,
            "required_version": self.required_bump(), "ok": self.ok,
            "replayed": self.replayed, "notes": list(self.notes),
            "counts": self.counts(), "changes": [c.to_json() for c in self.changes],
            "hints": [c.to_json() for c in self.hints]}


def _examples_data(spec: Spec, evidence: Evidence | None) -> list[Any]:
    """Return the rule examples beside ``spec`` as plain data (none when it has none)."""
    from rulespec.examples.model import examples_path

    path = evidence.examples if evidence is not None else None
    if path is None:
        candidate = examples_path(spec)
        path = candidate if candidate.is_file() else None
    if path is None:
        return []
    data, _ = load_yaml(read_text(path), str(path))
    found = data.get("examples") if isinstance(data, dict) else None
    return list(found) if isinstance(found, list) else []


#: The changes whose level the replays may raise to MAJOR (a broken invariant, event, example).
_EVALUATED_ON_REPLAY = frozenset({"INVARIANT_ADDED", "INVARIANT_CHANGED", "EVENT_ADDED",
                                  "EVENT_CHANGED", "EXAMPLE_ADDED", "EXAMPLE_CHANGED"})


def _examples_path(spec: Spec, evidence: Evidence | None) -> Any:
    """Return the rule examples file beside ``spec`` (None when it has none)."""
    from rulespec.examples.model import examples_path

    if evidence is not None and evidence.examples is not None:
        return evidence.examples
    candidate = examples_path(spec)
    return candidate if candidate.is_file() else None


def _changed_examples(old: list[Any], new: list[Any]) -> frozenset[str]:
    """Return the ids of the rule examples ``new`` adds or changes."""
    before = {str(e.get("id")): e for e in old if isinstance(e, dict)}
    return frozenset(str(e.get("id")) for e in new
                     if isinstance(e, dict) and before.get(str(e.get("id"))) != e)


def _declared(old: Spec, new: Spec) -> list[Change]:
    """Return the behaviour changes the new spec's releases declare after the old version."""
    low, high = parse_version(old.version), parse_version(new.version)
    out = []
    for item in declared_changes(new):
        if low < parse_version(item.version) <= high:
            out.append(Change.of("BEHAVIOUR_DECLARED", f"game.releases[{item.version}]",
                                 f"declared in {item.version}: {item.reason}", item.clauses,
                                 item.records, new=item.reason))
    return out


def _differences(old: Any, new: Any, path: str = "") -> list[str]:
    """Return the paths (``game.releases[2]``) where two values of spec data differ."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for key in [*old, *(k for k in new if k not in old)]:
            if old.get(key) != new.get(key):
                where = f"{path}.{key}" if path else str(key)
                out += _differences(old.get(key), new.get(key), where) if \
                    key in old and key in new else [where]
        return out
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return [p for i, (a, b) in enumerate(zip(old, new, strict=True)) if a != b
                for p in _differences(a, b, f"{path}[{i}]")]
    return [path or "(the whole spec)"]


def _release_edited(old: Spec, new: Spec) -> Change | None:
    """Return RELEASE_EDITED when the two specs carry one version but differ, or None."""
    if old.version != new.version or old.data == new.data:
        return None
    where = _differences(old.data, new.data)
    first = where[0]
    shown = ", ".join(where[:4]) + (f" and {len(where) - 4} more" if len(where) > 4 else "")
    return Change.of("RELEASE_EDITED", first, f"{new.version} is released, yet the spec differs "
                     f"from it at {shown}: bump game.spec_version (a released version never "
                     "changes)", old=_at(old.data, first), new=_at(new.data, first))


def _at(data: Any, path: str) -> Any:
    """Return the value of spec data at a path of ``_differences``."""
    from rulespec.releases.values import ABSENT

    here = data
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("[") and isinstance(here, list):
            here = here[int(part[1:-1])]
        elif isinstance(here, dict) and part in here:
            here = here[part]
        else:
            return ABSENT
    return here


def diff_specs(old: Spec, new: Spec, *, behaviour: bool = True,
               old_evidence: Evidence | None = None, new_evidence: Evidence | None = None,
               progress: Progress | None = None, old_label: str = "",
               new_label: str = "") -> SpecDiff:
    """Classify every change from ``old`` to ``new`` (both specs of one game).

    With ``behaviour`` the old spec's golden traces, rule examples and perft tables (its
    ``old_evidence``, found beside it by default) are replayed on the new spec's reference.
    """
    if old.game_id != new.game_id:
        raise DiffError(f"cannot compare specs of two games ({old.game_id!r} and "
                        f"{new.game_id!r}); give two versions of one game")
    old_found = evidence_of(old) if old_evidence is None else old_evidence
    new_found = evidence_of(new) if new_evidence is None else new_evidence
    changes = textdiff.spec_changes(old.data, new.data)
    old_examples, new_examples = _examples_data(old, old_found), _examples_data(new, new_found)
    changes += textdiff.examples(old_examples, new_examples)
    changes += _declared(old, new)
    replayed = ""
    if behaviour:
        changes += behaviour_changes(old_found, new, progress, old=old,
                                     new_examples=_examples_path(new, new_found),
                                     changed_examples=_changed_examples(old_examples,
                                                                        new_examples))
        replayed = old_found.describe()
    notes: list[str] = []
    unchecked = sorted(c.path for c in changes if c.rule in _EVALUATED_ON_REPLAY)
    if not behaviour and unchecked:
        notes.append(f"{', '.join(unchecked[:5])}{' and more' if len(unchecked) > 5 else ''} "
                     "not evaluated on the old evidence (--no-behaviour): the reference may "
                     "break them, which is MAJOR; run without --no-behaviour to know")
    if behaviour and not old_found.traces and old_found.examples is None and \
            old_found.perft is None:
        notes.append(f"the old side ({old.path}) has no golden traces, rule examples or perft "
                     "tables beside it: only the text was compared")
    hints = [c for c in changes if c.level == "info"]
    changes = [c for c in changes if c.level != "info"]
    if not changes:
        edited = _release_edited(old, new)
        changes += [edited] if edited is not None else []
    ordered = sorted(changes, key=lambda c: -level_rank(c.level))
    return SpecDiff(old.game_id, old.version, new.version, tuple(ordered), replayed,
                    old_label or str(old.path), new_label or str(new.path), tuple(notes),
                    tuple(hints))
