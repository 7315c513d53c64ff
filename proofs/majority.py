"""Symbolic identities about majority's Fourier coefficients (thesis ch. 5, App. B.2.1).

Lemma B.1's closed form for odd n = 2m + 1 and odd degree 2i + 1:
    xi_{2i+1} = (-1)^i C(m, i) / C(2m, 2i) * 2^{-2m} C(2m, m).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import sympy as sp

__all__ = [
    "xi_symbolic",
    "ratio_identity_residual",
    "gap_identity_residual",
    "binomial_step_residual",
    "weight_limit_residual",
]

m, i, j, n, k = sp.symbols("m i j n k", positive=True, integer=True)


def xi_symbolic(mm, ii):
    """|xi_{2i+1}| for n = 2m+1 (Lemma B.1, seed 004 lines 3090-3105), as a sympy expression."""
    return sp.binomial(mm, ii) / sp.binomial(2 * mm, 2 * ii) * sp.binomial(2 * mm, mm) / 2 ** (2 * mm)


def ratio_identity_residual(ratio: Callable) -> sp.Expr:
    """gammasimp(|xi_{k-1}| / |xi_{k+1}|) - ratio(n, k) with n = 2m+1, k = 2j (even k).

    |xi_{k-1}| = |xi_{2(j-1)+1}| and |xi_{k+1}| = |xi_{2j+1}|; the quotient of binomials collapses by
    C(a, b-1)/C(a, b) = b/(a-b+1).  Returns 0 exactly when ``ratio`` is the true ratio (n-k)/(k-1).
    """
    quotient = sp.gammasimp(sp.combsimp(xi_symbolic(m, j - 1) / xi_symbolic(m, j)))
    return sp.simplify(quotient - ratio(2 * m + 1, 2 * j))


@lru_cache(maxsize=None)
def gap_identity_residual() -> sp.Expr:
    """|xi_{k-1}| - |xi_{k+1}| - ((n-2k+1)/(k-1)) |xi_{k+1}| with the ratio identity substituted (0)."""
    ratio = (n - k) / (k - 1)
    return sp.simplify(ratio - 1 - (n - 2 * k + 1) / (k - 1))


@lru_cache(maxsize=None)
def binomial_step_residual() -> sp.Expr:
    """C(n, k-1)/C(n, k+1) - (k+1)k/((n-k)(n-k+1)) for symbolic n, k (the middle step of (B.5))."""
    expr = sp.combsimp(sp.binomial(n, k - 1) / sp.binomial(n, k + 1))
    return sp.simplify(sp.gammasimp(expr) - (k + 1) * k / ((n - k) * (n - k + 1)))


@lru_cache(maxsize=None)
def weight_limit_residual(jj: int) -> sp.Expr:
    """lim_{m -> oo} C(2m+1, k) xi_k^2 - (2/pi) C(2j, j) / (k 4^j) for the fixed odd degree k = 2j + 1.

    The limit of the exact degree-k weight of Maj_{2m+1} (Lemma B.1's closed form, rewritten with gamma
    functions) is taken by sympy; returns 0 when the limit formula used by the asymptotic check holds.
    """
    kk = 2 * jj + 1
    weight = sp.binomial(2 * m + 1, kk) * xi_symbolic(m, jj) ** 2
    lim = sp.limit(sp.gammasimp(sp.combsimp(weight.rewrite(sp.gamma))), m, sp.oo)
    return sp.simplify(lim - 2 / sp.pi * sp.binomial(2 * jj, jj) / (kk * 4**jj))
