"""Independent pieces of a check (seed blocks of a training sweep) and how they are run.

A check calls :meth:`verify.registry.Context.map` with a module-level function and a list of argument
tuples, typically one per block of runs from :func:`seed_blocks`; ``BLOCK_MAPPER`` says how the pieces
run: in the claim's own process (the default), or, inside a claim task of a dask.distributed cluster, as
tasks of their own (verify/cluster.py sets it).  The results come back in the order of the pieces.
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable, Sequence

import numpy as np

__all__ = ["BLOCK_MAPPER", "seed_blocks"]


def _serial_map(fn: Callable[..., Any], items: Sequence[tuple]) -> list:
    return [fn(*item) for item in items]


#: how :meth:`Context.map` runs its pieces: in this process unless an executor set another mapper
BLOCK_MAPPER: contextvars.ContextVar[Callable[[Callable[..., Any], Sequence[tuple]], list]] = \
    contextvars.ContextVar("BLOCK_MAPPER", default=_serial_map)


def seed_blocks(count: int, block: int) -> list[tuple[int, int]]:
    """The half-open ranges [start, stop) that split runs 0..count-1 into blocks of at most ``block``
    runs, in order (the pieces of :meth:`Context.map` for a sweep whose run r depends on r alone)."""
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 0:
        raise ValueError(f"argument 'count' must be an integer >= 0, not {count!r}")
    if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < 1:
        raise ValueError(f"argument 'block' must be an integer >= 1, not {block!r}")
    return [(a, min(a + int(block), int(count))) for a in range(0, int(count), int(block))]
