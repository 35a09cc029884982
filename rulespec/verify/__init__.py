"""Explicit-state verification of small configurations: every reachable state explored, every
invariant checked in every state, exact outcome probabilities (``rulespec verify``)."""

from __future__ import annotations
