"""Numba CPU kernels for multi-head attention-only transformers on in-context n-grams (thesis Sec. 8.3.3, seed 004
lines 1896-1904; the n-gram task, line 1730).

The public entry points are in :mod:`kernels.training.ngram_heads`; this module holds the compiled bodies only.

* **Data stream** (``ngram_batch_into``): batch ``step`` of the run with seed ``s`` is a pure function of (s, step),
  drawn from ``kernels.rng.counter_u64(s, step, index)``.  With C = k^(n-1) contexts, sample b uses the indices
  base = b (C k + L) onward: C k uniforms for the next-token laws (each context's row Dirichlet(1): normalised
  exponentials), one for the first n - 1 tokens (a context drawn from the stationary law of the chain on
  contexts, c = (x_1..x_{n-1}) -> (x_2..x_{n-1}, l) with probability Q[c, l], solved by Gaussian elimination)
  and one per later token s >= n - 1 at base + C k + s (inverse CDF).  For n = 2 this is, index for index, the
  ICL-MC stream of kernels.training._induction_cpu.icl_batch_into (tested).
* **Multi-head step** (``mh_loss_grad_seq``): the attention-only transformer (8.4)-(8.5) with H heads per layer,
  z <- z + sum_h softmax(mask(A^h)) z W_V^h, A^h_ij = (z_i W_Q^h)(z_j W_K^h + v^h_{i-j+1})^T / sqrt(d) (each head
  with its own d x d matrices and relative position embeddings; an output projection per head is folded into
  W_V^h), learned embedding and readout, cross-entropy on all positions: forward, then the hand-written
  backward layer by layer and head by head, sequence by sequence.  With H = 1 this is the mathematics and
  the parameter layout of kernels.training._induction_cpu.transformer_loss_grad_seq.
* **Trainer** (``train_runs``): ``prange`` over runs, Adam as ``train_transformer`` (m = 0.9 m + 0.1 g,
  s = 0.999 s + 0.001 g^2, bias-corrected, decoupled weight decay).

Flat parameter layout: emb (k, d), readout (d, k), then for each layer and each head WQ, WK, WV (d, d), pos
(t, d), all row-major.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba import prange
from numba.extending import register_jitable

from ..rng import counter_u64, unit_double
from ._induction_cpu import _categorical, _stationary_into, adamw_step, attention_loss_grad_seq, tf_workspace

__all__ = ["ngram_batch_jit", "train_runs"]


@register_jitable
def ngram_batch_into(seed, step, k, order, out, Q, Pc, M, pi):  # pragma: no cover - compiled
    """Fill out (batch, L) with the in-context n-gram chains of (seed, step); Q (C, k), Pc (C, C), M (C, C + 1),
    pi (C) are workspace, C = k^(order - 1)."""
    batch, L = out.shape
    C = Q.shape[0]
    stride = C * k + L
    st = np.uint64(step)
    for b in range(batch):
        base = b * stride
        for c in range(C):
            tot = 0.0
            for j in range(k):
                e = -math.log(1.0 - unit_double(counter_u64(seed, st, np.uint64(base + c * k + j))))
                Q[c, j] = e
                tot += e
            for j in range(k):
                Q[c, j] /= tot
        for c in range(C):
            for c2 in range(C):
                Pc[c, c2] = 0.0
            for j in range(k):
                Pc[c, (c * k + j) % C] += Q[c, j]
        _stationary_into(Pc, C, M, pi)
        c = _categorical(unit_double(counter_u64(seed, st, np.uint64(base + C * k))), pi, C)
        rest = c
        for s in range(order - 2, -1, -1):  # the context's tokens, most significant first
            out[b, s] = rest % k
            rest //= k
        for s in range(order - 1, L):
            x = _categorical(unit_double(counter_u64(seed, st, np.uint64(base + C * k + s))), Q[c], k)
            out[b, s] = x
            c = (c * k + x) % C


@nb.njit(cache=True, error_model="numpy")
def ngram_batch_jit(seed, step, k, order, batch, length):  # pragma: no cover - compiled
    C = k ** (order - 1)
    out = np.empty((batch, length), dtype=np.int64)
    ngram_batch_into(np.uint64(seed), step, k, order, out, np.empty((C, k)), np.empty((C, C)), np.empty((C, C + 1)), np.empty(C))
    return out


@register_jitable
def mh_loss_grad_seq(theta, g, xs, k, d, t, L, H, norm, ws):  # pragma: no cover - compiled
    """CE of one sequence xs (t + 1) (inputs xs[:t], targets xs[1:]), weighted by norm; ADDS the gradient to g and
    returns the loss contribution: ``attention_loss_grad_seq`` with H heads per layer, each head's residual
    gradient summed from 0.0 before it is added.  ws = ``tf_workspace(k, d, t, L, H)``."""
    return attention_loss_grad_seq(theta, g, xs, k, d, t, L, H, norm, False, ws)


@register_jitable
def _train_one(seed, theta, k, order, d, t, L, H, steps, batch, lr, wd, checkpoints, th_at, losses):  # pragma: no cover - compiled
    """Adam on ngram_batch(seed, step, order); theta is updated in place; returns True if it diverged."""
    n = theta.shape[0]
    g = np.zeros(n)
    m = np.zeros(n)
    v2 = np.zeros(n)
    C = k ** (order - 1)
    xb = np.empty((batch, t + 1), dtype=np.int64)
    Qw, Pc, M, pi = np.empty((C, k)), np.empty((C, C)), np.empty((C, C + 1)), np.empty(C)
    ws = tf_workspace(k, d, t, L, H)
    norm = 1.0 / (batch * t)
    ci = 0
    for step in range(steps + 1):
        if ci < checkpoints.shape[0] and checkpoints[ci] == step:
            for i in range(n):
                th_at[ci, i] = theta[i]
            ci += 1
        if step == steps:
            break
        ngram_batch_into(seed, step, k, order, xb, Qw, Pc, M, pi)
        g.fill(0.0)
        loss = 0.0
        for b in range(batch):
            loss += mh_loss_grad_seq(theta, g, xb[b], k, d, t, L, H, norm, ws)
        losses[step] = loss
        if not adamw_step(theta, m, v2, g, lr, wd, step):
            return True
    return False


@nb.njit(parallel=True, cache=True, error_model="numpy")
def train_runs(seeds, theta, k, order, d, t, L, H, steps, batch, lrs, wd, checkpoints, th_at, losses, diverged):  # pragma: no cover - compiled
    """Train len(seeds) multi-head transformers (flat parameters theta (R, n), updated in place) in parallel."""
    for r in prange(seeds.shape[0]):
        diverged[r] = _train_one(seeds[r], theta[r], k, order, d, t, L, H, steps, batch, lrs[r], wd, checkpoints, th_at[r], losses[r])
