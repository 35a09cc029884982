"""Reference interpreters, one module per game (named by each spec's game.reference)."""
