"""Launching a one-thread-per-run kernel on host arrays (shared by the training twins)."""

from __future__ import annotations

import numpy as np
from numba import cuda

__all__ = ["launch_per_run"]


def launch_per_run(kernel, args: list, runs: int, threads_per_block: int = 64) -> None:
    """Copy the array arguments to the device, launch ceil(runs / tpb) blocks of tpb threads (thread r
    trains run r), and copy every array back into its host array in place."""
    dev = [cuda.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    kernel[(runs + threads_per_block - 1) // threads_per_block, threads_per_block](*dev)
    for host, d in zip(args, dev):
        if isinstance(host, np.ndarray):
            d.copy_to_host(host)
