"""Judging: the kit's checks, what one step of an engine is worth against the reference, and why.

The catalogue of checks with their permanent ids (``checks``), failures grouped by cause
(``causes``), the step verdicts as pure functions (``verdicts``, ``validation``), where an engine
first departs (``divergence``), what was asked and what may be sent (``scope``, ``levels``,
``budget``), and the spec release an engine declares (``versions``, ``change_evidence``).

May use: the ``engine`` stage and everything outside the kit that ``engine`` may. A new check's
id and sentence, and its pure verdict, go here; driving games to reach it is ``play``.
"""
