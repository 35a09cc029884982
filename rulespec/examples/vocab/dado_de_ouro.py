"""The setup language of Dado de Ouro: rolls in order, or one face per seat."""

from __future__ import annotations

from collections.abc import Mapping

from rulespec.examples.position import Word
from rulespec.examples.vocab.dice import rolls, rounds, seats

WORDS: Mapping[str, Word] = {"rolls": rolls, "seats": seats, "rounds": rounds,
                             "opening": seats}
