"""kernels.training.parity_margin: numba twin against the numpy reference, gradients against finite
differences, the margin against kernels.algebra.margin, validation, and the max-margin construction as a
fixed point of the normalized margin."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.algebra import margin as K
from kernels.training.parity_margin import _cube, parity_objective_ref, train_parity_margin


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 6), st.integers(1, 3), st.integers(1, 6), st.integers(0, 2**31 - 1))
def test_numba_matches_reference(n, k, m, seed):
    k = min(k, n)
    kw = {"steps": 15, "lr": 0.05, "weight_decay": 1e-2, "seed": seed, "record_every": 4}
    a = train_parity_margin(n, k, m, backend="reference", **kw)
    b = train_parity_margin(n, k, m, backend="cpu", **kw)
    assert np.array_equal(a.record_steps, b.record_steps) and a.diverged_at == b.diverged_at == -1
    assert np.allclose(a.U, b.U, rtol=1e-10, atol=1e-13) and np.allclose(a.W, b.W, rtol=1e-10, atol=1e-13)
    assert np.allclose(a.loss, b.loss, rtol=1e-10)
    assert np.allclose(a.normalized_margin, b.normalized_margin, rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("n,k,m,lam", [(3, 2, 2, 0.0), (4, 3, 3, 1e-2), (5, 4, 2, 0.3)])
def test_gradients_match_finite_differences(n, k, m, lam):
    X, y = _cube(n, range(k))
    rng = np.random.default_rng(n * 100 + k)
    U, W = rng.standard_normal((m, n)) * 0.5, rng.standard_normal((m, 2)) * 0.5
    _, _, gU, gW = parity_objective_ref(X, y, U, W, k, lam)
    h = 1e-6
    for P, G in ((U, gU), (W, gW)):
        for idx in np.ndindex(P.shape):
            old = P[idx]
            P[idx] = old + h
            lp = parity_objective_ref(X, y, U, W, k, lam)[0]
            P[idx] = old - h
            lm = parity_objective_ref(X, y, U, W, k, lam)[0]
            P[idx] = old
            assert abs((lp - lm) / (2 * h) - G[idx]) <= 1e-6 * max(1.0, abs(G[idx]))


def test_margin_matches_kernels_algebra_and_construction_is_max_margin():
    n, k = 6, 3
    U, Wout = K.parity_construction(n, k, range(k))
    r = train_parity_margin(n, k, len(U), steps=0, lr=0.1, weight_decay=0.0, params=(U, Wout))
    X, y = K.parity_cube(n, range(k))
    g = K.parity_margins(U, Wout, k, X, y)
    cost = np.sum((np.sum(U**2, 1) + np.sum(Wout**2, 1)) ** ((k + 1) / 2))
    assert abs(r.normalized_margin[0] - g.min() / cost) <= 1e-12
    gamma = math.factorial(k) * math.sqrt(2 * (k + 1) ** (-(k + 1)))
    assert abs(r.normalized_margin[0] / gamma - 1) < 1e-12
    # the construction is scale-free optimal: GD with weight decay keeps the normalized margin at gamma*
    r = train_parity_margin(n, k, len(U), steps=50, lr=0.05, weight_decay=1e-3, params=(U * 3, Wout * 3), record_every=50)
    assert np.all(np.abs(r.normalized_margin / gamma - 1) < 1e-9)


def test_training_approaches_gamma_small():
    n, k = 5, 2
    r = train_parity_margin(n, k, 8, steps=4000, lr=0.1, weight_decay=1e-3, seed=3, record_every=1000)
    gamma = math.factorial(k) * math.sqrt(2 * (k + 1) ** (-(k + 1)))
    assert r.diverged_at == -1
    assert np.nanmax(r.normalized_margin) <= gamma * (1 + 1e-9)
    assert r.normalized_margin[-1] >= 0.9 * gamma


def test_divergence_is_reported():
    r = train_parity_margin(4, 2, 3, steps=200, lr=1e6, weight_decay=0.0, seed=1, record_every=1, backend="cpu")
    ref = train_parity_margin(4, 2, 3, steps=200, lr=1e6, weight_decay=0.0, seed=1, record_every=1, backend="reference")
    assert r.diverged_at > 0 and r.diverged_at == ref.diverged_at
    assert len(r.record_steps) == len(ref.record_steps)


@pytest.mark.parametrize("kwargs", [{"m": 0}, {"steps": -1}, {"lr": 0.0}, {"weight_decay": -1.0}, {"record_every": 0},
                                    {"backend": "cuda"}, {"k": 7}, {"support": [0, 0]}, {"support": [9]},
                                    {"params": (np.zeros((2, 4)), np.zeros((3, 2)))}])
def test_validation(kwargs):
    base = {"n": 4, "k": 2, "m": 3, "steps": 2, "lr": 0.1, "weight_decay": 0.0, "record_every": 1}
    base.update(kwargs)
    with pytest.raises(ValueError, match="argument"):
        train_parity_margin(**base)
