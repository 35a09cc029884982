"""Where the site is published and where its code lives: what a deploy build must be told.

A build for reading locally needs neither address: without ``site_url`` mkdocs writes no
canonical links and the hook drops the sitemap (which would list no address), so nothing points
at a server that is not there. A **deploy build** must have both, since the sitemap, the
canonical links, the 404 page and the feed are absolute under ``site_url``, and the home page
and Getting started say where the code is from ``repo_url``. A build is a deploy build when
mkdocs runs ``gh-deploy``, when ``RULESPEC_DEPLOY`` is set (``mkdocs build`` for another host)
or with ``rulespec docs build --deploy``; the hook then refuses to start without them
(``docs/about/publishing.md``).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

#: The environment variables mkdocs.yml reads its addresses from.
SITE_URL_ENV = "RULESPEC_SITE_URL"
REPO_URL_ENV = "RULESPEC_REPO_URL"
#: Set (to anything but empty, 0, false or no) to mark a ``mkdocs build`` as a deploy build.
DEPLOY_ENV = "RULESPEC_DEPLOY"
#: mkdocs commands that publish the site.
DEPLOY_COMMANDS = frozenset({"gh-deploy"})
#: Hosts no reader but the builder can reach.
_LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]"})
#: Where the repository link and the install commands appear.
MARKER_REPOSITORY = "<!-- rulespec:repository -->"


def is_deploy(command: str | None, env: Mapping[str, str]) -> bool:
    """Return whether this build publishes the site (see the module docstring)."""
    flag = env.get(DEPLOY_ENV, "").strip().lower()
    return command in DEPLOY_COMMANDS or flag not in ("", "0", "false", "no")


def address_problem(name: str, url: str | None) -> str | None:
    """Return what is wrong with ``url`` as a published address, or None if nothing is."""
    if not url:
        return f"{name} is not set"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"{name} {url!r} is not an http(s) address"
    host = parts.hostname.lower()
    if host in _LOCAL_HOSTS or host.endswith(".localhost") or host.startswith("127."):
        return f"{name} {url!r} is this machine, which no reader can reach"
    return None


def deploy_problems(*, site_url: str | None, repo_url: str | None) -> list[str]:
    """Return why a deploy build cannot go ahead with these addresses (empty: it can)."""
    found = [address_problem(f"site_url ({SITE_URL_ENV})", site_url),
             address_problem(f"repo_url ({REPO_URL_ENV})", repo_url)]
    return [p for p in found if p]


def deploy_refusal(problems: list[str]) -> str:
    """Return the message that stops a deploy build, saying what to set."""
    return ("a deploy build needs the site's public address and the repository's: "
            + "; ".join(problems) + f". Set {SITE_URL_ENV}=https://OWNER.github.io/rulespec/ "
            f"(where the site will be read) and {REPO_URL_ENV}=https://github.com/OWNER/rulespec, "
            "or pass rulespec docs build --site-url URL --repo-url URL "
            "(docs/about/publishing.md)")


def repository_block(repo_url: str | None) -> str:
    """Return where the code is and how to install it, for the home page and Getting started."""
    if repo_url:
        base = repo_url.rstrip("/")
        where = (f"The code is at [{base}]({base}): the specs, the reference interpreters, the "
                 "conformance kit and this site's sources. Get it and install it:\n\n")
        clone = f"git clone {base} rulespec && cd rulespec"
        pip = f"pip install 'rulespec[docs] @ git+{base}'"
    else:
        where = ("The code is in rulespec's git repository: the specs, the reference "
                 "interpreters, the conformance kit and this site's sources. This copy of the "
                 f"site was built without the repository's address (a published build sets "
                 f"`{REPO_URL_ENV}`), so below `REPOSITORY` stands for it. Get it and install "
                 "it:\n\n")
        clone = "git clone REPOSITORY rulespec && cd rulespec"
        pip = "pip install 'rulespec[docs] @ git+REPOSITORY'"
    return (where + "```sh\n" + clone + "\n"
            "python3 -m venv .venv && .venv/bin/pip install -e .   # Python 3.11 or later\n"
            ".venv/bin/rulespec games                              # the games it knows\n```\n\n"
            "Or install it into an environment of your own, without a checkout (the `docs` "
            "extra builds this site, `rulespec docs build`):\n\n"
            "```sh\n" + pip + "\n```\n")
