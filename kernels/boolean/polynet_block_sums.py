"""The sorted block sums |u . z| of kernels.boolean.polynet_flow_quadrature.abs_block_sums, bit for bit, at half
the merge work (the sums' symmetry under z -> -z: only the upper half of each level is merged, branch-free).

Used by the Theorem 5.7 claims (verify/hidden_progress/polynet_flow_gaussian.py); tests/kernels/test_polynet_block_sums.py
compares it with abs_block_sums (both backends) bit for bit.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from .polynet_flow_quadrature import abs_block_sums

__all__ = ["abs_block_sums_fast"]


@nb.njit(cache=True)
def _upper_half_sums(u):  # pragma: no cover - compiled
    """The upper half of the sorted 2^m sums sum_j z_j |u_j| (each added in order of j from 0.0; m >= 1), the
    values of kernels.boolean.polynet_flow_quadrature._sorted_abs_sums bit for bit, at half its merge work.  The
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


def abs_block_sums_fast(u) -> np.ndarray:
    """abs_block_sums(u) (the 2^{m-1} sorted values |u . z|, one per pair {z, -z}), the same float64 values bit for
    bit; arguments it refuses or cannot take the fast route for (m = 0 or m > 20, where abs_block_sums checks the
    memory; overflowing sums) go to abs_block_sums."""
    a = np.asarray(u, dtype=np.float64) if isinstance(u, np.ndarray) else None
    if a is None or a.ndim != 1 or a.shape[0] < 1 or a.shape[0] > 20 or not np.all(np.isfinite(a)):
        return abs_block_sums(u)
    out = _upper_half_sums(np.ascontiguousarray(a))
    return abs_block_sums(u) if out is None else out
