"""Distributions of a measured result as SVG: per-seat win rates and the score histogram.

Written by hand like :mod:`rulespec.impact.chart` (no dependency, the same bytes for the same
figures, real text, ``currentColor`` ink): bars for the baseline and the option side by side,
per seat; and the two score histograms overlaid as outlines on the same bins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from rulespec.impact.chart import _num

_BASE = "#0072B2"
_OPTION = "#D55E00"
_WIDTH = 320
_HEIGHT = 170
_LEFT, _RIGHT, _TOP, _BOTTOM = 36, 8, 26, 36


def _frame(ident: str, title: str, desc: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" class="rs-dist" width="{_WIDTH}" '
            f'height="{_HEIGHT}" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" '
            f'aria-labelledby="{ident}-title {ident}-desc" font-family="sans-serif" '
            'font-size="11" fill="currentColor">',
            f'<title id="{ident}-title">{escape(title)}</title>',
            f'<desc id="{ident}-desc">{escape(desc)}</desc>',
            f'<text x="0" y="12" font-weight="bold">{escape(title)}</text>']


def _legend(baseline: str, option: str) -> str:
    y = _HEIGHT - 6
    return (f'<rect x="{_LEFT}" y="{y - 8}" width="9" height="9" fill="{_BASE}"/>'
            f'<text x="{_LEFT + 13}" y="{y}">{escape(baseline)} (default)</text>'
            f'<rect x="{_LEFT + 150}" y="{y - 8}" width="9" height="9" fill="{_OPTION}"/>'
            f'<text x="{_LEFT + 163}" y="{y}">{escape(option)}</text>')


def win_rate_bars_svg(result: Mapping[str, Any], baseline: str, *, ident: str) -> str:
    """Return grouped bars: each seat's win rate under the default and under the option."""
    counts = result["win_counts"]
    games = int(result["games"])
    base = [c / games for c in counts["baseline"]]
    opt = [c / games for c in counts["option"]]
    top = float(max([*base, *opt, 0.05]))
    top = min(1.0, -(-top * 10 // 1) / 10)
    seats = len(base)
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM
    group = plot_w / max(seats, 1)
    bar = min(18.0, group / 2.6)
    title = f"Win rate per seat, {result['option']} ({result['agent']}), {games} games each"
    desc = "; ".join(f"seat {s}: {100 * b:.1f}% under {baseline}, {100 * o:.1f}% under "
                     f"{result['option']}" for s, (b, o) in enumerate(zip(base, opt, strict=True)))
    out = _frame(ident, title, desc + ".")

    def y(v: float) -> float:
        return _TOP + plot_h * (1 - v / top)

    for tick in (0.0, top / 2, top):
        out.append(f'<line x1="{_LEFT}" y1="{_num(y(tick))}" x2="{_WIDTH - _RIGHT}" '
                   f'y2="{_num(y(tick))}" stroke="currentColor" stroke-opacity="0.15"/>')
        out.append(f'<text x="{_LEFT - 4}" y="{_num(y(tick) + 4)}" text-anchor="end">'
                   f"{100 * tick:.0f}%</text>")
    for s in range(seats):
        cx = _LEFT + group * (s + 0.5)
        for value, colour, dx in ((base[s], _BASE, -bar), (opt[s], _OPTION, 0.0)):
            out.append(f'<rect x="{_num(cx + dx)}" y="{_num(y(value))}" width="{_num(bar)}" '
                       f'height="{_num(y(0) - y(value))}" fill="{colour}"/>')
        out.append(f'<text x="{_num(cx)}" y="{_num(y(0) + 13)}" text-anchor="middle">'
                   f"seat {s}</text>")
    out.append(_legend(baseline, str(result["option"])))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def score_histogram_svg(result: Mapping[str, Any], baseline: str, *, ident: str) -> str:
    """Return the two score histograms (every seat's final score) as outlines on one axis."""
    hist = result["score_histogram"]
    edges: Sequence[float] = hist["edges"]
    series = ((hist["baseline"], _BASE), (hist["option"], _OPTION))
    top = float(max([*hist["baseline"], *hist["option"], 1]))
    plot_w, plot_h = _WIDTH - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM
    bins = len(edges) - 1
    title = f"Final scores, {result['option']} ({result['agent']})"
    desc = (f"Every seat's final score in {result['games']} games each, {bins} bins from "
            f"{edges[0]:g} to {edges[-1]:g}; default {list(hist['baseline'])}, option "
            f"{list(hist['option'])}.")
    out = _frame(ident, title, desc)

    def x(k: float) -> float:
        return _LEFT + plot_w * k / bins

    def y(v: float) -> float:
        return _TOP + plot_h * (1 - v / top)

    out.append(f'<line x1="{_LEFT}" y1="{_num(y(0))}" x2="{_WIDTH - _RIGHT}" y2="{_num(y(0))}" '
               'stroke="currentColor" stroke-opacity="0.4"/>')
    for counts, colour in series:
        points = [f"{_num(x(0))},{_num(y(0))}"]
        for k, c in enumerate(counts):
            points += [f"{_num(x(k))},{_num(y(c))}", f"{_num(x(k + 1))},{_num(y(c))}"]
        points.append(f"{_num(x(bins))},{_num(y(0))}")
        out.append(f'<polyline points="{" ".join(points)}" fill="none" stroke="{colour}" '
                   'stroke-width="1.8"/>')
    for k in (0, bins // 2, bins):
        out.append(f'<text x="{_num(x(k))}" y="{_num(y(0) + 13)}" text-anchor="middle">'
                   f"{edges[k]:g}</text>")
    out.append(_legend(baseline, str(result["option"])))
    out.append("</svg>")
    return "\n".join(out) + "\n"
