"""Closed forms printed in thesis ch. 5 / App. B, in exact arithmetic (shared by several claims).

These are the *printed* formulas, transcribed once; the claims compare them with independent
computations (exhaustive transforms over the cube, Krawtchouk spectra, enumeration).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

__all__ = ["xi", "majority_gap", "majority_spectrum_exact", "majority_table"]


@lru_cache(maxsize=65536)
def xi(n: int, k: int) -> Fraction:
    """xi_k = Maj_n^([k]) by Lemma B.1 (seed 004, lines 3090-3105), n odd, 0 <= k <= n.

    k even: 0.  k odd: (-1)^{(k-1)/2} C((n-1)/2, (k-1)/2) / C(n-1, k-1) * 2^{-(n-1)} C(n-1, (n-1)/2).
    """
    if n % 2 == 0:
        raise ValueError(f"argument 'n' must be odd (Maj_n is Boolean only for odd n), not {n}")
    if not 0 <= k <= n:
        raise ValueError(f"argument 'k' must lie in [0, n] = [0, {n}], not {k}")
    if k % 2 == 0:
        return Fraction(0)
    m = (n - 1) // 2
    j = (k - 1) // 2
    sign = -1 if j % 2 else 1
    return Fraction(sign * comb(m, j) * comb(n - 1, m), comb(n - 1, k - 1) * 2 ** (n - 1))


@lru_cache(maxsize=65536)
def majority_gap(n: int, k: int) -> Fraction:
    """|xi_{k-1}| - |xi_{k+1}|: the Fourier gap of Maj_n at any |S| = k (all S^- and S^+ alike)."""
    lo = abs(xi(n, k - 1)) if k >= 1 else Fraction(0)
    hi = abs(xi(n, k + 1)) if k + 1 <= n else Fraction(0)
    return lo - hi


def majority_table(n: int):
    """Truth table of Maj_n(x) = sign(sum_i x_i) as int64 (0 on ties, which occur only for even n)."""
    import numpy as np

    from kernels import popcounts

    s = n - 2 * popcounts(n)
    return np.sign(s).astype(np.int64)


def majority_spectrum_exact(n: int, k_max: int | None = None) -> list[Fraction]:
    """[Maj_n^(S) for |S| = k, k = 0..k_max] via Krawtchouk sums (kernels.boolean.symmetric), independent of xi."""
    from kernels.boolean.symmetric import majority_values, symmetric_spectrum

    return symmetric_spectrum(majority_values(n), k_max)
