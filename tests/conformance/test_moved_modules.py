"""The kit's module names from before the stages (rulespec 0.3.0) still import until 0.5.0.

``rulespec.conformance.runner`` and its 39 siblings moved into stage subpackages. They were
internal, but scripts written against 0.3.0 reach for them: each old name must give the very same
module object as its new place, with a ``RemovedIn05Warning`` naming that place, and a name that
never existed must still fail as before.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import textwrap
import warnings

import pytest

from rulespec.conformance import _moved
from rulespec.spec.errors import RulespecDeprecationWarning

#: Every module of the kit as 0.3.0 shipped it (``git show v0.3.0:rulespec/conformance``), but
#: ``matrix`` and ``server``, which kept their names.
OLD_NAMES = [
    "adapters", "authoring", "bench", "budget", "causes", "change_evidence", "checks", "cli",
    "coverage", "divergence", "engines_file", "examples_check", "golden", "inference", "levels",
    "matrix_cli", "options", "parallel", "perft_check", "perft_tables", "playing", "probes",
    "processes", "profile", "profile_blame", "profile_play", "profile_report", "profile_steer",
    "progress", "protocol", "pytest_items", "replay", "report", "runner", "scope", "steering",
    "tracefile", "validation", "verdicts", "versions", "witness_probes",
]


def test_every_old_name_is_mapped_or_kept() -> None:
    assert sorted(set(_moved.MOVED) | {"cli"}) == OLD_NAMES


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_an_old_name_is_the_same_module_with_a_warning(old: str) -> None:
    name = f"rulespec.conformance.{old}"
    sys.modules.pop(name, None)
    with pytest.warns(_moved.RemovedIn05Warning, match=r"moved to rulespec\.conformance\.") as seen:
        module = importlib.import_module(name)
    assert module is importlib.import_module(f"rulespec.conformance.{_moved.MOVED[old]}")
    assert module.__spec__ is not None and module.__spec__.name == module.__name__
    assert "0.5.0" in str(seen[0].message)
    assert issubclass(_moved.RemovedIn05Warning, RulespecDeprecationWarning)
    sys.modules.pop(name, None)


def test_a_script_of_0_3_0_runs_unchanged() -> None:
    """A whole script as 0.3.0's docs allowed: old module paths, ``from ... import`` and all."""
    script = textwrap.dedent("""
        import warnings
        warnings.simplefilter("always")
        from rulespec.conformance.runner import Options, check_engine
        from rulespec.conformance.adapters import InProcessAdapter
        from rulespec.conformance import perft_tables, golden
        from rulespec.conformance.matrix import describe_checks
        import rulespec.conformance.report as report
        r = check_engine(InProcessAdapter(), "ruby-rhino", options=Options(examples=1, seed=0))
        assert r.ok, report.render(r, "text")
        assert perft_tables.generate.__module__ == "rulespec.conformance.play.perft_tables"
        assert golden.__name__ == "rulespec.conformance.play.golden"
        assert describe_checks
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-W", "always", "-c", script], capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert result.stderr.count("RemovedIn05Warning") >= 5, result.stderr


def test_a_name_that_never_existed_still_fails() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rulespec.conformance.no_such_module")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError):
            from rulespec.conformance import matrix
            matrix.no_such_name  # noqa: B018
