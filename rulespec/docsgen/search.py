"""Make the site search find ids first, rules before commentary, and ignore accents and endings,
by extending the built search index and the theme's search worker.

The theme's search (lunr) queries the fields ``title`` (boosted 1e3), ``text`` and ``tags``
(boosted 1e6). After the build, :func:`tune_index`

- gives every section anchored at a permanent id (``#DDO-ROUND-02``) that id as a tag, so a
  clause id finds its clause first however many pages mention it;
- titles a clause or invariant section, whose heading is only its id, with what it says
  (``OURO-CARD-05: Dynamite draws three stones at once; ...``), so a word of the rule weighs in
  its title as a record's title does, and the result says what the rule is;
- demotes the sections that explain how the kit searches (coverage scope and hints): found, but
  after the rules (:data:`DEMOTED`; whole pages of commentary are demoted by their front matter,
  ``search: boost``);

Accents and Portuguese and Galician plurals are matched in the worker (:data:`WORKER_FOLD`):
every word, indexed or searched, loses its accents before it is stemmed (``pontuacao`` finds
``pontuação``, ``ganador`` finds ``gañador``, ``número`` finds ``numero``); and an accented
word of the text, which in this corpus is a Portuguese or Galician word of a rulebook, is
indexed once more as a marked copy with its plural ending reduced as those languages form
plurals (:data:`PLURALS`: ``-ções`` is ``-ção``, ``-eis`` is ``-el``, ``-íns`` is ``-ín``...),
as is every searched word, so ``pontuacoes`` finds ``pontuação`` and ``possivel`` finds
``possíveis``. The English stemmer knows none of these endings; the marked copies match only
each other, so an English word is searched as before.

The theme's worker needs more patches (:func:`patch_worker`): ids must stay one term in the
query (it splits queries on its lexer's separator, whitespace and ``-``, not the configured
one: it is made to split on whitespace only, and the configured separator, which has no ``-``,
does the rest); and the query must be stemmed as the index is (``pipeline`` in mkdocs.yml
stems both), but the worker adds ``*`` to every word for search-as-you-type and lunr never
stems a wildcard term, so ``rolls*`` would not find the stem ``roll``: each word is searched
both as typed with ``*`` and as a whole, stemmed word. Two more patches keep a result from
saying "Missing: word" of a word it has (the theme compares the word as typed with the stemmed
index terms, and marks missing the copy of a word the other copy found).
"""

from __future__ import annotations

import html
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from rulespec.spec.model import Spec

_ID_ANCHOR = re.compile(r"#([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)$")

#: Anchors of sections ranked after the rules, with their boost (1 is the default).
DEMOTED: Mapping[str, float] = {"coverage-scope": 0.1, "coverage-hints": 0.1}


def fold(value: str) -> str:
    """Return ``value`` without accents (``pontuação`` -> ``pontuacao``)."""
    decomposed = unicodedata.normalize("NFKD", value)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def search_titles(specs: Iterable[Spec]) -> dict[str, str]:
    """Return what each clause (its statement) and invariant (its description) says, by id."""
    out: dict[str, str] = {}
    for spec in specs:
        for clause in spec.section("clauses"):
            out[str(clause["id"])] = " ".join(str(clause["statement"]).split())
        for inv in spec.section("invariants"):
            out[str(inv["id"])] = " ".join(str(inv["description"]).split())
    return out


def tune_index(index: Mapping[str, Any], *, titles: Mapping[str, str] | None = None
               ) -> dict[str, Any]:
    """Return the search index with id tags, titled id sections and demoted hints.

    ``titles`` maps an id to what it says: a section anchored at that id and titled by the id
    alone is titled ``ID: what it says``.
    """
    docs = []
    for entry in index.get("docs", []):
        doc = dict(entry)
        location = str(doc.get("location", ""))
        match = _ID_ANCHOR.search(location)
        if match:
            ident = match.group(1)
            doc["tags"] = [*doc.get("tags", []), ident]
            said = (titles or {}).get(ident)
            if said and str(doc.get("title", "")).strip() == ident:
                doc["title"] = f"{ident}: {html.escape(said, quote=False)}"
        fragment = location.rpartition("#")[2] if "#" in location else ""
        if fragment in DEMOTED:
            doc["boost"] = DEMOTED[fragment] * float(doc.get("boost", 1))
        docs.append(doc)
    return {**index, "docs": docs}


#: How the theme's search worker sets its query separator, and what it becomes.
WORKER_SEPARATOR = "t.QueryLexer.termSeparator=t.tokenizer.separator"
WORKER_PATCHED = "t.QueryLexer.termSeparator=/\\s+/"
#: How the worker makes every word of a query a prefix, and what it becomes: the prefix, and
#: the whole word (stemmed by the search pipeline, as the index is).
WORKER_PREFIX = ".map(r=>/(^[+-]|[~^]\\d+$)/.test(r)?r:`${r}*`)"
WORKER_PREFIX_PATCHED = ".map(r=>/(^[+-]|[~^]\\d+$)/.test(r)?r:`${r}* ${r}`)"

#: How the worker marks a query word found in a result: an index term the result matched
#: starts with the word as typed. The index is stemmed (``dynamite`` is ``dynamit``), so a word
#: whose stem is shorter was never found, and each hit said "Missing: dynamite". The patch
#: takes the word's stem too.
WORKER_FOUND = "e[s].startsWith(o.term)&&(n[o.term]=!0,r.delete(o))"
WORKER_FOUND_PATCHED = ("(e[s].startsWith(o.term)||[o.term,self.rulespecFold(o.term),"
                        "self.rulespecPlural(o.term)].some(w=>e[s].startsWith(w)||e[s].startsWith("
                        "lunr.stemmer(new lunr.Token(w)).toString())))&&(n[o.term]=!0,r.delete(o))")
#: How the worker marks the words it did not find as missing. Each word is searched twice
#: (``word*`` and ``word``, above): the copy not matched must not mark missing the word the
#: other found.
WORKER_MISSING = "for(let s of r)(i=lunr.stopWordFilter)!=null&&i.call(lunr,s.term)&&(n[s.term]=!1)"
WORKER_MISSING_PATCHED = ("for(let s of r)n[s.term]||(i=lunr.stopWordFilter)!=null&&"
                          "i.call(lunr,s.term)&&(n[s.term]=!1)")
#: Portuguese and Galician plural endings, folded, and their singular (the first that ends a
#: word of more than two letters besides it is replaced): the plural step of stemmers for
#: Portuguese such as RSLP (Orengo and Huyck, 2001), with Galician's ``-ns`` of ``-n`` beside
#: Portuguese ``-ns`` of ``-m`` (both end in ``n``).
PLURALS: tuple[tuple[str, str], ...] = (
    ("coes", "cao"), ("oes", "ao"), ("aes", "ao"), ("ais", "al"), ("eis", "el"), ("ois", "ol"),
    ("uis", "ul"), ("ns", "n"), ("m", "n"), ("res", "r"), ("zes", "z"), ("les", "l"), ("s", ""))
#: Where the worker's index builder sets its fields, and what goes before: the accent folding
#: and the marked plural copy (``§`` and the reduced word) at the head of the index's and the
#: query's pipelines, before the stemmer. In the index only an accented word gets a copy.
WORKER_FIELDS = 'this.ref("location");'
WORKER_FOLD = (
    'self.rulespecFold=function(s){return s.normalize("NFD").replace(/[\\u0300-\\u036f]/g,"")};'
    "self.rulespecPlural=function(s){s=self.rulespecFold(s);for(const[e,r]of "
    + json.dumps([list(p) for p in PLURALS], separators=(",", ":"))
    + ')if(s.length>e.length+2&&s.endsWith(e))return"\\u00a7"+s.slice(0,-e.length)+r;'
    'return"\\u00a7"+s};'
    "{const F=self.rulespecFold,R=self.rulespecPlural,copy=function(all){return function(t){"
    "const s=t.toString(),f=F(s),o=[t.clone(function(){return f})];"
    "if(all||f!==s)o.push(t.clone(function(){return R(s)}));return o}};"
    "this.pipeline._stack.unshift(copy(!1));this.searchPipeline._stack.unshift(copy(!0))}"
    + WORKER_FIELDS)
_WORKER_PATCHES = ((WORKER_SEPARATOR, WORKER_PATCHED), (WORKER_PREFIX, WORKER_PREFIX_PATCHED),
                   (WORKER_FOUND, WORKER_FOUND_PATCHED), (WORKER_MISSING, WORKER_MISSING_PATCHED),
                   (WORKER_FIELDS, WORKER_FOLD))


def patch_worker(source: str) -> str | None:
    """Return the search worker with queries split on whitespace only, each word searched
    whole too (so it is stemmed), and a word found by its stem not marked missing; or None if
    the theme's worker no longer has the code this patches (the search tests then fail)."""
    if any(old not in source for old, _ in _WORKER_PATCHES):
        return None
    for old, new in _WORKER_PATCHES:
        source = source.replace(old, new)
    return source
