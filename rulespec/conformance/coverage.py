"""Declared coverage: configurations that play every ruling option an engine declares.

Declaring several options of an ambiguity in ``hello`` says the engine implements each of them.
Every option is then played at least once, and every pair of options of two ambiguities in some
configuration (a pairwise covering array, built greedily), spread over the declared player
counts so the number of configurations stays near the number of rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulespec.conformance.protocol import Hello
from rulespec.spec.model import Spec

Pair = tuple[str, str, str, str]


def pairwise(choices: Mapping[str, Sequence[str]]) -> list[dict[str, str]]:
    """Return rows (ambiguity -> option) that cover every option, and every pair of options of
    two ambiguities; ambiguities with one choice are fixed in every row.

    The first row takes every ambiguity's first choice (put the default first).
    """
    fixed = {a: opts[0] for a, opts in choices.items() if len(opts) == 1}
    free = [a for a, opts in choices.items() if len(opts) > 1]
    if len(free) < 2:
        single = [{a: o} for a in free for o in choices[a]] or [{}]
        return [{**fixed, **r} for r in single]
    order = {a: i for i, a in enumerate(free)}

    def pair(a: str, o: str, b: str, p: str) -> Pair:
        return (a, o, b, p) if order[a] < order[b] else (b, p, a, o)

    todo = {pair(a, o, b, p) for i, a in enumerate(free) for b in free[i + 1:]
            for o in choices[a] for p in choices[b]}
    rows: list[dict[str, str]] = []
    first: dict[str, str] | None = {a: choices[a][0] for a in free}
    while todo:
        a, o, b, p = min(todo)
        row = first or {a: o, b: p}
        first = None
        for c in free:
            if c not in row:
                row[c] = max(choices[c], key=lambda q: sum(
                    pair(x, row[x], c, q) in todo for x in row))
        todo -= {pair(x, row[x], y, row[y]) for i, x in enumerate(free) for y in free[i + 1:]}
        rows.append({**fixed, **row})
    return rows


def declared_configs(spec: Spec, hello: Hello, *, players: Sequence[int] | None = None,
                     variants: Sequence[str] = (),
                     parameters: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Return the configurations that cover what ``hello`` declares for ``spec``'s game."""
    info = hello.games.get(spec.game_id, {})
    counts = [n for n in (players or range(spec.min_players, spec.max_players + 1))
              if info.get("players") is None or n in info["players"]]
    declared = info.get("rulings", {})
    defaults = spec.default_rulings()
    choices = {amb: sorted((o for o in declared.get(amb, []) if o in _options(spec, amb)),
                           key=lambda o: o != defaults[amb])
               for amb in spec.ambiguities}
    choices = {amb: opts for amb, opts in choices.items() if opts}
    rows = pairwise(choices)
    configs = []
    # Every count once with the first row, then the other rows spread over the counts.
    plan = [(n, rows[0]) for n in counts]
    plan += [(counts[i % len(counts)], row) for i, row in enumerate(rows[1:])] if counts else []
    for n, row in plan:
        configs.append({"game": spec.game_id, "players": n, "rulings": dict(row),
                        "variants": list(variants), "parameters": dict(parameters or {})})
    return configs


def _options(spec: Spec, ambiguity: str) -> list[str]:
    return [str(o["id"]) for o in spec.ambiguities[ambiguity]["options"]]
