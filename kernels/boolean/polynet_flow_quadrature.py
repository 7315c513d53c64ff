"""Quadrature for the gradient flow of a disjoint-PolyNet under the correlation loss (thesis ch. 5,
Section 5.4.2, App. B.2.3): the flow time t(q) of (2) by Gauss-Legendre panels (numba) with scipy quad as the
reference, the block sums of |u| (sorted and sampled), and the exact error along the flow for a fixed
irrelevant part (levels, error, crossing time).
"""

from __future__ import annotations

from collections.abc import Sequence
import numba as nb
import numpy as np
from numba import prange
from .. import _checks
from .polynet_flow import _PARALLEL_MIN, MAX_ABS_SUMS_M

__all__ = [
    "abs_block_sums",
    "crossing_q",
    "error_after",
    "error_at",
    "flow_levels",
    "flow_time",
    "sampled_abs_block_sums",
]


# ---------------------------------------------------------------------------------------------
# the quadrature t(q) of (2): Gauss-Legendre (numba) and scipy quad (reference)
# ---------------------------------------------------------------------------------------------

_GL_X, _GL_W = np.polynomial.legendre.leggauss(20)


@nb.njit(cache=True)
def _integrand_y(y, c, cmin):  # pragma: no cover - compiled
    """(1/2) prod_i (g + c_i)^{-1/2} dg/dy at g = cmin (e^y - 1)."""
    w = cmin * np.exp(y)
    p = 1.0
    for i in range(c.shape[0]):
        p *= w + (c[i] - cmin)
    return 0.5 * w / np.sqrt(p)


@nb.njit(cache=True)
def _gl_panels(ya, yb, c, cmin, X, W):  # pragma: no cover - compiled
    if yb <= ya:
        return 0.0
    npan = max(1, int(np.ceil(yb - ya)))
    width = (yb - ya) / npan
    total = 0.0
    for p in range(npan):
        a = ya + p * width
        mid = a + 0.5 * width
        s = 0.0
        for j in range(X.shape[0]):
            s += W[j] * _integrand_y(mid + 0.5 * width * X[j], c, cmin)
        total += 0.5 * width * s
    return total


@nb.njit(cache=True)
def _flow_time_one(c, q_lo, q_hi, X, W):  # pragma: no cover - compiled
    k = c.shape[0]
    cmin = c[0]
    for i in range(k):
        cmin = min(cmin, c[i])
    ya = np.log1p(q_lo / cmin)
    if np.isfinite(q_hi):
        return _gl_panels(ya, np.log1p(q_hi / cmin), c, cmin, X, W)
    if k <= 2:
        return np.inf
    total = 0.0
    y = ya
    while True:
        total += _gl_panels(y, y + 4.0, c, cmin, X, W)
        y += 4.0
        # tail beyond y: integrand <= (1/2) w^{1-k/2} with w = cmin e^y, so the tail is <= w^{1-k/2}/(k-2)
        tail = (cmin * np.exp(y)) ** (1.0 - 0.5 * k) / (k - 2.0)
        if tail <= 1e-18 * total or y > 2000.0:
            return total


@nb.njit(cache=True, parallel=True)
def _flow_time_batch(C, QLO, QHI, X, W, out):  # pragma: no cover - compiled
    N = C.shape[0]
    Q = QHI.shape[1]
    for r in prange(N):
        for j in range(Q):
            out[r, j] = _flow_time_one(C[r], QLO[r, j], QHI[r, j], X, W)


@nb.njit(cache=True)
def _flow_time_batch_serial(C, QLO, QHI, X, W, out):  # pragma: no cover - compiled
    for r in range(C.shape[0]):
        for j in range(QHI.shape[1]):
            out[r, j] = _flow_time_one(C[r], QLO[r, j], QHI[r, j], X, W)


def flow_time(c, q_hi, q_lo=0.0, *, backend: str = "cpu"):
    """t(q_hi) - t(q_lo) for (2): int_{q_lo}^{q_hi} (1/2) prod_i (g + c_i)^{-1/2} dg.

    ``c``: the squared initial relevant weights, shape (k,) or (N, k), all > 0.  ``q_hi``, ``q_lo``:
    scalars, (Q,) or (N, Q) with 0 <= q_lo <= q_hi (q_hi = inf gives the blow-up time; inf for
    k <= 2).  Returns shape (N, Q) (a float when c is 1-D and q_hi scalar).  ``backend``: ``"cpu"``
    (numba, 20-point Gauss-Legendre on panels of width <= 1 in y = log(1 + g/c_min); the integrand is
    analytic in the strip |Im y| < pi, so the rule converges geometrically) or ``"reference"``
    (scipy.integrate.quad on g, epsrel 1e-13).
    """
    if backend not in ("cpu", "reference"):
        raise ValueError(f"argument 'backend' must be 'cpu' or 'reference', not {backend!r}")
    C = np.asarray(c, dtype=np.float64)
    scalar = C.ndim == 1 and np.ndim(q_hi) == 0 and np.ndim(q_lo) == 0
    C = np.atleast_2d(C)
    if C.ndim != 2 or C.shape[1] < 1 or not np.all(np.isfinite(C)) or np.any(C <= 0):
        raise ValueError(f"argument 'c' must hold finite values > 0 in shape (k,) or (N, k), not {np.asarray(c)!r:.80}")
    N = C.shape[0]
    QHI = np.asarray(q_hi, dtype=np.float64)
    QLO = np.asarray(q_lo, dtype=np.float64)
    shape = np.broadcast_shapes(QHI.shape, QLO.shape)
    QHI = np.broadcast_to(QHI, shape)
    QLO = np.broadcast_to(QLO, shape)
    if len(shape) <= 1:
        QHI = np.broadcast_to(QHI.reshape(1, -1), (N, max(QHI.size, 1))).copy()
        QLO = np.broadcast_to(QLO.reshape(1, -1), (N, max(QLO.size, 1))).copy()
    else:
        QHI = np.broadcast_to(QHI, (N, shape[1])).copy()
        QLO = np.broadcast_to(QLO, (N, shape[1])).copy()
    if np.any(np.isnan(QHI)) or np.any(np.isnan(QLO)) or np.any(QLO < 0) or np.any(QHI < QLO) or np.any(~np.isfinite(QLO)):
        raise ValueError("arguments 'q_lo', 'q_hi' must satisfy 0 <= q_lo <= q_hi (q_lo finite, q_hi may be inf)")
    out = np.empty(QHI.shape)
    if backend == "cpu":
        run = _flow_time_batch if out.size >= 4 * _PARALLEL_MIN else _flow_time_batch_serial
        run(C, QLO, QHI, _GL_X, _GL_W, out)
    else:
        from scipy.integrate import quad

        for r in range(N):
            cr = C[r]

            def f(g, cr=cr):
                return 0.5 / np.sqrt(np.prod(g + cr))

            for j in range(QHI.shape[1]):
                lo, hi = QLO[r, j], QHI[r, j]
                if hi == np.inf and cr.shape[0] <= 2:
                    out[r, j] = np.inf
                    continue
                val, _ = quad(f, lo, hi, epsabs=0.0, epsrel=1e-13, limit=1000)
                out[r, j] = val
    return float(out[0, 0]) if scalar else out


# ---------------------------------------------------------------------------------------------
# exact error along the flow for a fixed irrelevant part
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _sorted_abs_sums(u):  # pragma: no cover - compiled
    """All 2^m sums sum_j z_j |u_j| sorted, by m merges of two shifted copies (O(2^m) in all); returns
    the upper half, i.e. the sorted |u . z| one per pair {z, -z} (the multiset of sums is symmetric)."""
    m = u.shape[0]
    N = 1 << m
    cur = np.zeros(N)
    nxt = np.empty(N)
    L = 1
    for j in range(m):
        a = abs(u[j])
        # merge (cur[:L] - a) and (cur[:L] + a), both sorted
        p = 0
        q = 0
        o = 0
        while p < L and q < L:
            x = cur[p] - a
            y = cur[q] + a
            if x <= y:
                nxt[o] = x
                p += 1
            else:
                nxt[o] = y
                q += 1
            o += 1
        while p < L:
            nxt[o] = cur[p] - a
            p += 1
            o += 1
        while q < L:
            nxt[o] = cur[q] + a
            q += 1
            o += 1
        L *= 2
        tmp = cur
        cur = nxt
        nxt = tmp
    return cur[N // 2:].copy()


@nb.njit(cache=True)
def _upper_half_sums(u):  # pragma: no cover - compiled
    """The upper half of the sorted 2^m sums sum_j z_j |u_j| (each added in order of j from 0.0; m >= 1), the
    values of :func:`_sorted_abs_sums` bit for bit, at half its merge work.  The
    multiset S_j of the sums over the first j coordinates is symmetric, value by value: the sum for -z is exactly minus the one for z (IEEE
    rounding is sign-symmetric; a zero sum is +0.0 for z and -z alike, and 0.0 - h gives +0.0 there too).  So
    only its upper half H_j is kept: S_j sorted = (0.0 - H_j reversed, H_j), and H_{j+1} is the top 2^j of
    the merge of S_j - a and S_j + a (a = |u_j|), merged from the top down with a branch-free select (equal
    values have equal bits, so the order among ties is immaterial).  Where a sum could overflow
    (sum |u_j| >= 1e300) None is returned and the caller takes the full merge."""
    m = u.shape[0]
    tot = 0.0
    for j in range(m):
        tot += abs(u[j])
    if m == 0 or not tot < 1e300:
        return None
    N = 1 << m
    H = np.empty(N // 2)
    full = np.empty(N // 2)
    H[0] = 0.0 + abs(u[0])
    L = 1  # |S_j| / 2 = len(H_j)
    for j in range(1, m):
        a = abs(u[j])
        for i in range(L):  # S_j = full[:2L]
            full[L + i] = H[i]
            full[L - 1 - i] = 0.0 - H[i]
        p = 2 * L - 1  # into S_j - a
        q = 2 * L - 1  # into S_j + a
        for o in range(2 * L - 1, -1, -1):  # H_{j+1}: the top 2L of 4L; neither pointer drops below 0 here
            x = full[p] - a
            y = full[q] + a
            c = x >= y
            H[o] = x if c else y
            p -= 1 if c else 0
            q -= 0 if c else 1
        L *= 2
    return H


def abs_block_sums(u, *, backend: str = "cpu") -> np.ndarray:
    """The attainable values of |A| = |u . z|, z in {±1}^m, one per pair {z, -z}: 2^{m-1} values, sorted.

    ``u`` has length m >= 0 (m = 0 gives [0.0]); Pr[|A| <= s] is the fraction of these values that
    are <= s.  Float64 sums (exact when u is integer-valued and 2^m max|u| < 2^53).  ``backend``:
    ``"cpu"`` (numba: the upper half of the sorted multiset of all 2^m sums, built by m linear merges of
    upper halves, :func:`_upper_half_sums`; the values of the full merges of :func:`_sorted_abs_sums` bit for
    bit, which it falls back to where a sum could overflow; tests/kernels/test_polynet_block_sums.py) or
    ``"reference"`` (numpy: 2^{m-1} sums |u_1 + B| by doubling, then a sort).
    """
    if backend not in ("cpu", "reference"):
        raise ValueError(f"argument 'backend' must be 'cpu' or 'reference', not {backend!r}")
    u = np.asarray(u, dtype=np.float64)
    if u.ndim != 1 or not np.all(np.isfinite(u)):
        raise ValueError(f"argument 'u' must be a finite 1-D array, not shape {u.shape}")
    m = _checks.require_int("len(u)", u.shape[0], min_value=0, max_value=MAX_ABS_SUMS_M)
    if m == 0:
        return np.zeros(1)
    if m > 20:  # reading the available memory costs more than small blocks themselves
        _checks.require_memory("u", f"length {m}", 3 * 8 * (1 << m), what="the 2^m block sums")
    if backend == "cpu":
        half = _upper_half_sums(np.ascontiguousarray(u))
        return _sorted_abs_sums(u) if half is None else half
    sums = np.zeros(1 << (m - 1))
    size = 1
    for uj in u[1:]:
        sums[size:2 * size] = sums[:size] - uj
        sums[:size] += uj
        size *= 2
    out = np.abs(sums + u[0])
    out.sort()
    return out


@nb.njit(cache=True, parallel=True)
def _sampled_abs_sums(U, Z, out):  # pragma: no cover - compiled
    B, m = U.shape
    S = Z.shape[0]
    for b in prange(B):
        row = np.empty(S)
        for s in range(S):
            acc = 0.0
            for j in range(m):
                acc += Z[s, j] * U[b, j]
            row[s] = abs(acc)
        row.sort()
        out[b] = row


def sampled_abs_block_sums(U, Z) -> np.ndarray:
    """Empirical block laws: for each row u of ``U`` (B, m), the sorted |u . z| over the rows z of ``Z``
    (S, m) of signs +-1 (int8).  Returns (B, S) float64.  Each sum is accumulated in index order, so the
    result does not depend on the number of threads (numba, ``parallel=True`` over the rows of U)."""
    U = np.ascontiguousarray(np.asarray(U, dtype=np.float64))
    Z = np.ascontiguousarray(np.asarray(Z))
    if U.ndim != 2 or Z.ndim != 2 or U.shape[1] != Z.shape[1] or Z.shape[0] < 1:
        raise ValueError(f"arguments 'U' (B, m) and 'Z' (S, m) must share m and have S >= 1, not shapes {U.shape} and {Z.shape}")
    if Z.dtype != np.int8 or not np.all(np.abs(Z) == 1):
        raise ValueError("argument 'Z' must be an int8 array of signs +-1")
    _checks.require_memory("U", f"shape {U.shape}", 8 * U.shape[0] * Z.shape[0], what="the sampled block sums")
    out = np.empty((U.shape[0], Z.shape[0]))
    _sampled_abs_sums(U, Z, out)
    return out


def flow_levels(abs_sums: Sequence[np.ndarray], c) -> list[np.ndarray]:
    """Levels Q_ij = a_ij^2 - c_i: the value of q at which |v_i| = sqrt(q + c_i) reaches a_ij (sorted)."""
    c = np.asarray(c, dtype=np.float64)
    if len(abs_sums) != c.shape[0] or c.ndim != 1:
        raise ValueError(f"arguments 'abs_sums' and 'c' must have the same length k, not {len(abs_sums)} and {c.shape}")
    return [np.asarray(a, dtype=np.float64) ** 2 - ci for a, ci in zip(abs_sums, c)]


def _fractions(levels, q, shift):
    frac = np.ones(np.shape(q))
    for Q in levels:
        frac = frac * np.clip(np.searchsorted(Q, q, side="right") / Q.shape[0] + shift, 0.0, 1.0)
    return frac


def error_after(levels: Sequence[np.ndarray], q, *, shift: float = 0.0) -> np.ndarray:
    """err(q+) = 1/2 - (1/2) prod_i F_i(q) with F_i(q) = #{j : Q_ij <= q} / N_i (prod v_i > 0 assumed).

    ``shift`` moves every F_i by the same amount (clipped to [0, 1]); with an empirical (sampled)
    block law and a DKW radius eps, ``shift = -eps`` / ``+eps`` give an upper / lower bracket of err.
    """
    return 0.5 - 0.5 * _fractions(levels, np.asarray(q, dtype=np.float64), shift)


def error_at(abs_sums: Sequence[np.ndarray], v, *, shift: float = 0.0) -> np.ndarray:
    """err for relevant weights v ((k,) or (T, k), prod v_i > 0), right-continuous at ties:
    1/2 - (1/2) prod_i #{j : a_ij <= |v_i|} / N_i."""
    v = np.abs(np.asarray(v, dtype=np.float64))
    if v.shape[-1] != len(abs_sums):
        raise ValueError(f"argument 'v' must have last axis k = {len(abs_sums)}, not shape {v.shape}")
    frac = np.ones(v.shape[:-1])
    for i, a in enumerate(abs_sums):
        frac = frac * np.clip(np.searchsorted(a, v[..., i], side="right") / a.shape[0] + shift, 0.0, 1.0)
    return 0.5 - 0.5 * frac


@nb.njit(cache=True)
def _below(Q, x, alpha, strict, shift):  # pragma: no cover - compiled
    frac = 1.0
    N = Q.shape[1]
    for i in range(Q.shape[0]):
        f = np.searchsorted(Q[i], x, side="right") / N + shift
        frac *= min(1.0, max(0.0, f))
    e = 0.5 - 0.5 * frac
    return e < alpha if strict else e <= alpha


@nb.njit(cache=True)
def _crossing_2d(Q, alpha, strict, shift):  # pragma: no cover - compiled
    if _below(Q, 0.0, alpha, strict, shift):
        return 0.0
    k = Q.shape[0]
    hi = Q[0, -1]
    for i in range(k):
        hi = max(hi, Q[i, -1])
    if not _below(Q, hi, alpha, strict, shift):
        return np.nan
    lo = 0.0
    while True:
        total = 0
        for i in range(k):
            total += np.searchsorted(Q[i], hi, side="right") - np.searchsorted(Q[i], lo, side="right")
        if total <= 32:
            cand = np.empty(total)
            p = 0
            for i in range(k):
                a = np.searchsorted(Q[i], lo, side="right")
                b = np.searchsorted(Q[i], hi, side="right")
                for j in range(a, b):
                    cand[p] = Q[i, j]
                    p += 1
            cand.sort()
            for j in range(total):
                if _below(Q, cand[j], alpha, strict, shift):
                    return cand[j]
            return hi
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            return hi
        if _below(Q, mid, alpha, strict, shift):
            hi = mid
        else:
            lo = mid


def crossing_q(levels: Sequence[np.ndarray], alpha: float, *, strict: bool = True, shift: float = 0.0,
               backend: str = "cpu") -> float:
    """The smallest q >= 0 with err(q+) < alpha (``strict``) or <= alpha: one of the levels Q_ij, or 0.

    sup{t : err(t) >= alpha} = t(crossing_q(levels, alpha)) for alpha > 0, and the first time with
    err = 0 is t(crossing_q(levels, 0, strict=False)) (the last |v_i| passes ||u_i||_1).  ``backend``:
    ``"cpu"`` (numba bisection; blocks of equal length) or ``"reference"`` (plain Python, any lengths).
    ``levels`` may also be the blocks already stacked, a (k, N) float64 array (N >= 1): the same value, without
    the copy of every block per call (callers that cross several alpha on the same levels stack them once).
    Raises ValueError when err(q+) never gets below alpha.
    """
    if backend not in ("cpu", "reference"):
        raise ValueError(f"argument 'backend' must be 'cpu' or 'reference', not {backend!r}")
    if (backend == "cpu" and isinstance(levels, np.ndarray) and levels.ndim == 2 and levels.dtype == np.float64
            and levels.shape[0] >= 1 and levels.shape[1] >= 1):
        x = _crossing_2d(np.ascontiguousarray(levels), float(alpha), bool(strict), float(shift))
        if np.isnan(x):
            raise ValueError(f"argument 'alpha' = {alpha!r} is never reached (err(q+) >= alpha for every q)")
        return float(x)
    levels = [np.asarray(Q, dtype=np.float64) for Q in levels]
    if not levels or any(Q.ndim != 1 or Q.shape[0] < 1 for Q in levels):
        raise ValueError("argument 'levels' must be a non-empty list of non-empty sorted 1-D arrays")
    if backend == "cpu" and len({Q.shape[0] for Q in levels}) == 1:
        x = _crossing_2d(np.stack(levels), float(alpha), bool(strict), float(shift))
        if np.isnan(x):
            raise ValueError(f"argument 'alpha' = {alpha!r} is never reached (err(q+) >= alpha for every q)")
        return float(x)
    return _crossing_ref(levels, alpha, strict, shift)


def _crossing_ref(levels, alpha, strict, shift) -> float:
    def below(x):
        e = float(error_after(levels, x, shift=shift))
        return e < alpha if strict else e <= alpha

    if below(0.0):
        return 0.0
    cands = np.unique(np.concatenate([Q[Q > 0.0] for Q in levels]))
    for x in cands:  # err(q+) is non-increasing: the first level below alpha
        if below(x):
            return float(x)
    raise ValueError(f"argument 'alpha' = {alpha!r} is never reached (err(q+) >= alpha for every q)")
