"""A Griffe extension: an attribute's ``#:`` comments are its docstring in the API reference.

rulespec documents dataclass fields and module constants the way Sphinx reads them, with
``#:`` comments on the lines just above (or at the end of the line)::

    #: Hypothesis examples (games) per configuration.
    examples: int = 40

Griffe reads only a string literal under the attribute, so without this extension the API
reference (mkdocstrings, ``docs/reference/api.md``) showed no field of ``Options``, ``Report``,
``Failure`` or ``TraceStep``. mkdocs.yml loads it for the Python handler; an attribute that
already has a docstring keeps it.
"""

from __future__ import annotations

import ast
from typing import Any

from griffe import Attribute, Docstring, Extension, ObjectNode

_MARK = "#:"


def comment_docstring(lines: list[str], lineno: int) -> str | None:
    """Return the ``#:`` comment of the attribute assigned on line ``lineno`` (1-based) of
    ``lines``: the block of ``#:`` lines just above it, or the one ending the line itself."""
    if not 0 < lineno <= len(lines):
        return None
    above: list[str] = []
    index = lineno - 2
    while index >= 0 and lines[index].strip().startswith(_MARK):
        above.append(lines[index].strip()[len(_MARK):].strip())
        index -= 1
    if above:
        return "\n".join(reversed(above)).strip() or None
    line = lines[lineno - 1]
    if _MARK in line:
        tail = line.split(_MARK, 1)[1].strip()
        return tail or None
    return None


class CommentDocstrings(Extension):
    """Give an attribute without a docstring the ``#:`` comment written for it."""

    def on_attribute_instance(self, *, node: ast.AST | ObjectNode, attr: Attribute,
                              agent: Any, **kwargs: Any) -> None:
        if attr.docstring is not None or attr.lineno is None:
            return
        try:
            lines = list(attr.lines_collection[attr.filepath])  # type: ignore[index]
        except (KeyError, TypeError, AttributeError):
            return
        found = comment_docstring(lines, attr.lineno)
        if found:
            attr.docstring = Docstring(found, lineno=attr.lineno, parent=attr)
