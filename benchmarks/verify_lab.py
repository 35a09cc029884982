"""The exact outcome probabilities of ``rulespec verify`` beside the impact lab's sampled ones.

For every published configuration whose figures are in ``benchmarks/results/verify.json``
(written by ``rulespec verify --published --format json``), plays paired games with the impact
lab's own machinery: ``rulespec.impact.paired.play_game`` (its ``random`` agent, its chance
streams per kind of outcome, its seeds), one baseline game and one game per other option for
each seed, as ``run_batch`` does. Then, side by side:

- the baseline's first-seat win probability, exact, and the lab's Wilson interval (95%) for the
  rate of games seat 0 wins (a shared win counts, as the exact figure counts it);
- for every option, the exact change in seat 0's win probability and the lab's paired interval
  (``figures()["seat_win_rate_change"]``, Student's t on the paired differences).

Each row says whether the interval contains the exact figure: with 95% intervals about one in
twenty should not, and a method that is right misses about that often, no more. The lab plays
a configuration's games with the engine class it is given; the reduced configurations have
parameters, which the lab's ``play_game`` does not take, so each game's engine is made by a
subclass that resolves the configuration with them (the lab has no ``--param`` option yet).

Run::

    python benchmarks/verify_lab.py --games 4000           # prints the table
    python benchmarks/verify_lab.py --games 4000 --update-docs
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulespec.impact.agents import make_agent
from rulespec.impact.measure import figures
from rulespec.impact.paired import GameSummary, derive_seed, play_game
from rulespec.impact.stats import Interval, wilson
from rulespec.reference.core import Config, Engine, make_config
from rulespec.reference.registry import engine_class
from rulespec.spec.registry import game_ids, get_spec
from rulespec.verify.published import cell_of, load_published, write_section

ROOT = Path(__file__).resolve().parent.parent
RESULT = ROOT / "benchmarks" / "results" / "verify.json"
LAB_RESULT = ROOT / "benchmarks" / "results" / "verify-lab.json"
DOCS_PAGE = ROOT / "docs" / "editors" / "verification.md"
BEGIN, END = "<!-- verify-lab:begin -->", "<!-- verify-lab:end -->"


def reduced(base: type[Engine], parameters: Mapping[str, Any],
            variants: Sequence[str]) -> type[Engine]:
    """Return an engine class that plays the lab's configuration with ``parameters`` on top."""

    class Reduced(base):  # type: ignore[misc, valid-type]
        def __init__(self, spec: Any, config: Config) -> None:
            super().__init__(spec, make_config(spec, players=config.players,
                                               rulings=dict(config.rulings),
                                               variants=list(variants),
                                               parameters=dict(parameters)))

    Reduced.__name__ = f"Reduced{base.__name__}"
    return Reduced


def exact(figure: Mapping[str, Any]) -> float:
    """Return a ``{exact, value}`` figure's value."""
    return float(Fraction(figure["exact"])) if figure.get("exact") else float(figure["value"])


def compare(document: Mapping[str, Any], games: int, seed: int) -> dict[str, Any]:
    """Play the lab's games for one published configuration and compare."""
    base = document["baseline"]
    config = base["config"]
    spec = get_spec(base["game"])
    engine = reduced(engine_class(spec), config["parameters"], config["variants"])
    agent = make_agent("random", spec)
    options = [o for o in document["options"]
               if o["verification"] is not None and o["verification"]["uniform"] is not None]
    ambiguities = tuple(dict.fromkeys(o["ambiguity"] for o in options))
    players = config["players"]
    rows: list[tuple[GameSummary, ...]] = []
    for i in range(games):
        game_seed = derive_seed(seed, spec.game_id, players, "verify", i)
        row = [play_game(spec, config["rulings"], players, agent, game_seed, ambiguities, engine)]
        for o in options:
            rulings = {**config["rulings"], o["ambiguity"]: o["option"]}
            row.append(play_game(spec, rulings, players, agent, game_seed, ambiguities, engine))
        rows.append(tuple(row))
    wins = sum(1 for row in rows if 0 in row[0].winners)
    rate = wilson(wins, games)
    first = exact(base["uniform"]["wins"][0])
    out: dict[str, Any] = {
        "command": document.get("command"), "games": games, "seed": seed,
        "truncated": sum(1 for row in rows for g in row if g.truncated),
        "baseline": {"exact": first, "exact_text": base["uniform"]["wins"][0]["exact"],
                     "unexplored": exact(base["uniform"]["unexplored"]),
                     "lab": _interval(rate), "contains": _contains(rate, first)}, "options": []}
    for k, o in enumerate(options):
        pairs = [(row[0], row[1 + k]) for row in rows]
        change = figures(pairs, ambiguities.index(o["ambiguity"]), players)[
            "seat_win_rate_change"][0]
        value = exact(o["win_changes"][0])
        unexplored = exact(o["verification"]["uniform"]["unexplored"])
        interval = Interval(change["value"], change["low"], change["high"])
        out["options"].append({
            "option": f"{o['ambiguity']}={o['option']}", "exact": value,
            "exact_text": o["win_changes"][0]["exact"], "unexplored": unexplored,
            "lab": change, "contains": _contains(interval, value, unexplored)})
    return out


def _interval(i: Interval) -> dict[str, float]:
    return {"value": i.value, "low": i.low, "high": i.high}


def _contains(i: Interval, x: float, slack: float = 0.0) -> bool:
    # A bounded search's exact figure may sit anywhere within its unexplored probability.
    return i.low - 1e-12 <= x + slack and x - slack <= i.high + 1e-12


def _fraction(text: str | None, value: float) -> str:
    if text and len(text) <= 21:
        return f"{text} ≈ {value:.6f}"
    return f"{value:.6f}"


def table(results: Sequence[Mapping[str, Any]]) -> str:
    """Return the markdown of every comparison."""
    lines = ["| configuration | figure | exact (verify) | lab: 95% interval | games | "
             "contains |", "|---|---|---|---|---:|---|"]
    misses = total = 0
    entries = load_published()
    for r in results:
        # The view by its name, long values elided, the full command a link away.
        cell = cell_of(str(r["command"]), "", entries)
        b = r["baseline"]
        rows = [("seat 0 wins (baseline)", b)] + [
            (f"seat 0's change under {o['option']}", o) for o in r["options"]]
        for label, item in rows:
            lab = item["lab"]
            extra = (f" (± {item['unexplored']:.1e} unexplored)"
                     if item.get("unexplored") else "")
            total += 1
            misses += not item["contains"]
            lines.append(f"| {cell} | {label} | {_fraction(item['exact_text'], item['exact'])}"
                         f"{extra} | [{lab['low']:.4f}, {lab['high']:.4f}] | {r['games']:,} | "
                         f"{'yes' if item['contains'] else '**no**'} |")
    lines += ["", f"{total - misses} of {total} intervals contain the exact figure (at 95% "
              f"confidence about {total / 20:.1f} misses are expected by chance)."]
    return "\n".join(lines)


def update_docs(text: str, page: Path = DOCS_PAGE) -> None:
    """Rewrite the section between the lab markers of the docs page."""
    write_section(page, text, begin=BEGIN, end=END)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="paired games per configuration")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--results", type=Path, default=RESULT,
                        help="rulespec verify --published --format json output")
    parser.add_argument("--update-docs", action="store_true",
                        help=f"write {LAB_RESULT.relative_to(ROOT)} and the docs page's table")
    parser.add_argument("--render", action="store_true",
                        help=f"only write the docs page's table again from "
                             f"{LAB_RESULT.relative_to(ROOT)} (no games played)")
    args = parser.parse_args(argv)
    if args.render:
        text = table(json.loads(LAB_RESULT.read_text(encoding="utf-8")))
        update_docs(text)
        print(text)
        return 0
    documents = json.loads(args.results.read_text(encoding="utf-8"))
    known = set(game_ids())
    results = []
    for document in documents:
        if document["baseline"]["game"] not in known or document["baseline"]["uniform"] is None:
            continue
        if document["baseline"]["status"] != "proved":
            continue
        print(f"playing {document['command']}", file=sys.stderr)
        results.append(compare(document, args.games, args.seed))
    text = table(results)
    print(text)
    if args.update_docs:
        LAB_RESULT.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        update_docs(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
