"""Freeze a release: copy a spec, its rule examples, golden traces and perft tables aside.

The files come from the work tree or from a git revision; they are written in the layout
``store`` reads. Golden traces are gzipped (deterministically), the rest is copied as is. A spec
text that today's YAML reader refuses (an older spec could carry a flow-mapping slip that PyYAML
read as an extra key) is written as the data PyYAML read then, with a comment saying so.
"""

from __future__ import annotations

import gzip
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulespec.releases import gitsource
from rulespec.releases.store import TRACE_SUFFIX, TRACES_FOLDER, parse_version, releases_root
from rulespec.spec.errors import RulespecError, SpecError
from rulespec.spec.loader import load_yaml


class FreezeError(RulespecError):
    """A release that cannot be frozen (already frozen, nothing to freeze)."""


@dataclass(frozen=True)
class Snapshot:
    """The files of one version of a game's spec."""

    game: str
    spec_text: str
    examples_text: str | None = None
    #: Golden trace file name (``<game>.<label>.jsonl``) -> its text.
    traces: dict[str, str] = field(default_factory=dict)
    perft_text: str | None = None
    #: Where the files came from (a commit id, or "work tree").
    origin: str = "work tree"

    @property
    def version(self) -> str:
        """Return the spec_version the spec text declares."""
        data = yaml.safe_load(self.spec_text)
        version = str(data["game"]["spec_version"])
        parse_version(version)
        return version


def _sources(game: str) -> tuple[Path, Path, Path | None, Path | None]:
    """Return the registered spec file, its examples file, its golden-trace folder and its
    perft tables file (as its ``GamePackage`` registers them)."""
    from rulespec.spec.registry import perft_path, registered

    entry = registered(game)
    return entry.spec_path, entry.package.examples_file(), entry.package.traces, perft_path(game)


def snapshot_worktree(game: str) -> Snapshot:
    """Return the current files of ``game`` (its registered spec, examples, traces, perft)."""
    spec, examples, traces, perft_file = _sources(game)
    texts: dict[str, str] = {}
    if traces is not None and traces.is_dir():
        texts = {p.name: p.read_text(encoding="utf-8")
                 for p in sorted(traces.glob(f"{game}.*.jsonl"))}
    perft = (perft_file.read_text(encoding="utf-8")
             if perft_file is not None and perft_file.is_file() else None)
    return Snapshot(game, spec.read_text(encoding="utf-8"),
                    examples.read_text(encoding="utf-8") if examples.is_file() else None,
                    texts, perft)


def snapshot_git(game: str, rev: str, *, spec_path: str | None = None) -> Snapshot:
    """Return the files of ``game`` at git revision ``rev`` (the registered files' paths).

    ``spec_path`` (relative to the work tree's top) names the spec when it is not where the
    registered spec is today; its examples and traces are then looked for beside it.
    """
    spec, examples, traces, perft_file = _sources(game)
    root = gitsource.repo_root(spec)
    commit = gitsource.resolve(rev, root)
    rel_spec = spec_path or spec.relative_to(root).as_posix()
    rel_examples = (_inside(examples, root) if spec_path is None else
                    (Path(rel_spec).parent / "examples" / Path(rel_spec).name).as_posix())
    spec_text = gitsource.show(commit, rel_spec, root).decode("utf-8")
    examples_text = (gitsource.show(commit, rel_examples, root).decode("utf-8")
                     if rel_examples and gitsource.exists(commit, rel_examples, root) else None)
    trace_texts: dict[str, str] = {}
    perft = None
    if traces is not None and spec_path is None:
        rel_traces = traces.relative_to(root).as_posix()
        try:
            names = gitsource.list_files(commit, rel_traces, root)
        except gitsource.GitError:
            names = []  # the folder did not exist yet
        for name in names:
            base = name.rsplit("/", 1)[-1]
            if base.startswith(f"{game}.") and base.endswith(".jsonl"):
                trace_texts[base] = gitsource.show(commit, name, root).decode("utf-8")
    rel_perft = _inside(perft_file, root) if perft_file is not None and spec_path is None else None
    if rel_perft and gitsource.exists(commit, rel_perft, root):
        perft = gitsource.show(commit, rel_perft, root).decode("utf-8")
    return Snapshot(game, spec_text, examples_text, trace_texts, perft, commit)


def _inside(path: Path, root: Path) -> str | None:
    """Return ``path`` relative to the work tree's top, or None when it lies outside it."""
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return None


def readable_spec_text(snapshot: Snapshot) -> str:
    """Return the spec text as today's reader accepts it (re-written from its data if need be)."""
    try:
        load_yaml(snapshot.spec_text, f"{snapshot.game}.yaml")
    except SpecError:
        data = yaml.safe_load(snapshot.spec_text)
        head = (f"# Frozen copy of the {snapshot.game} spec {snapshot.version} ({snapshot.origin}),"
                "\n# written from the data PyYAML read from it: today's reader refuses a slip of "
                "the original text.\n")
        return head + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
    return snapshot.spec_text


def write_snapshot(snapshot: Snapshot, folder: Path) -> Path:
    """Write ``snapshot`` into ``folder`` in the frozen layout and return the folder."""
    game = snapshot.game
    (folder / TRACES_FOLDER).mkdir(parents=True, exist_ok=True)
    (folder / f"{game}.yaml").write_text(readable_spec_text(snapshot), encoding="utf-8")
    if snapshot.examples_text is not None:
        (folder / "examples").mkdir(exist_ok=True)
        (folder / "examples" / f"{game}.yaml").write_text(snapshot.examples_text, encoding="utf-8")
    for name, text in sorted(snapshot.traces.items()):
        target = folder / TRACES_FOLDER / (name.removesuffix(".jsonl") + TRACE_SUFFIX)
        target.write_bytes(gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0))
    if snapshot.perft_text is not None:
        (folder / TRACES_FOLDER / f"{game}.perft.json").write_text(snapshot.perft_text,
                                                                    encoding="utf-8")
    return folder


def freeze(game: str, *, rev: str | None = None, force: bool = False,
           root: Path | None = None) -> Path:
    """Freeze the version of ``game`` in the work tree (or at git ``rev``) as a release.

    The release goes beside the game's spec (``releases/<game>/<version>``), or under ``root``
    (``<root>/<game>/<version>``) when it is given.
    """
    snapshot = snapshot_worktree(game) if rev is None else snapshot_git(game, rev)
    folder = (releases_root(game) if root is None else root / game) / snapshot.version
    if folder.exists() and not force:
        raise FreezeError(f"release {snapshot.version} of {game} is already frozen in {folder}; "
                          "a release never changes: bump spec_version instead")
    if folder.exists():
        import shutil

        shutil.rmtree(folder)
    return write_snapshot(snapshot, folder)
