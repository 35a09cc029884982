"""One cause, reported once: failures that share a cause are grouped.

A bug rarely shows once. The same refusal comes back in every rule example that reaches it, the
same differing field in every configuration and every golden trace that passes through it. Each
failure carries a **cause**: a short key saying what went wrong without saying where (the kind of
action refused and the engine's reason, the top-level fields that differ, the invariant broken,
the example family: examples citing the same clauses). Failures with the same cause form one
``Cause``: the text report prints it once, with the count and the list of where it happened,
and shows the most readable occurrence (the shortest game); the JSON report keeps every failure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulespec.conformance.judging.checks import Failure, Report

#: Longest engine or reference sentence kept in a cause key.
_KEY_TEXT = 120


def canonical(value: Any) -> str:
    """Return a canonical JSON text of ``value`` (a configuration's key)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def normalized(text: str) -> str:
    """Return ``text`` without what varies between occurrences of one cause (numbers, case)."""
    return re.sub(r"\d+", "#", " ".join(text.split()))[:_KEY_TEXT]


def refused_legal(action: Any, reason: str) -> str:
    """The cause of a legal action the engine refused (in play, a rule example or a trace)."""
    return f"refused a legal {_kind(action)}: {normalized(reason)}"


def accepted_illegal(action: Any) -> str:
    """The cause of an illegal action the engine accepted."""
    return f"accepted an illegal {_kind(action)}"


def refusal_changed_state(action: Any) -> str:
    """The cause of an illegal action the engine refused while changing its state."""
    return f"refusing an illegal {_kind(action)} changed the state"


def refused_config(engine_says: str) -> str:
    """The cause of a configuration the engine refused in ``start``."""
    return f"refused the configuration: {normalized(engine_says)}"


def state_differs(diff: Sequence[Mapping[str, Any]]) -> str:
    """The cause of a state that differs from the reference's: the top-level fields that differ."""
    fields = sorted({str(d.get("path", "")).split("/")[1] if "/" in str(d.get("path", ""))
                     else str(d.get("path", "")) for d in diff})
    return "state differs in " + ", ".join(f or "(top)" for f in fields)


def _kind(action: Any) -> str:
    kind = action.get("kind") if isinstance(action, Mapping) else None
    return f"'{kind}'" if isinstance(kind, str) else "action"


def kind_of(action: Any) -> str:
    """Name an action by its kind (``'deal'``), or say there was none (the start)."""
    return "the start" if action is None else _kind(action)


def kinds(actions: Iterable[Any]) -> str:
    """Name the kinds of ``actions``, each once, in order (``'roll', 'hold'``)."""
    names = list(dict.fromkeys(_kind(a) for a in actions))
    return ", ".join(names) if names else "none"


def signatures(failure: Failure) -> list[str]:
    """Return what identifies the cause of ``failure``, most telling first: the ruling that
    explains it, the kind of refusal or check, the first differing fields. Failures that share
    any signature are one cause."""
    out = []
    if failure.matches:
        out.append("the engine behaves like " + " or ".join(
            " with ".join(f"{a}={o}" for a, o in sorted(m.items())) for m in failure.matches))
    if failure.check == "INVARIANT":
        out.append(f"invariant {failure.subject}")
    if failure.cause:
        out.append(failure.cause)
    if failure.diff:
        out.append(state_differs(failure.diff))
    if not out:
        out.append(_plain(failure))
    return list(dict.fromkeys(out))


def cause_of(failure: Failure) -> str:
    """Return the most telling signature of ``failure`` (``signatures``)."""
    return signatures(failure)[0]


def _plain(failure: Failure) -> str:
    if failure.check == "EXAMPLE":
        return "example family " + ", ".join(sorted(failure.clauses))
    if failure.check == "PROTOCOL":
        return f"protocol {failure.subject}: {normalized(failure.message)}"
    if failure.check in ("DETERMINISM", "DIFF-RESULT"):
        return failure.check
    return f"{failure.check} {failure.subject or ''}: {normalized(_drop_subject(failure))}"


def _drop_subject(failure: Failure) -> str:
    """Return the message without the golden trace's name and step it may start with."""
    text = failure.message
    if failure.subject and text.startswith(failure.subject):
        text = text[len(failure.subject):]
    return re.sub(r"^ step \d+: ", "", text)


@dataclass
class Cause:
    """Failures that share one cause, in the order the report lists them."""

    key: str
    #: (where it happened, the failure), in report order.
    occurrences: list[tuple[str, Failure]] = field(default_factory=list)

    @property
    def shown(self) -> tuple[str, Failure]:
        """Return the occurrence shown in full: the shortest game (the first among equals)."""
        return min(self.occurrences, key=lambda o: len(o[1].actions))

    @property
    def checks(self) -> list[str]:
        """Return the checks that failed with this cause, without repeats."""
        return list(dict.fromkeys(f.check for _, f in self.occurrences))

    @property
    def failures(self) -> list[Failure]:
        """Return the failures of this cause."""
        return [f for _, f in self.occurrences]

    def rulings(self) -> list[Mapping[str, str]]:
        """Return the rulings that reproduce every occurrence whose inference ran.

        A ruling is named only when it reproduces the failure: an occurrence that the inference
        tried and found no ruling for leaves none in common, so nothing is named.
        """
        tried = [f for _, f in self.occurrences if f.inference is not None]
        if not tried:
            return []
        common: list[Mapping[str, str]] = [dict(m) for m in tried[0].matches]
        for failure in tried[1:]:
            mine = [dict(m) for m in failure.matches]
            common = [m for m in common if m in mine]
        return common


def where(failure: Failure, label: str) -> str:
    """Name where a failure happened: a rule example, a golden trace, or a configuration."""
    if failure.check == "EXAMPLE" and failure.subject:
        return f"rule example {failure.subject}"
    if failure.check == "GOLDEN" and failure.subject:
        return f"golden trace {failure.subject}"
    return label


def group(failures: Iterable[tuple[str, Failure]]) -> list[Cause]:
    """Group ``(where, failure)`` pairs by cause, in order of first appearance: two failures are
    one cause when they share a signature, directly or through others."""
    pairs = list(failures)
    parent = list(range(len(pairs)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, (_, failure) in enumerate(pairs):
        for key in signatures(failure):
            if key in owner:
                a, b = root(owner[key]), root(i)
                parent[max(a, b)] = min(a, b)
            else:
                owner[key] = i
    out: dict[int, Cause] = {}
    for i, (place, failure) in enumerate(pairs):
        r = root(i)
        if r not in out:
            out[r] = Cause(cause_of(pairs[r][1]))
        out[r].occurrences.append((place, failure))
    return list(out.values())


def report_causes(report: Report, label: Any) -> list[Cause]:
    """Group every failure of ``report``; ``label(config)`` names a configuration."""
    pairs: list[tuple[str, Failure]] = []
    if report.examples is not None:
        pairs += [(where(f, label(f.config)), f) for f in report.examples.failures]
    for run in report.runs:
        pairs += [(where(f, label(f.config or run.config)), f) for f in run.failures]
    pairs += [(where(f, label(f.config)), f) for _, f in report.golden if f is not None]
    return group(pairs)
