"""Inexact projected gradient descent and the gradient mapping (seed 001, Lemma 14, lines 1039-1058;
Bai et al. 2023, Lemma G.1).

    w^l = Proj_W(w^{l-1} - eta grad f(w^{l-1}) + e^{l-1}),     ||e^{l-1}||_2 <= eta eps,
    G_{W,eta}(w) = (w - Proj_W(w - eta grad f(w))) / eta.

W is an axis-aligned box [lo, hi]^D here (its projection is coordinate-wise clipping, which a
two-ReLU-per-coordinate MLP computes exactly: clip(t) = t - relu(t - b) + relu(-t - b) for lo = -b,
hi = b).  Test functions with known smoothness constant L_f = sup ||Hessian||_2 are provided:
isotropic/concave quadratics and cosine sums.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import _checks

__all__ = ["CosineSum", "Quadratic", "box_projection", "gradient_mapping", "inexact_pgd"]


def box_projection(lo: float, hi: float) -> Callable[[np.ndarray], np.ndarray]:
    """Euclidean projection onto the box [lo, hi]^D (clipping)."""
    _checks.require_finite("lo", lo, allow_inf=True)
    _checks.require_finite("hi", hi, allow_inf=True)
    if not (lo <= hi):
        raise ValueError(f"arguments 'lo', 'hi' must satisfy lo <= hi, not lo={lo!r}, hi={hi!r}")
    return lambda w: np.clip(w, lo, hi)


def gradient_mapping(w, grad: Callable, proj: Callable, eta: float) -> np.ndarray:
    """G_{W,eta}(w) = (w - Proj_W(w - eta grad(w))) / eta."""
    if not eta > 0:
        raise ValueError(f"argument 'eta' must be > 0, not {eta!r}")
    _checks.require_finite("eta", eta)
    w = np.asarray(w, dtype=float)
    _checks.require_finite("w", w)
    return (w - proj(w - eta * grad(w))) / eta


def inexact_pgd(w0, grad: Callable, proj: Callable, eta: float, steps: int,
                errors: Callable[[int, np.ndarray], np.ndarray] | None = None) -> np.ndarray:
    """Iterates w^0..w^steps (rows) of w^l = Proj(w^{l-1} - eta grad(w^{l-1}) + e^{l-1}).

    ``errors(l, w)`` returns e^l (None = exact projected GD)."""
    if not eta > 0:
        raise ValueError(f"argument 'eta' must be > 0, not {eta!r}")
    _checks.require_finite("eta", eta)
    steps = _checks.require_int("steps", steps, min_value=0, max_value=10**6)
    w = np.asarray(w0, dtype=float).copy()
    _checks.require_finite("w0", w)
    _checks.require_memory("steps", steps, 8 * (steps + 1) * w.size, what="the trajectory")
    out = np.empty((steps + 1, w.size))
    out[0] = w
    for l in range(steps):
        step = w - eta * grad(w)
        if errors is not None:
            step = step + errors(l, w)
        w = proj(step)
        out[l + 1] = w
    return out


@dataclass(frozen=True)
class Quadratic:
    """f(w) = (a/2) ||w - c||^2 (a > 0 convex, a < 0 concave); smoothness L_f = |a|."""

    a: float
    c: np.ndarray

    def value(self, w):
        return 0.5 * self.a * float(np.sum((np.asarray(w) - self.c) ** 2))

    def grad(self, w):
        return self.a * (np.asarray(w) - self.c)

    @property
    def smoothness(self) -> float:
        return abs(self.a)


@dataclass(frozen=True)
class CosineSum:
    """f(w) = sum_i a_i cos(b_i . w + c_i); L_f <= sum_i |a_i| ||b_i||_2^2 (Hessian is a sum of rank-1 terms)."""

    a: np.ndarray
    b: np.ndarray  # shape (m, D)
    c: np.ndarray

    def value(self, w):
        return float(np.sum(self.a * np.cos(self.b @ np.asarray(w) + self.c)))

    def grad(self, w):
        return -(self.a * np.sin(self.b @ np.asarray(w) + self.c)) @ self.b

    @property
    def smoothness(self) -> float:
        return float(np.sum(np.abs(self.a) * np.sum(self.b**2, axis=1)))
