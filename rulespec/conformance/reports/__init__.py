"""Reports: the kit's findings for people and for tools.

Text, JSON and JUnit XML (``report``), ruling profiles as a table and as JSON
(``profile_report``), and the kit as pytest items (``pytest_items``).

May use: ``play``, ``explain``, ``judging`` and ``engine``; nothing uses it but the matrix, the
command line and pytest. A new report format goes here, reading a finished
``judging.checks.Report``: it never plays a game itself.
"""
