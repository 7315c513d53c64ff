"""numba.cuda twin of kernels/training/two_layer.py: one thread per run.

The per-run body (``drive``: the counter-based data stream, forward, hand-written backward, the
optimiser, evaluation and records) is the per-sample variant built by kernels/training/two_layer.py's
``_build(F, batched=False)``, compiled here as a device function; the CPU twin runs the batched (gemm)
variant of the same ``run_one`` on the same batches, so the two agree to rounding (both are tested
against the numpy reference).  Each thread keeps its run's
parameters, gradient, Adam moments and work rows in global memory as column q of (P, runs) arrays
(transposed by the launcher), so a warp's loads and stores of parameter p are coalesced.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..training.two_layer import _BODIES
from ._launch import launch_per_run

__all__ = ["launch_two_layer_cuda"]

_KERNELS: dict = {}


def _kernel(dtype: np.dtype):
    if dtype not in _KERNELS:
        drive = _BODIES[(dtype, False)][7]  # drive_columns: the per-run state as columns (coalesced)

        @cuda.jit
        def train(TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss, opt, lrs, wds,
                  schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target, stop,
                  record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT):  # pragma: no cover - compiled
            q = cuda.grid(1)
            if q < seeds.shape[0]:
                drive(q, TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss, opt, lrs,
                      wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target,
                      stop, record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT)

        _KERNELS[dtype] = train
    return _KERNELS[dtype]


def launch_two_layer_cuda(args: list, dtype: np.dtype) -> None:
    """Copy the arrays to the device, run one thread per run, copy every array back in place."""
    kernel = _kernel(np.dtype(dtype))
    runs = args[16].shape[0]
    # theta, gradient, Adam moments, the sample's index row and the work rows travel as (..., runs)
    launch_per_run(kernel, args, runs, columns=(0, 1, 2, 3, 4, 5))
