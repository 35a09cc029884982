"""What an engine of one release must add and change to claim a later one (``rulespec diff OLD
NEW --for-implementers``, the docs' "Moving your engine to a new release" page, and the kit's
error when an engine claims a release its ``hello`` does not match).

From the two specs and their diff:

- **records** added after OLD: the kit sends each in ``start`` to an engine that claims NEW, so
  its ``hello`` must list it (at least the default option, which by the version policy is what
  OLD specified) and ``start`` must accept it;
- **options** added to records OLD had: sent to an engine whose ``hello`` does not list the
  record (an unlisted record accepts any option), so list the record with the options you play;
- **parameters** added after OLD (declare those you honour) and, when OLD is dated before
  ``hello`` had ``parameters`` (``PARAMETERS_IN_HELLO``), every parameter the engine reads: its
  rule examples were sent their overrides undeclared, an engine of NEW is sent only declared ones;
- **variants** added after OLD (declare those you implement);
- **behaviour**: the diff's MAJOR changes, each with its clauses and records: what an engine
  conformant to OLD may do differently from NEW.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.releases.change import Change
from rulespec.releases.diff import SpecDiff
from rulespec.releases.store import UnknownRelease, parse_version, release_spec, releases_of
from rulespec.spec.model import Spec

#: The day the ``parameters`` key of ``hello`` came (commit 9e5c6e0, shipped in rulespec 0.2.0):
#: an engine of a release dated before it could not declare the parameters it honours.
PARAMETERS_IN_HELLO = "2026-11-30"


@dataclass(frozen=True)
class Added:
    """One record, option, parameter or variant added between two releases."""

    #: ``record``, ``option``, ``parameter`` or ``variant``.
    kind: str
    #: Its id (an option: ``RECORD=OPTION``).
    id: str
    #: The release that added it (NEW's label when no frozen release between says).
    since: str
    #: One line about it: a record's title, a parameter's description.
    about: str = ""
    #: A record's default option; a parameter's declaration (its range from the schema).
    default: Any = None


@dataclass(frozen=True)
class Migration:
    """What an engine of ``old`` adds to ``hello`` and changes in behaviour to claim ``new``."""

    game: str
    old: str
    new: str
    added: tuple[Added, ...] = ()
    #: The diff's MAJOR changes: where an engine conformant to OLD may differ from NEW.
    behaviour: tuple[Change, ...] = ()
    #: Parameters to declare because OLD predates hello's ``parameters`` (id -> declaration).
    undeclared_before: Mapping[str, Any] = field(default_factory=dict)

    def of_kind(self, kind: str) -> list[Added]:
        """Return what was added of one kind."""
        return [a for a in self.added if a.kind == kind]

    def hello_lines(self) -> list[str]:
        """Return the lines to put in ``hello``'s ``games.GAME`` (a key's whole new value;
        ``...`` stands for what the engine declares already)."""
        lines = [f'"spec_version": {json.dumps(self.new)}']
        records = self.of_kind("record")
        if records:
            body = ", ".join(f"{json.dumps(r.id)}: {json.dumps([r.default])}" for r in records)
            lines.append(f'"rulings": {{..., {body}}}')
        options = self.of_kind("option")
        if options:
            named = sorted({o.id.split("=", 1)[0] for o in options})
            body = ", ".join(f'{json.dumps(r)}: [the options you play]' for r in named)
            lines.append(f'"rulings": {{..., {body}}}  (if hello does not list them yet)')
        params = {a.id: a.default for a in self.of_kind("parameter")}
        params.update(self.undeclared_before)
        if params:
            body = ", ".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}"
                             for k, v in sorted(params.items()))
            lines.append(f'"parameters": {{..., {body}}}  (those you honour)')
        variants = self.of_kind("variant")
        if variants:
            lines.append('"variants": [..., ' + ", ".join(json.dumps(v.id) for v in variants)
                         + "]  (those you implement)")
        return lines

    def to_json(self) -> dict[str, Any]:
        """Return the migration as JSON (``rulespec-migration/1``)."""
        return {"format": "rulespec-migration/1", "game": self.game, "old": self.old,
                "new": self.new,
                "added": [{"kind": a.kind, "id": a.id, "since": a.since, "about": a.about,
                           "default": a.default} for a in self.added],
                "parameters_undeclared_before": dict(sorted(self.undeclared_before.items())),
                "hello": self.hello_lines(),
                "behaviour": [c.to_json() for c in self.behaviour]}


def declaration(param: Mapping[str, Any]) -> dict[str, Any]:
    """Return a parameter as a ``hello`` declares it: an integer's range from its schema, any
    value (``{}``) otherwise."""
    schema = param.get("schema") or {}
    return {k: schema[k] for k in ("minimum", "maximum")
            if schema.get("type") == "integer" and k in schema}


def predates_parameters(spec: Spec, version: str) -> str | None:
    """Return the date of release ``version`` of ``spec``'s game when it is from before hello
    had ``parameters`` (None: later, or not a recorded release)."""
    dated = {r.version: str(r.date) for r in releases_of(spec)}
    date = dated.get(version)
    return date if date is not None and date < PARAMETERS_IN_HELLO else None


def _between(new: Spec, old_version: str, new_version: str) -> list[tuple[str, Spec]]:
    """Return the frozen releases after ``old_version`` up to ``new_version``, oldest first."""
    out = []
    low, high = parse_version(old_version), parse_version(new_version)
    for entry in releases_of(new):
        if low < parse_version(entry.version) <= high:
            try:
                out.append((entry.version, release_spec(new.game_id, entry.version)))
            except UnknownRelease:
                continue
    return out


def migration(old: Spec, new: Spec, diff: SpecDiff | None = None, *,
              new_label: str | None = None) -> Migration:
    """Return what an engine of ``old`` adds and changes to claim ``new`` (``diff``, the
    diff from ``old`` to ``new``, gives the behaviour changes; None: none listed)."""
    label = new_label or new.version
    steps = _between(new, old.version, new.version)

    def since(present: Any) -> str:
        for version, spec in steps:
            if present(spec):
                return version
        return label

    added: list[Added] = []
    defaults = new.default_rulings()
    for aid, record in new.ambiguities.items():
        if aid not in old.ambiguities:
            added.append(Added("record", aid, since(lambda s, a=aid: a in s.ambiguities),
                               str(record.get("title", "")), defaults.get(aid)))
            continue
        before = {str(o["id"]) for o in old.ambiguities[aid].get("options") or ()}
        for option in record.get("options") or ():
            oid = str(option["id"])
            if oid not in before:
                added.append(Added("option", f"{aid}={oid}", since(
                    lambda s, a=aid, o=oid: any(str(x["id"]) == o for x in
                                                (s.ambiguities.get(a) or {}).get("options")
                                                or ())), str(option.get("summary", "")).strip()))
    for pid, param in new.parameters.items():
        if pid not in old.parameters:
            added.append(Added("parameter", pid, since(lambda s, p=pid: p in s.parameters),
                               str(param.get("description", "")), declaration(param)))
    for vid, variant in new.variants.items():
        if vid not in old.variants:
            added.append(Added("variant", vid, since(lambda s, v=vid: v in s.variants),
                               str((variant or {}).get("title", ""))))
    undeclared: dict[str, Any] = {}
    if predates_parameters(new, old.version) is not None:
        undeclared = {pid: declaration(p) for pid, p in old.parameters.items()
                  if pid in new.parameters}
    majors = tuple(c for c in (diff.changes if diff is not None else ()) if c.level == "major")
    return Migration(new.game_id, old.version, label, tuple(added), majors, undeclared)


def render(m: Migration, fmt: str = "text", *, heading: int = 2) -> str:
    """Return the migration as text, markdown (its title a heading of level ``heading``, its
    two parts bold paragraphs) or JSON."""
    if fmt == "json":
        return json.dumps(m.to_json(), indent=2, ensure_ascii=False)
    md = fmt == "markdown"
    gap = [""] if md else []
    title = f"Moving an engine of {m.game} {m.old} to {m.new}"
    out = [f"{'#' * heading} {title}" if md else title, ""]
    add = f"1. Add to hello's games.{m.game}"
    out += [f"**{add}**" if md else add, ""]
    fence = ["```text"] if md else []
    out += [*fence, *(line if md else f"  {line}" for line in m.hello_lines()),
            *(["```"] if md else []), ""]
    out += _added_lines(m, md)
    out += ["**2. Change in behaviour**" if md else "2. Change in behaviour", ""]
    if m.behaviour:
        out.append(f"Every MAJOR change from {m.old} to {m.new}: where an engine conformant to "
                   f"{m.old} may differ.")
        out += gap
        for c in m.behaviour:
            cites = ", ".join((*c.clauses, *c.records))
            if md:
                out.append(f"- {c.rule} `{c.path}`: {c.reason}" + (f" ({cites})" if cites else ""))
            else:
                out.append(f"  {c.rule} {c.path}: {c.reason}" + (f" [{cites}]" if cites else ""))
    else:
        out.append(f"Nothing: no MAJOR change from {m.old} to {m.new}, so an engine conformant "
                   f"to {m.old} plays {m.new} as it is, once its hello says the above.")
    return "\n".join(out).rstrip() + "\n"


def _added_lines(m: Migration, md: bool) -> list[str]:
    out: list[str] = []
    item = "- " if md else "  "
    gap = [""] if md else []  # a Markdown list needs a blank line before it
    records = m.of_kind("record")
    if records:
        out.append(f"Records added since {m.old} (the kit sends each in start; list it and accept "
                   "its default, which is what your release specified):")
        out += gap
        out += [f"{item}{r.id} (since {r.since}): {r.about}; default {r.default}" for r in records]
        out.append("")
    options = m.of_kind("option")
    if options:
        out.append("Options added to records you know (sent to you unless hello lists the "
                   "record without them):")
        out += gap
        out += [f"{item}{o.id} (since {o.since})" for o in options]
        out.append("")
    params = m.of_kind("parameter")
    if params:
        out.append("Parameters added (declare those you honour; the others are never "
                   "overridden):")
        out += gap
        out += [f"{item}{p.id} (since {p.since}): {p.about}" for p in params]
        out.append("")
    if m.undeclared_before:
        out.append(f"{m.old} is from before hello had `parameters` ({PARAMETERS_IN_HELLO}): the "
                   "kit sent its rule examples' overrides undeclared. To be sent them as "
                   f"{m.new}, declare the parameters your engine reads: "
                   + ", ".join(sorted(m.undeclared_before)) + ".")
        out.append("")
    variants = m.of_kind("variant")
    if variants:
        out.append("Variants added (declare those you implement):")
        out += gap
        out += [f"{item}{v.id} (since {v.since}): {v.about}" for v in variants]
        out.append("")
    return out


def releases_listed(spec: Spec, listed: Sequence[str]) -> str | None:
    """Return the newest release of ``spec``'s game whose every record ``listed`` names (the
    release an engine that lists those records was written for); None when none is frozen."""
    found = None
    for entry in releases_of(spec):
        try:
            frozen = release_spec(spec.game_id, entry.version)
        except UnknownRelease:
            continue
        if set(frozen.ambiguities) <= set(listed):
            found = entry.version
    return found
