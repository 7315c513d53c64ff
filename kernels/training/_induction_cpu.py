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
def _off(k, d, t, H, li, h):  # pragma: no cover - compiled
    """Offset of (layer li, head h)'s block (WQ, WK, WV, pos follow at + 0, + d^2, + 2 d^2, + 3 d^2); H = 1 for the
    single-head layout."""
    return 2 * k * d + (li * H + h) * (3 * d * d + t * d)


@register_jitable
def _head_block(v, k, d, t, H, li, h):  # pragma: no cover - compiled
    """Views of (layer li, head h)'s block of the flat vector v (theta or its gradient): (W (3, d, d) = WQ, WK,
    WV; P (t, d), the relative-position rows)."""
    o = _off(k, d, t, H, li, h)
    dd = d * d
    return v[o:o + 3 * dd].reshape((3, d, d)), v[o + 3 * dd:o + 3 * dd + t * d].reshape((t, d))


@register_jitable
def readout_loss_grad(theta, g, xs, k, d, t, L, norm, Z, dz, probs):  # pragma: no cover - compiled
    """Softmax read-out of a transformer's last residual stream Z[L] (logits Z[L, s] R, R = theta[k d :
    k d + d k] as (d, k)): returns the summed next-token cross-entropy sum_s -log softmax(...)[x_{s+1}],
    adds norm * dloss/dR to g and writes dloss/dZ[L, s] (times norm) to dz.  Shared by the single-head
    and the multi-head trainers (through attention_loss_grad_seq)."""
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
        y = xs[s + 1]
        lp = probs[y] - mx
        tot = 0.0
        for c in range(k):
            probs[c] = math.exp(probs[c] - mx)
            tot += probs[c]
        loss -= lp - math.log(tot)
        for c in range(k):
            probs[c] = (probs[c] / tot - (1.0 if c == y else 0.0)) * norm
        for e in range(d):
            acc = 0.0
            for c in range(k):
                g[ro + e * k + c] += Z[L, s, e] * probs[c]
                acc += probs[c] * theta[ro + e * k + c]
            dz[s, e] = acc
    return loss


@register_jitable
def tf_workspace(k, d, t, L, H):  # pragma: no cover - compiled
    """Workspace of ``attention_loss_grad_seq`` for L layers of H heads: Z (L + 1, t, d), Qa, Ka, Va (L, H, t, d),
    A (L, H, t, t), T3 (3, d, t), WT (3, d, d), dz, dzn (t, d), B3 (3, t, d), dS (t), rows (4, d), probs (k)."""
    return (np.empty((L + 1, t, d)), np.empty((L, H, t, d)), np.empty((L, H, t, d)), np.empty((L, H, t, d)),
            np.zeros((L, H, t, t)), np.empty((3, d, t)), np.empty((3, d, d)), np.empty((t, d)), np.empty((t, d)),
            np.empty((3, t, d)), np.empty(t), np.empty((4, d)), np.empty(k))


# The per-head bodies below compute every output entry with the same floating-point operations in the same order
# as the plain loops they replace (each sum from 0.0, over its index in increasing order); only the loop nesting
# differs: the independent outputs run in the innermost loop over 1-D row views indexed by the loop counter, which
# numba compiles without the negative-index wrap-around and LLVM vectorises (no reassociation, no FMA contraction).


@register_jitable
def _head_forward(Zin, Zout, W, P, Qh, Kh, Vh, Ah, T3, acc, t, d, sq):  # pragma: no cover - compiled
    """One attention head on the residual stream Zin (t, d), ADDED to Zout (t, d).  W (3, d, d) = WQ, WK, WV and
    P (t, d) = the relative positions, views into theta.  Writes Qh, Kh, Vh = Zin WQ, Zin WK, Zin WV (entry (s, e)
    = sum over c of Zin[s, c] W[c, e]), Ah[i, :i+1] = softmax_j S_ij with S_ij = (sum over e of Qh[i, e] (Kh[j, e]
    + P[i - j, e])) / sq, and adds sum over j of Ah[i, j] Vh[j, e] to Zout[i, e].  Scratch: T3 (3, d, t) (Kh
    transposed; the positions reversed, T3[1, e, r] = P[t - 1 - r, e], so the score sums run with j innermost),
    acc (d)."""
    WQ, WK, WV = W[0], W[1], W[2]
    KT, PR = T3[0], T3[1]
    for s in range(t):
        z, q, kk, v = Zin[s], Qh[s], Kh[s], Vh[s]
        for e in range(d):
            q[e] = 0.0
            kk[e] = 0.0
            v[e] = 0.0
        for c in range(d):
            zc = z[c]
            wq, wk, wv = WQ[c], WK[c], WV[c]
            for e in range(d):
                q[e] += zc * wq[e]
            for e in range(d):
                kk[e] += zc * wk[e]
            for e in range(d):
                v[e] += zc * wv[e]
        ps = P[s]
        for e in range(d):
            KT[e, s] = kk[e]
            PR[e, t - 1 - s] = ps[e]
    for i in range(t):
        q, a = Qh[i], Ah[i]
        for j in range(i + 1):
            a[j] = 0.0
        for e in range(d):
            qe = q[e]
            kt = KT[e]
            pr = PR[e, t - 1 - i:]  # pr[j] = P[i - j, e]
            for j in range(i + 1):
                a[j] += qe * (kt[j] + pr[j])
        mx = -np.inf
        for j in range(i + 1):
            sc = a[j] / sq
            a[j] = sc
            mx = max(mx, sc)
        tot = 0.0
        for j in range(i + 1):
            a[j] = math.exp(a[j] - mx)
            tot += a[j]
        for j in range(i + 1):
            a[j] /= tot
        for e in range(d):
            acc[e] = 0.0
        for j in range(i + 1):
            aj = a[j]
            v = Vh[j]
            for e in range(d):
                acc[e] += aj * v[e]
        zo = Zout[i]
        for e in range(d):
            zo[e] += acc[e]


@register_jitable
def _head_backward(Zin, dz, dzn, W, P, gW, gP, Qh, Kh, Vh, Ah, B3, T3, WT, dS, rows, t, d, sq, residual_first):  # pragma: no cover - compiled
    """Backward of ``_head_forward`` given dz = dloss/dZout (t, d): ADDS the gradients of W and P to gW (3, d, d)
    and gP (t, d) (views into g) and the head's dloss/dZin, sum over e of (dzv[s, e] WV[c, e] + dq[s, e] WQ[c, e])
    + dkk[s, e] WK[c, e], to dzn[s, c]: with residual_first the terms are added to dzn[s, c] one by one (dzn holds
    dz, the single-head trainer's order), else summed from 0.0 and then added (the multi-head order).  B3 (3, t, d)
    receives dq, dkk, dzv; scratch T3 (3, d, t), WT (3, d, d), dS (t), rows (4, d)."""
    dq, dkk, dzv = B3[0], B3[1], B3[2]
    VT = T3[2]
    for m in range(3):
        Wm, WTm = W[m], WT[m]
        for c in range(d):
            wr = Wm[c]
            for e in range(d):
                WTm[e, c] = wr[e]
    for s in range(t):
        v = Vh[s]
        for e in range(d):
            VT[e, s] = v[e]
    # dzv[j, e] = sum over i >= j of Ah[i, j] dz[i, e]
    for j in range(t):
        r = dzv[j]
        for e in range(d):
            r[e] = 0.0
        for i in range(j, t):
            aij = Ah[i, j]
            dzi = dz[i]
            for e in range(d):
                r[e] += aij * dzi[e]
    dkk.fill(0.0)
    for i in range(t):
        # dS[j] = sum over e of dz[i, e] Vh[j, e]; then the softmax backward
        a = Ah[i]
        for j in range(i + 1):
            dS[j] = 0.0
        dzi = dz[i]
        for e in range(d):
            de = dzi[e]
            vt = VT[e]
            for j in range(i + 1):
                dS[j] += de * vt[j]
        dot = 0.0
        for j in range(i + 1):
            dot += dS[j] * a[j]
        for j in range(i + 1):
            dS[j] = a[j] * (dS[j] - dot) / sq
        # dq[i, e] = sum over j of dS[j] (Kh[j, e] + P[i - j, e]); dkk[j] and gP[i - j] get dS[j] Qh[i]
        q, dqi = Qh[i], dq[i]
        for e in range(d):
            dqi[e] = 0.0
        for j in range(i + 1):
            sj = dS[j]
            kj, pm, dk, gp = Kh[j], P[i - j], dkk[j], gP[i - j]
            for e in range(d):
                dqi[e] += sj * (kj[e] + pm[e])
                x = sj * q[e]
                dk[e] += x
                gp[e] += x
    # gW[m, c, e] += sum over s of Zin[s, c] (dq, dkk, dzv)[s, e]
    aq, ak, av = rows[0], rows[1], rows[2]
    for c in range(d):
        for e in range(d):
            aq[e] = 0.0
            ak[e] = 0.0
            av[e] = 0.0
        for s in range(t):
            zc = Zin[s, c]
            dqs, dks, dvs = dq[s], dkk[s], dzv[s]
            for e in range(d):
                aq[e] += zc * dqs[e]
            for e in range(d):
                ak[e] += zc * dks[e]
            for e in range(d):
                av[e] += zc * dvs[e]
        gq, gk, gv = gW[0, c], gW[1, c], gW[2, c]
        for e in range(d):
            gq[e] += aq[e]
            gk[e] += ak[e]
            gv[e] += av[e]
    WQT, WKT, WVT = WT[0], WT[1], WT[2]
    for s in range(t):
        dn = dzn[s]
        r = dn if residual_first else rows[3]
        if not residual_first:
            for c in range(d):
                r[c] = 0.0
        dqs, dks, dvs = dq[s], dkk[s], dzv[s]
        for e in range(d):
            x, y, w = dvs[e], dqs[e], dks[e]
            wv, wq, wk = WVT[e], WQT[e], WKT[e]
            for c in range(d):
                r[c] += x * wv[c] + y * wq[c] + w * wk[c]
        if not residual_first:
            for c in range(d):
                dn[c] += r[c]


@register_jitable
def attention_loss_grad_seq(theta, g, xs, k, d, t, L, H, norm, residual_first, ws):  # pragma: no cover - compiled
    """CE of one sequence xs (t + 1) (inputs xs[:t], targets xs[1:]) under the attention-only transformer with L
    layers of H heads (parameter block of (layer li, head h) at ``_off``),
    weighted by norm; ADDS the gradient to g and returns the loss contribution.  Forward: Z[0] = emb[xs[:t]],
    Z[li + 1] = Z[li] + the heads of ``_head_forward``; the readout; backward layer by layer and head by head
    (``_head_backward``, the residual_first order for the single-head trainer).  ws = ``tf_workspace(k, d, t, L,
    H)``."""
    Z, Qa, Ka, Va, A, T3, WT, dz, dzn, B3, dS, rows, probs = ws
    sq = math.sqrt(d)
    emb = theta[:k * d].reshape((k, d))
    for s in range(t):
        z0, er = Z[0, s], emb[xs[s]]
        for e in range(d):
            z0[e] = er[e]
    for li in range(L):
        Zin, Zout = Z[li], Z[li + 1]
        for s in range(t):
            zi, zo = Zin[s], Zout[s]
            for e in range(d):
                zo[e] = zi[e]
        for h in range(H):
            W, P = _head_block(theta, k, d, t, H, li, h)
            _head_forward(Zin, Zout, W, P, Qa[li, h], Ka[li, h], Va[li, h], A[li, h], T3, rows[0], t, d, sq)
    loss = readout_loss_grad(theta, g, xs, k, d, t, L, norm, Z, dz, probs)
    for li in range(L - 1, -1, -1):
        for s in range(t):
            dzs, dns = dz[s], dzn[s]
            for c in range(d):
                dns[c] = dzs[c]
        for h in range(H):
            W, P = _head_block(theta, k, d, t, H, li, h)
            gW, gP = _head_block(g, k, d, t, H, li, h)
            _head_backward(Z[li], dz, dzn, W, P, gW, gP, Qa[li, h], Ka[li, h], Va[li, h], A[li, h], B3, T3, WT, dS, rows,
                           t, d, sq, residual_first)
        for s in range(t):
            dzs, dns = dz[s], dzn[s]
            for c in range(d):
                dzs[c] = dns[c]
    gemb = g[:k * d].reshape((k, d))
    for s in range(t):
        gr, dzs = gemb[xs[s]], dz[s]
        for e in range(d):
            gr[e] += dzs[e]
    return loss * norm


@register_jitable
def transformer_loss_grad_seq(theta, g, xs, k, d, t, L, norm, ws):  # pragma: no cover - compiled
    """CE of one sequence xs (t + 1) (inputs xs[:t], targets xs[1:]), weighted by norm; ADDS the gradient
    to g and returns the loss contribution.  The mathematics of ``transformer_loss_grad`` (the numpy
    reference), position by position: ``attention_loss_grad_seq`` with one head per layer, the residual
    gradient summed first.  ws = ``tf_workspace(k, d, t, L, 1)``."""
    return attention_loss_grad_seq(theta, g, xs, k, d, t, L, 1, norm, True, ws)


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
    ws = tf_workspace(k, d, t, L, 1)
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
            loss += transformer_loss_grad_seq(theta, g, xb[b], k, d, t, L, norm, ws)
        losses[step] = loss
        if not adamw_step(theta, m, v2, g, lr, wd, step):
            return True
    return False


@nb.njit(parallel=True, cache=True, error_model="numpy")
def train_transformer_runs(seeds, theta, k, d, t, L, steps, batch, lrs, wd, checkpoints, th_at, losses, diverged):  # pragma: no cover - compiled
    """Train len(seeds) transformers (flat parameters theta (R, n), updated in place) in parallel."""
    for r in prange(seeds.shape[0]):
        diverged[r] = _train_tf_one(seeds[r], theta[r], k, d, t, L, steps, batch, lrs[r], wd, checkpoints, th_at[r], losses[r])
