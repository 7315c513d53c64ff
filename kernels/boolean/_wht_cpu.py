"""numba CPU kernels of the in-place Walsh-Hadamard transform (float64 and int64).

The transform is the n radix-2 stages of kernels.boolean.reference.wht_butterflies (stage j adds and subtracts
the entries whose indices differ in bit j), applied in the same order to every entry, so the result is
bit-identical to the reference: the schedule below only regroups the same butterflies.

Schedule (measured in benchmarks/fwht.py):

* radix-8 sweeps: three consecutive stages (bits k, k+1, k+2) are done at once on 8 entries at stride
  2^k, held in registers (one load and one store per entry for three stages); the loop over the 2^k
  consecutive columns of a group is what LLVM vectorises (AVX2 on x86).  Radix-4 and radix-2 sweeps
  do the one or two stages left over when 3 does not divide the number of stages;
* leaves: the array is cut into leaves of 2^L entries (L = n up to 12, else the L in 11..13 with 3 | n - L;
  a leaf fits L1/L2), each transformed completely (bits 0 .. L-1): first f = 3, 4 or 5 stages (f = 3 +
  (L - 3) mod 3) on 2^f consecutive entries held as vectors of 4 lanes (:func:`_make_vector_butterfly`:
  stages 0 and 1 inside a vector by a lane swap and x * (+-1) + y, the others between vectors), then
  radix-8 sweeps whose stride is a compile-time constant (h = 8 .. 512: LLVM then unrolls the short
  column loops and needs no runtime overlap check, which at a runtime stride of 128 or 256 sent it to the
  scalar loop: 3x slower);
* levels: above the leaves, every block of 2^(k+3) entries gets its radix-8 sweep over bits k..k+2 as
  soon as its 8 sub-blocks are complete (depth first, as in FFHT's recursion): blocks up to the cache
  size are swept while still cached, so only the last one or two levels stream the array from memory;
* rows far apart: a radix-8 sweep at stride h >= _BUFFERED_H = 2^23 entries (its rows up to 7h apart) runs
  through a buffer (:func:`_bf8_buffered`): each run of _COLS columns of its 8 rows is copied in, one row at a
  time, transformed there and copied back, so that memory sees one stream at a time.  On the development
  machine (2026-11-28) a radix-2 pass pairing entries 2^25 or 2^26 apart took 20x one at 2^18 .. 2^24 (2^27:
  3.5x; FFHT's last level suffers the same): through the buffer the last level at n = 28 went from 1.79 s to
  0.23 s.  At h = 2^22 (rows at most 7 * 2^22 < 2^25 apart) the buffer gains nothing (0.22 s either way at n = 28)
  and cost 20% of the whole transform at n = 25, so it starts at 2^23;
* threads: with more than one numba thread and at least 2^16 entries, contiguous chunks of the array
  go depth first to the threads in parallel, and the levels above the chunk size are swept in
  parallel over column ranges of _COLS entries;
* short float64 arrays: :func:`small_float64_inplace` is kernels.wht_inplace's fast path (one
  dispatch, validation by its signature), for a call overhead of FFHT's order.

Tried and slower (benchmarks/fwht.py, 2026-11-27): radix-16 levels (register spills), leaves of 2^10 or
2^14 entries, runtime (not compile-time) strides inside the leaves, numba-level inlining of the sweeps
(also many times the compile time).  2026-11-28, the stride-1 stages (the old scalar radix-8 sweep at h = 1
took 2.5x a radix-8 sweep at h >= 8; its column loop has length 1, so nothing vectorised): vectors with
duplicate-and-blend shuffles (12 shuffles per 8 entries: shuffle-bound, no faster), and for float64 the
add / subtract / blend form that int64 uses (1.5x the multiply form); with the vector first stages, leaves
of 2^12 .. 2^14 or 2^10 .. 2^12 time the same as 2^11 .. 2^13 (within 1%); the last two levels fused into one
pass over tiles of 64 rows x 256 or 1024 columns (one memory pass fewer at n >= 25, but 64 concurrent
streams): 0-15% slower at n = 22 .. 27.

Index arithmetic is done in uint64 on purpose: numba then drops its negative-index wraparound
branches, which is what lets LLVM vectorise the butterflies.  The bodies do no validation; callers
go through kernels.boolean.wht.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from llvmlite import ir
from numba import prange, types
from numba import uint64 as u64
from numba.extending import intrinsic, overload

__all__ = ["int64_min_max", "small_float64_inplace", "wht_inplace_cpu"]

_COLS = 4096  # columns per parallel work item in the top levels, and per run of a buffered sweep
_BUFFERED_H = 1 << 23  # radix-8 sweeps whose rows are at least this many entries apart go through a buffer
_MIN_PARALLEL = 1 << 16  # shorter arrays: one thread (thread start-up costs more than it saves)


def _make_butterfly(r: int):
    """Stages log2(h) .. log2(h)+r-1 on the 2^r entries c + i h (i = 0 .. 2^r - 1), held in registers.

    Generated straight-line code: load all, then stage s pairs i and i + 2^s (s = 0 .. r-1) exactly as
    the reference's radix-2 stages do, then store all."""
    m = 1 << r
    off = ["c"] + [f"c + u64({i}) * h" for i in range(1, m)]
    lines = [f"def bf(a, c, h):"]
    lines += [f"    x{i}_0 = a[{off[i]}]" for i in range(m)]
    for s in range(r):
        b = 1 << s
        for i in range(m):
            op, j = ("+", i + b) if not i & b else ("-", i - b)
            lhs, rhs = (i, j) if op == "+" else (j, i)
            lines.append(f"    x{i}_{s + 1} = x{lhs}_{s} {op} x{rhs}_{s}")
    lines += [f"    a[{off[i]}] = x{i}_{r}" for i in range(m)]
    namespace = {"u64": u64}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the fixed text above
    return nb.njit(inline="always")(namespace["bf"])


_bf2 = _make_butterfly(1)
_bf4 = _make_butterfly(2)
_bf8 = _make_butterfly(3)


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


def _make_vector_butterfly(r: int):
    """Stages 0 .. r-1 (r = 3, 4, 5) on the 2^r consecutive entries a[c : c + 2^r], as 2^(r-2) vectors of
    4 lanes (LLVM IR through numba's ``intrinsic``: unaligned vector loads, lane shuffles, vector stores).

    The butterflies are the reference's, with the same operands in each lane:

    * stages 0 and 1 pair lanes inside a vector (lanes l and l ^ 1, then l and l ^ 2).  With y the vector
      with each pair swapped and s = +1 on the pair's lower lane, -1 on its upper lane, x * s + y gives
      x_l + x_(l^b) on the lower lane and -x_u + x_l on the upper, which is x_l - x_u exactly (x * (+-1) is
      exact and round-to-nearest is symmetric in sign, so -(x_u) + x_l and x_l - x_u round alike, signed
      zeros included).  int64 lanes (no 64-bit vector multiply before AVX-512) take x + y on the lower
      lanes and y - x on the upper ones, blended: integer sums are exact in any form;
    * stages 2 .. r-1 pair whole vectors (vector j and j + 2^(s-2)): plain vector add and subtract.

    This replaces the scalar radix-8 sweep at stride 1, whose three shuffle-free stages the loop
    vectoriser could not vectorise (column loop of length 1): 2.5x its time per entry and stage."""
    nvec = 1 << (r - 2)

    @intrinsic
    def vector_butterfly(typingctx, a, c):  # pragma: no cover - compiled
        def codegen(context, builder, sig, args):
            arr_t = sig.args[0]
            arr = context.make_array(arr_t)(context, builder, args[0])
            elt = context.get_data_type(arr_t.dtype)
            is_float = isinstance(arr_t.dtype, types.Float)
            vec_t = ir.VectorType(elt, 4)
            add, sub = (builder.fadd, builder.fsub) if is_float else (builder.add, builder.sub)

            def lanes(*ix):
                return ir.Constant(ir.VectorType(ir.IntType(32), 4), list(ix))

            def in_vector_stage(x, swap, sign, blend):
                y = builder.shuffle_vector(x, x, swap)
                if is_float:
                    return builder.fadd(builder.fmul(x, ir.Constant(vec_t, [ir.Constant(elt, t) for t in sign])), y)
                return builder.shuffle_vector(builder.add(x, y), builder.sub(y, x), blend)

            first = builder.gep(arr.data, [args[1]], inbounds=True)
            ptrs = [builder.bitcast(builder.gep(first, [ir.Constant(ir.IntType(64), 4 * j)], inbounds=True),
                                    vec_t.as_pointer()) for j in range(nvec)]
            v = [builder.load(p, align=arr_t.dtype.bitwidth // 8, typ=vec_t) for p in ptrs]
            for j in range(nvec):
                x = in_vector_stage(v[j], lanes(1, 0, 3, 2), (1.0, -1.0, 1.0, -1.0), lanes(0, 5, 2, 7))
                v[j] = in_vector_stage(x, lanes(2, 3, 0, 1), (1.0, 1.0, -1.0, -1.0), lanes(0, 1, 6, 7))
            for s in range(2, r):
                b = 1 << (s - 2)
                for j in range(nvec):
                    if not j & b:
                        v[j], v[j + b] = add(v[j], v[j + b]), sub(v[j], v[j + b])
            for p, x in zip(ptrs, v):
                builder.store(x, p, align=arr_t.dtype.bitwidth // 8)
            return context.get_dummy_value()

        return types.void(a, c), codegen

    return vector_butterfly


def _make_stride1_sweep(r: int):
    """Stages 0 .. r-1 of every block of 2^r entries in [base, base + size) (size a multiple of 2^r)."""
    bf = _make_vector_butterfly(r)
    step = u64(1 << r)

    @nb.njit
    def sweep(a, base, size):  # pragma: no cover - compiled
        for g in range(base, base + size, step):
            bf(a, g)

    return sweep


_sweep2 = _make_sweep(_bf2, 1)
_sweep4 = _make_sweep(_bf4, 2)
_sweep8 = _make_sweep(_bf8, 3)
_sweep8_h8 = _make_sweep(_bf8, 3, 8)
_sweep8_h16 = _make_sweep(_bf8, 3, 16)
_sweep8_h32 = _make_sweep(_bf8, 3, 32)
_sweep8_h64 = _make_sweep(_bf8, 3, 64)
_sweep8_h128 = _make_sweep(_bf8, 3, 128)
_sweep8_h256 = _make_sweep(_bf8, 3, 256)
_sweep8_h512 = _make_sweep(_bf8, 3, 512)
_stride1_8 = _make_stride1_sweep(3)
_stride1_16 = _make_stride1_sweep(4)
_stride1_32 = _make_stride1_sweep(5)


@nb.njit
def _bf8_buffered(a, c0, h, m, buf):  # pragma: no cover - compiled
    """``_bf8`` on the m columns c0 .. c0 + m - 1 (rows c0 + i h, i = 0..7), through ``buf`` (at least 8 m entries of
    a's type): the m columns of each row copied in, one row after another, the same butterflies on the copy, copied
    back row by row."""
    for i in range(8):
        src = c0 + u64(i) * h
        dst = u64(i) * m
        for j in range(m):
            buf[dst + j] = a[src + j]
    for c in range(m):
        _bf8(buf, u64(c), m)
    for i in range(8):
        src = c0 + u64(i) * h
        dst = u64(i) * m
        for j in range(m):
            a[src + j] = buf[dst + j]


@nb.njit
def _sweep8_buffered(a, base, size, h):  # pragma: no cover - compiled
    """The radix-8 sweep at stride h of every block of 8h entries in [base, base + size), in runs of _COLS columns
    through one buffer (``_bf8_buffered``)."""
    cols = min(h, u64(_COLS))
    buf = np.empty_like(a[: 8 * cols])
    for g in range(base, base + size, h << u64(3)):
        for c0 in range(g, g + h, cols):
            _bf8_buffered(a, c0, h, min(cols, g + h - c0), buf)


@nb.njit
def _sweep(a, base, size, k, r):  # pragma: no cover - compiled
    """Stages k .. k+r-1 (r = 1, 2, 3; k >= 3 when r = 3) of every block of 2^(k+r) entries in
    [base, base + size)."""
    h = u64(1) << k
    if r == u64(3):
        if h >= u64(_BUFFERED_H):
            _sweep8_buffered(a, base, size, h)
        elif k == u64(3):
            _sweep8_h8(a, base, size, h)
        elif k == u64(4):
            _sweep8_h16(a, base, size, h)
        elif k == u64(5):
            _sweep8_h32(a, base, size, h)
        elif k == u64(6):
            _sweep8_h64(a, base, size, h)
        elif k == u64(7):
            _sweep8_h128(a, base, size, h)
        elif k == u64(8):
            _sweep8_h256(a, base, size, h)
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
    """All stages (bits 0 .. L-1) of the block a[base : base + 2^L]: the first f = 3, 4 or 5 stages in
    vector registers (f = 3 + (L - 3) mod 3, so that 3 divides L - f), then radix-8 sweeps.  Blocks of 2
    or 4 entries take one radix-2 or radix-4 sweep."""
    size = u64(1) << L
    if L < u64(3):
        if L > u64(0):
            _sweep(a, base, size, u64(0), L)
        return
    f = u64(3) + (L - u64(3)) % u64(3)
    if f == u64(3):
        _stride1_8(a, base, size)
    elif f == u64(4):
        _stride1_16(a, base, size)
    else:
        _stride1_32(a, base, size)
    k = f
    while k < L:
        _sweep(a, base, size, k, u64(3))
        k += u64(3)


@nb.njit
def _plan(n):  # pragma: no cover - compiled
    """[L, 3, 3, ...] for length 2^n: leaves of 2^L entries, then radix-8 levels.

    L = n up to 12, else the one of 11, 12, 13 with 3 | n - L (measured: leaves of 2^10 or 2^14 and a
    radix-16 level instead of L = 13 were slower)."""
    if n <= u64(12):
        return np.array([n], dtype=np.int64)
    m = (n - u64(12)) % u64(3)
    L = u64(12) if m == u64(0) else (u64(13) if m == u64(1) else u64(11))
    plan = np.full((n - L) // u64(3) + u64(1), 3, dtype=np.int64)
    plan[0] = L
    return plan


@nb.njit
def _depth_first(a, base, nleaf, plan, nlev):  # pragma: no cover - compiled
    """The nleaf leaves of 2^plan[0] entries from ``base``, and the levels plan[1 .. nlev] above them.

    After each leaf, every level whose block has just been completed gets its sweep."""
    L = u64(plan[0])
    for t in range(nleaf):
        _leaf(a, base + (t << L), L)
        done = (t + u64(1)) << L
        k = L
        for j in range(1, nlev + 1):
            r = u64(plan[j])
            span = u64(1) << (k + r)
            if done & (span - u64(1)):
                break
            _sweep(a, base + done - span, span, k, r)
            k += r


@nb.njit
def _log2(size):  # pragma: no cover - compiled
    n = u64(0)
    while (u64(1) << n) < size:
        n += u64(1)
    return n


@nb.njit(["void(float64[::1])", "void(int64[::1])"], cache=True)
def _transform_serial(a):  # pragma: no cover - compiled
    """The whole transform on the calling thread."""
    size = u64(a.shape[0])
    plan = _plan(_log2(size))
    _depth_first(a, u64(0), size >> u64(plan[0]), plan, plan.shape[0] - 1)


# the parallel kernels compile on first call (float64 / int64 C-contiguous arrays, as wht_inplace_cpu passes),
# not eagerly: loading a parallel (parfors) function from the cache launches numba's thread pool, and importing
# this module must not (verify/parallel.py forks report workers from a process that imported every claim module)
@nb.njit(parallel=True, cache=True)
def _transform_parallel(a, min_chunks):  # pragma: no cover - compiled
    """Chunks (leaves and the levels below the chunk size) in parallel, at least min_chunks of them;
    then the higher levels, each in parallel over work items of _COLS columns."""
    size = u64(a.shape[0])
    n = _log2(size)
    plan = _plan(n)
    k = u64(plan[0])
    nlev = 0
    while nlev + 1 < plan.shape[0] and (size >> (k + u64(plan[nlev + 1]))) >= u64(min_chunks):
        nlev += 1
        k += u64(plan[nlev])
    chunk = u64(1) << k
    for q in prange(size >> k):
        _depth_first(a, u64(q) * chunk, chunk >> u64(plan[0]), plan, nlev)
    for j in range(nlev + 1, plan.shape[0]):
        r = u64(plan[j])
        h = u64(1) << k
        span = h << r
        cols = min(h, u64(_COLS))
        per_block = h // cols
        buffered = h >= u64(_BUFFERED_H)
        for w in prange((size // span) * per_block):
            g = (u64(w) // per_block) * span + (u64(w) % per_block) * cols
            if buffered:
                _bf8_buffered(a, g, h, cols, np.empty_like(a[: 8 * cols]))
            else:
                for c in range(g, g + cols):
                    _bf8(a, c, h)
        k += r


def _is_float_array(a):  # pragma: no cover - typed by the overload below
    """Whether the array a holds floats: a constant of each compiled signature."""
    raise NotImplementedError


@overload(_is_float_array)
def _is_float_array_impl(a):
    floating = isinstance(a.dtype, types.Float)
    return lambda a: floating


@nb.njit(["boolean(float64[::1])", "boolean(int64[::1])"], cache=True)
def small_float64_inplace(a):  # pragma: no cover - compiled
    """Fast path of kernels.wht_inplace (float64, no finiteness scan): transform ``a`` and return True
    when it holds float64 and its length is a power of two below _MIN_PARALLEL; else leave it untouched and
    return False (int64 arrays always: their overflow bound is checked first, by the caller's full path).  The
    signatures refuse (TypeError) anything but a writeable C-contiguous 1-D float64 or int64 array, so the
    caller needs no checks of its own on this path (an int64 array answered here costs no raised TypeError)."""
    if not _is_float_array(a):
        return False
    size = u64(a.shape[0])
    if size == u64(0) or size & (size - u64(1)) or size >= u64(_MIN_PARALLEL):
        return False
    _transform_serial(a)
    return True


def wht_inplace_cpu(a: np.ndarray) -> None:
    """Transform a C-contiguous float64/int64 array of length 2^n in place (no validation here)."""
    if a.shape[0] < _MIN_PARALLEL or nb.get_num_threads() == 1:
        _transform_serial(a)
    else:
        _transform_parallel(a, nb.get_num_threads())


@nb.njit(inline="always")
def _min_max_range(a, start, stop):  # pragma: no cover - compiled
    mn = a[start]
    mx = a[start]
    for i in range(start, stop):
        v = a[i]
        mn = v if v < mn else mn
        mx = v if v > mx else mx
    return mn, mx


@nb.njit(parallel=True, cache=True)  # compiled on first call (see _transform_parallel)
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
