"""Regenerate the golden traces under conformance/traces/ from the reference engines.

Usage: python scripts/make_golden_traces.py [GAME ...]   (all games by default)
       python scripts/make_golden_traces.py --check      (exit 1 if any trace would change)
"""

from __future__ import annotations

import sys

from rulespec.conformance import golden


def main(argv: list[str]) -> int:
    """Write (or with --check, compare) the golden traces."""
    check = "--check" in argv
    games = [a for a in argv if not a.startswith("-")] or None
    if check:
        problems = golden.differences(games=games)
        for p in problems:
            print(p)
        return 1 if problems else 0
    for path in golden.write(games=games):
        print(path)
    for note in golden.skipped(games):
        print(f"skipped {note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
