"""Gaussian elimination over GF(2) on bit-packed rows, batched over many instances, with exact
operation counts; and the parity learner built on it.

Rows are packed into little-endian uint64 words: column j of a row lives in word j // 64, bit j % 64.
A batch of B matrices with m rows and n columns is a C-contiguous ``uint64`` array of shape
(B, m, W) with W = ceil(n / 64); bits beyond column n - 1 are zero.

Elimination (Gauss-Jordan, reduced row echelon form).  Columns c = 0, 1, ..., pivot_cols - 1 are
visited in order while r (the current rank) is below m.  The pivot is the *first* row p >= r with
bit c set; if p != r, rows p and r are swapped (one swap); then the pivot row is XORed into *every
other* row i (above and below) whose bit c is set (one row addition each).  Columns >= pivot_cols
(e.g. the label column of an augmented system) are carried along but never pivoted on.

Exact costs, per instance:

* ``xors``: row additions; ``swaps``: row swaps; ``row_ops = xors + swaps``.  Each pivot causes at
  most m - 1 additions and one swap, so ``row_ops <= rank * m <= min(m, pivot_cols) * m``.
* ``bit_ops``: bits XORed, counting for each row addition at pivot column c the n - c columns
  c, ..., n - 1 (the pivot row is zero on columns < c, so no other bit can change).
* ``word_ops``: 64-bit word XORs actually performed, W - c // 64 per row addition.

The row-operation count is what "O(d^2)" row reduction counts; the bit-operation count is the cost
in field operations over GF(2) (seed 003, P1).  Packing 64 columns per word divides the bit cost by
at most 64, it does not change its order.

Twins with one signature (``backend``): ``"reference"`` (numpy on unpacked 0/1 arrays, the oracle of
the property tests), ``"cpu"`` (numba, ``parallel=True`` over the batch with a serial path for small
work, ``cache=True``) and ``"cuda"`` (numba.cuda, one thread per instance; kernels/cuda/gf2.py).  All
three perform the same operations in the same order, so their outputs (reduced matrices, ranks,
pivots and every count) are identical.

Parity learning.  Labelled examples (x, y) in {-1, 1}^d x {-1, 1} give the GF(2) system
b . s = c with b_i = 1 iff x_i = -1 and c = 1 iff y = -1 (the suite's cube convention: bit i of an
index set <=> x_i = -1), since chi_S(x) = prod_{i in S} x_i = (-1)^{sum_{i in S} b_i}.  The learner
eliminates the augmented m x (d + 1) matrix on its d coefficient columns and returns the consistent
parity with all free variables set to 0 (the unique consistent parity when rank = d), or ``None``
when no parity is consistent with the sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import prange

from .. import _checks
from ._gf2_body import _eliminate_one
from ..backend import resolve_backend

__all__ = [
    "GF2Elimination",
    "ParityBatch",
    "ParityFit",
    "gf2_eliminate",
    "gf2_eliminate_packed",
    "gf2_rank",
    "learn_parity",
    "learn_parity_batch",
    "learn_parity_packed",
    "pack_bits",
    "parity_labels_packed",
    "random_packed",
    "unpack_bits",
]

#: Largest number of rows / columns accepted (keeps every count far inside int64).
MAX_DIM = 1 << 20
# below this much work (B * m * m * W word visits) the serial kernel is used: no thread start-up
_SERIAL_WORK = 1 << 18
_N_COUNTS = 5  # rank, xors, swaps, bit_ops, word_ops


def words_for(n: int) -> int:
    """Number of uint64 words holding n columns."""
    return (int(n) + 63) // 64


# ---------------------------------------------------------------------------------------------
# packing
# ---------------------------------------------------------------------------------------------


def pack_bits(bits) -> np.ndarray:
    """Pack a 0/1 array of shape (..., n) into uint64 words of shape (..., ceil(n / 64)).

    Column j goes to word j // 64, bit j % 64.  Any nonzero entry counts as 1 only if it is 1:
    entries outside {0, 1} raise ValueError.
    """
    a = np.asarray(bits)
    if a.ndim < 1:
        raise ValueError(f"argument 'bits' must have at least 1 dimension (..., n), not shape {a.shape}")
    if a.dtype != np.bool_:
        if not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"argument 'bits' must hold integers or booleans in {{0, 1}}, not dtype {a.dtype}")
        if a.size and (a.min() < 0 or a.max() > 1):
            raise ValueError(f"argument 'bits' must hold only 0 and 1, not values in [{a.min()}, {a.max()}]")
    n = a.shape[-1]
    W = words_for(n)
    padded = np.zeros(a.shape[:-1] + (W * 64,), dtype=np.uint8)
    padded[..., :n] = a
    # little-endian bit order inside bytes, little-endian bytes inside words
    packed = np.packbits(padded, axis=-1, bitorder="little")
    return np.ascontiguousarray(packed).view("<u8").astype(np.uint64, copy=False).reshape(a.shape[:-1] + (W,))


def unpack_bits(words, n: int) -> np.ndarray:
    """Inverse of :func:`pack_bits`: uint64 words (..., W) -> uint8 0/1 array (..., n)."""
    w = np.ascontiguousarray(words, dtype=np.uint64)
    n = _checks.require_int("n", n, min_value=0, max_value=w.shape[-1] * 64 if w.ndim else 0)
    as_bytes = w.astype("<u8", copy=False).view(np.uint8).reshape(w.shape[:-1] + (w.shape[-1] * 8,))
    return np.unpackbits(as_bytes, axis=-1, bitorder="little")[..., :n]


def random_packed(rng: np.random.Generator, shape, n: int) -> np.ndarray:
    """Uniform random 0/1 rows, packed: shape ``shape + (ceil(n / 64),)`` with bits >= n cleared."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"argument 'rng' must be a numpy.random.Generator, not {type(rng).__name__}")  # noqa: TRY004 (the suite raises ValueError for every bad argument)
    n = _checks.require_int("n", n, min_value=0, max_value=MAX_DIM)
    shape = tuple(int(s) for s in np.atleast_1d(shape)) if not isinstance(shape, tuple) else shape
    W = words_for(n)
    _checks.require_memory("shape", shape, 8 * W * int(np.prod(shape, dtype=np.int64)), what="the packed rows")
    out = rng.integers(0, np.iinfo(np.uint64).max, size=shape + (W,), dtype=np.uint64, endpoint=True)
    if W and n % 64:
        out[..., W - 1] &= np.uint64((1 << (n % 64)) - 1)
    return out


def parity_labels_packed(words, subset_words) -> np.ndarray:
    """c = popcount(row & S) mod 2 for packed rows (..., W) and a packed subset (W,) or (..., W)."""
    w = np.asarray(words, dtype=np.uint64)
    s = np.asarray(subset_words, dtype=np.uint64)
    if s.shape[-1] != w.shape[-1]:
        raise ValueError(f"argument 'subset_words' must have {w.shape[-1]} words in its last axis, not {s.shape[-1]}")
    if s.ndim > 1:
        s = s.reshape(s.shape[:-1] + (1,) * (w.ndim - s.ndim) + (s.shape[-1],))
    return (np.bitwise_count(w & s).sum(axis=-1, dtype=np.int64) & 1).astype(np.uint8)


_SIG = "void(uint64[:, :, ::1], int64, int64, int64[:, ::1], int64[:, ::1])"


# compiled on first call, not eagerly: loading a parallel (parfors) function from the cache launches numba's
# thread pool, and importing this module must not (verify/parallel.py forks report workers from a process that
# imported every claim module; tests/test_parallel.py checks that discovery launches no thread pool)
@nb.njit(parallel=True, cache=True)
def _eliminate_par(A, n, pivot_cols, piv, cnt):  # pragma: no cover - compiled
    for b in prange(A.shape[0]):
        _eliminate_one(A[b], n, pivot_cols, piv[b], cnt[b])


@nb.njit(_SIG, cache=True)
def _eliminate_serial(A, n, pivot_cols, piv, cnt):  # pragma: no cover - compiled
    for b in range(A.shape[0]):
        _eliminate_one(A[b], n, pivot_cols, piv[b], cnt[b])


# ---------------------------------------------------------------------------------------------
# numpy reference (the oracle of the property tests)
# ---------------------------------------------------------------------------------------------


def _eliminate_reference(bits: np.ndarray, n: int, pivot_cols: int, piv: np.ndarray, cnt: np.ndarray) -> None:
    """Same operations, same order, on unpacked uint8 0/1 arrays (B, m, n), in place."""
    W = words_for(n)
    for b in range(bits.shape[0]):
        A = bits[b]
        m = A.shape[0]
        r = xors = swaps = bit_ops = word_ops = 0
        for c in range(pivot_cols):
            if r == m:
                break
            below = np.flatnonzero(A[r:, c])
            if below.size == 0:
                continue
            p = r + int(below[0])
            if p != r:
                A[[r, p]] = A[[p, r]]
                swaps += 1
            rows = np.flatnonzero(A[:, c])
            rows = rows[rows != r]
            A[rows, c:] ^= A[r, c:]
            xors += rows.size
            bit_ops += rows.size * (n - c)
            word_ops += rows.size * (W - c // 64)
            piv[b, r] = c
            r += 1
        cnt[b] = (r, xors, swaps, bit_ops, word_ops)


# ---------------------------------------------------------------------------------------------
# public wrappers
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GF2Elimination:
    """Result of a batched elimination (batch axis first, even for a single matrix).

    ``reduced`` (B, m, W) uint64: the reduced row echelon form (rows >= rank are zero on the pivoted
    columns); ``rank`` (B,); ``pivots`` (B, min(m, pivot_cols)): pivot column of row j for j < rank,
    -1 beyond; ``xors``, ``swaps``, ``bit_ops``, ``word_ops`` (B,): exact costs (module docstring).
    """

    reduced: np.ndarray
    n: int
    pivot_cols: int
    rank: np.ndarray
    pivots: np.ndarray
    xors: np.ndarray
    swaps: np.ndarray
    bit_ops: np.ndarray
    word_ops: np.ndarray
    backend: str

    @property
    def row_ops(self) -> np.ndarray:
        """Row additions plus row swaps; at most rank * m."""
        return self.xors + self.swaps

    def reduced_bits(self) -> np.ndarray:
        """The reduced matrices unpacked to 0/1, shape (B, m, n)."""
        return unpack_bits(self.reduced, self.n)


def _as_batch(words: np.ndarray, name: str) -> tuple[np.ndarray, bool]:
    if words.ndim == 2:
        return words[None], True
    if words.ndim == 3:
        return words, False
    raise ValueError(f"argument '{name}' must have shape (m, W) or (B, m, W), not {words.shape}")


def gf2_eliminate_packed(words, n: int, *, pivot_cols: int | None = None, backend: str = "auto") -> GF2Elimination:
    """Gauss-Jordan elimination of packed GF(2) matrices ``words`` (m, W) or (B, m, W) with n columns.

    The input is not modified.  ``pivot_cols`` (default n): only columns < pivot_cols are pivoted on.
    """
    w = np.asarray(words)
    if w.dtype != np.uint64:
        raise ValueError(f"argument 'words' must be a uint64 array (see pack_bits), not dtype {w.dtype}")
    w, _ = _as_batch(w, "words")
    n = _checks.require_int("n", n, min_value=0, max_value=MAX_DIM)
    W = words_for(n)
    if w.shape[2] != W:
        raise ValueError(f"argument 'words' must have ceil(n / 64) = {W} words per row for n = {n}, not {w.shape[2]}")
    if w.shape[1] > MAX_DIM:
        raise ValueError(f"argument 'words' has {w.shape[1]} rows; at most {MAX_DIM} are accepted")
    if n % 64 and W and np.any(w[..., W - 1] >> np.uint64(n % 64)):
        raise ValueError(f"argument 'words' has bits set beyond column n - 1 = {n - 1}")
    pivot_cols = n if pivot_cols is None else _checks.require_int("pivot_cols", pivot_cols, min_value=0, max_value=n)
    used = resolve_backend(backend)
    B, m = w.shape[0], w.shape[1]
    P = min(m, pivot_cols)
    piv = np.full((B, P), -1, dtype=np.int64)
    cnt = np.zeros((B, _N_COUNTS), dtype=np.int64)
    if used == "reference":
        bits = unpack_bits(w, n).copy()
        _eliminate_reference(bits, n, pivot_cols, piv, cnt)
        out = pack_bits(bits) if n else np.zeros((B, m, 0), dtype=np.uint64)
    else:
        out = np.ascontiguousarray(w, dtype=np.uint64).copy()
        piv_full = np.full((B, max(m, 1)), -1, dtype=np.int64)
        if used == "cuda":
            from ..cuda.gf2 import eliminate_cuda

            eliminate_cuda(out, n, pivot_cols, piv_full, cnt)
        elif B * m * m * max(W, 1) <= _SERIAL_WORK or B == 1:
            _eliminate_serial(out, n, pivot_cols, piv_full, cnt)
        else:
            _eliminate_par(out, n, pivot_cols, piv_full, cnt)
        piv[:] = piv_full[:, :P]
    return GF2Elimination(out, n, pivot_cols, cnt[:, 0].copy(), piv, cnt[:, 1].copy(), cnt[:, 2].copy(),
                          cnt[:, 3].copy(), cnt[:, 4].copy(), used)


def gf2_eliminate(bits, *, pivot_cols: int | None = None, backend: str = "auto") -> GF2Elimination:
    """Gauss-Jordan elimination of 0/1 matrices ``bits`` of shape (m, n) or (B, m, n) over GF(2)."""
    a = np.asarray(bits)
    if a.ndim not in (2, 3):
        raise ValueError(f"argument 'bits' must have shape (m, n) or (B, m, n), not {a.shape}")
    n = a.shape[-1]
    rows = int(np.prod(a.shape[:-1], dtype=np.int64))
    _checks.require_memory("bits", a.shape, 24 * rows * words_for(n), what="packed copies")
    return gf2_eliminate_packed(pack_bits(a), n, pivot_cols=pivot_cols, backend=backend)


def gf2_rank(bits, *, backend: str = "auto"):
    """Rank over GF(2) of a 0/1 matrix (m, n) (an int) or of a batch (B, m, n) (an int64 array)."""
    a = np.asarray(bits)
    res = gf2_eliminate(a, backend=backend)
    return int(res.rank[0]) if a.ndim == 2 else res.rank


# ---------------------------------------------------------------------------------------------
# the parity learner
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParityFit:
    """One parity fit: ``S`` (bitmask, bit i <=> i in S) or None if no parity is consistent.

    ``ops`` = row operations (additions + swaps) of the elimination; ``unique`` = (rank == d), in
    which case S is the only consistent parity.
    """

    S: int | None
    ops: int
    rank: int
    unique: bool
    bit_ops: int
    word_ops: int


@dataclass(frozen=True)
class ParityBatch:
    """Batched parity fits: ``solution`` (B, ceil(d / 64)) packed S (free variables 0; meaningful
    where ``consistent``), ``consistent`` (B,) bool, ``rank``, ``unique`` and the elimination counts."""

    d: int
    solution: np.ndarray
    consistent: np.ndarray
    rank: np.ndarray
    xors: np.ndarray
    swaps: np.ndarray
    bit_ops: np.ndarray
    word_ops: np.ndarray
    backend: str

    @property
    def unique(self) -> np.ndarray:
        return self.rank == self.d

    @property
    def row_ops(self) -> np.ndarray:
        return self.xors + self.swaps

    def subset(self, i: int) -> int | None:
        """Instance i's parity as a Python-int bitmask, or None when its sample is inconsistent."""
        if not self.consistent[i]:
            return None
        return sum(int(v) << (64 * k) for k, v in enumerate(self.solution[i]))

    def fit(self, i: int) -> ParityFit:
        return ParityFit(self.subset(i), int(self.row_ops[i]), int(self.rank[i]), bool(self.rank[i] == self.d),
                         int(self.bit_ops[i]), int(self.word_ops[i]))


def learn_parity_packed(augmented, d: int, *, backend: str = "auto") -> ParityBatch:
    """Fit parities to packed augmented systems (B, m, ceil((d + 1) / 64)): columns 0..d-1 hold the
    bits b of the examples, column d the label bit c.  See the module docstring."""
    d = _checks.require_int("d", d, min_value=1, max_value=MAX_DIM - 1)
    el = gf2_eliminate_packed(augmented, d + 1, pivot_cols=d, backend=backend)
    B, m = el.reduced.shape[0], el.reduced.shape[1]
    label = ((el.reduced[:, :, d >> 6] >> np.uint64(d & 63)) & np.uint64(1)).astype(bool)  # (B, m)
    rows = np.arange(m)[None, :]
    consistent = ~np.any(label & (rows >= el.rank[:, None]), axis=1)
    sol = np.zeros((B, words_for(d)), dtype=np.uint64)
    P = el.pivots.shape[1]
    if P:
        on = label[:, :P] & (np.arange(P)[None, :] < el.rank[:, None])
        bi, ji = np.nonzero(on)
        cols = el.pivots[bi, ji]
        np.bitwise_or.at(sol, (bi, cols >> 6), np.left_shift(np.uint64(1), (cols & 63).astype(np.uint64)))
    return ParityBatch(d, sol, consistent, el.rank, el.xors, el.swaps, el.bit_ops, el.word_ops, el.backend)


def _pm1(name: str, a: np.ndarray) -> np.ndarray:
    if a.dtype == np.bool_ or not (np.issubdtype(a.dtype, np.integer) or np.issubdtype(a.dtype, np.floating)):
        raise ValueError(f"argument '{name}' must hold numbers in {{-1, 1}}, not dtype {a.dtype}")
    if a.size and not np.all((a == 1) | (a == -1)):
        bad = a[(a != 1) & (a != -1)].ravel()[0]
        raise ValueError(f"argument '{name}' must hold only -1 and 1, not {bad!r}")
    return a


def _augmented(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    bits = np.concatenate([(X == -1), (y == -1)[..., None]], axis=-1)
    return pack_bits(bits)


def learn_parity_batch(X, y, *, backend: str = "auto") -> ParityBatch:
    """Fit parities to B samples at once: X (B, m, d) and y (B, m) with entries in {-1, 1}."""
    X = _pm1("X", np.asarray(X))
    y = _pm1("y", np.asarray(y))
    if X.ndim != 3:
        raise ValueError(f"argument 'X' must have shape (B, m, d), not {X.shape}")
    if y.shape != X.shape[:2]:
        raise ValueError(f"argument 'y' must have shape (B, m) = {X.shape[:2]}, not {y.shape}")
    if X.shape[2] < 1:
        raise ValueError("argument 'X' must have d >= 1 columns")
    _checks.require_memory("X", X.shape, 16 * X.shape[0] * X.shape[1] * words_for(X.shape[2] + 1), what="packed systems")
    return learn_parity_packed(_augmented(X, y), X.shape[2], backend=backend)


def learn_parity(X, y, *, backend: str = "auto") -> ParityFit:
    """Fit a parity to one sample: X (m, d) and y (m,) with entries in {-1, 1}.

    Returns a :class:`ParityFit`: ``S`` is the consistent parity with free variables 0 as a bitmask
    (the unique one when ``unique``), or None when no parity is consistent; ``ops`` the row
    operations used (``ops <= rank * m <= d * m``).
    """
    X = _pm1("X", np.asarray(X))
    y = _pm1("y", np.asarray(y))
    if X.ndim != 2:
        raise ValueError(f"argument 'X' must have shape (m, d), not {X.shape}")
    if y.shape != (X.shape[0],):
        raise ValueError(f"argument 'y' must have shape (m,) = ({X.shape[0]},), not {y.shape}")
    return learn_parity_batch(X[None], y[None], backend=backend).fit(0)
