"""What compiled CEL runs on: CEL's operations on Python values, typed as CEL types them.

Each helper returns the value the ``cel`` library would compute, or raises (``Fallback``, or the
Python error of the operation) where the library must decide. The generated code refers to these
by their names (``HELPERS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from rulespec.spec.celparse import INT_MAX, INT_MIN


class Fallback(Exception):
    """Raised by compiled code: this evaluation must be done by the library."""


def _fb(*_: Any) -> NoReturn:
    raise Fallback


_SCALARS = (str, int, bool, float, type(None))
_ORDERED = (int, str, float, bool)


def _range(value: int) -> int:
    if INT_MIN <= value <= INT_MAX:
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


HELPERS: dict[str, Any] = {name: value for name, value in globals().items()
                            if name.startswith("_") and callable(value)
                            and not name.startswith("__")} | {"_ORDERED": _ORDERED,
                                                               "_SCALARS": _SCALARS}
