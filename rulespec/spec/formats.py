"""Spec format versions, and the validator rules each one brought.

A spec says which format it was written for (its top-level ``format``). A validator rule that a
later format introduced is an error for specs of that format or newer; for an older spec it is a
warning, naming the fix and the rulespec release that will refuse it, until that release comes.
So a spec (or a plugin game) written against an earlier release keeps validating, with
warnings, for at least one release (``docs/about/compatibility.md``).

``rulespec upgrade SPEC`` rewrites an older spec to the current format where the change is
mechanical and marks with a TODO what a person must decide.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespec.data import installed_version
from rulespec.spec.errors import RemovedIn04Warning, RemovedIn05Warning, RulespecDeprecationWarning

#: Every format a spec may declare, oldest first.
FORMATS = ("rulespec/1", "rulespec/2")
#: The format the rules below that no declarable format has yet will belong to: a spec of any
#: format declared today gets them as warnings until their release refuses them.
NEXT_FORMAT = "rulespec/3"
#: The format ``rulespec upgrade`` writes and new specs should declare.
CURRENT_FORMAT = FORMATS[-1]


@dataclass(frozen=True)
class FormatRule:
    """A validator rule that arrived after the first format."""

    #: Its stable name (``RECORD_EFFECT``).
    name: str
    #: The first format under which breaking it is an error.
    format: str
    #: The rulespec release that introduced the rule.
    introduced: str
    #: The rulespec release from which specs of older formats are refused too.
    refused_from: str
    #: What the rule asks, in one line.
    summary: str
    #: What to do, in one line.
    fix: str
    #: The warning older specs get until ``refused_from``.
    warning: type[RulespecDeprecationWarning]


#: Every rule a format after the first brought, by name.
RULES: dict[str, FormatRule] = {rule.name: rule for rule in (
    FormatRule("RECORD_EFFECT", "rulespec/2", "0.2.0", "0.4.0",
               "every ambiguity record says its effect (order, outcome or cosmetic)",
               "add `effect:` to each record, or run `rulespec upgrade SPEC`, which adds "
               "`effect: outcome` marked TODO for you to confirm",
               RemovedIn04Warning),
    FormatRule("RECORD_READ", "rulespec/2", "0.2.0", "0.4.0",
               "every record that is not rejected or a duplicate is named in the `readings` of "
               "an element whose behaviour its ruling decides",
               "add the record's id to the `readings` of those actions, structure steps, "
               "parameters, state conventions or invariants, or run `rulespec upgrade SPEC`, "
               "which adds it where an element cites one of the record's clauses, marked TODO",
               RemovedIn04Warning),
    FormatRule("OBSERVATION_PROVENANCE", NEXT_FORMAT, "0.4.0", "0.5.0",
               "every part of the observation model (each state.hidden and state.public entry) "
               "says why: a quote of one of its clauses that says who sees it, or the records "
               "that decide it",
               "add `quote:` (the words of a cited clause's quote that say who sees the part) "
               "or `readings:` (the records whose ruling decides it) to each entry; where the "
               "rulebook does not say it, record the question (docs/editors/register-policy.md)",
               RemovedIn05Warning),
)}


def current_release() -> str:
    """Return the rulespec release running (the deprecations are measured against it)."""
    return installed_version("0")


def format_index(declared: object) -> int:
    """Return the position of a declared format in FORMATS (an unknown one counts as current:
    the schema reports it)."""
    return FORMATS.index(declared) if declared in FORMATS else len(FORMATS) - 1


def _release(text: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in text.split("."):
        digits = "".join(c for c in piece if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def is_error(rule: FormatRule, declared: object, rulespec_version: str) -> bool:
    """Return whether breaking ``rule`` is an error for a spec declaring ``declared``, under
    rulespec ``rulespec_version`` (a warning otherwise)."""
    if rule.format in FORMATS and format_index(declared) >= FORMATS.index(rule.format):
        return True
    return _release(rulespec_version) >= _release(rule.refused_from)


def deprecation_note(rule: FormatRule, declared: object) -> str:
    """Return the sentence an older spec's warning ends with."""
    coming = "" if rule.format in FORMATS else "the coming "
    return (f" [{rule.name}: a rule of {coming}format {rule.format} (rulespec {rule.introduced}); this "
            f"spec declares format {declared}, so it is a warning until rulespec "
            f"{rule.refused_from}, which will refuse it. Fix: {rule.fix}]")
