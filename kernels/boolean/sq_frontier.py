"""The statistical-query frontier of sparse-parity learning (seed 004, Prop. 6.3 and Lemma C.1).

Parity visibility.  For a model h_theta on {±1}^n with r parameters and a target-independent
trajectory theta*_0..theta*_{T-1}, the correlation of parameter i at step t with the parity chi_S is
corr_{S,i,t} = E_x[chi_S(x) d h_{theta*_t}(x) / d theta_i] = Fourier coefficient of d_i h at S.  One
Walsh-Hadamard transform of each derivative table gives every corr at once.  The number of k-parities
"visible" above a tolerance tau is #{|S| = k : max_{i,t} |corr_{S,i,t}| > tau}; by Parseval
(Lemma C.1) sum_S max_{i,t} corr^2 <= sum_{i,t} E[(d_i h)^2] <= r T when ||grad h||_inf <= 1, hence
#visible <= r T / tau^2.

Concrete model (:func:`tanh_mlp_tables`): h(x) = sum_j v_j tanh(<w_j, x> + b_j), parameters
theta = (W (r x n, row-major), b, v).  With |v_j| <= 1 every derivative is bounded by 1 on the cube.
:func:`zero_target_trajectory` runs exact population gradient descent on the zero-target square loss
L(theta) = E_x[h(x)^2] / 2 (l_0(yhat) = yhat), the trajectory theta*_t of Assumption 6.2.

Frontier (Prop. 6.3): the first T iterates are target-independent with probability >= 1 - delta when
r T / (tau^2 delta) <= C(n, k) / 2; :func:`frontier_ratio` returns r T / (tau^2 delta) / (C(n, k) / 2)
(<= 1: guaranteed failure region).  For a width-w two-layer MLP r = w (n + 2) + 1 (:func:`mlp_params`).
"""

from __future__ import annotations

import math
from math import comb

import numpy as np

from .. import _checks
from .cube import sign_vectors, subsets_of_size
from .wht import wht

__all__ = [
    "frontier_ratio",
    "mlp_params",
    "tanh_mlp_tables",
    "visibility",
    "zero_target_trajectory",
]

MAX_N = 16


def _mlp_args(n, W, b, v):
    n = _checks.require_int("n", n, min_value=1, max_value=MAX_N)
    W = np.asarray(W, dtype=np.float64)
    if W.ndim != 2 or W.shape[1] != n or W.shape[0] < 1:
        raise ValueError(f"argument 'W' must have shape (r, {n}) with r >= 1, not {W.shape}")
    r = W.shape[0]
    b = np.asarray(b, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if b.shape != (r,) or v.shape != (r,):
        raise ValueError(f"arguments 'b' and 'v' must have shape ({r},), not {b.shape} and {v.shape}")
    for name, a in (("W", W), ("b", b), ("v", v)):
        _checks.require_finite(name, a)
    _checks.require_memory("W", W.shape, 8 * (1 << n) * r * (n + 2) * 2, what="the derivative tables")
    return n, W, b, v


def tanh_mlp_tables(n: int, W, b, v) -> tuple[np.ndarray, np.ndarray]:
    """(h, D): h (2^n,) the model on the cube, D (r(n+2), 2^n) the derivative d h / d theta_p at every point.

    Parameter order: W row-major (p = j n + i), then b_j, then v_j.  Points in kernels.boolean.cube order.
    """
    n, W, b, v = _mlp_args(n, W, b, v)
    r = W.shape[0]
    X = sign_vectors(n).astype(np.float64)  # (2^n, n)
    Z = X @ W.T + b  # (2^n, r)
    A = np.tanh(Z)
    h = A @ v
    dA = (1.0 - A * A) * v  # d h / d z_j
    D = np.empty((r * (n + 2), 1 << n))
    D[: r * n] = (dA[:, :, None] * X[:, None, :]).reshape(1 << n, r * n).T
    D[r * n : r * n + r] = dA.T
    D[r * n + r :] = A.T
    return h, D


def zero_target_trajectory(n: int, W, b, v, *, steps: int, lr: float) -> list[np.ndarray]:
    """Derivative tables D_t (see :func:`tanh_mlp_tables`) along exact population GD on E[h^2]/2, t < steps."""
    n, W, b, v = _mlp_args(n, W, b, v)
    steps = _checks.require_int("steps", steps, min_value=1, max_value=10_000)
    lr = float(lr)
    if not (math.isfinite(lr) and lr >= 0):
        raise ValueError(f"argument 'lr' must be a finite real number >= 0, not {lr!r}")
    r = W.shape[0]
    W, b, v = W.copy(), b.copy(), v.copy()
    out = []
    for _ in range(steps):
        h, D = tanh_mlp_tables(n, W, b, v)
        out.append(D)
        grad = D @ h / float(1 << n)  # E[h d h]
        W -= lr * grad[: r * n].reshape(r, n)
        b -= lr * grad[r * n : r * n + r]
        v -= lr * grad[r * n + r :]
    return out


def visibility(tables, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(M, sq, norms) for derivative tables (any number of arrays of shape (P_t, 2^n) or (2^n,)).

    M[a] = max over all rows of |f^(S_a)| for the k-subsets S_a (order of kernels.boolean.cube.subsets_of_size);
    sq[row] = sum_{|S| = k} f^(S)^2 and norms[row] = E_x[f(x)^2] for every row (Parseval's two sides).
    """
    rows = []
    for T in tables:
        T = np.asarray(T, dtype=np.float64)
        rows.append(T.reshape(-1, T.shape[-1]))
    if not rows:
        raise ValueError("argument 'tables' must contain at least one table")
    n = _checks.require_power_of_two_length("tables[0] rows", rows[0][0])
    k = _checks.require_int("k", k, min_value=0, max_value=n)
    masks = subsets_of_size(n, k)
    M = np.zeros(len(masks))
    sq, norms = [], []
    scale = float(1 << n)
    for R in rows:
        if R.shape[1] != 1 << n:
            raise ValueError(f"argument 'tables': every row must have length 2^{n}, not {R.shape[1]}")
        for f in R:
            c = wht(f, backend="cpu")[masks] / scale
            np.maximum(M, np.abs(c), out=M)
            sq.append(float(np.dot(c, c)))
            norms.append(float(np.dot(f, f)) / scale)
    return M, np.array(sq), np.array(norms)


def mlp_params(width: int, n: int) -> int:
    """r = width (n + 2) + 1 parameters of a two-layer MLP with biases and an output bias."""
    width = _checks.require_int("width", width, min_value=1)
    n = _checks.require_int("n", n, min_value=1)
    return width * (n + 2) + 1


def frontier_ratio(n: int, k: int, params, steps, tau, delta):
    """(r T / (tau^2 delta)) / (C(n, k) / 2); broadcast over numpy arrays.  <= 1: Prop. 6.3 applies."""
    n = _checks.require_int("n", n, min_value=1)
    k = _checks.require_int("k", k, min_value=0, max_value=n)
    r, T, tau, delta = (np.asarray(a, dtype=np.float64) for a in (params, steps, tau, delta))
    if np.any(r <= 0) or np.any(T <= 0) or np.any(tau <= 0) or np.any(delta <= 0):
        raise ValueError("arguments 'params', 'steps', 'tau', 'delta' must be positive")
    return r * T / (tau**2 * delta) / (comb(n, k) / 2)
