"""Measured impact from a game's sweep (``specs/impact/GAME.json``): a record's verdict in
words, its tables per setting and its distribution charts; the register's effect cell.

The prose is generated from the same figures as the tables, with the same formatting, so the
two cannot disagree (a test reads the figures the prose quotes back from the table).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulespec.docsgen.markdown import code, table, text
from rulespec.impact.chart import figure_text
from rulespec.impact.distchart import score_histogram_svg, win_rate_bars_svg
from rulespec.impact.power import detectable_change, detectable_text
from rulespec.impact.sweep import load_sweep, settings_text
from rulespec.spec.model import Spec


@lru_cache(maxsize=32)
def _cached(path: str, game: str, stamp: float) -> dict[str, Any] | None:
    return load_sweep(Path(path), game)


def sweep_of(spec: Spec) -> dict[str, Any] | None:
    """Return the spec's saved sweep (read once per file version), or None."""
    from rulespec.impact.sweep import sweep_path

    where = sweep_path(spec.path, spec.game_id)
    stamp = where.stat().st_mtime if where.is_file() else 0.0
    return _cached(str(spec.path), spec.game_id, stamp)


def pts(value: float) -> str:
    """Return a win-rate change in percentage points: ``+3.1``, ``-0.5``, ``0``."""
    shown = round(float(value) * 100, 1)
    return f"{shown:+.1f}" if shown else "0"


def change_text(iv: Mapping[str, Any]) -> str:
    """Return ``+3.1 pts [-0.4, +6.6]``."""
    return f"{pts(iv['value'])} pts [{pts(iv['low'])}, {pts(iv['high'])}]"


def _iv(iv: Mapping[str, Any] | None, rate: bool = False) -> str:
    if iv is None:
        return "—"
    return (f"{figure_text(float(iv['value']), rate)} [{figure_text(float(iv['low']), rate)}, "
            f"{figure_text(float(iv['high']), rate)}]")


def setting_label(measurement: Mapping[str, Any]) -> str:
    """Return ``7 players`` or ``4 players, gold-fever`` for a measurement."""
    return settings_text([{"players": measurement["players"],
                           "variants": measurement.get("variants", [])}])


def measured_prose(record: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """Return the verdict in words (every figure it quotes is in the record's tables)."""
    verdict = record["verdict"]
    where = settings_text({"players": m["players"], "variants": m.get("variants", [])}
                          for m in record["measurements"])
    family = data["correction"]["family"]
    kind = f" (effect kind {record['effect']})" if record.get("effect") else ""
    if verdict["status"] == "unmeasured":
        return (f"Not measured{kind}: the sweep's time ran out before any of its games (at "
                f"{settings_text(record['settings_tried'])}); this says nothing of whether its "
                "decision point is reached.")
    if verdict["status"] == "unreached" and verdict.get("asked"):
        return (f"Never arising{kind}: its decision point was asked at {where}, but in every "
                f"pair measured ({verdict['games']} or more per option) the options played "
                "alike, the same moves and the same final state, so no reading changes a game "
                f"there. Settings tried: {settings_text(record['settings_tried'])}.")
    if verdict["status"] == "unreached":
        return (f"Never reached{kind}: no game reached this decision point, neither in the probe "
                f"({data['probe_games']} baseline games per setting) nor in the measurement at "
                f"{where}. Settings tried: {settings_text(record['settings_tried'])}.")
    if verdict["status"] == "distribution":
        setting = settings_text([verdict["setting"]])
        return (f"The outcome distribution differs{kind}, but no seat's win rate measurably: "
                f"under {verdict['option']} ({verdict['agent']} players, {setting}, "
                f"{verdict['games']} games) the scores or the margin change (Holm-adjusted p "
                f"{verdict['p_adjusted']:.2g} over {family} tests); every seat's corrected "
                f"interval contains zero. Measured at {where}.")
    if verdict["status"] == "none":
        counts = verdict.get("games_by_agent") or {}
        games = (" and ".join(f"{n} ({a})" for a, n in counts.items()) if len(counts) > 1
                 else str(verdict["games"]))
        seen = detectable_text(verdict)
        return (f"No measurable effect at {games} games{kind}: measured at {where}; "
                "no test of the outcome distribution rejects after Holm's correction over the "
                f"sweep's {family} tests."
                + (f" What these games could see: {seen} (at the setting and option where "
                   "they said least); a smaller change may be there." if seen else ""))
    setting = settings_text([verdict["setting"]])
    return (f"Measurable effect{kind}: under {verdict['option']} ({verdict['agent']} players, "
            f"{setting}, {verdict['games']} games) seat {verdict['seat']}'s win rate changes by "
            f"{change_text(verdict['seat_win_rate_change'])}; the outcome distribution differs "
            f"(Holm-adjusted p {verdict['p_adjusted']:.2g} over {family} tests). Measured at "
            f"{where}.")


#: A chart's title, as the SVG carries it (escaped).
_SVG_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.DOTALL)
#: A chart's legend as rulespec.impact.distchart draws it, last: a swatch and a label for the
#: default, then for the option (colours and labels as the SVG carries them, escaped).
_SWATCH = r'<rect [^>]*width="9" height="9" fill="(#[0-9A-Fa-f]{6})"/><text [^>]*>([^<]*)</text>'
_SVG_LEGEND = re.compile(_SWATCH + _SWATCH + r"\n</svg>")
_HEADERS = ["Option", "Agent", "Games", "Trigger rate: pairs where the options differed (and "
            "where the point was asked)",
            "Seat win-rate change (corrected), and the smallest it could show (80% power)",
            "First player's win-rate change", "Length change", "Margin change",
            "Outcome changed (paired) / reshuffle baseline", "Test p (Holm)"]


def _least(r: Mapping[str, Any], level: float) -> float | None:
    """Return the smallest seat change ``r`` could show (None where its point was not reached)."""
    return detectable_change(r, level) if float(r["trigger_rate"]["value"]) > 0 else None


def _row(r: Mapping[str, Any], level: float) -> list[str]:
    seats = "<br>".join(text(f"seat {s}: {change_text(iv)}")
                        for s, iv in enumerate(r.get("seat_win_rate_change_corrected")
                                               or r["seat_win_rate_change"] or []))
    least = _least(r, level)
    if seats and least is not None:
        seats += "<br>" + text(f"could show ±{100 * least:.0f} pts")
    test = r.get("distribution_test")
    p = "—" if test is None else f"{test['p_value']:.2g} ({test['p_adjusted']:.2g})"
    # Reached where it matters (issue 44): the rate at which the options made the games differ
    # first; the rate at which the point was merely asked beside it. Sweeps saved before the
    # arises rate existed show the asked rate alone.
    trigger = _iv(r["trigger_rate"], True)
    if r.get("arises_rate") is not None:
        trigger = f"{_iv(r['arises_rate'], True)} (asked in {trigger})"
    return [code(r["option"]), code(r["agent"]), str(r["games"]),
            text(trigger), seats or "—",
            text(change_text(r["first_player_win_rate_change"])
                 if r.get("first_player_win_rate_change") else "—"),
            text(_iv(r["length_change"])), text(_iv(r["margin_change"])),
            text(f"{_iv(r['outcome_change_rate'], True)} / "
                 f"{_iv(r.get('reshuffle_outcome_change_rate'), True)}"), text(p)]


#: The verdict's columns, first and narrow enough for 1400 px and a phone: the test the verdict
#: rests on (Holm-adjusted), the largest corrected seat change, and what the games could show.
_SHORT = ["Option", "Agent", "Games", "Test p (Holm-adjusted)", "Largest seat change (corrected)",
          "Smallest change it could show (80%)"]


def _short_row(r: Mapping[str, Any], level: float) -> list[str]:
    test = r.get("distribution_test")
    seats = r.get("seat_win_rate_change_corrected") or r["seat_win_rate_change"] or []
    largest = (max(enumerate(seats), key=lambda x: (abs(float(x[1]["value"])), -x[0]))
               if seats else None)
    least = _least(r, level)
    return [code(r["option"]), code(r["agent"]), str(r["games"]),
            "—" if test is None else text(f"{test['p_adjusted']:.2g}"),
            "—" if largest is None else text(f"seat {largest[0]}: {change_text(largest[1])}"),
            "—" if least is None else text(f"±{100 * least:.0f} pts")]


def _first_player_note(record: Mapping[str, Any]) -> str:
    """Explain a first-player interval that excludes zero beside a verdict of no effect."""
    if record["verdict"]["status"] not in ("none", "distribution"):
        return ""
    odd = [r for m in record["measurements"] for r in m["results"]
           if r.get("first_player_win_rate_change")
           and (float(r["first_player_win_rate_change"]["low"]) > 0
                or float(r["first_player_win_rate_change"]["high"]) < 0)]
    if not odd:
        return ""
    return ("*Why a first-player interval can exclude zero here:* the first player's win-rate "
            "change is a plain 95% interval, one of many in the sweep, so some exclude zero by "
            "chance alone; the verdict rests on the tests corrected over the whole sweep, and no "
            "corrected seat interval of this record excludes zero.\n\n")


def sweep_block(amb_id: str, record: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """Return the measured part of a record: verdict, tables per setting, charts."""
    out = [f"**Measured.** {text(measured_prose(record, data))}\n\n"]
    # A settled record kept by a sweep of the open records only says when it was measured.
    when = record.get("kept") or data
    kept = (" (kept by the sweep of the open records of "
            f"{text(str(data['measured_on']))}, its intervals corrected with theirs)"
            if record.get("kept") else "")
    if record["measurements"]:
        # The method, the same on every record: left out of the search index.
        out.append("<div data-search-exclude markdown>\n\n"
                   f"Paired games against the default {code(record['baseline'])} (same seeds), "
                   f"master seed {code(when['seed'])}, rulespec {code(when['rulespec'])}, "
                   f"{code(when['measured_on'])}{kept}; brackets are 95% intervals. *Outcome changed* "
                   "counts pairs whose winners differ, beside the same count for two unrelated "
                   "default games (the reshuffle baseline): near it, the ruling only reshuffles "
                   "play. *Test p*: the permutation test of no change in the outcome "
                   "distribution, then Holm-adjusted. Seat win-rate changes carry intervals "
                   "corrected for every seat interval of the sweep "
                   f"({data['correction']['seat_intervals']}, Bonferroni), so one that excludes "
                   "zero is an effect.\n\n</div>\n\n")
    level = float(data["correction"].get("seat_level") or 0.05)
    for m in record["measurements"]:
        rows = [_row(r, level) for r in m["results"]]
        out.append(f"*At {text(setting_label(m))}.*\n\n<div class=\"rs-impact\" markdown>\n\n"
                   + table(_SHORT, [_short_row(r, level) for r in m["results"]]) + "\n</div>\n\n"
                   + f"<details class=\"rs-impact-details\" markdown>\n<summary>Every figure at "
                   f"{text(setting_label(m))}</summary>\n\n"
                   "<div class=\"rs-impact\" data-search-exclude markdown>\n\n"
                   + table(_HEADERS, rows) + "\n</div>\n\n</details>\n\n")
    out.append(precision_block(record))
    odd = _first_player_note(record)
    if odd:
        out.append(odd)
    chart = _chart_result(record)
    if chart is not None:
        m, r = chart
        ident = f"dist-{amb_id}"
        out.append('<div class="rs-impact-chart">\n'
                   + captioned(win_rate_bars_svg(r, record["baseline"], ident=f"{ident}-wins"))
                   + (captioned(score_histogram_svg(r, record["baseline"],
                                                    ident=f"{ident}-scores"))
                      if r.get("score_histogram") else "")
                   + "</div>\n\n")
        out.append(f"Charts: {code(r['option'])} with {code(r['agent'])} players at "
                   f"{text(setting_label(m))}.\n\n")
    return "".join(out)


#: Why a sequential measurement stopped, as the record page says it.
_STOPPED = {"precision": "reached its target",
            "budget": "stopped by the sweep's time budget",
            "looks": "stopped after its last look"}


def precision_block(record: Mapping[str, Any]) -> str:
    """Return how precisely a sequential sweep measured the record, and what stopped each
    measurement (its target, its looks or the time): empty for a sweep of fixed size.

    Each row is one setting and agent: the widest half-width of a seat's win-rate change at
    the sweep's corrected level, against the target the design set (±2 points for random
    players on an open record, ±5 for the strongest agent; settled records ±5 and ±10).
    """
    rows = []
    for p in record.get("precision") or []:
        where = setting_label(p)
        rows.append([text(where), code(p["agent"]), text(p.get("group", "")),
                     f"±{100 * float(p['half_width']):.1f} pts",
                     f"±{100 * float(p['target']):g} pts",
                     f"{int(p['games']):,}", str(p["looks"]),
                     text(_STOPPED.get(str(p["stopped"]), str(p["stopped"]))
                          + ("; fewer games than the figures above, which are kept"
                             if p.get("superseded") else ""))])
    if not rows:
        return ""
    return ("**Precision.** Measured in rounds until each seat's win-rate change was known to its "
            "target, or the looks or the sweep's time ran out; the half-width is the widest "
            "seat's, corrected over every seat interval and every look.\n\n"
            '<div class="rs-impact" data-search-exclude markdown>\n\n'
            + table(["Setting", "Agent", "Record", "Known to", "Target", "Games", "Looks",
                     "Stopped"], rows)
            + "\n</div>\n\n")


def captioned(svg: str) -> str:
    """Return a chart as a figure whose caption is its title and its legend (the style sheet
    hides those drawn in the picture: at 320 px wide, a long title or option id was cut).
    Blank-line free, as raw HTML in Markdown must be."""
    title = _SVG_TITLE.search(svg)
    if title is None:
        return svg
    legend = _SVG_LEGEND.search(svg)
    keys = ""
    if legend is not None:
        keys = "<br>" + " ".join(
            f'<span class="rs-key"><span style="color: {colour}">■</span> {label}</span>'
            for colour, label in (legend.group(1, 2), legend.group(3, 4)))
    hidden = " rs-chart-keyed" if legend is not None else ""
    return (f'<figure class="rs-chart{hidden}">\n<figcaption aria-hidden="true">'
            f"<strong>{title.group(1)}</strong>{keys}</figcaption>\n{svg}</figure>\n")


def _chart_result(record: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any]] | None:
    """Return the result the charts show: the verdict's, else the smallest adjusted p."""
    pairs = [(m, r) for m in record["measurements"] for r in m["results"]
             if r.get("win_counts")]
    if not pairs:
        return None
    v = record["verdict"]
    if v["status"] == "effect":
        for m, r in pairs:
            if (r["option"], r["agent"], m["players"], m.get("variants", [])) == (
                    v["option"], v["agent"], v["setting"]["players"], v["setting"]["variants"]):
                return m, r
    return min(pairs, key=lambda mr: float((mr[1].get("distribution_test") or {})
                                           .get("p_adjusted", 1.0)))


def effect_cell(record: Mapping[str, Any] | None) -> str:
    """Return the register's measured-effect cell, keyed by the effect size for sorting."""
    if record is None or "verdict" not in record:
        return ""
    v = record["verdict"]
    if v["status"] == "effect":
        change = v["seat_win_rate_change"]
        return (f'<span data-key="{abs(float(change["value"])):.6f}">'
                f"{text('seat ' + str(v['seat']) + ': ' + change_text(change))} "
                f"({code(v['option'])}, {code(v['agent'])}, "
                f"{text(settings_text([v['setting']]))})</span>")
    if v["status"] == "distribution":
        return (f'<span data-key="0.000001">scores or margin change, no seat win rate '
                f"({code(v['option'])}, {code(v['agent'])}, "
                f"{text(settings_text([v['setting']]))})</span>")
    if v["status"] == "none":
        seen = v.get("detectable") or {}
        games = v.get("games_by_agent") or {}
        parts = [f"{games.get(a, d['games'])} {a} games could show ≥ "
                 f"{100 * float(d['seat_win_rate_change']):.0f} pts"
                 for a, d in sorted(seen.items(), key=lambda x: -int(games.get(x[0], 0)))]
        said = f"({'; '.join(parts)})" if parts else f"at {v['games']} games"
        return f'<span data-key="0">no measurable effect {text(said)}</span>'
    if v["status"] == "unmeasured":
        return '<span data-key="-1">not measured (the sweep\'s time ran out)</span>'
    if v.get("asked"):
        return '<span data-key="-1">never arises (asked; every option plays alike)</span>'
    return '<span data-key="-1">never reached</span>'


def ranked_rows(records: Sequence[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, Any]]:
    """Return (record id, verdict) of the records with an effect, largest first."""
    rows = [(a, r["verdict"]) for a, r in records if r.get("verdict", {}).get("status") == "effect"]
    return sorted(rows, key=lambda x: (-abs(float(x[1]["seat_win_rate_change"]["value"])), x[0]))
