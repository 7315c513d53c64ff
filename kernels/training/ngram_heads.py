"""Multi-head attention-only transformers trained on in-context n-grams (thesis Sec. 8.3.3, Fig. 8.5; seed 004
lines 1896-1904, the task at line 1730).

* ``ngram_batch(seed, step, k, order, batch, length)``: the counter-based in-context n-gram stream (each of the
  k^(order-1) contexts has its own Dirichlet(1) next-token law; the first order - 1 tokens from the stationary
  law of the chain on contexts); order = 2 is the ICL-MC stream ``kernels.training.induction.icl_batch``.
* ``multihead_logits`` / ``multihead_loss_grad`` (the numpy reference): the attention-only transformer
  (8.4)-(8.5) with ``heads`` heads per layer, z <- z + sum_h softmax(mask(A^h)) z W_V^h, A^h_ij =
  (z_i W_Q^h)(z_j W_K^h + v^h_{i-j+1})^T / sqrt(d), each head with its own d x d matrices and relative
  position embeddings (an output projection per head folds into W_V^h), learned embedding and readout,
  mean cross-entropy over all positions, and its exact gradient (hand-written backward).  With one head it is
  ``kernels.training.induction.transformer_logits``.
* ``train_multihead`` (reference Adam, ``train_transformer``'s formula) and ``train_multihead_runs`` (many runs,
  one seed each: backend "cpu" the numba twin in ``_ngram_heads_cpu``, "reference" ``train_multihead`` fed the
  same batches; tested against each other and against finite differences in tests/kernels/test_ngram_heads.py).
"""

from __future__ import annotations

import math

import numpy as np

from kernels._checks import require_int, require_memory

from . import _ngram_heads_cpu
from ._common import require_recording_memory, validate_adamw_run_args, validate_seeds
from .induction import TransformerRunsResult

__all__ = ["init_multihead", "multihead_logits", "multihead_loss_grad", "ngram_batch", "train_multihead", "train_multihead_runs"]

_KEYS = ("WQ", "WK", "WV", "pos")


def ngram_batch(seed: int, step: int, k: int, order: int, batch: int, length: int) -> np.ndarray:
    """Batch ``step`` of the counter-based in-context n-gram stream ``seed``: (batch, length) int64 sequences."""
    seed = require_int("seed", seed, min_value=0, max_value=2**64 - 1)
    step = require_int("step", step, min_value=0, max_value=2**62)
    k = require_int("k", k, min_value=2, max_value=16)
    order = require_int("order", order, min_value=2, max_value=4)
    if k ** (order - 1) > 256:
        raise ValueError(f"argument 'order' gives k^(order-1) = {k ** (order - 1)} contexts, more than 256")
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    length = require_int("length", length, min_value=order, max_value=100_000)
    require_memory("batch", (batch, length), 8 * batch * length, what="the sequences")
    return _ngram_heads_cpu.ngram_batch_jit(np.uint64(seed), step, k, order, batch, length)


def init_multihead(rng: np.random.Generator, k: int, d: int, t: int, layers: int = 2, heads: int = 1,
                   scale: float = 0.02) -> dict[str, np.ndarray]:
    """{emb (k, d), readout (d, k), WQ{l}_{h}, WK{l}_{h}, WV{l}_{h} (d, d), pos{l}_{h} (t, d)}, N(0, scale^2) (emb plus the
    one-hot identity), drawn in the flat layout's order (with one head: ``init_transformer``'s draws)."""
    k = require_int("k", k, min_value=2, max_value=64)
    d = require_int("d", d, min_value=k, max_value=1024)
    t = require_int("t", t, min_value=1, max_value=4096)
    layers = require_int("layers", layers, min_value=1, max_value=8)
    heads = require_int("heads", heads, min_value=1, max_value=16)
    p = {"emb": rng.normal(0, scale, (k, d)) + np.eye(k, d), "readout": rng.normal(0, scale, (d, k))}
    for li in range(layers):
        for h in range(heads):
            for name in ("WQ", "WK", "WV"):
                p[f"{name}{li}_{h}"] = rng.normal(0, scale, (d, d))
            p[f"pos{li}_{h}"] = rng.normal(0, scale, (t, d))
    return p


def _shape(params: dict) -> tuple[int, int]:
    heads = sum(1 for key in params if key.startswith("WQ0_"))
    layers = sum(1 for key in params if key.startswith("WQ") and key.endswith("_0"))
    return layers, heads


def _masked_softmax(S: np.ndarray, mask: np.ndarray) -> np.ndarray:
    S = np.where(mask, S, -np.inf)  # a new array: the rest in place (the same operations, fewer temporaries)
    S -= S.max(-1, keepdims=True)
    np.exp(S, out=S)
    S /= S.sum(-1, keepdims=True)
    return S


def multihead_logits(params: dict, x: np.ndarray) -> tuple[np.ndarray, list]:
    """Logits (n, t, k) of the multi-head transformer on x (n, t), and the cache (per layer: the input z and per
    head (q, keys, zv, att); then the last z).  cache[l][1][h][3] is head h's attention of layer l."""
    x = np.asarray(x)
    _, t = x.shape
    z = params["emb"][x]
    d = z.shape[-1]
    idx = np.arange(t)
    R = idx[:, None] - idx[None, :]
    mask = R >= 0
    layers, heads = _shape(params)
    cache = []
    for li in range(layers):
        per = []
        out = z.copy()
        for h in range(heads):
            WQ, WK, WV, pos = (params[f"{name}{li}_{h}"] for name in _KEYS)
            q, kk, zv = z @ WQ, z @ WK, z @ WV
            S = (np.einsum("nid,njd->nij", q, kk) + np.einsum("nid,ijd->nij", q, pos[np.clip(R, 0, t - 1)])) / math.sqrt(d)
            att = _masked_softmax(S, mask[None])
            per.append((q, kk, zv, att))
            out = out + att @ zv
        cache.append((z, per))
        z = out
    return z @ params["readout"], cache + [z]


def multihead_loss_grad(params: dict, x: np.ndarray, y: np.ndarray) -> tuple[float, dict]:
    """Mean cross-entropy over all positions (y_p = x_{p+1}) and its exact gradient."""
    x, y = np.asarray(x), np.asarray(y)
    n, t = x.shape
    logits, cache = multihead_logits(params, x)
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
    layers, heads = _shape(params)
    for li in reversed(range(layers)):
        z, per = cache[li]
        dz_in = dz.copy()
        for h in range(heads):
            q, kk, zv, att = per[h]
            WQ, WK, WV, pos = (params[f"{name}{li}_{h}"] for name in _KEYS)
            datt = np.einsum("nid,njd->nij", dz, zv)
            dzv = np.einsum("nij,nid->njd", att, dz)
            dS = att * (datt - (datt * att).sum(-1, keepdims=True)) / math.sqrt(d)
            keys = kk[:, None, :, :] + pos[np.clip(R, 0, t - 1)][None]
            keys = np.where((R >= 0)[None, :, :, None], keys, 0.0)
            dq = np.einsum("nij,nijd->nid", dS, keys)
            dkk = np.einsum("nij,nid->njd", dS, q)
            dpos = np.zeros_like(pos)
            for r in range(t):
                dpos[r] = np.einsum("ni,nid->d", np.diagonal(dS, offset=-r, axis1=1, axis2=2), q[:, r:, :])
            grads[f"WV{li}_{h}"] = np.einsum("ntd,nte->de", z, dzv)
            grads[f"WQ{li}_{h}"] = np.einsum("ntd,nte->de", z, dq)
            grads[f"WK{li}_{h}"] = np.einsum("ntd,nte->de", z, dkk)
            grads[f"pos{li}_{h}"] = dpos
            dz_in = dz_in + dzv @ WV.T + dq @ WQ.T + dkk @ WK.T
        dz = dz_in
    grads["emb"] = np.zeros_like(params["emb"])
    np.add.at(grads["emb"], x.ravel(), dz.reshape(-1, d))
    return float(loss), grads


def train_multihead(sample_batch, params: dict, steps: int, *, batch: int = 64, lr: float = 1e-3, weight_decay: float = 0.0,
                    evaluate=None):
    """Adam (``train_transformer``'s formula) on batches sample_batch(step, batch) -> x (batch, t + 1); evaluate(step,
    params) is called before every step and at the end.  Returns the parameters."""
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    params = {key: val.copy() for key, val in params.items()}
    m = {key: np.zeros_like(val) for key, val in params.items()}
    s = {key: np.zeros_like(val) for key, val in params.items()}
    for step in range(steps + 1):
        if evaluate is not None:
            evaluate(step, params)
        if step == steps:
            break
        xb = sample_batch(step, batch)
        _, g = multihead_loss_grad(params, xb[:, :-1], xb[:, 1:])
        for key in params:
            m[key] = 0.9 * m[key] + 0.1 * g[key]
            s[key] = 0.999 * s[key] + 0.001 * g[key] ** 2
            upd = (m[key] / (1 - 0.9 ** (step + 1))) / (np.sqrt(s[key] / (1 - 0.999 ** (step + 1))) + 1e-8)
            params[key] = params[key] * (1 - lr * weight_decay) - lr * upd
    return params


def _shapes(k: int, d: int, t: int, layers: int, heads: int) -> list[tuple[str, tuple[int, int]]]:
    out = [("emb", (k, d)), ("readout", (d, k))]
    for li in range(layers):
        for h in range(heads):
            out += [(f"{name}{li}_{h}", (t, d) if name == "pos" else (d, d)) for name in _KEYS]
    return out


def _unpack(flat: np.ndarray, shapes) -> dict[str, np.ndarray]:
    out, o = {}, 0
    for name, shape in shapes:
        size = shape[0] * shape[1]
        out[name] = flat[..., o:o + size].reshape(flat.shape[:-1] + shape).copy()
        o += size
    return out


def train_multihead_runs(seeds, k: int, d: int, t: int, steps: int, *, heads: int = 3, layers: int = 2, order: int = 3,
                         batch: int = 64, lr=1e-3, weight_decay: float = 0.0, init_scale: float = 0.02, checkpoints=(),
                         backend: str = "cpu") -> TransformerRunsResult:
    """Adam training of the multi-head transformer on in-context n-grams, one run per seed: run r starts from
    init_multihead(default_rng(SeedSequence(seeds[r])), k, d, t, layers, heads, init_scale) and trains at step s on
    ngram_batch(seeds[r], s, k, order, batch, t + 1).  backend "cpu" (numba, prange over runs) or "reference"
    (``train_multihead``).  Returns a TransformerRunsResult (parameter keys of ``init_multihead``)."""
    seeds = validate_seeds(seeds)
    k = require_int("k", k, min_value=2, max_value=16)
    d = require_int("d", d, min_value=k, max_value=256)
    t = require_int("t", t, min_value=order, max_value=2000)
    steps = require_int("steps", steps, min_value=0, max_value=10**7)
    heads = require_int("heads", heads, min_value=1, max_value=16)
    layers = require_int("layers", layers, min_value=1, max_value=8)
    order = require_int("order", order, min_value=2, max_value=4)
    if k ** (order - 1) > 256:
        raise ValueError(f"argument 'order' gives k^(order-1) = {k ** (order - 1)} contexts, more than 256")
    batch = require_int("batch", batch, min_value=1, max_value=100_000)
    runs = len(seeds)
    lrs, wd, scale, cks = validate_adamw_run_args(lr, weight_decay, init_scale, checkpoints, steps, runs, backend)
    shapes = _shapes(k, d, t, layers, heads)
    n = sum(a * b for _, (a, b) in shapes)
    C = len(cks)
    require_recording_memory(8 * runs * (n * (C + 1) + steps), f"{runs} runs x {C} checkpoints")
    require_memory("batch", (batch, t), 8 * batch * t * (t + 4 * d) * layers * heads, what="the activations")
    theta = np.zeros((runs, n))
    for r in range(runs):
        p0 = init_multihead(np.random.default_rng(np.random.SeedSequence(int(seeds[r]))), k, d, t, layers, heads, scale)
        theta[r] = np.concatenate([p0[name].ravel() for name, _ in shapes])
    th_at = np.zeros((runs, C, n))
    losses = np.full((runs, steps), np.nan)
    diverged = np.zeros(runs, dtype=np.bool_)
    if backend == "cpu":
        _ngram_heads_cpu.train_runs(seeds, theta, k, order, d, t, layers, heads, steps, batch, lrs, wd, cks, th_at, losses, diverged,
                                    False)
    else:
        pos = {int(c): i for i, c in enumerate(cks)}
        for r in range(runs):
            def sample(step, b, r=r):
                return _ngram_heads_cpu.ngram_batch_jit(seeds[r], step, k, order, b, t + 1)

            def record(step, params, r=r):
                i = pos.get(step)
                if i is not None:
                    th_at[r, i] = np.concatenate([params[name].ravel() for name, _ in shapes])

            out = train_multihead(sample, _unpack(theta[r], shapes), steps, batch=batch, lr=float(lrs[r]), weight_decay=wd,
                                  evaluate=record)
            theta[r] = np.concatenate([out[name].ravel() for name, _ in shapes])
    return TransformerRunsResult(_unpack(theta, shapes), cks, _unpack(th_at, shapes), losses, diverged, backend)
