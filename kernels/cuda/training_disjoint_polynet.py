"""numba.cuda twin of kernels/training/disjoint_polynet.py: one thread per run.

The whole per-run body (``_drive``: the counter-based batch stream, forward, hand-written backward,
the learning-rate rule and the diagnostics) is the ``register_jitable`` function of the CPU kernel,
compiled here as a device function, so the CPU and CUDA twins run the same code on the same batches.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..training.disjoint_polynet import _drive

__all__ = ["launch_cuda"]

_TPB = 64


@cuda.jit
def _sgd_cuda(W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
              rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc,
              max_ratio):  # pragma: no cover - compiled
    r = cuda.grid(1)
    if r < seeds.shape[0]:
        _drive(r, W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
               rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc, max_ratio)


def launch_cuda(args: list) -> None:
    """Copy the arrays to the device, run one thread per run, copy every array back in place."""
    runs = args[6].shape[0]
    dev = [cuda.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
    _sgd_cuda[(runs + _TPB - 1) // _TPB, _TPB](*dev)
    for host, d in zip(args, dev):
        if isinstance(host, np.ndarray):
            d.copy_to_host(host)
