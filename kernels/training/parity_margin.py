"""Full-batch gradient descent with L_{2,k+1} weight decay on one-hidden-layer x^k networks over the whole
(n, k)-sparse-parity cube (seed 004, Sec. 7.5 Thm 7.8, Figure 7.5 and App. D.2.2, lines 4788-4790).

Model: f(theta, x) = sum_{i<m} (u_i . x)^k w_i in R^2 for every x in {+-1}^n (all 2^n points, the order of
``kernels.algebra.margin.parity_cube``), class 0 <-> y = +1, class 1 <-> y = -1, y = prod_{j in S} x_j.
Objective

    L(theta) = (1 / 2^n) sum_x CE(f(theta, x), y(x)) + lam sum_i ||omega_i||_2^{k+1},

omega_i = (u_i, w_i) (the L_{2,nu} penalty with r = nu = k + 1, the network's homogeneity).  Step t:
theta <- theta - lr grad L (constant lr, as in App. D.2.2).  Initialisation: u_i ~ N(0, init_scale^2 / n),
w_i ~ N(0, init_scale^2 / 2) i.i.d. from ``numpy.random.default_rng(seed)``, or explicit parameters.

Records every ``record_every`` steps (and at step 0 and the end): the loss and the normalized margin
h(theta) / sum_i ||omega_i||^{k+1}, h = min_x (f_y(x) - f_{-y}(x)).  A run whose parameters become
non-finite stops (``diverged_at``: the step whose update made them so).

Twins: ``backend="reference"`` (numpy, matrix products, the oracle) and ``backend="cpu"`` (numba, explicit
loops, ``cache=True``); they agree to rounding (tests/kernels/test_parity_margin.py).  There is no CUDA twin:
the paper's size (n = 10, m = 40, 30k steps) takes seconds on one core.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from .._checks import require_finite, require_int

__all__ = ["ParityMarginResult", "parity_objective_ref", "train_parity_margin"]

MAX_N = 16
MAX_K = 8
MAX_WIDTH = 10_000
MAX_STEPS = 10_000_000


@dataclass(frozen=True)
class ParityMarginResult:
    U: np.ndarray  # (m, n)
    W: np.ndarray  # (m, 2)
    record_steps: np.ndarray
    loss: np.ndarray
    normalized_margin: np.ndarray
    diverged_at: int


def _positive(name, value):
    if isinstance(value, bool) or not (isinstance(value, (int, float, np.integer, np.floating)) and np.isfinite(value)
                                       and value > 0):
        raise ValueError(f"argument '{name}' must be a finite positive real number, not {value!r}")
    return float(value)


def _cube(n: int, support) -> tuple[np.ndarray, np.ndarray]:
    S = list(support)
    if not S or len(set(S)) != len(S) or any(not (isinstance(j, (int, np.integer)) and 0 <= j < n) for j in S):
        raise ValueError(f"argument 'support' must be distinct indices in [0, {n - 1}], not {support!r}")
    X = 1.0 - 2.0 * ((np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1)
    y = np.prod(X[:, S], axis=1)
    return X, y


# ------------------------------------------------------------------------------------------------
# numpy reference
# ------------------------------------------------------------------------------------------------


def parity_objective_ref(X, y, U, W, k: int, lam: float):
    """Loss, normalized margin and gradients (gU, gW) at (U, W) (numpy, vectorised)."""
    N = X.shape[0]
    Z = X @ U.T  # (N, m)
    A = Z**k
    L = A @ W  # (N, 2)
    lab = (y < 0).astype(np.int64)  # class 0 for y = +1
    rows = np.arange(N)
    g = L[rows, lab] - L[rows, 1 - lab]
    sq = (U * U).sum(1) + (W * W).sum(1)
    nu = k + 1
    cost = float(np.sum(sq ** (nu / 2)))
    margin = float(g.min()) / cost if cost > 0 else 0.0
    mx = L.max(1, keepdims=True)
    E = np.exp(L - mx)
    Zs = E.sum(1, keepdims=True)
    loss = float(np.mean(np.log(Zs[:, 0]) + mx[:, 0] - L[rows, lab])) + lam * cost
    P = E / Zs
    P[rows, lab] -= 1.0
    G = P / N  # dLoss / dlogits, (N, 2)
    gW = A.T @ G
    D = k * Z ** (k - 1) * (G @ W.T)  # (N, m)
    gU = D.T @ X
    r = nu * lam * sq ** (nu / 2 - 1)
    return loss, margin, gU + r[:, None] * U, gW + r[:, None] * W


def _train_ref(X, y, U, W, k, lr, lam, steps, record_every):
    rec_steps, losses, margins = [], [], []
    diverged = -1
    for t in range(steps + 1):
        loss, margin, gU, gW = parity_objective_ref(X, y, U, W, k, lam)
        if t % record_every == 0 or t == steps:
            rec_steps.append(t)
            losses.append(loss)
            margins.append(margin)
        if t == steps:
            break
        U = U - lr * gU
        W = W - lr * gW
        if not (np.all(np.isfinite(U)) and np.all(np.isfinite(W))):
            diverged = t + 1
            break
    return U, W, np.array(rec_steps), np.array(losses), np.array(margins), diverged


# ------------------------------------------------------------------------------------------------
# numba CPU kernel
# ------------------------------------------------------------------------------------------------


@numba.njit(cache=True)
def _objective_nb(X, y, U, W, k, lam, gU, gW, z):
    """Loss and normalized margin; the gradients go to gU, gW (``z``: workspace of length m).  The products
    u_i . x run over coordinates outside, neurons inside (transpose UT of shape (n, m)), and gU accumulates
    in its transpose gUT, so that the inner loops run over contiguous independent entries (vectorised);
    z^k is computed once per (point, neuron); each entry sees the same floating-point operations in the same
    order as the plain per-neuron loops."""
    m, n = U.shape
    N = X.shape[0]
    nu = k + 1
    UT = np.ascontiguousarray(U.T)
    gUT = np.zeros((n, m))
    zk = np.empty(m)
    d = np.empty(m)
    for i in range(m):
        gW[i, 0] = 0.0
        gW[i, 1] = 0.0
    loss = 0.0
    hmin = np.inf
    for s in range(N):
        for i in range(m):
            z[i] = 0.0
        for j in range(n):
            xj = X[s, j]
            for i in range(m):
                z[i] += UT[j, i] * xj
        l0 = 0.0
        l1 = 0.0
        for i in range(m):
            zk[i] = z[i]**k
            l0 += zk[i] * W[i, 0]
            l1 += zk[i] * W[i, 1]
        if y[s] > 0:
            lc, lw, c = l0, l1, 0
        else:
            lc, lw, c = l1, l0, 1
        hmin = min(hmin, lc - lw)
        mx = max(l0, l1)
        e0 = np.exp(l0 - mx)
        e1 = np.exp(l1 - mx)
        Zs = e0 + e1
        loss += np.log(Zs) + mx - lc
        g0 = e0 / Zs / N
        g1 = e1 / Zs / N
        if c == 0:
            g0 -= 1.0 / N
        else:
            g1 -= 1.0 / N
        for i in range(m):
            gW[i, 0] += zk[i] * g0
            gW[i, 1] += zk[i] * g1
            d[i] = k * z[i] ** (k - 1) * (W[i, 0] * g0 + W[i, 1] * g1)
        for j in range(n):
            xj = X[s, j]
            for i in range(m):
                gUT[j, i] += d[i] * xj
    cost = 0.0
    for i in range(m):
        sq = W[i, 0] * W[i, 0] + W[i, 1] * W[i, 1]
        for j in range(n):
            sq += U[i, j] * U[i, j]
        cost += sq ** (nu / 2)
        r = nu * lam * sq ** (nu / 2 - 1)
        for j in range(n):
            gU[i, j] = gUT[j, i] + r * U[i, j]
        gW[i, 0] += r * W[i, 0]
        gW[i, 1] += r * W[i, 1]
    margin = hmin / cost if cost > 0 else 0.0
    return loss / N + lam * cost, margin


@numba.njit(cache=True)
def _train_nb(X, y, U, W, k, lr, lam, steps, record_every, rec_loss, rec_margin):
    m, n = U.shape
    gU = np.empty_like(U)
    gW = np.empty_like(W)
    z = np.empty(m)
    rec = 0
    for t in range(steps + 1):
        loss, margin = _objective_nb(X, y, U, W, k, lam, gU, gW, z)
        if t % record_every == 0 or t == steps:
            rec_loss[rec] = loss
            rec_margin[rec] = margin
            rec += 1
        if t == steps:
            break
        ok = True
        for i in range(m):
            for j in range(n):
                U[i, j] -= lr * gU[i, j]
                if not np.isfinite(U[i, j]):
                    ok = False
            for c in range(2):
                W[i, c] -= lr * gW[i, c]
                if not np.isfinite(W[i, c]):
                    ok = False
        if not ok:
            return t + 1, rec
    return -1, rec


def train_parity_margin(n: int, k: int, m: int, *, steps: int, lr: float, weight_decay: float, support=None,
                        seed: int = 0, init_scale: float = 1.0, record_every: int = 100, params=None,
                        backend: str = "cpu") -> ParityMarginResult:
    """Train one x^k network on the full (n, k)-sparse-parity cube by GD on CE + weight_decay sum ||omega_i||^{k+1}.

    ``k`` is the activation degree; ``support`` (the parity's set S, labels y = prod_{j in S} x_j) defaults to
    the first k coordinates, and may have another size (an x^k network on a |S|-parity);
    ``params = (U, W)`` overrides the random init."""
    n = require_int("n", n, min_value=1, max_value=MAX_N)
    k = require_int("k", k, min_value=1, max_value=MAX_K)
    m = require_int("m", m, min_value=1, max_value=MAX_WIDTH)
    steps = require_int("steps", steps, min_value=0, max_value=MAX_STEPS)
    record_every = require_int("record_every", record_every, min_value=1, max_value=MAX_STEPS)
    lr = _positive("lr", lr)
    if isinstance(weight_decay, bool) or not (isinstance(weight_decay, (int, float)) and np.isfinite(weight_decay)
                                              and weight_decay >= 0):
        raise ValueError(f"argument 'weight_decay' must be a real number >= 0, not {weight_decay!r}")
    if k > n:
        raise ValueError(f"argument 'k' must be at most n = {n}, not {k}")
    X, y = _cube(n, range(k) if support is None else support)
    if backend not in ("auto", "reference", "cpu"):
        raise ValueError(f"argument 'backend' must be 'auto', 'reference' or 'cpu' (no CUDA twin), not {backend!r}")
    if params is None:
        scale = _positive("init_scale", init_scale)
        rng = np.random.default_rng(require_int("seed", seed, min_value=0))
        U = rng.standard_normal((m, n)) * scale / np.sqrt(n)
        W = rng.standard_normal((m, 2)) * scale / np.sqrt(2)
    else:
        U, W = (np.array(x, dtype=np.float64) for x in params)
        for name, x, shape in (("U", U, (m, n)), ("W", W, (m, 2))):
            if x.shape != shape:
                raise ValueError(f"argument 'params' ({name}) must have shape {shape}, not {x.shape}")
            require_finite("params", x, why=f"the initial {name} must be a point of parameter space")
    if backend == "reference":
        with np.errstate(over="ignore", invalid="ignore"):  # a diverging run is reported, not warned about
            U, W, rs, ls, ms, div = _train_ref(X, y, U, W, k, lr, float(weight_decay), steps, record_every)
        return ParityMarginResult(U, W, rs, ls, ms, div)
    n_rec = steps // record_every + 2
    rec_loss = np.full(n_rec, np.nan)
    rec_margin = np.full(n_rec, np.nan)
    U, W = np.ascontiguousarray(U), np.ascontiguousarray(W)
    div, rec = _train_nb(X, y, U, W, k, lr, float(weight_decay), steps, record_every, rec_loss, rec_margin)
    rs = np.array([t for t in range(steps + 1) if t % record_every == 0 or t == steps][:rec])
    return ParityMarginResult(U, W, rs, rec_loss[:rec], rec_margin[:rec], int(div))
