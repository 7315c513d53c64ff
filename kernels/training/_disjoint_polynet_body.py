"""The per-run body of disjoint-PolyNet SGD (kernels/training/disjoint_polynet.py), shared by its twins.

``_drive`` (the counter-based batch stream, forward, hand-written backward, the learning-rate rule and
the diagnostics of one run) and its helpers are ``register_jitable`` functions: the numba CPU driver
(kernels/training/disjoint_polynet.py) and the numba.cuda launcher
(kernels/cuda/training_disjoint_polynet.py) compile this same code, and neither is imported here.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from ..rng import counter_u64, sign_from_bit, unit_double


@register_jitable
def _observe(w, s, aux):  # pragma: no cover - compiled
    """Fold the current state into the window minima of xi_i w_{i,0} (aux row 3); return
    (max_{i, j>0} |w_ij|, max_{i,j} |s_ij|)."""
    k = w.shape[0]
    n1 = w.shape[1]
    irr = 0.0
    mart = 0.0
    for i in range(k):
        a = aux[2, i] * w[i, 0]
        if a < aux[3, i]:
            aux[3, i] = a
        for j in range(n1):
            if j > 0:
                b = abs(w[i, j])
                if b > irr:
                    irr = b
            m = abs(s[i, j])
            if m > mart:
                mart = m
    return irr, mart


@register_jitable
def _record(c, w, aux, win_irr, win_mart, record_all, rec_rel, rec_all, rec_min, rec_irr, rec_mart):  # pragma: no cover
    k = w.shape[0]
    n1 = w.shape[1]
    for i in range(k):
        rec_rel[c, i] = w[i, 0]
        rec_min[c, i] = aux[3, i]
        aux[3, i] = np.inf
    rec_irr[c] = win_irr
    rec_mart[c] = win_mart
    if record_all:
        for i in range(k):
            for j in range(n1):
                rec_all[c, i, j] = w[i, j]


@register_jitable
def _run_one(w, s, gacc, xs, aux, steps, seed, batch, lr_mode, lr, noise, checkpoints, record_all,
             rec_rel, rec_all, rec_min, rec_irr, rec_mart):  # pragma: no cover - compiled
    """One SGD run from w (updated in place; s must be zero): fills the records, returns
    (diverged_at or -1, max irrelevant |w|, max |s|, max |Delta|, max |ghat| / P)."""
    k = w.shape[0]
    n1 = w.shape[1]
    n_words = (k * n1 + 63) // 64
    per_sample = np.uint64(n_words + 1)
    scale_pop = 1.0 - 2.0 * noise
    for i in range(k):
        v = w[i, 0]
        aux[2, i] = 1.0 if v > 0.0 else (-1.0 if v < 0.0 else 0.0)
        aux[3, i] = np.inf
    n_ck = checkpoints.shape[0]
    c = 0
    diverged_at = -1
    max_inc = 0.0
    max_ratio = 0.0
    irr, mart = _observe(w, s, aux)
    win_irr = irr
    win_mart = mart
    max_irr = irr
    max_mart = mart
    if c < n_ck and checkpoints[c] == 0:
        _record(c, w, aux, win_irr, win_mart, record_all, rec_rel, rec_all, rec_min, rec_irr, rec_mart)
        win_irr = 0.0
        win_mart = 0.0
        c += 1
    for i in range(k):  # ||w_i||_1 (afterwards maintained by the update loop, in the same order)
        acc = 0.0
        for j in range(n1):
            acc += abs(w[i, j])
        aux[5, i] = acc
    for tau in range(1, steps + 1):
        key = np.uint64(tau - 1)
        # learning rates from w^(tau)
        for i in range(k):
            p = 1.0
            for l in range(k):
                if l != i:
                    p *= aux[5, l]
            aux[4, i] = p
            aux[1, i] = lr / p if lr_mode == 1 else lr
        # population gradient (relevant coordinates) from w^(tau)
        for i in range(k):
            p = 1.0
            for l in range(k):
                if l != i:
                    p *= w[l, 0]
            aux[6, i] = -(scale_pop * p)
        # batch: gacc = sum_b y_b (prod_{l != i} <w_l, x_bl>) x_bi
        for i in range(k):
            for j in range(n1):
                gacc[i, j] = 0.0
        for b in range(batch):
            base = np.uint64(b) * per_sample
            widx = -1
            word = np.uint64(0)
            y = 1.0
            for i in range(k):
                lin = 0.0
                for j in range(n1):
                    q = i * n1 + j
                    wq = q >> 6
                    if wq != widx:
                        word = counter_u64(seed, key, base + np.uint64(wq))
                        widx = wq
                    x = sign_from_bit(word, q & 63)
                    xs[i, j] = x
                    lin += w[i, j] * x
                aux[0, i] = lin
                y *= xs[i, 0]
            if noise > 0.0 and unit_double(counter_u64(seed, key, base + np.uint64(n_words))) < noise:
                y = -y
            for i in range(k):
                p = y
                for l in range(k):
                    if l != i:
                        p *= aux[0, l]
                for j in range(n1):
                    gacc[i, j] += p * xs[i, j]
        # update; the state after the step is observed on the fly and folded in if the step is finite
        bad = False
        step_irr = 0.0
        step_mart = 0.0
        for i in range(k):
            eta = aux[1, i]
            big_p = aux[4, i]
            norm = 0.0
            for j in range(n1):
                gh = -gacc[i, j] if batch == 1 else -(gacc[i, j] / batch)
                g = aux[6, i] if j == 0 else 0.0
                d = eta * (g - gh)
                sv = s[i, j] + d
                s[i, j] = sv
                ad = abs(d)
                if ad > max_inc:
                    max_inc = ad
                agh = abs(gh)
                if agh > max_ratio * big_p:
                    ratio = agh / big_p
                    if ratio > max_ratio:
                        max_ratio = ratio
                nw = w[i, j] - eta * gh
                w[i, j] = nw
                anw = abs(nw)
                norm += anw
                if not anw <= 1e100:
                    bad = True
                if j > 0:
                    if anw > step_irr:
                        step_irr = anw
                else:
                    aux[0, i] = aux[2, i] * nw
                asv = abs(sv)
                if asv > step_mart:
                    step_mart = asv
            aux[5, i] = norm
        if bad:
            diverged_at = tau
            break
        for i in range(k):
            if aux[0, i] < aux[3, i]:
                aux[3, i] = aux[0, i]
        if step_irr > win_irr:
            win_irr = step_irr
        if step_mart > win_mart:
            win_mart = step_mart
        if step_irr > max_irr:
            max_irr = step_irr
        if step_mart > max_mart:
            max_mart = step_mart
        if c < n_ck and checkpoints[c] == tau:
            _record(c, w, aux, win_irr, win_mart, record_all, rec_rel, rec_all, rec_min, rec_irr, rec_mart)
            win_irr = 0.0
            win_mart = 0.0
            c += 1
    while c < n_ck:
        for i in range(k):
            rec_rel[c, i] = np.nan
            rec_min[c, i] = np.nan
            if record_all:
                for j in range(n1):
                    rec_all[c, i, j] = np.nan
        rec_irr[c] = np.nan
        rec_mart[c] = np.nan
        c += 1
    return diverged_at, max_irr, max_mart, max_inc, max_ratio


@register_jitable
def _drive(r, W, S, G, XS, AUX, steps, seeds, batch, lr_mode, lrs, noises, checkpoints, record_all,
           rec_rel, rec_all, rec_min, rec_irr, rec_mart, div_at, max_irr, max_mart, max_inc, max_ratio):  # pragma: no cover
    ra = rec_all[r] if record_all else rec_all[0]
    d, a, b, e, f = _run_one(W[r], S[r], G[r], XS[r], AUX[r], steps, seeds[r], batch, lr_mode, lrs[r], noises[r],
                             checkpoints, record_all, rec_rel[r], ra, rec_min[r], rec_irr[r], rec_mart[r])
    div_at[r] = d
    max_irr[r] = a
    max_mart[r] = b
    max_inc[r] = e
    max_ratio[r] = f
