"""Measured impact in the docs: a record's figures as a table and a chart, the register's
outcome-change column and the "what matters most" summary per game.

A structured measurement (``rulespec-impact/1``) is shown as a table of every option × agent
with each figure's interval, and an inline SVG forest plot of the outcome-change rate; an older
free-form measurement keeps its generic tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.docsgen.links import Links, game_dir, game_title
from rulespec.docsgen.markdown import anchor, code, data_tables, plural, table, text
from rulespec.docsgen.sweepdocs import effect_cell, ranked_rows, sweep_block, sweep_of
from rulespec.impact.chart import FIGURE_TITLES, figure_text, forest_svg
from rulespec.spec.impact import structured_impact, top_outcome_change
from rulespec.spec.model import Spec

#: How many records the "what matters most" summary lists per game.
TOP_RECORDS = 3
#: The table's figure columns: (key, heading).
_COLUMNS = (("trigger_rate", "Trigger rate"), ("outcome_change_rate", "Outcome change"),
            ("length_change", "Length change"), ("margin_change", "Margin change"))


def interval_text(interval: Mapping[str, Any] | None, figure: str) -> str:
    """Return ``21.2% [17.6%, 25.5%]`` (or a dash for a figure that was not measured)."""
    if interval is None:
        return "—"
    rate = FIGURE_TITLES[figure][1]
    value, low, high = (figure_text(float(interval[k]), rate) for k in ("value", "low", "high"))
    return f"{value} [{low}, {high}]"


def seat_text(intervals: Sequence[Mapping[str, Any]] | None) -> str:
    """Return each seat's win-rate change on a line: ``seat 0: +3 pts [-2.1, +8.1]``.

    A change of a win rate is shown in percentage points; seats count from 0, as the engines
    and the text report number them.
    """
    if not intervals:
        return "—"

    def pts(value: Any) -> str:
        shown = float(value) * 100
        return f"{shown:+.3g}" if shown else "0"

    return "<br>".join(
        text(f"seat {seat}: {pts(iv['value'])} pts [{pts(iv['low'])}, {pts(iv['high'])}]")
        for seat, iv in enumerate(intervals))


def impact_block(amb: Mapping[str, Any], links: Links, *, link_prefix: str = "") -> str:
    """Return the Impact part of a record: the prose, then the figures (table and chart).

    A game with a saved sweep (``rulespec impact --reached --save``) shows the sweep's verdict,
    tables and distribution charts; a record measured in the spec keeps its older tables.
    """
    impact = amb.get("impact")
    sweep = sweep_of(links.spec)
    record = None if sweep is None else sweep["records"].get(str(amb["id"]))
    if not impact and record is None:
        return ""
    out = ([f"**Impact.** {links.prose(impact['text'], prefix=link_prefix)}\n\n"]
           if impact else [])
    if record is not None and sweep is not None:
        out.append(sweep_block(str(amb["id"]), record, sweep))
        return "".join(out)
    if not impact:
        return "".join(out)
    measured = structured_impact(amb)
    if measured is not None:
        out.append(measured_tables(measured, ident=f"impact-{amb['id']}"))
    elif impact.get("measured"):
        out.append('<div class="rs-impact" data-search-exclude markdown>\n\n' + data_tables(impact["measured"])
                   + "\n</div>\n\n")
    return "".join(out)


def measured_tables(measured: Mapping[str, Any], *, ident: str) -> str:
    """Return how a measurement was made, its table of figures and its forest plot."""
    confidence = f"{float(measured['confidence']) * 100:g}%"
    agents = "; ".join(f"{code(a['id'])}: {text(a['description'])}" for a in measured["agents"])
    out = [f"Measured on {code(measured['measured_on'])} with rulespec {code(measured['rulespec'])}: "
           f"{measured['players']}-player games, each option paired with the default "
           f"{code(measured['baseline'])} (same seeds, so only the ruling differs), master seed "
           f"{code(measured['seed'])}, batches of {measured['batch_size']}; brackets are "
           f"{confidence} intervals. Agents: {agents}.\n\n"]
    rows = []
    for result in measured["results"]:
        rows.append([code(result["option"]), code(result["agent"]), str(result["games"])]
                    + [text(interval_text(result.get(key), key)) for key, _ in _COLUMNS]
                    + [seat_text(result.get("seat_win_rate_change"))])
    out.append('<div class="rs-impact" data-search-exclude markdown>\n\n'
               + table(["Option", "Agent", "Games", *(h for _, h in _COLUMNS),
                        "Seat win-rate change"], rows)
               + "\n</div>\n\n")
    if measured["results"]:
        out.append('<div class="rs-impact-chart">\n' + forest_svg(measured, ident=ident)
                   + "</div>\n\n")
    return "".join(out)


def measured_cell(spec: Spec, amb: Mapping[str, Any]) -> str:
    """Return the register's measured cell: the sweep's verdict, else the older outcome cell."""
    sweep = sweep_of(spec)
    if sweep is not None:
        return effect_cell(sweep["records"].get(str(amb["id"])))
    return outcome_cell(amb)


def outcome_cell(amb: Mapping[str, Any]) -> str:
    """Return the register's outcome-change cell: the highest rate over options and agents
    with its interval, keyed by the rate so the column sorts by number (empty if unmeasured)."""
    measured = structured_impact(amb)
    best = top_outcome_change(measured) if measured is not None else None
    if best is None:
        return ""
    rate = best["outcome_change_rate"]
    return (f'<span data-key="{float(rate["value"]):.6f}">'
            f"{text(interval_text(rate, 'outcome_change_rate'))} "
            f"({code(best['option'])}, {code(best['agent'])})</span>")


def what_matters_most(specs: Sequence[Spec], *, top: int = TOP_RECORDS) -> str:
    """Return the summary per game: the records whose ruling measurably changes the outcome
    distribution, largest seat win-rate change first (from the game's sweep)."""
    out = [f"## What matters most {anchor('what-matters-most')}\n\n",
           "Per game, the records whose ruling measurably changes the distribution of outcomes "
           "(who wins, the scores, the margin): a permutation test against the default rejects "
           "after Holm's correction over every test of the sweep. They are ranked by the "
           "largest change of a seat's win rate, with the setting it was measured in "
           "(`rulespec impact --all --reached --save`; method in "
           "[Measuring which rulings matter](editors/impact.md)).\n\n"]
    for spec in specs:
        links = Links(spec)
        prefix = f"{game_dir(spec)}/"
        sweep = sweep_of(spec)
        if sweep is not None:
            out.append(f"### {text(game_title(spec))} {anchor('matters-' + spec.game_id)}\n\n")
            out.append(_sweep_summary(sweep, links, prefix, top))
            continue
        ranked = []
        for amb in spec.section("ambiguities"):
            measured = structured_impact(amb)
            best = top_outcome_change(measured) if measured is not None else None
            if best is not None:
                ranked.append((float(best["outcome_change_rate"]["value"]), amb, best))
        out.append(f"### {text(game_title(spec))} {anchor('matters-' + spec.game_id)}\n\n")
        if not ranked:
            out.append("No record of this game has structured impact yet; measure it with "
                       f"`rulespec impact {spec.game_id} --write`.\n\n")
            continue
        ranked.sort(key=lambda item: -item[0])  # stable: spec order among equal rates
        rows = [[links.to(str(amb["id"]), prefix=prefix), text(amb["title"]),
                 text(interval_text(best["outcome_change_rate"], "outcome_change_rate")),
                 f"{code(best['option'])}, {code(best['agent'])}",
                 text(interval_text(best["trigger_rate"], "trigger_rate"))]
                for _, amb, best in ranked[:top]]
        out.append(table(["Record", "Title", "Outcome change", "Option, agent", "Trigger rate"],
                         rows) + "\n")
        if len(ranked) > top:
            out.append(f"{plural(len(ranked) - top, 'more measured record')} in "
                       f"[the game's register]({prefix}ambiguities.md).\n\n")
    return "".join(out)


def _sweep_summary(sweep: Mapping[str, Any], links: Links, prefix: str, top: int) -> str:
    from rulespec.docsgen.sweepdocs import change_text
    from rulespec.impact.sweep import settings_text

    records = list(sweep["records"].items())
    ranked = ranked_rows(records)
    spec = links.spec
    out = []
    if ranked:
        rows = [[links.to(aid, prefix=prefix), text(spec.ambiguities[aid]["title"]),
                 text(f"seat {v['seat']}: {change_text(v['seat_win_rate_change'])}"),
                 f"{code(v['option'])}, {code(v['agent'])}",
                 text(settings_text([v["setting"]])), str(v["games"])]
                for aid, v in ranked[:top]]
        out.append(table(["Record", "Title", "Largest seat win-rate change", "Option, agent",
                          "Setting", "Games"], rows) + "\n")
    else:
        out.append("No record of this game has a measurable effect on the outcome distribution "
                   "at the games measured.\n\n")
    if len(ranked) > top:
        out.append(f"{plural(len(ranked) - top, 'more record')} with a measurable effect in "
                   f"[the game's register]({prefix}ambiguities.md).\n")
    none = [(a, r["verdict"]) for a, r in records if r["verdict"]["status"] == "none"]
    never = [a for a, r in records if r["verdict"]["status"] == "unreached"
             and not r["verdict"].get("asked")]
    alike = [a for a, r in records if r["verdict"]["status"] == "unreached"
             and r["verdict"].get("asked")]
    if none:
        fewest = min(int(v["games"]) for _, v in none)
        out.append(f"{plural(len(none), 'record')}: no measurable effect at {fewest} or more "
                   "games per option. That rules out only changes at least as large as each "
                   "could have shown (80% of the time, at the sweep's corrected error rate):\n\n")
        agents = sorted({a for _, v in none for a in v.get("detectable") or {}})
        rows = [[links.to(aid, prefix=prefix)]
                + [text(f"{100 * float(v['detectable'][a]['seat_win_rate_change']):.0f} pts")
                   if a in (v.get("detectable") or {}) else "" for a in agents]
                for aid, v in sorted(none, key=lambda x: x[0])]
        out.append(table(["Record", *(f"Smallest change it could show ({a})" for a in agents)],
                         rows) + "\n")
    if never:
        out.append(f"Never reached in any setting tried: {', '.join(never)}.\n")
    if alike:
        out.append(f"Asked, but never arising (every option played alike wherever asked): "
                   f"{', '.join(alike)}.\n")
    return "".join(out) + "\n"
