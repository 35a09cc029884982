"""Engines for the kit's own tests: misbehaving protocol servers and known-bad rule engines."""
