"""numba.cuda Walsh-Hadamard transform, in place, float64 and int64 (twin of kernels/_wht_cpu.py).

Schedule (the GPU analogue of the CPU's cache blocking, with shared memory as the cache):

* low kernel: one thread block per contiguous segment of 2^low_bits entries, all stages of those bits
  in shared memory (2^12 x 8 B = 32 KiB by default);
* high kernels: bits lo .. lo+G-1 through tiles of 2^G rows x ``cols`` consecutive columns in shared
  memory (rows at stride 2^lo; ``cols`` consecutive 8-byte words per row keep the loads coalesced in
  32-byte sectors).

With the defaults (low_bits = 12, group_bits = 9, cols = 8) a length-2^30 array takes three passes
through device memory.  Kernels are built per (dtype, shared size) and cached in memory.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import cuda

__all__ = ["cuda_pass_schedule", "wht_inplace_cuda"]

_KERNELS: dict = {}


def _numba_dtype(dtype):
    return numba.float64 if dtype == np.float64 else numba.int64


def _low_kernel(dtype, bits: int, tpb: int):
    key = ("low", np.dtype(dtype).str, bits, tpb)
    if key in _KERNELS:
        return _KERNELS[key]

    size = 1 << bits
    half = size >> 1
    nbtype = _numba_dtype(dtype)

    @cuda.jit
    def kernel(a):  # pragma: no cover - compiled
        sh = cuda.shared.array(shape=size, dtype=nbtype)
        base = cuda.blockIdx.x * size
        tid = cuda.threadIdx.x
        for e in range(tid, size, tpb):
            sh[e] = a[base + e]
        cuda.syncthreads()
        h = 1
        while h < size:
            for q in range(tid, half, tpb):
                i = (q // h) * 2 * h + q % h
                x = sh[i]
                y = sh[i + h]
                sh[i] = x + y
                sh[i + h] = x - y
            cuda.syncthreads()
            h *= 2
        for e in range(tid, size, tpb):
            a[base + e] = sh[e]

    _KERNELS[key] = kernel
    return kernel


def _high_kernel(dtype, bits: int, cols: int, tpb: int):
    key = ("high", np.dtype(dtype).str, bits, cols, tpb)
    if key in _KERNELS:
        return _KERNELS[key]

    rows = 1 << bits
    size = rows * cols
    nbfly = (rows >> 1) * cols
    nbtype = _numba_dtype(dtype)

    @cuda.jit
    def kernel(a, lo):  # pragma: no cover - compiled
        sh = cuda.shared.array(shape=size, dtype=nbtype)
        stride = 1 << lo
        tiles_per_super = stride // cols
        t = cuda.blockIdx.x
        base = (t // tiles_per_super) * (stride * rows) + (t % tiles_per_super) * cols
        tid = cuda.threadIdx.x
        for e in range(tid, size, tpb):
            sh[e] = a[base + (e // cols) * stride + e % cols]
        cuda.syncthreads()
        h = 1
        while h < rows:
            for q in range(tid, nbfly, tpb):
                c = q % cols
                p = q // cols
                r = (p // h) * 2 * h + p % h
                i = r * cols + c
                j = i + h * cols
                x = sh[i]
                y = sh[j]
                sh[i] = x + y
                sh[j] = x - y
            cuda.syncthreads()
            h *= 2
        for e in range(tid, size, tpb):
            a[base + (e // cols) * stride + e % cols] = sh[e]

    _KERNELS[key] = kernel
    return kernel


def cuda_pass_schedule(n: int, low_bits: int = 12, group_bits: int = 9) -> list[tuple[int, int]]:
    """The passes (lo, bits) the CUDA kernels run for length 2^n."""
    L = min(n, low_bits)
    passes = [(0, L)] if L else []
    lo = L
    rest = n - L
    if rest:
        npass = -(-rest // group_bits)
        base, extra = divmod(rest, npass)
        for p in range(npass):
            g = base + (1 if p < extra else 0)
            passes.append((lo, g))
            lo += g
    return passes


def wht_inplace_cuda(a, *, low_bits: int = 12, group_bits: int = 9, cols: int = 8, tpb: int = 256) -> None:
    """Transform ``a`` (host numpy array or numba device array, float64/int64, length 2^n) in place.

    ``low_bits``, ``group_bits``, ``cols`` and ``tpb`` set the tiling; the defaults suit a GPU, tests
    under the simulator pass small values.  ``cols`` must not exceed 2^low_bits.
    """
    host = isinstance(a, np.ndarray)
    d = cuda.to_device(a) if host else a
    dtype = np.dtype(d.dtype)
    n = int(d.shape[0]).bit_length() - 1
    for lo, bits in cuda_pass_schedule(n, low_bits, group_bits):
        if bits == 0:
            continue
        if lo == 0:
            threads = max(1, min(tpb, 1 << (bits - 1)))
            _low_kernel(dtype, bits, threads)[(1 << n) >> bits, threads](d)
        else:
            c = min(cols, 1 << lo)
            threads = max(1, min(tpb, (1 << (bits - 1)) * c))
            blocks = (1 << n) >> bits
            blocks //= c
            _high_kernel(dtype, bits, c, threads)[blocks, threads](d, lo)
    if host:
        d.copy_to_host(a)
    else:
        cuda.synchronize()
