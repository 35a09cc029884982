"""The language-neutral part of the kit, installed as ``rulespec.data.conformance``.

Engine-protocol message schemas (``schema/``), the built-in games' golden traces
(``traces/``) and independent engines in other languages (``engines/``). This folder holds
data, not code: the file only lets setuptools map it into the one ``rulespec`` import package.
"""
