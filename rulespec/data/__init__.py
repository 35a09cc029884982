"""Files shipped with rulespec: the built-in specs, the kit's language-neutral material, the docs.

The repository keeps them in its top-level ``specs/`` and ``conformance/`` folders and, for the
docs site, ``mkdocs.yml``, ``README.md`` and ``docs/``; setuptools maps them to
``rulespec.data.specs``, ``rulespec.data.conformance`` and ``rulespec.data.site``.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def installed_version(unknown: str = "unknown") -> str:
    """Return the installed rulespec's version (``unknown`` when running from a bare source tree,
    which has no distribution metadata)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rulespec")
    except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
        return unknown


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


def site_project() -> Path:
    """Return the folder holding the docs site's ``mkdocs.yml``, ``README.md`` and ``docs/``.

    That is the copy installed with rulespec (``rulespec.data.site``), or, for an editable
    install, the checkout it runs from (where the copy is not made).
    """
    here = Path(__file__).resolve().parent
    for folder in (here / "site", here.parents[1]):
        if (folder / "mkdocs.yml").is_file() and (folder / "docs").is_dir():
            return folder
    raise RuntimeError(f"the docs site's sources are not installed with rulespec (no mkdocs.yml "
                       f"in {here / 'site'}); reinstall rulespec")
