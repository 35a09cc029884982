"""Bridges to other game frameworks: OpenSpiel (extra ``openspiel``), PettingZoo (``pettingzoo``).

``rulespec.bridges.encoding`` and ``rulespec.bridges.common`` need nothing beyond rulespec;
``rulespec.bridges.openspiel`` imports pyspiel and ``rulespec.bridges.pettingzoo`` imports
pettingzoo and gymnasium, so import them only when those extras are installed.
"""
