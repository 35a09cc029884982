"""Test configuration: Hypothesis profiles (derandomized in CI), shared fixtures."""

from __future__ import annotations

import json
import os
import zlib
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
    # Measured again on 2026-12-03 on a clean clone: with the tests above sampled, the default
    # run still took 597 s of CPU (budget 540), much of it in the engines and commands these
    # files start as child processes, which a test's duration does not show.
    "tests/releases/test_rules.py": "every kind of spec edit diffed and replayed (20 s)",
    "tests/conformance/test_protocol.py": "engines in child processes over the protocol (17 s)",
    "tests/releases/test_cli.py": "rulespec diff and release commands, with git (14 s)",
    "tests/releases/test_behaviour.py": "releases replayed against the reference (13 s)",
    "tests/conformance/test_contract.py": "whole conformance runs over the protocol (12 s)",
    "tests/conformance/test_reference.py": "whole conformance runs of the reference (11 s)",
    "tests/conformance/test_negative.py": "planted bugs, each a whole conformance run (11 s)",
    "tests/conformance/test_golden.py": "golden traces regenerated and replayed (9 s)",
    "tests/conformance/test_verdicts.py": "whole conformance runs against planted bugs (7 s)",
    "tests/test_plugin_isolation.py": "child processes with broken plugins installed (8 s)",
    "tests/packaging/test_pig_plugin.py": "the plugin game in child processes (6 s)",
    "tests/conformance/test_parallel.py": "conformance runs in many jobs, signals (5 s)",
    "tests/hardening/test_engines_end.py": "signals to processes and their engines (4 s)",
    "tests/compat/test_reports.py": "whole conformance runs for today's reports (16 s)",
}


#: Single tests that run in the integration step, each with its reason and its seconds in the
#: default run of 2026-12-03 (clean clone, two workers, 971 s of CPU against the budget of 540 on
#: a machine as slow as CI's that day): whole verify searches, conformance runs over the
#: protocol with engines in child processes, signals, installs.
INTEGRATION_TESTS = {
    "tests/verify/test_cli.py::test_without_a_view_the_specs_declared_view_is_used":
        "Dado de Ouro searched with and without its declared view (29 s)",
    "tests/verify/test_cli.py::test_json_report": "a whole verify run behind the JSON (7 s)",
    "tests/verify/test_explore.py::test_a_view_whose_fields_matter_later_is_caught_by_the_"
    "canonical_search": "a canonical search of 20,000 states beside the view's (19 s)",
    "tests/verify/test_explore.py::test_a_bug_only_a_long_record_reaches_is_caught_by_the_"
    "canonical_search": "a canonical search deep enough for a long record (12 s)",
    "tests/test_cli_plugin_folders.py::test_golden_writes_into_the_registered_folder_and_checks_it":
        "golden traces regenerated for a plugin game in a child process (17 s)",
    "tests/conformance/test_spec_versions.py::test_ouro_de_tolo_from_its_first_release_lists_the_"
    "major_changes": "every release of Ouro de Tolo diffed and replayed (10 s)",
    "tests/test_trace_states.py::test_traces_old_and_new_match_the_trace_schema":
        "every committed trace replayed against the trace schema (9 s)",
    "tests/test_ci_budget.py::test_the_conftest_writes_each_tests_duration":
        "a pytest run in a child process (8 s)",
    "tests/conformance/test_entry_points.py::test_pytest_plugin_reports_the_failed_check":
        "a pytest run in a child process against an engine (8 s)",
    "tests/conformance/test_entry_points.py::test_conform_usage_errors_exit_2":
        "the conform command started once per usage error (7 s)",
    "tests/conformance/test_entry_points.py::test_conform_accepts_the_served_reference":
        "a whole conformance run against the served reference (7 s)",
    "tests/conformance/test_levels.py::test_observable_level_still_finds_a_visible_bug":
        "a whole conformance run at the observable level (8 s)",
    "tests/conformance/test_entry_points.py::test_conform_rejects_a_bad_engine_and_its_trace_"
    "replays": "a whole conformance run and a replay, each a process (6 s)",
    "tests/conformance/test_moved_modules.py::test_a_script_of_0_3_0_runs_unchanged":
        "a 0.3.0 script run whole in a child process (6 s)",
    "tests/conformance/test_examples_reach.py::test_the_frozen_node_engine_runs_more_examples":
        "a Node engine over the protocol (5 s)",
    "tests/verify/test_benchmarks.py::test_throughput_prints_verify_beside_perft":
        "a throughput benchmark, small (5 s)",
    "tests/games/test_dado_de_ouro.py::test_random_rulings_on_a_tie_heavy_die":
        "random matches under random rulings (5 s)",
    "tests/conformance/test_levels.py::test_observable_engine_without_hidden_fields_is_conformant":
        "a whole conformance run (5 s)",
    "tests/conformance/test_coverage.py::test_declared_options_are_all_played":
        "a whole conformance run over every option (5 s)",
    "tests/conformance/test_coverage.py::test_every_configuration_is_reached_before_any_is_"
    "deepened": "a whole conformance run (4 s)",
    "tests/verify/test_explore.py::test_the_record_of_rounds_summarised_proves_every_invariant":
        "a whole Ruby Rhino search (5 s)",
    "tests/verify/test_cli.py::test_a_proof_is_reported_with_the_figures":
        "a whole verify run (4 s)",
    "tests/hardening/test_fuzz.py::test_spec_loader_never_crashes":
        "fuzzed specs through the whole loader (5 s)",
    "tests/docs/test_moving_releases.py::test_every_pair_of_consecutive_releases_has_a_step":
        "every release pair diffed (4 s)",
    "tests/impact/test_controls.py::test_relabelling_shows_no_effect":
        "a paired measurement of many games (4 s)",
    "tests/impact/test_sequential.py::test_the_time_is_shared_so_no_measurement_takes_it_all":
        "a sequential sweep (4 s)",
    "tests/impact/test_sequential.py::test_open_then_settled_in_two_passes_is_the_one_call_sweep":
        "three sequential sweeps (4 s)",
    "tests/impact/test_executors.py::test_dask_local_cluster_agrees_with_local_processes":
        "a local Dask cluster started (4 s)",
    "tests/conformance/test_fastschema.py::test_action_and_protocol_schemas_agree_on_tricky_"
    "values": "many values through both validators (4 s)",
    "tests/conformance/test_levels.py::test_level_none_checks_legal_actions_and_results":
        "a whole conformance run (4 s)",
    "tests/conformance/test_rulings.py::test_conform_infer_command_over_the_protocol":
        "a whole --infer run over the protocol (3 s)",
    "tests/conformance/test_matrix.py::test_a_matrix_of_some_games_keeps_the_other_games_reports":
        "a matrix run (3 s)",
    "tests/conformance/test_coverage.py::test_engine_declaring_two_to_four_players_is_conformant":
        "a whole conformance run (3 s)",
    "tests/games/test_dado_de_ouro.py::test_random_full_matches": "whole matches (4 s)",
    "tests/verify/test_views_named.py::test_the_named_view_is_the_terms_it_names":
        "two searches compared (3 s)",
    "tests/verify/test_cloning.py::test_ruby_rhino_explores_the_same_graph_with_sharing":
        "two searches compared (3 s)",
    "tests/test_pre_commit_hooks.py::test_the_hook_checks_quotes_with_sources_in_args":
        "the hook run in a child process (3 s)",
    "tests/test_provenance.py::test_a_reading_of_no_record_is_refused": "(3 s)",
}

#: Parametrised tests whose cases are the same check on other data (another edit, another
#: planted bug, another ruling set, another game): the default run keeps every k-th case (which
#: ones depends on the test's name, so tests over the four games do not all keep the same game)
#: and the integration step runs the rest, so CI runs every case. Each with k and the seconds all
#: its cases took in the default run of 2026-12-03.
SAMPLED = {
    "tests/games/test_ouro_de_tolo_properties.py::test_every_ruling_set_keeps_every_invariant":
        (5, "55 ruling sets, random games under each (26 s)"),
    "tests/games/test_ouro_de_tolo_properties.py::test_every_variant_keeps_every_invariant":
        (3, "10 variants (7 s)"),
    "tests/games/test_ouro_de_tolo_provenance.py::test_new_options_keep_every_invariant":
        (3, "18 options, random games under each (21 s)"),
    "tests/games/test_fool_properties.py::test_every_ruling_set_keeps_every_invariant":
        (4, "31 ruling sets (18 s)"),
    "tests/games/test_fool_properties.py::test_full_games_keep_every_invariant":
        (3, "5 player counts, whole games (9 s)"),
    "tests/games/test_dado_de_ouro.py::test_random_matches_keep_every_invariant":
        (4, "32 settings, random matches (20 s)"),
    "tests/games/test_dado_de_ouro.py::test_random_matches_under_each_variant": (3, "(7 s)"),
    "tests/games/test_ruby_rhino.py::test_random_games_keep_every_invariant":
        (4, "144 settings (18 s)"),
    "tests/games/test_ruby_rhino.py::test_full_length_games_keep_every_invariant":
        (2, "4 player counts, whole games (8 s)"),
    "tests/hardening/test_corpus.py::test_bad_input": (4, "195 bad inputs (22 s)"),
    "tests/hardening/test_exit_codes.py::test_exit_code": (3, "48 commands, each a process (16 s)"),
    "tests/test_celcompile_differential.py::test_every_expression_agrees_on_the_golden_traces":
        (3, "34 traces (10 s)"),
    "tests/test_decision_points.py::test_every_record_is_reached_in_random_play":
        (4, "one game of the four (8 s)"),
    "tests/test_spec_cache.py::test_fast_loader_matches_the_reference": (4, "(7 s)"),
    "tests/bridges/test_openspiel.py::test_random_simulation": (3, "(6 s)"),
    "tests/test_architecture.py::test_every_field_of_the_public_api_is_documented": (3, "(5 s)"),
    "tests/conformance/test_rulings.py::test_infer_reports_the_option":
        (5, "a whole --infer run per option (5 s)"),
    "tests/conformance/test_rulings.py::test_kit_names_the_ruling_the_engine_follows":
        (5, "a whole run per option (6 s)"),
    "tests/verify/test_decides.py::test_capped_lists_and_move_labels_decide_exactly_on_random_"
    "moves": (5, "(4 s)"),
}


def _sampled_out(items: list[pytest.Item]) -> set[str]:
    """Return the node ids of the cases of ``SAMPLED`` tests the default run leaves out."""
    groups: dict[str, list[str]] = {}
    for item in items:
        base = item.nodeid.split("[")[0]
        if base in SAMPLED:
            groups.setdefault(base, []).append(item.nodeid)
    out: set[str] = set()
    for base, nodeids in groups.items():
        every = SAMPLED[base][0]
        offset = zlib.crc32(base.encode()) % every
        out.update(node for k, node in enumerate(nodeids) if k % every != offset % len(nodeids))
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip tests marked ``slow`` or ``integration`` unless they are asked for (``pytest -m
    slow``, ``pytest -m integration``): the default run stays under five minutes on two cores,
    and CI runs the integration tests as a step of their own. A test that needs the whole
    documentation site built (``WHOLE_SITE_FIXTURES``, directly or through another fixture), a
    test of ``INTEGRATION_TESTS`` or a file of ``INTEGRATION_FILES``, and the cases of a
    ``SAMPLED`` test the default run leaves out are marked ``integration`` here, before ``-m``
    selects."""
    sampled_out = _sampled_out(items)
    for item in items:
        if (item.nodeid.split("::")[0] in INTEGRATION_FILES
                or item.nodeid.split("[")[0] in INTEGRATION_TESTS or item.nodeid in sampled_out):
            item.add_marker(pytest.mark.integration)
        fixtures = set(getattr(item, "fixturenames", ()))
        if WHOLE_SITE_FIXTURES & fixtures or (item.nodeid.startswith(EXAMPLE_SITE[0])
                                              and EXAMPLE_SITE[1] in fixtures):
            item.add_marker(pytest.mark.integration)
    asked = config.getoption("markexpr") or ""
    reasons = {"slow": "long run: select it with -m slow",
               "integration": "integration test (a whole docs build, a fresh environment, a "
                              "signal, a long search or conformance run, or a case the default "
                              "run samples out): select it with -m integration; CI runs it"}
    for marker, reason in reasons.items():
        if marker in asked:
            continue
        skip = pytest.mark.skip(reason=reason)
        for item in items:
            if marker in item.keywords:
                item.add_marker(skip)
