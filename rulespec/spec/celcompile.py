"""CEL compiled to Python: a closure per expression, with the ``cel`` library as the exact fallback.

``compile_cel(source, functions)`` parses the CEL subset the specs use (ternary, ``||``, ``&&``,
``!``, relations and ``in``, ``+ - * / %``, unary ``-``, member access, indexing, global and
receiver-style calls, the macros ``all exists exists_one map filter has size``, list and map
literals, int, double, string, bool and null literals) and generates Python source, compiled once
into ``f(variables) -> value``.

The closure is a *fast path*: it computes a value only where that value is certainly the one the
``cel`` library computes, and raises otherwise. Every operation is typed the way CEL is (int
division and modulo truncate toward zero, no int/double mixing, bool is not a number, 64-bit
overflow, a missing key is an error), and where an answer depends on something the fast path does
not model (an error absorbed by ``&&``/``||``, int compared with double, non-ASCII string sizes,
an unknown type) it raises, and the caller evaluates the expression again with the library. So
results, errors and their messages are always the library's; the fast path only saves the cost of
converting the variables to CEL values.

A construct the compiler does not handle (uint and bytes literals, message construction,
``type``, ``matches``…) makes ``compile_cel`` return None: that expression always runs on the
library. ``STATS`` counts both kinds of fallback.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NoReturn

#: ``unsupported``: expressions the compiler left to the library; ``fallback``: evaluations the
#: fast path handed to the library (an error, or a case it does not model).
STATS: Counter[str] = Counter()

Fast = Callable[[Mapping[str, Any]], Any]

_INT_MIN = -(2 ** 63)
_INT_MAX = 2 ** 63 - 1


class Unsupported(Exception):
    """A construct the compiler leaves to the library."""


class Fallback(Exception):
    """Raised by compiled code: this evaluation must be done by the library."""


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
_MACROS = frozenset({"all", "exists", "exists_one", "map", "filter"})


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
                    return ("lit", -lit[1]) if type(lit[1]) is float else _int_lit(-lit[1])
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


def _int_lit(value: int) -> Node:
    if not _INT_MIN <= value <= _INT_MAX:
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


# -- code generation -------------------------------------------------------------------------------


def _fb(*_: Any) -> NoReturn:
    raise Fallback


class _Gen:
    """Python source for a parsed expression; comprehension variables become lambda parameters."""

    def __init__(self, functions: Mapping[str, Callable[..., Any]], *, absorb: bool = False
                 ) -> None:
        self.functions = functions
        #: Generate ``&&``/``||`` that absorb an error of one side when the other decides (the
        #: second, slower closure, tried only after the first one raised).
        self.absorb = absorb
        self.logic = 0
        self.n = 0
        self.consts: dict[str, Any] = {}

    def tmp(self) -> str:
        self.n += 1
        return f"_t{self.n}"

    def const(self, value: Any) -> str:
        name = f"_k{len(self.consts)}"
        self.consts[name] = value
        return name

    def gen(self, node: Node, scope: Mapping[str, str]) -> str:
        kind = node[0]
        method = getattr(self, "g_" + _NAMES.get(kind, str(kind)))
        result: str = method(node, scope)
        return result

    def g_lit(self, node: Node, scope: Mapping[str, str]) -> str:
        value = node[1]
        if type(value) is int:
            _int_lit(value)
        if type(value) is float:
            return self.const(value)  # repr(nan/inf) is not Python source
        return repr(value)

    def g_var(self, node: Node, scope: Mapping[str, str]) -> str:
        name = node[1]
        return scope.get(name, f"V[{name!r}]")

    def g_get(self, node: Node, scope: Mapping[str, str]) -> str:
        t = self.tmp()
        return (f"({t}[{node[2]!r}] if type({t} := {self.gen(node[1], scope)}) is dict "
                f"else _fb())")

    def g_index(self, node: Node, scope: Mapping[str, str]) -> str:
        t, k = self.tmp(), self.tmp()
        return (f"({t}[{k}] if (type({t} := {self.gen(node[1], scope)}) is dict) "
                f"& (type({k} := {self.gen(node[2], scope)}) is str) else _index({t}, {k}))")

    def g_list(self, node: Node, scope: Mapping[str, str]) -> str:
        return "[" + "".join(self.gen(e, scope) + ", " for e in node[1]) + "]"

    def g_map(self, node: Node, scope: Mapping[str, str]) -> str:
        pairs = "".join(f"({self.gen(k, scope)}, {self.gen(v, scope)}), " for k, v in node[1])
        return f"_mapof(({pairs}))"

    def g_cond(self, node: Node, scope: Mapping[str, str]) -> str:
        t = self.tmp()
        return (f"({self.gen(node[2], scope)} if ({t} := {self.gen(node[1], scope)}) is True "
                f"else {self.gen(node[3], scope)} if {t} is False else _fb())")

    def g_and(self, node: Node, scope: Mapping[str, str]) -> str:
        return self._logic(node, scope, "False", "True")

    def g_or(self, node: Node, scope: Mapping[str, str]) -> str:
        return self._logic(node, scope, "True", "False")

    def _logic(self, node: Node, scope: Mapping[str, str], decides: str, passes: str) -> str:
        self.logic += 1
        if self.absorb:
            helper = "_and" if decides == "False" else "_or"
            return (f"{helper}(lambda: {self.gen(node[1], scope)}, "
                    f"lambda: {self.gen(node[2], scope)})")
        # A left side that decides wins; a right side is only taken when it is a bool. Anything
        # else (an error, a non-bool) goes to the library, which knows how errors are absorbed.
        t, u = self.tmp(), self.tmp()
        return (f"({decides} if ({t} := {self.gen(node[1], scope)}) is {decides} "
                f"else ({u} if type({u} := {self.gen(node[2], scope)}) is bool else _fb()) "
                f"if {t} is {passes} else _fb())")

    def g_not(self, node: Node, scope: Mapping[str, str]) -> str:
        t = self.tmp()
        return f"(False if ({t} := {self.gen(node[1], scope)}) is True else True if {t} is False else _fb())"

    def g_neg(self, node: Node, scope: Mapping[str, str]) -> str:
        return f"_neg({self.gen(node[1], scope)})"

    def g_eq(self, node: Node, scope: Mapping[str, str]) -> str:
        return self._equal(node, scope, "")

    def g_ne(self, node: Node, scope: Mapping[str, str]) -> str:
        return self._equal(node, scope, "not ")

    def _equal(self, node: Node, scope: Mapping[str, str], neg: str) -> str:
        left, right = node[1], node[2]
        if left[0] == "lit":
            left, right = right, left
        if right == ("lit", None):  # anything but null differs from null, without error
            return f"({self.gen(left, scope)} is {neg}None)"
        a = self.gen(left, scope)
        if right[0] == "lit" and type(right[1]) in (str, int, bool):
            t, lit = self.tmp(), repr(right[1])
            typ = type(right[1]).__name__
            op = "!=" if neg else "=="
            return f"(({t} {op} {lit}) if type({t} := {a}) is {typ} else {neg}_eq({t}, {lit}))"
        return f"({neg}_eq({a}, {self.gen(right, scope)}))"

    def g_order(self, node: Node, scope: Mapping[str, str]) -> str:
        op, left, right = node
        a, b = self.gen(left, scope), self.gen(right, scope)
        if right[0] == "lit" and type(right[1]) in (int, str):
            t, typ = self.tmp(), type(right[1]).__name__
            return f"({t} {op} {b} if type({t} := {a}) is {typ} else _fb())"
        t, u = self.tmp(), self.tmp()
        return (f"({t} {op} {u} if type({t} := {a}) is type({u} := {b}) "
                f"and type({t}) in _ORDERED else _fb())")

    def g_in(self, node: Node, scope: Mapping[str, str]) -> str:
        # A str or int item in a list, inline: Python's "not in" is exact for them (see _in).
        i, c, ti = self.tmp(), self.tmp(), self.tmp()
        return (f"((({i} in {c}) if {ti} is str else (({i} in {c}) and _in({i}, {c}))) "
                f"if (type({c} := {self.gen(node[2], scope)}) is list) "
                f"& (({ti} := type({i} := {self.gen(node[1], scope)})) is str or {ti} is int) "
                f"else _in({i}, {c}))")

    def g_arith(self, node: Node, scope: Mapping[str, str]) -> str:
        helper = {"+": "_add", "-": "_sub", "*": "_mul", "/": "_div", "%": "_mod"}[node[0]]
        return f"{helper}({self.gen(node[1], scope)}, {self.gen(node[2], scope)})"

    def g_call(self, node: Node, scope: Mapping[str, str]) -> str:
        _, name, target, args = node
        if target is not None and name in _MACROS:
            return self._macro(name, target, args, scope)
        if target is None and name == "has":
            if len(args) != 1 or args[0][0] != "get":
                raise Unsupported("has() needs a field selection")
            t = self.tmp()
            return (f"({args[0][2]!r} in {t} if type({t} := {self.gen(args[0][1], scope)}) "
                    f"is dict else _fb())")
        values = [self.gen(a, scope) for a in args]
        if target is not None:
            if name not in _METHODS or len(args) != _METHODS[name][1]:
                raise Unsupported(f"method {name}")
            return f"{_METHODS[name][0]}({self.gen(target, scope)}, {', '.join(values)})"
        if name in _BUILTINS and len(args) == 1:
            return f"{_BUILTINS[name]}({values[0]})"
        if name in self.functions and name not in scope:
            fn = self.const(self.functions[name])
            return f"_value({fn}({', '.join(_argument(v) for v in values)}))"
        raise Unsupported(f"function {name}")

    def _macro(self, name: str, target: Node, args: list[Node], scope: Mapping[str, str]
               ) -> str:
        if not args or args[0][0] != "var" or len(args) > (3 if name == "map" else 2) \
                or len(args) < 2:
            raise Unsupported(f"macro {name} arguments")
        var = self.tmp().replace("_t", "_v")
        inner = {**scope, args[0][1]: var}
        source = self.gen(target, scope)
        lams = [f"lambda {var}: {self.gen(a, inner)}" for a in args[1:]]
        if name == "map" and len(lams) == 2:
            return f"_map_filter({source}, {lams[0]}, {lams[1]})"
        return f"_{name}({source}, {lams[0]})"


_NAMES = {"&&": "and", "||": "or", "!": "not", "==": "eq", "!=": "ne", "<": "order",
          "<=": "order", ">": "order", ">=": "order", "+": "arith", "-": "arith", "*": "arith",
          "/": "arith", "%": "arith"}
_BUILTINS = {"size": "_size", "string": "_tostring", "int": "_toint", "double": "_todouble",
             "dyn": ""}
_METHODS = {"size": ("_size", 0), "startsWith": ("_starts", 1), "endsWith": ("_ends", 1),
            "contains": ("_contains", 1)}


def _argument(code: str) -> str:
    return f"_arg({code})"


# -- runtime helpers (names referenced by the generated code) --------------------------------------

_SCALARS = (str, int, bool, float, type(None))
_ORDERED = (int, str, float, bool)


def _range(value: int) -> int:
    if _INT_MIN <= value <= _INT_MAX:
        return value
    raise Fallback


def _eq(a: Any, b: Any) -> bool:
    ta, tb = type(a), type(b)
    if ta is tb:
        if ta in _SCALARS:
            return bool(a == b)
        if ta is list:
            return len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b, strict=True))
        if ta is dict:
            if len(a) != len(b) or any(type(k) is not str for k in a):
                return _fb() if len(a) == len(b) else False
            return all(k in b and _eq(v, b[k]) for k, v in a.items())
        raise Fallback
    if ta in _SCALARS and tb in _SCALARS:
        if (ta is int or ta is float) and (tb is int or tb is float):
            raise Fallback  # CEL compares int with double by value; leave it to the library
        return False
    if (ta in _SCALARS or ta is list or ta is dict) and (tb in _SCALARS or tb is list or tb is dict):
        return False
    raise Fallback


def _in(item: Any, container: Any) -> bool:
    tc = type(container)
    if tc is list:
        ti = type(item)
        if ti in _SCALARS:
            # Python's == holds wherever CEL's does (and more: 1 == True), so "not in" is exact;
            # a first match of the item's own type is a CEL match too.
            if item not in container:
                return False
            if ti is str or (ti is not float and type(container[container.index(item)]) is ti):
                return True  # (not for a float: Python finds a NaN by identity)
        return any(_eq(item, e) for e in container)
    if tc is dict and type(item) is str:
        return item in container
    raise Fallback


def _index(value: Any, key: Any) -> Any:
    tv, tk = type(value), type(key)
    if tv is list and tk is int and 0 <= key < len(value):
        return value[key]
    if tv is dict and tk is str:
        return value[key]
    raise Fallback


def _mapof(pairs: tuple[tuple[Any, Any], ...]) -> dict[str, Any]:
    out = {k: v for k, v in pairs}
    if len(out) != len(pairs) or any(type(k) is not str for k in out):
        raise Fallback
    return out


def _add(a: Any, b: Any) -> Any:
    t = type(a)
    if t is type(b):
        if t is int:
            return _range(a + b)
        if t is float or t is str or t is list:
            return a + b
    raise Fallback


def _sub(a: Any, b: Any) -> Any:
    t = type(a)
    if t is type(b):
        if t is int:
            return _range(a - b)
        if t is float:
            return a - b
    raise Fallback


def _mul(a: Any, b: Any) -> Any:
    t = type(a)
    if t is type(b):
        if t is int:
            return _range(a * b)
        if t is float:
            return a * b
    raise Fallback


def _div(a: Any, b: Any) -> Any:
    t = type(a)
    if t is type(b):
        if t is int and b != 0:
            q = abs(a) // abs(b)  # CEL truncates toward zero
            return _range(q if (a < 0) == (b < 0) else -q)
        if t is float and b != 0.0:
            return a / b
    raise Fallback


def _mod(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int and b != 0:
        r = abs(a) % abs(b)  # the remainder takes the dividend's sign
        return -r if a < 0 else r
    raise Fallback


def _neg(a: Any) -> Any:
    if type(a) is int:
        return _range(-a)
    if type(a) is float:
        return -a
    raise Fallback


def _size(a: Any) -> int:
    t = type(a)
    if t is list or t is dict or (t is str and a.isascii()):
        return len(a)
    raise Fallback  # the library counts a string's bytes, not its characters


def _tostring(a: Any) -> str:
    if type(a) is str:
        return a
    if type(a) is int:
        return str(a)
    raise Fallback


def _toint(a: Any) -> int:
    if type(a) is int:
        return a
    raise Fallback


def _todouble(a: Any) -> float:
    if type(a) is float:
        return a
    raise Fallback


def _strings(a: Any, b: Any) -> None:
    if type(a) is not str or type(b) is not str:
        raise Fallback


def _starts(a: Any, b: Any) -> bool:
    _strings(a, b)
    return bool(a.startswith(b))


def _ends(a: Any, b: Any) -> bool:
    _strings(a, b)
    return bool(a.endswith(b))


def _contains(a: Any, b: Any) -> bool:
    _strings(a, b)
    return b in a


def _items(r: Any) -> Any:
    if type(r) is list or type(r) is dict:
        return r  # a map's comprehension runs over its keys, in order
    raise Fallback


def _all(r: Any, f: Callable[[Any], Any]) -> bool:
    for x in _items(r):
        v = f(x)
        if v is False:
            return False
        if v is not True:
            raise Fallback
    return True


def _exists(r: Any, f: Callable[[Any], Any]) -> bool:
    for x in _items(r):
        v = f(x)
        if v is True:
            return True
        if v is not False:
            raise Fallback
    return False


def _exists_one(r: Any, f: Callable[[Any], Any]) -> bool:
    n = 0
    for x in _items(r):
        v = f(x)
        if v is True:
            n += 1
        elif v is not False:
            raise Fallback
    return n == 1


def _bool(v: Any) -> bool:
    if v is True or v is False:
        return v
    raise Fallback


def _map(r: Any, f: Callable[[Any], Any]) -> list[Any]:
    return [f(x) for x in _items(r)]


def _filter(r: Any, f: Callable[[Any], Any]) -> list[Any]:
    return [x for x in _items(r) if _bool(f(x))]


def _map_filter(r: Any, p: Callable[[Any], Any], f: Callable[[Any], Any]) -> list[Any]:
    return [f(x) for x in _items(r) if _bool(p(x))]


def _and(a: Callable[[], Any], b: Callable[[], Any]) -> bool:
    """CEL ``&&``: false when either side is false, even if the other one fails."""
    try:
        x = a()
    except Exception:
        x = None  # an error: the right side may still decide
    if x is False:
        return False
    y = b()  # an error here (after a left side that does not decide) is the library's
    if x is True and type(y) is bool:
        return bool(y)
    if y is False:
        return False
    raise Fallback


def _or(a: Callable[[], Any], b: Callable[[], Any]) -> bool:
    """CEL ``||``: true when either side is true, even if the other one fails."""
    try:
        x = a()
    except Exception:
        x = None
    if x is True:
        return True
    y = b()
    if x is False and type(y) is bool:
        return bool(y)
    if y is True:
        return True
    raise Fallback


def _arg(v: Any) -> Any:
    """Pass a value to a custom function as the library would (lists and maps of CEL values)."""
    t = type(v)
    if t in _SCALARS:
        return v
    if t is list and all(type(e) in _SCALARS or type(e) is dict or type(e) is list for e in v):
        return v
    if t is dict:
        return v
    raise Fallback


def _value(v: Any) -> Any:
    """Check a custom function's result is a CEL value the library would return unchanged."""
    t = type(v)
    if t is int:
        return _range(v)
    if t in _SCALARS or t is list or t is dict:
        return v
    raise Fallback


def result(v: Any) -> Any:
    """Return a fresh copy of a result, as the library returns (or Fallback if it would not)."""
    t = type(v)
    if t is bool or t is str or t is float or v is None:
        return v
    if t is int:
        return _range(v)
    if t is list:
        return [result(e) for e in v]
    if t is dict:
        if any(type(k) is not str for k in v):
            raise Fallback
        return {k: result(e) for k, e in v.items()}
    raise Fallback


_HELPERS: dict[str, Any] = {name: value for name, value in globals().items()
                            if name.startswith("_") and callable(value)
                            and not name.startswith("__")} | {"_ORDERED": _ORDERED}


def compile_cel(source: str, functions: Mapping[str, Callable[..., Any]]) -> Fast | None:
    """Compile ``source`` to a Python closure; None when it uses a construct left to the library.

    The closure raises (any exception) where the library must decide. An expression with
    ``&&`` or ``||`` gets a second closure, tried when the first raises, in which those absorb
    an error of one side that the other side decides (``false && error`` is false).
    """
    try:
        tree = _Parser(source).parse()
        gen = _Gen(functions)
        fast = _build(gen, tree, source)
        if gen.logic == 0:
            return fast
        careful = _build(_Gen(functions, absorb=True), tree, source)
    except (Unsupported, RecursionError, SyntaxError, MemoryError):
        STATS["unsupported"] += 1
        return None

    def evaluate(variables: Mapping[str, Any]) -> Any:
        try:
            return fast(variables)
        except Exception:
            return careful(variables)

    return evaluate


def _build(gen: _Gen, tree: Node, source: str) -> Fast:
    code = f"def _cel(V):\n    return {gen.gen(tree, {})}\n"
    namespace: dict[str, Any] = {**_HELPERS, **gen.consts}
    exec(compile(code, f"<cel {source[:60]!r}>", "exec"), namespace)
    fast: Fast = namespace["_cel"]
    return fast
