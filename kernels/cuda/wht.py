"""numba.cuda Walsh-Hadamard transform, in place, float64 and int64 (twin of kernels/boolean/_wht_cpu.py).

Two schedules, chosen by ``method``:

* ``"fused"`` (the default): kernels/cuda/wht_fused.py, two passes through device memory up to n = 30
  (tiles in shared memory plus a radix-16 step that reads the L2 cache; see that module);
* ``"tiles"``: the schedule below, three passes for n = 30 (kept as the comparison in benchmarks.gpu_check
  and as a second CUDA implementation that the tests compare with the reference too).

All index arithmetic is shifts and masks of power-of-two sizes (the launcher checks them): a 64-bit
division or remainder by a run-time value is emulated on the GPU (dozens of instructions each).

Tiled schedule (the GPU analogue of the CPU's cache blocking, with shared memory as the cache):

* low kernel: one thread block per contiguous segment of 2^low_bits entries, all stages of those bits
  in shared memory (2^12 x 8 B = 32 KiB by default);
* high kernels: bits lo .. lo+G-1 through tiles of 2^G rows x ``cols`` consecutive columns in shared
  memory (rows at stride 2^lo; ``cols`` consecutive 8-byte words per row keep the loads coalesced in
  32-byte sectors).

With the defaults (low_bits = 12, group_bits = 9, cols = 8) a length-2^30 array takes three passes
through device memory, so at best about 3x a device copy (measured on an H100: 6.0x, benchmarks/
gpu_results.json).  Kernels are built per (dtype, shared size) and cached in memory.
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
        base = cuda.blockIdx.x << bits  # index math by shifts and masks only (no 64-bit division on the GPU)
        tid = cuda.threadIdx.x
        for e in range(tid, size, tpb):
            sh[e] = a[base + e]
        cuda.syncthreads()
        lh = 0
        while lh < bits:
            h = 1 << lh
            for q in range(tid, half, tpb):
                i = ((q >> lh) << (lh + 1)) | (q & (h - 1))
                x = sh[i]
                y = sh[i + h]
                sh[i] = x + y
                sh[i + h] = x - y
            cuda.syncthreads()
            lh += 1
        for e in range(tid, size, tpb):
            a[base + e] = sh[e]

    _KERNELS[key] = kernel
    return kernel


def _high_kernel(dtype, bits: int, cols: int, tpb: int):
    key = ("high", np.dtype(dtype).str, bits, cols, tpb)
    if key in _KERNELS:
        return _KERNELS[key]

    rows = 1 << bits
    lc = cols.bit_length() - 1  # cols = 2^lc (checked by the launcher)
    cmask = cols - 1
    size = rows * cols
    nbfly = (rows >> 1) * cols
    nbtype = _numba_dtype(dtype)

    @cuda.jit
    def kernel(a, lo):  # pragma: no cover - compiled
        sh = cuda.shared.array(shape=size, dtype=nbtype)
        # tile t: super-block t >> (lo - lc) (2^(lo + bits) entries), columns (t mod 2^(lo - lc)) << lc
        t = cuda.blockIdx.x
        tmask = (1 << (lo - lc)) - 1
        base = ((t >> (lo - lc)) << (lo + bits)) | ((t & tmask) << lc)
        tid = cuda.threadIdx.x
        for e in range(tid, size, tpb):
            sh[e] = a[base + ((e >> lc) << lo) + (e & cmask)]
        cuda.syncthreads()
        lh = 0
        while lh < bits:
            h = 1 << lh
            for q in range(tid, nbfly, tpb):
                p = q >> lc
                r = ((p >> lh) << (lh + 1)) | (p & (h - 1))
                i = (r << lc) | (q & cmask)
                j = i + (h << lc)
                x = sh[i]
                y = sh[j]
                sh[i] = x + y
                sh[j] = x - y
            cuda.syncthreads()
            lh += 1
        for e in range(tid, size, tpb):
            a[base + ((e >> lc) << lo) + (e & cmask)] = sh[e]

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


#: a tile holds at most 2^12 entries (32 KiB of 8-byte words): static shared memory must stay within the
#: 48 KiB a block gets without the dynamic-shared-memory opt-in
MAX_TILE_BITS = 12


def _check_tiling(low_bits, group_bits, cols, tpb) -> None:
    for name, v, lo, hi in (("low_bits", low_bits, 1, MAX_TILE_BITS), ("group_bits", group_bits, 1, MAX_TILE_BITS),
                            ("tpb", tpb, 1, 1024), ("cols", cols, 1, 1 << MAX_TILE_BITS)):
        if not isinstance(v, (int, np.integer)) or isinstance(v, bool) or not lo <= v <= hi:
            raise ValueError(f"argument '{name}' must be an integer in [{lo}, {hi}], not {v!r}")
    for name, v in (("cols", cols), ("tpb", tpb)):
        if v & (v - 1):
            raise ValueError(f"argument '{name}' must be a power of 2 in [1, {1 << MAX_TILE_BITS if name == 'cols' else 1024}], "
                             f"not {v}")
    if cols > (1 << low_bits):
        raise ValueError(f"argument 'cols' = {cols} must be at most 2^low_bits = {1 << low_bits}")
    if group_bits + cols.bit_length() - 1 > MAX_TILE_BITS:
        raise ValueError(f"argument 'group_bits' = {group_bits} with cols = {cols}: a tile of 2^group_bits x cols entries "
                         f"must have at most 2^{MAX_TILE_BITS} (48 KiB static shared memory), so group_bits must be in "
                         f"[1, {MAX_TILE_BITS - (cols.bit_length() - 1)}]")


def wht_inplace_cuda(a, *, method: str = "fused", low_bits: int = 12, group_bits: int = 9, cols: int = 8,
                     tpb: int = 256, tile_bits: int = 12, radix_bits: int = 4, blocks_per_sm: int = 8,
                     info: dict | None = None) -> None:
    """Transform ``a`` (host numpy array or numba device array, float64/int64, length 2^n) in place.

    ``method``: "fused" (two passes up to n = 30; ``tile_bits``, ``radix_bits``, ``blocks_per_sm`` and
    ``tpb`` set its shape, see kernels.cuda.wht_fused.wht_inplace_cuda_fused) or "tiles" (``low_bits``,
    ``group_bits``, ``cols`` and ``tpb`` set the tiling).  The defaults suit a GPU; tests under the
    simulator pass small values.  ``low_bits``, ``group_bits`` in [1, 12]; ``cols`` and ``tpb`` powers of
    2, ``cols`` <= 2^low_bits and 2^group_bits * cols <= 2^12 (tiles within 48 KiB of static shared
    memory); ValueError otherwise (all arguments are checked whichever method runs).  ``info``: a dict
    that receives the fused method's passes and launch shapes.
    """
    if method not in ("fused", "tiles"):
        raise ValueError(f"argument 'method' must be 'fused' or 'tiles', not {method!r}")
    _check_tiling(low_bits, group_bits, cols, tpb)
    from .wht_fused import check_fused_args

    check_fused_args(tile_bits, radix_bits, tpb, blocks_per_sm)
    host = isinstance(a, np.ndarray)
    if host and (a.ndim != 1 or a.dtype not in (np.float64, np.int64) or not a.flags.c_contiguous):
        raise ValueError(f"argument 'a' must be a C-contiguous 1-D float64 or int64 array, not {a.dtype} {a.shape}")
    length = int(a.shape[0])
    if length < 1 or length & (length - 1):
        raise ValueError(f"argument 'a' must have a power-of-2 length, not {length}")
    d = cuda.to_device(a) if host else a
    dtype = np.dtype(d.dtype)
    n = length.bit_length() - 1
    if method == "fused":
        from .wht_fused import wht_inplace_cuda_fused

        wht_inplace_cuda_fused(d, tile_bits=tile_bits, radix_bits=radix_bits, tpb=tpb, blocks_per_sm=blocks_per_sm,
                               info=info)
        if host:
            d.copy_to_host(a)
        return
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
