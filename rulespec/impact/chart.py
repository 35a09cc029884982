"""Forest plots of structured impact: each option × agent's estimate with its interval, as SVG.

The SVG is written by hand rather than through matplotlib: it needs no extra dependency, the
same measurement gives the same bytes by construction (no font embedding, ids, dates or hash
salts to pin), its text is real text (searchable, read by screen readers, a few kilobytes), and
its ink is ``currentColor`` so it follows the docs' light and dark palettes when inlined.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from rulespec.spec.errors import RulespecError
from rulespec.spec.impact import FIGURES

#: What each figure is called on a chart, and whether it is a rate (shown as a percentage).
FIGURE_TITLES: Mapping[str, tuple[str, bool]] = {
    "trigger_rate": ("Trigger rate", True),
    "triggers_per_game": ("Triggers per game", False),
    "outcome_change_rate": ("Outcome-change rate", True),
    "length_change": ("Change in game length (actions)", False),
    "margin_change": ("Change in winning margin", False),
}
#: Okabe-Ito colours, told apart by readers with colour-vision deficiencies; marker shapes
#: differ too, so the chart reads in grey.
_COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
_WIDTH = 640
_ROW = 24
_TOP = 34
_VALUES = 150  # width of the value column on the right
_CHAR = 7.0  # average glyph width at 12px, to size the label column


class ChartError(RulespecError, ValueError):
    """A chart was asked of a figure the format does not have."""


def forest_svg(measured: Mapping[str, Any], *, figure: str = "outcome_change_rate",
               ident: str = "rs-forest") -> str:
    """Return an SVG forest plot of one figure of a measurement, per option and agent.

    ``ident`` prefixes the ids of the title and description (unique per page when several
    charts are inlined in one page).
    """
    if figure not in FIGURE_TITLES:
        raise ChartError(f"no figure {figure!r} to chart; choose one of {', '.join(FIGURES)}")
    title, rate = FIGURE_TITLES[figure]
    results = list(measured.get("results", []))
    agents = [str(a["id"]) for a in measured.get("agents", [])]
    confidence = float(measured.get("confidence", 0.95))
    rows = [(str(r["option"]), str(r["agent"]), r.get(figure)) for r in results]
    shown = [row[2] for row in rows if row[2] is not None]
    low, high = _domain([float(i["low"]) for i in shown] + [float(i["high"]) for i in shown],
                        rate=rate)
    label_width = max([len(_label(o, a)) for o, a, _ in rows] + [10]) * _CHAR + 12
    left, right = label_width + 8, _WIDTH - _VALUES
    height = _TOP + max(len(rows), 1) * _ROW + 64

    def x(value: float) -> str:
        return _num(left + (value - low) / (high - low) * (right - left))

    heading = f"{title}, {_num(confidence * 100)}% interval, against {measured.get('baseline')}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="rs-forest" width="{_WIDTH}" '
           f'height="{height}" viewBox="0 0 {_WIDTH} {height}" role="img" '
           f'aria-labelledby="{ident}-title {ident}-desc" font-family="sans-serif" '
           'font-size="12" fill="currentColor">',
           f'<title id="{ident}-title">{escape(heading)}</title>',
           f'<desc id="{ident}-desc">{escape(_describe(rows, rate))}</desc>',
           f'<text x="0" y="14" font-weight="bold">{escape(heading)}</text>']
    bottom = _TOP + len(rows) * _ROW
    for tick in _ticks(low, high):
        out.append(f'<line x1="{x(tick)}" y1="{_TOP - 6}" x2="{x(tick)}" y2="{bottom}" '
                   'stroke="currentColor" stroke-opacity="0.15"/>')
        out.append(f'<text x="{x(tick)}" y="{bottom + 16}" text-anchor="middle">'
                   f'{escape(_tick_text(tick, rate))}</text>')
    out.append(f'<line x1="{x(0.0)}" y1="{_TOP - 8}" x2="{x(0.0)}" y2="{bottom + 2}" '
               'stroke="currentColor" stroke-width="1.5" stroke-dasharray="4 3"/>')
    for index, (option, agent, interval) in enumerate(rows):
        y = _TOP + index * _ROW + _ROW / 2
        colour = _COLOURS[_agent_index(agents, agent) % len(_COLOURS)]
        out.append('<g class="rs-row">')
        out.append(f'<text x="{_num(label_width)}" y="{_num(y + 4)}" text-anchor="end">'
                   f'{escape(_label(option, agent))}</text>')
        if interval is None:
            out.append(f'<text x="{_num(right + 8)}" y="{_num(y + 4)}" font-style="italic">'
                       "not measured</text></g>")
            continue
        lo, value, hi = (float(interval[k]) for k in ("low", "value", "high"))
        out.append(f'<g stroke="{colour}" stroke-width="2">'
                   f'<line x1="{x(lo)}" y1="{_num(y)}" x2="{x(hi)}" y2="{_num(y)}"/>'
                   f'<line x1="{x(lo)}" y1="{_num(y - 5)}" x2="{x(lo)}" y2="{_num(y + 5)}"/>'
                   f'<line x1="{x(hi)}" y1="{_num(y - 5)}" x2="{x(hi)}" y2="{_num(y + 5)}"/></g>')
        out.append(_marker(_agent_index(agents, agent), float(x(value)), y, colour))
        out.append(f'<text x="{_num(right + 8)}" y="{_num(y + 4)}">'
                   f"{escape(_interval_text(value, lo, hi, rate))}</text></g>")
    legend_y = bottom + 38
    out.append('<g class="rs-legend">')
    cursor = float(left)
    for index, agent in enumerate(agents):
        colour = _COLOURS[index % len(_COLOURS)]
        out.append(_marker(index, cursor + 5, legend_y - 4, colour))
        out.append(f'<text x="{_num(cursor + 14)}" y="{_num(legend_y)}">{escape(agent)}</text>')
        cursor += 30 + len(agent) * _CHAR
    out.append(f'<text x="{_num(cursor + 10)}" y="{_num(legend_y)}" fill-opacity="0.7">'
               "dashed line: no change</text></g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label(option: str, agent: str) -> str:
    return f"{option} ({agent})"


def _agent_index(agents: Sequence[str], agent: str) -> int:
    return agents.index(agent) if agent in agents else len(agents)


def _marker(index: int, cx: float, cy: float, colour: str) -> str:
    """Return agent ``index``'s marker: a circle, square, diamond or triangle."""
    shape = index % 4
    if shape == 0:
        return f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="4.5" fill="{colour}"/>'
    if shape == 1:
        return (f'<rect x="{_num(cx - 4)}" y="{_num(cy - 4)}" width="8" height="8" '
                f'fill="{colour}"/>')
    if shape == 2:
        points = [(cx, cy - 5.5), (cx + 5.5, cy), (cx, cy + 5.5), (cx - 5.5, cy)]
    else:
        points = [(cx, cy - 5.5), (cx + 5.5, cy + 4.5), (cx - 5.5, cy + 4.5)]
    return (f'<polygon points="{" ".join(f"{_num(px)},{_num(py)}" for px, py in points)}" '
            f'fill="{colour}"/>')


def _domain(bounds: Sequence[float], *, rate: bool) -> tuple[float, float]:
    """Return the axis range: every bound and zero, widened to round ticks."""
    low, high = min([0.0, *bounds]), max([0.0, *bounds])
    if high - low <= 0:
        return (0.0, 0.1) if rate else (-1.0, 1.0)
    step = _step(low, high)
    return math.floor(low / step) * step, math.ceil(high / step) * step


def _step(low: float, high: float) -> float:
    raw = (high - low) / 5
    magnitude = 10.0 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def _ticks(low: float, high: float) -> list[float]:
    step = _step(low, high)
    count = round((high - low) / step)
    return [round(low + i * step, 12) for i in range(count + 1)]


def _num(value: float) -> str:
    """Return a coordinate with at most two decimals and no ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _tick_text(value: float, rate: bool) -> str:
    return f"{value * 100:g}%" if rate else f"{value:g}"


def figure_text(value: float, rate: bool) -> str:
    """Return a figure as a reader sees it: rates as percentages, changes with their sign."""
    if rate:
        return f"{value * 100:.3g}%"
    return f"{value:+.3g}" if value else "0"


def _interval_text(value: float, low: float, high: float, rate: bool) -> str:
    return f"{figure_text(value, rate)} [{figure_text(low, rate)}, {figure_text(high, rate)}]"


def _describe(rows: Sequence[tuple[str, str, Any]], rate: bool) -> str:
    parts = []
    for option, agent, interval in rows:
        if interval is None:
            parts.append(f"{option} with agent {agent}: not measured")
        else:
            lo, value, hi = (float(interval[k]) for k in ("low", "value", "high"))
            parts.append(f"{option} with agent {agent}: {_interval_text(value, lo, hi, rate)}")
    return "; ".join(parts) + "." if parts else "No results."
