"""numba CPU kernels of the in-place Walsh-Hadamard transform (float64 and int64).

The transform is the n radix-2 stages of kernels.reference.wht_butterflies (stage j adds and subtracts
the entries whose indices differ in bit j), applied in the same order to every entry, so the result is
bit-identical to the reference: the schedule below only regroups the same butterflies.

Schedule (measured in benchmarks/fwht.py):

* radix-8 sweeps: three consecutive stages (bits k, k+1, k+2) are done at once on 8 entries at stride
  2^k, held in registers (one load and one store per entry for three stages); the loop over the 2^k
  consecutive columns of a group is what LLVM vectorises (AVX2 on x86).  Radix-4 and radix-2 sweeps
  do the one or two stages left over when 3 does not divide the number of stages;
* leaves: the array is cut into leaves of 2^L entries (L = 11..13, chosen so that 3 divides n - L;
  a leaf fits L1/L2), each transformed completely (bits 0 .. L-1) by radix-8 sweeps whose stride is a
  compile-time constant (h = 1, 8, 64, 512: LLVM then unrolls the short column loops);
* levels: above the leaves, every block of 2^(k+3) entries gets its radix-8 sweep over bits k..k+2 as
  soon as its 8 sub-blocks are complete (depth first, as in FFHT's recursion): blocks up to the cache
  size are swept while still cached, so only the last one or two levels stream the array from memory;
* threads: with more than one numba thread, contiguous chunks of the array go depth first to the
  threads in parallel, and the levels above the chunk size are swept in parallel over column ranges.

Index arithmetic is done in uint64 on purpose: numba then drops its negative-index wraparound
branches, which is what lets LLVM vectorise the butterflies.  The bodies do no validation; callers
go through kernels.wht.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numba import prange
from numba import uint64 as u64

__all__ = ["leaf_bits", "wht_inplace_cpu", "int64_min_max"]

_COLS = 4096  # columns per parallel work item in the top levels
_MIN_PARALLEL = 1 << 16  # shorter arrays: one thread (thread start-up costs more than it saves)


@nb.njit(inline="always")
def _bf2(a, c, h):  # pragma: no cover - compiled
    """Stage log2(h) on entries c, c+h."""
    x0 = a[c]
    x1 = a[c + h]
    a[c] = x0 + x1
    a[c + h] = x0 - x1


@nb.njit(inline="always")
def _bf4(a, c, h):  # pragma: no cover - compiled
    """Stages log2(h), log2(h)+1 on entries c + i h, i = 0..3."""
    x0 = a[c]
    x1 = a[c + h]
    x2 = a[c + u64(2) * h]
    x3 = a[c + u64(3) * h]
    s0 = x0 + x1
    d0 = x0 - x1
    s1 = x2 + x3
    d1 = x2 - x3
    a[c] = s0 + s1
    a[c + h] = d0 + d1
    a[c + u64(2) * h] = s0 - s1
    a[c + u64(3) * h] = d0 - d1


@nb.njit(inline="always")
def _bf8(a, c, h):  # pragma: no cover - compiled
    """Stages log2(h) .. log2(h)+2 on entries c + i h, i = 0..7."""
    x0 = a[c]
    x1 = a[c + h]
    x2 = a[c + u64(2) * h]
    x3 = a[c + u64(3) * h]
    x4 = a[c + u64(4) * h]
    x5 = a[c + u64(5) * h]
    x6 = a[c + u64(6) * h]
    x7 = a[c + u64(7) * h]
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
    a[c] = b0 + b4
    a[c + h] = b1 + b5
    a[c + u64(2) * h] = b2 + b6
    a[c + u64(3) * h] = b3 + b7
    a[c + u64(4) * h] = b0 - b4
    a[c + u64(5) * h] = b1 - b5
    a[c + u64(6) * h] = b2 - b6
    a[c + u64(7) * h] = b3 - b7


def _make_sweep(bf, r: int, const_h: int | None = None):
    """Sweep ``bf`` (radix 2^r) over [base, base + size): every group of h 2^r entries, all h columns.

    With ``const_h`` the stride is a compile-time constant (the h argument is ignored)."""
    R = u64(r)

    @nb.njit
    def sweep(a, base, size, h):  # pragma: no cover - compiled
        hh = u64(const_h) if const_h is not None else h
        for g in range(base, base + size, hh << R):
            for c in range(g, g + hh):
                bf(a, c, hh)

    return sweep


_sweep2 = _make_sweep(_bf2, 1)
_sweep4 = _make_sweep(_bf4, 2)
_sweep8 = _make_sweep(_bf8, 3)
_sweep8_h1 = _make_sweep(_bf8, 3, 1)
_sweep8_h8 = _make_sweep(_bf8, 3, 8)
_sweep8_h64 = _make_sweep(_bf8, 3, 64)
_sweep8_h512 = _make_sweep(_bf8, 3, 512)


@nb.njit
def _sweep(a, base, size, k, r):  # pragma: no cover - compiled
    """Stages k .. k+r-1 (r = 1, 2, 3) of every block of 2^(k+r) entries in [base, base + size)."""
    h = u64(1) << k
    if r == u64(3):
        if k == u64(0):
            _sweep8_h1(a, base, size, h)
        elif k == u64(3):
            _sweep8_h8(a, base, size, h)
        elif k == u64(6):
            _sweep8_h64(a, base, size, h)
        elif k == u64(9):
            _sweep8_h512(a, base, size, h)
        else:
            _sweep8(a, base, size, h)
    elif r == u64(2):
        _sweep4(a, base, size, h)
    else:
        _sweep2(a, base, size, h)


@nb.njit
def _leaf(a, base, L):  # pragma: no cover - compiled
    """All stages (bits 0 .. L-1) of the block a[base : base + 2^L]: radix-8 sweeps, then the rest."""
    size = u64(1) << L
    k = u64(0)
    while k + u64(3) <= L:
        _sweep(a, base, size, k, u64(3))
        k += u64(3)
    if k < L:
        _sweep(a, base, size, k, L - k)


@nb.njit
def _leaf_bits(n):  # pragma: no cover - compiled
    """Leaf size L for length 2^n (n >= 3): n up to 12, else 11..13 with 3 | n - L."""
    if n <= 12:
        return u64(n)
    m = (n - 12) % 3
    return u64(12) if m == 0 else (u64(13) if m == 1 else u64(11))


@nb.njit
def _depth_first(a, base, nleaf, L, nlev):  # pragma: no cover - compiled
    """The nleaf leaves of 2^L entries from ``base``, and the first nlev radix-8 levels above them.

    After each leaf, every level whose block has just been completed gets its sweep."""
    for t in range(nleaf):
        _leaf(a, base + (t << L), L)
        done = (t + u64(1)) << L
        k = L
        for _ in range(nlev):
            span = u64(8) << k
            if done & (span - u64(1)):
                break
            _sweep(a, base + done - span, span, k, u64(3))
            k += u64(3)


@nb.njit(["void(float64[::1])", "void(int64[::1])"], cache=True)
def _transform_serial(a):  # pragma: no cover - compiled
    """The whole transform on the calling thread (length 2^n, n >= 3)."""
    size = u64(a.shape[0])
    n = u64(0)
    while (u64(1) << n) < size:
        n += u64(1)
    L = _leaf_bits(n)
    _depth_first(a, u64(0), size >> L, L, (n - L) // u64(3))


@nb.njit(["void(float64[::1], int64)", "void(int64[::1], int64)"], parallel=True, cache=True)
def _transform_parallel(a, nchunk_lev):  # pragma: no cover - compiled
    """Chunks (leaves and the first nchunk_lev levels) in parallel, then the higher levels, each in
    parallel over work items of _COLS columns."""
    size = u64(a.shape[0])
    n = u64(0)
    while (u64(1) << n) < size:
        n += u64(1)
    L = _leaf_bits(n)
    k = L + u64(3) * u64(nchunk_lev)
    chunk = u64(1) << k
    for q in prange(size >> k):
        _depth_first(a, u64(q) * chunk, chunk >> L, L, u64(nchunk_lev))
    while k < n:
        h = u64(1) << k
        span = h << u64(3)
        cols = min(h, u64(_COLS))
        per_block = h // cols
        for w in prange((size // span) * per_block):
            g = (u64(w) // per_block) * span + (u64(w) % per_block) * cols
            for c in range(g, g + cols):
                _bf8(a, c, h)
        k += u64(3)


@nb.njit(["void(float64[::1])", "void(int64[::1])"], cache=True)
def _wht_small(a):  # pragma: no cover - compiled
    """Lengths 1, 2, 4."""
    size = a.shape[0]
    h = 1
    while h < size:
        for i0 in range(0, size, 2 * h):
            for j in range(i0, i0 + h):
                _bf2(a, u64(j), u64(h))
        h *= 2


def leaf_bits(n: int) -> int:
    """Bits L of the leaves for length 2^n (n >= 3); the levels above are radix-8."""
    return n if n <= 12 else (12, 13, 11)[(n - 12) % 3]


def wht_inplace_cpu(a: np.ndarray) -> None:
    """Transform a C-contiguous float64/int64 array of length 2^n in place (no validation here)."""
    size = a.shape[0]
    if size < 8:
        _wht_small(a)
    elif size < _MIN_PARALLEL or nb.get_num_threads() == 1:
        _transform_serial(a)
    else:  # chunks: the largest level boundary that leaves at least one chunk per thread
        n = size.bit_length() - 1
        L = leaf_bits(n)
        _transform_parallel(a, max(0, (n - (nb.get_num_threads() - 1).bit_length() - L) // 3))


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
