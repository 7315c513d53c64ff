"""Batched full-batch Adam training of a single-head [CLS] attention classifier on Boolean sequences.

Model (the 1-layer read-out of seed 004, Sec 4.6 / App. A.3.1, reduced to one head; only the [CLS]
query row is computed, which is exact for one layer since only the [CLS] output is read):

    x_t = E[b_t] + P[t]            (t < T; token embeddings E[0], E[1]; positional rows P[t])
    x_T = E[2] + P[T]              ([CLS] token)
    a   = softmax(K q / sqrt(k)),  q = x_T W_Q,  K = X W_K        (attention of [CLS] over all T + 1 rows)
    z   = u . ((a^T X) W_V) + c                                    (scalar logit)

and the logistic loss log(1 + exp(-y z)), y = +-1, averaged over the training set.  Parameters of a
run, in one flat float64 vector: E (3 x d), P ((T+1) x d), W_Q, W_K, W_V (d x k each), u (k), c.
Initialisation: every entry N(0, init_scale^2) (init_scale = 0.02 as minGPT), c = 0, from the run's
seed.  Adam (beta1 0.9, beta2 0.999, eps 1e-8, bias correction), decoupled weight decay as AdamW.

Two implementations with one signature: ``loss_and_grad_reference`` / ``train_reference`` (numpy,
batched matrix products, the oracle; its backward pass is checked against central finite differences
in tests/kernels/test_attention.py) and the numba CPU kernel ``train_attention`` (``prange`` over
runs, loops only).  They agree to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from .._checks import require_finite, require_int, require_memory
from ._einsum_order import _sum_outer_seq

__all__ = ["AttentionShapes", "forward_reference", "init_params", "loss_and_grad_numba", "loss_and_grad_reference", "make_shapes", "train_attention", "train_reference"]


@dataclass(frozen=True)
class AttentionShapes:
    T: int
    d: int
    k: int

    @property
    def offsets(self) -> dict:
        T, d, k = self.T, self.d, self.k
        sizes = [("E", 3 * d), ("P", (T + 1) * d), ("WQ", d * k), ("WK", d * k), ("WV", d * k), ("u", k), ("c", 1)]
        out, o = {}, 0
        for name, n in sizes:
            out[name] = (o, o + n)
            o += n
        out["total"] = (0, o)
        return out

    @property
    def size(self) -> int:
        return self.offsets["total"][1]

    def unpack(self, theta: np.ndarray) -> dict:
        T, d, k = self.T, self.d, self.k
        shapes = {"E": (3, d), "P": (T + 1, d), "WQ": (d, k), "WK": (d, k), "WV": (d, k), "u": (k,), "c": ()}
        off = self.offsets
        return {n: theta[off[n][0]:off[n][1]].reshape(shapes[n]) for n in shapes}


def _validate(T, d, k, runs=1):
    T = require_int("T", T, min_value=1, max_value=100_000)
    d = require_int("d", d, min_value=1, max_value=4096)
    k = require_int("k", k, min_value=1, max_value=4096)
    runs = require_int("runs", runs, min_value=1, max_value=1_000_000)
    shp = AttentionShapes(T, d, k)
    require_memory("runs", runs, runs * shp.size * 8 * 4, what="parameters and Adam moments")
    return shp


def make_shapes(T: int, d: int, k: int) -> AttentionShapes:
    """Validated shapes of the model."""
    return _validate(T, d, k)


def init_params(T: int, d: int, k: int, seeds, init_scale: float = 0.02) -> np.ndarray:
    """(runs, size) initial parameters, row r drawn from default_rng(seeds[r])."""
    seeds = list(seeds)
    shp = _validate(T, d, k, len(seeds))
    require_finite("init_scale", init_scale)
    out = np.empty((len(seeds), shp.size))
    for r, sd in enumerate(seeds):
        out[r] = np.random.default_rng(sd).normal(0.0, init_scale, shp.size)
        out[r, -1] = 0.0
    return out


def _embed(p, B):
    """X (m, T+1, d) for bit matrix B (m, T), written in place (one allocation: several times faster than gathering,
    adding and concatenating into fresh arrays; the same sums)."""
    m, T = B.shape
    E, P = p["E"], p["P"]
    X = np.empty((m, T + 1, E.shape[1]))
    np.add(np.take(E, B, axis=0), P[:T], out=X[:, :T])
    X[:, T] = E[2] + P[T]
    return X


def forward_reference(theta: np.ndarray, shp: AttentionShapes, B: np.ndarray):
    """(logits (m,), attention (m, T+1)) of one run."""
    p = shp.unpack(theta)
    X = _embed(p, np.asarray(B, dtype=np.int64))
    q = X[:, -1] @ p["WQ"]
    K = X @ p["WK"]
    s = np.einsum("mtk,mk->mt", K, q) / math.sqrt(shp.k)
    s = s - s.max(axis=1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(axis=1, keepdims=True)
    xbar = _sum_outer_seq(a[:, :, None], X)[:, 0]  # einsum("mt,mtd->md", a, X), in its order (same bits)
    z = (xbar @ p["WV"]) @ p["u"] + p["c"]
    return z, a


def loss_and_grad_reference(theta: np.ndarray, shp: AttentionShapes, B: np.ndarray, y: np.ndarray):
    """Mean logistic loss and its gradient (flat, same layout as theta) for one run."""
    B = np.asarray(B, dtype=np.int64)
    y = np.asarray(y, dtype=np.float64)
    p = shp.unpack(theta)
    m, T = B.shape
    X = _embed(p, B)
    q = X[:, -1] @ p["WQ"]
    K = X @ p["WK"]
    rs = 1.0 / math.sqrt(shp.k)
    s = np.einsum("mtk,mk->mt", K, q) * rs
    s = s - s.max(axis=1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(axis=1, keepdims=True)
    xbar = np.einsum("mt,mtd->md", a, X)
    h = xbar @ p["WV"]
    z = h @ p["u"] + p["c"]
    mz = -y * z
    loss = float(np.mean(np.logaddexp(0.0, mz)))
    dz = -y / (1.0 + np.exp(-mz)) / m  # d loss / d z
    g = {n: np.zeros_like(v) for n, v in p.items()}
    g["c"] = np.array(dz.sum())
    g["u"] = h.T @ dz
    dh = dz[:, None] * p["u"][None, :]
    g["WV"] = xbar.T @ dh
    dxbar = dh @ p["WV"].T
    dX = a[:, :, None] * dxbar[:, None, :]
    da = np.einsum("mtd,md->mt", X, dxbar)
    ds = a * (da - np.sum(a * da, axis=1, keepdims=True))
    dq = np.einsum("mt,mtk->mk", ds, K) * rs
    dK = ds[:, :, None] * q[:, None, :] * rs
    g["WK"] = np.einsum("mtd,mtk->dk", X, dK)
    dX += dK @ p["WK"].T
    g["WQ"] = X[:, -1].T @ dq
    dX[:, -1] += dq @ p["WQ"].T
    g["P"][:T] = dX[:, :T].sum(axis=0)
    g["P"][T] = dX[:, T].sum(axis=0)
    for tok in (0, 1):
        g["E"][tok] = dX[:, :T][B == tok].sum(axis=0)
    g["E"][2] = dX[:, T].sum(axis=0)
    flat = np.concatenate([g[n].reshape(-1) for n in ("E", "P", "WQ", "WK", "WV", "u")] + [g["c"].reshape(1)])
    return loss, flat


def train_reference(theta0: np.ndarray, shp: AttentionShapes, B: np.ndarray, y: np.ndarray, steps: int,
                    lr: float = 1e-3, weight_decay: float = 0.0):
    """Full-batch AdamW from each row of theta0; returns (theta (runs, size), losses (runs, steps))."""
    theta = np.array(theta0, dtype=np.float64, copy=True)
    runs = theta.shape[0]
    mom = np.zeros_like(theta)
    vel = np.zeros_like(theta)
    losses = np.empty((runs, steps))
    for t in range(steps):
        for r in range(runs):
            L, g = loss_and_grad_reference(theta[r], shp, B, y)
            losses[r, t] = L
            mom[r] = 0.9 * mom[r] + 0.1 * g
            vel[r] = 0.999 * vel[r] + 0.001 * g * g
            mh = mom[r] / (1 - 0.9 ** (t + 1))
            vh = vel[r] / (1 - 0.999 ** (t + 1))
            theta[r] -= lr * (mh / (np.sqrt(vh) + 1e-8) + weight_decay * theta[r])
    return theta, losses


@numba.njit(cache=True)
def _grad_one(theta, T, d, k, B, y, grad):
    """Loss and gradient of one run (loops only); same math and layout as the reference.

    Every sum runs over its index in increasing order and the per-sample terms of a gradient entry are added in sample
    order, as plain per-sample loops over the layout would.  A row x_t = E[b_t] + P[t] takes one of two values per
    position, and so do its key K x_t and score q . K x_t / sqrt(k) (q comes from the [CLS] row, the same for every
    sample): they are computed once per call for both tokens, with the same operations, so the same numbers as per
    sample (tests/kernels/test_attention.py compares with the per-sample loops bit for bit).  The W_K gradient is
    accumulated in a transposed buffer (contiguous inner loop), written into grad at the end."""
    m = B.shape[0]
    oE, oP = 0, 3 * d
    oQ = oP + (T + 1) * d
    oK = oQ + d * k
    oV = oK + d * k
    oU = oV + d * k
    oC = oU + k
    rs = 1.0 / math.sqrt(k)
    grad[:] = 0.0
    # tables over (token b, position t): rows, keys and scaled scores; at t = T both tokens hold the [CLS] row
    XE = np.empty((2, T + 1, d))
    KE = np.empty((2, T + 1, k))
    SE = np.empty((2, T + 1))
    q = np.empty(k)
    for j in range(d):
        XE[0, T, j] = theta[oE + 2 * d + j] + theta[oP + T * d + j]
    for c in range(k):
        acc = 0.0
        for j in range(d):
            acc += XE[0, T, j] * theta[oQ + j * k + c]
        q[c] = acc
    for tok in range(2):
        for t in range(T):
            for j in range(d):
                XE[tok, t, j] = theta[oE + tok * d + j] + theta[oP + t * d + j]
    for j in range(d):
        XE[1, T, j] = XE[0, T, j]
    for tok in range(2):
        for t in range(T + 1):
            st = 0.0
            for c in range(k):
                acc = 0.0
                for j in range(d):
                    acc += XE[tok, t, j] * theta[oK + j * k + c]
                KE[tok, t, c] = acc
                st += acc * q[c]
            SE[tok, t] = st * rs
    WKT = np.empty((k, d))  # W_K transposed (contiguous in j)
    for j in range(d):
        for c in range(k):
            WKT[c, j] = theta[oK + j * k + c]
    gK = np.zeros((k, d))  # the W_K gradient, accumulated in sample order, written to grad at the end
    toks = np.empty(T + 1, dtype=np.int64)
    a = np.empty(T + 1)
    da = np.empty(T + 1)
    xbar = np.empty(d)
    h = np.empty(k)
    dxbar = np.empty(d)
    dq = np.empty(k)
    dX = np.empty((T + 1, d))
    loss = 0.0
    for i in range(m):
        for t in range(T):
            toks[t] = B[i, t]
        toks[T] = 0
        smax = -1e300
        for t in range(T + 1):
            a[t] = SE[toks[t], t]
            smax = max(smax, a[t])
        tot = 0.0
        for t in range(T + 1):
            a[t] = math.exp(a[t] - smax)
            tot += a[t]
        for t in range(T + 1):
            a[t] /= tot
        for j in range(d):
            acc = 0.0
            for t in range(T + 1):
                acc += a[t] * XE[toks[t], t, j]
            xbar[j] = acc
        z = theta[oC]
        for c in range(k):
            acc = 0.0
            for j in range(d):
                acc += xbar[j] * theta[oV + j * k + c]
            h[c] = acc
            z += acc * theta[oU + c]
        mz = -y[i] * z
        loss += max(mz, 0.0) + math.log1p(math.exp(-abs(mz)))
        dz = -y[i] / (1.0 + math.exp(-mz)) / m
        grad[oC] += dz
        for c in range(k):
            grad[oU + c] += dz * h[c]
        for j in range(d):
            acc = 0.0
            for c in range(k):
                dh = dz * theta[oU + c]
                grad[oV + j * k + c] += xbar[j] * dh
                acc += theta[oV + j * k + c] * dh
            dxbar[j] = acc
        sda = 0.0
        for t in range(T + 1):
            acc = 0.0
            tok = toks[t]
            for j in range(d):
                acc += XE[tok, t, j] * dxbar[j]
                dX[t, j] = a[t] * dxbar[j]
            da[t] = acc
            sda += a[t] * acc
        for c in range(k):
            dq[c] = 0.0
        for t in range(T + 1):
            tok = toks[t]
            ds = a[t] * (da[t] - sda)
            for c in range(k):
                dq[c] += ds * KE[tok, t, c] * rs
                dKc = ds * q[c] * rs
                for j in range(d):
                    gK[c, j] += XE[tok, t, j] * dKc
                    dX[t, j] += dKc * WKT[c, j]
        for c in range(k):
            for j in range(d):
                grad[oQ + j * k + c] += XE[0, T, j] * dq[c]
                dX[T, j] += theta[oQ + j * k + c] * dq[c]
        for t in range(T):
            tok = toks[t]
            for j in range(d):
                grad[oP + t * d + j] += dX[t, j]
                grad[oE + tok * d + j] += dX[t, j]
        for j in range(d):
            grad[oP + T * d + j] += dX[T, j]
            grad[oE + 2 * d + j] += dX[T, j]
    for j in range(d):
        for c in range(k):
            grad[oK + j * k + c] = gK[c, j]
    return loss / m


@numba.njit(parallel=True, cache=True)
def _train_kernel(theta, T, d, k, B, y, steps, lr, wd, losses):
    runs, n = theta.shape
    for r in numba.prange(runs):
        mom = np.zeros(n)
        vel = np.zeros(n)
        g = np.empty(n)
        for t in range(steps):
            losses[r, t] = _grad_one(theta[r], T, d, k, B, y, g)
            b1 = 1.0 - 0.9 ** (t + 1)
            b2 = 1.0 - 0.999 ** (t + 1)
            for i in range(n):
                mom[i] = 0.9 * mom[i] + 0.1 * g[i]
                vel[i] = 0.999 * vel[i] + 0.001 * g[i] * g[i]
                theta[r, i] -= lr * ((mom[i] / b1) / (math.sqrt(vel[i] / b2) + 1e-8) + wd * theta[r, i])


def train_attention(theta0: np.ndarray, shp: AttentionShapes, B: np.ndarray, y: np.ndarray, steps: int,
                    lr: float = 1e-3, weight_decay: float = 0.0):
    """Numba CPU twin of :func:`train_reference` (same signature and results up to rounding)."""
    theta = np.array(theta0, dtype=np.float64, copy=True)
    if theta.ndim != 2 or theta.shape[1] != shp.size:
        raise ValueError(f"argument 'theta0' must have shape (runs, {shp.size}), not {theta.shape}")
    B = np.ascontiguousarray(B, dtype=np.int64)
    if B.ndim != 2 or B.shape[1] != shp.T or (B.size and (B.min() < 0 or B.max() > 1)):
        raise ValueError(f"argument 'B' must be a 0/1 matrix with {shp.T} columns, not shape {B.shape}")
    y = np.ascontiguousarray(y, dtype=np.float64)
    if y.shape != (B.shape[0],) or not np.all(np.abs(y) == 1):
        raise ValueError(f"argument 'y' must be a vector of +-1 of length {B.shape[0]}")
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    losses = np.empty((theta.shape[0], steps))
    _train_kernel(theta, shp.T, shp.d, shp.k, B, y, steps, float(lr), float(weight_decay), losses)
    return theta, losses


def loss_and_grad_numba(theta: np.ndarray, shp: AttentionShapes, B: np.ndarray, y: np.ndarray):
    """Loss and gradient of one run by the numba kernel (for tests against the reference)."""
    g = np.empty(shp.size)
    L = _grad_one(np.ascontiguousarray(theta, dtype=np.float64), shp.T, shp.d, shp.k,
                  np.ascontiguousarray(B, dtype=np.int64), np.ascontiguousarray(y, dtype=np.float64), g)
    return L, g
