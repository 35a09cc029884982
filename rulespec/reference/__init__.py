"""The reference interpreter: the engine core, the registry, traces, and one module per game."""
