"""Files shipped with rulespec: the built-in specs and the kit's language-neutral material.

The repository keeps them in its top-level ``specs/`` and ``conformance/`` folders; setuptools
maps those folders to ``rulespec.data.specs`` and ``rulespec.data.conformance``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def data_dir(name: str) -> Path:
    """Return the folder of the data package ``rulespec.data.<name>`` as a path."""
    folder = files(f"{__name__}.{name}")
    path = Path(str(folder))
    if not path.is_dir():
        raise RuntimeError(f"rulespec.data.{name} is not a folder on disk ({folder!r}); "
                           "install rulespec unzipped")
    return path


def specs_dir() -> Path:
    """Return the folder of the built-in specs (and ``schema/spec.schema.json``)."""
    return data_dir("specs")


def kit_dir() -> Path:
    """Return the folder of the protocol schemas, golden traces and other-language engines."""
    return data_dir("conformance")
