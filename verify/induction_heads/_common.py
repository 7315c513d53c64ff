"""Shared exact quantities of App. E (k = 2): expectations over (a, b) ~ U[0,1]^2 and over a = b.

* ``k2_expect_exact(expr)``: E_{a,b}[expr] in closed form (sympy), through the K2 substitution
  1 - a = s q, 1 - b = s (1 - q) (Jacobian s), under which every App. E integrand used here becomes a
  polynomial in q with coefficients rational in s; the two regions (s <= 1, and s in [1, 2] with
  q in [1 - 1/s, 1/s]) are integrated exactly.  This route is independent of the printed constants.
* ``expected_T(t)``: E_{a,b}[T(P)] (kernel K1) with the K2 Gauss-Legendre rule, cached.  The integrand
  pi_l (P^n)_{..} P_{..} is a polynomial of degree <= t + 2 in (s, q) in region 1, so
  max(t//2 + 12, 48) nodes integrate region 1 exactly; region 2 is smooth (rational in s) and the
  rule converges geometrically (checked: 60 vs 90 nodes agree to 1e-13 relative at t = 100).
* ``expected_T_diag(t, lo, hi)``: E over a = b ~ U[lo, hi] (pi = (1/2, 1/2); polynomial integrand,
  Gauss-Legendre with t//2 + 4 nodes is exact).
* ``linear_gd``: population GD of the minimal model in the linear regime (catalog K1/C23):
  W <- (1 - wd_W) W + eta sum_j v_j E T_j,  v <- (1 - wd_v) v + eta sum_{ml} W_ml E T_{.ml}.
"""

from __future__ import annotations

import functools

import numpy as np
import sympy as sp

from kernels.sequence.markov_icl import diag_nodes, k2_matrices, k2_nodes, t_tensor

A_, B_, S_, Q_ = sp.symbols("a b s q")
HALF = sp.Rational(1, 2)
LAM = A_ + B_ - 1


@functools.cache
def k2_expect_exact(expr: sp.Expr) -> sp.Expr:
    """E_{(a,b) ~ U[0,1]^2}[expr(a, b)] exactly (see module docstring)."""
    f = sp.cancel(sp.together(expr.subs({A_: 1 - S_ * Q_, B_: 1 - S_ * (1 - Q_)}) * S_))
    f = sp.expand(f)
    r1 = sp.integrate(sp.integrate(f, (Q_, 0, 1)), (S_, 0, 1))
    inner = sp.expand(sp.integrate(f, (Q_, 1 - 1 / S_, 1 / S_)))
    r2 = sp.integrate(inner, (S_, 1, 2))
    return sp.expand_log(sp.expand(r1 + r2), force=True)


def k2_expect_float(fn, n: int = 80) -> float:
    """E_{a,b}[fn(a, b)] by the K2 Gauss-Legendre rule (numpy callable)."""
    a, b, w = k2_nodes(n)
    return float(w @ fn(a, b))


@functools.cache
def expected_T(t: int, nodes: int | None = None) -> np.ndarray:
    """E_{(a,b) ~ U^2} T(P) of shape (t, 2, 2) (j-1, m, l)."""
    n = max(t // 2 + 12, 48) if nodes is None else nodes
    a, b, w = k2_nodes(n)
    out = np.zeros((t, 2, 2))
    for sl in np.array_split(np.arange(len(w)), max(1, len(w) * t // 400_000)):
        out += np.einsum("n,njml->jml", w[sl], t_tensor(k2_matrices(a[sl], b[sl]), t))
    out.setflags(write=False)
    return out


@functools.cache
def expected_T_diag(t: int, lo: float = 0.0, hi: float = 1.0, nodes: int | None = None) -> np.ndarray:
    """E_{a = b ~ U[lo, hi]} T(P) of shape (t, 2, 2)."""
    a, w = diag_nodes(t // 2 + 4 if nodes is None else nodes, lo, hi)
    out = np.einsum("n,njml->jml", w, t_tensor(k2_matrices(a, a), t))
    out.setflags(write=False)
    return out


def linear_gd(ET: np.ndarray, W: np.ndarray, v: np.ndarray, eta: float, *, wd_W: float = 0.0, wd_v: float = 0.0):
    """One simultaneous population-GD step of the linear-regime minimal model (margin loss, Delta large)."""
    gW = np.einsum("j,jml->ml", v, ET)
    gv = np.einsum("ml,jml->j", W, ET)
    return (1 - wd_W) * W + eta * gW, (1 - wd_v) * v + eta * gv
