"""Record structured impact in a spec: edit one record's ``impact.measured`` in place.

Specs are hand-written YAML with comments and a chosen layout, which no YAML library here
round-trips. So the edit is text surgery: the record's nodes are located with their marks,
only the lines of ``measured`` (or the place a new ``measured`` or ``impact`` goes) are
replaced, and every other byte of the file stays as it was. The result is validated as a whole
and read back (the record must now carry exactly the given figures) before it atomically
replaces the file; on any problem the file is left untouched.
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulespec.spec.errors import RulespecError, SpecError
from rulespec.spec.impact import FIGURES, IMPACT_FORMAT
from rulespec.spec.loader import read_text
from rulespec.spec.validate import spec_from_text

#: The prose of an ``impact`` that ``write_measured`` creates.
DEFAULT_TEXT = "Measured by rulespec impact; see the figures."
#: Key order of a measurement, of one result and of an interval (as IMPACT_FORMAT.md lists).
MEASURED_KEYS = ("format", "rulespec", "measured_on", "players", "baseline", "confidence",
                 "seed", "batch_size", "agents", "results")
RESULT_KEYS = ("option", "agent", "games", *FIGURES, "seat_win_rate_change")
INTERVAL_KEYS = ("value", "low", "high")
#: Keys of a record that ``impact`` is placed before when the record has none.
_IMPACT_BEFORE = ("needs", "history")
_INDENT = "  "
_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./-]*")
#: Node marks are all the edit needs; libyaml finds them faster (its marks count characters too).
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class ImpactWriteError(RulespecError):
    """The measurement cannot be recorded; the message says where and what to do."""


def write_measured(spec_path: Path, ambiguity_id: str, measured: Mapping[str, Any]) -> None:
    """Replace (or create) ``impact.measured`` of one ambiguity record in a spec file, in place.

    Comments, order and every other byte of the file are kept. The new file is validated
    before it replaces the old one (atomically); on error the file is unchanged.
    """
    spec_path = Path(spec_path)
    _check_shape(measured, spec_path, ambiguity_id)
    raw = read_text(spec_path)
    crlf = _uses_crlf(spec_path)
    new = edit_measured(raw, ambiguity_id, measured, file=str(spec_path))
    try:
        spec = spec_from_text(new, spec_path, label=f"{spec_path} (as it would be written)")
    except SpecError as exc:
        raise ImpactWriteError(f"{spec_path}: not written, the result would be invalid:\n{exc}"
                               ) from None
    written = spec.ambiguities[ambiguity_id]["impact"]["measured"]
    if _normal(written) != _normal(measured):
        raise ImpactWriteError(f"{spec_path}: not written, {ambiguity_id}'s measurement would "
                               "not read back as given; this is a bug in rulespec, please report it")
    _replace(spec_path, new.replace("\n", "\r\n") if crlf else new)


def edit_measured(text: str, ambiguity_id: str, measured: Mapping[str, Any], *,
                  file: str = "<spec>") -> str:
    """Return ``text`` with the record's ``impact.measured`` replaced by ``measured``."""
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise ImpactWriteError(f"{file}: not valid YAML, fix it first ({exc})") from None
    lines = _Lines(text)
    record = _record(root, ambiguity_id, file)
    impact = _value(record, "impact")
    block = render_measured(measured)
    if impact is None:
        indent = _key(record, "id").start_mark.column
        body = _impact_block(DEFAULT_TEXT, block)
        at = _insert_point(record, lines)
        return lines.insert(at, _indented(body, " " * indent))
    if not (isinstance(impact, MappingNode) and not impact.flow_style):
        key = _key(record, "impact")
        text_node = _value(impact, "text") if isinstance(impact, MappingNode) else None
        prose = text_node.value if isinstance(text_node, ScalarNode) else DEFAULT_TEXT
        body = _impact_block(prose, block)
        start = lines.line_start(key.start_mark.index)
        end = lines.after_line(_last_index(impact))
        return lines.replace(start, end, _indented(body, " " * key.start_mark.column))
    indent = impact.value[0][0].start_mark.column
    old = _value(impact, "measured")
    body = _indented("measured:\n" + _indented(block, _INDENT), " " * indent)
    if old is None:
        return lines.insert(lines.after_line(_last_index(impact)), body)
    key = _key(impact, "measured")
    start = lines.line_start(key.start_mark.index)
    return lines.replace(start, lines.after_line(_last_index(old)), body)


def _impact_block(prose: str, block: str) -> str:
    """Return a whole ``impact`` mapping (unindented): the prose, then the measurement."""
    inner = f"text: {json.dumps(prose, ensure_ascii=False)}\nmeasured:\n" + _indented(block, _INDENT)
    return "impact:\n" + _indented(inner, _INDENT)


def render_measured(measured: Mapping[str, Any]) -> str:
    """Return the block YAML of a measurement (unindented), keys in the format's order."""
    out = []
    for key in MEASURED_KEYS:
        value = measured[key]
        if key == "agents":
            out.append("agents:\n" + "".join(f"  - {_flow(a, ('id', 'description'))}\n"
                                              for a in value))
        elif key == "results":
            out.append("results:\n" if value else "results: []\n")
            for result in value:
                lines = [f"{k}: {_result_value(k, result[k])}" for k in RESULT_KEYS]
                out.append("  - " + "\n    ".join(lines) + "\n")
        else:
            out.append(f"{key}: {_scalar(value)}\n")
    return "".join(out)


def _result_value(key: str, value: Any) -> str:
    if value is None:
        return "null"
    if key == "seat_win_rate_change":
        return "[" + ", ".join(_flow(v, INTERVAL_KEYS) for v in value) + "]"
    if key in FIGURES:
        return _flow(value, INTERVAL_KEYS)
    return _scalar(value)


def _flow(value: Mapping[str, Any] | None, keys: Sequence[str]) -> str:
    if value is None:
        return "null"
    return "{" + ", ".join(f"{k}: {_scalar(value[k])}" for k in keys) + "}"


def _scalar(value: Any) -> str:
    """Return a YAML scalar that PyYAML reads back as exactly ``value``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        text = repr(value)
        mantissa, _, exponent = text.partition("e")
        # YAML 1.1 (PyYAML) reads a float only with a dot: 1e-05 would come back as text.
        return mantissa + ("" if "." in mantissa else ".0") + (f"e{exponent}" if exponent else "")
    text = str(value)
    if _PLAIN.fullmatch(text) and yaml.safe_load(text) == text:
        return text
    return json.dumps(text, ensure_ascii=False)


def _indented(block: str, prefix: str) -> str:
    return "".join(prefix + line if line.strip() else line for line in block.splitlines(True))


# -- locating the record ----------------------------------------------------------------------


def _record(root: Node | None, ambiguity_id: str, file: str) -> MappingNode:
    section = _value(root, "ambiguities") if isinstance(root, MappingNode) else None
    if not isinstance(section, SequenceNode):
        raise ImpactWriteError(f"{file}: the spec has no ambiguities list; is this a spec file?")
    known = []
    for item in section.value:
        ident = _value(item, "id") if isinstance(item, MappingNode) else None
        if isinstance(ident, ScalarNode):
            known.append(ident.value)
            if ident.value == ambiguity_id:
                if item.flow_style or section.flow_style:
                    line = item.start_mark.line + 1
                    raise ImpactWriteError(f"{file}:{line}: {ambiguity_id} is written in flow "
                                           "style ({...}); write the record as a block to let "
                                           "rulespec edit it")
                record: MappingNode = item
                return record
    hint = ", ".join(known) if known else "none"
    raise ImpactWriteError(f"{file}: no ambiguity record {ambiguity_id!r}; the records are "
                           f"{hint}")


def _key(mapping: MappingNode, name: str) -> Node:
    return next(k for k, _ in mapping.value if isinstance(k, ScalarNode) and k.value == name)


def _value(mapping: Node | None, name: str) -> Node | None:
    if not isinstance(mapping, MappingNode):
        return None
    return next((v for k, v in mapping.value if isinstance(k, ScalarNode) and k.value == name),
                None)


def _last_index(node: Node) -> int:
    """Return where the text of ``node`` ends: a block collection's own end mark runs on over
    the comments and blank lines after it, so take its last scalar or flow node's end."""
    while isinstance(node, MappingNode | SequenceNode) and not node.flow_style and node.value:
        last = node.value[-1]
        node = last[1] if isinstance(last, tuple) else last
    return int(node.end_mark.index)


def _insert_point(record: MappingNode, lines: _Lines) -> int:
    """Return where a new ``impact`` goes: before ``needs`` or ``history`` (and the comment
    lines just above it), else after the record's last line."""
    for name in _IMPACT_BEFORE:
        if _value(record, name) is not None:
            return lines.above_comments(lines.line_start(_key(record, name).start_mark.index))
    return lines.after_line(_last_index(record))


@dataclass(frozen=True)
class _Lines:
    """Character offsets of a text by line, for cutting it at line boundaries."""

    text: str

    def line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def after_line(self, index: int) -> int:
        """Return the start of the line after the one holding the character before ``index``
        (a block scalar ends at the start of the next line: that line is not included)."""
        if index > 0 and self.text[index - 1] == "\n":
            return index
        end = self.text.find("\n", index)
        return len(self.text) if end < 0 else end + 1

    def above_comments(self, start: int) -> int:
        while start > 0:
            previous = self.line_start(start - 1)
            if not self.text[previous:start].lstrip().startswith("#"):
                break
            start = previous
        return start

    def insert(self, at: int, block: str) -> str:
        return self.replace(at, at, block)

    def replace(self, start: int, end: int, block: str) -> str:
        head = self.text[:start]
        if head and not head.endswith("\n"):
            head += "\n"
        return head + block + self.text[end:]


# -- checks and the write -----------------------------------------------------------------------


def _check_shape(measured: Mapping[str, Any], path: Path, ambiguity_id: str) -> None:
    """Refuse a measurement the writer cannot lay out (the validator judges the figures)."""
    where = f"{path}: {ambiguity_id}: measured"
    if not isinstance(measured, Mapping):
        raise ImpactWriteError(f"{where} is {type(measured).__name__}, not a mapping")
    if measured.get("format") != IMPACT_FORMAT:
        raise ImpactWriteError(f"{where}: format is {measured.get('format')!r}, not "
                               f"{IMPACT_FORMAT!r}; only structured measurements are written")
    for key in measured:
        if key not in MEASURED_KEYS:
            raise ImpactWriteError(f"{where}: unknown key {key!r}; the format has "
                                   f"{', '.join(MEASURED_KEYS)}")
    _need(measured, MEASURED_KEYS, where)
    for name, keys in (("agents", ("id", "description")), ("results", RESULT_KEYS)):
        items = measured[name]
        if not isinstance(items, list):
            raise ImpactWriteError(f"{where}.{name} is {type(items).__name__}, not a list")
        for i, item in enumerate(items):
            _need(item, keys, f"{where}.{name}[{i}]")
            if name == "results":
                _check_figures(item, f"{where}.{name}[{i}]")
    _check_finite(measured, where)


def _check_figures(result: Mapping[str, Any], where: str) -> None:
    seats = result["seat_win_rate_change"]
    if seats is not None and not isinstance(seats, list):
        raise ImpactWriteError(f"{where}.seat_win_rate_change is {type(seats).__name__}, "
                               "not a list or null")
    named = [(f"{where}.{f}", result[f]) for f in FIGURES]
    named += [(f"{where}.seat_win_rate_change[{k}]", s) for k, s in enumerate(seats or [])]
    for at, interval in named:
        if interval is not None:
            _need(interval, INTERVAL_KEYS, at)


def _need(item: Any, keys: Sequence[str], where: str) -> None:
    if not isinstance(item, Mapping):
        raise ImpactWriteError(f"{where} is {type(item).__name__}, not a mapping")
    missing = [k for k in keys if k not in item]
    if missing:
        raise ImpactWriteError(f"{where}: missing key {missing[0]!r}; the format needs "
                               f"{', '.join(keys)}")


def _check_finite(value: Any, where: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ImpactWriteError(f"{where}: {value!r} is not a finite number")
    if isinstance(value, Mapping):
        for key, sub in value.items():
            _check_finite(sub, f"{where}.{key}")
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            _check_finite(sub, f"{where}[{i}]")


def _normal(value: Any) -> Any:
    """Return ``value`` as plain JSON data (tuples as lists, mappings as dicts)."""
    return json.loads(json.dumps(value))


def _uses_crlf(path: Path) -> bool:
    with path.open("rb") as handle:
        head = handle.read(1 << 16)
    return b"\r\n" in head


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file beside it, then a rename."""
    mode = path.stat().st_mode & 0o7777
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
