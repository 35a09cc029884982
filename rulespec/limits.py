"""Size and depth limits on the files rulespec reads, checked before the expensive work.

They are guards against garbage and hostile input, not rules of any game: each is far above
what a real spec or trace needs (the largest spec of the first release is about 100 KB, 15
levels deep and 3,600 values; the longest golden trace line is about 5 KB, 7 levels deep).
``docs/reference/limits.md`` lists them; keep the two in step.
"""

from __future__ import annotations

#: Largest spec file accepted, in bytes (checked on the file size, before it is read).
MAX_SPEC_BYTES = 2 * 1024 * 1024
#: Deepest nesting of lists and mappings in a spec.
MAX_SPEC_DEPTH = 64
#: Most values (scalars, lists and mappings, each alias use counted again) in a spec.
MAX_SPEC_NODES = 50_000

#: Largest trace file accepted, in bytes (checked on the file size, before it is read).
MAX_TRACE_BYTES = 64 * 1024 * 1024
#: Longest trace line accepted, in bytes.
MAX_TRACE_LINE = 4 * 1024 * 1024
#: Deepest nesting of arrays and objects in one trace line.
MAX_TRACE_DEPTH = 64
#: Most digits of an integer in a trace (a 64-bit integer has at most 20).
MAX_INT_DIGITS = 24
#: Most steps in one trace (twice the longest game the golden-trace generator allows).
MAX_TRACE_STEPS = 200_000
