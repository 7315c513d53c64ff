"""numba.cuda twin of kernels/training/disjoint_polynet.py: one thread per run.

The whole per-run body (``_drive``: the counter-based batch stream, forward, hand-written backward,
the learning-rate rule and the diagnostics) is the ``register_jitable`` function of the CPU kernel,
compiled here as a device function, so the CPU and CUDA twins run the same code on the same batches.
"""

from __future__ import annotations

from numba import cuda

from ..training.disjoint_polynet import _drive
from ._launch import launch_per_run

__all__ = ["launch_cuda"]


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
    launch_per_run(_sgd_cuda, args, runs)  # blocks of 32-128 threads, sized to spread over every SM
