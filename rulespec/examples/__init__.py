"""Rule examples: the YAML format beside each spec, the driver that plays them, and the runner."""
