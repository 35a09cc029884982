"""Spec releases: the version policy's tools (docs/editors/versioning.md).

``store`` reads the releases a spec records and the frozen copy of each; ``diff`` classifies
every change between two specs, textual and behavioural; ``report`` formats a diff; ``cli`` is
the ``rulespec diff`` command.
"""
