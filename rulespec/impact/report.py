"""Impact reports: JSON (byte-comparable), text and Markdown tables, and the sweep's ranking."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from rulespec.impact.effects import ALPHA, holm
from rulespec.impact.measure import FORMAT
from rulespec.impact.stats import sig4

#: Per game, per searching agent: its :func:`rulespec.impact.measure.search_figures`.
Searches = Mapping[str, Mapping[str, Mapping[str, Any]]]


def to_json(game: str, records: Mapping[str, Mapping[str, Any]],
            search: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """Return ``{"format", "game", "records"}`` with sorted keys (byte-comparable).

    With a searching agent (mcts), also ``"search"``: per agent, the decisions it searched and
    how many fell back to the greedy player (an additive key, absent otherwise).
    """
    data: dict[str, Any] = {"format": FORMAT, "game": game, "records": records}
    if search:
        data["search"] = search
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False)


def sweep_json(games: Mapping[str, Mapping[str, Mapping[str, Any]]],
               search: Searches | None = None) -> str:
    """Return the JSON of a sweep over several games, with its ranking, sorted keys."""
    out: dict[str, Any] = {}
    for g, r in games.items():
        out[g] = {"records": r}
        if search and search.get(g):
            out[g]["search"] = search[g]
    return json.dumps({"format": FORMAT, "games": out,
                       "ranking": {g: ranking(r) for g, r in games.items()}},
                      sort_keys=True, indent=2, ensure_ascii=False)


def search_text(search: Mapping[str, Mapping[str, Any]], markdown: bool = False) -> str:
    """Return one line per searching agent: its searches and fallbacks to the greedy player."""
    lines = []
    for agent, s in search.items():
        rate = s["fallback_rate"]
        shown = "no decision to search" if rate is None else (
            f"{s['fallbacks']} of {s['searches']} searched decisions fell back to greedy "
            f"(no world fitting the view): {_iv(rate, True)}")
        lines.append(f"{'- ' if markdown else '  '}{agent} over {s['games']} games: {shown}")
    return "\n".join(lines) + ("\n" if lines else "")


def _iv(iv: Any, pct: bool = False) -> str:
    if iv is None:
        return "n/a"
    if pct:
        return f"{100 * iv['value']:.1f}% [{100 * iv['low']:.1f}, {100 * iv['high']:.1f}]"
    return f"{iv['value']:+.3g} [{iv['low']:+.3g}, {iv['high']:+.3g}]"


def _seat_max(result: Mapping[str, Any]) -> str:
    seats = result["seat_win_rate_change"]
    if not seats:
        return "n/a"
    s, iv = max(enumerate(seats), key=lambda x: abs(x[1]["value"]))
    return f"seat {s}: {100 * iv['value']:+.1f} pts [{100 * iv['low']:+.1f}, {100 * iv['high']:+.1f}]"


COLUMNS = ("option", "agent", "games", "triggered", "triggers/game", "outcome changed",
           "length change", "margin change", "largest seat win-rate change",
           "reshuffle baseline", "distribution test p")


def _row(r: Mapping[str, Any]) -> list[str]:
    test = r.get("distribution_test")
    return [r["option"], r["agent"], str(r["games"]), _iv(r["trigger_rate"], True),
            _iv(r["triggers_per_game"]).lstrip("+"), _iv(r["outcome_change_rate"], True),
            _iv(r["length_change"]), _iv(r["margin_change"]), _seat_max(r),
            _iv(r.get("reshuffle_outcome_change_rate"), True),
            "n/a" if test is None else f"{test['p_value']:.2g} (uncorrected)"]


def to_text(game: str, records: Mapping[str, Mapping[str, Any]]) -> str:
    """Return a plain-text report: one block per ambiguity, one line per option and agent."""
    lines: list[str] = []
    for amb, rec in records.items():
        lines.append(f"{game} {amb}: baseline {rec['baseline']!r}, {rec['players']} players, "
                     f"{int(100 * rec['confidence'])}% intervals, seed {rec['seed']}")
        if not rec["results"]:
            lines.append("  (no other option can be played at this player count)")
        for r in rec["results"]:
            cells = _row(r)
            lines.append(f"  {cells[0]} / {cells[1]} ({cells[2]} paired games)")
            for name, cell in zip(COLUMNS[3:], cells[3:], strict=True):
                lines.append(f"    {name + ':':<30} {cell}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def to_markdown(game: str, records: Mapping[str, Mapping[str, Any]]) -> str:
    """Return a Markdown report: one table per ambiguity."""
    out: list[str] = []
    for amb, rec in records.items():
        out.append(f"### {game} {amb}\n")
        out.append(f"Baseline `{rec['baseline']}`, {rec['players']} players, "
                   f"{int(100 * rec['confidence'])}% intervals, seed {rec['seed']}.\n")
        out.append("| " + " | ".join(COLUMNS) + " |")
        out.append("|" + "---|" * len(COLUMNS))
        for r in rec["results"]:
            out.append("| " + " | ".join(_row(r)) + " |")
        out.append("")
    return "\n".join(out)


def ranking(records: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the ambiguities whose outcome distribution measurably changes, largest first.

    A result counts when its permutation test rejects after Holm's correction over every
    result given (``rulespec.impact.effects``); a record is ranked by the largest seat win-rate
    change among its counting results, and named with that result's option and agent. Records
    without such a result are left out: "no measurable effect" at the games played. The paired
    outcome-change rate is kept in each entry beside its reshuffle baseline, never ranked on.
    """
    results = [(amb, r) for amb, rec in records.items() for r in rec["results"]
               if r.get("distribution_test") is not None]
    adjusted = holm([float(r["distribution_test"]["p_value"]) for _, r in results])
    rows: list[dict[str, Any]] = []
    best: dict[str, tuple[float, Mapping[str, Any], float]] = {}
    for (amb, r), p in zip(results, adjusted, strict=True):
        if p >= ALPHA:
            continue
        size = max((abs(float(iv["value"])) for iv in r["seat_win_rate_change"] or []),
                   default=0.0)
        if amb not in best or size > best[amb][0]:
            best[amb] = (size, r, p)
    for amb, (size, r, p) in best.items():
        seat, iv = max(enumerate(r["seat_win_rate_change"] or [{"value": 0.0}]),
                       key=lambda x: abs(float(x[1]["value"])))
        rows.append({"ambiguity": amb, "option": r["option"], "agent": r["agent"],
                     "seat": seat, "seat_win_rate_change": iv, "p_adjusted": sig4(p),
                     "outcome_change_rate": r["outcome_change_rate"],
                     "reshuffle_outcome_change_rate": r.get("reshuffle_outcome_change_rate"),
                     "trigger_rate": r["trigger_rate"], "size": size})
    rows.sort(key=lambda r: (-r["size"], r["ambiguity"]))
    for row in rows:
        del row["size"]
    return rows


def ranking_text(game: str, rows: list[dict[str, Any]]) -> str:
    """Return the ranking as text: what matters most in ``game``."""
    lines = [f"What matters most in {game} (outcome distribution differs after Holm's "
             "correction; largest seat win-rate change):"]
    for i, r in enumerate(rows, 1):
        lines.append(f"  {i:>2}. {r['ambiguity']:<14} seat {r['seat']}: "
                     f"{_iv(r['seat_win_rate_change'])} {r['option']} / {r['agent']}; adjusted "
                     f"p {r['p_adjusted']:.2g}; outcome changed "
                     f"{_iv(r['outcome_change_rate'], True)} vs reshuffle "
                     f"{_iv(r['reshuffle_outcome_change_rate'], True)}")
    if not rows:
        lines.append("  no record has a measurable effect at the games played")
    return "\n".join(lines) + "\n"


def ranking_markdown(game: str, rows: list[dict[str, Any]]) -> str:
    """Return the ranking as a Markdown table."""
    out = [f"### What matters most in {game}\n",
           "| # | ambiguity | largest seat win-rate change | option / agent | adjusted p | "
           "outcome changed / reshuffle |", "|---|---|---|---|---|---|"]
    for i, r in enumerate(rows, 1):
        out.append(f"| {i} | {r['ambiguity']} | seat {r['seat']}: "
                   f"{_iv(r['seat_win_rate_change'])} | {r['option']} / {r['agent']} | "
                   f"{r['p_adjusted']:.2g} | {_iv(r['outcome_change_rate'], True)} / "
                   f"{_iv(r['reshuffle_outcome_change_rate'], True)} |")
    return "\n".join(out) + "\n"
