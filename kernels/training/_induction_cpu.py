"""Numba CPU kernels for batched training on ICL of Markov chains (thesis ch. 8, seed 004 lines 1756-1830).

The public entry points are in :mod:`kernels.training.induction` (``train_softmax_minimal_runs``,
``icl_batch``); this module holds the compiled bodies only.

* **Data stream** (``icl_batch_into``): batch ``step`` of the run with seed ``s`` is a pure function of
  (s, step), drawn from the counter-based Philox stream ``kernels.rng.counter_u64(s, step, index)``.
  Sample b uses the indices base = b (k^2 + L) onward: k^2 uniforms for the transition matrix (each row
  Dirichlet(1): normalised exponentials -log(1 - U)), one for the first state (drawn from the
  stationary law, solved by Gaussian elimination with partial pivoting; Dirichlet rows are positive, so
  the chain is irreducible and the law unique) and L - 1 for the transitions (inverse CDF).  This is
  the ICL-MC data model of Sec. 8.2 (lines 1756-1770) with alpha = 1 and the stationary start, the
  same law as ``kernels.sequence.markov_icl.sample_chains(rng, sample_transition_matrices(rng, k, n), L)``.
* **Minimal-model step** (``minimal_loss_grad``): the mean cross-entropy of the softmax minimal model
  (the figures' variant of (8.8), see kernels.training.induction) over all positions of a batch and its
  exact gradient, sequence by sequence in loops (O(batch t^2 k) work, no temporaries of size batch t^2);
  the mathematics is that of ``softmax_minimal_loss_grad`` (the numpy reference), only the order of the
  floating-point sums differs.
* **Trainer** (``train_minimal_runs``): ``prange`` over runs; each run does Adam (beta1 0.9, beta2 0.999,
  eps 1e-8, bias-corrected, the reference's formula) from W = 0, v = 0, beta = init_beta and records
  (W, v, beta) at the checkpoint steps (before that step's update, as the reference's ``evaluate``).
* **Transformer** (``transformer_loss_grad_seq``, ``train_transformer_runs``): the attention-only
  transformer (8.4)-(8.5) with a learned embedding and readout, relative position embeddings
  v_{i-j+1} in the keys, scores / sqrt(d), residual stream, cross-entropy on all positions (the
  mathematics of ``kernels.training.induction.transformer_loss_grad``: forward, then the hand-written
  backward layer by layer, sequence by sequence); parameters packed in one flat vector per run
  (emb, readout, then WQ, WK, WV, pos per layer); Adam as ``train_transformer`` (its literal constants
  0.1 and 0.001 for 1 - beta1, 1 - beta2, decoupled weight decay).

Each run touches only its own rows and its own data stream, so a run's result is bit-for-bit the
same whatever the other runs and the thread count (tested).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba import prange
from numba.extending import register_jitable

from ..rng import counter_u64, unit_double
from ._common import OVERFLOW

__all__ = ["icl_batch_jit", "train_minimal_runs", "train_transformer_runs"]


@register_jitable
def _stationary_into(P, k, M, pi):  # pragma: no cover - compiled
    """pi with pi P = pi, sum pi = 1: solve (P^T - I) pi = 0 with the last equation replaced by sum = 1."""
    for i in range(k):
        for j in range(k):
            M[i, j] = P[j, i] - (1.0 if i == j else 0.0)
        M[i, k] = 0.0
    for j in range(k):
        M[k - 1, j] = 1.0
    M[k - 1, k] = 1.0
    for c in range(k):
        piv = c
        for r in range(c + 1, k):
            if abs(M[r, c]) > abs(M[piv, c]):
                piv = r
        if piv != c:
            for j in range(k + 1):
                tmp = M[c, j]
                M[c, j] = M[piv, j]
                M[piv, j] = tmp
        for r in range(c + 1, k):
            f = M[r, c] / M[c, c]
            for j in range(c, k + 1):
                M[r, j] -= f * M[c, j]
    for c in range(k - 1, -1, -1):
        s = M[c, k]
        for j in range(c + 1, k):
            s -= M[c, j] * pi[j]
        pi[c] = s / M[c, c]


@register_jitable
def _categorical(u, p, k):  # pragma: no cover - compiled
    acc = 0.0
    for j in range(k - 1):
        acc += p[j]
        if u < acc:
            return j
    return k - 1


@register_jitable
def icl_batch_into(seed, step, k, out, P, M, pi):  # pragma: no cover - compiled
    """Fill out (batch, L) with the ICL-MC chains of (seed, step); P (k, k), M (k, k+1), pi (k) are workspace."""
    batch, L = out.shape
    stride = k * k + L
    st = np.uint64(step)
    for b in range(batch):
        base = b * stride
        for i in range(k):
            tot = 0.0
            for j in range(k):
                e = -math.log(1.0 - unit_double(counter_u64(seed, st, np.uint64(base + i * k + j))))
                P[i, j] = e
                tot += e
            for j in range(k):
                P[i, j] /= tot
        _stationary_into(P, k, M, pi)
        x = _categorical(unit_double(counter_u64(seed, st, np.uint64(base + k * k))), pi, k)
        out[b, 0] = x
        for s in range(1, L):
            x = _categorical(unit_double(counter_u64(seed, st, np.uint64(base + k * k + s))), P[x], k)
            out[b, s] = x


@nb.njit(cache=True, error_model="numpy")
def icl_batch_jit(seed, step, k, batch, length):  # pragma: no cover - compiled
    out = np.empty((batch, length), dtype=np.int64)
    icl_batch_into(np.uint64(seed), step, k, out, np.empty((k, k)), np.empty((k, k + 1)), np.empty(k))
    return out


@register_jitable
def minimal_loss_grad(xb, k, W, v, beta, a1, H, a2, mix, dH, da1, dW, dv):  # pragma: no cover - compiled
    """Mean CE of the softmax minimal model on xb (n, t + 1) (inputs xb[:, :-1], targets xb[:, 1:]);
    writes dW, dv and returns (loss, dbeta).  a1 (t, t), H (t, k), a2 (t), mix (t, k), dH (t, k),
    da1 (t, t) are workspace."""
    n = xb.shape[0]
    t = xb.shape[1] - 1
    norm = 1.0 / (n * t)
    # layer-1 position weights a1[s, s'] = softmax_{r = 0..s}(v_r) at r = s - s' (shared by the batch)
    for s in range(t):
        m = v[0]
        for r in range(1, s + 1):
            m = max(m, v[r])
        tot = 0.0
        for r in range(s + 1):
            tot += math.exp(v[r] - m)
        for r in range(s + 1):
            a1[s, s - r] = math.exp(v[r] - m) / tot
    da1.fill(0.0)
    dW.fill(0.0)
    loss = 0.0
    dbeta = 0.0
    probs = np.empty(k)
    for b in range(n):
        for s in range(t):
            for c in range(k):
                H[s, c] = 0.0
            for s2 in range(s + 1):
                H[s, xb[b, s2]] += a1[s, s2]
        dH.fill(0.0)
        for p in range(t):
            xp = xb[b, p]
            mx = -np.inf
            for q in range(p + 1):
                sc = 0.0
                for c in range(k):
                    sc += W[xp, c] * H[q, c]
                a2[q] = sc
                mx = max(mx, sc)
            tot = 0.0
            for q in range(p + 1):
                a2[q] = math.exp(a2[q] - mx)
                tot += a2[q]
            for c in range(k):
                mix[p, c] = 0.0
            for q in range(p + 1):
                a2[q] /= tot
                mix[p, xb[b, q]] += a2[q]
            # cross-entropy of softmax(beta mix[p]) against y = xb[b, p + 1]
            mx = beta * mix[p, 0]
            for c in range(1, k):
                mx = max(mx, beta * mix[p, c])
            tot = 0.0
            for c in range(k):
                probs[c] = math.exp(beta * mix[p, c] - mx)
                tot += probs[c]
            y = xb[b, p + 1]
            loss -= (beta * mix[p, y] - mx) - math.log(tot)
            for c in range(k):
                g = (probs[c] / tot - (1.0 if c == y else 0.0)) * norm
                probs[c] = g
                dbeta += g * mix[p, c]
            # back through layer-2 attention: da2[q] = beta G[x_q]; dS2 = a2 (da2 - <da2, a2>)
            dot = 0.0
            for q in range(p + 1):
                dot += beta * probs[xb[b, q]] * a2[q]
            for q in range(p + 1):
                ds = a2[q] * (beta * probs[xb[b, q]] - dot)
                for c in range(k):
                    dW[xp, c] += ds * H[q, c]
                    dH[q, c] += ds * W[xp, c]
        for i in range(t):
            for j in range(i + 1):
                da1[i, j] += dH[i, xb[b, j]]
    dv.fill(0.0)
    for i in range(t):
        dot = 0.0
        for j in range(i + 1):
            dot += da1[i, j] * a1[i, j]
        for j in range(i + 1):
            dv[i - j] += a1[i, j] * (da1[i, j] - dot)
    return loss * norm, dbeta


@register_jitable
def adamw_step(theta, m, v2, g, lr, wd, step):  # pragma: no cover - compiled
    """One AdamW step (beta 0.9 / 0.999, eps 1e-8, decoupled weight decay ``wd``) at 0-based ``step``, in
    place on flat arrays; False when an entry leaves [-OVERFLOW, OVERFLOW] or is NaN.  Shared by the
    transformer trainers (induction, ngram_heads, induction_priors; icl_regression with wd = 0), which must stay bit for bit equal to
    their numpy references: keep the arithmetic exactly as written."""
    c1 = 1.0 - 0.9 ** (step + 1)
    c2 = 1.0 - 0.999 ** (step + 1)
    ok = True
    for i in range(theta.shape[0]):
        m[i] = 0.9 * m[i] + 0.1 * g[i]
        v2[i] = 0.999 * v2[i] + 0.001 * g[i] ** 2
        theta[i] = theta[i] * (1.0 - lr * wd) - lr * ((m[i] / c1) / (math.sqrt(v2[i] / c2) + 1e-8))
        if not abs(theta[i]) <= OVERFLOW:
            ok = False
    return ok


@register_jitable
def _adam(p, m, s, g, lr, c1, c2):  # pragma: no cover - compiled
    """In-place Adam on flat arrays; returns False when an entry leaves [-OVERFLOW, OVERFLOW] or is NaN."""
    ok = True
    for i in range(p.shape[0]):
        m[i] = 0.9 * m[i] + (1.0 - 0.9) * g[i]  # the reference's (1 - b1), (1 - b2) as computed in float64
        s[i] = 0.999 * s[i] + (1.0 - 0.999) * g[i] * g[i]
        p[i] = p[i] - lr * (m[i] / c1) / (math.sqrt(s[i] / c2) + 1e-8)
        if not abs(p[i]) <= OVERFLOW:
            ok = False
    return ok


@register_jitable
def _train_one(seed, k, t, steps, batch, lr, init_beta, checkpoints, W_at, v_at, beta_at, losses):  # pragma: no cover - compiled
    W = np.zeros((k, k))
    v = np.zeros(t)
    beta = init_beta
    mW, sW, mv, sv = np.zeros(k * k), np.zeros(k * k), np.zeros(t), np.zeros(t)
    mb, sb = 0.0, 0.0
    xb = np.empty((batch, t + 1), dtype=np.int64)
    P, M, pi = np.empty((k, k)), np.empty((k, k + 1)), np.empty(k)
    a1, H, a2, mix = np.zeros((t, t)), np.empty((t, k)), np.empty(t), np.empty((t, k))
    dH, da1, dW, dv = np.empty((t, k)), np.empty((t, t)), np.empty((k, k)), np.empty(t)
    ci = 0
    for step in range(steps + 1):
        if ci < checkpoints.shape[0] and checkpoints[ci] == step:
            for i in range(k):
                for j in range(k):
                    W_at[ci, i, j] = W[i, j]
            for i in range(t):
                v_at[ci, i] = v[i]
            beta_at[ci] = beta
            ci += 1
        if step == steps:
            break
        icl_batch_into(seed, step, k, xb, P, M, pi)
        loss, db = minimal_loss_grad(xb, k, W, v, beta, a1, H, a2, mix, dH, da1, dW, dv)
        losses[step] = loss
        c1 = 1.0 - 0.9 ** (step + 1)
        c2 = 1.0 - 0.999 ** (step + 1)
        okW = _adam(W.reshape(k * k), mW, sW, dW.reshape(k * k), lr, c1, c2)
        okv = _adam(v, mv, sv, dv, lr, c1, c2)
        mb = 0.9 * mb + (1.0 - 0.9) * db
        sb = 0.999 * sb + (1.0 - 0.999) * db * db
        beta = beta - lr * (mb / c1) / (math.sqrt(sb / c2) + 1e-8)
        if not (okW and okv and abs(beta) <= OVERFLOW):
            return W, v, beta, True
    return W, v, beta, False


@nb.njit(parallel=True, cache=True, error_model="numpy")
def train_minimal_runs(seeds, k, t, steps, batch, lrs, init_beta, checkpoints, W, v, beta, W_at, v_at, beta_at, losses,
                       diverged):  # pragma: no cover - compiled
    """Train len(seeds) runs in parallel; writes the final parameters, the checkpoint records, the per-step
    training losses and the divergence flags."""
    for r in prange(seeds.shape[0]):
        Wr, vr, br, dv = _train_one(seeds[r], k, t, steps, batch, lrs[r], init_beta, checkpoints, W_at[r], v_at[r],
                                    beta_at[r], losses[r])
        for i in range(k):
            for j in range(k):
                W[r, i, j] = Wr[i, j]
        for i in range(t):
            v[r, i] = vr[i]
        beta[r] = br
        diverged[r] = dv


# ---------------------------------------------------------------------------------------------
# the 2-layer (L-layer) attention-only transformer with relative position embeddings
# ---------------------------------------------------------------------------------------------
# flat parameter layout (offsets from ``transformer_offsets``): emb (k, d), readout (d, k), then for
# each layer l: WQ (d, d), WK (d, d), WV (d, d), pos (t, d); all row-major.


@register_jitable
def _tf_off(k, d, t, li):  # pragma: no cover - compiled
    """Offset of layer li's block (WQ, WK, WV, pos follow at + 0, + d^2, + 2 d^2, + 3 d^2)."""
    return 2 * k * d + li * (3 * d * d + t * d)


@register_jitable
def readout_loss_grad(theta, g, xs, k, d, t, L, norm, Z, dz, probs):  # pragma: no cover - compiled
    """Softmax read-out of a transformer's last residual stream Z[L] (logits Z[L, s] R, R = theta[k d :
    k d + d k] as (d, k)): returns the summed next-token cross-entropy sum_s -log softmax(...)[x_{s+1}],
    adds norm * dloss/dR to g and writes dloss/dZ[L, s] (times norm) to dz.  Shared by the single-head
    (transformer_loss_grad_seq) and the multi-head (kernels/training/_ngram_heads_cpu.py) trainers."""
    ro = k * d
    loss = 0.0
    for s in range(t):
        mx = -np.inf
        for c in range(k):
            acc = 0.0
            for e in range(d):
                acc += Z[L, s, e] * theta[ro + e * k + c]
            probs[c] = acc
            mx = max(mx, acc)
        tot = 0.0
        for c in range(k):
            tot += math.exp(probs[c] - mx)
        y = xs[s + 1]
        loss -= (probs[y] - mx) - math.log(tot)
        for c in range(k):
            probs[c] = (math.exp(probs[c] - mx) / tot - (1.0 if c == y else 0.0)) * norm
        for e in range(d):
            acc = 0.0
            for c in range(k):
                g[ro + e * k + c] += Z[L, s, e] * probs[c]
                acc += probs[c] * theta[ro + e * k + c]
            dz[s, e] = acc
    return loss


@register_jitable
def transformer_loss_grad_seq(theta, g, xs, k, d, t, L, norm, Z, Qa, Ka, Va, A, dz, dzn, B3, dS, probs):  # pragma: no cover - compiled
    """CE of one sequence xs (t + 1) (inputs xs[:t], targets xs[1:]), weighted by norm; ADDS the gradient
    to g and returns the loss contribution.  The mathematics of ``transformer_loss_grad`` (the numpy
    reference), position by position.  Workspace: Z (L + 1, t, d), Qa, Ka, Va (L, t, d), A (L, t, t),
    dz, dzn (t, d), B3 (3, t, d), dS (t), probs (k)."""
    sq = math.sqrt(d)
    for s in range(t):
        for e in range(d):
            Z[0, s, e] = theta[xs[s] * d + e]
    for li in range(L):
        o = _tf_off(k, d, t, li)
        for s in range(t):
            for e in range(d):
                aq = 0.0
                ak = 0.0
                av = 0.0
                for c in range(d):
                    zc = Z[li, s, c]
                    aq += zc * theta[o + c * d + e]
                    ak += zc * theta[o + d * d + c * d + e]
                    av += zc * theta[o + 2 * d * d + c * d + e]
                Qa[li, s, e] = aq
                Ka[li, s, e] = ak
                Va[li, s, e] = av
        po = o + 3 * d * d
        for i in range(t):
            mx = -np.inf
            for j in range(i + 1):
                sc = 0.0
                for e in range(d):
                    sc += Qa[li, i, e] * (Ka[li, j, e] + theta[po + (i - j) * d + e])
                sc /= sq
                A[li, i, j] = sc
                mx = max(mx, sc)
            tot = 0.0
            for j in range(i + 1):
                A[li, i, j] = math.exp(A[li, i, j] - mx)
                tot += A[li, i, j]
            for j in range(i + 1):
                A[li, i, j] /= tot
            for e in range(d):
                acc = 0.0
                for j in range(i + 1):
                    acc += A[li, i, j] * Va[li, j, e]
                Z[li + 1, i, e] = Z[li, i, e] + acc
    loss = readout_loss_grad(theta, g, xs, k, d, t, L, norm, Z, dz, probs)
    for li in range(L - 1, -1, -1):
        o = _tf_off(k, d, t, li)
        po = o + 3 * d * d
        dq, dkk, dzv = B3[0], B3[1], B3[2]
        dkk.fill(0.0)
        for j in range(t):
            for e in range(d):
                acc = 0.0
                for i in range(j, t):
                    acc += A[li, i, j] * dz[i, e]
                dzv[j, e] = acc
        for i in range(t):
            dot = 0.0
            for j in range(i + 1):
                da = 0.0
                for e in range(d):
                    da += dz[i, e] * Va[li, j, e]
                dS[j] = da
                dot += da * A[li, i, j]
            for j in range(i + 1):
                dS[j] = A[li, i, j] * (dS[j] - dot) / sq
            for e in range(d):
                acc = 0.0
                qe = Qa[li, i, e]
                for j in range(i + 1):
                    acc += dS[j] * (Ka[li, j, e] + theta[po + (i - j) * d + e])
                    dkk[j, e] += dS[j] * qe
                    g[po + (i - j) * d + e] += dS[j] * qe
                dq[i, e] = acc
        for c in range(d):
            for e in range(d):
                aq = 0.0
                ak = 0.0
                av = 0.0
                for s in range(t):
                    zc = Z[li, s, c]
                    aq += zc * dq[s, e]
                    ak += zc * dkk[s, e]
                    av += zc * dzv[s, e]
                g[o + c * d + e] += aq
                g[o + d * d + c * d + e] += ak
                g[o + 2 * d * d + c * d + e] += av
        for s in range(t):
            for c in range(d):
                acc = dz[s, c]
                for e in range(d):
                    acc += (dzv[s, e] * theta[o + 2 * d * d + c * d + e] + dq[s, e] * theta[o + c * d + e]
                            + dkk[s, e] * theta[o + d * d + c * d + e])
                dzn[s, c] = acc
        for s in range(t):
            for c in range(d):
                dz[s, c] = dzn[s, c]
    for s in range(t):
        for e in range(d):
            g[xs[s] * d + e] += dz[s, e]
    return loss * norm


@register_jitable
def _train_tf_one(seed, theta, k, d, t, L, steps, batch, lr, wd, checkpoints, th_at, losses):  # pragma: no cover - compiled
    """Adam (the reference's formula: m = 0.9 m + 0.1 g, s = 0.999 s + 0.001 g^2, bias-corrected,
    decoupled weight decay p (1 - lr wd)) on icl_batch(seed, step); theta is updated in place."""
    n = theta.shape[0]
    g = np.zeros(n)
    m = np.zeros(n)
    v2 = np.zeros(n)
    xb = np.empty((batch, t + 1), dtype=np.int64)
    P, M, pi = np.empty((k, k)), np.empty((k, k + 1)), np.empty(k)
    Z = np.empty((L + 1, t, d))
    Qa, Ka, Va = np.empty((L, t, d)), np.empty((L, t, d)), np.empty((L, t, d))
    A = np.zeros((L, t, t))
    dz, dzn, B3 = np.empty((t, d)), np.empty((t, d)), np.empty((3, t, d))
    dS, probs = np.empty(t), np.empty(k)
    norm = 1.0 / (batch * t)
    ci = 0
    for step in range(steps + 1):
        if ci < checkpoints.shape[0] and checkpoints[ci] == step:
            for i in range(n):
                th_at[ci, i] = theta[i]
            ci += 1
        if step == steps:
            break
        icl_batch_into(seed, step, k, xb, P, M, pi)
        g.fill(0.0)
        loss = 0.0
        for b in range(batch):
            loss += transformer_loss_grad_seq(theta, g, xb[b], k, d, t, L, norm, Z, Qa, Ka, Va, A, dz, dzn, B3, dS, probs)
        losses[step] = loss
        if not adamw_step(theta, m, v2, g, lr, wd, step):
            return True
    return False


@nb.njit(parallel=True, cache=True, error_model="numpy")
def train_transformer_runs(seeds, theta, k, d, t, L, steps, batch, lrs, wd, checkpoints, th_at, losses, diverged):  # pragma: no cover - compiled
    """Train len(seeds) transformers (flat parameters theta (R, n), updated in place) in parallel."""
    for r in prange(seeds.shape[0]):
        diverged[r] = _train_tf_one(seeds[r], theta[r], k, d, t, L, steps, batch, lrs[r], wd, checkpoints, th_at[r], losses[r])
