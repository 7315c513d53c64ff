"""numba.cuda twin of kernels/training/two_layer.py: one thread per run.

The per-run body (``drive``: the counter-based data stream, forward, hand-written backward, the
optimiser, evaluation and records) is the per-sample variant built by kernels/training/two_layer.py's
``_build(F, batched=False)``, compiled here as a device function; the CPU twin runs the batched (gemm)
variant of the same ``run_one`` on the same batches, so the two agree to rounding (both are tested
against the numpy reference).  Each thread keeps its run's
parameters, gradient, Adam moments and work rows in global memory as column q of (P, runs) arrays
(transposed by the launcher), so a warp's loads and stores of parameter p are coalesced.

Variants (``VARIANT``, or the ``variant`` argument of :func:`launch_two_layer_cuda`): "thread" (this kernel,
the default), "block" (kernels/cuda/training_two_layer_block.py: one 32-thread block per run, threads
over the hidden units, at most 64 registers per thread; n <= 64 and an activation only, otherwise the
thread kernel runs) and "block_nocap" (the same without the register cap).  ``LAST`` holds
the variant that ran and the seconds of the last launch: copies to the device, the kernel alone on
device-resident state, copies back (CUDA events).
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..training._two_layer_body import _BODIES
from ._launch import launch_per_run

__all__ = ["LAST", "VARIANT", "VARIANTS", "launch_two_layer_cuda"]

_KERNELS: dict = {}
VARIANTS = ("thread", "block", "block_nocap")
#: the kernel used by train_two_layer(backend="cuda").  "block" (one 32-thread block per run, 64-register
#: cap) was confirmed on an H100 (benchmarks/gpu_runs/2026-11-26-h100-run2.json): 10^4 runs of the (30, 3)
#: parity workload at 6.5x (float32) and 6.4x (float64) the 16-core CPU engine end to end, every run within
#: the argued tolerance and every discrete outcome equal; "thread" (one thread per run) reached 1.15x.
VARIANT = "block"
#: {"variant", "h2d_s", "kernel_s", "d2h_s", "blocks", "threads_per_block"} of the last launch
LAST: dict = {}


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


def launch_two_layer_cuda(args: list, dtype: np.dtype, variant: str | None = None) -> None:
    """Copy the arrays to the device, run the kernel of ``variant`` (default :data:`VARIANT`), copy every
    array back in place; the variant that ran and the timings go to :data:`LAST`."""
    variant = VARIANT if variant is None else variant
    if variant not in VARIANTS:
        raise ValueError(f"two-layer CUDA variant must be one of {VARIANTS}, not {variant!r}")
    runs = args[16].shape[0]
    timing: dict = {}
    if variant in ("block", "block_nocap"):
        from .training_two_layer_block import MAX_REGISTERS, THREADS, block_kernel, block_supported

        if block_supported(int(args[11]), int(args[13])):
            a = list(args)
            a[4] = np.zeros((1, 1), np.int64)  # the sample index rows: unused by the block kernel
            kernel = block_kernel(np.dtype(dtype), MAX_REGISTERS if variant == "block" else None)
            launch_per_run(kernel, a, runs, grid=(runs, THREADS), timing=timing)
            LAST.clear()
            LAST.update(timing, variant=variant)
            return
        variant = "thread"
    kernel = _kernel(np.dtype(dtype))
    # theta, gradient, Adam moments, the sample's index row and the work rows travel as (..., runs)
    launch_per_run(kernel, args, runs, columns=(0, 1, 2, 3, 4, 5), timing=timing)
    LAST.clear()
    LAST.update(timing, variant=variant)
