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

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from rulespec.spec.celparse import MACROS, Node, Unsupported, int_literal, parse
from rulespec.spec.celruntime import HELPERS, Fallback, result

__all__ = ["STATS", "Fallback", "Fast", "Unsupported", "compile_cel", "result"]

#: ``unsupported``: expressions the compiler left to the library; ``fallback``: evaluations the
#: fast path handed to the library (an error, or a case it does not model).
STATS: Counter[str] = Counter()

Fast = Callable[[Mapping[str, Any]], Any]


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
            int_literal(value)
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
        op = "!=" if neg else "=="
        if right[0] == "lit" and type(right[1]) in (str, int, bool):
            t, lit = self.tmp(), repr(right[1])
            typ = type(right[1]).__name__
            return f"(({t} {op} {lit}) if type({t} := {a}) is {typ} else {neg}_eq({t}, {lit}))"
        # Two scalars of one type (the usual case: a field against a field) compare inline, as
        # ``_eq`` would; anything else goes through ``_eq``.
        t, u, b = self.tmp(), self.tmp(), self.gen(right, scope)
        return (f"(({t} {op} {u}) if type({t} := {a}) is type({u} := {b}) and type({t}) in "
                f"_SCALARS else {neg}_eq({t}, {u}))")

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
        if target is not None and name in MACROS:
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


def compile_cel(source: str, functions: Mapping[str, Callable[..., Any]]) -> Fast | None:
    """Compile ``source`` to a Python closure; None when it uses a construct left to the library.

    The closure raises (any exception) where the library must decide. An expression with
    ``&&`` or ``||`` gets a second closure, tried when the first raises, in which those absorb
    an error of one side that the other side decides (``false && error`` is false).
    """
    try:
        tree = parse(source)
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
    namespace: dict[str, Any] = {**HELPERS, **gen.consts}
    exec(compile(code, f"<cel {source[:60]!r}>", "exec"), namespace)
    fast: Fast = namespace["_cel"]
    return fast
