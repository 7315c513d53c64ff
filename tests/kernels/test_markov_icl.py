"""kernels.sequence.markov_icl: the ICL-MC sampler, strategies, T-tensor (K1), quadrature (K2), run classes (K3)
and the minimal model (K4) against brute-force references."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.sequence.markov_icl import (
    diag_nodes,
    enumerate_expectation,
    k2_exact_losses,
    k2_nodes,
    k2_run_classes,
    linear_coefficients,
    minimal_model_forward,
    minimal_model_forward_ref,
    random_rational_chain,
    sample_chains,
    sample_ngram_chains,
    sample_transition_matrices,
    stationary,
    stationary_exact,
    strategy_predictions,
    t_tensor,
)

SETTINGS = settings(max_examples=20, deadline=None, derandomize=True)


@SETTINGS
@given(st.integers(2, 3), st.integers(1, 4), st.integers(0, 10_000))
def test_t_tensor_matches_enumeration(k, t, seed):
    if k == 3 and t > 3:
        t = 3
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.full(k, 0.7), size=k)
    pi = stationary(P)
    enum = enumerate_expectation(P.tolist(), pi.tolist(), t, lambda x: linear_coefficients(x, k).astype(float))
    assert np.allclose(t_tensor(P, t), enum, atol=1e-14, rtol=0)


@SETTINGS
@given(st.integers(1, 5), st.integers(0, 10_000))
def test_t_tensor_exact_fractions(t, seed):
    P = np.array(random_rational_chain(np.random.default_rng(seed), 2), dtype=object)
    pi = np.array(stationary_exact(P.tolist()), dtype=object)
    T = t_tensor(P, t, pi)
    assert all(isinstance(v, Fraction) for v in T.ravel())
    enum = enumerate_expectation(P.tolist(), list(pi), t, lambda x: linear_coefficients(x, 2))
    assert (T == enum).all()


@SETTINGS
@given(st.integers(2, 40), st.floats(0.2, 5.0), st.integers(0, 10_000))
def test_stationary_is_invariant(k, alpha, seed):
    P = sample_transition_matrices(np.random.default_rng(seed), k, 3, alpha=alpha)
    pi = stationary(P)
    assert np.allclose(np.einsum("ni,nij->nj", pi, P), pi, atol=1e-12)
    assert (pi >= 0).all() and np.allclose(pi.sum(1), 1)


def test_stationary_exact_matches_float():
    P = random_rational_chain(np.random.default_rng(3), 4)
    assert np.allclose([float(v) for v in stationary_exact(P)], stationary(np.array(P, dtype=float)), atol=1e-14)


@pytest.mark.parametrize("t", [1, 2, 3, 6, 9])
def test_run_classes_match_brute_force(t):
    cl = k2_run_classes(t)
    got = Counter()
    for x1, xt, m, n0, c in zip(cl["x1"], cl["xt"], cl["mult"], cl["n0"], cl["c"]):
        got[(int(x1), int(xt), int(n0), tuple(c.ravel()))] += m
    want = Counter()
    for x in itertools.product((0, 1), repeat=t):
        c = np.zeros((2, 2), dtype=int)
        for a, b in itertools.pairwise(x):
            c[a, b] += 1
        want[(x[0], x[-1], x.count(0), tuple(c.ravel()))] += 1
    assert got == want and sum(cl["mult"]) == 2**t


def test_k2_nodes_integrate_polynomials_exactly():
    a, b, w = k2_nodes(12)
    assert np.isclose(w.sum(), 1, atol=1e-14)
    assert np.isclose(w @ (a * b**2), 1 / 6, atol=1e-13)
    x, wd = diag_nodes(5, 0.25, 0.75)
    assert np.isclose(wd @ x**3, (0.75**4 - 0.25**4) / 4 / 0.5, atol=1e-14)


def test_k2_exact_losses_total_probability_and_hierarchy():
    L = k2_exact_losses(8)
    assert abs(L["total"] - 1) < 1e-12
    assert L["uniform"] > L["unigram"] > L["bigram"] > L["bayes"] > 0


def _bigram_naive(x, k):
    last = x[-1]
    c = [0] * k
    for a, b in itertools.pairwise(x):
        if a == last:
            c[b] += 1
    return [(ci + 1) / (sum(c) + k) for ci in c]


@SETTINGS
@given(st.integers(2, 4), st.integers(1, 25), st.integers(0, 10_000))
def test_strategies_against_loops(k, t, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, k, size=(4, t))
    big = strategy_predictions(x, k, "bigram")
    assert np.allclose(big, [_bigram_naive(list(r), k) for r in x])
    assert np.allclose(strategy_predictions(x, k, "ngram", order=2), big)
    uni = strategy_predictions(x, k, "unigram")
    assert np.allclose(uni, [[(list(r).count(j) + 1) / (t + k) for j in range(k)] for r in x])
    if t >= 3:
        tri = strategy_predictions(x, k, "ngram", order=3)
        for r, q in zip(x, tri):
            r = list(r)
            c = [0] * k
            for s in range(2, t):
                if r[s - 2 : s] == r[-2:]:
                    c[r[s]] += 1
            assert np.allclose(q, [(ci + 1) / (sum(c) + k) for ci in c])


@SETTINGS
@given(st.integers(2, 4), st.integers(1, 12), st.integers(0, 10_000))
def test_minimal_model_matrix_form_equals_double_sum(k, t, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, k, size=t)
    W = rng.integers(-4, 5, size=(k, k))
    v = rng.integers(-4, 5, size=t)
    assert (minimal_model_forward(x[None], W, v, k)[0] == np.array(minimal_model_forward_ref(list(x), W.tolist(), v.tolist(), k))).all()


def test_sampler_shapes_and_reproducibility():
    P = sample_transition_matrices(np.random.default_rng(1), 3, 5)
    x1 = sample_chains(np.random.default_rng(2), P, 7)
    x2 = sample_chains(np.random.default_rng(2), P, 7)
    assert x1.shape == (5, 7) and (x1 == x2).all() and x1.max() < 3
    Q, x = sample_ngram_chains(np.random.default_rng(3), 2, 3, 6, 10)
    assert Q.shape == (6, 4, 2) and x.shape == (6, 10)
    for prior in ("iid", "doubly"):
        P = sample_transition_matrices(np.random.default_rng(4), 2, 3, prior=prior)
        assert np.allclose(P.sum(-1), 1)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: sample_transition_matrices(np.random.default_rng(0), 1, 3), "'k'"),
        (lambda: sample_transition_matrices(np.random.default_rng(0), 2, 3, alpha=-1.0), "'alpha'"),
        (lambda: sample_transition_matrices(np.random.default_rng(0), 6, 3, prior="doubly"), "'k'"),
        (lambda: sample_chains(np.random.default_rng(0), np.eye(2)[None], 0), "'length'"),
        (lambda: t_tensor(np.full((2, 2), 0.7), 3), "'P'"),
        (lambda: k2_nodes(1), "'n'"),
        (lambda: diag_nodes(3, 0.6, 0.4), "'lo', 'hi'"),
        (lambda: strategy_predictions(np.zeros((2, 3), dtype=int), 2, "trigram"), "'strategy'"),
        (lambda: enumerate_expectation([[1]], [1], 30, lambda x: 0), "'t'"),
    ],
)
def test_bad_arguments_are_named(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ---------------------------------------------------------------------------------------------
# the numba loops of _markov_icl_cpu and the in-place k2_exact_losses: bit for bit the numpy formulations
# ---------------------------------------------------------------------------------------------


def _sample_chains_numpy(rng, P, length):
    """sample_chains's former numpy loop (x_1 ~ pi(P); one rng.random(n) per step)."""
    from kernels.sequence.markov_icl import _categorical

    n, k = P.shape[0], P.shape[-1]
    x = np.empty((n, length), dtype=np.int64)
    x[:, 0] = _categorical(rng, stationary(P))
    idx = np.arange(n)
    cum = np.cumsum(P, axis=-1)
    for s in range(1, length):
        u = rng.random(n)
        x[:, s] = np.minimum((u[:, None] >= cum[idx, x[:, s - 1]]).sum(-1), k - 1)
    return x


@pytest.mark.parametrize("k,n,length,prior", [(2, 500, 20, "dirichlet"), (3, 200, 31, "doubly"), (5, 50, 1, "iid"), (40, 30, 9, "dirichlet")])
def test_sample_chains_equals_the_numpy_loop(k, n, length, prior):
    r1, r2 = np.random.default_rng(k + n), np.random.default_rng(k + n)
    P = sample_transition_matrices(r1, k, n, prior=prior)
    assert np.array_equal(P, sample_transition_matrices(r2, k, n, prior=prior))
    assert np.array_equal(sample_chains(r1, P, length), _sample_chains_numpy(r2, P, length))
    assert r1.random() == r2.random()  # the same number of draws
    r1, r2 = np.random.default_rng(1), np.random.default_rng(1)
    assert np.array_equal(sample_chains(r1, P, length, pi=stationary(P)), sample_chains(r2, P, length))  # the caller's pi


@pytest.mark.parametrize("n,k", [(1, 32), (20, 40), (7, 100)])
def test_vec_mat_and_large_k_stationary_equal_einsum(n, k):
    from kernels.sequence._markov_icl_cpu import vec_mat

    rng = np.random.default_rng(n * k)
    P = rng.dirichlet(np.ones(k), size=(n, k))
    pi = np.full((n, k), 1.0 / k)
    for _ in range(5):
        new = np.einsum("...i,...ij->...j", pi, P)
        assert np.array_equal(vec_mat(pi, P), new)
        pi = new
    # the power iteration of stationary(), written with np.einsum
    pi = np.full((n, k), 1.0 / k)
    for _ in range(2000):
        new = np.einsum("...i,...ij->...j", pi, P)
        done = np.abs(new - pi).max() <= 1e-15
        pi = new
        if done:
            break
    assert np.array_equal(stationary(P), pi / pi.sum(-1, keepdims=True))


def test_k2_exact_losses_pinned_values():
    """The values of the former out-of-place weights (exp(logmult + feats @ L + logpi) * w), bit for bit."""
    assert k2_exact_losses(12) == {"total": 1.0, "stationary": 0.08293808908390822, "uniform": 0.2122578964952374,
                                   "unigram": 0.10683730024529026, "bigram": 0.057472819621123605,
                                   "bayes": 0.055051144503304505}
