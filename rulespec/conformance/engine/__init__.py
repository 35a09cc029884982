"""The engine side: how the kit talks to an engine, whatever language it is written in.

The engine protocol's messages (``protocol``), the engine processes the kit starts and always
ends (``processes``), and the adapters that put an engine behind one interface, in this process
or over the protocol (``adapters``). ``rulespec.conformance.server`` serves an engine the other
way round.

May use: ``rulespec.reference``, ``rulespec.spec``, ``rulespec.data`` and the floors below them;
no other stage of the kit (it is the lowest). A new transport, or a new protocol method, goes
here; what the kit *concludes* from an answer does not (that is ``judging``).
"""
