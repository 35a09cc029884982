"""Fixtures of the compatibility corpus (tests/compat/README.md)."""

from __future__ import annotations

# The frozen plugin projects carry their own tests, written against their release's API: they
# run inside a child environment where the plugin is installed (test_plugins.py), never here.
collect_ignore_glob = ["plugins/*"]
