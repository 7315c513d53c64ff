"""Exact error of a disjoint-PolyNet on a sparse parity (thesis ch. 5, Section 5.4.2 and App. B.2.3).

A disjoint-PolyNet on n = k n' inputs is f(x; w) = prod_{i=1}^k <w_i, x_{P_i}> over the blocks
P_i = {n'(i-1)+1, ..., n' i}.  With the relevant coordinate first in every block, write
w_i = (v_i, u_i) (v_i the relevant weight, u_i in R^{m}, m = n' - 1, the irrelevant ones), and
x_{P_i} = (z_i, z_i^-).  The target is y = prod_i z_i.  Then

    sign f = y  <=>  prod_i sign(z_i (v_i z_i + A_i)) = 1  <=>  prod_i sign(v_i + B_i) = 1,

with A_i = u_i . z_i^- and B_i = z_i A_i, which has the law of A_i (A_i is symmetric and independent
of z_i), and blocks are independent.  A zero output counts as an error (sign 0 != y).  With
p_w,i = Pr[A_i < -|v_i|] and p_z,i = Pr[A_i = -|v_i|], the probability that the product is +1 is
(1/2)[prod_i (q+_i + q-_i) + prod_i (q+_i - q-_i)] where q+_i - q-_i = sign(v_i)(1 - p_z,i - 2 p_w,i), so

    err(w) = 1 - (1/2) prod_i (1 - p_z,i) - (1/2) sign(prod_i v_i) prod_i (1 - p_z,i - 2 p_w,i).

(For v_i = 0 the factor 1 - p_z - 2 p_w is 0, consistent with the formula.)  This module computes the
law of A_i exactly (enumeration of the 2^m sums, or binomial counts for +-1 weights) and the error;
the claims check the formula against an exhaustive evaluation over the cube
(:func:`disjoint_polynet_error_exhaustive`).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Sequence

import numpy as np

from .. import _checks

__all__ = [
    "block_sums",
    "block_tails",
    "pm1_block_tails",
    "disjoint_polynet_error",
    "disjoint_polynet_error_exhaustive",
]

MAX_BLOCK_ENUM = 26  # 2^26 float64 sums = 512 MiB


def block_sums(u) -> np.ndarray:
    """All 2^m values u . z, z in {±1}^m, sorted (float64; exact when u is integer-valued and small).

    Built by doubling (sums <- [sums + u_j, sums - u_j]), O(2^m).  Integer-valued u with
    2^m max|u| < 2^53 gives exact float64 sums.
    """
    u = np.asarray(u, dtype=np.float64)
    if u.ndim != 1:
        raise ValueError(f"argument 'u' must be a 1-D array, not shape {u.shape}")
    _checks.require_finite("u", u)
    m = _checks.require_int("len(u)", u.shape[0], min_value=0, max_value=MAX_BLOCK_ENUM)
    _checks.require_memory("u", f"length {m}", 8 * (2 << m), what="the 2^m block sums")
    sums = np.zeros(1, dtype=np.float64)
    for uj in u:
        sums = np.concatenate([sums + uj, sums - uj])
    sums.sort(kind="stable")
    return sums


def block_tails(sorted_sums: np.ndarray, v: float) -> tuple[float, float]:
    """(Pr[A < -|v|], Pr[A = -|v|]) for A uniform over the given sorted block sums (float64 counts)."""
    t = -abs(float(_checks.require_finite("v", v)))
    lo = int(np.searchsorted(sorted_sums, t, side="left"))
    hi = int(np.searchsorted(sorted_sums, t, side="right"))
    N = sorted_sums.shape[0]
    return lo / N, (hi - lo) / N


def pm1_block_tails(m: int, v) -> tuple[Fraction, Fraction]:
    """Exact (Pr[A < -|v|], Pr[A = -|v|]) for A = u . z with u in {±1}^m (A = m - 2 Binomial(m, 1/2)).

    ``v`` may be an int, a Fraction or a float (compared exactly as a rational).
    """
    m = _checks.require_int("m", m, min_value=0, max_value=10**7)
    t = -abs(Fraction(v))
    below = 0
    equal = 0
    for j in range(m + 1):  # A = m - 2j with multiplicity C(m, j)
        a = m - 2 * j
        if a < t:
            below += comb(m, j)
        elif a == t:
            equal += comb(m, j)
    total = 1 << m
    return Fraction(below, total), Fraction(equal, total)


def disjoint_polynet_error(v: Sequence, tails: Sequence[tuple]):
    """err(w) from the relevant weights v_i and the block tails (p_w,i, p_z,i) (see the module docstring).

    Exact when the inputs are Fractions; float otherwise.
    """
    if len(v) != len(tails) or not v:
        raise ValueError(f"arguments 'v' and 'tails' must have the same length k >= 1, not {len(v)} and {len(tails)}")
    exact = all(isinstance(p, (int, Fraction)) for pair in tails for p in pair) and all(isinstance(x, (int, Fraction)) for x in v)
    one = Fraction(1) if exact else 1.0
    prod_nonzero = one
    prod_signed = one
    sign = 1
    for vi, (pw, pz) in zip(v, tails):
        prod_nonzero *= one - pz
        prod_signed *= one - pz - 2 * pw
        sign *= int(vi > 0) - int(vi < 0)
    return one - prod_nonzero / 2 - sign * prod_signed / 2


def disjoint_polynet_error_exhaustive(weights: Sequence) -> float:
    """Pr_x[sign f(x; w) != chi_S(x)] by evaluating f on all 2^n points (n = sum of block lengths <= 24).

    ``weights`` lists the k blocks w_i (the relevant weight first in each block); sign(0) counts as an
    error.  Float64 products; with integer weights every value is an exact integer (|f| < 2^53 checked).
    """
    blocks = [np.asarray(w, dtype=np.float64) for w in weights]
    if not blocks or any(b.ndim != 1 or b.shape[0] < 1 for b in blocks):
        raise ValueError("argument 'weights' must be a non-empty list of non-empty 1-D blocks")
    n = sum(b.shape[0] for b in blocks)
    _checks.require_cube_dim("n", n, max_value=24, copies=3)
    idx = np.arange(1 << n, dtype=np.int64)
    f = np.ones(1 << n, dtype=np.float64)
    y = np.ones(1 << n, dtype=np.int64)
    off = 0
    for b in blocks:
        lin = np.zeros(1 << n, dtype=np.float64)
        for j, wj in enumerate(b):
            xj = 1 - 2 * ((idx >> (off + j)) & 1)
            lin += wj * xj
            if j == 0:
                y *= xj
        f *= lin
        off += b.shape[0]
    return float(np.mean(np.sign(f).astype(np.int64) != y))
