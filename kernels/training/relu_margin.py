"""Full-batch gradient descent with L_2 weight decay on one-hidden-layer ReLU networks over a finite group's
composition table (seed 004, the ReLU panels of Figures 7.1, 7.4 and D.1; protocol App. D.2.1, lines 4782-4786).

Model: f(theta, a, b)[c] = sum_{i<m} relu(U[i, a] + V[i, b]) W[i, c] for all n^2 pairs (a, b) of the table
``mul`` (label ``mul[a, b]``), no biases: the quadratic network of kernels.training.quadratic_margin with
x^2 replaced by max(x, 0).  Objective

    L(theta) = (1 / n^2) sum_{a,b} CE(f(theta, a, b), mul[a, b]) + lam ||theta||_2^2

(App. D.2.1: "For ReLU network, we use a L_2 regularization of 1e-4").  Step t: theta <- theta - eta_t grad L,
eta_t = lr * 2^{#{s in lr_double_at: s <= t}} (kernels.training.quadratic_margin.lr_schedule).  The derivative
of relu at 0 is taken as 0.  Initialisation: U, V, W i.i.d. N(0, init_scale^2 / n) from
``numpy.random.default_rng(seed)`` (the quadratic trainer's draws), or explicit parameters.

Records every ``record_every`` steps (and at step 0 and the end): loss and the normalized margin
h(theta) / sum_i ||omega_i||^2 (the network is 2-homogeneous).  A run whose parameters become non-finite stops.

Twins: ``backend="reference"`` (numpy, matrix products, the oracle) and ``backend="cpu"`` (numba, explicit
loops, ``cache=True``); they agree to rounding (tests/kernels/test_relu_margin.py).  No CUDA twin.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from .._checks import require_finite, require_int
from .quadratic_margin import _softmax_row, _validate, lr_schedule

__all__ = ["ReluMarginResult", "relu_objective_ref", "train_relu_margin"]


@dataclass(frozen=True)
class ReluMarginResult:
    U: np.ndarray
    V: np.ndarray
    W: np.ndarray
    record_steps: np.ndarray
    loss: np.ndarray
    normalized_margin: np.ndarray
    diverged_at: int


def relu_objective_ref(mul, U, V, W, lam):
    """Loss, normalized margin and gradients (gU, gV, gW) (numpy, vectorised)."""
    n = mul.shape[0]
    N = n * n
    m = U.shape[0]
    lab = mul.reshape(-1)
    H = (U[:, :, None] + V[:, None, :]).reshape(m, N)  # pair index a n + b
    A = np.maximum(H, 0.0)
    L = A.T @ W  # (N, n)
    rows = np.arange(N)
    correct = L[rows, lab]
    Lw = L.copy()
    Lw[rows, lab] = -np.inf
    sq = (U * U).sum(1) + (V * V).sum(1) + (W * W).sum(1)
    cost = float(sq.sum())
    margin = float((correct - Lw.max(1)).min()) / cost if cost > 0 else 0.0
    mx = L.max(1, keepdims=True)
    E = np.exp(L - mx)
    Z = E.sum(1, keepdims=True)
    loss = float(np.mean(np.log(Z[:, 0]) + mx[:, 0] - correct)) + lam * cost
    P = E / Z
    P[rows, lab] -= 1.0
    G = P / N
    gW = A @ G
    GH = ((H > 0) * (W @ G.T)).reshape(m, n, n)
    return loss, margin, GH.sum(2) + 2 * lam * U, GH.sum(1) + 2 * lam * V, gW + 2 * lam * W


def _train_ref(mul, U, V, W, etas, lam, record_every):
    steps = len(etas)
    rec_steps, losses, margins = [], [], []
    diverged = -1
    for t in range(steps + 1):
        loss, margin, gU, gV, gW = relu_objective_ref(mul, U, V, W, lam)
        if t % record_every == 0 or t == steps:
            rec_steps.append(t)
            losses.append(loss)
            margins.append(margin)
        if t == steps:
            break
        U, V, W = U - etas[t] * gU, V - etas[t] * gV, W - etas[t] * gW
        if not all(bool(np.all(np.isfinite(x))) for x in (U, V, W)):
            diverged = t + 1
            break
    return U, V, W, np.array(rec_steps), np.array(losses), np.array(margins), diverged


@numba.njit(cache=True)
def _objective_nb(mul, U, V, W, lam, gU, gV, gW):
    """Loss and normalized margin; the gradients go to gU, gV, gW.  Loops arranged as in
    kernels.training.quadratic_margin._objective_nb (a row a of pairs at a time, neurons or labels innermost;
    the dot products DOT[b, i] = W[i] . GL[b] computed for every neuron and used for the active ones): each
    entry sees the same floating-point operations in the same order as a loop over the pairs with plain
    per-neuron loops."""
    m, n = U.shape
    VT = np.ascontiguousarray(V.T)
    WT = np.ascontiguousarray(W.T)
    gUT = np.zeros((n, m))
    gVT = np.zeros((n, m))
    for i in range(m):
        for j in range(n):
            gW[i, j] = 0.0
    cost = 0.0
    for i in range(m):
        for j in range(n):
            cost += U[i, j] * U[i, j] + V[i, j] * V[i, j] + W[i, j] * W[i, j]
    H = np.empty((n, m))  # row a: H[b, i] = U[i, a] + V[i, b]
    L = np.empty((n, n))
    GL = np.empty((n, n))
    DOT = np.empty((n, m))
    loss = 0.0
    hmin = np.inf
    for a in range(n):
        for b in range(n):
            for i in range(m):
                H[b, i] = U[i, a] + VT[b, i]
                DOT[b, i] = 0.0
            for c in range(n):
                L[b, c] = 0.0
        for i in range(m):
            for b in range(n):
                if H[b, i] > 0:
                    hb = H[b, i]
                    for c in range(n):
                        L[b, c] += hb * W[i, c]
        loss, hmin = _softmax_row(mul[a], L, GL, loss, hmin)
        for i in range(m):
            for b in range(n):
                if H[b, i] > 0:
                    hb = H[b, i]
                    for c in range(n):
                        gW[i, c] += hb * GL[b, c]
        for b in range(n):
            for c in range(n):
                g = GL[b, c]
                for i in range(m):
                    DOT[b, i] += WT[c, i] * g
            for i in range(m):
                if H[b, i] > 0:
                    gUT[a, i] += DOT[b, i]
                    gVT[b, i] += DOT[b, i]
    for i in range(m):
        for j in range(n):
            gU[i, j] = gUT[j, i] + 2.0 * lam * U[i, j]
            gV[i, j] = gVT[j, i] + 2.0 * lam * V[i, j]
            gW[i, j] += 2.0 * lam * W[i, j]
    margin = hmin / cost if cost > 0 else 0.0
    return loss / (n * n) + lam * cost, margin


@numba.njit(cache=True)
def _train_nb(mul, U, V, W, etas, lam, record_every, rec_loss, rec_margin):
    steps = etas.shape[0]
    gU = np.empty_like(U)
    gV = np.empty_like(V)
    gW = np.empty_like(W)
    k = 0
    m, n = U.shape
    for t in range(steps + 1):
        loss, margin = _objective_nb(mul, U, V, W, lam, gU, gV, gW)
        if t % record_every == 0 or t == steps:
            rec_loss[k] = loss
            rec_margin[k] = margin
            k += 1
        if t == steps:
            break
        ok = True
        for i in range(m):
            for j in range(n):
                U[i, j] -= etas[t] * gU[i, j]
                V[i, j] -= etas[t] * gV[i, j]
                W[i, j] -= etas[t] * gW[i, j]
                if not (np.isfinite(U[i, j]) and np.isfinite(V[i, j]) and np.isfinite(W[i, j])):
                    ok = False
        if not ok:
            return t + 1, k
    return -1, k


def train_relu_margin(mul, m: int, *, steps: int, lr: float, weight_decay: float, seed: int = 0, lr_double_at=(),
                      init_scale: float = 1.0, record_every: int = 100, params=None,
                      backend: str = "cpu") -> ReluMarginResult:
    """Train one ReLU network by full-batch GD on CE + weight_decay * ||theta||_2^2."""
    mul, n = _validate(mul, m, steps, lr, weight_decay, record_every)
    if backend not in ("auto", "reference", "cpu"):
        raise ValueError(f"argument 'backend' must be 'auto', 'reference' or 'cpu' (no CUDA twin), not {backend!r}")
    if params is None:
        if isinstance(init_scale, bool) or not (isinstance(init_scale, (int, float)) and np.isfinite(init_scale)
                                                and init_scale > 0):
            raise ValueError(f"argument 'init_scale' must be a finite positive real number, not {init_scale!r}")
        rng = np.random.default_rng(require_int("seed", seed, min_value=0))
        U, V, W = (rng.standard_normal((m, n)) * init_scale / np.sqrt(n) for _ in range(3))
    else:
        U, V, W = (np.array(x, dtype=np.float64) for x in params)
        for name, x in zip("UVW", (U, V, W)):
            if x.shape != (m, n):
                raise ValueError(f"argument 'params' ({name}) must have shape {(m, n)}, not {x.shape}")
            require_finite("params", x, why=f"the initial {name} must be a point of parameter space")
    etas = lr_schedule(steps, float(lr), lr_double_at)
    if backend == "reference":
        with np.errstate(over="ignore", invalid="ignore"):
            U, V, W, rs, ls, ms, div = _train_ref(mul, U, V, W, etas, float(weight_decay), record_every)
        return ReluMarginResult(U, V, W, rs, ls, ms, div)
    n_rec = steps // record_every + 2
    rec_loss = np.full(n_rec, np.nan)
    rec_margin = np.full(n_rec, np.nan)
    U, V, W = (np.ascontiguousarray(x) for x in (U, V, W))
    div, k = _train_nb(mul, U, V, W, etas, float(weight_decay), int(record_every), rec_loss, rec_margin)
    rs = np.array([t for t in range(steps + 1) if t % record_every == 0 or t == steps][:k])
    return ReluMarginResult(U, V, W, rs, rec_loss[:k], rec_margin[:k], int(div))
