"""Run the command line with ``python -m rulespec``."""

from rulespec.cli import main

main()
