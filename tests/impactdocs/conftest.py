"""Fixtures of structured impact (``rulespec-impact/1``) until real sweeps are recorded.

The JSON files have the shape ``rulespec impact --format json`` prints: ``{"format", "game",
"records": {AMB-ID: measured}}``. Their figures are realistic but made up; they never go into
the committed specs (``rulespec impact --write`` records real ones).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(game: str) -> dict[str, Any]:
    """Return the measurements of one game's fixture by record id."""
    records: dict[str, Any] = json.loads((FIXTURES / f"{game}.json").read_text("utf-8"))["records"]
    return records
