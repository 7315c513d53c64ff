"""Attention-only transformers for ICL of Markov chains (thesis ch. 8, seed 004 lines 1756-1830).

* ``transformer_forward`` (catalog K5): eqs. (8.4)-(8.5) literally, single head per layer,
  TF(x) = P o (Attn_n + I) o ... o (Attn_1 + I)(e_x), Attn(z) = softmax(mask(A)) z W_V with
  A_ij = (z_i W_Q)(z_j W_K + v_{i-j+1})^T / sqrt(d) for j <= i (relative position embeddings v_r,
  r = i - j + 1).  ``hard=True`` replaces the softmax by uniform attention on the argmax set (the
  c -> infinity limit), evaluated exactly in Fractions for integer-valued constructions.
* ``bigram_construction``: the construction of Proposition 8.2 (d = 3k; layer 1 attends to the
  previous token, layer 2 to the successors of earlier occurrences of the current token).
* ``margin_loss``: the multiclass margin loss (8.7) l_M = (1/k) sum_{i != y} max(0, Delta + f_i - f_y).
* The "softmax minimal model" used for the training experiments (the figures' variant of (8.8), see
  the catalog pitfalls): layer 1 mixes previous tokens with position weights softmax(v) over the
  offsets r = 1..s available at position s, h_s = sum_r softmax_r(v) e_{x_{s-r+1}}; layer 2 attends
  from p to t' <= p with scores e_{x_p}^T W h_{t'}; the output logits are beta * sum_t' att_{p,t'} e_{x_t'}.
  ``softmax_minimal_loss_grad`` gives the mean cross-entropy over all positions and its exact
  gradient (hand-written backward; tested against finite differences), ``train_softmax_minimal`` runs
  seeded mini-batch Adam/SGD on freshly sampled ICL-MC chains.
* ``train_softmax_minimal_runs``: many runs of that trainer at once (one explicit seed per run) on the
  counter-based ICL-MC stream ``icl_batch(seed, step, ...)`` (a pure function of its position, see
  kernels.training._induction_cpu).  backend="cpu": the numba kernel (``prange`` over runs, loops per
  sequence); backend="reference": ``train_softmax_minimal`` itself, run after run, fed the same batches
  (the one numpy reference; the twins agree to rounding, tests/induction_heads).
* ``train_transformer_runs``: the same for the attention-only transformer (``train_transformer`` is
  the reference; the numba twin packs the parameters into one flat vector per run).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from kernels._checks import require_finite, require_int, require_memory

from . import _einsum_order, _induction_cpu, _ngram_heads_cpu
from ._common import (
    per_run_reals,
    require_recording_memory,
    validate_adamw_run_args,
    validate_checkpoints,
    validate_seeds,
)

__all__ = [
    "Layer",
    "MinimalRunsResult",
    "TransformerRunsResult",
    "bigram_construction",
    "bigram_limit",
    "icl_batch",
    "init_transformer",
    "margin_loss",
    "softmax_minimal_forward",
    "softmax_minimal_loss_grad",
    "train_softmax_minimal",
    "train_softmax_minimal_runs",
    "train_transformer",
    "train_transformer_runs",
    "transformer_forward",
    "transformer_logits",
    "transformer_loss_grad",
]


@dataclass(frozen=True)
class Layer:
    """One attention layer: W_Q, W_K, W_V (d x d) and relative position embeddings pos (t_max x d), row r-1 = v_r."""

    WQ: np.ndarray
    WK: np.ndarray
    WV: np.ndarray
    pos: np.ndarray


def _fractions(a: np.ndarray) -> np.ndarray:
    """Exact Fraction copy of a float array (every float is a dyadic rational)."""
    out = np.empty(a.shape, dtype=object)
    for idx in np.ndindex(*a.shape):
        out[idx] = Fraction(float(a[idx]))
    return out


def _scores(z: np.ndarray, L: Layer) -> np.ndarray:
    _, t, d = z.shape
    if L.pos.shape[0] < t:
        raise ValueError(f"argument 'layers' has position embeddings for t <= {L.pos.shape[0]}, not t = {t}")
    q = z @ L.WQ  # (n, t, d)
    kk = z @ L.WK
    idx = np.arange(t)
    R = idx[:, None] - idx[None, :]  # i - j
    posm = L.pos[np.clip(R, 0, t - 1)]  # (t, t, d): v_{i-j+1}
    A = np.einsum("nid,njd->nij", q, kk) + np.einsum("nid,ijd->nij", q, posm)
    return A / math.sqrt(d), R >= 0


def transformer_forward(x: np.ndarray, k: int, layers: list[Layer], readout: np.ndarray, *, hard: bool = False,
                        return_attention: bool = False):
    """Run the attention-only transformer on sequences x (n, t) with one-hot embeddings in the first k
    of d coordinates.  Returns the outputs (n, t, out) (and the attention matrices if asked)."""
    x = np.asarray(x)
    if x.ndim != 2:
        raise ValueError(f"argument 'x' must have shape (n, t), not {x.shape}")
    k = require_int("k", k, min_value=2, max_value=1024)
    n, t = x.shape
    d = layers[0].WQ.shape[0]
    if d < k:
        raise ValueError(f"argument 'layers' must have width d >= k = {k}, not {d}")
    require_memory("x", x.shape, 8 * n * t * (t + 2 * d) * 2, what="attention matrices")
    z = np.zeros((n, t, d))
    z[np.arange(n)[:, None], np.arange(t)[None, :], x] = 1.0
    atts = []
    if hard:
        z = _fractions(z)
    for L in layers:
        if hard:
            zf = np.vectorize(float, otypes=[float])(z)
            A, mask = _scores(zf, L)
            A = np.where(mask, A, -np.inf)
            top = A.max(-1, keepdims=True)
            sel = np.isclose(A, top, rtol=0, atol=1e-9) & mask
            cnt = sel.sum(-1)
            att = np.empty(sel.shape, dtype=object)
            for idx in np.ndindex(*sel.shape):
                att[idx] = Fraction(int(sel[idx]), int(cnt[idx[:-1]]))
            zv = np.einsum("njd,de->nje", z, _fractions(L.WV))
            z = z + np.einsum("nij,njd->nid", att, zv)
        else:
            A, mask = _scores(z, L)
            A = np.where(mask, A, -np.inf)
            A = A - A.max(-1, keepdims=True)
            att = np.exp(A)
            att /= att.sum(-1, keepdims=True)
            z = z + att @ (z @ L.WV)
        atts.append(att)
    out = np.einsum("ntd,de->nte", z, _fractions(readout) if hard else readout)
    return (out, atts) if return_attention else out


def bigram_construction(k: int, t_max: int, c: float, *, offset: int = 2, layer2_scale: float | None = None) -> tuple[list[Layer], np.ndarray]:
    """Proposition 8.2: d = 3k, blocks (current token | previous token | output).

    Layer 1: W_Q = c I on block 1 (rows) -> block 1 (cols), W_K = 0, W_V copies block 1 to block 2,
    v_r = delta_{r, offset} (1_k, 0, 0): A_ij = (c/sqrt d) 1[j = i - offset + 1].  Layer 2: W_Q = c I
    (block 1), W_K maps block 2 to block 1 with c I (score c^2/sqrt d 1[x_{j-1} = x_i]; layer2_scale
    replaces the product c * c), W_V copies block 1 to block 3, v = 0.  Readout: block 3."""
    k = require_int("k", k, min_value=2, max_value=64)
    t_max = require_int("t_max", t_max, min_value=1, max_value=100_000)
    offset = require_int("offset", offset, min_value=1, max_value=64)
    d = 3 * k
    I = np.eye(k)
    Z = np.zeros((d, d))
    WQ1, WK1, WV1 = Z.copy(), Z.copy(), Z.copy()
    WQ1[:k, :k] = c * I
    WV1[:k, k:2 * k] = I
    pos1 = np.zeros((max(t_max, offset), d))
    pos1[offset - 1, :k] = 1.0
    WQ2, WK2, WV2 = Z.copy(), Z.copy(), Z.copy()
    s = c * c if layer2_scale is None else layer2_scale
    WQ2[:k, :k] = I * (c if layer2_scale is None else 1.0)
    WK2[k:2 * k, :k] = I * (c if layer2_scale is None else s)
    WV2[:k, 2 * k:] = I
    layers = [Layer(WQ1, WK1, WV1, pos1), Layer(WQ2, WK2, WV2, np.zeros((max(t_max, offset), d)))]
    readout = np.zeros((d, k))
    readout[2 * k:, :] = I
    return layers, readout


def bigram_limit(x, k: int, *, x0_convention: bool = True, normalise: bool = True) -> list[list[Fraction]]:
    """The c -> infinity output of the Prop. 8.2 construction by a plain algorithm: for each i, the
    empirical successor distribution of x_i, S_i = {1 <= j <= i : x_{j-1} = x_i} with x_0 := x_1; if S_i
    is empty, the unigram frequency of x_1..x_i (uniform attention).  Exact Fractions."""
    x = [int(v) for v in x]
    out = []
    for i in range(len(x)):
        prev = [x[0] if j == 0 and x0_convention else (x[j - 1] if j > 0 else None) for j in range(i + 1)]
        S = [j for j in range(i + 1) if prev[j] == x[i]]
        if not S:
            S = list(range(i + 1))
        row = [Fraction(0)] * k
        for j in S:
            row[x[j]] += 1
        out.append([r / len(S) for r in row] if normalise else row)
    return out


def margin_loss(f: np.ndarray, y: np.ndarray, delta: float, *, norm: float | None = None) -> np.ndarray:
    """(8.7): l_M(f, y) = (1/k) sum_{i != y} max(0, Delta + f_i - f_y), per row of f (..., k); norm
    overrides the 1/k factor (for mutants)."""
    f = np.asarray(f)
    require_finite("f", f, why="the margin loss is undefined")
    require_finite("delta", delta, why="the margin loss is undefined")
    k = f.shape[-1]
    fy = np.take_along_axis(f, np.asarray(y)[..., None], -1)
    h = np.maximum(0, delta + f - fy)
    h = np.where(np.arange(k) == np.asarray(y)[..., None], 0, h)
    return h.sum(-1) * (Fraction(1, k) if norm is None else norm)


# ---------------------------------------------------------------------------------------------
# the softmax minimal model (training experiments)
# ---------------------------------------------------------------------------------------------


#: numba twins of the einsums of the softmax minimal model (kernels.training._einsum_order), bit for bit for k = 2
_EINSUM_TWINS = {"ij,njk->nik": _einsum_order.ij_njk_nik, "npk,nqk->npq": _einsum_order._dot_rows_sse,
                 "npq,nqk->npk": _einsum_order.npq_nqk_npk, "npq,npk->nqk": _einsum_order._sum_outer_seq,
                 "npi,npk->ik": _einsum_order.npi_npk_ik, "nik,njk->ij": _einsum_order.nik_njk_ij}


def _einsum(spec: str, a: np.ndarray, b: np.ndarray, k: int) -> np.ndarray:
    """np.einsum(spec, a, b), bit for bit: for k = 2 symbols and float64 operands by its numba twin in
    kernels.training._einsum_order (the same products summed in the same order, tested against np.einsum;
    the order of np.einsum's inner loop is pinned down for k = 2 only), else by np.einsum itself."""
    if k == 2 and a.dtype == np.float64 and b.dtype == np.float64:
        return _EINSUM_TWINS[spec](a, b)
    return np.einsum(spec, a, b)


def _masked_softmax(S: np.ndarray, mask: np.ndarray) -> np.ndarray:
    S = np.where(mask, S, -np.inf)  # a new array: the rest in place (the same operations, fewer temporaries)
    S -= S.max(-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(-1, keepdims=True)
    return S


def softmax_minimal_forward(x: np.ndarray, k: int, W: np.ndarray, v: np.ndarray, beta: float):
    """Forward pass; returns (logits (n, t, k), cache).  x (n, t) integer tokens."""
    _, t = x.shape
    E = np.eye(k)[x]  # (n, t, k)
    idx = np.arange(t)
    R = idx[:, None] - idx[None, :]  # s - s'
    m1 = R >= 0
    V = np.where(m1, v[np.clip(R, 0, t - 1)], 0.0)  # V[s, s'] = v_{s-s'+1}
    a1 = _masked_softmax(np.broadcast_to(V, (t, t)), m1)  # (t, t) position weights, row s
    H = _einsum("ij,njk->nik", a1, E, k)  # h_s
    Q = E @ W  # (n, t, k): e_{x_p}^T W
    S2 = _einsum("npk,nqk->npq", Q, H, k)
    a2 = _masked_softmax(S2, m1[None])
    mix = a2 @ E  # (n, t, k)
    logits = beta * mix
    return logits, (E, a1, H, Q, a2, mix, m1)


def softmax_minimal_loss_grad(x: np.ndarray, y: np.ndarray, k: int, W: np.ndarray, v: np.ndarray, beta: float):
    """Mean cross-entropy of predicting y (n, t) (y_p = x_{p+1}) from x (n, t), and its gradient
    (dW, dv, dbeta)."""
    n, t = x.shape
    logits, (E, a1, H, Q, a2, mix, m1) = softmax_minimal_forward(x, k, W, v, beta)
    lg = logits - logits.max(-1, keepdims=True)
    logp = lg - np.log(np.exp(lg).sum(-1, keepdims=True))
    Y = np.eye(k)[y]
    loss = -(Y * logp).sum() / (n * t)
    G = (np.exp(logp) - Y) / (n * t)  # dL/dlogits
    dbeta = float((G * mix).sum())
    dmix = beta * G
    da2 = _einsum("npk,nqk->npq", dmix, E, k)
    dS2 = a2 * (da2 - (da2 * a2).sum(-1, keepdims=True))
    dQ = _einsum("npq,nqk->npk", dS2, H, k)
    dH = _einsum("npq,npk->nqk", dS2, Q, k)
    dW = _einsum("npi,npk->ik", E, dQ, k)
    da1 = _einsum("nik,njk->ij", dH, E, k)
    dV = a1 * (da1 - (da1 * a1).sum(-1, keepdims=True))
    idx = np.arange(t)
    R = idx[:, None] - idx[None, :]
    dv = np.bincount(R[m1], weights=dV[m1], minlength=t)[: len(v)]
    if len(v) > t:
        dv = np.concatenate([dv, np.zeros(len(v) - t)])
    return float(loss), dW, dv, dbeta


def train_softmax_minimal(rng: np.random.Generator, sample_batch, k: int, t: int, steps: int, *, batch: int = 64,
                          lr: float = 1e-2, eval_every: int = 50, evaluate=None, init_beta: float = 0.0):
    """Seeded Adam training of the softmax minimal model from W = 0, v = 0 (uniform position weights),
    beta = init_beta.  sample_batch(rng, batch) -> x (batch, t + 1).  evaluate(W, v, beta) is called every
    eval_every steps; returns (params, list of (step, evaluate(...)))."""
    k = require_int("k", k, min_value=2, max_value=64)
    t = require_int("t", t, min_value=2, max_value=2000)
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    W, v, beta = np.zeros((k, k)), np.zeros(t), float(init_beta)
    mom = [np.zeros_like(W), np.zeros_like(v), 0.0]
    sq = [np.zeros_like(W), np.zeros_like(v), 0.0]
    b1, b2, eps = 0.9, 0.999, 1e-8
    hist = []
    for step in range(steps + 1):
        if evaluate is not None and step % eval_every == 0:
            hist.append((step, evaluate(W, v, beta)))
        if step == steps:
            break
        xb = sample_batch(rng, batch)
        _, dW, dv, db = softmax_minimal_loss_grad(xb[:, :-1], xb[:, 1:], k, W, v, beta)
        out = []
        for i, (p, g) in enumerate(((W, dW), (v, dv), (beta, db))):
            mom[i] = b1 * mom[i] + (1 - b1) * g
            sq[i] = b2 * sq[i] + (1 - b2) * g * g
            mh = mom[i] / (1 - b1 ** (step + 1))
            vh = sq[i] / (1 - b2 ** (step + 1))
            out.append(p - lr * mh / (np.sqrt(vh) + eps))
        W, v, beta = out[0], out[1], float(out[2])
    return (W, v, beta), hist


def icl_batch(seed: int, step: int, k: int, batch: int, length: int) -> np.ndarray:
    """The ICL-MC batch number ``step`` of the counter-based stream ``seed``: (batch, length) int64 chains,
    each with its own Dirichlet(1) transition matrix and a stationary first state (compiled; a pure
    function of (seed, step), so every backend and every run order sees the same data)."""
    seed = require_int("seed", seed, min_value=0, max_value=2**64 - 1)
    step = require_int("step", step, min_value=0, max_value=2**62)
    k = require_int("k", k, min_value=2, max_value=64)
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    length = require_int("length", length, min_value=1, max_value=100_000)
    require_memory("batch", (batch, length), 8 * batch * length, what="the chains")
    return _induction_cpu.icl_batch_jit(np.uint64(seed), step, k, batch, length)


@dataclass(frozen=True)
class MinimalRunsResult:
    """Runs of ``train_softmax_minimal_runs``: final W (R, k, k), v (R, t), beta (R,); the parameters at
    the checkpoint steps W_at (R, C, k, k), v_at (R, C, t), beta_at (R, C) (before that step's update);
    train_loss (R, steps) the batch loss of every step (NaN for the reference backend, which does not
    record it); diverged (R,) a parameter left [-OVERFLOW, OVERFLOW] (the run stopped there)."""

    W: np.ndarray
    v: np.ndarray
    beta: np.ndarray
    checkpoints: np.ndarray
    W_at: np.ndarray
    v_at: np.ndarray
    beta_at: np.ndarray
    train_loss: np.ndarray
    diverged: np.ndarray
    backend: str


def train_softmax_minimal_runs(seeds, k: int, t: int, steps: int, *, batch: int = 64, lr=1e-2, init_beta: float = 0.0,
                               checkpoints=(), backend: str = "cpu") -> MinimalRunsResult:
    """Adam training of the softmax minimal model, one run per seed (seeds: 1-D integers in [0, 2^64)),
    lr shared or one per run; step s of run r trains on icl_batch(seeds[r], s, k, batch, t + 1).
    backend "cpu" (numba, prange over runs) or "reference" (``train_softmax_minimal``)."""
    seeds = validate_seeds(seeds)
    k = require_int("k", k, min_value=2, max_value=64)
    t = require_int("t", t, min_value=2, max_value=2000)
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    runs = len(seeds)
    lrs = per_run_reals("lr", lr, runs, lo=0.0, hi=10.0, lo_open=True)
    init_beta = float(per_run_reals("init_beta", init_beta, 1, lo=-1e6, hi=1e6)[0])
    cks = validate_checkpoints(checkpoints, steps)
    if backend not in ("cpu", "reference"):
        raise ValueError(f"argument 'backend' must be 'cpu' or 'reference', not {backend!r}")
    C = len(cks)
    require_recording_memory(8 * runs * (C * (k * k + t + 1) + steps), f"{runs} runs x {C} checkpoints")
    require_memory("batch", (batch, t), 8 * (batch * (t + 1) + 3 * t * t) * (2 if backend == "cpu" else 8 * k), what="the batch workspace")
    W = np.zeros((runs, k, k))
    v = np.zeros((runs, t))
    beta = np.zeros(runs)
    W_at, v_at, beta_at = np.zeros((runs, C, k, k)), np.zeros((runs, C, t)), np.zeros((runs, C))
    losses = np.full((runs, steps), np.nan)
    diverged = np.zeros(runs, dtype=np.bool_)
    if backend == "cpu":
        _induction_cpu.train_minimal_runs(seeds, k, t, steps, batch, lrs, init_beta, cks, W, v, beta, W_at, v_at, beta_at,
                                          losses, diverged)
    else:
        for r in range(runs):
            counter = [0]
            pos = {int(c): i for i, c in enumerate(cks)}

            def sample(_rng, b, r=r, counter=counter):
                xb = _induction_cpu.icl_batch_jit(seeds[r], counter[0], k, b, t + 1)
                counter[0] += 1
                return xb

            def record(W_, v_, b_, r=r, counter=counter, pos=pos):
                i = pos.get(counter[0])
                if i is not None:
                    W_at[r, i], v_at[r, i], beta_at[r, i] = W_, v_, b_

            (W[r], v[r], beta[r]), _ = train_softmax_minimal(None, sample, k, t, steps, batch=batch, lr=float(lrs[r]), eval_every=1,
                                                             evaluate=record, init_beta=init_beta)
    return MinimalRunsResult(W, v, beta, cks, W_at, v_at, beta_at, losses, diverged, backend)


# ---------------------------------------------------------------------------------------------
# the 2-layer attention-only transformer: loss, exact gradient and a seeded Adam trainer
# ---------------------------------------------------------------------------------------------


def init_transformer(rng: np.random.Generator, k: int, d: int, t: int, layers: int = 2, scale: float = 0.02) -> dict[str, np.ndarray]:
    """Parameters {emb (k, d), WQ{l}, WK{l}, WV{l} (d, d), pos{l} (t, d), readout (d, k)}, N(0, scale^2)."""
    k = require_int("k", k, min_value=2, max_value=64)
    d = require_int("d", d, min_value=1, max_value=1024)
    t = require_int("t", t, min_value=1, max_value=4096)
    layers = require_int("layers", layers, min_value=1, max_value=8)
    p = {"emb": rng.normal(0, scale, (k, d)) + np.eye(k, d), "readout": rng.normal(0, scale, (d, k))}
    for li in range(layers):
        for name in ("WQ", "WK", "WV"):
            p[f"{name}{li}"] = rng.normal(0, scale, (d, d))
        p[f"pos{li}"] = rng.normal(0, scale, (t, d))
    return p


def _n_layers(params: dict) -> int:
    return sum(1 for key in params if key.startswith("WQ"))


def transformer_logits(params: dict, x: np.ndarray) -> tuple[np.ndarray, list]:
    """Logits (n, t, k) of the trainable transformer (8.4)-(8.5) with a learned embedding, and the cache."""
    _, t = x.shape
    z = params["emb"][x]
    d = z.shape[-1]
    idx = np.arange(t)
    R = idx[:, None] - idx[None, :]
    mask = R >= 0
    cache = []
    for li in range(_n_layers(params)):
        WQ, WK, WV, pos = params[f"WQ{li}"], params[f"WK{li}"], params[f"WV{li}"], params[f"pos{li}"]
        q, kk, zv = z @ WQ, z @ WK, z @ WV
        S = (np.einsum("nid,njd->nij", q, kk) + np.einsum("nid,ijd->nij", q, pos[np.clip(R, 0, t - 1)])) / math.sqrt(d)
        att = _masked_softmax(S, mask[None])
        cache.append((z, q, kk, zv, att))
        z = z + att @ zv
    return z @ params["readout"], cache + [z]


def transformer_loss_grad(params: dict, x: np.ndarray, y: np.ndarray) -> tuple[float, dict]:
    """Mean cross-entropy over all positions (y_p = x_{p+1}) and its exact gradient (hand-written backward)."""
    n, t = x.shape
    logits, cache = transformer_logits(params, x)
    k = logits.shape[-1]
    lg = logits - logits.max(-1, keepdims=True)
    logp = lg - np.log(np.exp(lg).sum(-1, keepdims=True))
    Y = np.eye(k)[y]
    loss = -(Y * logp).sum() / (n * t)
    G = (np.exp(logp) - Y) / (n * t)
    zL = cache[-1]
    d = zL.shape[-1]
    grads = {"readout": np.einsum("ntd,ntk->dk", zL, G)}
    dz = G @ params["readout"].T
    idx = np.arange(t)
    R = idx[:, None] - idx[None, :]
    for li in reversed(range(_n_layers(params))):
        z, q, kk, zv, att = cache[li]
        WQ, WK, WV, pos = params[f"WQ{li}"], params[f"WK{li}"], params[f"WV{li}"], params[f"pos{li}"]
        do = dz
        datt = np.einsum("nid,njd->nij", do, zv)
        dzv = np.einsum("nij,nid->njd", att, do)
        dS = att * (datt - (datt * att).sum(-1, keepdims=True)) / math.sqrt(d)
        keys = kk[:, None, :, :] + pos[np.clip(R, 0, t - 1)][None]  # (n, i, j, d)
        keys = np.where((R >= 0)[None, :, :, None], keys, 0.0)
        dq = np.einsum("nij,nijd->nid", dS, keys)
        dkk = np.einsum("nij,nid->njd", dS, q)
        dpos = np.zeros_like(pos)
        for r in range(t):
            dpos[r] = np.einsum("ni,nid->d", np.diagonal(dS, offset=-r, axis1=1, axis2=2), q[:, r:, :])
        grads[f"WV{li}"] = np.einsum("ntd,nte->de", z, dzv)
        grads[f"WQ{li}"] = np.einsum("ntd,nte->de", z, dq)
        grads[f"WK{li}"] = np.einsum("ntd,nte->de", z, dkk)
        grads[f"pos{li}"] = dpos
        dz = dz + dzv @ WV.T + dq @ WQ.T + dkk @ WK.T
    grads["emb"] = np.zeros_like(params["emb"])
    np.add.at(grads["emb"], x.ravel(), dz.reshape(-1, d))
    return float(loss), grads


def train_transformer(rng: np.random.Generator, sample_batch, params: dict, steps: int, *, batch: int = 64, lr: float = 1e-3,
                      weight_decay: float = 0.0, eval_every: int = 100, evaluate=None):
    """Seeded AdamW on fresh batches sample_batch(rng, batch) -> x (batch, t + 1); returns (params, history)."""
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    params = {key: val.copy() for key, val in params.items()}
    m = {key: np.zeros_like(val) for key, val in params.items()}
    s = {key: np.zeros_like(val) for key, val in params.items()}
    hist = []
    for step in range(steps + 1):
        if evaluate is not None and step % eval_every == 0:
            hist.append((step, evaluate(params)))
        if step == steps:
            break
        xb = sample_batch(rng, batch)
        _, g = transformer_loss_grad(params, xb[:, :-1], xb[:, 1:])
        for key in params:
            m[key] = 0.9 * m[key] + 0.1 * g[key]
            s[key] = 0.999 * s[key] + 0.001 * g[key] ** 2
            upd = (m[key] / (1 - 0.9 ** (step + 1))) / (np.sqrt(s[key] / (1 - 0.999 ** (step + 1))) + 1e-8)
            params[key] = params[key] * (1 - lr * weight_decay) - lr * upd
    return params, hist


_TF_KEYS = ("WQ", "WK", "WV", "pos")


def _tf_shapes(k: int, d: int, t: int, layers: int) -> list[tuple[str, tuple[int, int]]]:
    """The flat layout of kernels.training._induction_cpu: emb, readout, then WQ, WK, WV, pos per layer."""
    out = [("emb", (k, d)), ("readout", (d, k))]
    for li in range(layers):
        out += [(f"{name}{li}", (t, d) if name == "pos" else (d, d)) for name in _TF_KEYS]
    return out


def _tf_unpack(flat: np.ndarray, k: int, d: int, t: int, layers: int) -> dict[str, np.ndarray]:
    """Split flat (..., n) into the parameter dict (arrays (..., *shape)); inverse of the packing."""
    out, o = {}, 0
    for name, shape in _tf_shapes(k, d, t, layers):
        size = shape[0] * shape[1]
        out[name] = flat[..., o:o + size].reshape(flat.shape[:-1] + shape).copy()
        o += size
    return out


@dataclass(frozen=True)
class TransformerRunsResult:
    """Runs of ``train_transformer_runs``: params (dict of arrays with a leading run axis), params_at
    (dict, axes (run, checkpoint, ...), before that step's update), train_loss (R, steps) (NaN for the
    reference backend), diverged (R,)."""

    params: dict
    checkpoints: np.ndarray
    params_at: dict
    train_loss: np.ndarray
    diverged: np.ndarray
    backend: str


def train_transformer_runs(seeds, k: int, d: int, t: int, steps: int, *, layers: int = 2, batch: int = 64, lr=1e-3,
                           weight_decay: float = 0.0, init_scale: float = 0.02, checkpoints=(), backend: str = "cpu") -> TransformerRunsResult:
    """Adam training of the attention-only transformer, one run per seed: run r starts from
    init_transformer(default_rng(SeedSequence(seeds[r])), k, d, t, layers, init_scale) and trains at step s
    on icl_batch(seeds[r], s, k, batch, t + 1).  backend "cpu" (numba, prange over runs) or "reference"
    (``train_transformer``)."""
    seeds = validate_seeds(seeds)
    k = require_int("k", k, min_value=2, max_value=64)
    d = require_int("d", d, min_value=1, max_value=256)
    t = require_int("t", t, min_value=2, max_value=2000)
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    layers = require_int("layers", layers, min_value=1, max_value=8)
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    runs = len(seeds)
    lrs, wd, scale, cks = validate_adamw_run_args(lr, weight_decay, init_scale, checkpoints, steps, runs, backend)
    shapes = _tf_shapes(k, d, t, layers)
    n = sum(a * b for _, (a, b) in shapes)
    C = len(cks)
    require_recording_memory(8 * runs * (n * (C + 1) + steps), f"{runs} runs x {C} checkpoints")
    require_memory("batch", (batch, t), 8 * batch * t * (t + 4 * d) * layers, what="the activations")
    theta = np.zeros((runs, n))
    for r in range(runs):
        p0 = init_transformer(np.random.default_rng(np.random.SeedSequence(int(seeds[r]))), k, d, t, layers, scale)
        theta[r] = np.concatenate([p0[name].ravel() for name, _ in shapes])
    th_at = np.zeros((runs, C, n))
    losses = np.full((runs, steps), np.nan)
    diverged = np.zeros(runs, dtype=np.bool_)
    if backend == "cpu":
        # the lockstep trainer of _ngram_heads_cpu with order 2 (the ICL-MC stream), one head, the single-head order of the
        # residual gradient: bit for bit _induction_cpu.train_transformer_runs (tests/kernels/test_ngram_heads.py), ~2x faster
        _ngram_heads_cpu.train_runs(seeds, theta, k, 2, d, t, layers, 1, steps, batch, lrs, wd, cks, th_at, losses, diverged, True)
    else:
        pos = {int(c): i for i, c in enumerate(cks)}
        for r in range(runs):
            counter = [0]

            def sample(_rng, b, r=r, counter=counter):
                counter[0] += 1
                return _induction_cpu.icl_batch_jit(seeds[r], counter[0] - 1, k, b, t + 1)

            def record(params, r=r, counter=counter):
                i = pos.get(counter[0])
                if i is not None:
                    th_at[r, i] = np.concatenate([params[name].ravel() for name, _ in shapes])

            out, _ = train_transformer(None, sample, _tf_unpack(theta[r], k, d, t, layers), steps, batch=batch, lr=float(lrs[r]),
                                       weight_decay=wd, eval_every=1, evaluate=record)
            theta[r] = np.concatenate([out[name].ravel() for name, _ in shapes])
    return TransformerRunsResult(_tf_unpack(theta, k, d, t, layers), cks, _tf_unpack(th_at, k, d, t, layers), losses, diverged, backend)
