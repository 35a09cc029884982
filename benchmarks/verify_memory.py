"""How many states ``rulespec verify``'s store holds in how much memory: fill it, measure it.

The explorer keeps every distinct state in ``rulespec.verify.store.StateStore``: a 64-bit
fingerprint, the first parent and move, who moves, the winners, a behaviour digest, and the
outgoing edges (target, probability index). This fills one store with ``--states`` states of
``--edges`` edges each (random fingerprints, edges to random earlier states, as a search would
add them) and reports the bytes its arrays hold per state and the process's peak memory: the
figure behind "10 million states in 4 GiB". The states waiting on the search's queue (live
engines) are not in it; they depend on how wide the graph's levels are.

Run::

    python benchmarks/verify_memory.py                  # 10 million states, 4 edges each
    python benchmarks/verify_memory.py --states 100000  # a quick look
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from fractions import Fraction

from rulespec.verify.store import CHANCE_NODE, StateStore


def fill(states: int, edges: int, seed: int = 0) -> tuple[StateStore, float]:
    """Return a store of ``states`` states with ``edges`` edges each, and the seconds it took."""
    rng = random.Random(seed)
    store = StateStore()
    started = time.perf_counter()
    p = store.probability_id(Fraction(1, edges))
    bits = rng.getrandbits
    for i in range(states):
        fingerprint = bits(64)
        while store.find(fingerprint) >= 0:
            fingerprint = bits(64)
        store.add(fingerprint, i - 1, 0, CHANCE_NODE)
        store.digests.append(bits(64))
        for _ in range(edges):
            store.add_edge(rng.randrange(i + 1), p)
        store.close_expansion()
    return store, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=10_000_000)
    parser.add_argument("--edges", type=int, default=4, help="edges per state (default 4)")
    args = parser.parse_args(argv)
    store, seconds = fill(args.states, args.edges)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    used = store.bytes_used()
    print(f"{len(store):,} states, {len(store.targets):,} edges in {seconds:.0f} s: the store "
          f"holds {used / 2**30:.2f} GiB ({used / len(store):.1f} bytes per state); peak "
          f"process memory {peak / 2**30:.2f} GiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
