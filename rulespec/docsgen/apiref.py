"""The Python API reference, one page per group of the public API (issue 45, item 2).

``docs/reference/api.md`` lists every public name (``::: rulespec.spec.load_spec``) under a
``##`` heading per group; a test checks that it lists what the packages export. On one page the
reference weighed 439 KB (the page budget is 300 KB), its contents list alone 100 KB. The build
turns it into an index, which keeps each group's heading and introduction and links every name
to its entry, and one page per group (``reference/api/<package>.md``) with the entries. An old
address of an entry on the index (``reference/api/#rulespec.spec.load_spec``) is sent on to it
(``docs/javascripts/parts.js`` follows the index's links of class ``rs-moved``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulespec.docsgen.markdown import Page

#: The hand-written source of the reference, relative to the docs folder.
API_PAGE = "reference/api.md"
#: Where the group pages go, relative to the docs folder.
API_DIR = "reference/api"
_DIRECTIVE = re.compile(r"^::: (rulespec\.[\w.]+)", re.MULTILINE)
_LINK = re.compile(r"\]\((?![a-z][a-z0-9+.-]*:|#|/)")


@dataclass(frozen=True)
class Group:
    """One ``##`` section of the reference that documents names."""

    title: str
    #: The group page, relative to the docs folder (``reference/api/spec.md``).
    path: str
    #: Its prose before the first entry.
    intro: str
    #: The names it documents, in order.
    names: tuple[str, ...]
    #: Its entries: the ``:::`` directives and their options.
    entries: str


def _sections(markdown: str) -> tuple[str, list[tuple[str, str]]]:
    """Return the text before the first ``##`` heading and each section (title, body)."""
    pieces = re.split(r"^## (.+)$", markdown, flags=re.MULTILINE)
    return pieces[0], [(pieces[i].strip(), pieces[i + 1]) for i in range(1, len(pieces), 2)]


def api_groups(markdown: str) -> list[Group]:
    """Return the reference's groups: the sections with at least one ``:::`` entry."""
    groups = []
    for title, body in _sections(markdown)[1]:
        first = _DIRECTIVE.search(body)
        if first is None:
            continue
        package = first.group(1).split(".")[1]
        groups.append(Group(title, f"{API_DIR}/{package}.md", body[:first.start()].strip(),
                            tuple(_DIRECTIVE.findall(body)), body[first.start():].strip()))
    if len({g.path for g in groups}) != len(groups):
        raise ValueError(f"{API_PAGE}: two sections document the same package; give each "
                         "package one section")
    return groups


def api_index(markdown: str) -> str:
    """Return the index the reference's page shows: every section as written, a group's
    entries replaced by a link to its page and a list of its names, each linked to its entry."""
    head, sections = _sections(markdown)
    by_title = {g.title: g for g in api_groups(markdown)}
    out = [head]
    for title, body in sections:
        group = by_title.get(title)
        if group is None:
            out.append(f"## {title}\n{body}")
            continue
        page = group.path.removeprefix("reference/")
        names = ", ".join(f'[`{name.rpartition(".")[2]}`]({page}#{name}){{ .rs-moved }}'
                          for name in group.names)
        out.append(f"## {title}\n\n{group.intro}\n\n**[The entries]({page})**: {names}.\n\n")
    return "".join(out)


def api_pages(markdown: str) -> list[Page]:
    """Return the page of each group: its title, introduction and entries, the introduction's
    links read from the page's folder, one floor further down."""
    return [Page(g.path, f"# Python API: {g.title}\n\n{_LINK.sub('](../', g.intro)}\n\n"
                         f"Part of the [Python API reference](../api.md).\n\n{g.entries}\n")
            for g in api_groups(markdown)]


def api_nav(nav: list[object], groups: list[Group]) -> bool:
    """Put the group pages under the reference's entry of ``nav`` (changed in place); return
    whether the entry was found."""
    for at, entry in enumerate(nav):
        if isinstance(entry, dict):
            for key, value in entry.items():
                if value == API_PAGE:
                    entry[key] = [API_PAGE, *({g.title: g.path} for g in groups)]
                    return True
                if isinstance(value, list) and api_nav(value, groups):
                    return True
        elif entry == API_PAGE:
            nav[at] = {"Python API": [API_PAGE, *({g.title: g.path} for g in groups)]}
            return True
    return False
