"""Symbolic identities behind the max-margin results of thesis ch. 7 (seed 004, App. D.6-D.9).

* ``root_of_unity_sum_residual``: sum_{j=0}^{p-1} r^{j m} = p 1[p | m] for r a primitive p-th root of
  unity, proved for symbolic p and m via the geometric series and r^p = 1 (the lemma behind B2's
  "destructive interference" and B5).
* ``b5_residual(p, ...)``: the key Fourier identity of App. D.6.1 (catalog B5, lines 4979-4995)
  E_{a,b}[psi'(u,v,w)] = 2/((p-1)p^2) sum_{j != 0} u^(j) v^(j) w^(-j) for SYMBOLIC u, v, w in R^p at a
  fixed p: both sides are expanded as polynomials in the 3p symbols; on the right the sum over j is
  evaluated with the root-of-unity lemma (sum_{j != 0} r^{j(a+b-c)} = p 1[c = a+b] - 1).  Returns the
  expanded difference (0 <=> the identity holds).  ``conjugate=False`` is the mutant w^(j).
* ``cyclic_gamma_chain_residual``: (4/((p-1)p^2)) (p/6)^{3/2} - sqrt(2/27)/(p^{1/2}(p-1)) (symbolic p).
* ``group_construction_residual``: normalized margin of the Lemma D.16 network,
  4 t |G| / (2 (3|G|)^{3/2} t S) - 2/(3 sqrt(3|G|) S), symbolic |G|, t, S = sum d^{2.5}.
* ``parity_construction_residual(k)``: sum_{sigma in {+-1}^k} (sigma . x)^k prod sigma - 2^k k! prod x,
  multilinearised with x_i^2 = 1 (App. D.7, lines 5210-5218).
* ``parity_gamma_residual``: sqrt(2) k! (k+1)^{-(k+1)/2} - k! sqrt(2 (k+1)^{-(k+1)}) (symbolic k).
"""

from __future__ import annotations

import itertools
from functools import cache

import sympy as sp

__all__ = [
    "b5_residual",
    "cyclic_gamma_chain_residual",
    "group_construction_residual",
    "parity_construction_residual",
    "parity_gamma_residual",
    "root_of_unity_sum_residual",
]


@cache
def root_of_unity_sum_residual() -> tuple[sp.Expr, sp.Expr]:
    """(geometric sum with r^p = 1 substituted, for r^m != 1) and (the sum at r^m = 1 minus p)."""
    _r, _m, p, j = sp.symbols("r m p j", positive=True, integer=True)
    x = sp.Symbol("x")  # x = r^m
    geo = sp.summation(x**j, (j, 0, p - 1))
    geo = sp.piecewise_fold(geo).args[-1][0] if isinstance(geo, sp.Piecewise) else geo
    # (x^p - 1)/(x - 1) with x^p = (r^p)^m = 1
    nonzero = sp.simplify(geo.subs(x**p, 1))
    at_one = sp.simplify(sp.summation(sp.Integer(1), (j, 0, p - 1)) - p)
    return nonzero, at_one


def _interference(p: int, delta: int) -> int:
    """sum_{j=1}^{p-1} r^{j delta} = p 1[p | delta] - 1 (root_of_unity_sum_residual)."""
    return p - 1 if delta % p == 0 else -1


def b5_residual(p: int, *, conjugate: bool = True, factor: sp.Expr | None = None) -> sp.Expr:
    """LHS - RHS of the B5 identity, expanded, for symbolic u, v, w at this p.

    RHS = factor * sum_{j != 0} u^(j) v^(j) w^(+-j) = factor * sum_{a,b,c} u_a v_b w_c K(a + b -+ c),
    K(delta) = sum_{j != 0} r^{-j delta}; ``conjugate=False`` uses w^(j), i.e. K(a + b + c).
    """
    if not isinstance(p, int) or p < 2 or p > 12:
        raise ValueError(f"argument 'p' must be an integer in [2, 12], not {p!r}")
    u = sp.symbols(f"u0:{p}")
    v = sp.symbols(f"v0:{p}")
    w = sp.symbols(f"w0:{p}")
    factor = sp.Rational(2, (p - 1) * p * p) if factor is None else factor
    # the sums are built with one sp.Add each (a running ``+=`` re-sorts the growing sum at every term); the
    # expanded result is the same canonical expression
    lhs_terms = []
    for a in range(p):
        for b in range(p):
            c0 = (a + b) % p
            wt = w[c0] - sp.Rational(1, p - 1) * sp.Add(*[w[c] for c in range(p) if c != c0])
            lhs_terms.append((u[a] + v[b]) ** 2 * wt)
    lhs = sp.expand(sp.Add(*lhs_terms) / p**2)
    rhs_terms = []
    for a in range(p):
        for b in range(p):
            for c in range(p):
                delta = a + b - c if conjugate else a + b + c
                rhs_terms.append(u[a] * v[b] * w[c] * _interference(p, delta))
    return sp.expand(lhs - factor * sp.Add(*rhs_terms))


@cache
def cyclic_gamma_chain_residual() -> sp.Expr:
    p = sp.Symbol("p", positive=True)
    return sp.simplify(4 / ((p - 1) * p**2) * (p / 6) ** sp.Rational(3, 2) - sp.sqrt(sp.Rational(2, 27)) / (sp.sqrt(p) * (p - 1)))


@cache
def group_construction_residual() -> sp.Expr:
    G, t, S = sp.symbols("G t S", positive=True)
    return sp.simplify(4 * t * G / (2 * (3 * G) ** sp.Rational(3, 2) * t * S) - 2 / (3 * sp.sqrt(3 * G) * S))


@cache
def parity_gamma_residual() -> sp.Expr:
    k = sp.Symbol("k", positive=True, integer=True)
    return sp.simplify(sp.sqrt(2) * sp.factorial(k) * (k + 1) ** (-(k + 1) / sp.Integer(2))
                       - sp.factorial(k) * sp.sqrt(2 * (k + 1) ** (-(k + 1))))


def _multilinear(expr: sp.Expr, xs) -> sp.Expr:
    poly = sp.Poly(sp.expand(expr), *xs)
    out = 0
    for mon, coeff in poly.terms():
        out += coeff * sp.Mul(*[x ** (e % 2) for x, e in zip(xs, mon)])
    return sp.expand(out)


def parity_construction_residual(k: int, *, sign_factor: bool = True) -> sp.Expr:
    """sum_{sigma} (sigma . x)^k (prod sigma if sign_factor else 1) - 2^k k! prod x on {+-1}^k."""
    if not isinstance(k, int) or not 1 <= k <= 7:
        raise ValueError(f"argument 'k' must be an integer in [1, 7], not {k!r}")
    xs = sp.symbols(f"x0:{k}")
    total = 0
    for sigma in itertools.product((1, -1), repeat=k):
        lin = sum(s * x for s, x in zip(sigma, xs))
        total += lin**k * (sp.Mul(*sigma) if sign_factor else 1)
    return _multilinear(total - 2**k * sp.factorial(k) * sp.Mul(*xs), xs)
