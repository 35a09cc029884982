"""A ruling profile for people (a table and a one-line summary) and for tools (JSON).

The summary reads ``follows the defaults except FOOL-AMB-03 = eight-only at 7 players``; a
record the engine follows no option of is a bug, named in the summary and detailed below the
table with each witness and why it fails.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulespec.conformance.explain.profile import PROFILE_FORMAT, Finding, RulingProfile


def counts_text(counts: Sequence[int]) -> str:
    """Return player counts as ``4-6, 8``."""
    out: list[str] = []
    ordered = sorted(set(counts))
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        out.append(str(ordered[i]) if i == j else f"{ordered[i]}-{ordered[j]}")
        i = j + 1
    return ", ".join(out)


def _players(counts: Sequence[int]) -> str:
    return f"{counts_text(counts)} player{'' if list(counts) == [1] else 's'}"


def summary(profile: RulingProfile) -> str:
    """Return the profile in one line: what the engine follows, and what it gets wrong."""
    if profile.configured == profile.defaults:
        head = "follows the defaults"
    else:
        changed = ", ".join(f"{r}={o}" for r, o in profile.configured.items()
                            if profile.defaults.get(r) != o)
        head = f"follows the rulings it is configured with ({changed})"
    parts = []
    for d in profile.deviations():
        if d.by_witness and d.by_play:
            where = (f"{_players(d.by_witness)} (by witness), {counts_text(d.by_play)} "
                     "(by play)")
        elif d.by_witness:
            where = _players(d.by_witness)
        else:
            where = f"{_players(d.by_play)} (by play)"
        if set(d.unconfirmed) == set(d.by_witness + d.by_play):
            where += " (unconfirmed)"
        elif d.unconfirmed:
            where += f", unconfirmed at {counts_text(d.unconfirmed)}"
        parts.append(f"{d.record} = {d.option} at {where}")
    out = head + (" except " + "; ".join(parts) if parts else "")
    for record, found in profile.bugs():
        out += (f"; follows no option of {record} at {_players([f.players for f in found])} "
                "(a bug, not a ruling)")
    for record, found in profile.older():
        out += (f"; follows {record} = {found[0].options[0]} as {profile.version.declared} "
                f"specified it at {_players([f.players for f in found])} (changed since; not a "
                f"bug of {profile.version.declared})")
    parted = [p.players for p in profile.play
              if any(len(x.records) != 1 for x in p.partings) and not p.blamed()]
    if parted:
        out += (f"; the games played at {_players(parted)} part from the reference under every "
                "reading tried (a bug no ruling explains)")
    unreached = profile.unreached()
    if unreached:
        n = len(unreached)
        out += (f"; the witnesses of {n} record{'s' if n != 1 else ''} fail before their "
                "readings part (a bug elsewhere: run the kit without --infer)")
    undecided = profile.undecided()
    if undecided:
        n = len(undecided)
        out += (f"; {n} record{'s' if n != 1 else ''} not told apart at some player counts "
                "(see the table)")
    newer = profile.newer()
    if newer:
        out += (f"; {len(newer)} record{'s' if len(newer) != 1 else ''} added after "
                f"{profile.version.declared} not asked")
    return out


# -- text ---------------------------------------------------------------------------------------


def _why_no_option(finding: Finding) -> str:
    """Say why the engine follows no option: the witnesses that fail, or the game that parts."""
    if finding.by == "play":
        return finding.note
    return "; ".join(f"witness {w.probe.example.id} ({w.probe.option}) fails: {w.message}"
                     for w in finding.witnesses if not w.holds)


def _cells(finding: Finding, profile: RulingProfile) -> tuple[str, str]:
    """Return the ``follows`` and ``shown by`` cells of one finding."""
    f = finding
    if f.verdict == "follows" and f.by == "witness":
        held = [w.probe.example.id for w in f.witnesses if w.holds]
        more = f" +{len(held) - 1}" if len(held) > 1 else ""
        return f.options[0] + (" (unconfirmed)" if f.doubt else ""), f"witness {held[0]}{more}"
    if f.verdict == "follows" and f.by == "steered":
        return f.options[0], "steered games"
    if f.verdict == "follows":
        return f.options[0], "play"
    if f.verdict == "no-option":
        return "NO OPTION (a bug)", ("the games played" if f.by == "play"
                                     else "every option's witness fails")
    if f.verdict == "older":
        return (f"{f.options[0]} as in {profile.version.declared}",
                "the games played" if f.by == "play" else "today's witnesses fail")
    if f.verdict == "unreached":
        return "not reached (a bug before it)", "every witness fails earlier"
    if f.verdict == "undecided":
        return "not told apart", (f"any of {', '.join(f.options)}" if f.options
                                  else "no witness, no telling game")
    if f.verdict == "same":
        return "(options alike)", ""
    if f.verdict == "no-play":
        return "(changes no play)", ""
    return "(not asked)", f"added after {profile.version.declared}"


def table_rows(profile: RulingProfile) -> list[list[str]]:
    """Return the profile's table: record, configured, follows, shown by, players."""
    rows = []
    for record, found in profile.findings.items():
        groups: dict[tuple[str, str], list[int]] = {}
        for f in found:
            groups.setdefault(_cells(f, profile), []).append(f.players)
        first = True
        for (follows, shown), counts in groups.items():
            rows.append([record if first else "", profile.configured[record] if first else "",
                         follows, shown, counts_text(counts)])
            first = False
    return rows


def render_text(profile: RulingProfile) -> str:
    """Return the profile for people: the header, the table, the bugs, the games, the summary."""
    v = profile.version
    release = v.declared + ("" if v.today else f", today's is {v.current}")
    games = sum(p.games for p in profile.play)
    out = [f"ruling profile of {profile.engine} for {profile.game} (checked as spec {release}; "
           f"{_players(profile.players)}; {profile.witnesses_run} witness runs, {games} games "
           f"played, {profile.seconds:.1f} s)"]
    headers = ["record", "configured", "follows", "shown by", "players"]
    rows = table_rows(profile)
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]
    for row in [headers, *rows]:
        out.append("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    for record, found in profile.bugs():
        for f in found:
            out.append(f"follows no option of {record} at {_players([f.players])}: "
                       f"{_why_no_option(f)}")
        out.append("  a plain bug at the record's decision point, not another reading: run "
                   "the kit without --infer for the failing game")
    for record, found in profile.older():
        counts = _players([f.players for f in found])
        out.append(f"{record} at {counts}: {found[0].note.split('; today')[0]}")
        out.append(f"  not a bug of {v.declared}; an engine moving to {v.current} must change "
                   "it there")
    if profile.version.held:
        out.append(f"not asked (added after {v.declared}, held at their default): "
                   + ", ".join(sorted(profile.version.held)))
    for play in profile.play:
        out.append(f"played at {_players([play.players])}: {play.games} games, {play.steps} "
                   f"steps" + (f" ({play.note})" if play.note else ""))
        out.extend(f"  {p.text()}: no reading of any one record accounts for it"
                   for p in play.partings if len(p.records) != 1)
    for search in profile.steered:
        out.append(f"steered at {_players([search.players])} for {search.record}: "
                   f"{search.text()} ({search.steps} reference actions, "
                   f"{search.seconds:.1f} s)")
    out.append(f"summary: {summary(profile)}")
    return "\n".join(out) + "\n"


# -- JSON ---------------------------------------------------------------------------------------


def to_json(profile: RulingProfile) -> dict[str, Any]:
    """Return the profile as one JSON document (``rulespec-ruling-profile/2``)."""
    v = profile.version
    return {
        "format": PROFILE_FORMAT, "engine": profile.engine, "game": profile.game,
        "spec_version": profile.spec_version, "checked_as": v.declared,
        "players": list(profile.players), "level": profile.level,
        "summary": summary(profile),
        "configured": dict(profile.configured), "defaults": dict(profile.defaults),
        "deviations": [{"record": d.record, "option": d.option,
                        "players": sorted(d.by_witness + d.by_play),
                        "by_witness": list(d.by_witness), "by_play": list(d.by_play),
                        "unconfirmed": list(d.unconfirmed)}
                       for d in profile.deviations()],
        "bugs": [{"record": r, "players": [f.players for f in found],
                  "by": sorted({f.by for f in found}), "why": [_why_no_option(f) for f in found],
                  "witnesses": [w.to_json() for f in found for w in f.witnesses]}
                 for r, found in profile.bugs()],
        "older": [{"record": r, "option": found[0].options[0], "players": [f.players for f in found],
                   "why": [f.note for f in found]} for r, found in profile.older()],
        "undecided": profile.undecided(),
        "unreached": profile.unreached(),
        "newer": {"records": sorted(v.held),
                  "options": {r: sorted(o) for r, o in sorted(v.added_options.items())}},
        "table": table_rows(profile),
        "records": [{"record": r, "configured": profile.configured[r],
                     "default": profile.defaults[r],
                     "findings": [f.to_json() for f in found]}
                    for r, found in profile.findings.items()],
        "play": [p.to_json() for p in profile.play],
        "steered": [x.to_json() for x in profile.steered],
        "witnesses_run": profile.witnesses_run,
        "seconds": round(profile.seconds, 3),
    }
