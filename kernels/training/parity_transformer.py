"""Online (streaming) Adam training of a one-layer multi-head transformer with an MLP block on sparse parities
(thesis ch. 4, Fig. 4.4 and App. A.3.2, seed 004 lines 815-822, 2917-2933).

Model (the [CLS] read-out of the chapter's 1-layer minGPT classifier, without LayerNorm and dropout; only the [CLS]
row is computed, which is exact for one layer since only the [CLS] output is read):

    x_t = E[b_t] + P[t]  (t < T),   x_T = E[2] + P[T]                    (token and position embeddings)
    o_h = softmax(K_h q_h / sqrt(k))^T V_h,  q_h = x_T W_Q^h, K_h = X W_K^h, V_h = X W_V^h   (H heads of size k)
    r   = x_T + sum_h o_h W_O^h                                            (residual stream at [CLS])
    r'  = r + gelu(r W_1 + b_1) W_2 + b_2                                  (MLP, exact erf GeLU)
    z   = r' . u + c                                                       (scalar logit)

with the logistic loss log(1 + exp(-y z)), y = +-1.  Parameters of a run in one flat float64 vector (layout
:class:`ParityShapes`); initialisation N(0, init_scale^2) for every matrix, embedding and u, zero biases and c,
from the run's seed (numpy SeedSequence).  AdamW (beta1 0.9, beta2 0.999, eps 1e-8, bias-corrected, decoupled
weight decay lr wd p).

Data (streaming, no training set): sample i of step s of the run with seed S has bits b_t = bit t of
kernels.rng.counter_u64(S, s, i) (T <= 62) and label +1 iff the bits at the positions ``support`` have an odd
sum (a sparse parity).

Two implementations with one signature: ``backend="reference"`` (numpy, batched einsums, with the loss and gradient
``loss_and_grad_reference`` checked against central finite differences in tests/kernels/test_parity_transformer.py
and the batches from ``parity_batch_reference``) and ``backend="cpu"`` (numba, ``prange`` over runs, loops only, the
independent outputs innermost over contiguous rows: 13-16 us per sample at d = 16, 4 heads, f = 64, T = 10-15);
they agree to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import prange

from kernels._checks import require_int, require_memory

from ..rng import counter_u64, counter_u64_array
from ._common import OVERFLOW, require_recording_memory, single_threaded_blas, validate_adamw_run_args, validate_seeds

__all__ = ["ParityRunsResult", "ParityShapes", "init_parity_params", "loss_and_grad_reference", "parity_batch",
           "parity_batch_reference", "parity_logits", "train_parity_runs"]


@dataclass(frozen=True)
class ParityShapes:
    T: int
    d: int
    heads: int
    k: int
    f: int

    def sizes(self) -> list[tuple[str, tuple]]:
        T, d, H, k, f = self.T, self.d, self.heads, self.k, self.f
        return [("E", (3, d)), ("P", (T + 1, d)), ("WQ", (H, d, k)), ("WK", (H, d, k)), ("WV", (H, d, k)), ("WO", (H, k, d)),
                ("W1", (d, f)), ("b1", (f,)), ("W2", (f, d)), ("b2", (d,)), ("u", (d,)), ("c", ())]

    @property
    def size(self) -> int:
        return sum(int(np.prod(s)) for _, s in self.sizes())

    def unpack(self, theta: np.ndarray) -> dict:
        out, o = {}, 0
        for name, s in self.sizes():
            n = int(np.prod(s))
            out[name] = theta[..., o:o + n].reshape(theta.shape[:-1] + s)
            o += n
        return out


_ZERO_INIT = ("b1", "b2", "c")


def init_parity_params(shp: ParityShapes, seeds, init_scale: float = 0.02) -> np.ndarray:
    """(runs, size) initial parameters: N(0, init_scale^2) entries, zero biases and c, run r from SeedSequence(seeds[r])."""
    seeds = validate_seeds(seeds)
    out = np.zeros((len(seeds), shp.size))
    for r, s in enumerate(seeds):
        rng = np.random.default_rng(np.random.SeedSequence(int(s)))
        parts = [np.zeros(int(np.prod(sz))) if name in _ZERO_INIT else rng.normal(0.0, init_scale, int(np.prod(sz)))
                 for name, sz in shp.sizes()]
        out[r] = np.concatenate(parts)
    return out


# ---------------------------------------------------------------------------------------------
# data
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True)
def _bits_into(seed, step, T, support, bits, y):  # pragma: no cover - compiled
    st = np.uint64(step)
    for i in range(bits.shape[0]):
        w = counter_u64(seed, st, np.uint64(i))
        for t in range(T):
            bits[i, t] = (w >> np.uint64(t)) & np.uint64(1)
        par = 0
        for j in range(support.shape[0]):
            par += bits[i, support[j]]
        y[i] = 1.0 if par % 2 == 1 else -1.0


def _check_support(support, T: int) -> np.ndarray:
    s = np.asarray(support)
    if s.ndim != 1 or len(s) < 1 or not np.issubdtype(s.dtype, np.integer) or s.min() < 0 or s.max() >= T or len(set(s.tolist())) != len(s):
        raise ValueError(f"argument 'support' must be distinct positions in [0, {T}), not {support!r}")
    return s.astype(np.int64)


def parity_batch(seed: int, step: int, T: int, support, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Bits (batch, T) int64 and labels (batch,) +-1 of step ``step`` of the stream ``seed`` (compiled)."""
    seed = require_int("seed", seed, min_value=0, max_value=2**64 - 1)
    step = require_int("step", step, min_value=0, max_value=2**62)
    T = require_int("T", T, min_value=2, max_value=62)
    batch = require_int("batch", batch, min_value=1, max_value=10**6)
    support = _check_support(support, T)
    bits, y = np.empty((batch, T), dtype=np.int64), np.empty(batch)
    _bits_into(np.uint64(seed), step, T, support, bits, y)
    return bits, y


def parity_batch_reference(seed: int, step: int, T: int, support, batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Reference of :func:`parity_batch`: the words from the vectorised Philox (kernels.rng.counter_u64_array)."""
    support = _check_support(support, T)
    idx = np.arange(batch, dtype=np.uint64)
    w = counter_u64_array(np.full(batch, seed, dtype=np.uint64), np.full(batch, step, dtype=np.uint64), idx)
    bits = ((w[:, None] >> np.arange(T, dtype=np.uint64)[None, :]) & np.uint64(1)).astype(np.int64)
    return bits, np.where(bits[:, support].sum(1) % 2 == 1, 1.0, -1.0)


# ---------------------------------------------------------------------------------------------
# numpy reference
# ---------------------------------------------------------------------------------------------


def _erf(x: np.ndarray) -> np.ndarray:
    """math.erf elementwise (the same calls as np.vectorize(math.erf), without its per-element overhead)."""
    x = np.asarray(x, dtype=np.float64)
    return np.fromiter(map(math.erf, x.ravel().tolist()), dtype=np.float64, count=x.size).reshape(x.shape)


def parity_logits(theta: np.ndarray, shp: ParityShapes, bits: np.ndarray) -> tuple[np.ndarray, dict]:
    """Logits z (n,) of one run on bits (n, T), and the forward cache."""
    p = shp.unpack(np.asarray(theta, dtype=np.float64))
    n = bits.shape[0]
    X = np.empty((n, shp.T + 1, shp.d))
    X[:, :shp.T] = p["E"][bits] + p["P"][:shp.T]
    X[:, shp.T] = p["E"][2] + p["P"][shp.T]
    xc = X[:, shp.T]
    q = np.einsum("nd,hdk->nhk", xc, p["WQ"])
    if n and 0 <= bits.min() and bits.max() <= 1:
        # a row x_t = E[b_t] + P[t] takes one of two values per position: keys and values are computed for these
        # 2 (T + 1) rows (the [CLS] row twice) by the same einsum and gathered per sample; the same numbers and layout as
        # the einsum over all n (T + 1) rows (checked in tests/kernels/test_parity_transformer.py), n / 2 times less work
        Xt = np.empty((2, shp.T + 1, shp.d))
        Xt[:, :shp.T] = p["E"][:2, None, :] + p["P"][:shp.T]
        Xt[:, shp.T] = p["E"][2] + p["P"][shp.T]
        rows = np.zeros((n, shp.T + 1), dtype=np.intp)
        rows[:, :shp.T] = bits
        pos = np.arange(shp.T + 1)
        K = np.ascontiguousarray(np.einsum("ntd,hdk->nhtk", Xt, p["WK"])[rows, :, pos].transpose(0, 2, 1, 3))
        V = np.ascontiguousarray(np.einsum("ntd,hdk->nhtk", Xt, p["WV"])[rows, :, pos].transpose(0, 2, 1, 3))
    else:
        K = np.einsum("ntd,hdk->nhtk", X, p["WK"])
        V = np.einsum("ntd,hdk->nhtk", X, p["WV"])
    s = np.einsum("nhtk,nhk->nht", K, q) / math.sqrt(shp.k)
    s = s - s.max(-1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(-1, keepdims=True)
    o = np.einsum("nht,nhtk->nhk", a, V)
    r = xc + np.einsum("nhk,hkd->nd", o, p["WO"])
    pre = r @ p["W1"] + p["b1"]
    g = 0.5 * pre * (1.0 + _erf(pre / math.sqrt(2.0)))
    r2 = r + g @ p["W2"] + p["b2"]
    z = r2 @ p["u"] + p["c"]
    return z, {"p": p, "X": X, "q": q, "K": K, "V": V, "a": a, "o": o, "r": r, "pre": pre, "g": g, "r2": r2}


def loss_and_grad_reference(theta: np.ndarray, shp: ParityShapes, bits: np.ndarray, y: np.ndarray) -> tuple[float, np.ndarray]:
    """Mean logistic loss of one run on (bits, y) and its gradient (flat, the layout of ParityShapes)."""
    z, cch = parity_logits(theta, shp, bits)
    p, X, q, K, V, a, o, r, pre, g, r2 = (cch[key] for key in ("p", "X", "q", "K", "V", "a", "o", "r", "pre", "g", "r2"))
    n, T = bits.shape
    m = -y * z
    loss = float(np.mean(np.logaddexp(0.0, m)))
    dz = -y / (1.0 + np.exp(-m)) / n
    G = {}
    G["u"] = r2.T @ dz
    G["c"] = np.array(dz.sum())
    dr2 = dz[:, None] * p["u"][None, :]
    G["W2"] = g.T @ dr2
    G["b2"] = dr2.sum(0)
    dg = dr2 @ p["W2"].T
    dpre = dg * (0.5 * (1.0 + _erf(pre / math.sqrt(2.0))) + pre * np.exp(-0.5 * pre * pre) / math.sqrt(2.0 * math.pi))
    G["W1"] = r.T @ dpre
    G["b1"] = dpre.sum(0)
    dr = dr2 + dpre @ p["W1"].T
    do = np.einsum("nd,hkd->nhk", dr, p["WO"])
    G["WO"] = np.einsum("nhk,nd->hkd", o, dr)
    da = np.einsum("nhtk,nhk->nht", V, do)
    dV = a[..., None] * do[:, :, None, :]
    ds = a * (da - (a * da).sum(-1, keepdims=True)) / math.sqrt(shp.k)
    dq = np.einsum("nht,nhtk->nhk", ds, K)
    dK = ds[..., None] * q[:, :, None, :]
    xc = X[:, T]
    G["WQ"] = np.einsum("nd,nhk->hdk", xc, dq)
    G["WK"] = np.einsum("ntd,nhtk->hdk", X, dK)
    G["WV"] = np.einsum("ntd,nhtk->hdk", X, dV)
    dX = np.einsum("nhtk,hdk->ntd", dK, p["WK"]) + np.einsum("nhtk,hdk->ntd", dV, p["WV"])
    dX[:, T] += np.einsum("nhk,hdk->nd", dq, p["WQ"]) + dr
    G["P"] = dX.sum(0)
    G["E"] = np.zeros((3, shp.d))
    np.add.at(G["E"], bits.ravel(), dX[:, :T].reshape(-1, shp.d))
    G["E"][2] += dX[:, T].sum(0)
    return loss, np.concatenate([np.asarray(G[name]).ravel() for name, _ in shp.sizes()])


def _accuracy_and_loss(theta, shp, bits, y):
    z, _ = parity_logits(theta, shp, bits)
    return float(np.mean(np.sign(z) == y)), float(np.mean(np.logaddexp(0.0, -y * z)))


# ---------------------------------------------------------------------------------------------
# numba CPU kernel
# ---------------------------------------------------------------------------------------------


@nb.njit(cache=True, error_model="numpy")
def _offsets(T, d, H, k, f):  # pragma: no cover - compiled
    o = np.zeros(13, dtype=np.int64)
    sizes = (3 * d, (T + 1) * d, H * d * k, H * d * k, H * d * k, H * k * d, d * f, f, f * d, d, d, 1)
    for i in range(12):
        o[i + 1] = o[i] + sizes[i]
    return o


# The kernel computes every output entry with the same floating-point operations in the same order as plain loops over
# the parameter layout would (each sum from 0.0 over its index in increasing order, the per-sample terms of a gradient
# entry added in sample order); the loops are nested so that the independent outputs run innermost over contiguous
# rows (vectorised), reading per-step transposed copies of the weights (``_step_layouts``) and accumulating the WQ, WK,
# WV gradients in transposed buffers that ``_scatter_qkv_grads`` writes into g once per step.


@nb.njit(cache=True, error_model="numpy")
def _step_layouts(th, o, H, d, k, f, WJ, WT, W1T, W2T):  # pragma: no cover - compiled
    """Per-step copies of the weights: WJ[m, j, h k + c] and WT[m, h, c, j] = W_m[h, j, c] for m = Q, K, V (the
    forward's rows over all heads, the backward's rows over j); W1T[i, j] = W1[j, i]; W2T[j, i] = W2[i, j]."""
    for m in range(3):
        om = o[2 + m]
        for h in range(H):
            for j in range(d):
                for c in range(k):
                    w = th[om + (h * d + j) * k + c]
                    WJ[m, j, h * k + c] = w
                    WT[m, h, c, j] = w
    f0, f2 = o[6], o[8]
    for j in range(d):
        for i in range(f):
            W1T[i, j] = th[f0 + j * f + i]
            W2T[j, i] = th[f2 + i * d + j]


@nb.njit(cache=True, error_model="numpy")
def _scatter_qkv_grads(g, o, H, d, k, GT):  # pragma: no cover - compiled
    """g[WQ, WK, WV entries] = GT[m, h, c, j] (g is 0 there and GT summed from 0.0 in the same order); GT reset to 0."""
    for m in range(3):
        om = o[2 + m]
        for h in range(H):
            for j in range(d):
                for c in range(k):
                    g[om + (h * d + j) * k + c] = GT[m, h, c, j]
    GT.fill(0.0)


@nb.njit(cache=True, error_model="numpy")
def _add_outer(g, off, u, v):  # pragma: no cover - compiled
    """g[off + i len(v) + j] += u[i] v[j]: the gradient of a (len(u), len(v)) row-major weight block, row by row."""
    n = v.shape[0]
    for i in range(u.shape[0]):
        ui, row = u[i], g[off + i * n:off + (i + 1) * n]
        for j in range(n):
            row[j] += ui * v[j]


@nb.njit(cache=True, error_model="numpy")
def _vec_rows(acc, v, M):  # pragma: no cover - compiled
    """acc[i] = sum_j v[j] M[j, i] for i < M.shape[1], each sum over j in order (the rows of M innermost-contiguous)."""
    m = M.shape[1]
    for i in range(m):
        acc[i] = 0.0
    for j in range(M.shape[0]):
        vj, row = v[j], M[j]
        for i in range(m):
            acc[i] += vj * row[i]


@nb.njit(cache=True, error_model="numpy")
def _grad_one(th, g, bits, y, T, d, H, k, f, o, X, Q, KV, A, O, r, pre, erf, gg, r2, dX, dr, dpre, dO, dS, acc, WJ, WT, W1T, W2T,
              GT):  # pragma: no cover - compiled
    """Loss of one sample (bits (T,), label y) and its gradient ADDED to g (unscaled; the WQ, WK, WV parts to GT
    (3, H, k, d)); WJ, WT, W1T, W2T from ``_step_layouts``; KV (2, T + 1, H k) holds the keys and values of all heads,
    erf (f) the erf of the MLP's pre-activations / sqrt(2) (shared by the GeLU and its derivative); the other arrays are
    workspace as named, acc (max(d, f))."""
    oE, oP, oO, oW1, ob1, oW2, ob2, ou, oc = o[0], o[1], o[5], o[6], o[7], o[8], o[9], o[10], o[11]
    sq = math.sqrt(k)
    Hk = H * k
    for t in range(T + 1):
        tok = bits[t] if t < T else 2
        for j in range(d):
            X[t, j] = th[oE + tok * d + j] + th[oP + t * d + j]
    for j in range(d):
        r[j] = X[T, j]
    # queries of the [CLS] row, keys and values of every row, all heads at once: row[h k + c] = sum_j X[t, j] W[h, j, c]
    for m in range(3):
        for t in range(0 if m else T, T + 1):
            row = Q if m == 0 else KV[m - 1, t]
            for hc in range(Hk):
                row[hc] = 0.0
            for j in range(d):
                x, w = X[t, j], WJ[m, j]
                for hc in range(Hk):
                    row[hc] += x * w[hc]
    for h in range(H):
        hk = h * k
        mx = -np.inf
        for t in range(T + 1):
            kr = KV[0, t]
            sc = 0.0
            for c in range(k):
                sc += kr[hk + c] * Q[hk + c]
            sc /= sq
            A[h, t] = sc
            mx = max(mx, sc)
        tot = 0.0
        for t in range(T + 1):
            A[h, t] = math.exp(A[h, t] - mx)
            tot += A[h, t]
        for t in range(T + 1):
            A[h, t] /= tot
        for c in range(k):
            a = 0.0
            for t in range(T + 1):
                a += A[h, t] * KV[1, t, hk + c]
            O[h, c] = a
        for j in range(d):
            acc[j] = 0.0
        for c in range(k):
            ohc, wo = O[h, c], th[oO + (hk + c) * d:oO + (hk + c + 1) * d]
            for j in range(d):
                acc[j] += ohc * wo[j]
        for j in range(d):
            r[j] += acc[j]
    for i in range(f):
        pre[i] = th[ob1 + i]
    for j in range(d):
        rj, w1 = r[j], th[oW1 + j * f:oW1 + (j + 1) * f]
        for i in range(f):
            pre[i] += rj * w1[i]
    for i in range(f):
        erf[i] = math.erf(pre[i] / math.sqrt(2.0))
        gg[i] = 0.5 * pre[i] * (1.0 + erf[i])
    for j in range(d):
        r2[j] = r[j] + th[ob2 + j]
    for i in range(f):
        gi, w2 = gg[i], th[oW2 + i * d:oW2 + (i + 1) * d]
        for j in range(d):
            r2[j] += gi * w2[j]
    z = th[oc]
    for j in range(d):
        z += r2[j] * th[ou + j]
    m = -y * z
    loss = max(m, 0.0) + math.log1p(math.exp(-abs(m)))
    dz = -y / (1.0 + math.exp(-m))
    g[oc] += dz
    for j in range(d):
        g[ou + j] += dz * r2[j]
        dr[j] = dz * th[ou + j]
        g[ob2 + j] += dr[j]
    _add_outer(g, oW2, gg, dr)
    _vec_rows(acc, dr, W2T)
    for i in range(f):
        x = pre[i]
        dpre[i] = acc[i] * (0.5 * (1.0 + erf[i]) + x * math.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi))
        g[ob1 + i] += dpre[i]
    _add_outer(g, oW1, r, dpre)
    _vec_rows(acc, dpre, W1T)
    for j in range(d):
        dr[j] += acc[j]
    for t in range(T + 1):
        for j in range(d):
            dX[t, j] = 0.0
    for j in range(d):
        dX[T, j] += dr[j]
    GQ, GK, GV = GT[0], GT[1], GT[2]
    WQT, WKT, WVT = WT[0], WT[1], WT[2]
    xT, dxT = X[T], dX[T]
    for h in range(H):
        hk = h * k
        for c in range(k):
            ohc, gwo = O[h, c], g[oO + (hk + c) * d:oO + (hk + c + 1) * d]
            for j in range(d):
                gwo[j] += ohc * dr[j]
        for c in range(k):
            wo = th[oO + (hk + c) * d:oO + (hk + c + 1) * d]
            a = 0.0
            for j in range(d):
                a += dr[j] * wo[j]
            dO[c] = a
        dot = 0.0
        for t in range(T + 1):
            a = 0.0
            for c in range(k):
                a += KV[1, t, hk + c] * dO[c]
            dS[t] = a
            dot += A[h, t] * a
        for t in range(T + 1):
            dS[t] = A[h, t] * (dS[t] - dot) / sq
        for c in range(k):
            dq = 0.0
            for t in range(T + 1):
                dq += dS[t] * KV[0, t, hk + c]
            gq, wq = GQ[h, c], WQT[h, c]
            for j in range(d):
                gq[j] += xT[j] * dq
                dxT[j] += dq * wq[j]
            gk, gv, wk, wv = GK[h, c], GV[h, c], WKT[h, c], WVT[h, c]
            for t in range(T + 1):
                dk = dS[t] * Q[hk + c]
                dv = A[h, t] * dO[c]
                xt, dxt = X[t], dX[t]
                for j in range(d):
                    gk[j] += xt[j] * dk
                    gv[j] += xt[j] * dv
                    dxt[j] += dk * wk[j] + dv * wv[j]
    for t in range(T + 1):
        tok = bits[t] if t < T else 2
        ge, gp, dxt = g[oE + tok * d:oE + (tok + 1) * d], g[oP + t * d:oP + (t + 1) * d], dX[t]
        for j in range(d):
            ge[j] += dxt[j]
            gp[j] += dxt[j]
    return loss


@nb.njit(parallel=True, cache=True, error_model="numpy")
def _train_runs(seeds, theta, T, d, H, k, f, support, batch, steps, lrs, wd, checkpoints, th_at, losses, diverged):  # pragma: no cover
    o = _offsets(T, d, H, k, f)
    for r in prange(seeds.shape[0]):
        n = theta.shape[1]
        th = theta[r]
        g, m1, m2 = np.zeros(n), np.zeros(n), np.zeros(n)
        bits, y = np.empty((batch, T), dtype=np.int64), np.empty(batch)
        row = np.empty(T + 1, dtype=np.int64)
        X, Q, KV = np.empty((T + 1, d)), np.empty(H * k), np.empty((2, T + 1, H * k))
        A, O, rr, pre, erf, gg, r2 = np.empty((H, T + 1)), np.empty((H, k)), np.empty(d), np.empty(f), np.empty(f), np.empty(f), np.empty(d)
        dX, dr, dpre, dO, dS, acc = np.empty((T + 1, d)), np.empty(d), np.empty(f), np.empty(k), np.empty(T + 1), np.empty(max(d, f))
        WJ, WT, W1T, W2T = np.empty((3, d, H * k)), np.empty((3, H, k, d)), np.empty((f, d)), np.empty((d, f))
        GT = np.zeros((3, H, k, d))
        ci = 0
        for step in range(steps + 1):
            if ci < checkpoints.shape[0] and checkpoints[ci] == step:
                for i in range(n):
                    th_at[r, ci, i] = th[i]
                ci += 1
            if step == steps:
                break
            _bits_into(seeds[r], step, T, support, bits, y)
            _step_layouts(th, o, H, d, k, f, WJ, WT, W1T, W2T)
            g.fill(0.0)
            loss = 0.0
            for b in range(batch):
                for t in range(T):
                    row[t] = bits[b, t]
                loss += _grad_one(th, g, row, y[b], T, d, H, k, f, o, X, Q, KV, A, O, rr, pre, erf, gg, r2, dX, dr, dpre, dO, dS, acc,
                                  WJ, WT, W1T, W2T, GT)
            _scatter_qkv_grads(g, o, H, d, k, GT)
            losses[r, step] = loss / batch
            c1 = 1.0 - 0.9 ** (step + 1)
            c2 = 1.0 - 0.999 ** (step + 1)
            ok = True
            for i in range(n):
                gi = g[i] / batch
                m1[i] = 0.9 * m1[i] + 0.1 * gi
                m2[i] = 0.999 * m2[i] + 0.001 * gi * gi
                th[i] = th[i] * (1.0 - lrs[r] * wd) - lrs[r] * ((m1[i] / c1) / (math.sqrt(m2[i] / c2) + 1e-8))
                if not abs(th[i]) <= OVERFLOW:
                    ok = False
            if not ok:
                diverged[r] = True
                break


@dataclass(frozen=True)
class ParityRunsResult:
    """Runs of :func:`train_parity_runs`: theta (R, size) final parameters, theta_at (R, C, size) at the checkpoints
    (before that step's update), train_loss (R, steps) the mean batch loss of every step, diverged (R,)."""

    shapes: ParityShapes
    theta: np.ndarray
    checkpoints: np.ndarray
    theta_at: np.ndarray
    train_loss: np.ndarray
    diverged: np.ndarray
    backend: str


def train_parity_runs(seeds, T: int, support, steps: int, *, d: int = 16, heads: int = 4, k: int = 4, f: int = 64,
                      batch: int = 256, lr=1e-3, weight_decay: float = 1e-4, init_scale: float = 0.02, checkpoints=(),
                      backend: str = "cpu") -> ParityRunsResult:
    """Streaming AdamW on the sparse parity over ``support`` (T bits), one run per seed: run r starts from
    init_parity_params(shapes, [seeds[r]], init_scale) and trains at step s on parity_batch(seeds[r], s, T, support,
    batch).  backend "cpu" (numba, prange over runs) or "reference" (numpy)."""
    seeds = validate_seeds(seeds)
    T = require_int("T", T, min_value=2, max_value=62)
    support = _check_support(support, T)
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    d = require_int("d", d, min_value=1, max_value=512)
    heads = require_int("heads", heads, min_value=1, max_value=64)
    k = require_int("k", k, min_value=1, max_value=512)
    f = require_int("f", f, min_value=1, max_value=4096)
    batch = require_int("batch", batch, min_value=1, max_value=10**6)
    runs = len(seeds)
    lrs, wd, scale, cks = validate_adamw_run_args(lr, weight_decay, init_scale, checkpoints, steps, runs, backend)
    shp = ParityShapes(T, d, heads, k, f)
    C = len(cks)
    require_recording_memory(8 * runs * (shp.size * (C + 1) + steps), f"{runs} runs x {C} checkpoints")
    require_memory("batch", batch, 8 * batch * (T + 1) * (d + 3 * heads * k) * (1 if backend == "cpu" else 8), what="the batch")
    theta = init_parity_params(shp, seeds, scale)
    th_at = np.zeros((runs, C, shp.size))
    losses = np.full((runs, steps), np.nan)
    diverged = np.zeros(runs, dtype=np.bool_)
    if backend == "cpu":
        _train_runs(seeds, theta, T, d, heads, k, f, support, batch, steps, lrs, wd, cks, th_at, losses, diverged)
    else:
        pos = {int(c): i for i, c in enumerate(cks)}
        for r in range(runs):
            th = theta[r]
            m1, m2 = np.zeros(shp.size), np.zeros(shp.size)
            for step in range(steps + 1):
                if step in pos:
                    th_at[r, pos[step]] = th
                if step == steps:
                    break
                bits, y = parity_batch_reference(int(seeds[r]), step, T, support, batch)
                losses[r, step], gr = loss_and_grad_reference(th, shp, bits, y)
                m1 = 0.9 * m1 + 0.1 * gr
                m2 = 0.999 * m2 + 0.001 * gr * gr
                th = th * (1.0 - lrs[r] * wd) - lrs[r] * ((m1 / (1.0 - 0.9 ** (step + 1))) / (np.sqrt(m2 / (1.0 - 0.999 ** (step + 1))) + 1e-8))
                if not np.all(np.abs(th) <= OVERFLOW):
                    diverged[r] = True
                    break
            theta[r] = th
    return ParityRunsResult(shp, theta, cks, th_at, losses, diverged, backend)


def evaluate_parity(theta: np.ndarray, shp: ParityShapes, bits: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(accuracy, mean logistic loss) of one run's parameters on (bits, y) (numpy forward, BLAS on one thread: the
    products are small, and OpenBLAS's idle threads spin; 2-3x less CPU time on the 2-core machine)."""
    with single_threaded_blas():
        return _accuracy_and_loss(theta, shp, bits, y)
