"""The compatibility corpus: artifacts earlier releases wrote, kept byte for byte, run today."""
