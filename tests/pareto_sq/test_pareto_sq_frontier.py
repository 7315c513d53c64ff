"""kernels.boolean.sq_frontier and kernels.training.pareto_init: Parseval bounds, derivative tables, sparse rows."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.training.pareto_init import row_supports, sparse_theta0
from kernels.boolean.sq_frontier import (
    frontier_ratio,
    mlp_params,
    tanh_mlp_tables,
    visibility,
    zero_target_trajectory,
)
from kernels.training.two_layer import init_two_layer, n_params


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 9), st.integers(1, 3), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_visibility_bound_on_random_trajectories(n, k, width, seed):
    k = min(k, n)
    rng = np.random.default_rng(seed)
    W, b, v = rng.normal(size=(width, n)), rng.normal(size=width), rng.uniform(-1, 1, size=width)
    tables = zero_target_trajectory(n, W, b, v, steps=3, lr=0.3)
    M, sq, norms = visibility(tables, k)
    assert np.all(sq <= norms + 1e-12)
    r, T = tables[0].shape[0], len(tables)
    assert np.sum(M**2) <= r * T + 1e-9
    for tau in (0.05, 0.2, 0.7):
        assert np.sum(M > tau) <= r * T / tau**2


@given(st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_tables_match_finite_differences(n, seed):
    rng = np.random.default_rng(seed)
    W, b, v = rng.normal(size=(2, n)), rng.normal(size=2), rng.uniform(-1, 1, size=2)
    h, D = tanh_mlp_tables(n, W, b, v)
    theta = np.concatenate([W.ravel(), b, v])
    eps = 1e-6
    for p in range(theta.size):
        t2 = theta.copy()
        t2[p] += eps
        h2, _ = tanh_mlp_tables(n, t2[: 2 * n].reshape(2, n), t2[2 * n : 2 * n + 2], t2[2 * n + 2 :])
        assert np.allclose((h2 - h) / eps, D[p], atol=1e-4)
    assert np.max(np.abs(D)) <= 1.0


def test_frontier_ratio_and_params():
    assert mlp_params(10, 50) == n_params(50, 10)
    assert frontier_ratio(10, 3, 1, 1, 1.0, 1.0) == pytest.approx(1 / (comb(10, 3) / 2))


@given(st.integers(2, 40), st.integers(1, 50), st.integers(1, 3), st.integers(0, 2**40))
def test_sparse_rows_have_exactly_s_nonzeros(n, width, s, seed):
    s = min(s, n)
    theta = sparse_theta0(n, width, [seed], s)
    W = theta[0, : n * width].reshape(n, width)
    assert np.all(np.count_nonzero(W, axis=0) <= s)
    supp = row_supports(n, width, s, seed)
    assert supp.shape == (width, s) and np.all(np.diff(supp, axis=1) > 0)
    dense = init_two_layer(n, width, [seed])
    assert np.array_equal(theta[0, n * width :], dense[0, n * width :])


@pytest.mark.parametrize("bad", [
    lambda: tanh_mlp_tables(3, np.zeros((2, 4)), np.zeros(2), np.zeros(2)),
    lambda: zero_target_trajectory(3, np.zeros((1, 3)), np.zeros(1), np.zeros(1), steps=0, lr=0.1),
    lambda: frontier_ratio(10, 3, 0, 1, 1, 1),
    lambda: sparse_theta0(5, 3, [1], 6),
    lambda: visibility([], 2),
])
def test_bad_arguments_raise_value_error(bad):
    with pytest.raises(ValueError):
        bad()
