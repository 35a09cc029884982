"""A parser for the CEL subset the specs use (see ``celcompile``): source text to a tree of tuples.

A node is ``(kind, ...)``: ``("lit", value)``, ``("var", name)``, ``("get", target, field)``,
``("index", target, key)``, ``("call", name, target or None, args)``, ``("list", items)``,
``("map", pairs)``, ``("cond", c, a, b)``, ``("!", x)``, ``("neg", x)``, and ``(op, a, b)`` for
the binary operators. Anything else raises ``Unsupported`` (the library evaluates it).
"""

from __future__ import annotations

import re
from typing import Any

INT_MIN = -(2 ** 63)
INT_MAX = 2 ** 63 - 1


class Unsupported(Exception):
    """A construct the compiler leaves to the library."""


# -- lexer -----------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    (?P<ws>\s+|//[^\n]*)
  | (?P<num>0[xX][0-9a-fA-F]+[uU]?|(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+[uU]?)
  | (?P<str>(?:[rRbB]{1,2})?(?:'''(?:\\.|[^\\])*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"
                              |'(?:\\.|[^\\'\n])*'|"(?:\\.|[^\\"\n])*"))
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>==|!=|<=|>=|&&|\|\||[-+*/%!<>?:.,()\[\]{}])
""", re.VERBOSE | re.DOTALL)

_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
            "\\": "\\", "'": "'", '"': '"', "`": "`", "?": "?"}
_ESCAPE = re.compile(r"\\(?:([abfnrtv\\'\"`?])|x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})"
                     r"|U([0-9a-fA-F]{8})|([0-3][0-7]{2})|(.))", re.DOTALL)


def _tokens(source: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(source):
        m = _TOKEN.match(source, pos)
        if m is None:
            raise Unsupported(f"unexpected {source[pos]!r} at {pos}")
        pos = m.end()
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group()))
    out.append(("end", ""))
    return out


def _unescape(match: re.Match[str]) -> str:
    simple, hex2, hex4, hex8, octal, bad = match.groups()
    if simple is not None:
        return _ESCAPES[simple]
    if bad is not None:
        raise Unsupported(f"escape \\{bad}")
    code = int(hex2 or hex4 or hex8, 16) if octal is None else int(octal, 8)
    if 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
        raise Unsupported("surrogate escape")
    return chr(code)


def _string(text: str) -> str:
    prefix = re.match(r"[rRbB]*", text)
    flags = prefix.group().lower() if prefix else ""
    if "b" in flags:
        raise Unsupported("bytes literal")
    body = text[len(flags):]
    quote = 3 if body[:3] in ("'''", '"""') else 1
    body = body[quote:-quote]
    return body if "r" in flags else _ESCAPE.sub(_unescape, body)


# -- parser: tuples (kind, ...) --------------------------------------------------------------------

Node = tuple[Any, ...]
_RELATIONS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in"})
MACROS = frozenset({"all", "exists", "exists_one", "map", "filter"})


class _Parser:
    def __init__(self, source: str) -> None:
        self.toks = _tokens(source)
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i]

    def take(self, text: str | None = None) -> tuple[str, str]:
        tok = self.toks[self.i]
        if text is not None and tok[1] != text:
            raise Unsupported(f"expected {text!r}, found {tok[1]!r}")
        self.i += 1
        return tok

    def at(self, *texts: str) -> bool:
        kind, text = self.toks[self.i]
        return kind in ("op", "id") and text in texts

    def parse(self) -> Node:
        node = self.expr()
        if self.peek()[0] != "end":
            raise Unsupported(f"trailing {self.peek()[1]!r}")
        return node

    def expr(self) -> Node:
        cond = self.binary(0)
        if self.at("?"):
            self.take()
            then = self.binary(0)
            self.take(":")
            return ("cond", cond, then, self.expr())
        return cond

    _LEVELS: tuple[frozenset[str], ...] = (frozenset({"||"}), frozenset({"&&"}), _RELATIONS,
                                           frozenset({"+", "-"}), frozenset({"*", "/", "%"}))

    def binary(self, level: int) -> Node:
        if level == len(self._LEVELS):
            return self.unary()
        node = self.binary(level + 1)
        while self.peek()[1] in self._LEVELS[level] and self.peek()[0] in ("op", "id"):
            op = self.take()[1]
            node = (op, node, self.binary(level + 1))
        return node

    def unary(self) -> Node:
        if self.at("!"):
            self.take()
            return ("!", self.unary())
        if self.at("-"):
            self.take()
            if self.peek()[0] == "num" and not self.peek()[1].lower().endswith("u"):
                lit = self.member()
                if lit[0] == "lit":  # -9223372036854775808 is a literal, not -(overflow)
                    return ("lit", -lit[1]) if type(lit[1]) is float else int_literal(-lit[1])
                return ("neg", lit)
            return ("neg", self.unary())
        return self.member()

    def member(self) -> Node:
        node = self.primary()
        while True:
            if self.at("."):
                self.take()
                kind, name = self.take()
                if kind != "id":
                    raise Unsupported(f"member {name!r}")
                node = ("call", name, node, self.args(")")) if self.at("(") else ("get", node, name)
            elif self.at("["):
                self.take()
                node = ("index", node, self.expr())
                self.take("]")
            else:
                return node

    def args(self, close: str) -> list[Node]:
        self.take()
        out: list[Node] = []
        while not self.at(close):
            out.append(self.expr())
            if not self.at(close):
                self.take(",")
        self.take(close)
        return out

    def primary(self) -> Node:
        kind, text = self.peek()
        if kind == "num":
            self.take()
            return _number(text)
        if kind == "str":
            self.take()
            return ("lit", _string(text))
        if kind == "id":
            self.take()
            if text in ("true", "false", "null"):
                return ("lit", {"true": True, "false": False, "null": None}[text])
            if self.at("("):
                return ("call", text, None, self.args(")"))
            if self.at("{"):
                raise Unsupported("message construction")
            return ("var", text)
        if text == "(":
            self.take()
            node = self.expr()
            self.take(")")
            return node
        if text == "[":
            return ("list", self.args("]"))
        if text == "{":
            self.take()
            pairs: list[tuple[Node, Node]] = []
            while not self.at("}"):
                key = self.expr()
                self.take(":")
                pairs.append((key, self.expr()))
                if not self.at("}"):
                    self.take(",")
            self.take("}")
            return ("map", pairs)
        raise Unsupported(f"unexpected {text!r}")


def int_literal(value: int) -> Node:
    if not INT_MIN <= value <= INT_MAX:
        raise Unsupported("int literal out of range")
    return ("lit", value)


def _number(text: str) -> Node:
    low = text.lower()
    if low.endswith("u"):
        raise Unsupported("uint literal")
    if low.startswith("0x"):
        return ("lit", int(low, 16))  # range checked once the sign is known
    if any(c in low for c in ".e"):
        return ("lit", float(low))
    return ("lit", int(low))


def parse(source: str) -> Node:
    """Return the tree of ``source``; raise Unsupported for what the compiler does not handle."""
    return _Parser(source).parse()


def disjuncts(source: str) -> list[str] | None:
    """Return the operands of ``source``'s top-level ``||`` chain as source text, in order
    (None: it is not one, or cannot be parsed). Checked: the operands parsed and joined by
    ``||`` again give the tree of ``source``."""
    parts: list[str] = []
    depth = 0
    start = pos = 0
    try:
        while pos < len(source):
            m = _TOKEN.match(source, pos)
            if m is None:
                return None
            text = m.group()
            if m.lastgroup == "op":
                if text in "([{":
                    depth += 1
                elif text in ")]}":
                    depth -= 1
                elif text == "?" and depth == 0:
                    return None  # a top-level conditional binds looser than ||
                elif text == "||" and depth == 0:
                    parts.append(source[start:m.start()])
                    start = m.end()
            pos = m.end()
        parts.append(source[start:])
        if len(parts) < 2:
            return None
        tree = parse(parts[0])
        for part in parts[1:]:
            tree = ("||", tree, parse(part))
        if tree != parse(source):
            return None
    except (Unsupported, RecursionError):
        return None
    return [part.strip() for part in parts]
