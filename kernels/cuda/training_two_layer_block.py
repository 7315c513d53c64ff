"""Block-per-run CUDA kernel of the two-layer engine (kernels/training/two_layer.py): ``variant="block"``.

Why.  The one-thread-per-run kernel (kernels/cuda/training_two_layer.py) gives 10^4 runs only ~76 threads
per SM of an H100, each walking its whole network alone (run 1: 1.15x the 16-core CPU engine).  Here one
block of ``THREADS`` (32) threads trains one run: thread t owns the hidden units j = t, t + 32, ... (the
columns W[:, j], b_j, u_j and their gradient, Adam moments and work entries; thread 0 also owns c), so
10^4 runs are 3.2 10^5 threads, every load of a W row is one coalesced 32-wide access, and a thread only
ever touches its own columns in global memory (no synchronisation is needed for them).

Per step, the same math as the per-sample body of the reference engine (``_build(F, batched=False)``):

* the batch is drawn 32 samples at a time, thread s drawing sample b0 + s (its Philox word, label, label
  flip; with a fixed training set its counter_bounded index) into shared memory, then every thread walks
  the 32 samples in order;
* forward: h_j = (b_j + sum_i W_ij) - 2 sum_{i: x_i = -1} W_ij (the same operations, in the same order, as
  the per-sample body), sigma(h_j), and f = c + sum_j u_j sigma(h_j) where the sum over j is the one
  cross-thread step: each thread sums its columns, the 32 partial sums go through shared memory and every
  thread adds them in the order t = 0..31 (so all threads hold the same f and take the same branches);
* loss slope g (every thread alike), backward into the thread's columns, finish_batch and the SGD/Adam
  update of the thread's parameters, exactly as the reference body; divergence is OR-ed over the block.

Agreement.  The sum for f runs in another order than the CPU engine's (four interleaved partial sums, or
gemv): the kernel agrees with the CPU engine and the numpy reference to rounding (kernels.cuda.agreement,
exact=False, also under the simulator), not bit for bit.  Everything else is the reference body's order.

Scope.  n <= 64 inputs (a sample is one Philox word) and an activation (not the PolyNet product read-out);
other problems run on the thread-per-run kernel, which the launcher picks automatically and reports.
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np
from numba import cuda

from ..activations import activation_slope, activation_value
from ..rng import counter_bounded, counter_u64, unit_double
from ..training._common import OVERFLOW
from ..training._two_layer_body import _BODIES, EVAL_STEP, PRODUCT, TRAIN_STEP

__all__ = ["MAX_REGISTERS", "THREADS", "block_kernel", "block_supported"]

#: threads per run (one warp): the hidden units are dealt out to them round-robin
THREADS = 32

_KERNELS: dict = {}


def block_supported(n: int, code: int) -> bool:
    """True when the block kernel handles the problem: n <= 64 and an activation (not the product)."""
    return 1 <= n <= 64 and code != PRODUCT


#: register cap of the "block" variant: 64 registers x 32 threads x 32 blocks = the H100's 65536 registers
#: per SM, so 32 runs (warps) share an SM; uncapped (variant "block_nocap") ptxas gives the kernel ~210
#: registers (sm_90, numba-cuda 0.30 / NVVM 13.0), i.e. 9 runs per SM.  With the cap, ptxas reports no
#: spills, only larger stack frames at the device-function calls (~440 bytes, L1-cached local memory).
MAX_REGISTERS = 64


def block_kernel(dtype, max_registers: int | None = MAX_REGISTERS):
    """The compiled-on-first-use block kernel for float32 / float64 (same arguments as the thread kernel),
    with ptxas limited to ``max_registers`` registers per thread (None: no cap)."""
    dt = np.dtype(dtype)
    key = (dt, max_registers)
    if key not in _KERNELS:
        _KERNELS[key] = _build(dt.type, max_registers)
    return _KERNELS[key]


def _build(F, max_registers=None):
    from ..backend import cuda_simulator_enabled

    jit_options = {} if (max_registers is None or cuda_simulator_enabled()) else {"max_registers": int(max_registers)}
    zero = F(0.0)
    one = F(1.0)
    two = F(2.0)
    limit = F(min(OVERFLOW, 1e38))
    NT = THREADS
    FT = nb.from_dtype(np.dtype(F))
    loss_and_slope = _BODIES[(np.dtype(F), False)][3]

    @cuda.jit(device=True)
    def reduce_sum(v, red, par):  # pragma: no cover - compiled
        """Sum of v over the block's threads, the same value on every thread (partials added in thread
        order); red[par] is written, so consecutive calls must alternate par (the next call's barrier
        separates this call's reads from the write two calls later)."""
        red[par, cuda.threadIdx.x] = v
        cuda.syncthreads()
        s = red[par, 0]
        for u in range(1, NT):
            s += red[par, u]
        return s

    @cuda.jit(device=True)
    def draw(seed, skey, base, n, support, noise, noisy):  # pragma: no cover - compiled
        """(word with bit i set <=> x_i = -1, label) of the sample whose words start at ``base``."""
        word = counter_u64(seed, skey, base)
        if n < 64:
            word &= (np.uint64(1) << np.uint64(n)) - np.uint64(1)
        y = one
        for s in range(support.shape[0]):
            if (word >> np.uint64(support[s])) & np.uint64(1):
                y = -y
        if noisy and noise > 0.0 and unit_double(counter_u64(seed, skey, base + np.uint64(1))) < noise:
            y = -y
        return word, y

    @cuda.jit(device=True)
    def forward(TH, WK, q, word, n, r, code, params, red, par):  # pragma: no cover - compiled
        """f(x) on every thread (WK[q, 3r + j] must hold b_j + sum_i W_ij); h_j, sigma(h_j) into WK[q, j],
        WK[q, r + j] for the thread's columns."""
        ou = n * r + r
        o = zero
        j = cuda.threadIdx.x
        while j < r:
            h = WK[q, 3 * r + j]
            for i in range(n):
                if (word >> np.uint64(i)) & np.uint64(1):
                    h -= two * TH[q, i * r + j]
            WK[q, j] = h
            if code == 1:
                a = max(zero, h)
            else:
                a = F(activation_value(code, h, params))
            WK[q, r + j] = a
            o += TH[q, ou + j] * a
            j += NT
        return TH[q, ou + r] + reduce_sum(o, red, par)

    @cuda.jit(device=True)
    def prepare(TH, WK, q, n, r):  # pragma: no cover - compiled
        ob = n * r
        j = cuda.threadIdx.x
        while j < r:
            acc = TH[q, ob + j]
            for i in range(n):
                acc += TH[q, i * r + j]
            WK[q, 3 * r + j] = acc
            j += NT

    @cuda.jit(device=True)
    def accuracy(TH, WK, q, seed, key, m, n, r, code, params, support, noisy, noise, sw, sy, red, par):  # pragma: no cover
        """(fraction of the m samples at step ``key`` with y f > 0, next par)."""
        t = cuda.threadIdx.x
        prepare(TH, WK, q, n, r)
        hits = 0
        s0 = 0
        while s0 < m:
            c = min(NT, m - s0)
            if t < c:
                w, y = draw(seed, key, np.uint64(s0 + t) * np.uint64(2), n, support, noise, noisy)
                sw[t] = w
                sy[t] = y
            cuda.syncthreads()
            for s in range(c):
                word = sw[s]  # read before forward's barrier: after it, a thread may already draw the next chunk
                y = sy[s]
                f = forward(TH, WK, q, word, n, r, code, params, red, par)
                par = 1 - par
                if y * f > zero:
                    hits += 1
            s0 += c
        return hits / m, par

    @cuda.jit(device=True)
    def gradient(TH, GR, WK, q, seed, step, batch, train_size, n, r, code, params, support, noise, loss, tb, tu, tc,
                 sw, sy, red, par):  # pragma: no cover - compiled
        """The batch gradient sum into the thread's entries of GR[q]; returns (summed loss, next par)."""
        t = cuda.threadIdx.x
        ob = n * r
        ou = ob + r
        j = t
        while j < r:
            for i in range(n):
                GR[q, i * r + j] = zero
            GR[q, ob + j] = zero
            GR[q, ou + j] = zero
            WK[q, 4 * r + j] = zero
            j += NT
        if t == 0:
            GR[q, ou + r] = zero
        prepare(TH, WK, q, n, r)
        key = np.uint64(step)
        tot = zero
        b0 = 0
        while b0 < batch:
            c = min(NT, batch - b0)
            if t < c:
                b = b0 + t
                if train_size > 0:
                    idx = counter_bounded(seed, key, np.uint64(b), np.uint64(train_size))
                    w, y = draw(seed, TRAIN_STEP, np.uint64(idx) * np.uint64(2), n, support, noise, True)
                else:
                    w, y = draw(seed, key, np.uint64(b) * np.uint64(2), n, support, noise, True)
                sw[t] = w
                sy[t] = y
            cuda.syncthreads()
            for s in range(c):
                word = sw[s]  # read before forward's barrier: after it, a thread may already draw the next chunk
                y = sy[s]
                f = forward(TH, WK, q, word, n, r, code, params, red, par)
                par = 1 - par
                lv, g = loss_and_slope(loss, f, y)
                tot += lv
                if g != zero:
                    j = t
                    while j < r:
                        h = WK[q, j]
                        if code == 1:
                            d = g * TH[q, ou + j] if h > zero else zero
                        else:
                            d = g * TH[q, ou + j] * F(activation_slope(code, h, params))
                        WK[q, 4 * r + j] += d
                        for i in range(n):
                            if (word >> np.uint64(i)) & np.uint64(1):
                                GR[q, i * r + j] += d
                        if tu:
                            GR[q, ou + j] += g * WK[q, r + j]
                        j += NT
                    if tc and t == 0:
                        GR[q, ou + r] += g
            b0 += c
        j = t
        while j < r:  # finish_batch: grad_W[i] = dsum - 2 (sum over samples with x_i = -1); grad_b = dsum
            ds = WK[q, 4 * r + j]
            for i in range(n):
                GR[q, i * r + j] = ds - two * GR[q, i * r + j]
            if tb:
                GR[q, ob + j] = ds
            j += NT
        return tot, par

    @cuda.jit(device=True)
    def update_one(TH, GR, M1, M2, q, p, inv_b, step_size, wd, opt, beta1, beta2, corr2, eps):  # pragma: no cover
        """The reference body's ``update`` of parameter p; True if it overflowed."""
        gp = GR[q, p] * inv_b + wd * TH[q, p]
        if opt == 0:
            v = TH[q, p] - step_size * gp
        else:
            m1 = beta1 * M1[q, p] + (one - beta1) * gp
            m2 = beta2 * M2[q, p] + (one - beta2) * gp * gp
            M1[q, p] = m1
            M2[q, p] = m2
            v = TH[q, p] - step_size * m1 / (F(math.sqrt(np.float64(m2 * corr2))) + eps)
        TH[q, p] = v
        return not abs(v) <= limit

    @cuda.jit(**jit_options)
    def train(TH, GR, M1, M2, XS, WK, XB, YB, HB, AB, DB, n, r, code, params, support, seeds, steps, batch, loss, opt,
              lrs, wds, schedule, beta1, beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target, stop,
              record_every, REC_L, REC_E, REC_T, snap_every, SNAP, OUT):  # pragma: no cover - compiled
        sw = cuda.shared.array(NT, dtype=nb.uint64)
        sy = cuda.shared.array(NT, dtype=FT)
        red = cuda.shared.array((2, NT), dtype=FT)
        q = cuda.blockIdx.x
        t = cuda.threadIdx.x
        if q >= seeds.shape[0]:
            return
        seed = seeds[q]
        lr = lrs[q]
        wd = wds[q]
        noise = noises[q]
        ob = n * r
        ou = ob + r
        P = ou + r + 1
        j = t
        while j < r:  # Adam moments of the thread's parameters
            for i in range(n):
                M1[q, i * r + j] = zero
                M2[q, i * r + j] = zero
            M1[q, ob + j] = zero
            M2[q, ob + j] = zero
            M1[q, ou + j] = zero
            M2[q, ou + j] = zero
            j += NT
        if t == 0:
            M1[q, ou + r] = zero
            M2[q, ou + r] = zero
        n_rec = REC_L.shape[1]
        n_snap = SNAP.shape[1]
        converged_at = -1
        fitted_at = -1
        diverged_at = -1
        last_loss = np.nan
        b1t = 1.0
        b2t = 1.0
        par = 0
        step = 0
        while True:
            rec_now = record_every > 0 and step % record_every == 0 and step // record_every < n_rec
            eval_now = eval_every > 0 and (step % eval_every == 0)
            acc_eval = np.nan
            acc_train = np.nan
            if eval_now or rec_now:
                acc_eval, par = accuracy(TH, WK, q, seed, EVAL_STEP, n_eval, n, r, code, params, support, False, 0.0,
                                         sw, sy, red, par)
                if train_size > 0:
                    acc_train, par = accuracy(TH, WK, q, seed, TRAIN_STEP, train_size, n, r, code, params, support,
                                              True, noise, sw, sy, red, par)
            if rec_now and t == 0:
                c = step // record_every
                REC_L[q, c] = last_loss
                REC_E[q, c] = acc_eval
                REC_T[q, c] = acc_train
            if snap_every > 0 and step % snap_every == 0 and step // snap_every < n_snap:
                c = step // snap_every
                p = t
                while p < P:
                    SNAP[q, c, p] = TH[q, p]
                    p += NT
            if eval_now:
                if fitted_at < 0 and train_size > 0 and acc_train >= 1.0:
                    fitted_at = step
                if converged_at < 0 and acc_eval >= target:
                    converged_at = step
                    if stop:
                        break
            if step >= steps:
                break
            cuda.syncthreads()  # the snapshot above read parameters that other threads update below
            tot, par = gradient(TH, GR, WK, q, seed, step, batch, train_size, n, r, code, params, support, noise,
                                loss, tb, tu, tc, sw, sy, red, par)
            last_loss = tot / F(batch)
            if schedule == 0:
                eta = lr
            elif schedule == 1:
                eta = lr * 0.5 * (1.0 + math.cos(math.pi * step / steps))
            else:
                eta = lr * (1.0 - step / steps)
            inv_b = one / F(batch)
            if opt == 1:
                b1t *= beta1
                b2t *= beta2
            step_size = F(eta / (1.0 - b1t)) if opt == 1 else F(eta)
            corr2 = F(1.0 / (1.0 - b2t)) if opt == 1 else one
            bad = False
            j = t
            while j < r:
                for i in range(n):
                    bad |= update_one(TH, GR, M1, M2, q, i * r + j, inv_b, step_size, F(wd), opt, F(beta1), F(beta2),
                                      corr2, F(eps))
                if tb:
                    bad |= update_one(TH, GR, M1, M2, q, ob + j, inv_b, step_size, F(wd), opt, F(beta1), F(beta2),
                                      corr2, F(eps))
                if tu:
                    bad |= update_one(TH, GR, M1, M2, q, ou + j, inv_b, step_size, F(wd), opt, F(beta1), F(beta2),
                                      corr2, F(eps))
                j += NT
            if tc and t == 0:
                bad |= update_one(TH, GR, M1, M2, q, ou + r, inv_b, step_size, F(wd), opt, F(beta1), F(beta2), corr2,
                                  F(eps))
            step += 1
            nbad = reduce_sum(one if bad else zero, red, par)
            par = 1 - par
            if nbad > zero:
                diverged_at = step
                break
            cuda.syncthreads()  # the next step's snapshot / forward reads parameters updated by other threads
        # NaN-fill the records after the run stopped
        if t == 0:
            first = step // record_every + 1 if record_every > 0 else n_rec
            for c in range(first, n_rec):
                REC_L[q, c] = np.nan
                REC_E[q, c] = np.nan
                REC_T[q, c] = np.nan
            OUT[q, 0] = converged_at
            OUT[q, 1] = fitted_at
            OUT[q, 2] = diverged_at
            OUT[q, 3] = step
        first = step // snap_every + 1 if snap_every > 0 else n_snap
        for c in range(first, n_snap):
            p = t
            while p < P:
                SNAP[q, c, p] = np.nan
                p += NT

    return train
