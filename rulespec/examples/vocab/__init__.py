"""Setup-language vocabularies of the built-in games (one module per game)."""
