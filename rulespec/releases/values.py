"""Old and new values of a change, shown short: a window around where they differ.

Every change carries the value it had in OLD and the value it has in NEW, as text short enough
for one line of a report. A long value is not cut at its end, where the difference may be:
both sides are cut to the same window around the first character where they differ, so a
clause statement that gains a "not" near its end still shows the "not".
"""

from __future__ import annotations

import json
from typing import Any, Final


class _Absent:
    """The value of a side that has none (an element added or removed)."""

    def __repr__(self) -> str:
        return "ABSENT"


#: A side that has no value: an added element's OLD, a removed element's NEW.
ABSENT: Final = _Absent()

#: The longest value shown, in characters.
WIDTH = 160
#: Characters kept before the first difference when a value is cut.
LEAD = 40


def as_text(value: Any) -> str:
    """Return a value as one line of text: a string as it is, anything else as JSON."""
    if isinstance(value, str):
        return " ".join(value.split())
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return repr(value)


def _cut(text: str, start: int, width: int) -> str:
    """Return ``width`` characters of ``text`` from ``start``, with "..." where it was cut."""
    piece = text[start:start + width]
    head = "..." if start > 0 else ""
    tail = "..." if start + width < len(text) else ""
    return f"{head}{piece}{tail}"


def pair(old: Any, new: Any, width: int = WIDTH) -> tuple[str | None, str | None]:
    """Return the two values as short text (None for an ABSENT side), cut around their
    first difference when either is longer than ``width``."""
    a = None if old is ABSENT else as_text(old)
    b = None if new is ABSENT else as_text(new)
    if a is None or b is None:
        return (None if a is None else _cut(a, 0, width),
                None if b is None else _cut(b, 0, width))
    if len(a) <= width and len(b) <= width:
        return a, b
    first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                 min(len(a), len(b)))
    start = max(0, first - LEAD)
    return _cut(a, start, width), _cut(b, start, width)
