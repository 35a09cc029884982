"""rulespec: printed tabletop rulebooks as machine-checkable specifications.

One import package: ``rulespec.spec`` (the YAML specs, loader, validator and game registry),
``rulespec.reference`` (the engine core), ``rulespec.games`` (the built-in games),
``rulespec.conformance`` (the kit), the command line and the docs generator. This module
imports nothing, so the pytest plugin that lives beside it stays free for every pytest run.
"""
