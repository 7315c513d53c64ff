"""Numpy reference twin of kernels/training/two_layer.py: the oracle of the engine's tests.

Written independently of the compiled body: data from the vectorised Philox (``parity_samples``),
forward and backward as batched matrix products (H = X W + b, f = sigma(H) u + c, grad_W = X^T D / B),
activation values and slopes from the numpy oracles of kernels.activations, float64 throughout.  It
implements the same protocol (evaluation before each step, stopping, records) so that every output of
the compiled twins can be compared with it; it sums in a different order, so agreement is to rounding.
"""

from __future__ import annotations

import math

import numpy as np

from ..activations import Activation, activation_slope_numpy, activation_value_numpy
from ..rng import counter_bounded_ref
from ._common import OVERFLOW
from ._two_layer_body import EVAL_STEP, PRODUCT, TRAIN_STEP, parity_samples

__all__ = ["train_two_layer_ref"]


def _loss_and_slope(loss: int, f: np.ndarray, y: np.ndarray):
    m = y * f
    if loss == 0:
        return np.maximum(0.0, 1.0 - m), np.where(m < 1.0, -y, 0.0)
    if loss == 1:
        return 0.5 * (f - y) ** 2, f - y
    if loss == 2:
        return -m, -y
    return np.logaddexp(0.0, -m), -y / (1.0 + np.exp(m))


def train_two_layer_ref(theta, n, r, act: Activation, sup, seeds, steps, batch, loss, opt, lrs, wds, schedule, beta1,
                        beta2, eps, noises, train_size, tb, tu, tc, eval_every, n_eval, target, stop, record_every, rec,
                        snap_every, snaps, out) -> None:
    """Fill theta (R, P), rec, snaps and out in place, one run after another (arguments as validated
    by :func:`kernels.training.two_layer.train_two_layer`)."""
    code, params = act.code, act.param_array()
    ob, ou = n * r, n * r + r
    P = theta.shape[1]
    mask = np.zeros(P, dtype=bool)
    mask[:ob] = True
    mask[ob:ou] = tb
    mask[ou : ou + r] = tu
    mask[ou + r] = tc
    C = rec[0].shape[1]
    D = snaps.shape[1]

    def fwd(th, X):
        W = th[:ob].reshape(n, r)
        H = X @ W + th[ob:ou]
        if code == PRODUCT:
            return H, None, np.prod(H, axis=1)
        A = activation_value_numpy(code, H, params)
        return H, A, A @ th[ou : ou + r] + th[ou + r]

    def acc(th, X, y):
        return float(np.mean(y * fwd(th, X)[2] > 0.0))

    for q in range(seeds.shape[0]):
        seed = int(seeds[q])
        th = theta[q].astype(np.float64)
        Xe, ye = parity_samples(seed, int(EVAL_STEP), n_eval, n, sup)
        if train_size:
            Xt, yt = parity_samples(seed, int(TRAIN_STEP), train_size, n, sup, label_noise=float(noises[q]))
        m1 = np.zeros(P)
        m2 = np.zeros(P)
        b1t = b2t = 1.0
        conv = fit = div = -1
        last = math.nan
        t = 0
        while True:
            rec_now = record_every > 0 and t % record_every == 0 and t // record_every < C
            eval_now = eval_every > 0 and t % eval_every == 0
            if eval_now or rec_now:
                a_e = acc(th, Xe, ye)
                a_t = acc(th, Xt, yt) if train_size else math.nan
            if rec_now:
                c = t // record_every
                rec[0][q, c], rec[1][q, c], rec[2][q, c] = last, a_e, a_t
            if snap_every > 0 and t % snap_every == 0 and t // snap_every < D:
                snaps[q, t // snap_every] = th
            if eval_now:
                if fit < 0 and train_size and a_t >= 1.0:
                    fit = t
                if conv < 0 and a_e >= target:
                    conv = t
                    if stop:
                        break
            if t >= steps:
                break
            if train_size:
                idx = np.array([counter_bounded_ref(seed, t, b, train_size) for b in range(batch)])
                X, y = Xt[idx], yt[idx]
            else:
                X, y = parity_samples(seed, t, batch, n, sup, label_noise=float(noises[q]))
            H, A, f = fwd(th, X)
            lv, g = _loss_and_slope(loss, f, y)
            last = float(lv.mean())
            u = th[ou : ou + r]
            if code == PRODUCT:
                Dm = g[:, None] * np.stack([np.prod(np.delete(H, j, axis=1), axis=1) for j in range(r)], axis=1)
                gA, gc = np.zeros(r), 0.0
            else:
                Dm = (g[:, None] * u[None, :]) * activation_slope_numpy(code, H, params)
                gA, gc = g @ A, g.sum()
            grad = np.concatenate([(X.T @ Dm).ravel(), Dm.sum(0), gA, [gc]]) / batch
            grad = grad + wds[q] * th
            eta = lrs[q] * (1.0, 0.5 * (1.0 + math.cos(math.pi * t / max(steps, 1))), 1.0 - t / max(steps, 1))[schedule]
            if opt == 0:
                new = th - eta * grad
            else:
                b1t *= beta1
                b2t *= beta2
                m1 = np.where(mask, beta1 * m1 + (1 - beta1) * grad, m1)
                m2 = np.where(mask, beta2 * m2 + (1 - beta2) * grad * grad, m2)
                new = th - (eta / (1 - b1t)) * m1 / (np.sqrt(m2 / (1 - b2t)) + eps)
            th = np.where(mask, new, th)
            t += 1
            if not np.all(np.abs(th) <= OVERFLOW):
                div = t
                break
        theta[q] = th
        for c in range((t // record_every + 1) if record_every else C, C):
            rec[0][q, c] = rec[1][q, c] = rec[2][q, c] = math.nan
        for c in range((t // snap_every + 1) if snap_every else D, D):
            snaps[q, c] = math.nan
        out[q] = (conv, fit, div, t)
