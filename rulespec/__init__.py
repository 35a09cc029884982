"""The rulespec command line: a thin layer over specs, reference and conformance."""
