"""kernels.training.ngram_heads: the n-gram stream against icl_batch (order 2) and an independent numpy
construction (order 3), the multi-head gradient against finite differences, the numba twin against the numpy
reference (same batches), and the one-head case against the existing single-head transformer trainer.

Tolerance of the twin comparisons: as in tests/induction_heads/test_induction_heads_batched.py, both backends do
the same float64 operations up to the order of the sums, and Adam separates the trajectories slowly; 1e-10
(x (1 + |param|)) is far below any formula error (>= lr within a few steps)."""

from __future__ import annotations

import numpy as np
import pytest

from kernels.rng import counter_u64_array
from kernels.training._ngram_heads_cpu import NB, batch_loss_grad_jit
from kernels.training.induction import icl_batch, train_transformer_runs
from kernels.training.ngram_heads import (
    init_multihead,
    multihead_logits,
    multihead_loss_grad,
    ngram_batch,
    train_multihead_runs,
)

TOL = 1e-10


def _close(a, b):
    return np.all(np.abs(a - b) <= TOL * (1 + np.abs(b)))


@pytest.mark.parametrize("seed, step, k, batch, length", [(0, 0, 2, 20, 15), (77, 5, 3, 10, 9)])
def test_order_2_is_the_icl_mc_stream(seed, step, k, batch, length):
    assert np.array_equal(ngram_batch(seed, step, k, 2, batch, length), icl_batch(seed, step, k, batch, length))


def _ngram_numpy(seed, step, k, order, batch, length):
    """Independent construction: vectorised Philox uniforms, Dirichlet rows as normalised exponentials, the
    stationary law of the context chain from numpy's eigen-solver, inverse-CDF draws."""
    C = k ** (order - 1)
    stride = C * k + length
    idx = np.arange(batch * stride, dtype=np.uint64)
    z = counter_u64_array(np.full(idx.shape, seed, dtype=np.uint64), np.full(idx.shape, step, dtype=np.uint64), idx)
    u = ((z >> np.uint64(11)).astype(np.float64) / 2.0**53).reshape(batch, stride)
    out = np.empty((batch, length), dtype=np.int64)
    for b in range(batch):
        E = -np.log(1.0 - u[b, : C * k].reshape(C, k))
        Q = E / E.sum(1, keepdims=True)
        P = np.zeros((C, C))
        for c in range(C):
            for j in range(k):
                P[c, (c * k + j) % C] += Q[c, j]
        w, V = np.linalg.eig(P.T)
        pi = np.real(V[:, np.argmin(np.abs(w - 1))])
        pi = pi / pi.sum()
        c = min(int(np.searchsorted(np.cumsum(pi)[:-1], u[b, C * k], side="right")), C - 1)
        out[b, : order - 1] = [(c // k ** (order - 2 - s)) % k for s in range(order - 1)]
        for s in range(order - 1, length):
            x = int(np.searchsorted(np.cumsum(Q[c])[:-1], u[b, C * k + s], side="right"))
            out[b, s] = x
            c = (c * k + x) % C
    return out


@pytest.mark.parametrize("seed, step, k, order, batch, length", [(3, 0, 2, 3, 30, 20), (2**63, 11, 3, 3, 10, 12), (5, 2, 2, 4, 8, 10)])
def test_ngram_batch_equals_an_independent_numpy_construction(seed, step, k, order, batch, length):
    x = ngram_batch(seed, step, k, order, batch, length)
    assert np.array_equal(x, _ngram_numpy(seed, step, k, order, batch, length))
    assert not np.array_equal(x, ngram_batch(seed, step + 1, k, order, batch, length))


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(0)
    k, d, t = 3, 4, 6
    p = init_multihead(rng, k, d, t, layers=2, heads=3, scale=0.5)
    x = rng.integers(0, k, (3, t + 1))
    _, g = multihead_loss_grad(p, x[:, :-1], x[:, 1:])
    eps = 1e-6
    for key in p:
        for idx in list(np.ndindex(*p[key].shape))[:: max(1, p[key].size // 7)]:
            q = {kk: v.copy() for kk, v in p.items()}
            q[key][idx] += eps
            lp = multihead_loss_grad(q, x[:, :-1], x[:, 1:])[0]
            q[key][idx] -= 2 * eps
            lm = multihead_loss_grad(q, x[:, :-1], x[:, 1:])[0]
            assert abs((lp - lm) / (2 * eps) - g[key][idx]) <= 1e-7 * (1 + abs(g[key][idx])), (key, idx)


def test_heads_add_up():
    """A head with W_V = 0 contributes nothing: the two-head model equals the one-head model with head 0."""
    rng = np.random.default_rng(1)
    p2 = init_multihead(rng, 2, 4, 5, layers=2, heads=2, scale=0.4)
    p1 = {key.replace("_0", "_0"): v for key, v in p2.items() if not key.endswith("_1")}
    for li in range(2):
        p2[f"WV{li}_1"] = np.zeros((4, 4))
    x = rng.integers(0, 2, (4, 5))
    assert np.allclose(multihead_logits(p2, x)[0], multihead_logits(p1, x)[0], atol=1e-13)


@pytest.mark.parametrize("k, d, t, heads, layers, order, steps, lr", [(2, 4, 7, 3, 2, 3, 12, 0.02), (3, 3, 5, 2, 1, 2, 10, [0.01, 0.03])])
def test_numba_twin_matches_numpy_reference(k, d, t, heads, layers, order, steps, lr):
    seeds = [4, 9]
    kw = {"heads": heads, "layers": layers, "order": order, "batch": 6, "lr": lr, "init_scale": 0.3, "checkpoints": [0, steps // 2, steps]}
    c = train_multihead_runs(seeds, k, d, t, steps, backend="cpu", **kw)
    r = train_multihead_runs(seeds, k, d, t, steps, backend="reference", **kw)
    for key in r.params:
        assert _close(c.params[key], r.params[key]), (key, np.abs(c.params[key] - r.params[key]).max())
        assert _close(c.params_at[key], r.params_at[key]), key
    assert max(np.abs(r.params[key] - r.params_at[key][:, 0]).max() for key in r.params) > 0.01
    for run in range(2):
        xb = ngram_batch(seeds[run], steps // 2, k, order, 6, t + 1)
        p_mid = {key: val[run, 1] for key, val in r.params_at.items()}
        assert abs(c.train_loss[run, steps // 2] - multihead_loss_grad(p_mid, xb[:, :-1], xb[:, 1:])[0]) <= TOL
    a = train_multihead_runs(seeds[1:], k, d, t, steps, backend="cpu", **dict(kw, lr=lr[1:] if isinstance(lr, list) else lr))
    assert all(np.array_equal(a.params[key][0], c.params[key][1]) for key in a.params)  # bit for bit, alone or batched


@pytest.mark.parametrize("k, d, t, layers, heads, batch, scale", [(2, 8, 20, 2, 3, NB, 0.3), (2, 8, 20, 2, 1, NB + 3, 0.3),
                                                                 (3, 4, 7, 2, 3, 6, 1.0), (3, 3, 5, 1, 2, 2 * NB + 5, 2.0),
                                                                 (2, 4, 8, 3, 2, 17, 0.5)])
@pytest.mark.parametrize("residual_first", [False, True])
def test_lockstep_chunks_are_the_sequence_loop_bit_for_bit(k, d, t, layers, heads, batch, scale, residual_first):
    rng = np.random.default_rng(batch + 10 * heads)
    n = 2 * k * d + layers * heads * (3 * d * d + t * d)
    for _ in range(2):
        theta = rng.normal(0, scale, n)
        xb = rng.integers(0, k, (batch, t + 1))
        loss_seq, g_seq = batch_loss_grad_jit(theta, xb, k, d, t, layers, heads, False, residual_first)
        loss_chunk, g_chunk = batch_loss_grad_jit(theta, xb, k, d, t, layers, heads, True, residual_first)
        assert loss_chunk == loss_seq and np.array_equal(g_chunk, g_seq)


@pytest.mark.parametrize("k, d, t, layers, batch, steps", [(2, 8, 12, 2, 64, 25), (3, 4, 7, 1, NB + 9, 12), (4, 5, 9, 3, 10, 8)])
def test_single_head_trainer_is_the_sequence_by_sequence_kernel_bit_for_bit(k, d, t, layers, batch, steps):
    """kernels.training.induction.train_transformer_runs (the lockstep trainer of _ngram_heads_cpu, order 2, one head)
    against the sequence-by-sequence kernel kernels.training._induction_cpu.train_transformer_runs."""
    from kernels.training import _induction_cpu

    seeds, cks = [3, 8], [0, steps // 2, steps]
    kw = {"layers": layers, "batch": batch, "lr": [0.02, 0.005], "weight_decay": 0.01, "init_scale": 0.3, "checkpoints": cks}
    a = train_transformer_runs(seeds, k, d, t, steps, **kw)
    ref = train_transformer_runs(seeds, k, d, t, 0, **dict(kw, checkpoints=[0]))  # the initial parameters
    names = list(ref.params)
    theta = np.concatenate([ref.params[name].reshape(2, -1) for name in names], axis=1)
    n = theta.shape[1]
    th_at, losses, diverged = np.zeros((2, 3, n)), np.full((2, steps), np.nan), np.zeros(2, dtype=np.bool_)
    _induction_cpu.train_transformer_runs(np.array(seeds, dtype=np.uint64), theta, k, d, t, layers, steps, batch,
                                          np.array([0.02, 0.005]), 0.01, np.array(cks, dtype=np.int64), th_at, losses, diverged)
    assert np.array_equal(np.concatenate([a.params[name].reshape(2, -1) for name in names], axis=1), theta)
    assert np.array_equal(np.concatenate([a.params_at[name].reshape(2, 3, -1) for name in names], axis=2), th_at)
    assert np.array_equal(a.train_loss, losses) and np.array_equal(a.diverged, diverged)


def test_one_head_order_2_is_the_single_head_trainer():
    kw = {"layers": 2, "batch": 8, "lr": 0.01, "init_scale": 0.2, "checkpoints": [0, 15, 30]}
    a = train_multihead_runs([6, 7], 2, 4, 8, 30, heads=1, order=2, **kw)
    b = train_transformer_runs([6, 7], 2, 4, 8, 30, **kw)
    for key, val in b.params.items():
        name = key if key in ("emb", "readout") else f"{key}_0"
        assert _close(a.params[name], val), key


@pytest.mark.parametrize("kwargs, name", [({"heads": 0}, "'heads'"), ({"order": 5}, "'order'"), ({"d": 1}, "'d'"),
                                          ({"backend": "gpu"}, "'backend'"), ({"lr": 0.0}, "'lr'")])
def test_bad_arguments_are_named(kwargs, name):
    args = {"seeds": [1], "k": 2, "d": 4, "t": 6, "steps": 3}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        train_multihead_runs(**args)
