"""The kit as pytest items: one per configuration and one per golden trace.

Imported only by ``rulespec.pytest_plugin`` once ``--rulespec-engine`` or ``--rulespec-game``
is given, so a pytest run that does not use the kit never loads it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


class ConformanceFailed(Exception):
    """A configuration or golden trace failed a check of the kit."""


class _Session:
    """The adapter and kit shared by the items of one pytest session."""

    def __init__(self, config: pytest.Config) -> None:
        from pathlib import Path

        from rulespec.conformance.engine.adapters import InProcessAdapter, SubprocessAdapter
        from rulespec.conformance.play.runner import Conformance, Options

        engine = config.getoption("rulespec_engine")
        self.adapter: Any = (InProcessAdapter() if engine == "reference"
                             else SubprocessAdapter(engine, timeout=config.getoption(
                                 "rulespec_timeout")))
        options = Options(examples=config.getoption("rulespec_examples"),
                          trace_dir=Path(config.getoption("rulespec_trace_dir")))
        self.kit = Conformance(self.adapter, config.getoption("rulespec_game"),
                               options=options, engine_name=engine)


class RulespecItem(pytest.Item):
    """One configuration (or one golden trace) checked by the kit."""

    def __init__(self, *, config_json: dict[str, Any] | None = None, golden: str | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.config_json = config_json
        self.golden = golden
        self.failure_text = ""

    def _session(self) -> _Session:
        stash: dict[str, _Session] = self.config.stash.setdefault(_KEY, {})
        if "s" not in stash:
            stash["s"] = _Session(self.config)
        return stash["s"]

    def runtest(self) -> None:
        """Run the kit on this item's configuration or golden trace."""
        from rulespec.conformance.reports.report import _failure_text

        kit = self._session().kit
        if self.config_json is not None:
            run = kit.run_config(self.config_json)
            if run.skipped:
                pytest.skip(run.skipped)
            failures = run.failures
        else:
            failure, skipped = kit.run_golden_trace(str(self.golden))
            if skipped:
                pytest.skip(skipped)
            failures = [failure] if failure is not None else []
        if failures:
            self.failure_text = "\n".join(line for f in failures for line in _failure_text(f))
            raise ConformanceFailed(self.failure_text)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        """Show the kit's failure text, not a traceback."""
        if isinstance(excinfo.value, ConformanceFailed):
            return self.failure_text
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int, str]:
        """Name the item in reports."""
        return "rulespec", 0, self.name


_KEY = pytest.StashKey[dict[str, Any]]()


def _items(session: pytest.Session, config: pytest.Config) -> Iterator[RulespecItem]:
    from rulespec.conformance.play.runner import supported_configs
    from rulespec.spec.registry import get_spec, golden_paths

    game = config.getoption("rulespec_game")
    spec = get_spec(game)
    rulings: dict[str, str] = {}
    for item in config.getoption("rulespec_ruling"):
        key, _, value = item.partition("=")
        if rulings.setdefault(key, value) != value:
            raise pytest.UsageError(f"--rulespec-ruling gives {key} twice ({rulings[key]!r} and "
                                    f"{value!r}); choose one")
    configs = supported_configs(spec, players=config.getoption("rulespec_players") or None,
                                rulings=rulings, variants=config.getoption("rulespec_variant"))
    for cfg in configs:
        label = f"{game}[{cfg['players']}p" + "".join(
            f",{k}={v}" for k, v in sorted(rulings.items())) + "]"
        yield RulespecItem.from_parent(session, name=f"conform {label}", config_json=cfg)
    for path in golden_paths(game):
        yield RulespecItem.from_parent(session, name=f"golden {path.name}", golden=path.name)


def collect(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Add the kit's items (the options are checked by the caller)."""
    items.extend(_items(session, config))


def unconfigure(config: pytest.Config) -> None:
    """Shut the engine down."""
    stash = config.stash.get(_KEY, {})
    if "s" in stash:
        stash["s"].adapter.close()
