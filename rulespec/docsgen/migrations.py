"""The implementers' page "Moving your engine to a new release": for every game, each release
after the first with what an engine of the release before adds to ``hello`` and changes in
behaviour to claim it (``rulespec diff OLD NEW --for-implementers``, from the same diffs as the
Changes pages)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rulespec.docsgen.changes import CHANGES_PAGE
from rulespec.docsgen.history import History
from rulespec.docsgen.links import game_dir, game_title
from rulespec.docsgen.markdown import Page, front_matter, text
from rulespec.releases.implementers import migration, render
from rulespec.spec.model import Spec

MIGRATIONS_PAGE = "implementers/moving-releases.md"
MIGRATIONS_TITLE = "Moving your engine to a new release"


def migrations_page(specs: Sequence[Spec], histories: Mapping[str, History]) -> Page:
    """Return the page: per game, each pair of consecutive frozen releases, newest first."""
    out = [front_matter(MIGRATIONS_TITLE), f"# {text(MIGRATIONS_TITLE)}\n\n",
           '<p class="rs-provenance">Generated from the specs and their frozen releases with '
           "<code>rulespec diff OLD NEW --for-implementers</code>. Do not edit this page: edit "
           "the spec and release it.</p>\n\n",
           "An engine declares in `hello` the release it implements (`spec_version`); the kit "
           "checks it as that release, so it keeps passing. To claim a later release, an engine "
           "adds to `hello` what came since (the kit sends a record added after your release "
           "in `start` once you claim a release that has it) and changes what the MAJOR "
           "changes changed. Each step below is one release; to move across several, take "
           "every step between, or run `rulespec diff GAME@YOURS GAME@TARGET "
           "--for-implementers` for the whole way at once. In the `hello` lines `...` is what "
           "your `hello` declares already. [Following spec releases](following-releases.md) "
           "says how to hear of new releases; [conformance](conformance.md#7-spec-versions-the-"
           "release-you-were-checked-against) what the kit does with the release you "
           "declare.\n\n"]
    for spec in specs:
        history = histories.get(spec.game_id)
        steps = [e for e in (history.newest_first if history is not None else [])
                 if e.version is not None and e.content is not None
                 and e.previous_content is not None]
        title = game_title(spec)
        out.append(f"## {text(title)}\n\n")
        if not steps:
            out.append("No two frozen releases yet: nothing to move between.\n\n")
            continue
        out.append(f"Its releases and their bulletins: [{text(title)}: Changes]"
                   f"(../{game_dir(spec)}/{CHANGES_PAGE}).\n\n")
        for entry in steps:
            if entry.previous_content is None or entry.content is None:  # filtered above
                continue
            moved = migration(entry.previous_content, entry.content, entry.diff,
                              new_label=entry.version)
            out.append(render(moved, "markdown", heading=3) + "\n")
    return Page(MIGRATIONS_PAGE, "".join(out))
