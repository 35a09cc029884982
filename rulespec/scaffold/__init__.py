"""``rulespec new-game NAME``: the skeleton of a game plugin, ready to validate, play and conform.

The templates (``templates/*.tmpl``, package data) are a small game of taking counters written
the way the docs' "Adding a game" asks: a spec with every required section, one clause per
sentence of a rules text shipped beside it, one ambiguity record with a decision point and a
witness per option, an engine importing only the public API, rule examples, tests using only the
public API, and a ``pyproject.toml`` declaring the entry point and shipping every file the
``GamePackage`` names. The command also writes the golden traces and perft tables, so the
generated tests pass as soon as the project is installed.
"""
