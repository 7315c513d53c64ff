"""numba.cuda twin of the per-block neuron sums of kernels/population_gradient.py.

One thread per high pattern h: it walks the 2^c low patterns, accumulating the block sum and the c
low-bit correlations directly (c multiply-adds per point; c = 8 by default), and writes them to
global memory.  The host reduces the per-block results in the same fixed order as the CPU twin.
The activation is evaluated by the same ``register_jitable`` body as on the CPU.
"""

from __future__ import annotations

import numpy as np
from numba import cuda

from ..activations import activation_value

__all__ = ["blocks_cuda"]

_TPB = 64


@cuda.jit
def _blocks_kernel(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr):  # pragma: no cover
    h = cuda.grid(1)
    if h >= dot_high.shape[0]:
        return
    dh = dot_high[h] + b
    ch = chi_high[h]
    total = 0.0
    for i in range(c):
        low_corr[h, i] = 0.0
    for l in range(dot_low.shape[0]):
        v = ch * chi_low[l] * activation_value(code, dh + dot_low[l], params)
        total += v
        for i in range(c):
            if (l >> i) & 1:
                low_corr[h, i] -= v
            else:
                low_corr[h, i] += v
    block_sums[h] = total


def blocks_cuda(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr) -> None:
    """Fill ``block_sums`` and ``low_corr`` (host arrays) on the GPU; same contract as the CPU kernel."""
    nblocks = dot_high.shape[0]
    d_sums = cuda.device_array(nblocks, dtype=np.float64)
    d_corr = cuda.device_array(low_corr.shape, dtype=np.float64)
    grid = (nblocks + _TPB - 1) // _TPB
    _blocks_kernel[grid, _TPB](
        cuda.to_device(dot_low), cuda.to_device(chi_low), cuda.to_device(dot_high), cuda.to_device(chi_high),
        float(b), int(code), cuda.to_device(params), int(c), d_sums, d_corr,
    )
    d_sums.copy_to_host(block_sums)
    d_corr.copy_to_host(low_corr)
