"""The exit codes of every ``rulespec`` command, and which errors map to which.

One contract for every command (documented in ``docs/reference/limits.md`` and the CLI help):

- 0: ok (the spec is valid, the engine conformant, the trace replays, the command did its job);
- 1: a check failed (a spec problem, a conformance failure, a replay disagreement);
- 2: a usage or input error (bad option or argument, unknown game, missing or unreadable file,
  a trace or configuration that cannot be read), reported before any work is done;
- 3: the engine under test failed to run (cannot be started, or never completed ``hello``);
- 130 / 143: interrupted by SIGINT / SIGTERM (128 + the signal number), engines ended.
"""

from __future__ import annotations

from typing import Final

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_ENGINE: Final = 3

#: The contract as one paragraph, for command help texts.
CONTRACT: Final = ("Exit codes: 0 ok; 1 a check failed; 2 a usage or input error (bad option, "
                   "unknown game, unreadable file or trace); 3 the engine under test failed to "
                   "run; 130/143 interrupted by SIGINT/SIGTERM.")


def exit_code_for(exc: BaseException) -> int:
    """Return the exit code for an error that ended a command.

    Each error class says its own code (``exit_code``, set on ``RulespecError`` and overridden
    where an error is a usage error or the engine's failure), so this module imports nothing
    and any package may use it.
    """
    code = getattr(type(exc), "exit_code", EXIT_FAILED)
    return code if isinstance(code, int) and not isinstance(code, bool) else EXIT_FAILED
