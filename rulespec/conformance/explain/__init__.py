"""Explanations: which reading of the rulebook an engine follows, and which record is to blame.

One failure's ruling explanation (``inference``), and ``conform --infer``'s ruling profile: the
spec's witnesses run on the engine (``witness_probes``), play where they leave a record open
(``profile_play``), steered games for what neither tells apart (``profile_steer``), and blame
for games no reading reproduces (``profile_blame``), put together by ``profile``.

May use: ``judging`` and ``engine`` (and ``rulespec.examples`` for the witnesses). ``play``
stands above it: a game that fails asks ``inference`` which reading it matches. A new kind of
explanation goes here, as a function of an engine, a spec and evidence; it never drives the
kit's own games.
"""
