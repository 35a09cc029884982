"""The built-in games' YAML specs and the spec JSON Schema, installed as ``rulespec.data.specs``.

This folder holds data, not code: the file only lets setuptools map it into the one
``rulespec`` import package (editable installs need it to find the folder).
"""
