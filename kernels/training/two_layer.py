"""Batched SGD / Adam training of two-layer networks and single neurons on sparse parities.

Model (seed 004, Section 5.3 and App. B.4, architectures (i)-(xiv) of Empirical Finding 5.1):

    f(x; theta) = sum_{j < r} u_j sigma(<w_j, x> + b_j) + c,          x in {±1}^n,

with r = ``width`` hidden units and sigma any :class:`kernels.activations.Activation` (ReLU, z^k and
other polynomials, sine, k-zigzag, triangle wave).  The PolyNet of setting (xv) (line 947) is the same
first layer with the product read-out f = prod_j (<w_j, x> + b_j) (``activation="product"``,
:func:`train_polynet`).  ``bias=False`` freezes b = 0;
``second_layer=False`` freezes u = 1 and c = 0 (settings (xi)-(xiv): "no second layer").  The
parameters of a run are one flat vector theta = [W (n x r, input-major: W[i, j] = w_j[i]) | b (r) |
u (r) | c] so that the optimisers treat every parameter alike.

Task.  The (n, k)-sparse parity y = chi_S(x) = prod_{i in S} x_i on uniform x, S = ``support`` (the
first k coordinates unless given), training labels flipped independently with probability
``label_noise`` in [0, 1/2] (1/2 makes the training labels independent of x: "training on noise");
evaluation labels are clean.  Data come either online (a fresh batch every step) or
from a fixed training set of ``train_size`` samples drawn once per run (batches then draw indices
uniformly with replacement: the finite-sample regime of E34).

Loss of a sample with margin m = y f: hinge max(0, 1 - m), square (f - y)^2 / 2, correlation -m,
logistic log(1 + e^{-m}).  The step uses the mean over the batch.  Optimisers, with G = grad + lambda
theta (L2 weight decay ``weight_decay``, coupled as in torch.optim) and eta_t = lr * schedule(t):
SGD theta <- theta - eta_t G; Adam with bias correction (beta1, beta2, eps) as in Kingma & Ba / torch.
Schedules on step t = 0..T-1: constant 1, cosine (1 + cos(pi t / T)) / 2, linear 1 - t / T.

Initialisation (``init``): "uniform" = torch.nn.Linear's default, W, b ~ U(-1/sqrt(n), 1/sqrt(n)) and
u, c ~ U(-1/sqrt(r), 1/sqrt(r)); "gaussian" = N(0, 1/n) and N(0, 1/r); "bernoulli" = ±1/sqrt(n) and
±1/sqrt(r); every draw is multiplied by ``init_scale``.  The initial parameters are a pure function of
the run's seed (counter stream position (seed, INIT_STEP, index)), or may be passed explicitly.

Randomness (one counter-based Philox stream per run, ``kernels.rng.counter_u64(seed, step, index)``):
sample b of online step t (t = 0..T-1) uses words (t, b (W + 1) + q), q < W = ceil(n / 64): bit i mod
64 of word i div 64 set <=> x_i = -1; word q = W decides the label flip (``unit_double`` < p).  A fixed
training set uses the same layout at step TRAIN_STEP (sample index in place of b), and step t draws
its B indices with ``counter_bounded(seed, t, b, m)``.  The held-out set is the ``n_eval`` samples at
step EVAL_STEP.  Hence every backend sees the same data, and any run can be replayed alone.

Outputs (:class:`TwoLayerResult`).  Held-out accuracy (fraction of samples with y f > 0) is measured
after every ``eval_every`` steps (and at step 0); ``converged_at`` is the first such step whose accuracy
reaches ``target_accuracy`` (-1 if none), and with ``stop_on_convergence`` the run stops there.  With a
fixed training set, ``fitted_at`` is the first evaluation step with zero training error on the whole set.
Curves every ``record_every`` steps: mean batch loss of the last step, held-out accuracy, training-set
accuracy; ``snapshot_every`` stores theta.  A run whose parameters become non-finite or exceed
``OVERFLOW`` (1e38 in float32) stops: ``diverged_at`` is the step (-1 otherwise), and it is never reported as converged.
Records after a run stops are NaN.

Twins.  A numpy reference (``kernels/training/_two_layer_ref.py``, written independently: batched
matrix products, float64, the oracle of the tests), the numba CPU kernel (``prange`` over runs) and the
numba.cuda kernel (one thread per run, kernels/cuda/training_two_layer.py) share the per-run loop
``run_one`` (data stream, loss, optimiser, evaluation, records; ``register_jitable``), built by
``_build`` per precision (float32 / float64) and per batch computation: the CPU body forms the batch as
a B x n matrix and computes H = X W and grad_W = X^T D with np.dot (BLAS gemm; OpenBLAS may thread large
products itself), the CUDA body goes sample by sample with loops only (h = (b + sum_i W_i) - 2 sum_{x_i = -1} W_i
over the list of negative coordinates, so no data-dependent branches).  All three agree to rounding.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np
from numba import prange
from numba.extending import register_jitable

from .. import _checks
from ..activations import RELU, Activation, activation_slope, activation_value
from ..backend import resolve_backend
from ..rng import counter_bounded, counter_u64, counter_u64_array, unit_double
from ._common import OVERFLOW, per_run_reals, use_serial, validate_seeds

__all__ = [
    "EVAL_STEP",
    "INITS",
    "INIT_STEP",
    "LOSSES",
    "OPTIMIZERS",
    "SCHEDULES",
    "TRAIN_STEP",
    "TwoLayerResult",
    "init_two_layer",
    "n_params",
    "parity_samples",
    "train_two_layer",
]

LOSSES = ("hinge", "square", "correlation", "logistic")
OPTIMIZERS = ("sgd", "adam")
SCHEDULES = ("constant", "cosine", "linear")
INITS = ("uniform", "gaussian", "bernoulli")
#: reserved step keys of the counter stream (online steps use 0 .. T-1 < 2^62)
EVAL_STEP = np.uint64(2**64 - 1)
TRAIN_STEP = np.uint64(2**64 - 2)
INIT_STEP = np.uint64(2**64 - 3)
_MAX_N = 4096
#: pseudo activation code of the PolyNet read-out f = prod_j (<w_j, x> + b_j) (no activation, no second layer)
PRODUCT = -1
_MAX_WIDTH = 100_000


# ---------------------------------------------------------------------------------------------
# the per-run body, built once per float type, shared by the CPU and CUDA twins
# ---------------------------------------------------------------------------------------------


def _build(F, batched: bool):
    """Compile-ready per-run functions whose arithmetic is in the float type F (np.float32/np.float64).

    ``batched=False``: the per-sample body (forward and backward one sample at a time, loops only): the
    CUDA twin's body.  ``batched=True``: the CPU body, which forms the batch as a B x n matrix and
    computes H = X W and grad_W = X^T D with np.dot (BLAS gemm), the rest in loops.  Both share the
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
    def draw_row(seed, key, base, n, support, n_words, X, s):  # pragma: no cover - compiled
        """Draw the sample whose words start at ``base`` into row s of X (±1 in F); return chi_S(x)."""
        widx = -1
        word = np.uint64(0)
        for i in range(n):
            q = i >> 6
            if q != widx:
                word = counter_u64(seed, key, base + np.uint64(q))
                widx = q
            X[s, i] = -one if (word >> np.uint64(i & 63)) & np.uint64(1) else one
        y = one
        for k in range(support.shape[0]):
            y *= X[s, support[k]]
        return y

    @register_jitable
    def forward_rows(theta, X, H, A, fout, m, n, r, code, params):  # pragma: no cover - compiled
        """f of the first m rows of X into fout: H = X W (gemm) + b, A = sigma(H) (PolyNet: prefix products)."""
        ob = n * r
        ou = ob + r
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
                    hj = H[s, j]
                    A[s, j] = max(zero, hj)
            else:
                for j in range(r):
                    A[s, j] = F(activation_value(code, H[s, j], params))
        if code != PRODUCT:
            np.dot(A[:m], theta[ou : ou + r], fout[:m])  # gemv
            for s in range(m):
                fout[s] += theta[ou + r]

    @register_jitable
    def accuracy_batched(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk, X, YF, H, A,
                         D):  # pragma: no cover - compiled
        """Held-out / training-set accuracy in chunks of X.shape[0] rows (CPU body)."""
        per = np.uint64(n_words + 1)
        chunk = X.shape[0]
        hits = 0
        s0 = 0
        while s0 < m:
            c = min(chunk, m - s0)
            for s in range(c):
                base = np.uint64(s0 + s) * per
                y = draw_row(seed, key, base, n, support, n_words, X, s)
                if noisy:
                    y = flip(y, seed, key, base, n_words, noise)
                YF[0, s] = y
            forward_rows(theta, X, H, A, YF[1], c, n, r, code, params)
            for s in range(c):
                if YF[0, s] * YF[1, s] > zero:
                    hits += 1
            s0 += c
        return hits / m

    @register_jitable
    def gradient_batched(theta, grad, seed, t, batch, train_size, n, r, code, params, support, n_words, noise, loss,
                         tb, tu, tc, xi, wk, X, YF, H, A, D):  # pragma: no cover - compiled
        """grad = sum over the batch of step t of dl/dtheta (CPU body: grad_W = X^T D by gemm); returns the
        summed loss."""
        per = np.uint64(n_words + 1)
        key = np.uint64(t)
        for b in range(batch):
            skey, base = batch_sample(seed, key, b, train_size, per)
            y = flip(draw_row(seed, skey, base, n, support, n_words, X, b), seed, skey, base, n_words, noise)
            YF[0, b] = y
        forward_rows(theta, X, H, A, YF[1], batch, n, r, code, params)
        ob = n * r
        ou = ob + r
        tot = zero
        for p in range(ob, theta.shape[0]):
            grad[p] = zero
        for s in range(batch):
            lv, g = loss_and_slope(loss, YF[1, s], YF[0, s])
            tot += lv
            if code == PRODUCT:
                suffix = g
                for j in range(r - 1, -1, -1):
                    D[s, j] = A[s, j] * suffix
                    suffix *= H[s, j]
                continue
            if code == 1:
                for j in range(r):
                    D[s, j] = g * theta[ou + j] if H[s, j] > zero else zero
            else:
                for j in range(r):
                    D[s, j] = g * theta[ou + j] * F(activation_slope(code, H[s, j], params))
            YF[1, s] = g
            if tc:
                grad[ou + r] += g
        np.dot(X[:batch].T, D[:batch], grad[:ob].reshape((n, r)))
        if tu and code != PRODUCT:
            np.dot(A[:batch].T, YF[1, :batch], grad[ou : ou + r])  # grad_u = A^T g (gemv)
        if tb:
            for s in range(batch):
                for j in range(r):
                    grad[ob + j] += D[s, j]
        return tot

    @register_jitable
    def accuracy_per_sample(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk, X, YF, H, A,
                            D):  # pragma: no cover - compiled
        return accuracy(theta, seed, key, m, n, r, code, params, support, n_words, noisy, noise, xi, wk)

    @register_jitable
    def gradient_per_sample(theta, grad, seed, t, batch, train_size, n, r, code, params, support, n_words, noise, loss,
                            tb, tu, tc, xi, wk, X, YF, H, A, D):  # pragma: no cover - compiled
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

    @register_jitable
    def update(theta, grad, mom1, mom2, lo, hi, inv_b, step_size, wd, opt, beta1, beta2, corr2, eps):  # pragma: no cover
        """One optimiser step on theta[lo:hi] from the summed batch gradient; True if a value overflowed.
        SGD: theta -= step_size G.  Adam: step_size = eta / (1 - beta1^t), corr2 = 1 / (1 - beta2^t)."""
        bad = False
        for p in range(lo, hi):
            gp = grad[p] * inv_b + wd * theta[p]
            if opt == 0:
                v = theta[p] - step_size * gp
            else:
                m1 = beta1 * mom1[p] + (one - beta1) * gp
                m2 = beta2 * mom2[p] + (one - beta2) * gp * gp
                mom1[p] = m1
                mom2[p] = m2
                v = theta[p] - step_size * m1 / (F(math.sqrt(np.float64(m2 * corr2))) + eps)
            theta[p] = v
            if not abs(v) <= limit:
                bad = True
        return bad

    @register_jitable
    def run_one(theta, grad, mom1, mom2, xi, wk, X, YF, H, A, D, n, r, code, params, support, seed, steps, batch,
                loss, opt, lr, wd, schedule, beta1, beta2, eps, noise, train_size, tb, tu, tc, eval_every,
                n_eval, target, stop, record_every, rec_loss, rec_eval, rec_train, snap_every, snaps):  # pragma: no cover
        """One run from theta (updated in place); returns (converged_at, fitted_at, diverged_at, steps done)."""
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
        b1t = 1.0
        b2t = 1.0
        t = 0
        while True:
            # ---- observe the state after t steps ----
            rec_now = record_every > 0 and t % record_every == 0 and t // record_every < n_rec
            eval_now = eval_every > 0 and (t % eval_every == 0)
            acc_eval = np.nan
            acc_train = np.nan
            if eval_now or rec_now:
                acc_eval = acc_fn(theta, seed, EVAL_STEP, n_eval, n, r, code, params, support, n_words, False, 0.0, xi, wk,
                                  X, YF, H, A, D)
                if train_size > 0:
                    acc_train = acc_fn(theta, seed, TRAIN_STEP, train_size, n, r, code, params, support, n_words, True,
                                       noise, xi, wk, X, YF, H, A, D)
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
                          tu, tc, xi, wk, X, YF, H, A, D)
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
        ca, fa, da, done = run_one(TH[q], GR[q], M1[q], M2[q], XS[q], WK[q], XB[q], YB[q], HB[q], AB[q], DB[q], n, r, code, params, support,
                                   seeds[q], steps, batch, loss, opt, lrs[q], wds[q], schedule, beta1, beta2, eps,
                                   noises[q], train_size, tb, tu, tc, eval_every, n_eval, target, stop, record_every,
                                   REC_L[q], REC_E[q], REC_T[q], snap_every, SNAP[q])
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
                                   target, stop, record_every, REC_L[q], REC_E[q], REC_T[q], snap_every, SNAP[q])
        OUT[q, 0] = ca
        OUT[q, 1] = fa
        OUT[q, 2] = da
        OUT[q, 3] = done

    return drive, prepare, forward, loss_and_slope, backward, finish_batch, load_sample, drive_columns


#: (dtype, batched) -> the body's functions (drive first); batched=True is the CPU body, False the CUDA one
_BODIES = {(np.dtype(F), batched): _build(F, batched) for F in (np.float32, np.float64) for batched in (False, True)}


def _cpu_pair(drive):
    """(parallel, serial) CPU kernels looping ``drive`` over the runs: one loop, compiled twice (prange is
    a plain range without parallel=True)."""

    def loop(TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss, opt,
             lrs, wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target, stop,
             record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT):  # pragma: no cover - compiled
        for q in prange(seeds.shape[0]):
            drive(q, TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss,
                  opt, lrs, wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target,
                  stop, record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT)

    return (nb.njit(parallel=True, error_model="numpy")(loop), nb.njit(error_model="numpy")(loop))


_CPU = {}


def _cpu_kernel(dtype: np.dtype, serial: bool):
    if dtype not in _CPU:
        _CPU[dtype] = _cpu_pair(_BODIES[(dtype, True)][0])
    return _CPU[dtype][1 if serial else 0]


# ---------------------------------------------------------------------------------------------
# validation, initialisation, public wrapper
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TwoLayerResult:
    """Per-run outputs of :func:`train_two_layer` (R runs, P = n r + 2 r + 1 parameters).

    ``theta`` (R, P): final parameters (flat, see :func:`unpack`); ``W`` (R, n, r), ``b``, ``u`` (R, r),
    ``c`` (R,): views of it.  ``converged_at``, ``fitted_at``, ``diverged_at`` (R,) int64 (-1 = never);
    ``steps_done`` (R,): steps taken (smaller than ``steps`` when a run stopped).  ``record_steps`` (C,),
    ``loss`` / ``eval_accuracy`` / ``train_accuracy`` (R, C): the curves (NaN where not defined or after
    the run stopped; ``loss`` at step 0 is NaN).  ``snapshot_steps`` (D,), ``snapshots`` (R, D, P) or None.
    """

    theta: np.ndarray
    n: int
    width: int
    converged_at: np.ndarray
    fitted_at: np.ndarray
    diverged_at: np.ndarray
    steps_done: np.ndarray
    record_steps: np.ndarray
    loss: np.ndarray
    eval_accuracy: np.ndarray
    train_accuracy: np.ndarray
    snapshot_steps: np.ndarray
    snapshots: np.ndarray | None
    backend: str

    @property
    def W(self) -> np.ndarray:
        return self.theta[:, : self.n * self.width].reshape(-1, self.n, self.width)

    @property
    def b(self) -> np.ndarray:
        o = self.n * self.width
        return self.theta[:, o : o + self.width]

    @property
    def u(self) -> np.ndarray:
        o = self.n * self.width + self.width
        return self.theta[:, o : o + self.width]

    @property
    def c(self) -> np.ndarray:
        return self.theta[:, -1]

    @property
    def diverged(self) -> np.ndarray:
        return self.diverged_at >= 0

    @property
    def converged(self) -> np.ndarray:
        return self.converged_at >= 0


def n_params(n: int, width: int) -> int:
    """P = n r + 2 r + 1: the length of the flat parameter vector."""
    return n * width + 2 * width + 1


def _as_activation(activation) -> Activation:
    if isinstance(activation, Activation) and activation.code >= 0:
        return activation
    if activation == "relu":
        return Activation.relu()
    if activation == "product":
        return Activation(PRODUCT, ())
    raise ValueError(f"argument 'activation' must be an Activation, 'relu' or 'product', not {activation!r}")


def init_two_layer(n: int, width: int, seeds, *, init: str = "uniform", scale: float = 1.0, bias: bool = True,
                   second_layer: bool = True, output_bias: bool = True, dtype="float64") -> np.ndarray:
    """Initial flat parameters (R, P) of every run, a pure function of (seed, INIT_STEP, index).

    Index p < P draws ``counter_u64(seed, INIT_STEP, p)``: "uniform" maps its top 53 bits u to
    (2u - 1) a, "gaussian" uses the Box-Muller transform of the words p and P + p, "bernoulli" takes
    the sign of the lowest bit; a = 1/sqrt(n) for W and b, 1/sqrt(width) for u and c, times ``scale``.
    Frozen parts: b = 0 without ``bias``; u = 1, c = 0 without ``second_layer``; c = 0 without
    ``output_bias``.
    """
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    width = _checks.require_int("width", width, min_value=1, max_value=_MAX_WIDTH)
    seeds_arr = validate_seeds(seeds)
    if init not in INITS:
        raise ValueError(f"argument 'init' must be one of {INITS}, not {init!r}")
    scale = float(scale)
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"argument 'scale' must be a finite positive real number, not {scale!r}")
    dt = _dtype(dtype)
    P = n_params(n, width)
    R = seeds_arr.shape[0]
    _checks.require_memory("seeds", f"{R} runs x {P} parameters", 8 * 3 * R * P, what="the initial parameters")
    idx = np.arange(2 * P, dtype=np.uint64)
    words = counter_u64_array(np.repeat(seeds_arr, 2 * P), np.full(R * 2 * P, INIT_STEP, dtype=np.uint64),
                              np.tile(idx, R)).reshape(R, 2 * P)
    u01 = (words >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)
    if init == "uniform":
        z = 2.0 * u01[:, :P] - 1.0
    elif init == "gaussian":
        u1 = 1.0 - u01[:, :P]  # in (0, 1]
        z = np.sqrt(-2.0 * np.log(u1)) * np.cos(2.0 * np.pi * u01[:, P:])
    else:
        z = np.where((words[:, :P] & np.uint64(1)) == 0, 1.0, -1.0)
    a = np.empty(P)
    a[: n * width + width] = 1.0 / math.sqrt(n)
    a[n * width + width :] = 1.0 / math.sqrt(width)
    theta = z * a * scale
    o = n * width
    if not bias:
        theta[:, o : o + width] = 0.0
    if not second_layer:
        theta[:, o + width : o + 2 * width] = 1.0
        theta[:, -1] = 0.0
    elif not output_bias:
        theta[:, -1] = 0.0
    return np.ascontiguousarray(theta.astype(dt))


def _dtype(dtype) -> np.dtype:
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"argument 'dtype' must be float32 or float64, not {dtype!r}") from None
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"argument 'dtype' must be float32 or float64, not {dtype!r}")
    return dt


def _support(support, n: int, k: int) -> np.ndarray:
    if support is None:
        return np.arange(k, dtype=np.int64)
    s = np.asarray(support)
    if s.ndim != 1 or s.dtype.kind not in "iu" or s.shape[0] != k:
        raise ValueError(f"argument 'support' must list k = {k} coordinates, not {support!r}")
    if s.size and (s.min() < 0 or s.max() >= n or np.unique(s).size != k):
        raise ValueError(f"argument 'support' must list k = {k} distinct coordinates in [0, n = {n}), not {support!r}")
    return np.ascontiguousarray(s.astype(np.int64))


def _validate(n, k, width, activation, seeds, steps, batch, lr, loss, optimizer, weight_decay, schedule, betas, eps,
              label_noise, train_size, support, eval_every, n_eval, target_accuracy, record_every, snapshot_every, dtype):
    n = _checks.require_int("n", n, min_value=1, max_value=_MAX_N)
    k = _checks.require_int("k", k, min_value=0, max_value=n)
    width = _checks.require_int("width", width, min_value=1, max_value=_MAX_WIDTH)
    act = _as_activation(activation)
    seeds_arr = validate_seeds(seeds)
    R = seeds_arr.shape[0]
    steps = _checks.require_int("steps", steps, min_value=0, max_value=2**62)
    batch = _checks.require_int("batch", batch, min_value=1, max_value=2**31 - 1)
    lrs = per_run_reals("lr", lr, R, lo=0.0, hi=1e6, lo_open=True)
    if loss not in LOSSES:
        raise ValueError(f"argument 'loss' must be one of {LOSSES}, not {loss!r}")
    if optimizer not in OPTIMIZERS:
        raise ValueError(f"argument 'optimizer' must be one of {OPTIMIZERS}, not {optimizer!r}")
    if schedule not in SCHEDULES:
        raise ValueError(f"argument 'schedule' must be one of {SCHEDULES}, not {schedule!r}")
    wds = per_run_reals("weight_decay", weight_decay, R, lo=0.0, hi=1e6)
    try:
        beta1, beta2 = (float(v) for v in betas)
    except (TypeError, ValueError):
        raise ValueError(f"argument 'betas' must be a pair of reals in [0, 1), not {betas!r}") from None
    if not (0.0 <= beta1 < 1.0 and 0.0 <= beta2 < 1.0):
        raise ValueError(f"argument 'betas' must be a pair of reals in [0, 1), not {betas!r}")
    eps = float(eps)
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"argument 'eps' must be a finite positive real number, not {eps!r}")
    noises = per_run_reals("label_noise", label_noise, R, lo=0.0, hi=0.5)
    if train_size is None:
        train_size = 0
    else:
        train_size = _checks.require_int("train_size", train_size, min_value=1, max_value=2**31 - 1)
    sup = _support(support, n, k)
    eval_every = _checks.require_int("eval_every", eval_every, min_value=0, max_value=2**62)
    n_eval = _checks.require_int("n_eval", n_eval, min_value=1, max_value=2**31 - 1)
    target = float(target_accuracy)
    if not 0.0 < target <= 1.0:
        raise ValueError(f"argument 'target_accuracy' must be a real number in (0, 1], not {target_accuracy!r}")
    record_every = _checks.require_int("record_every", record_every, min_value=0, max_value=2**62)
    snapshot_every = _checks.require_int("snapshot_every", snapshot_every, min_value=0, max_value=2**62)
    dt = _dtype(dtype)
    P = n_params(n, width)
    C = steps // record_every + 1 if record_every else 0
    D = steps // snapshot_every + 1 if snapshot_every else 0
    nbytes = dt.itemsize * R * (4 * P + 2 * n + 5 * width + batch * (n + 3 * width + 2) + D * P) + 8 * R * 3 * C
    _checks.require_memory("seeds", f"{R} runs x {P} parameters ({C} records, {D} snapshots)", nbytes,
                           what="the training state and records")
    return (n, k, width, act, seeds_arr, steps, batch, lrs, LOSSES.index(loss), OPTIMIZERS.index(optimizer), wds,
            SCHEDULES.index(schedule), beta1, beta2, eps, noises, train_size, sup, eval_every, n_eval, target,
            record_every, snapshot_every, dt, P, C, D)


def train_two_layer(n: int, k: int, *, width: int, seeds, steps: int, activation="relu", batch: int = 32, lr=0.1,
                    loss: str = "hinge", optimizer: str = "sgd", weight_decay=0.0, schedule: str = "constant",
                    betas=(0.9, 0.999), eps: float = 1e-8, label_noise=0.0, train_size: int | None = None,
                    support=None, bias: bool = True, second_layer: bool = True, output_bias: bool = True,
                    init: str = "uniform", init_scale: float = 1.0, theta0=None, eval_every: int = 10,
                    n_eval: int = 128, target_accuracy: float = 1.0, stop_on_convergence: bool = False,
                    record_every: int = 0, snapshot_every: int = 0, dtype="float64",
                    backend: str = "auto") -> TwoLayerResult:
    """Train one two-layer network per seed on the (n, k)-sparse parity (model, data, losses, optimisers
    and outputs: module docstring).

    Parameters
    ----------
    n, k : input dimension and parity degree (0 <= k <= n); ``support`` picks S (default range(k)).
    width : hidden units r >= 1 (1 with ``second_layer=False`` is a single neuron).
    seeds : one uint64 seed per run (the run's whole randomness).
    steps : optimiser steps T >= 0.  batch : samples per step B >= 1.
    activation : an :class:`Activation` or "relu".
    lr, weight_decay, label_noise : scalars or one per run.
    train_size : None (online data) or the size m of a fixed training set.
    theta0 : explicit initial parameters (P,) or (R, P) instead of ``init`` / ``init_scale``.
    eval_every, n_eval, target_accuracy, stop_on_convergence : convergence detection on held-out data.
    record_every, snapshot_every : curve and parameter-snapshot strides (0 = none).
    dtype : "float32" or "float64" (arithmetic and storage).  backend : "auto", "reference", "cpu", "cuda".
    """
    (n, k, width, act, seeds_arr, steps, batch, lrs, loss_code, opt_code, wds, sched_code, beta1, beta2, eps, noises,
     train_size, sup, eval_every, n_eval, target, record_every, snapshot_every, dt, P, C, D) = _validate(
        n, k, width, activation, seeds, steps, batch, lr, loss, optimizer, weight_decay, schedule, betas, eps,
        label_noise, train_size, support, eval_every, n_eval, target_accuracy, record_every, snapshot_every, dtype)
    for name, flag in (("bias", bias), ("second_layer", second_layer), ("output_bias", output_bias),
                       ("stop_on_convergence", stop_on_convergence)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"argument '{name}' must be a boolean, not {flag!r}")  # noqa: TRY004
    R = seeds_arr.shape[0]
    if theta0 is None:
        theta = init_two_layer(n, width, seeds_arr, init=init, scale=init_scale, bias=bias, second_layer=second_layer,
                               output_bias=output_bias, dtype=dt)
    else:
        th = np.asarray(theta0, dtype=np.float64)
        if th.ndim == 1:
            th = th[None]
        if th.ndim != 2 or th.shape[1] != P or th.shape[0] not in (1, R):
            raise ValueError(f"argument 'theta0' must have shape ({P},) or ({R}, {P}), not {np.shape(theta0)}")
        if not np.all(np.isfinite(th)):
            raise ValueError("argument 'theta0' must be finite")
        theta = np.ascontiguousarray(np.broadcast_to(th, (R, P)).astype(dt))
    if act.code == PRODUCT and second_layer:
        raise ValueError("argument 'second_layer' must be False with activation='product' (the PolyNet read-out "
                         "f = prod_j h_j has no second layer); see train_polynet")
    tb, tu, tc = bool(bias), bool(second_layer), bool(second_layer and output_bias)
    used = resolve_backend(backend)
    rec = [np.full((R, C), np.nan) for _ in range(3)]
    snaps = np.full((R, D, P), np.nan, dtype=dt) if D else np.zeros((R, 0, 1), dtype=dt)
    out = np.zeros((R, 4), dtype=np.int64)
    params = act.param_array()
    if used == "reference":
        from ._two_layer_ref import train_two_layer_ref

        train_two_layer_ref(theta, n, width, act, sup, seeds_arr, steps, batch, loss_code, opt_code, lrs, wds, sched_code,
                            beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target,
                            bool(stop_on_convergence), record_every, rec, snapshot_every, snaps, out)
    else:
        i64 = np.int64
        if used == "cuda":  # per-sample body: the sample as an index list and five work rows
            work = [np.zeros((R, 2 * n + 1), np.int64), np.zeros((R, 5 * width), dt), np.zeros((R, 1, 1), dt),
                    np.zeros((R, 2, 1), dt), np.zeros((R, 1, 1), dt), np.zeros((R, 1, 1), dt), np.zeros((R, 1, 1), dt)]
        else:  # batched body: X (B, n), labels and outputs (2, B), H, sigma(H), D (B, r)
            work = [np.zeros((R, 1), np.int64), np.zeros((R, 1), dt), np.zeros((R, batch, n), dt),
                    np.zeros((R, 2, batch), dt), np.zeros((R, batch, width), dt), np.zeros((R, batch, width), dt),
                    np.zeros((R, batch, width), dt)]
        args = [theta, np.zeros((R, P), dt), np.zeros((R, P), dt), np.zeros((R, P), dt), *work, i64(n), i64(width),
                i64(act.code), params, sup, seeds_arr, i64(steps), i64(batch), i64(loss_code), i64(opt_code), lrs, wds,
                i64(sched_code), float(beta1), float(beta2), float(eps), noises, i64(train_size), tb, tu, tc,
                i64(eval_every), i64(n_eval), float(target), bool(stop_on_convergence), i64(record_every), rec[0],
                rec[1], rec[2], i64(snapshot_every), snaps, out]
        if used == "cuda":
            from ..cuda.training_two_layer import launch_two_layer_cuda

            launch_two_layer_cuda(args, dt)
        else:
            flops = R * steps * batch * P * (2 if act.code == RELU else 4)
            _cpu_kernel(dt, use_serial(R, flops))(*args)
    rs = np.arange(C, dtype=np.int64) * record_every if C else np.zeros(0, dtype=np.int64)
    ss = np.arange(D, dtype=np.int64) * snapshot_every if D else np.zeros(0, dtype=np.int64)
    return TwoLayerResult(theta=theta, n=n, width=width, converged_at=out[:, 0].copy(), fitted_at=out[:, 1].copy(),
                          diverged_at=out[:, 2].copy(), steps_done=out[:, 3].copy(), record_steps=rs, loss=rec[0],
                          eval_accuracy=rec[1], train_accuracy=rec[2], snapshot_steps=ss,
                          snapshots=snaps if D else None, backend=used)


def train_polynet(n: int, k: int, *, seeds, steps: int, factors: int | None = None, bias: bool = False,
                  **kwargs) -> TwoLayerResult:
    """Train PolyNets f(x) = prod_{j < factors} (<w_j, x> + b_j) (setting (xv) of Empirical Finding 5.1,
    seed 004 line 947: "a PolyNet simply outputs the product" of k linear functions of the input; factors
    defaults to k, biases are off unless asked for).  Same engine, data, losses, optimisers and outputs
    as :func:`train_two_layer` (its other keyword arguments pass through); W is (n, factors)."""
    if factors is None:
        factors = k
    return train_two_layer(n, k, width=factors, seeds=seeds, steps=steps, activation="product", second_layer=False,
                           bias=bias, **kwargs)


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

