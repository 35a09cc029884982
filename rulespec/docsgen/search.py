"""Make the site search find ids first and ignore accents, by extending the built search index.

The theme's search (lunr) queries the fields ``title``, ``text`` and ``tags`` (boosted 1e6).
After the build, :func:`tune_index` gives every section anchored at a permanent id
(``#DDO-ROUND-02``) that id as a tag, so a clause id finds its clause first however many
pages mention it, and appends to each section's text its accented words without their
accents, hidden, so ``pontuacao`` finds ``pontuação``.

Ids must also stay one term in the query: the theme's worker splits queries on its lexer's
separator (whitespace and ``-``), not the configured one; :func:`patch_worker` makes it split
on whitespace only, and the configured separator (which has no ``-``) does the rest.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

_ID_ANCHOR = re.compile(r"#([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)$")
_WORD = re.compile(r"\w+")


def fold(value: str) -> str:
    """Return ``value`` without accents (``pontuação`` -> ``pontuacao``)."""
    decomposed = unicodedata.normalize("NFKD", value)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def folded_words(value: str) -> str:
    """Return the accented words of ``value``, folded, once each, space separated."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(re.sub(r"<[^>]+>", " ", value)):
        plain = fold(word)
        if plain != word:
            seen.setdefault(plain, None)
    return " ".join(seen)


def tune_index(index: Mapping[str, Any]) -> dict[str, Any]:
    """Return the search index with id tags and accent-folded text added."""
    docs = []
    for entry in index.get("docs", []):
        doc = dict(entry)
        match = _ID_ANCHOR.search(str(doc.get("location", "")))
        if match:
            doc["tags"] = [*doc.get("tags", []), match.group(1)]
        folded = folded_words(f"{doc.get('title', '')} {doc.get('text', '')}")
        if folded:
            doc["text"] = f'{doc.get("text", "")} <span hidden>{folded}</span>'
        docs.append(doc)
    return {**index, "docs": docs}


#: How the theme's search worker sets its query separator, and what it becomes.
WORKER_SEPARATOR = "t.QueryLexer.termSeparator=t.tokenizer.separator"
WORKER_PATCHED = "t.QueryLexer.termSeparator=/\\s+/"


def patch_worker(source: str) -> str | None:
    """Return the search worker with queries split on whitespace only, or None if the theme's
    worker no longer has the line this patches (the id search test then fails)."""
    if WORKER_SEPARATOR not in source:
        return None
    return source.replace(WORKER_SEPARATOR, WORKER_PATCHED)
