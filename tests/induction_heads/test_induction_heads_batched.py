"""kernels.training.induction.train_softmax_minimal_runs / train_transformer_runs: the numba CPU twins
against the numpy references (train_softmax_minimal / train_transformer fed the same counter-based
batches), bit-for-bit reproducibility, and the
counter-based ICL-MC stream icl_batch against an independent numpy construction.

Tolerance of the twin comparison: both backends do the same float64 operations except for the order
of the sums in the gradient (einsum vs loops), so each gradient differs by a few ulps (~1e-16
relative).  Adam divides the first moment by sqrt of the second, so a relative perturbation delta of
a gradient moves the step by ~lr delta, and the trajectories separate slowly (measured: 5e-15 after
200 steps at t = 30, parameters of size ~1).  The bound 1e-10 (x (1 + |param|)) leaves five orders of
headroom for that growth and is still ten orders below the effect of any formula error (a wrong term
changes the parameters by >= lr ~ 1e-3 within a few steps).
"""

from __future__ import annotations

import numpy as np
import pytest

from kernels.rng import counter_u64_array
from kernels.training.induction import (
    icl_batch,
    softmax_minimal_loss_grad,
    train_softmax_minimal_runs,
    train_transformer_runs,
    transformer_loss_grad,
)

TOL = 1e-10


def _close(a, b):
    return np.all(np.abs(a - b) <= TOL * (1 + np.abs(b)))


@pytest.mark.parametrize(
    "k, t, steps, batch, lr, init_beta",
    [
        (2, 30, 120, 64, 0.005, 0.0),
        (3, 10, 60, 16, [0.01, 0.003], 0.0),
        (4, 6, 40, 8, 0.02, 0.5),
    ],
)
def test_numba_twin_matches_numpy_reference(k, t, steps, batch, lr, init_beta):
    seeds = np.array([11, 2**63 + 5], dtype=np.uint64)
    cks = [0, steps // 2, steps]
    kw = {"batch": batch, "lr": lr, "init_beta": init_beta, "checkpoints": cks}
    c = train_softmax_minimal_runs(seeds, k, t, steps, backend="cpu", **kw)
    r = train_softmax_minimal_runs(seeds, k, t, steps, backend="reference", **kw)
    for a, b in ((c.W, r.W), (c.v, r.v), (c.beta, r.beta), (c.W_at, r.W_at), (c.v_at, r.v_at), (c.beta_at, r.beta_at)):
        assert _close(a, b), np.abs(a - b).max()
    assert np.abs(r.W).max() > 10 * 0.003  # the runs moved: the comparison is not between two zero arrays
    assert not c.diverged.any()
    # the recorded batch loss of step s is the reference loss at the parameters recorded before step s
    for run in range(2):
        for i, s in enumerate(cks[:-1]):
            xb = icl_batch(int(seeds[run]), s, k, batch, t + 1)
            ref = softmax_minimal_loss_grad(xb[:, :-1], xb[:, 1:], k, r.W_at[run, i], r.v_at[run, i], r.beta_at[run, i])[0]
            assert abs(c.train_loss[run, s] - ref) <= TOL
    assert np.isnan(r.train_loss).all()


def test_runs_are_bit_reproducible_and_independent_of_the_other_runs():
    kw = {"batch": 16, "lr": 0.01, "checkpoints": [0, 25, 50]}
    a = train_softmax_minimal_runs([3, 4, 5], 2, 12, 50, **kw)
    b = train_softmax_minimal_runs([3, 4, 5], 2, 12, 50, **kw)
    alone = train_softmax_minimal_runs([5], 2, 12, 50, **kw)
    for f in ("W", "v", "beta", "W_at", "v_at", "beta_at", "train_loss"):
        assert np.array_equal(getattr(a, f), getattr(b, f))
        assert np.array_equal(getattr(a, f)[2:], getattr(alone, f))
    assert not np.array_equal(a.W[0], a.W[1])  # different seeds, different runs


def _icl_batch_numpy(seed, step, k, batch, length):
    """Independent construction of the stream: uniforms from the vectorised Philox, Dirichlet rows as
    normalised exponentials, the stationary law from numpy's eigen-solver, inverse-CDF draws."""
    stride = k * k + length
    idx = np.arange(batch * stride, dtype=np.uint64)
    z = counter_u64_array(np.full(idx.shape, seed, dtype=np.uint64), np.full(idx.shape, step, dtype=np.uint64), idx)
    u = (z >> np.uint64(11)).astype(np.float64) / 2.0**53
    u = u.reshape(batch, stride)
    out = np.empty((batch, length), dtype=np.int64)
    for b in range(batch):
        E = -np.log(1.0 - u[b, : k * k].reshape(k, k))
        P = E / E.sum(1, keepdims=True)
        w, V = np.linalg.eig(P.T)
        pi = np.real(V[:, np.argmin(np.abs(w - 1))])
        pi = pi / pi.sum()
        x = min(int(np.searchsorted(np.cumsum(pi)[:-1], u[b, k * k], side="right")), k - 1)
        out[b, 0] = x
        for s in range(1, length):
            x = int(np.searchsorted(np.cumsum(P[x])[:-1], u[b, k * k + s], side="right"))
            out[b, s] = x
    return out


@pytest.mark.parametrize("seed, step, k, batch, length", [(0, 0, 2, 50, 20), (12345, 7, 3, 40, 15), (2**64 - 1, 2**40, 5, 30, 9)])
def test_icl_batch_equals_an_independent_numpy_construction(seed, step, k, batch, length):
    x = icl_batch(seed, step, k, batch, length)
    assert np.array_equal(x, _icl_batch_numpy(seed, step, k, batch, length))
    assert np.array_equal(x, icl_batch(seed, step, k, batch, length))
    assert not np.array_equal(x, icl_batch(seed, step + 1, k, batch, length))


def test_icl_batch_law():
    """k = 2: the Dir(1) prior is invariant under relabelling the states, so the stationary first state
    is 0 with probability 1/2 (5 sigma); and chains are stationary: x_3 has the same law (5 sigma)."""
    x = np.concatenate([icl_batch(9, s, 2, 2000, 4) for s in range(5)])
    n = len(x)
    assert abs(x[:, 0].mean() - 0.5) <= 5 * 0.5 / np.sqrt(n)
    assert abs(x[:, 3].mean() - 0.5) <= 5 * 0.5 / np.sqrt(n)


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"seeds": [-1]}, "'seeds'"),
        ({"lr": 0.0}, "'lr'"),
        ({"lr": [0.1, 0.2]}, "'lr'"),
        ({"checkpoints": [5, 3]}, "'checkpoints'"),
        ({"backend": "gpu"}, "'backend'"),
        ({"t": 1}, "'t'"),
    ],
)
def test_bad_arguments_are_named(kwargs, name):
    args = {"seeds": [1], "k": 2, "t": 5, "steps": 10}
    args.update(kwargs)
    with pytest.raises(ValueError, match=name):
        train_softmax_minimal_runs(**args)


@pytest.mark.parametrize(
    "k, d, t, layers, steps, lr, wd",
    [
        (2, 4, 8, 2, 40, 0.01, 0.0),
        (3, 6, 5, 2, 30, [0.02, 0.005], 0.1),
        (2, 3, 4, 1, 20, 0.05, 0.0),
    ],
)
def test_transformer_twin_matches_numpy_reference(k, d, t, layers, steps, lr, wd):
    seeds = [7, 8]
    kw = {"layers": layers, "batch": 8, "lr": lr, "weight_decay": wd, "init_scale": 0.3, "checkpoints": [0, steps // 2, steps]}
    c = train_transformer_runs(seeds, k, d, t, steps, backend="cpu", **kw)
    r = train_transformer_runs(seeds, k, d, t, steps, backend="reference", **kw)
    for key in r.params:
        assert _close(c.params[key], r.params[key]), (key, np.abs(c.params[key] - r.params[key]).max())
        assert _close(c.params_at[key], r.params_at[key]), key
    moved = max(np.abs(r.params[key] - r.params_at[key][:, 0]).max() for key in r.params)
    assert moved > 10 * 0.005  # training moved the parameters
    for run in range(2):
        xb = icl_batch(seeds[run], steps // 2, k, 8, t + 1)
        p_mid = {key: val[run, 1] for key, val in r.params_at.items()}
        assert abs(c.train_loss[run, steps // 2] - transformer_loss_grad(p_mid, xb[:, :-1], xb[:, 1:])[0]) <= TOL
    kw["lr"] = lr[1:] if isinstance(lr, list) else lr
    a = train_transformer_runs(seeds[1:], k, d, t, steps, backend="cpu", **kw)
    assert all(np.array_equal(a.params[key][0], c.params[key][1]) for key in a.params)  # bit for bit, alone or batched
