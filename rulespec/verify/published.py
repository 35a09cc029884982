"""The published configurations: what ``rulespec verify --published`` runs and the docs show.

They are data (``published.yaml`` beside this module): for each game, configurations small
enough to verify in minutes on two cores, each reduced through the spec's own parameters and
variants (no number of a rulebook here), with the view it needs and the option runs. The
table of their figures is written into the docs page between two markers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

from rulespec.verify.outcomes import Number
from rulespec.verify.run import MAX_STATES, Bounds, RulingsRun, Setup, Verification
from rulespec.verify.walks import MERGE_WALKS

DATA = Path(__file__).with_name("published.yaml")
BEGIN = "<!-- verify:begin -->"
#: The longest command a table cell holds, in characters.
CELL = 200
END = "<!-- verify:end -->"


@dataclass(frozen=True)
class Published:
    """One published configuration and how it is verified."""

    game: str
    players: int
    parameters: Mapping[str, Any] = field(default_factory=dict)
    rulings: Mapping[str, str] = field(default_factory=dict)
    variants: tuple[str, ...] = ()
    #: The view's terms (``turns``, ``last(opening)``, ``relative(turns)``, ``cap(F, K)``).
    view: tuple[str, ...] = ()
    max_depth: int | None = None
    max_states: int = MAX_STATES
    cross_check: int = 20_000
    optimal: bool = False
    #: Also verify every other option of every ambiguity the configuration reaches.
    all_rulings: bool = True
    #: Merges walked after the search (``rulespec.verify.walks``).
    merge_walks: int = MERGE_WALKS
    note: str = ""
    #: The name of the view (``views`` in the file), when it is a named one.
    view_name: str | None = None
    #: The id of its place on the docs page (``verify-GAME-N``, N from 1 in file order).
    anchor: str = ""

    def bounds(self) -> Bounds:
        """Return the bounds it is verified with."""
        return Bounds(view=self.view, max_states=self.max_states, max_depth=self.max_depth,
                      optimal=self.optimal, cross_check=self.cross_check,
                      merge_walks=self.merge_walks)

    def setup(self, spec: Any, engine_type: Any) -> Setup:
        """Return the setup of this configuration for a game's spec and engine class."""
        return Setup(spec, engine_type, self.players, dict(self.rulings), self.variants,
                     dict(self.parameters))

    def command(self, *, named: bool = False) -> str:
        """Return the ``rulespec verify`` command line that runs it (``named``: a named view as
        ``--views NAME``, not term by term)."""
        import json
        import shlex

        parts = ["rulespec", "verify", self.game, "-n", str(self.players)]
        for name, value in self.parameters.items():
            parts += ["-p", f"{name}={json.dumps(value, separators=(',', ':'))}"]
        for amb, option in self.rulings.items():
            parts += ["-r", f"{amb}={option}"]
        for variant in self.variants:
            parts += ["-v", variant]
        if named and self.view_name is not None:
            parts += ["--views", self.view_name]
        else:
            for term in self.view:
                parts += ["--forget", term] if "(" not in term else ["--view", term]
        if self.max_depth is not None:
            parts += ["--max-depth", str(self.max_depth)]
        if self.max_states != MAX_STATES:
            parts += ["--max-states", str(self.max_states)]
        if self.view and self.cross_check != 20_000:
            parts += ["--cross-check", str(self.cross_check)]
        if self.merge_walks != MERGE_WALKS:
            parts += ["--merge-walks", str(self.merge_walks)]
        if self.optimal:
            parts.append("--optimal")
        if self.all_rulings:
            parts.append("--all-rulings")
        return " ".join(shlex.quote(p) for p in parts)


    def cell(self, limit: int = CELL) -> str:
        """Return the command for a table cell: the view by its name, and a parameter's long
        JSON value as ``NAME=…`` while the line is longer than ``limit`` (the full command is
        on the docs page, at ``#`` + ``anchor``)."""
        import shlex

        text = self.command(named=True).replace(" --all-rulings", "")
        if len(text) <= limit:
            return text
        parts = shlex.split(text)
        for k in sorted(range(len(parts)), key=lambda i: -len(parts[i])):
            if len(" ".join(shlex.quote(p) for p in parts)) <= limit:
                break
            if k > 0 and parts[k - 1] == "-p" and "=" in parts[k]:
                parts[k] = parts[k].split("=", 1)[0] + "=…"
        return " ".join(shlex.quote(p) for p in parts)


@dataclass(frozen=True)
class NamedView:
    """A view the published configurations share, by name."""

    name: str
    game: str
    terms: tuple[str, ...]
    note: str = ""


def load_views(path: Path | None = None) -> dict[str, NamedView]:
    """Return the named views of the published configurations' file, by name."""
    data = yaml.safe_load((path or DATA).read_text(encoding="utf-8"))
    return _views(data)


def _views(data: Mapping[str, Any]) -> dict[str, NamedView]:
    views: dict[str, NamedView] = {}
    for name, item in (data.get("views") or {}).items():
        terms = tuple(item.get("forget", ())) + tuple(item.get("view", ()))
        views[str(name)] = NamedView(str(name), str(item["game"]), terms,
                                     str(item.get("note", "")).strip())
    return views


def load_published(path: Path | None = None) -> list[Published]:
    """Return the published configurations (of ``DATA`` by default), in file order.

    A configuration's ``view`` is a list of terms (with ``forget``, the fields forgotten), or
    the name of one of the file's ``views``.
    """
    data = yaml.safe_load((path or DATA).read_text(encoding="utf-8"))
    views = _views(data)
    out = []
    counts: dict[str, int] = {}
    for item in data["configurations"]:
        game = str(item["game"])
        counts[game] = counts.get(game, 0) + 1
        named = item.get("view")
        view_name = None
        if isinstance(named, str):
            if named not in views or views[named].game != game:
                raise ValueError(f"published configuration {counts[game]} of {game} names the "
                                 f"view {named!r}, which the file's views do not define for "
                                 f"{game}")
            view_name = named
            terms = tuple(item.get("forget", ())) + views[named].terms
        else:
            terms = tuple(item.get("forget", ())) + tuple(named or ())
        out.append(Published(
            game=game, players=int(item["players"]),
            parameters=dict(item.get("parameters", {})), rulings=dict(item.get("rulings", {})),
            variants=tuple(item.get("variants", ())), view=terms,
            max_depth=item.get("max_depth"), max_states=int(item.get("max_states", MAX_STATES)),
            cross_check=int(item.get("cross_check", 20_000)),
            optimal=bool(item.get("optimal", False)),
            all_rulings=bool(item.get("all_rulings", True)),
            merge_walks=int(item.get("merge_walks", MERGE_WALKS)),
            note=str(item.get("note", "")).strip(),
            view_name=view_name, anchor=f"verify-{game}-{counts[game]}"))
    return out


def cell_of(command: str, page: str = "", entries: Sequence[Published] | None = None) -> str:
    """Return a table cell for a published command line: its short form, linked to the full
    command on the verification page (``page``: its address from the page the table is on,
    empty on the page itself); a command of no published configuration is shortened."""
    for entry in entries if entries is not None else load_published():
        if command in (entry.command(), entry.command().replace(" --all-rulings", "")):
            if entry.cell() == command:
                return f"`{command}`"
            return f"`{entry.cell()}` ([full command]({page}#{entry.anchor}))"
    return f"`{command[:CELL - 1]}…`" if len(command) > CELL else f"`{command}`"


# -- the docs table ----------------------------------------------------------------------------------


def _probability(x: Number) -> str:
    if isinstance(x, Fraction) and x.denominator.bit_length() <= 70 and len(str(x)) <= 21:
        return f"{x} ≈ {float(x):.6f}" if x.denominator != 1 else str(x)
    return f"{float(x):.9f}"


def _wins(v: Verification) -> str:
    if v.uniform is None:
        return "–"
    wins = " / ".join(_probability(w) for w in v.uniform.wins)
    if v.uniform.unexplored:
        wins += f" (+ ≤ {float(v.uniform.unexplored):.1e} unexplored)"
    return wins


def _row(label: str, v: Verification) -> str:
    s = v.exploration.stats
    proven = sum(1 for x in v.invariant_status.values() if x == "proven")
    total = len(v.invariant_status)
    graph = "acyclic" if v.acyclic else f"cycles (largest {v.largest_component:,})"
    status = {"proved": "proved", "bounded": "bounded", "violated": "**violated**"}[v.status]
    return (f"| {label} | {status} | {s.states:,} | {s.transitions:,} | {s.depth} | {graph} | "
            f"{proven} of {total} | {_wins(v)} | {s.seconds:,.1f} s | "
            f"{s.bytes_per_state:.0f} |")


HEADER = ("| rulings | status | distinct states | transitions | depth | graph | invariants "
          "proven | seat win probabilities (uniform random players) | time | store bytes/state |\n"
          "|---|---|---:|---:|---:|---|---|---|---:|---:|")


def table(entry: Published, run: RulingsRun, defaults: Mapping[str, str]) -> str:
    """Return the markdown of one published configuration: its command, table and notes."""
    base = run.baseline
    lines = [f'<a id="{entry.anchor}"></a>' if entry.anchor else "", "",
             f"`{entry.cell()}`", ""]
    full = entry.command()
    if full != entry.cell():
        lines += ["??? note \"The full command\"", "", "    ```console",
                  f"    $ {full}", "    ```", ""]
    if entry.note:
        lines += [entry.note, ""]
    lines.append(HEADER)
    chosen = {k: v for k, v in base.config["rulings"].items() if defaults.get(k) != v}
    label = "baseline" + (f" ({', '.join(f'{k}={v}' for k, v in chosen.items())})"
                          if chosen else " (the defaults)")
    lines.append(_row(label, base))
    for option in run.options:
        if option.verification is None:
            lines.append(f"| {option.ambiguity}={option.option} | not run: {option.skipped} "
                         "| | | | | | | | |")
            continue
        lines.append(_row(f"{option.ambiguity}={option.option}", option.verification))
    if base.optimal is not None:
        o = base.optimal.outcomes
        lines += ["", "Optimal play (value iteration, baseline): seat win probabilities "
                  + " / ".join(_probability(w) for w in o.wins) + "."]
    return "\n".join(lines)


def write_section(page: Path, text: str, games: Sequence[str] | None = None, *,
                  begin: str = BEGIN, end: str = END) -> None:
    """Replace the text between the page's markers (the verify ones unless told) with
    ``text``; with ``games``, only those games' parts (``### game`` to the next), keeping the
    others as they were. The benchmarks' tables beside the published ones are written so too."""
    content = page.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(begin) + "\n?(.*?)\n?" + re.escape(end), re.DOTALL)
    found = pattern.search(content)
    if not found:
        raise ValueError(f"{page} has no {begin} ... {end} markers; add them where the table "
                         "goes")
    if games is not None:
        parts = _parts(found.group(1))
        parts.update(_parts(text))
        text = "\n\n".join(body.rstrip() for body in parts.values())
    page.write_text(content[:found.start()] + f"{begin}\n{text}\n{end}"
                    + content[found.end():], encoding="utf-8")


def _parts(text: str) -> dict[str, str]:
    """Return a generated section's parts by game (``### game`` headings), in order."""
    parts: dict[str, str] = {}
    for chunk in re.split(r"(?m)^(?=### )", text):
        if chunk.startswith("### "):
            parts[chunk.split("\n", 1)[0][4:].strip()] = chunk
    return parts


def section(entries: Sequence[tuple[Published, RulingsRun | str]],
            defaults_of: Mapping[str, Mapping[str, str]], stamp: str) -> str:
    """Return the generated section: per game a heading, its tables and the stamp."""
    out: list[str] = []
    game = None
    views = load_views()
    for entry, run in entries:
        if entry.game != game:
            if game is not None:
                out += [stamp, ""]
            game = entry.game
            out += [f"### {game}", ""]
            named = dict.fromkeys(e.view_name for e, _ in entries
                                  if e.game == game and e.view_name is not None)
            for name in named:
                if name is None or name not in views:
                    continue
                view = views[name]
                out += [f'<a id="view-{name}"></a>', "",
                        f"**View `{name}`** (`--views {name}`)"
                        + (f": {view.note}" if view.note else "") + "", "",
                        "```yaml", *(f"- {term}" for term in view.terms), "```", ""]
        if isinstance(run, str):
            out += [f"`{entry.command()}`: not run here: {run}", ""]
            continue
        out += [table(entry, run, defaults_of[entry.game]), ""]
    out.append(stamp)
    return "\n".join(out)
