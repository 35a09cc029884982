"""Ruling-impact lab: which ambiguities matter, measured with strategic players."""
