"""The error of a rule example that cannot be run; the lowest module of the examples package.

``model`` (the file format) and ``position`` (the driver that plays examples) both raise it;
keeping it here lets ``model`` use the driver's vocabulary without the two importing each other.
"""

from __future__ import annotations

from rulespec.spec.errors import RulespecError


class ExampleError(RulespecError):
    """An example that cannot be run (a move that does not fit the position, ...)."""
