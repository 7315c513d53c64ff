"""numba CPU kernels of the in-place Walsh-Hadamard transform (float64 and int64).

Cache-blocked two-level schedule (measured in benchmarks/fwht.py):

* low pass: each contiguous block of 2^LOW_BITS entries (fits L2) is transformed completely: the three
  lowest stages as an 8-point transform in registers, the rest as radix-4 butterflies on rows of 8
  consecutive entries (vectorised by LLVM);
* high passes: the remaining bits in groups of at most GROUP_BITS; a tile of 2^G rows x HIGH_COLS
  consecutive columns is gathered into a per-thread buffer, transformed there, and scattered back,
  so every pass streams the array through memory once.

Index arithmetic is done in uint64 on purpose: numba then drops its negative-index wraparound
branches, which is what lets LLVM vectorise the butterflies.  The bodies do no validation; callers
go through kernels.wht.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import prange
from numba import uint64 as u64

__all__ = ["LOW_BITS", "GROUP_BITS", "HIGH_COLS", "wht_inplace_cpu", "pass_schedule"]

LOW_BITS = 12
GROUP_BITS = 12
HIGH_COLS = 32
_SIGS_PAR = ["void(float64[::1], int64)", "void(int64[::1], int64)"]
_SIGS_HIGH = ["void(float64[::1], int64, int64, int64)", "void(int64[::1], int64, int64, int64)"]


def _make_row_stages(cols: int):
    """Butterfly stages over the row index of a block of R rows x ``cols`` columns (compile-time cols)."""

    @nb.njit(inline="always")
    def row_stages(a, base, R):  # pragma: no cover - compiled
        C = u64(cols)
        h = u64(1)
        while h < R:
            if u64(2) * h < R:
                for r0 in range(u64(0), R, u64(4) * h):
                    for r in range(r0, r0 + h):
                        p0 = base + r * C
                        p1 = p0 + h * C
                        p2 = p1 + h * C
                        p3 = p2 + h * C
                        for c in range(C):
                            x0 = a[p0 + c]
                            x1 = a[p1 + c]
                            x2 = a[p2 + c]
                            x3 = a[p3 + c]
                            s0 = x0 + x1
                            d0 = x0 - x1
                            s1 = x2 + x3
                            d1 = x2 - x3
                            a[p0 + c] = s0 + s1
                            a[p1 + c] = d0 + d1
                            a[p2 + c] = s0 - s1
                            a[p3 + c] = d0 - d1
                h *= u64(4)
            else:
                for r0 in range(u64(0), R, u64(2) * h):
                    for r in range(r0, r0 + h):
                        p0 = base + r * C
                        p1 = p0 + h * C
                        for c in range(C):
                            x0 = a[p0 + c]
                            x1 = a[p1 + c]
                            a[p0 + c] = x0 + x1
                            a[p1 + c] = x0 - x1
                h *= u64(2)

    return row_stages


_rows8 = _make_row_stages(8)
_rows_high = _make_row_stages(HIGH_COLS)


@nb.njit(inline="always")
def _wht8(a, p):  # pragma: no cover - compiled
    x0 = a[p]
    x1 = a[p + 1]
    x2 = a[p + 2]
    x3 = a[p + 3]
    x4 = a[p + 4]
    x5 = a[p + 5]
    x6 = a[p + 6]
    x7 = a[p + 7]
    a0 = x0 + x1
    a1 = x0 - x1
    a2 = x2 + x3
    a3 = x2 - x3
    a4 = x4 + x5
    a5 = x4 - x5
    a6 = x6 + x7
    a7 = x6 - x7
    b0 = a0 + a2
    b1 = a1 + a3
    b2 = a0 - a2
    b3 = a1 - a3
    b4 = a4 + a6
    b5 = a5 + a7
    b6 = a4 - a6
    b7 = a5 - a7
    a[p] = b0 + b4
    a[p + 1] = b1 + b5
    a[p + 2] = b2 + b6
    a[p + 3] = b3 + b7
    a[p + 4] = b0 - b4
    a[p + 5] = b1 - b5
    a[p + 6] = b2 - b6
    a[p + 7] = b3 - b7


@nb.njit(["void(float64[::1])", "void(int64[::1])"], cache=True)
def _wht_small(a):  # pragma: no cover - compiled
    """Plain radix-2 transform for lengths below 8."""
    size = a.shape[0]
    h = 1
    while h < size:
        for i0 in range(0, size, 2 * h):
            for j in range(i0, i0 + h):
                x = a[j]
                y = a[j + h]
                a[j] = x + y
                a[j + h] = x - y
        h *= 2


@nb.njit(inline="always")
def _low_block(a, base, size):  # pragma: no cover - compiled
    """All stages of the contiguous block a[base : base + size] (size = 2^L, L >= 3)."""
    for p in range(base, base + size, u64(8)):
        _wht8(a, p)
    _rows8(a, base, size >> u64(3))


@nb.njit(_SIGS_PAR, parallel=True, cache=True)
def _low_pass(a, L):  # pragma: no cover - compiled
    """Transform every contiguous block of 2^L entries completely (bits 0 .. L-1), L >= 3, in parallel."""
    size = u64(1) << u64(L)
    nblk = u64(a.shape[0]) >> u64(L)
    for b in prange(nblk):
        _low_block(a, u64(b) * size, size)


@nb.njit(["void(float64[::1])", "void(int64[::1])"], cache=True)
def _single_block(a):  # pragma: no cover - compiled
    """The whole array as one block (lengths 8 .. 2^LOW_BITS): serial, no thread start-up cost."""
    _low_block(a, u64(0), u64(a.shape[0]))


@nb.njit(_SIGS_HIGH, parallel=True, cache=True)
def _high_pass(a, lo, G, nthreads):  # pragma: no cover - compiled
    """Butterfly stages for bits lo .. lo+G-1 through per-thread tiles of 2^G x HIGH_COLS entries."""
    C = u64(HIGH_COLS)
    stride = u64(1) << u64(lo)
    rows = u64(1) << u64(G)
    span = stride * rows
    nsuper = u64(a.shape[0]) // span
    tiles_per_super = stride // C
    ntiles = nsuper * tiles_per_super
    for tid in prange(nthreads):
        buf = np.empty(rows * C, dtype=a.dtype)
        for t in range(u64(tid), ntiles, u64(nthreads)):
            base = (t // tiles_per_super) * span + (t % tiles_per_super) * C
            for r in range(rows):
                src = base + r * stride
                q = r * C
                for c in range(C):
                    buf[q + c] = a[src + c]
            _rows_high(buf, u64(0), rows)
            for r in range(rows):
                dst = base + r * stride
                q = r * C
                for c in range(C):
                    a[dst + c] = buf[q + c]


def pass_schedule(n: int, low_bits: int = LOW_BITS, group_bits: int = GROUP_BITS) -> list[tuple[int, int]]:
    """The passes (lo, bits) the CPU kernel runs for length 2^n: one low pass, then balanced groups."""
    if n < 3:
        return [(0, n)]
    L = min(n, max(low_bits, 3))
    passes = [(0, L)]
    rest = n - L
    if rest:
        npass = -(-rest // group_bits)
        base, extra = divmod(rest, npass)
        lo = L
        for p in range(npass):
            g = base + (1 if p < extra else 0)
            passes.append((lo, g))
            lo += g
    return passes


def wht_inplace_cpu(a: np.ndarray) -> None:
    """Transform a C-contiguous float64/int64 array of length 2^n in place (no validation here)."""
    n = a.shape[0].bit_length() - 1
    if n < 3:
        _wht_small(a)
        return
    if n <= LOW_BITS:
        _single_block(a)
        return
    nthreads = nb.get_num_threads()
    for lo, bits in pass_schedule(n):
        if lo == 0:
            _low_pass(a, bits)
        else:
            _high_pass(a, lo, bits, nthreads)


@nb.njit(inline="always")
def _min_max_range(a, start, stop):  # pragma: no cover - compiled
    mn = a[start]
    mx = a[start]
    for i in range(start, stop):
        v = a[i]
        mn = v if v < mn else mn
        mx = v if v > mx else mx
    return mn, mx


@nb.njit("UniTuple(int64, 2)(int64[::1])", parallel=True, cache=True)
def _min_max_parallel(a):  # pragma: no cover - compiled
    size = u64(a.shape[0])
    nchunks = u64(64)
    step = (size + nchunks - u64(1)) // nchunks
    lo = np.empty(nchunks, dtype=np.int64)
    hi = np.empty(nchunks, dtype=np.int64)
    for q in prange(nchunks):
        start = u64(q) * step
        lo[q], hi[q] = _min_max_range(a, start, min(size, start + step))
    return lo.min(), hi.max()


@nb.njit("UniTuple(int64, 2)(int64[::1])", cache=True)
def _min_max_serial(a):  # pragma: no cover - compiled
    return _min_max_range(a, u64(0), u64(a.shape[0]))


def int64_min_max(a: np.ndarray) -> tuple[int, int]:
    """(min(a), max(a)) of a non-empty C-contiguous int64 array (parallel above 2^18 entries)."""
    return _min_max_parallel(a) if a.shape[0] >= 64 * 4096 else _min_max_serial(a)
