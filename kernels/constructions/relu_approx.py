"""Sums of ReLUs in the normal form of seed 001, Def 4 (lines 197-203), and constructive approximants.

g: R^k -> R is (eps, R, H, C)-approximable when f(z) = sum_{h<=H} c_h relu(a_h^T [z; 1]) with
||a_h||_1 <= 1, sum_h |c_h| <= C and sup_{z in [-R, R]^k} |g(z) - f(z)| <= eps.

Constructions:

* :func:`pl_interpolant` (k = 1): the piecewise-linear interpolant of g at H+1 equispaced knots of
  [-R, R], written in normal form: f(-R) relu(<(0, 1), [t; 1]>), s_0 (1 + R) relu((t + R)/(1 + R)),
  and for each interior knot t_h: (s_h - s_{h-1}) (1 + |t_h|) relu((t - t_h)/(1 + |t_h|)); every
  ||a_h||_1 = 1 exactly.  On [-R, R]: |g - f| <= h^2 sup|g''| / 8 with h = 2R/H (linear
  interpolation error); left of -R it is the constant g(-R), right of R the linear extension of
  the last piece (Def 4 constrains nothing outside [-R, R]).
* :func:`affine_exact` (k = 1): a t + b = a relu(t) - a relu(-t) + b relu(<(0, 1), [t; 1]>), exact on R.
* :func:`squared_loss_derivative` (k = 2): u(t, y) = 2(t - y) = 4 relu((t - y)/2) - 4 relu((y - t)/2)
  exactly (eps = 0 for every R), C = 8.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import _checks

__all__ = ["SumOfReLUs", "affine_exact", "knots_for_accuracy", "pl_error_bound", "pl_interpolant", "squared_loss_derivative"]


@dataclass(frozen=True)
class SumOfReLUs:
    """f(z) = sum_h c[h] relu(A[h, :k] . z + A[h, k]); A has shape (H, k+1), c shape (H,)."""

    A: np.ndarray
    c: np.ndarray

    @property
    def k(self) -> int:
        return self.A.shape[1] - 1

    @property
    def H(self) -> int:
        return self.A.shape[0]

    @property
    def C(self) -> float:
        """sum_h |c_h|."""
        return float(np.abs(self.c).sum())

    @property
    def max_a_l1(self) -> float:
        """max_h ||a_h||_1 (Def 4 requires <= 1)."""
        return float(np.abs(self.A).sum(axis=1).max())

    def __call__(self, z) -> np.ndarray:
        """Evaluate at z of shape (..., k) (or (...) when k = 1)."""
        z = np.asarray(z, dtype=float)
        if self.k == 1 and (z.ndim == 0 or z.shape[-1] != 1):
            z = z[..., None]
        pre = z @ self.A[:, : self.k].T + self.A[:, self.k]
        return np.maximum(pre, 0.0) @ self.c


def pl_error_bound(R: float, H: int, d2_sup: float) -> float:
    """h^2 sup|g''| / 8 with h = 2R/H: the sup error of linear interpolation on [-R, R]."""
    _checks.require_finite("R", R)
    _checks.require_finite("d2_sup", d2_sup)
    h = 2.0 * R / H
    return h * h * d2_sup / 8.0


def knots_for_accuracy(R: float, d2_sup: float, eps: float) -> int:
    """Smallest H with pl_error_bound(R, H, d2_sup) <= eps."""
    if not eps > 0:
        raise ValueError(f"argument 'eps' must be > 0, not {eps!r}")
    for name, v in (("R", R), ("d2_sup", d2_sup), ("eps", eps)):
        _checks.require_finite(name, v)
    return max(1, math.ceil(2.0 * R * math.sqrt(d2_sup / (8.0 * eps))))


def pl_interpolant(g: Callable, R: float, H: int) -> SumOfReLUs:
    """The piecewise-linear interpolant of g on H equal intervals of [-R, R], in Def-4 normal form
    (H + 1 ReLUs, each ||a_h||_1 = 1)."""
    if not (isinstance(R, (int, float)) and R > 0 and math.isfinite(R)):
        raise ValueError(f"argument 'R' must be a finite real > 0, not {R!r}")
    H = _checks.require_int("H", H, min_value=1, max_value=10**6)
    t = np.linspace(-R, R, H + 1)
    v = np.asarray(g(t), dtype=float)
    s = np.diff(v) / np.diff(t)
    A = np.zeros((H + 1, 2))
    c = np.zeros(H + 1)
    A[0] = (0.0, 1.0)
    c[0] = v[0]
    A[1] = (1.0 / (1.0 + R), R / (1.0 + R))
    c[1] = s[0] * (1.0 + R)
    for h in range(1, H):
        scale = 1.0 + abs(t[h])
        A[h + 1] = (1.0 / scale, -t[h] / scale)
        c[h + 1] = (s[h] - s[h - 1]) * scale
    return SumOfReLUs(A, c)


def affine_exact(slope: float, offset: float = 0.0) -> SumOfReLUs:
    """slope * t + offset as a sum of (at most) three ReLUs in normal form, exact on all of R."""
    A = np.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    c = np.array([slope, -slope, offset])
    keep = c != 0
    if not keep.any():
        keep[0] = True
    return SumOfReLUs(A[keep], c[keep])


def squared_loss_derivative(offset: float = 0.0) -> SumOfReLUs:
    """u(t, y) = 2 (t - y) as 4 relu((t - y)/2) - 4 relu((y - t)/2): exact, ||a||_1 = 1, C = 8.

    ``offset`` != 0 adds offset * relu(<(0, 0, 1), [t; y; 1]>), a legitimate approximant with sup
    error |offset| everywhere (used to realise an error eps_l exactly)."""
    if offset == 0:
        return SumOfReLUs(np.array([[0.5, -0.5, 0.0], [-0.5, 0.5, 0.0]]), np.array([4.0, -4.0]))
    return SumOfReLUs(np.array([[0.5, -0.5, 0.0], [-0.5, 0.5, 0.0], [0.0, 0.0, 1.0]]), np.array([4.0, -4.0, offset]))
