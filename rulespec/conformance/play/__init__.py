"""Play and check: the kit's driver and everything it plays an engine through.

``runner`` decides which games are played, ``playing`` plays one checked game side by side with
the reference, and the other modules are what a run is made of: the configurations and how hard
to look (``options``), coverage and steering toward what is not yet exercised (``coverage``,
``steering``), illegal-action probes (``probes``), golden-trace replay (``golden``, ``replay``),
perft (``perft_tables``, ``perft_check``), rule examples (``examples_check``), several engine
processes at once (``parallel``), progress on a terminal (``progress``), failure traces
(``tracefile``), the kit's throughput (``bench``) and the checks a game's own tests run on its
reference (``authoring``).

May use: ``explain``, ``judging`` and ``engine``. A new check is a verdict in ``judging`` plus
the code that reaches it here (a probe, a step of ``playing`` or a module of its own, called
from ``runner``).
"""
