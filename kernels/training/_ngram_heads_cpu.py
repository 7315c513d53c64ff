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
* **Batched step** (``mh_loss_grad_chunk``): the same operations for NB sequences in lockstep (the sequence index
  innermost, so that the loops vectorise), the additions to the shared gradient replayed sequence by sequence in
  the order of ``mh_loss_grad_seq``: bit for bit the sequence-by-sequence loop (tested), about twice as fast at
  d = 8, t = 20.
* **Trainer** (``train_runs``): ``prange`` over runs, Adam as ``train_transformer`` (m = 0.9 m + 0.1 g,
  s = 0.999 s + 0.001 g^2, bias-corrected, decoupled weight decay); the batch in chunks of NB sequences.

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
from ._induction_cpu import _categorical, _head_block, _stationary_into, adamw_step, attention_loss_grad_seq, tf_workspace

__all__ = ["batch_loss_grad_jit", "ngram_batch_jit", "train_runs"]


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


# ---------------------------------------------------------------------------------------------
# the same step, NB sequences in lockstep
# ---------------------------------------------------------------------------------------------
# ``mh_loss_grad_chunk`` computes, for a chunk of nb <= NB sequences at once, exactly the floating-point operations
# that ``mh_loss_grad_seq`` does for each of them (every sum from 0.0 over the same index in the same order, every
# expression with the same operands in the same order), with the sequence index b innermost in every loop: the
# per-sequence work is independent, so the loops over b vectorise without any change of order.  The additions to the
# shared gradient g are made afterwards, sequence by sequence in the order of the batch and, within a sequence, in
# the order of ``mh_loss_grad_seq`` (the products are stored or recomputed bit for bit), so that g receives the same
# sums in the same order: the results are bit for bit those of the sequence-by-sequence loop (tested).

NB = 64  # sequences per chunk


@register_jitable
def chunk_workspace(k, d, t, L, H, batch):  # pragma: no cover - compiled
    """Workspace of ``mh_loss_grad_chunk`` for chunks of at most N = min(NB, batch) sequences: Z (L + 1, t, d, N), Q, K,
    V (L, H, t, d, N), A (L, H, t, t, N), dz, dzn, dq, dkk, dzv (t, d, N), dS (t, t, N), acc (d, N), gw (3, d, d, N),
    probs (t, k, N), vectors (4, N)."""
    N = min(NB, batch)
    return (np.empty((L + 1, t, d, N)), np.empty((L, H, t, d, N)), np.empty((L, H, t, d, N)), np.empty((L, H, t, d, N)),
            np.zeros((L, H, t, t, N)), np.empty((t, d, N)), np.empty((t, d, N)), np.empty((t, d, N)), np.empty((t, d, N)),
            np.empty((t, d, N)), np.zeros((t, t, N)), np.empty((d, N)), np.empty((3, d, d, N)), np.empty((t, k, N)),
            np.empty((4, N)))


@register_jitable
def mh_loss_grad_chunk(theta, g, xb, b0, nb, k, d, t, L, H, norm, residual_first, ws, lossb):  # pragma: no cover - compiled
    """``attention_loss_grad_seq`` (with this residual_first: True for the single-head trainer's order, False for
    ``mh_loss_grad_seq``'s) for the sequences xb[b0 : b0 + nb] (nb <= the workspace's chunk size), in this order: ADDS
    their gradients to g and writes their loss contributions to lossb[b0 : b0 + nb]."""
    Z, Qa, Ka, Va, A, dz, dzn, dq, dkk, dzv, dS, acc, gw, probs, vec = ws
    mx, tot, dot, lo = vec[0], vec[1], vec[2], vec[3]
    sq = math.sqrt(d)
    ro = k * d
    for s in range(t):
        for b in range(nb):
            xr = xb[b0 + b, s] * d
            for e in range(d):
                Z[0, s, e, b] = theta[xr + e]
    # forward
    for li in range(L):
        Zin, Zout = Z[li], Z[li + 1]
        for s in range(t):
            for e in range(d):
                zi, zo = Zin[s, e], Zout[s, e]
                for b in range(nb):
                    zo[b] = zi[b]
        for h in range(H):
            W, P = _head_block(theta, k, d, t, H, li, h)
            Qh, Kh, Vh, Ah = Qa[li, h], Ka[li, h], Va[li, h], A[li, h]
            WQ, WK, WV = W[0], W[1], W[2]
            for s in range(t):
                Zs = Zin[s]
                for e in range(d):
                    q, kk, v = Qh[s, e], Kh[s, e], Vh[s, e]
                    for b in range(nb):
                        q[b] = 0.0
                        kk[b] = 0.0
                        v[b] = 0.0
                    for c in range(d):
                        z = Zs[c]
                        wq, wk, wv = WQ[c, e], WK[c, e], WV[c, e]
                        for b in range(nb):
                            q[b] += z[b] * wq
                            kk[b] += z[b] * wk
                            v[b] += z[b] * wv
            for i in range(t):
                Ai, Qi = Ah[i], Qh[i]
                for j in range(i + 1):
                    a = Ai[j]
                    for b in range(nb):
                        a[b] = 0.0
                for e in range(d):
                    qe = Qi[e]
                    for j in range(i + 1):
                        a, kt, pr = Ai[j], Kh[j, e], P[i - j, e]
                        for b in range(nb):
                            a[b] += qe[b] * (kt[b] + pr)
                for b in range(nb):
                    mx[b] = -np.inf
                for j in range(i + 1):
                    a = Ai[j]
                    for b in range(nb):
                        sc = a[b] / sq
                        a[b] = sc
                        mx[b] = max(mx[b], sc)
                for b in range(nb):
                    tot[b] = 0.0
                for j in range(i + 1):
                    a = Ai[j]
                    for b in range(nb):
                        a[b] = math.exp(a[b] - mx[b])
                        tot[b] += a[b]
                for j in range(i + 1):
                    a = Ai[j]
                    for b in range(nb):
                        a[b] /= tot[b]
                for e in range(d):
                    ac = acc[e]
                    for b in range(nb):
                        ac[b] = 0.0
                for j in range(i + 1):
                    a = Ai[j]
                    for e in range(d):
                        ac, v = acc[e], Vh[j, e]
                        for b in range(nb):
                            ac[b] += a[b] * v[b]
                for e in range(d):
                    ac, zo = acc[e], Zout[i, e]
                    for b in range(nb):
                        zo[b] += ac[b]
    # readout (readout_loss_grad): probs[s, c] holds the logits, then the scaled softmax residuals
    ZL = Z[L]
    for b in range(nb):
        lo[b] = 0.0
    for s in range(t):
        pc = probs[s]
        for b in range(nb):
            mx[b] = -np.inf
        for c in range(k):
            p = pc[c]
            for b in range(nb):
                p[b] = 0.0
            for e in range(d):
                z, w = ZL[s, e], theta[ro + e * k + c]
                for b in range(nb):
                    p[b] += z[b] * w
            for b in range(nb):
                mx[b] = max(mx[b], p[b])
        for b in range(nb):
            y = xb[b0 + b, s + 1]
            lp = pc[y, b] - mx[b]
            tt = 0.0
            for c in range(k):
                pc[c, b] = math.exp(pc[c, b] - mx[b])
                tt += pc[c, b]
            lo[b] -= lp - math.log(tt)
            for c in range(k):
                pc[c, b] = (pc[c, b] / tt - (1.0 if c == y else 0.0)) * norm
        for e in range(d):
            dze = dz[s, e]
            for b in range(nb):
                dze[b] = 0.0
            for c in range(k):
                p, w = pc[c], theta[ro + e * k + c]
                for b in range(nb):
                    dze[b] += p[b] * w
    for b in range(nb):
        lossb[b0 + b] = lo[b] * norm
    # backward
    for li in range(L - 1, -1, -1):
        Zin = Z[li]
        for s in range(t):
            for e in range(d):
                src, dst = dz[s, e], dzn[s, e]
                for b in range(nb):
                    dst[b] = src[b]
        for h in range(H):
            W, P = _head_block(theta, k, d, t, H, li, h)
            WQ, WK, WV = W[0], W[1], W[2]
            Qh, Kh, Vh, Ah = Qa[li, h], Ka[li, h], Va[li, h], A[li, h]
            # dzv[j, e] = sum over i >= j of A[i, j] dz[i, e]
            for j in range(t):
                for e in range(d):
                    r = dzv[j, e]
                    for b in range(nb):
                        r[b] = 0.0
                for i in range(j, t):
                    a = Ah[i, j]
                    for e in range(d):
                        r, dzi = dzv[j, e], dz[i, e]
                        for b in range(nb):
                            r[b] += a[b] * dzi[b]
            for j in range(t):
                for e in range(d):
                    r = dkk[j, e]
                    for b in range(nb):
                        r[b] = 0.0
            for i in range(t):
                Ai, dSi = Ah[i], dS[i]
                for j in range(i + 1):
                    r = dSi[j]
                    for b in range(nb):
                        r[b] = 0.0
                for e in range(d):
                    de = dz[i, e]
                    for j in range(i + 1):
                        r, v = dSi[j], Vh[j, e]
                        for b in range(nb):
                            r[b] += de[b] * v[b]
                for b in range(nb):
                    dot[b] = 0.0
                for j in range(i + 1):
                    r, a = dSi[j], Ai[j]
                    for b in range(nb):
                        dot[b] += r[b] * a[b]
                for j in range(i + 1):
                    r, a = dSi[j], Ai[j]
                    for b in range(nb):
                        r[b] = a[b] * (r[b] - dot[b]) / sq
                for e in range(d):
                    dqe, qe = dq[i, e], Qh[i, e]
                    for b in range(nb):
                        dqe[b] = 0.0
                    for j in range(i + 1):
                        sj, kt, pm, dk = dSi[j], Kh[j, e], P[i - j, e], dkk[j, e]
                        for b in range(nb):
                            dqe[b] += sj[b] * (kt[b] + pm)
                            dk[b] += sj[b] * qe[b]
            # gW[m, c, e] = sum over s of Zin[s, c] (dq, dkk, dzv)[s, e]
            for c in range(d):
                for e in range(d):
                    aq, ak, av = gw[0, c, e], gw[1, c, e], gw[2, c, e]
                    for b in range(nb):
                        aq[b] = 0.0
                        ak[b] = 0.0
                        av[b] = 0.0
                    for s in range(t):
                        z, x, y, w = Zin[s, c], dq[s, e], dkk[s, e], dzv[s, e]
                        for b in range(nb):
                            aq[b] += z[b] * x[b]
                            ak[b] += z[b] * y[b]
                            av[b] += z[b] * w[b]
            # dzn[s, c] += sum over e of (dzv[s, e] WV[c, e] + dq[s, e] WQ[c, e] + dkk[s, e] WK[c, e]), each term added to
            # dzn one by one with residual_first, else summed from 0.0 and then added
            for s in range(t):
                for c in range(d):
                    r = dzn[s, c] if residual_first else acc[c]
                    if not residual_first:
                        for b in range(nb):
                            r[b] = 0.0
                    for e in range(d):
                        wv, wq, wk = WV[c, e], WQ[c, e], WK[c, e]
                        x, y, w = dzv[s, e], dq[s, e], dkk[s, e]
                        for b in range(nb):
                            r[b] += x[b] * wv + y[b] * wq + w[b] * wk
                    if not residual_first:
                        dn = dzn[s, c]
                        for b in range(nb):
                            dn[b] += r[b]
            # into g, sequence by sequence: the head's W block, then its positions (i ascending, j ascending)
            gW, gP = _head_block(g, k, d, t, H, li, h)
            for b in range(nb):
                for m in range(3):
                    for c in range(d):
                        for e in range(d):
                            gW[m, c, e] += gw[m, c, e, b]
                for i in range(t):
                    dSi = dS[i]
                    for j in range(i + 1):
                        sj = dSi[j, b]
                        gp = gP[i - j]
                        for e in range(d):
                            gp[e] += sj * Qh[i, e, b]
        for s in range(t):
            for e in range(d):
                src, dst = dzn[s, e], dz[s, e]
                for b in range(nb):
                    dst[b] = src[b]
    # readout and embedding gradients into g, sequence by sequence
    for b in range(nb):
        for s in range(t):
            for e in range(d):
                z = ZL[s, e, b]
                for c in range(k):
                    g[ro + e * k + c] += z * probs[s, c, b]
    for b in range(nb):
        for s in range(t):
            xr = xb[b0 + b, s] * d
            for e in range(d):
                g[xr + e] += dz[s, e, b]


@register_jitable
def _train_one(seed, theta, k, order, d, t, L, H, steps, batch, lr, wd, checkpoints, th_at, losses, residual_first):  # pragma: no cover - compiled
    """Adam on ngram_batch(seed, step, order); theta is updated in place; returns True if it diverged."""
    n = theta.shape[0]
    g = np.zeros(n)
    m = np.zeros(n)
    v2 = np.zeros(n)
    C = k ** (order - 1)
    xb = np.empty((batch, t + 1), dtype=np.int64)
    Qw, Pc, M, pi = np.empty((C, k)), np.empty((C, C)), np.empty((C, C + 1)), np.empty(C)
    ws = chunk_workspace(k, d, t, L, H, batch)
    lossb = np.empty(batch)
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
        for b0 in range(0, batch, NB):
            mh_loss_grad_chunk(theta, g, xb, b0, min(NB, batch - b0), k, d, t, L, H, norm, residual_first, ws, lossb)
        for b in range(batch):
            loss += lossb[b]
        losses[step] = loss
        if not adamw_step(theta, m, v2, g, lr, wd, step):
            return True
    return False


@nb.njit(parallel=True, cache=True, error_model="numpy")
def train_runs(seeds, theta, k, order, d, t, L, H, steps, batch, lrs, wd, checkpoints, th_at, losses, diverged, residual_first):  # pragma: no cover - compiled
    """Train len(seeds) multi-head transformers (flat parameters theta (R, n), updated in place) in parallel.  With
    order 2, H = 1 and residual_first this is, bit for bit, kernels.training._induction_cpu.train_transformer_runs (the
    ICL-MC stream, the single-head order of the residual gradient; tested): kernels.training.induction uses it."""
    for r in prange(seeds.shape[0]):
        diverged[r] = _train_one(seeds[r], theta[r], k, order, d, t, L, H, steps, batch, lrs[r], wd, checkpoints, th_at[r], losses[r],
                                 residual_first)


@nb.njit(cache=True, error_model="numpy")
def batch_loss_grad_jit(theta, xb, k, d, t, L, H, chunked, residual_first):  # pragma: no cover - compiled
    """The summed loss contributions and the gradient of one batch xb (batch, t + 1) at the flat parameters theta, as
    the trainer computes them: NB sequences in lockstep (``mh_loss_grad_chunk``) if chunked, else sequence by
    sequence (``attention_loss_grad_seq``); for the tests, which compare the two bit for bit."""
    batch = xb.shape[0]
    g = np.zeros(theta.shape[0])
    norm = 1.0 / (batch * t)
    loss = 0.0
    if chunked:
        ws = chunk_workspace(k, d, t, L, H, batch)
        lossb = np.empty(batch)
        for b0 in range(0, batch, NB):
            mh_loss_grad_chunk(theta, g, xb, b0, min(NB, batch - b0), k, d, t, L, H, norm, residual_first, ws, lossb)
        for b in range(batch):
            loss += lossb[b]
    else:
        ws = tf_workspace(k, d, t, L, H)
        for b in range(batch):
            loss += attention_loss_grad_seq(theta, g, xb[b], k, d, t, L, H, norm, residual_first, ws)
    return loss, g
