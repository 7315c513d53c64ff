"""Wall-clock timing shared by the benchmarks: best of several runs (the minimum is the least disturbed
by other load on a shared machine; ratios are always taken between timings of the same run)."""

from __future__ import annotations

import time
from collections.abc import Callable

__all__ = ["best_seconds"]


def best_seconds(fn: Callable, repeats: int, *, setup: Callable | None = None, warmup: bool = True) -> float:
    """Best wall time over ``repeats`` timed calls of fn() (or fn(setup()), setup untimed), after one
    untimed warm-up call when ``warmup`` (compilation, caches)."""
    def call_args():
        return () if setup is None else (setup(),)

    if warmup:
        fn(*call_args())
    best = float("inf")
    for _ in range(repeats):
        args = call_args()
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best
