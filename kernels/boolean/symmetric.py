"""Exact Fourier spectra of symmetric Boolean functions through Krawtchouk polynomials.

A symmetric f: {±1}^n -> R depends on x only through j = #{i : x_i = -1}; write f(x) = F(j).  For
|S| = k the Fourier coefficient is (O'Donnell 2014, Sec. 5.3; seed 004, Lemma B.1, lines 3090-3105)

    f^(S) = 2^{-n} sum_{j=0}^{n} F(j) K_j(k),   K_j(k) = sum_i (-1)^i C(k, i) C(n-k, j-i),

since exactly K_j(k) of the C(n, j) points with j minus-ones have chi_S = +1 minus those with -1.
The K_j(k) are the coefficients of (1 - z)^k (1 + z)^{n-k}; going from k to k + 1 multiplies by
(1 - z)/(1 + z), i.e. K_j(k+1) = K_j(k) - K_{j-1}(k) - K_{j-1}(k+1).  Everything is Python-int and
Fraction arithmetic, so majority's coefficients are exact for n in the thousands, far past the
exhaustive transform.  Cost: O(n * (k_max + 1)) big-int operations.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Sequence

from .. import _checks

__all__ = ["krawtchouk_rows", "symmetric_spectrum", "majority_values"]


def krawtchouk_rows(n: int, k_max: int | None = None) -> list[list[int]]:
    """rows[k][j] = K_j(k) for k = 0..k_max (default n) and j = 0..n, exact Python ints."""
    n = _checks.require_int("n", n, min_value=0, max_value=100_000)
    k_max = n if k_max is None else _checks.require_int("k_max", k_max, min_value=0, max_value=n)
    # k = 0: coefficients of (1 + z)^n
    row = [1] * (n + 1)
    for j in range(1, n + 1):
        row[j] = row[j - 1] * (n - j + 1) // j
    rows = [row]
    for _ in range(k_max):
        prev = rows[-1]
        nxt = [0] * (n + 1)
        nxt[0] = prev[0]
        for j in range(1, n + 1):
            nxt[j] = prev[j] - prev[j - 1] - nxt[j - 1]
        rows.append(nxt)
    return rows


def symmetric_spectrum(values: Sequence, k_max: int | None = None) -> list[Fraction]:
    """[f^(S) for |S| = k, k = 0..k_max] for the symmetric f with f(x) = values[#{i: x_i = -1}].

    ``values`` has n + 1 entries (ints or Fractions); the result is exact.
    """
    vals = [Fraction(v) for v in values]
    if not vals:
        raise ValueError("argument 'values' must have n + 1 >= 1 entries, not an empty sequence")
    n = len(vals) - 1
    rows = krawtchouk_rows(n, k_max)
    # sum in integers over the common denominator (Fraction arithmetic would reduce every partial sum)
    den = math.lcm(*(v.denominator for v in vals))
    nums = [v.numerator * (den // v.denominator) for v in vals]
    scale = den << n
    return [Fraction(sum(a * K for a, K in zip(nums, row)), scale) for row in rows]


def majority_values(n: int) -> list[int]:
    """F(j) = sign(n - 2j) for Maj_n(x) = sign(sum_i x_i) (0 on ties when n is even)."""
    n = _checks.require_int("n", n, min_value=1, max_value=100_000)
    return [(n - 2 * j > 0) - (n - 2 * j < 0) for j in range(n + 1)]
