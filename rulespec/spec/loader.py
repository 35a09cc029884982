"""Load a spec: safe YAML with node marks kept, duplicate keys and alias bombs rejected."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulespec.limits import MAX_SPEC_BYTES, MAX_SPEC_DEPTH, MAX_SPEC_NODES
from rulespec.spec.errors import Problem, SpecError

#: A JSON path as a tuple of keys and indexes.
JsonPath = tuple[str | int, ...]

#: The most nodes an alias may expand a document to; protects against "billion laughs".
MAX_EXPANDED_NODES = MAX_SPEC_NODES

#: Whether PyYAML has libyaml's C parser: then a document is parsed in C and the pure-Python
#: parser runs only to report a problem (its messages and marks are the reference ones).
WITH_LIBYAML: bool = bool(getattr(yaml, "__with_libyaml__", False))

#: Characters YAML refuses in the text (the pure-Python reader's own test), checked before
#: the C parser sees the text, so that both parsers refuse the same characters.
_NON_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE


def format_path(path: JsonPath) -> str:
    """Return the JSONPath text of ``path`` (``$.tables[0].rows``)."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.replace("_", "").replace("-", "").isalnum():
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


class _LimitedComposer:
    """Composing with limits: compose_node stops at ``MAX_SPEC_DEPTH`` levels (before Python's
    own recursion limit) and after ``MAX_SPEC_NODES`` nodes, before any value is built."""

    _depth = 0
    _nodes = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self._nodes += 1
        if self._nodes > MAX_SPEC_NODES:
            mark = self.peek_event().start_mark  # type: ignore[attr-defined]
            raise _Limit(mark, f"the document holds more than {MAX_SPEC_NODES} values; a spec "
                         "is far smaller: check the file, or split the data")
        if self._depth >= MAX_SPEC_DEPTH:
            mark = self.peek_event().start_mark  # type: ignore[attr-defined]
            raise _Limit(mark, f"lists and mappings nest more than {MAX_SPEC_DEPTH} levels "
                         "deep; flatten the data")
        self._depth += 1
        try:
            return super().compose_node(parent, index)  # type: ignore[misc, no-any-return]
        finally:
            self._depth -= 1


class _Loader(_LimitedComposer, yaml.SafeLoader):
    """Safe loader (pure Python) that leaves dates as strings: a spec is JSON data.

    It is the reference: its error messages are the ones reported, and it records marks.
    """


if WITH_LIBYAML:
    class _CLoader(_LimitedComposer, Composer, yaml.CSafeLoader):
        """The same loader on libyaml's C parser: the events come from C, the composing (with
        its limits) and the building stay the Python ones."""

        def __init__(self, stream: str) -> None:
            yaml.CSafeLoader.__init__(self, stream)
            Composer.__init__(self)


class _Limit(Exception):
    """A document beyond a size or depth limit (where, and what to do)."""

    def __init__(self, mark: Any, message: str) -> None:
        super().__init__(message)
        self.mark = mark
        self.message = message


# Timestamps would come back as datetime objects, which are not JSON; keep them as text.
_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
if WITH_LIBYAML:
    _CLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers


class Marks:
    """Where each JSON path of a loaded document starts in its file (1-based).

    Made with the document's ``text``, the marks are found only when first asked for (the
    text is parsed again then): a document that loads without a problem seldom needs them.
    """

    def __init__(self, file: str, text: str | None = None) -> None:
        self.file = file
        self._marks: dict[JsonPath, tuple[int, int]] = {}
        self._text = text

    def _find(self) -> None:
        text, self._text = self._text, None
        if text is None:
            return
        loader = _CLoader(text) if WITH_LIBYAML else _Loader(text)
        try:
            node = loader.get_single_node()
            if node is not None:
                _Builder(loader, self).build(node, ())
        except Exception:  # the text loaded once: a problem now only costs marks
            pass
        finally:
            loader.dispose()

    def record(self, path: JsonPath, node: Node) -> None:
        """Remember the position of ``node`` for ``path``."""
        self._marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)

    def at(self, path: JsonPath) -> tuple[int, int]:
        """Return the line and column of ``path``, or of its nearest recorded ancestor."""
        if self._text is not None:
            self._find()
        probe = tuple(path)
        while probe:
            if probe in self._marks:
                return self._marks[probe]
            probe = probe[:-1]
        return self._marks.get((), (1, 1))

    def exact(self, path: JsonPath) -> tuple[int, int] | None:
        """Return the line and column of ``path`` itself (None: it was not recorded)."""
        if self._text is not None:
            self._find()
        return self._marks.get(tuple(path))

    def problem(self, path: JsonPath, message: str) -> Problem:
        """Make a problem located at ``path``."""
        line, column = self.at(path)
        return Problem(self.file, line, column, format_path(path), message)


class _Builder:
    """Build JSON data from the composed nodes; with ``record`` also note each path's mark."""

    def __init__(self, loader: Any, marks: Marks, *, record: bool = True) -> None:
        self.loader = loader
        self.marks = marks
        self.record = record
        self.problems: list[Problem] = []
        self.expanded = 0

    def build(self, node: Node, path: JsonPath) -> Any:
        self.expanded += 1
        if self.expanded > MAX_EXPANDED_NODES:
            raise _TooBig(path, node)
        if len(path) > MAX_SPEC_DEPTH:
            # Only aliases get here: each use of an anchor nests its whole value again.
            raise _TooBig(path, node, deep=True)
        if self.record:
            self.marks.record(path, node)
        if isinstance(node, ScalarNode):
            try:
                return self.loader.construct_object(node, deep=True)
            except ValueError:  # an integer of thousands of digits
                raise SpecError([self.marks.problem(path, "an integer too long to read (over "
                                                    f"{sys.get_int_max_str_digits()} digits); "
                                                    "write a smaller number")]) from None
        if node.tag not in _COLLECTION_TAGS:
            raise SpecError([self.marks.problem(path, f"unsupported YAML tag {node.tag!r}; a "
                                                "spec holds plain JSON data: remove the tag")])
        if isinstance(node, SequenceNode):
            return [self.build(child, (*path, i)) for i, child in enumerate(node.value)]
        if isinstance(node, MappingNode):
            result: dict[str, Any] = {}
            seen: dict[str, Node] = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self.problems.append(
                        self.marks.problem(path, "merge keys ('<<') are not allowed; write the keys out")
                    )
                    continue
                key = self.loader.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    key = str(key)
                if key in seen:
                    first = seen[key].start_mark.line + 1
                    line = key_node.start_mark.line + 1
                    col = key_node.start_mark.column + 1
                    self.problems.append(
                        Problem(
                            self.marks.file,
                            line,
                            col,
                            format_path((*path, key)),
                            f"duplicate key {key!r} (first defined on line {first}); "
                            "remove one of them",
                        )
                    )
                    continue
                seen[key] = key_node
                result[key] = self.build(value_node, (*path, key))
            return result
        raise SpecError([self.marks.problem(path, f"unsupported YAML node {node.tag!r}")])


#: The tags a list or mapping may carry: the implicit ones (a spec is plain JSON data).
_COLLECTION_TAGS = frozenset({"tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"})


class _TooBig(Exception):
    def __init__(self, path: JsonPath, node: Node, *, deep: bool = False) -> None:
        self.path = path
        self.node = node
        self.deep = deep


def load_yaml(text: str, file: str) -> tuple[Any, Marks]:
    """Parse one YAML document into JSON data and its marks; raise SpecError on any problem.

    With libyaml the text is parsed in C and the marks are found only if asked for; on any
    problem the pure-Python parser runs again to report it (the same messages either way).
    """
    if len(text) > MAX_SPEC_BYTES:
        raise SpecError([Problem(file, 0, 0, "$", f"the text is {len(text)} characters; a spec "
                                 f"may be at most {MAX_SPEC_BYTES} bytes")])
    if WITH_LIBYAML and not _NON_PRINTABLE.search(text):
        fast = _load_fast(text, file)
        if fast is not None:
            return fast
    return _load_reference(text, file)


def _load_fast(text: str, file: str) -> tuple[Any, Marks] | None:
    """Load with libyaml under the same limits, marks left for later; None on any problem."""
    marks = Marks(file)
    loader = _CLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        builder = _Builder(loader, marks, record=False)
        data = builder.build(node, ())
        if builder.problems:
            return None
    except Exception:  # the reference parser runs again and says what
        return None
    finally:
        loader.dispose()
    return data, Marks(file, text)


def _load_reference(text: str, file: str) -> tuple[Any, Marks]:
    """Load with the pure-Python parser, recording every mark; raise SpecError on a problem."""
    marks = Marks(file)
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as exc:
        raise SpecError([_reader_problem(exc, text, file)]) from None
    try:
        try:
            node = loader.get_single_node()
        except _Limit as limit:
            line, col = limit.mark.line + 1, limit.mark.column + 1
            raise SpecError([Problem(file, line, col, "$", limit.message)]) from None
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + 1 if mark else 1
            col = mark.column + 1 if mark else 1
            what = exc.problem or str(exc)
            raise SpecError(
                [Problem(file, line, col, "$", f"YAML syntax error: {what}; fix the YAML there")]
            ) from None
        except yaml.YAMLError as exc:
            raise SpecError([Problem(file, 1, 1, "$", f"YAML error: {exc}")]) from None
        if node is None:
            raise SpecError([Problem(file, 1, 1, "$", "the file is empty; write a spec mapping")])
        builder = _Builder(loader, marks)
        try:
            data = builder.build(node, ())
        except RecursionError:
            raise SpecError(
                [Problem(file, 1, 1, "$", "aliases nest too deeply (a recursive alias?); "
                         "write the data out instead")]
            ) from None
        except _TooBig as big:
            line = big.node.start_mark.line + 1
            col = big.node.start_mark.column + 1
            if big.deep:
                raise SpecError([Problem(file, line, col, format_path(big.path[:8]) + "...",
                                         f"aliases nest the data more than {MAX_SPEC_DEPTH} "
                                         "levels deep; write the data out instead")]) from None
            raise SpecError(
                [
                    Problem(
                        file,
                        line,
                        col,
                        format_path(big.path),
                        f"aliases expand the document beyond {MAX_EXPANDED_NODES} nodes "
                        "(an alias bomb?); write the data out instead of nesting aliases",
                    )
                ]
            ) from None
        except yaml.constructor.ConstructorError as exc:
            mark = exc.problem_mark
            line = mark.line + 1 if mark else 1
            col = mark.column + 1 if mark else 1
            raise SpecError(
                [Problem(file, line, col, "$", f"unsupported YAML value: {exc.problem}")]
            ) from None
        if builder.problems:
            raise SpecError(builder.problems)
        return data, marks
    finally:
        loader.dispose()


def _reader_problem(exc: yaml.reader.ReaderError, text: str, file: str) -> Problem:
    """Locate a character YAML refuses (a NUL byte, a control character) by line and column."""
    before = text[:exc.position]
    line = before.count("\n") + 1
    col = exc.position - (before.rfind("\n") + 1) + 1
    char = exc.character if isinstance(exc.character, int) else 0
    name = " (a NUL byte)" if char == 0 else ""
    return Problem(file, line, col, "$", f"character U+{char:04X}{name} is not allowed in YAML "
                   "text; remove it (is this a binary file?)")


def iter_nodes(data: Any, path: JsonPath = ()) -> Iterator[tuple[JsonPath, Any]]:
    """Yield every (path, value) of a JSON document, depth first."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from iter_nodes(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from iter_nodes(value, (*path, i))


def read_text(path: Path) -> str:
    """Read a UTF-8 file or raise SpecError saying why it cannot be read.

    A file larger than ``MAX_SPEC_BYTES`` is refused before it is read.
    """
    try:
        size = path.stat().st_size
        if path.is_dir():
            raise SpecError([Problem(str(path), 0, 0, "$", "is a folder, not a spec file")])
        # Read at most one byte past the limit: a device or pipe (/dev/zero) has no size.
        with path.open("rb") as handle:
            raw = handle.read(MAX_SPEC_BYTES + 1)
        if size > MAX_SPEC_BYTES or len(raw) > MAX_SPEC_BYTES:
            what = f"{size} bytes" if size > MAX_SPEC_BYTES else f"over {MAX_SPEC_BYTES} bytes"
            raise SpecError([Problem(str(path), 0, 0, "$", f"the file is {what}; a spec may be "
                                     f"at most {MAX_SPEC_BYTES} bytes: check the path")])
        # Universal newlines, as text mode reads them.
        return raw.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except FileNotFoundError:
        raise SpecError([Problem(str(path), 0, 0, "$", "no such file; check the path")]) from None
    except UnicodeDecodeError as exc:
        raise SpecError(
            [Problem(str(path), 0, 0, "$", f"not UTF-8 text ({exc.reason}); save it as UTF-8")]
        ) from None
    except OSError as exc:
        raise SpecError([Problem(str(path), 0, 0, "$", f"cannot read: {exc.strerror}")]) from None
