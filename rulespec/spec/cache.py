"""A cache of validated specs, keyed by the hash of the spec text and of the code that checks it.

A spec that passed validation is stored (its JSON data, marshalled) under a key made of the
sha256 of its text, of the spec schema and of the loader and validator sources, and of the
Python and PyYAML versions. So a changed spec, schema or validator is never served from the
cache: it is validated again. Only specs that passed are stored; problems are always found
afresh (with their file:line:col).

Two levels: an in-process memo, and files under the user cache folder
(``$RULESPEC_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulespec/specs`` or the platform's cache
folder). ``RULESPEC_CACHE_DIR=off`` (or empty) turns the files off. A cache folder that cannot
be written, or a file that is truncated or corrupt, is ignored: the spec is validated again.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from collections import OrderedDict
from functools import cache
from pathlib import Path
from typing import Any

#: Environment variable naming the cache folder; "off" or empty turns the files off.
CACHE_ENV = "RULESPEC_CACHE_DIR"
#: First bytes of a cache file; a new layout gets a new magic.
_MAGIC = b"rulespec-spec-cache/1\n"
#: Most files kept in the cache folder (the oldest go first).
MAX_FILES = 64
#: Most specs kept in the in-process memo.
MAX_MEMO = 32

#: The distributions whose code takes part in validating a spec.
_CHECKING_DISTRIBUTIONS = ("pyyaml", "jsonschema", "common-expression-language")

_memo: OrderedDict[str, bytes] = OrderedDict()


def cache_dir() -> Path | None:
    """Return the folder of the cache files, or None when the files are turned off."""
    env = os.environ.get(CACHE_ENV)
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no", "false") else Path(env)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "rulespec" / "specs"


@cache
def _code_fingerprint() -> str:
    """Hash what decides whether a spec is valid: the schema, the checking code, versions."""
    from importlib.metadata import PackageNotFoundError, version

    from rulespec.data import specs_dir

    digest = hashlib.sha256(_MAGIC)
    digest.update(f"{sys.version}|{marshal.version}".encode())
    for dist in _CHECKING_DISTRIBUTIONS:
        try:
            digest.update(f"|{dist}={version(dist)}".encode())
        except PackageNotFoundError:
            digest.update(f"|{dist}=?".encode())
    here = Path(__file__).parent
    files = [specs_dir() / "schema" / "spec.schema.json", here.parent / "limits.py",
             *sorted(here.glob("*.py"))]
    for file in files:
        digest.update(file.name.encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def spec_key(text: str) -> str:
    """Return the cache key of a spec text (changes with the text and the checking code)."""
    digest = hashlib.sha256(_code_fingerprint().encode())
    digest.update(text.encode("utf-8", errors="surrogatepass"))
    return digest.hexdigest()


def get(key: str) -> Any | None:
    """Return a fresh copy of the cached spec data under ``key``, or None."""
    payload = _memo.get(key)
    if payload is None:
        payload = _read(key)
        if payload is None:
            return None
        _remember(key, payload)
    else:
        _memo.move_to_end(key)
    try:
        data = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        _memo.pop(key, None)
        return None
    return data if isinstance(data, dict) else None


def put(key: str, data: Any) -> None:
    """Store validated spec data under ``key`` (in memory, and on disk when possible)."""
    try:
        payload = marshal.dumps(data)
    except ValueError:  # not plain data: do not cache it
        return
    _remember(key, payload)
    _write(key, payload)


def _remember(key: str, payload: bytes) -> None:
    _memo[key] = payload
    _memo.move_to_end(key)
    while len(_memo) > MAX_MEMO:
        _memo.popitem(last=False)


def clear_memo() -> None:
    """Forget the in-process memo (the files stay)."""
    _memo.clear()


def _file(key: str) -> Path | None:
    folder = cache_dir()
    return None if folder is None else folder / f"{key}.spec"


def _read(key: str) -> bytes | None:
    file = _file(key)
    if file is None:
        return None
    try:
        raw = file.read_bytes()
    except (OSError, ValueError):
        return None
    head = len(_MAGIC)
    if len(raw) < head + 32 or not raw.startswith(_MAGIC):
        return None
    checksum, payload = raw[head:head + 32], raw[head + 32:]
    if hashlib.sha256(payload).digest() != checksum:
        return None  # truncated or corrupt: validate again (and overwrite it)
    return payload


def _write(key: str, payload: bytes) -> None:
    file = _file(key)
    if file is None:
        return
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=".tmp-", suffix=".spec")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(_MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, file)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        _prune(file.parent)
    except (OSError, ValueError):
        return  # an unwritable cache only costs time


def _prune(folder: Path) -> None:
    entries = []
    for entry in os.scandir(folder):
        if entry.name.endswith(".spec") and not entry.name.startswith("."):
            try:
                entries.append((entry.stat().st_mtime_ns, entry.path))
            except OSError:
                continue
    entries.sort()
    for _, path in entries[:max(0, len(entries) - MAX_FILES)]:
        Path(path).unlink(missing_ok=True)
