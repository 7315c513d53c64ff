"""Launching a one-thread-per-run kernel on host arrays (shared by the training twins).

Layout: a per-run state array given as (runs, ...) on the host can travel transposed, (..., runs) on
the device (``columns``), so that thread r's element p is at p * runs + r and a warp's 32 runs read 32
consecutive addresses (coalesced) instead of 32 addresses P elements apart.  The launcher transposes on
the way in and back, so callers see the same (runs, ...) arrays.

Launch shape: one thread per run in blocks of 32, 64 or 128 threads, the largest that still gives every
SM of the device at least two blocks (small run counts: 32-thread blocks, spread over the whole chip).
"""

from __future__ import annotations

import numpy as np
from numba import cuda

__all__ = ["launch_per_run", "threads_per_block"]


def _sm_count() -> int:
    try:
        return int(cuda.get_current_device().MULTIPROCESSOR_COUNT)
    except Exception:  # the simulator's device has no such attribute
        return 132


def threads_per_block(runs: int) -> int:
    """32, 64 or 128: the largest with ceil(runs / tpb) >= 2 x (number of SMs), else 32."""
    sms = _sm_count()
    for tpb in (128, 64):
        if runs >= 2 * sms * tpb:
            return tpb
    return 32


def launch_per_run(kernel, args: list, runs: int, threads_per_block_: int | None = None, columns=()) -> None:
    """Copy the array arguments to the device (those at the indices in ``columns`` transposed, run axis
    last), launch ceil(runs / tpb) blocks of tpb threads (thread r trains run r), and copy every array
    back into its host array in place."""
    tpb = threads_per_block_ or threads_per_block(runs)
    cols = set(columns)
    dev = []
    for i, a in enumerate(args):
        if not isinstance(a, np.ndarray):
            dev.append(a)
        elif i in cols:
            dev.append(cuda.to_device(np.ascontiguousarray(np.moveaxis(a, 0, -1))))
        else:
            dev.append(cuda.to_device(a))
    kernel[(runs + tpb - 1) // tpb, tpb](*dev)
    for i, (host, d) in enumerate(zip(args, dev)):
        if isinstance(host, np.ndarray):
            if i in cols:
                host[...] = np.moveaxis(d.copy_to_host(), -1, 0)
            else:
                d.copy_to_host(host)
