"""Possible renames: a removed element and an added one that look alike (``POSSIBLY_RENAMED``).

A hint, not a change: it never moves the bump. Ids are permanent, so a rename is a removal and
an addition; the hint says the two look alike so that an editor can keep the old id.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rulespec.releases.change import Change
from rulespec.releases.change import clauses_of as _clauses

Data = Mapping[str, Any]


def _without_id(item: Any) -> Any:
    return {k: v for k, v in item.items() if k != "id"} if isinstance(item, Mapping) else item


#: How alike two texts must be (difflib's ratio) for a removal and an addition to look alike.
RENAME_TEXT_RATIO = 0.8


def _likeness(old: Data, new: Data) -> str | None:
    """Say why a removed and an added element look alike, or None when they do not: the same
    shape with most fields equal, or similar text (both without their ids)."""
    a, b = _without_id(old), _without_id(new)
    if not isinstance(a, Mapping) or not isinstance(b, Mapping):
        return None
    keys = set(a) | set(b)
    equal = sum(1 for k in keys if a.get(k) == b.get(k))
    if keys and set(a) == set(b) and 2 * equal > len(keys):
        return f"{equal} of {len(keys)} fields equal"
    text_a = json.dumps(a, sort_keys=True, ensure_ascii=False, default=str)
    text_b = json.dumps(b, sort_keys=True, ensure_ascii=False, default=str)
    matcher = difflib.SequenceMatcher(None, text_a, text_b, autojunk=False)
    if matcher.real_quick_ratio() >= RENAME_TEXT_RATIO and \
            matcher.quick_ratio() >= RENAME_TEXT_RATIO:
        ratio = matcher.ratio()
        if ratio >= RENAME_TEXT_RATIO:
            return f"their text is {ratio:.0%} alike"
    return None


def renames(section: str, removed: Mapping[str, Data], added: Mapping[str, Data],
            records: Callable[[Data], tuple[str, ...]] = lambda _: (), *,
            cite_ids: bool = False) -> Iterator[Change]:
    """Yield a POSSIBLY_RENAMED hint for each removed element that looks like an added one
    (each paired at most once, the most alike first); ``cite_ids`` cites the two ids as
    clauses (the elements are clauses)."""
    found: list[tuple[int, str, str, str]] = []
    for gone, was in removed.items():
        for ident, item in added.items():
            why = _likeness(was, item)
            if why is not None:
                equal = sum(1 for k in set(was) | set(item) if k != "id" and
                            was.get(k) == item.get(k))
                found.append((-equal, gone, ident, why))
    paired: set[tuple[str, str]] = set()
    for _, gone, ident, why in sorted(found):
        if ("old", gone) in paired or ("new", ident) in paired:
            continue
        paired.update({("old", gone), ("new", ident)})
        yield Change.of("POSSIBLY_RENAMED", f"{section}.{ident}",
                        f"{gone} removed and {ident} added look alike ({why}): a rename? ids "
                        f"are permanent; if it is one, keep {gone}",
                        (gone, ident) if cite_ids else _clauses(removed[gone], added[ident]),
                        tuple(dict.fromkeys([*records(removed[gone]), *records(added[ident])])),
                        old=gone, new=ident, related=(f"{section}.{gone}", f"{section}.{ident}"))
