"""The per-run body of the two-layer engine (kernels/training/two_layer.py) and the layout of its data
stream, shared by the three twins.

``_BODIES[(dtype, batched)]`` holds the ``register_jitable`` per-run functions built by ``_build`` (the
counter-based data stream, forward, hand-written backward, the optimiser, evaluation and records):
``batched=True`` is the CPU body (the batch as a matrix, products in vectorised loops), ``False`` the per-sample body of the
CUDA kernels.  The reserved step keys of the counter stream and ``parity_samples`` (the numpy decoding
of that stream: the data oracle of the reference twin) live here too.  The numba CPU driver
(kernels/training/two_layer.py), the numba.cuda launchers (kernels/cuda/training_two_layer*.py) and the
numpy reference (kernels/training/_two_layer_ref.py) import this module; it imports none of them.  The CPU body's
row sums (add_combination's order, the group tables that reproduce it, the read-out sums) are built by
kernels/training/_two_layer_rows.py.
"""

from __future__ import annotations

import math

import numpy as np
from numba.extending import register_jitable

from .. import _checks
from ..activations import POLY, activation_slope, activation_value
from ..rng import counter_bounded, counter_u64, counter_u64_array, counter_u64_fill, unit_double
from ._common import OVERFLOW
from ._two_layer_rows import build_row_sums


#: reserved step keys of the counter stream (online steps use 0 .. T-1 < 2^62)
EVAL_STEP = np.uint64(2**64 - 1)
TRAIN_STEP = np.uint64(2**64 - 2)
INIT_STEP = np.uint64(2**64 - 3)
_MAX_N = 4096
#: CPU body: layers at least this wide use the vectorised loops, narrower ones gemm (np.dot).  Measured
#: 2026-11-27 (one thread, float32, n = 30, B = 16 and 128, loops / gemm time): 0.7 at r = 16, 0.9 at r = 24,
#: 0.65 at r = 32, 0.3-0.6 at r = 100 and 1000; at r <= 10 gemm is 1.3-3x faster than the loops
LOOP_MIN_WIDTH = 24
#: CPU body, loop path: the group tables (``fill_group``) are built when at least this many samples share W (forward)
#: or rows of grad_W share a batch (backward); each table entry then replaces four products and three adds for every one
PAIR_TABLE_MIN = 8
#: pseudo activation code of the PolyNet read-out f = prod_j (<w_j, x> + b_j) (no activation, no second layer)
PRODUCT = -1


# ---------------------------------------------------------------------------------------------
# the per-run body, built once per float type, shared by the CPU and CUDA twins
# ---------------------------------------------------------------------------------------------


def _build(F, batched: bool):
    """Compile-ready per-run functions whose arithmetic is in the float type F (np.float32/np.float64).

    ``batched=False``: the per-sample body (forward and backward one sample at a time, loops only): the
    CUDA twin's body.  ``batched=True``: the CPU body, which forms the batch as a B x n matrix and
    computes H = X W and grad_W = X^T D in loops over row views that LLVM vectorises (no BLAS).  Both share the
    data stream, the loss, the optimiser, evaluation and records (``run_one``)."""
    zero = F(0.0)
    one = F(1.0)
    half = F(0.5)
    two = F(2.0)
    limit = F(min(OVERFLOW, 1e38))  # the divergence threshold, representable in F

    @register_jitable
    def batch_sample(seed, key, b, train_size, per):  # pragma: no cover - compiled
        """(step key, first word) of sample b of the batch at step ``key``: online, sample b of that step;
        with a fixed training set of ``train_size`` samples, the one drawn by counter_bounded(seed, key, b)."""
        if train_size > 0:
            idx = counter_bounded(seed, key, np.uint64(b), np.uint64(train_size))
            return TRAIN_STEP, np.uint64(idx) * per
        return key, np.uint64(b) * per

    @register_jitable
    def flip(y, seed, key, base, n_words, noise):  # pragma: no cover - compiled
        """The label y, flipped when the sample's noise word (word n_words) gives a uniform < noise."""
        if noise > 0.0 and unit_double(counter_u64(seed, key, base + np.uint64(n_words))) < noise:
            return -y
        return y

    @register_jitable
    def draw_sample(seed, key, base, n, support, n_words, xi):  # pragma: no cover - compiled
        """Draw the sample whose words start at ``base`` into the int64 row xi (layout of ``load_sample``);
        return the clean label chi_S(x) (in F)."""
        widx = -1
        word = np.uint64(0)
        cnt = 0
        for i in range(n):
            q = i >> 6
            if q != widx:
                word = counter_u64(seed, key, base + np.uint64(q))
                widx = q
            bit = np.int64((word >> np.uint64(i & 63)) & np.uint64(1))
            xi[i] = 1 - 2 * bit
            xi[n + cnt] = i  # branch-free compaction of the coordinates with x_i = -1
            cnt += bit
        xi[2 * n] = cnt
        y = 1
        for s in range(support.shape[0]):
            y *= xi[support[s]]
        return one if y > 0 else -one

    @register_jitable
    def load_sample(x, xi):  # pragma: no cover - compiled
        """Store the ±1 vector x in the int64 row xi (length 2n + 1): xi[:n] = x, xi[n : n + c] = the c
        coordinates with x_i = -1 in increasing order, xi[2n] = c.  The forward and backward passes loop
        over that list (no data-dependent branches: random signs would defeat branch prediction)."""
        n = x.shape[0]
        cnt = 0
        for i in range(n):
            neg = 1 if x[i] < 0 else 0
            xi[i] = 1 - 2 * neg
            xi[n + cnt] = i
            cnt += neg
        xi[2 * n] = cnt

    @register_jitable
    def prepare(theta, n, r, wk):  # pragma: no cover - compiled
        """wk[3r : 4r] = b + sum_i W[i, .]: the pre-activations at x = (1, ..., 1).  Then for any x,
        h = that - 2 sum_{i: x_i = -1} W[i, .], which touches half of W on average.  (Work row layout
        wk = [h | sigma(h) | d | base | dsum], r entries each; flat indices, no array views: views cost
        vectorisation in numba.)"""
        ob = n * r
        o = 3 * r
        for j in range(r):
            wk[o + j] = theta[ob + j]
        for i in range(n):
            oi = i * r
            for j in range(r):
                wk[o + j] += theta[oi + j]

    @register_jitable
    def forward(theta, xi, n, r, code, params, wk):  # pragma: no cover - compiled
        """f(x; theta) (``prepare`` must have been called for this theta); leaves the pre-activations in
        wk[:r] and sigma of them in wk[r : 2r]."""
        ob = 3 * r
        for j in range(r):
            wk[j] = wk[ob + j]
        for t in range(xi[2 * n]):
            oi = xi[n + t] * r
            for j in range(r):
                wk[j] -= two * theta[oi + j]
        if code == PRODUCT:  # PolyNet: f = prod_j h_j; act[j] = prod_{l < j} h_l (prefix products for backward)
            acc = one
            for j in range(r):
                wk[r + j] = acc
                acc *= wk[j]
            return acc
        if code == 1:
            for j in range(r):
                hj = wk[j]
                wk[r + j] = max(zero, hj)
        else:
            for j in range(r):
                wk[r + j] = F(activation_value(code, wk[j], params))
        ou = n * r + r
        o0 = zero
        o1 = zero
        o2 = zero
        o3 = zero
        j = 0
        while j + 4 <= r:  # four independent partial sums (the same order in every twin)
            o0 += theta[ou + j] * wk[r + j]
            o1 += theta[ou + j + 1] * wk[r + j + 1]
            o2 += theta[ou + j + 2] * wk[r + j + 2]
            o3 += theta[ou + j + 3] * wk[r + j + 3]
            j += 4
        while j < r:
            o0 += theta[ou + j] * wk[r + j]
            j += 1
        return theta[ou + r] + ((o0 + o1) + (o2 + o3))

    @register_jitable
    def loss_and_slope(loss, f, y):  # pragma: no cover - compiled
        """(loss, d loss / d f) of one sample (loss codes in the order of LOSSES)."""
        m = y * f
        if loss == 0:
            if m < one:
                return one - m, -y
            return zero, zero
        if loss == 1:
            d = f - y
            return half * d * d, d
        if loss == 2:
            return -m, -y
        # logistic, stable on both sides
        if m > zero:
            e = F(math.exp(-np.float64(m)))
            return F(math.log1p(np.float64(e))), -y * e / (one + e)
        e = F(math.exp(np.float64(m)))
        return -m + F(math.log1p(np.float64(e))), -y / (one + e)

    @register_jitable
    def backward(theta, grad, xi, n, r, code, params, wk, g, tu, tc):  # pragma: no cover - compiled
        """Accumulate g * d f / d theta of one sample in the split form: dsum += d (d_j = g u_j sigma'(h_j)),
        grad rows i with x_i = -1 += d, grad_u += g sigma(h), grad_c += g.  ``finish_batch`` turns the
        rows into sum_b x_bi d_b = dsum - 2 (rows)."""
        ou = n * r + r
        od = 2 * r
        if code == PRODUCT:  # d f / d h_j = prod_{l < j} h_l * prod_{l > j} h_l (no division: zeros are fine)
            suffix = g
            for j in range(r - 1, -1, -1):
                wk[od + j] = wk[r + j] * suffix
                suffix *= wk[j]
        elif code == 1:
            for j in range(r):
                wk[od + j] = g * theta[ou + j] if wk[j] > zero else zero
        else:
            for j in range(r):
                wk[od + j] = g * theta[ou + j] * F(activation_slope(code, wk[j], params))
        os_ = 4 * r
        for j in range(r):
            wk[os_ + j] += wk[od + j]
        for t in range(xi[2 * n]):
            oi = xi[n + t] * r
            for j in range(r):
                grad[oi + j] += wk[od + j]
        if tu and code != PRODUCT:
            for j in range(r):
                grad[ou + j] += g * wk[r + j]
        if tc and code != PRODUCT:
            grad[ou + r] += g

    @register_jitable
    def finish_batch(grad, n, r, wk, tb):  # pragma: no cover - compiled
        """grad_W[i] = sum_b x_bi d_b = dsum - 2 (sum over samples with x_bi = -1); grad_b = dsum."""
        os_ = 4 * r
        for i in range(n):
            oi = i * r
            for j in range(r):
                grad[oi + j] = wk[os_ + j] - two * grad[oi + j]
        if tb:
            for j in range(r):
                grad[n * r + j] = wk[os_ + j]

    @register_jitable
    def accuracy(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk):  # pragma: no cover
        """Fraction of the m samples at step ``key`` (labels flipped as in training when ``noisy``) with y f > 0."""
        per = np.uint64(n_words + 1)
        prepare(theta, n, r, wk)
        hits = 0
        for s in range(m):
            base = np.uint64(s) * per
            y = draw_sample(seed, key, base, n, support, n_words, xi)
            if noisy:
                y = flip(y, seed, key, base, n_words, noise)
            f = forward(theta, xi, n, r, code, params, wk)
            if y * f > zero:
                hits += 1
        return hits / m

    @register_jitable
    def decode_word(Xs, q, word, n):  # pragma: no cover - compiled
        """Xs[64q + i] = 1 - 2 (bit i of ``word``) (±1 in F, exact) for the coordinates of word q, in a loop over the
        bits that LLVM vectorises."""
        lo = 64 * q
        for i in range(min(64, n - lo)):
            Xs[lo + i] = one - two * F((word >> np.uint64(i)) & np.uint64(1))

    @register_jitable
    def parity_label(Xs, support):  # pragma: no cover - compiled
        """chi_S(x) = prod_{i in S} x_i of the row Xs (in F)."""
        y = one
        for k in range(support.shape[0]):
            y *= Xs[support[k]]
        return y

    @register_jitable
    def draw_row(seed, key, base, n, support, n_words, X, s):  # pragma: no cover - compiled
        """Draw the sample whose words start at ``base`` into row s of X (±1 in F); return chi_S(x).  One word
        per 64 coordinates (``decode_word``)."""
        Xs = X[s]
        for q in range(n_words):
            decode_word(Xs, q, counter_u64(seed, key, base + np.uint64(q)), n)
        return parity_label(Xs, support)

    @register_jitable
    def draw_rows(seed, key, first, count, n, support, n_words, noisy, noise, X, Y, live):  # pragma: no cover - compiled
        """Rows 0 .. count - 1 of X := the samples first, ..., first + count - 1 of step ``key`` (those of
        ``draw_row``, whose words start at (first + s) (n_words + 1)), Y[s] := chi_S(x), flipped as by ``flip`` when
        ``noisy``.  The words of all rows come first, one vectorised loop per word position (``counter_u64_fill``:
        the same values), into ``live`` (int64 scratch of >= count (n_words + 1) entries, read as uint64)."""
        per = np.uint64(n_words + 1)
        nw = n_words + 1 if noisy and noise > 0.0 else n_words
        words = live.view(np.uint64)
        for q in range(nw):
            counter_u64_fill(seed, key, np.uint64(first) * per + np.uint64(q), per, words[q * count : (q + 1) * count],
                             count)
        for s in range(count):
            Xs = X[s]
            for q in range(n_words):
                decode_word(Xs, q, words[q * count + s], n)
            y = parity_label(Xs, support)
            if nw > n_words and unit_double(words[n_words * count + s]) < noise:
                y = -y
            Y[s] = y

    (add_combination, fill_group, group_term_of, group_term, row_term, add_terms, copy_row, weight_groups,
     is_zero_row, table_parts, readouts, accumulate_rows) = build_row_sums(F)

    @register_jitable
    def activate_row(h, a, r, code, params, acc):  # pragma: no cover - compiled
        """a[j] = sigma(h[j]) for j < r (CPU body; any activation but ReLU and PRODUCT).  Polynomials go by
        Horner's rule with the loop over the coefficients outside the loop over the units, which then
        vectorises (``acc``: a float64 scratch row of length >= r); every unit sees the float64 operations of
        ``activation_value`` in the same order."""
        if code == POLY:
            for j in range(r):
                acc[j] = 0.0
            for q in range(params.shape[0] - 1, -1, -1):
                c = params[q]
                for j in range(r):
                    acc[j] = acc[j] * np.float64(h[j]) + c
            for j in range(r):
                a[j] = F(acc[j])
        else:
            for j in range(r):
                a[j] = F(activation_value(code, h[j], params))

    @register_jitable
    def slope_row(g, u, h, d, r, code, params, acc):  # pragma: no cover - compiled
        """d[j] = g u[j] sigma'(h[j]) for j < r (CPU body; any activation but ReLU and PRODUCT); polynomials
        vectorised as in ``activate_row``, with the operations of ``activation_slope``."""
        if code == POLY:
            for j in range(r):
                acc[j] = 0.0
            for q in range(params.shape[0] - 1, 0, -1):
                c = q * params[q]
                for j in range(r):
                    acc[j] = acc[j] * np.float64(h[j]) + c
            for j in range(r):
                d[j] = g * u[j] * F(acc[j])
        else:
            for j in range(r):
                d[j] = g * u[j] * F(activation_slope(code, h[j], params))

    @register_jitable
    def forward_rows(theta, X, H, A, fout, m, n, r, code, params, T, live, tabled):  # pragma: no cover - compiled
        """f of the first m rows of X into fout: H = X W + b, A = sigma(H) (PolyNet: prefix products).
        ``tabled``: T holds W's group table and its rows left over and b (``weight_groups``), which then give each
        row of H as one list of terms (``add_terms``: the same sums as add_combination's and the bias add); with the
        ReLU, add_terms writes A = max(0, H) itself and H is not kept (the backward pass reads A > 0, which is H > 0).

        For r >= LOOP_MIN_WIDTH: loops over row views, four rows of W per pass over a row of H (a view
        indexed by a loop counter lets LLVM drop numba's negative-index wrap-around and vectorise the inner
        loop over the r units; flat ``offset + j`` indices keep it scalar), no BLAS call (its overhead
        dominates at these sizes).  Narrower layers: gemm (np.dot), whose loop over the batch is the
        vectorised one.  The choice depends on r only, so a run's bits do not depend on anything else."""
        ob = n * r
        ou = ob + r
        scratch = np.empty(r if code == POLY else 0)  # activate_row's scratch (float64)
        if r < LOOP_MIN_WIDTH:  # narrow layers: gemm + gemv (short loops over the units vectorise poorly)
            np.dot(X[:m], theta[:ob].reshape((n, r)), H[:m])
            for s in range(m):
                for j in range(r):
                    H[s, j] += theta[ob + j]
                if code == PRODUCT:
                    acc = one
                    for j in range(r):
                        A[s, j] = acc
                        acc *= H[s, j]
                    fout[s] = acc
                    continue
                if code == 1:
                    for j in range(r):
                        A[s, j] = max(zero, H[s, j])
                else:
                    activate_row(H[s], A[s], r, code, params, scratch)
            if code != PRODUCT:
                np.dot(A[:m], theta[ou : ou + r], fout[:m])  # gemv
                for s in range(m):
                    fout[s] += theta[ou + r]
            return
        W = theta[:ob].reshape((n, r))
        bvec = theta[ob:ou]
        uvec = theta[ou : ou + r]
        G = n // 4
        terms = table_parts(T, live, n, X.shape[0])
        for s in range(m):
            Hs = H[s]
            Xs = X[s]
            if tabled:  # the groups, then the rows left over one at a time (as add_combination), then b
                k = 0
                for q in range(G):
                    terms[k] = group_term(Xs, q)
                    k += 1
                for i in range(4 * G, n):
                    terms[k] = row_term(8 * G + i - 4 * G, Xs[i])
                    k += 1
                terms[k] = row_term(8 * G + n - 4 * G, one)
                if code == 1:  # ReLU: A = max(0, H) directly, H is not kept (backward reads A > 0, which is H > 0)
                    add_terms(A[s], T, terms, k + 1, r, True)
                    continue
                add_terms(Hs, T, terms, k + 1, r, False)
            else:
                for j in range(r):
                    Hs[j] = zero
                add_combination(Hs, Xs, W, n, r)
                for j in range(r):
                    Hs[j] += bvec[j]
            As = A[s]
            if code == PRODUCT:
                acc = one
                for j in range(r):
                    As[j] = acc
                    acc *= Hs[j]
                fout[s] = acc
                continue
            if code == 1:
                for j in range(r):
                    As[j] = max(zero, Hs[j])
            else:
                activate_row(Hs, As, r, code, params, scratch)
        if code == PRODUCT:
            return
        readouts(uvec, A, fout, m, r, theta[ou + r])

    @register_jitable
    def accuracy_batched(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk, X, YF, H, A,
                         D, bound, T, live):  # pragma: no cover - compiled
        """Held-out / training-set accuracy in chunks of X.shape[0] rows (CPU body).  ``bound``: the caller
        only asks whether the accuracy is >= bound, so once a chunk leaves that impossible (every remaining
        sample a hit would still give less) the rest is skipped and that smaller value returned (pass -1.0 for
        the exact accuracy).  The chunks computed are those of the full pass, so nothing else changes."""
        chunk = X.shape[0]
        tabled = r >= LOOP_MIN_WIDTH and min(m, chunk) >= PAIR_TABLE_MIN
        if tabled:  # W is fixed during the pass: one table for every chunk
            weight_groups(theta, n, r, T)
        hits = 0
        s0 = 0
        while s0 < m:
            c = min(chunk, m - s0)
            draw_rows(seed, key, s0, c, n, support, n_words, noisy, noise, X, YF[0], live)
            forward_rows(theta, X, H, A, YF[1], c, n, r, code, params, T, live, tabled)
            for s in range(c):
                if YF[0, s] * YF[1, s] > zero:
                    hits += 1
            s0 += c
            if (hits + (m - s0)) / m < bound:
                return (hits + (m - s0)) / m
        return hits / m

    @register_jitable
    def gradient_batched(theta, grad, seed, t, batch, train_size, n, r, code, params, support, n_words, noise, loss,
                         tb, tu, tc, xi, wk, X, YF, H, A, D, T, live):  # pragma: no cover - compiled
        """grad = sum over the batch of step t of dl/dtheta (CPU body: grad_W = X^T D in vectorised loops); returns the
        summed loss."""
        per = np.uint64(n_words + 1)
        key = np.uint64(t)
        if train_size == 0:  # online: samples 0 .. batch - 1 of step t
            draw_rows(seed, key, 0, batch, n, support, n_words, True, noise, X, YF[0], live)
        for b in range(batch if train_size > 0 else 0):
            skey, base = batch_sample(seed, key, b, train_size, per)
            y = flip(draw_row(seed, skey, base, n, support, n_words, X, b), seed, skey, base, n_words, noise)
            YF[0, b] = y
        tabled = r >= LOOP_MIN_WIDTH and batch >= PAIR_TABLE_MIN
        if tabled:
            weight_groups(theta, n, r, T)
        forward_rows(theta, X, H, A, YF[1], batch, n, r, code, params, T, live, tabled)
        ob = n * r
        ou = ob + r
        tot = zero
        for p in range(theta.shape[0]):
            grad[p] = zero
        uvec = theta[ou : ou + r]
        scratch = np.empty(r if code == POLY else 0)  # slope_row's scratch (float64)
        for s in range(batch):
            lv, g = loss_and_slope(loss, YF[1, s], YF[0, s])
            tot += lv
            Ds = D[s]
            Hs = H[s]
            As = A[s]
            if code == PRODUCT:
                suffix = g
                for j in range(r - 1, -1, -1):
                    Ds[j] = As[j] * suffix
                    suffix *= Hs[j]
                continue
            if code == 1:
                for j in range(r):  # the product first: the select of a loaded value vectorises without masked loads
                    v = g * uvec[j]
                    Ds[j] = v if As[j] > zero else zero
            else:
                slope_row(g, uvec, Hs, Ds, r, code, params, scratch)
            YF[1, s] = g
            if tc:
                grad[ou + r] += g
        if r < LOOP_MIN_WIDTH:  # narrow layers: gemm + gemv, as in forward_rows
            np.dot(X[:batch].T, D[:batch], grad[:ob].reshape((n, r)))
            if tu and code != PRODUCT:
                np.dot(A[:batch].T, YF[1, :batch], grad[ou : ou + r])  # grad_u = A^T g (gemv)
            if tb:
                for s in range(batch):
                    for j in range(r):
                        grad[ob + j] += D[s, j]
            return tot
        # grad_W[i] = sum_s x_si D[s]: add_combination's groups of four samples, then the samples left over
        GW = grad[:ob].reshape((n, r))
        if n >= PAIR_TABLE_MIN:
            # the group table of the rows of D, without the groups whose four rows are zero (+-0: samples with a zero
            # loss slope): a group sum +-0 leaves out unchanged, as out starts at +0 and a sum that starts at +0
            # is never -0 (round to nearest), so skipping them gives the same bits; likewise the rows left over
            Gb = batch // 4
            n_live = 0
            for q in range(Gb):
                if not (is_zero_row(D[4 * q], r) and is_zero_row(D[4 * q + 1], r) and is_zero_row(D[4 * q + 2], r)
                        and is_zero_row(D[4 * q + 3], r)):
                    live[n_live] = q
                    n_live += 1
                    fill_group(T, q, D[4 * q], D[4 * q + 1], D[4 * q + 2], D[4 * q + 3], r)
            n_left = 0
            for s in range(4 * Gb, batch):  # the samples left over with a non-zero row: rows 8 Gb + 0, 1, .. of T
                if not is_zero_row(D[s], r):
                    copy_row(T, 8 * Gb + n_left, D[s], r)
                    live[n_live + n_left] = s
                    n_left += 1
            terms = table_parts(T, live, n, batch)
            # the terms of every row of grad_W at once (TT[t, i]: term t of row i, as group_term / row_term give it),
            # in loops over i that LLVM vectorises
            m = n_live + n_left
            TT = terms[: m * n].reshape((m, n))
            for k in range(n_live):  # (k, not t: t is the step)
                q = live[k]
                X0 = X[4 * q]
                X1 = X[4 * q + 1]
                X2 = X[4 * q + 2]
                X3 = X[4 * q + 3]
                Tk = TT[k]
                for i in range(n):
                    Tk[i] = group_term_of(q, X0[i], X1[i], X2[i], X3[i])
            for k in range(n_left):
                Xs = X[live[n_live + k]]
                Tk = TT[n_live + k]
                for i in range(n):
                    Tk[i] = row_term(8 * Gb + k, Xs[i])
            for i in range(n):
                add_terms(GW[i], T, TT[:, i], m, r, False)
        else:
            for i in range(n):
                add_combination(GW[i], X[:batch, i], D, batch, r)
        if tu and code != PRODUCT:
            accumulate_rows(grad[ou : ou + r], YF[1], A, batch, r, True)  # grad_u = sum_s g_s sigma(h_s)
        if tb:
            accumulate_rows(grad[ob:ou], YF[1], D, batch, r, False)  # grad_b = sum_s d_s
        return tot

    @register_jitable
    def accuracy_per_sample(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk, X, YF, H, A,
                            D, bound, T, live):  # pragma: no cover - compiled
        """The exact accuracy (``bound`` is not used: the per-sample body keeps its single pass)."""
        return accuracy(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk)

    @register_jitable
    def gradient_per_sample(theta, grad, seed, t, batch, train_size, n, r, code, params, support, n_words, noise, loss,
                            tb, tu, tc, xi, wk, X, YF, H, A, D, T, live):  # pragma: no cover - compiled
        """grad = sum over the batch of step t of dl/dtheta, one sample at a time (CUDA body); returns the
        summed loss."""
        per = np.uint64(n_words + 1)
        for p in range(theta.shape[0]):
            grad[p] = zero
        for j in range(4 * r, 5 * r):
            wk[j] = zero
        prepare(theta, n, r, wk)
        key = np.uint64(t)
        tot = zero
        for b in range(batch):
            skey, base = batch_sample(seed, key, b, train_size, per)
            y = flip(draw_sample(seed, skey, base, n, support, n_words, xi), seed, skey, base, n_words, noise)
            f = forward(theta, xi, n, r, code, params, wk)
            lv, g = loss_and_slope(loss, f, y)
            tot += lv
            if g != zero:
                backward(theta, grad, xi, n, r, code, params, wk, g, tu, tc)
        finish_batch(grad, n, r, wk, tb)
        return tot

    acc_fn = accuracy_batched if batched else accuracy_per_sample
    grad_fn = gradient_batched if batched else gradient_per_sample

    if batched:
        @register_jitable
        def table_scratch(n, r, batch, D, xi):  # pragma: no cover - compiled
            """(T, live) of the CPU body's group tables (``table_parts``): T's rows padded to a multiple of 8 entries,
            zero-filled (the padding stays +0; none on the gemm path); live as laid out in ``table_parts``, and at
            least the batch's words (``draw_rows``)."""
            rows = 8 * max(n // 4, batch // 4) + 4 if r >= LOOP_MIN_WIDTH else 0
            words = batch * ((n + 63) // 64 + 1)
            terms = max((batch // 4 + 4) * n, n // 4 + 4)
            return (np.zeros((rows, (r + 7) // 8 * 8), dtype=F),
                    np.empty(max(max(n, batch) + 4 + terms, words), dtype=np.int64))
    else:
        @register_jitable
        def table_scratch(n, r, batch, D, xi):  # pragma: no cover - compiled
            """The per-sample (CUDA) body has no group tables: placeholders of the right kinds, never read."""
            return D, xi

    @register_jitable
    def update(theta, grad, mom1, mom2, lo, hi, inv_b, step_size, wd, opt, beta1, beta2, corr2, eps):  # pragma: no cover
        """One optimiser step on theta[lo:hi] from the summed batch gradient; True if a value overflowed.
        SGD: theta -= step_size G.  Adam: step_size = eta / (1 - beta1^t), corr2 = 1 / (1 - beta2^t)."""
        bad = False
        th = theta[lo:hi]  # views indexed from 0: the loop vectorises (see forward_rows)
        gr = grad[lo:hi]
        m1v = mom1[lo:hi]
        m2v = mom2[lo:hi]
        for p in range(hi - lo):
            gp = gr[p] * inv_b + wd * th[p]
            if opt == 0:
                v = th[p] - step_size * gp
            else:
                m1 = beta1 * m1v[p] + (one - beta1) * gp
                m2 = beta2 * m2v[p] + (one - beta2) * gp * gp
                m1v[p] = m1
                m2v[p] = m2
                v = th[p] - step_size * m1 / (F(math.sqrt(np.float64(m2 * corr2))) + eps)
            th[p] = v
            if not abs(v) <= limit:
                bad = True
        return bad

    @register_jitable
    def run_one(theta, grad, mom1, mom2, xi, wk, X, YF, H, A, D, n, r, code, params, support, seed, steps, batch,
                loss, opt, lr, wd, schedule, beta1, beta2, eps, noise, train_size, tb, tu, tc, eval_every,
                n_eval, target, stop, record_every, rec_loss, rec_eval, rec_train, snap_every, snaps,
                start):  # pragma: no cover
        """One run from theta (updated in place), whose first step is step ``start`` (0: a fresh run; > 0: the
        continuation of a constant-rate SGD run that was stopped after ``start`` steps with these parameters);
        returns (converged_at, fitted_at, diverged_at, steps done)."""
        P = theta.shape[0]
        n_words = (n + 63) >> 6
        np.uint64(n_words + 1)
        ob = n * r
        ou = ob + r
        converged_at = -1
        fitted_at = -1
        diverged_at = -1
        last_loss = np.nan
        n_rec = rec_loss.shape[0]
        n_snap = snaps.shape[0]
        for p in range(P):
            mom1[p] = zero
            mom2[p] = zero
        T, live = table_scratch(n, r, batch, D, xi)
        b1t = 1.0
        b2t = 1.0
        t = start
        while True:
            # ---- observe the state after t steps ----
            rec_now = record_every > 0 and t % record_every == 0 and t // record_every < n_rec
            eval_now = eval_every > 0 and (t % eval_every == 0)
            acc_eval = np.nan
            acc_train = np.nan
            # an accuracy is computed where it is recorded (exactly) or still decides converged_at / fitted_at (then
            # only whether it reaches target / 1: acc_fn's bound); skipping it changes no state of the run
            if rec_now or (eval_now and converged_at < 0):
                acc_eval = acc_fn(theta, seed, EVAL_STEP, n_eval, n, r, code, params, support, n_words, False, 0.0, xi, wk,
                                  X, YF, H, A, D, -1.0 if rec_now else target, T, live)
            if train_size > 0 and (rec_now or (eval_now and fitted_at < 0)):
                acc_train = acc_fn(theta, seed, TRAIN_STEP, train_size, n, r, code, params, support, n_words, True,
                                   noise, xi, wk, X, YF, H, A, D, -1.0 if rec_now else 1.0, T, live)
            if rec_now:
                c = t // record_every
                rec_loss[c] = last_loss
                rec_eval[c] = acc_eval
                rec_train[c] = acc_train
            if snap_every > 0 and t % snap_every == 0 and t // snap_every < n_snap:
                c = t // snap_every
                for p in range(P):
                    snaps[c, p] = theta[p]
            if eval_now:
                if fitted_at < 0 and train_size > 0 and acc_train >= 1.0:
                    fitted_at = t
                if converged_at < 0 and acc_eval >= target:
                    converged_at = t
                    if stop:
                        break
            if t >= steps:
                break
            # ---- one step ----
            tot = grad_fn(theta, grad, seed, t, batch, train_size, n, r, code, params, support, n_words, noise, loss, tb,
                          tu, tc, xi, wk, X, YF, H, A, D, T, live)
            last_loss = tot / F(batch)
            if schedule == 0:
                eta = lr
            elif schedule == 1:
                eta = lr * 0.5 * (1.0 + math.cos(math.pi * t / steps))
            else:
                eta = lr * (1.0 - t / steps)
            inv_b = one / F(batch)
            if opt == 1:
                b1t *= beta1
                b2t *= beta2
            step_size = F(eta / (1.0 - b1t)) if opt == 1 else F(eta)
            corr2 = F(1.0 / (1.0 - b2t)) if opt == 1 else one
            bad = update(theta, grad, mom1, mom2, 0, ob, inv_b, step_size, F(wd), opt, F(beta1), F(beta2), corr2, F(eps))
            if tb:
                bad |= update(theta, grad, mom1, mom2, ob, ou, inv_b, step_size, F(wd), opt, F(beta1), F(beta2), corr2, F(eps))
            if tu:
                bad |= update(theta, grad, mom1, mom2, ou, ou + r, inv_b, step_size, F(wd), opt, F(beta1), F(beta2), corr2,
                              F(eps))
            if tc:
                bad |= update(theta, grad, mom1, mom2, ou + r, ou + r + 1, inv_b, step_size, F(wd), opt, F(beta1), F(beta2),
                              corr2, F(eps))
            t += 1
            if bad:
                diverged_at = t
                break
        # NaN-fill the records after the run stopped
        first = t // record_every + 1 if record_every > 0 else n_rec
        for c in range(first, n_rec):
            rec_loss[c] = np.nan
            rec_eval[c] = np.nan
            rec_train[c] = np.nan
        first = t // snap_every + 1 if snap_every > 0 else n_snap
        for c in range(first, n_snap):
            for p in range(P):
                snaps[c, p] = np.nan
        return converged_at, fitted_at, diverged_at, t

    @register_jitable
    def drive(q, TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss, opt, lrs,
              wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target, stop,
              record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT):  # pragma: no cover - compiled
        """Run q; OUT[q] = (converged_at, fitted_at, diverged_at, steps done), where OUT[q, 3] on entry is the
        step the run starts from (``run_one``'s ``start``)."""
        ca, fa, da, done = run_one(TH[q], GR[q], M1[q], M2[q], XS[q], WK[q], XB[q], YB[q], HB[q], AB[q], DB[q], n, r, code, params, support,
                                   seeds[q], steps, batch, loss, opt, lrs[q], wds[q], schedule, beta1, beta2, eps,
                                   noises[q], train_size, tb, tu, tc, eval_every, n_eval, target, stop, record_every,
                                   REC_L[q], REC_E[q], REC_T[q], snap_every, SNAP[q], OUT[q, 3])
        OUT[q, 0] = ca
        OUT[q, 1] = fa
        OUT[q, 2] = da
        OUT[q, 3] = done

    @register_jitable
    def drive_columns(q, TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss,
                      opt, lrs, wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target,
                      stop, record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT):  # pragma: no cover - compiled
        """``drive`` with the per-run state transposed (the CUDA layout): TH, GR, M1, M2 (P, R), XS (2n + 1, R),
        WK (5r, R); run q is column q, so consecutive threads (runs) read consecutive addresses."""
        ca, fa, da, done = run_one(TH[:, q], GR[:, q], M1[:, q], M2[:, q], XS[:, q], WK[:, q], XB[q], YB[q], HB[q], AB[q],
                                   DB[q], n, r, code, params, support, seeds[q], steps, batch, loss, opt, lrs[q], wds[q],
                                   schedule, beta1, beta2, eps, noises[q], train_size, tb, tu, tc, eval_every, n_eval,
                                   target, stop, record_every, REC_L[q], REC_E[q], REC_T[q], snap_every, SNAP[q],
                                   OUT[q, 3])
        OUT[q, 0] = ca
        OUT[q, 1] = fa
        OUT[q, 2] = da
        OUT[q, 3] = done

    return (drive, prepare, forward, loss_and_slope, backward, finish_batch, load_sample, drive_columns, grad_fn,
            table_scratch)


#: (dtype, batched) -> the body's functions (drive first; [8] the batch gradient, [9] the group-table scratch: for
#: tests); batched=True is the CPU body, False the CUDA one
_BODIES = {(np.dtype(F), batched): _build(F, batched) for F in (np.float32, np.float64) for batched in (False, True)}


def _support(support, n: int, k: int) -> np.ndarray:
    if support is None:
        return np.arange(k, dtype=np.int64)
    s = np.asarray(support)
    if s.ndim != 1 or s.dtype.kind not in "iu" or s.shape[0] != k:
        raise ValueError(f"argument 'support' must list k = {k} coordinates, not {support!r}")
    if s.size and (s.min() < 0 or s.max() >= n or np.unique(s).size != k):
        raise ValueError(f"argument 'support' must list k = {k} distinct coordinates in [0, n = {n}), not {support!r}")
    return np.ascontiguousarray(s.astype(np.int64))


def parity_samples(seed: int, step: int, count: int, n: int, support=None, k: int | None = None,
                   label_noise: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(X (count, n) in ±1, y (count,)) of the counter-stream samples 0..count-1 at ``step`` of run
    ``seed`` (step = t for online batches, EVAL_STEP / TRAIN_STEP for the held-out / training sets),
    computed in numpy from the vectorised Philox: the data oracle of the reference twin."""
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    if k is None:
        k = 0 if support is None else len(support)
    sup = _support(support, n, k)
    n_words = (n + 63) // 64
    per = n_words + 1
    idx = np.arange(count * per, dtype=np.uint64)
    words = counter_u64_array(np.full(idx.size, seed, dtype=np.uint64), np.full(idx.size, step, dtype=np.uint64),
                              idx).reshape(count, per)
    i = np.arange(n)
    bits = (words[:, i // 64] >> (i % 64).astype(np.uint64)) & np.uint64(1)
    X = 1.0 - 2.0 * bits.astype(np.float64)
    y = np.prod(X[:, sup], axis=1) if sup.size else np.ones(count)
    if label_noise > 0:
        u = (words[:, n_words] >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
        y = np.where(u < label_noise, -y, y)
    return X, y
