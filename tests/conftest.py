"""Test configuration: Hypothesis profiles (derandomized in CI), shared fixtures."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=30,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "dev",
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"


@pytest.fixture
def rulebooks() -> Path:
    """Return the folder of rulebook texts, skipping the test when it is absent."""
    if not RULEBOOKS.is_dir():
        pytest.skip("the shared rulebooks folder is not beside the checkout")
    return RULEBOOKS


#: Fixtures that build the whole documentation site (``mkdocs build --strict`` of the project's
#: own docs, 17 s of CPU in each worker that needs it): a test that uses one is an integration
#: test, as the plugin docs builds are.
WHOLE_SITE_FIXTURES = frozenset({"registry_site"})
#: The strict build of the docs with the toy spec as their only game (``tests/docs/test_site.py``'s
#: ``site`` fixture, behind its browser tests): also a whole mkdocs build, about 15 s of CPU in
#: each worker; with Chromium installed (CI) its tests took the default run past five minutes.
EXAMPLE_SITE = ("tests/docs/test_site.py::", "site")


#: Where ``.ci/test_budget.py`` asks for every test's duration (setup, call and teardown, summed).
DURATIONS_ENV = "RULESPEC_TEST_DURATIONS"
_durations: dict[str, float] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Add up each test's phases (with xdist, the controller sees every worker's reports)."""
    if os.environ.get(DURATIONS_ENV):
        _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write the durations for the test budget (in the controller only, not in xdist workers)."""
    path = os.environ.get(DURATIONS_ENV)
    if path and not hasattr(session.config, "workerinput"):
        Path(path).write_text(json.dumps(_durations, indent=0, sort_keys=True), encoding="utf-8")


#: Whole test files that run in the integration step, not the default run, each with its reason
#: and the seconds its tests took together in the default run (clean CI clone, two workers,
#: measured by .ci/test_budget.py on 2026-12-02, when the default run took 635 s of CPU against
#: its budget of 540). CI runs them all; ``-m integration`` runs them locally.
INTEGRATION_FILES = {
    "tests/conformance/test_profile.py":
        "ruling profiles: whole --infer runs against the planted engines (36 s)",
    "tests/conformance/test_release_terms.py":
        "what the kit says of older releases: whole conform and --infer runs (30 s)",
    "tests/docs/test_changed_in.py":
        "every clause's and record's 'changed in' over every frozen release (20 s)",
    "tests/verify/test_merge_memory.py":
        "reused merge digests against a search without them, on whole Pig and Rhino "
        "searches (13 s)",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``slow`` or ``integration`` unless they are asked for (``pytest -m
    slow``, ``pytest -m integration``): the default run stays under five minutes on two cores,
    and CI runs the integration tests as a step of their own. A test that needs the whole
    documentation site built (``WHOLE_SITE_FIXTURES``, directly or through another fixture) is
    marked ``integration`` here, before ``-m`` selects."""
    for item in items:
        if item.nodeid.split("::")[0] in INTEGRATION_FILES:
            item.add_marker(pytest.mark.integration)
        fixtures = set(getattr(item, "fixturenames", ()))
        if WHOLE_SITE_FIXTURES & fixtures or (item.nodeid.startswith(EXAMPLE_SITE[0])
                                              and EXAMPLE_SITE[1] in fixtures):
            item.add_marker(pytest.mark.integration)
    asked = config.getoption("markexpr") or ""
    reasons = {"slow": "long run: select it with -m slow",
               "integration": "integration test (a whole docs build, a fresh environment, a "
                              "signal): select it with -m integration; CI runs it"}
    for marker, reason in reasons.items():
        if marker in asked:
            continue
        skip = pytest.mark.skip(reason=reason)
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)
