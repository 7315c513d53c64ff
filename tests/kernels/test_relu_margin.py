"""kernels.training.relu_margin: numba twin against the numpy reference, gradients against finite differences
(away from the ReLU kinks), the recorded margin against kernels.algebra.margin, validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.algebra import margin as K
from kernels.algebra.groups import group_by_name
from kernels.training.relu_margin import relu_objective_ref, train_relu_margin


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 7), st.integers(1, 8), st.integers(0, 2**31 - 1))
def test_numba_matches_reference(n, m, seed):
    mul = group_by_name("S3").mul if n == 6 else K.cyclic_table(n)
    kw = {"steps": 12, "lr": 0.05, "lr_double_at": (4, 8), "weight_decay": 1e-3, "seed": seed, "record_every": 5}
    a = train_relu_margin(mul, m, backend="reference", **kw)
    b = train_relu_margin(mul, m, backend="cpu", **kw)
    assert np.array_equal(a.record_steps, b.record_steps) and a.diverged_at == b.diverged_at
    for x, y in ((a.U, b.U), (a.V, b.V), (a.W, b.W)):
        assert np.allclose(x, y, rtol=1e-10, atol=1e-13)
    assert np.allclose(a.loss, b.loss, rtol=1e-10)
    assert np.allclose(a.normalized_margin, b.normalized_margin, rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("p,m,lam", [(3, 2, 0.0), (5, 3, 1e-2), (4, 4, 0.5)])
def test_gradients_match_finite_differences(p, m, lam):
    mul = K.cyclic_table(p)
    rng = np.random.default_rng(p * 10 + m)
    U, V, W = (rng.standard_normal((m, p)) for _ in range(3))
    H = U[:, :, None] + V[:, None, :]
    assert np.abs(H).min() > 1e-3  # no kink within the finite-difference step
    _, _, gU, gV, gW = relu_objective_ref(mul, U, V, W, lam)
    h = 1e-7
    for P, G in ((U, gU), (V, gV), (W, gW)):
        for idx in np.ndindex(P.shape):
            old = P[idx]
            P[idx] = old + h
            lp = relu_objective_ref(mul, U, V, W, lam)[0]
            P[idx] = old - h
            lm = relu_objective_ref(mul, U, V, W, lam)[0]
            P[idx] = old
            assert abs((lp - lm) / (2 * h) - G[idx]) <= 1e-6 * max(1.0, abs(G[idx]))


def test_margin_matches_direct_evaluation():
    p, m = 7, 5
    rng = np.random.default_rng(1)
    U, V, W = (rng.standard_normal((m, p)) for _ in range(3))
    r = train_relu_margin(K.cyclic_table(p), m, steps=0, lr=0.1, weight_decay=0.0, params=(U, V, W))
    a, b = np.meshgrid(np.arange(p), np.arange(p), indexing="ij")
    F = np.einsum("iab,ic->abc", np.maximum(U[:, :, None] + V[:, None, :], 0), W)
    g, _ = K.group_margins(F, K.cyclic_table(p))
    assert abs(r.normalized_margin[0] - g.min() / (U**2 + V**2 + W**2).sum()) <= 1e-12


def test_training_fits_z5():
    r = train_relu_margin(K.cyclic_table(5), 20, steps=3000, lr=0.05, lr_double_at=(1000, 2000), weight_decay=1e-4,
                          seed=0, record_every=1000)
    assert r.diverged_at == -1 and r.normalized_margin[-1] > 0


def test_divergence_is_reported():
    kw = {"steps": 50, "lr": 1e8, "weight_decay": 1.0, "seed": 2, "record_every": 1}
    a = train_relu_margin(K.cyclic_table(3), 2, backend="cpu", **kw)
    b = train_relu_margin(K.cyclic_table(3), 2, backend="reference", **kw)
    assert a.diverged_at > 0 and a.diverged_at == b.diverged_at


@pytest.mark.parametrize("kwargs", [{"m": 0}, {"steps": -1}, {"lr": 0.0}, {"weight_decay": -1.0}, {"record_every": 0},
                                    {"backend": "cuda"}, {"params": (np.zeros((3, 3)),) * 2 + (np.zeros((2, 3)),)}])
def test_validation(kwargs):
    base = {"m": 3, "steps": 2, "lr": 0.1, "weight_decay": 0.0, "record_every": 1}
    base.update(kwargs)
    with pytest.raises(ValueError, match="argument"):
        train_relu_margin(K.cyclic_table(3), **base)
