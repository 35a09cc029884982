"""``rulespec docs build|serve``: the docs site of every registered game, from the installed rulespec.

The site's sources (``mkdocs.yml``, ``README.md``, ``docs/`` with the build hook) are installed
with rulespec as ``rulespec.data.site`` (an editable install uses its checkout's), so a plugin's
author needs no copy of rulespec's repository: ``pip install 'rulespec[docs]'`` and the plugin,
then ``rulespec docs build``. The hook documents every game of the registry, plugins included.

mkdocs is run in this process, on a small configuration that inherits the installed
``mkdocs.yml`` and resolves its relative paths against it; it only replaces ``watch`` (the
installed copy has no ``specs/`` beside it) with the folders of the registered specs, so that
``rulespec docs serve`` rebuilds when a game's spec or examples change.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from rulespec.spec.errors import RulespecError

#: What to install when mkdocs is missing.
DOCS_EXTRA = "pip install 'rulespec[docs]'"


@click.group("docs")
def docs() -> None:
    """Build or serve the docs site of every registered game, plugins included.

    The site is built from the docs installed with rulespec (no checkout needed); it needs the
    docs extra (pip install 'rulespec[docs]'). A site to publish needs its address and the
    repository's: build it with --deploy --site-url URL --repo-url URL (or RULESPEC_SITE_URL
    and RULESPEC_REPO_URL).
    """


@docs.command("build")
@click.option("--site-dir", "-d", type=click.Path(file_okay=False, path_type=Path),
              default=Path("site"), show_default=True, help="Folder to write the site into.")
@click.option("--strict/--no-strict", default=True, show_default=True,
              help="Fail on any warning (a broken link or anchor, an invalid spec).")
@click.option("--site-url", metavar="URL", default=None,
              help="Where the site will be read (its sitemap, canonical links, 404 page and "
                   "feed are absolute under it); default: RULESPEC_SITE_URL, else none.")
@click.option("--repo-url", metavar="URL", default=None,
              help="The repository the home page and Getting started point to; default: "
                   "RULESPEC_REPO_URL, else none.")
@click.option("--deploy", is_flag=True,
              help="Build the site to publish: refuse to build without a public --site-url "
                   "and --repo-url.")
def build(site_dir: Path, strict: bool, site_url: str | None, repo_url: str | None,
          deploy: bool) -> None:
    """Build the site into --site-dir; exit 1 when the build fails or (--strict) warns."""
    from rulespec.spec.registry import game_ids

    _show_mkdocs_log()
    build_site(site_dir, strict=strict, site_url=site_url, repo_url=repo_url, deploy=deploy)
    games = game_ids()
    click.echo(f"built the docs site of {len(games)} game(s) ({', '.join(games)}) into "
               f"{site_dir.resolve()}")


@docs.command("serve")
@click.option("--dev-addr", "-a", default="127.0.0.1:8000", show_default=True,
              metavar="HOST:PORT", help="Address to serve the site on.")
@click.option("--open", "open_browser", is_flag=True, help="Open the site in a browser.")
def serve(dev_addr: str, open_browser: bool) -> None:
    """Serve the site on --dev-addr, rebuilding when a registered spec or its examples change."""
    mkdocs = _mkdocs()
    _show_mkdocs_log()
    click.echo(f"building the docs site, then serving it on http://{dev_addr}/ (Ctrl+C stops)")
    with _config_file() as (config_file, project):
        try:
            mkdocs.serve(config_file=str(config_file), config_file_path=str(project / "mkdocs.yml"),
                         dev_addr=dev_addr, open_in_browser=open_browser)
        except mkdocs.MkDocsException as exc:
            raise _failed(exc) from None


def build_site(site_dir: Path, *, strict: bool = True, site_url: str | None = None,
               repo_url: str | None = None, deploy: bool = False) -> None:
    """Build the docs site of every registered game into ``site_dir``.

    ``site_url`` and ``repo_url`` replace mkdocs.yml's (its environment variables); a
    ``deploy`` build is refused without public addresses (``rulespec.docsgen.publish``).
    """
    from rulespec.docsgen.publish import DEPLOY_ENV

    mkdocs = _mkdocs()
    given = {k: v for k, v in (("site_url", site_url), ("repo_url", repo_url)) if v}
    deploying = _environment(DEPLOY_ENV, "1" if deploy else None)
    with _config_file() as (config_file, project), deploying:
        try:
            config = mkdocs.load_config(config_file=str(config_file),
                                        config_file_path=str(project / "mkdocs.yml"),
                                        site_dir=str(site_dir.resolve()), strict=strict,
                                        **given)
            config.plugins.on_startup(command="build", dirty=False)
            try:
                mkdocs.build(config)
            finally:
                config.plugins.on_shutdown()
        except mkdocs.MkDocsException as exc:
            raise _failed(exc) from None


@contextlib.contextmanager
def _environment(name: str, value: str | None) -> Iterator[None]:
    """Set the environment variable ``name`` to ``value`` for the block (None: leave it)."""
    if value is None:
        yield
        return
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


class _Mkdocs:
    """The parts of mkdocs the commands use, imported only when one runs."""

    def __init__(self) -> None:
        from mkdocs.commands.build import build
        from mkdocs.commands.serve import serve
        from mkdocs.config import load_config
        from mkdocs.exceptions import MkDocsException

        self.build = build
        self.serve = serve
        self.load_config = load_config
        self.MkDocsException = MkDocsException


def _mkdocs() -> _Mkdocs:
    try:
        return _Mkdocs()
    except ImportError as exc:
        raise click.UsageError(f"the docs site needs mkdocs-material ({exc}); run {DOCS_EXTRA}"
                               ) from None


def _show_mkdocs_log() -> None:
    """Print mkdocs' messages (what it builds, every warning) as its own command line does."""
    log = logging.getLogger("mkdocs")
    if not any(getattr(h, "rulespec_docs", False) for h in log.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
        handler.rulespec_docs = True  # type: ignore[attr-defined]
        log.addHandler(handler)
        log.setLevel(logging.INFO)


class DocsBuildFailed(RulespecError):
    """The docs site did not build (exit 1): a spec it cannot document, a broken link, ..."""


def _failed(exc: Exception) -> DocsBuildFailed:
    return DocsBuildFailed(f"the docs site did not build: {exc}")


@contextlib.contextmanager
def _config_file() -> Iterator[tuple[Path, Path]]:
    """Yield a configuration that inherits the installed ``mkdocs.yml``, and its folder."""
    from rulespec.data import site_project

    project = site_project()
    with tempfile.TemporaryDirectory(prefix="rulespec-docs-") as tmp:
        config = Path(tmp) / "mkdocs.yml"
        settings: dict[str, Any] = {"INHERIT": str(project / "mkdocs.yml"),
                                    "watch": [str(p) for p in _watched(project)]}
        config.write_text(json.dumps(settings, indent=1), encoding="utf-8")  # JSON is YAML
        yield config, project


def _watched(project: Path) -> list[Path]:
    """Return what ``serve`` watches besides the docs: the README and each registered game's
    spec folder and examples file."""
    from rulespec.spec.registry import game_ids, registered

    found = {project / "README.md"}
    for game in game_ids():
        package = registered(game).package
        found.update(p for p in (package.spec.parent, package.examples_file()) if p.exists())
    return sorted(found)
