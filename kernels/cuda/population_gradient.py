"""numba.cuda twin of the per-block neuron sums of kernels/boolean/population_gradient.py.

One thread per high pattern h: it walks the 2^c low patterns, accumulating the block sum and the c
low-bit correlations in registers (c adds per point; c = 8 by default), and writes them to global
memory once.  The host reduces the per-block results in the same fixed order as the CPU twin.
The activation is evaluated by the same ``register_jitable`` body as on the CPU.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import cuda

from ..activations import activation_value

__all__ = ["blocks_cuda"]

_TPB = 64


_KERNELS: dict = {}


def _kernel(c: int):
    """The kernel for c low bits (a compile-time constant: the c accumulators are a fixed-size local array
    indexed by unrolled loops, which the compiler keeps in registers, not a global read-modify-write per
    point and bit)."""
    if c in _KERNELS:
        return _KERNELS[c]
    nacc = max(c, 1)

    @cuda.jit
    def blocks(dot_low, chi_low, dot_high, chi_high, b, code, params, block_sums, low_corr):  # pragma: no cover
        h = cuda.grid(1)
        if h >= dot_high.shape[0]:
            return
        acc = cuda.local.array(nacc, dtype=numba.float64)
        dh = dot_high[h] + b
        ch = chi_high[h]
        total = 0.0
        for i in range(c):
            acc[i] = 0.0
        for l in range(dot_low.shape[0]):
            v = ch * chi_low[l] * activation_value(code, dh + dot_low[l], params)
            total += v
            for i in range(c):
                if (l >> i) & 1:
                    acc[i] -= v
                else:
                    acc[i] += v
        for i in range(c):
            low_corr[h, i] = acc[i]
        block_sums[h] = total

    _KERNELS[c] = blocks
    return blocks


def blocks_cuda(dot_low, chi_low, dot_high, chi_high, b, code, params, c, block_sums, low_corr) -> None:
    """Fill ``block_sums`` and ``low_corr`` (host arrays) on the GPU; same contract as the CPU kernel."""
    c = int(c)
    if not 0 <= c <= 16:
        raise ValueError(f"argument 'c' must be an integer in [0, 16] (low bits per thread), not {c}")
    nblocks = dot_high.shape[0]
    d_sums = cuda.device_array(nblocks, dtype=np.float64)
    d_corr = cuda.device_array(low_corr.shape, dtype=np.float64)
    grid = (nblocks + _TPB - 1) // _TPB
    _kernel(c)[grid, _TPB](
        cuda.to_device(dot_low), cuda.to_device(chi_low), cuda.to_device(dot_high), cuda.to_device(chi_high),
        float(b), int(code), cuda.to_device(params), d_sums, d_corr,
    )
    d_sums.copy_to_host(block_sums)
    d_corr.copy_to_host(low_corr)
