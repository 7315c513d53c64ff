"""Unit tests of the helpers and kernels behind E2, E3, E19, E31, E35 (thesis_ch4)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.sequence.attention import (
    attention_block,
    categorical_selector,
    memorisation_net,
    parity_elimination_counts,
    project_unit_ball,
)
from verify.variable_creation.block_perturbation import ACTS, block_bound
from verify.variable_creation.categorical import memorisation_nonzeros
from verify.variable_creation.generalization import (
    character_matrix,
    dudley_explicit,
    parity_class_draws,
    rademacher_interval_class,
    rademacher_linear_exhaustive,
)
from verify.variable_creation.parity_training import (
    best_ltf_agreement,
    is_threshold_function,
)


def test_character_matrix_is_hadamard():
    H = character_matrix(4)
    assert np.array_equal(H @ H.T, 16 * np.eye(16))
    x = np.arange(16)
    assert np.all(H[0b0101] == (-1.0) ** (((x >> 0) & 1) + ((x >> 2) & 1)))


def test_parity_draws_match_direct_sampling_statistics():
    # the sufficient-statistics sampler: E[dev] and E[R^] agree with a direct per-sample simulation
    rng = np.random.default_rng(3)
    n, m, eta, target = 4, 200, 0.1, 0b11
    dev, rmean, _ = parity_class_draws(rng, n, m, eta, target, 400, 8)
    H = character_matrix(n)
    devs, rads = [], []
    for _ in range(400):
        x = rng.integers(0, 16, size=m)
        y = H[target, x] * np.where(rng.random(m) < eta, -1, 1)
        corr = H[:, x] @ y / m
        rho = np.zeros(16)
        rho[target] = 1 - 2 * eta
        devs.append(np.abs(corr - rho).max() / 2)
        sig = rng.choice([-1.0, 1.0], size=(8, m))
        rads.append((sig @ H[:, x].T).max(axis=1).mean() / m)
    assert abs(dev.mean() - np.mean(devs)) < 4 * np.std(devs) / math.sqrt(400) * math.sqrt(2)
    assert abs(rmean.mean() - np.mean(rads)) < 4 * np.std(rads) / math.sqrt(400) * math.sqrt(2)


@given(st.integers(1, 10))
def test_interval_class_rademacher_exact(half):
    m = 2 * half
    signs = np.array(list(product((-1, 1), repeat=m)))
    direct = Fraction(int(np.abs(signs.sum(axis=1)).sum()), m * 2**m)
    assert rademacher_interval_class(m) == direct


def test_linear_exhaustive_one_dimensional_matches_closed_form():
    X = np.ones((8, 1))
    assert math.isclose(rademacher_linear_exhaustive(X, 2.0), 2.0 * float(rademacher_interval_class(8)), rel_tol=1e-12)
    with pytest.raises(ValueError, match="'X'"):
        rademacher_linear_exhaustive(np.ones((21, 1)), 1.0)


@given(st.floats(0.1, 10), st.floats(0.01, 100), st.integers(1, 10**4))
def test_dudley_explicit_is_the_minimum(A, C, m):
    vals = [4 * d + 12 * math.sqrt(C / m) * math.log(A / d) for d in np.linspace(A * 1e-4, A, 20001)]
    assert dudley_explicit(C, m, A) <= min(vals) + 1e-9 * max(1.0, abs(min(vals)))
    assert dudley_explicit(C, m, A) >= min(vals) - 1e-3 * max(1.0, abs(min(vals)))


@settings(max_examples=40)
@given(st.integers(2, 8), st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**31 - 1))
def test_block_bound_holds_on_random_blocks(T, d, k, seed):
    rng = np.random.default_rng(seed)
    W = [rng.normal(size=(d, k)), rng.normal(size=(d, k)), rng.normal(size=(d, k)), rng.normal(size=(k, d))]
    Wh = [M + 0.1 * rng.normal(size=M.shape) for M in W]
    G = project_unit_ball(rng.normal(size=(T, d)))
    Gh = project_unit_ball(G + 0.1 * rng.normal(size=(T, d)))
    for act in ACTS.values():
        lhs = np.linalg.norm(attention_block(G, *W, sigma=act) - attention_block(Gh, *Wh, sigma=act), axis=1).max()
        assert lhs <= block_bound(G, Gh, W, Wh, act) * (1 + 1e-9) + 1e-15


def test_attention_block_validates_and_normalises():
    G = np.eye(3)
    W = [np.eye(3)] * 4
    out = attention_block(G, *W)
    assert np.all(np.linalg.norm(out, axis=1) <= 1 + 1e-12)
    sph = attention_block(G, *W, normalise="sphere")
    assert np.allclose(np.linalg.norm(sph, axis=1), 1.0)
    with pytest.raises(ValueError, match="'normalise'"):
        attention_block(G, *W, normalise="cube")
    with pytest.raises(ValueError, match="'G'"):
        attention_block(np.ones(3), *W)


@settings(max_examples=25)
@given(st.integers(2, 5), st.integers(1, 3), st.integers(4, 40), st.integers(0, 2**31 - 1))
def test_categorical_selector_error_and_memorisation(M, s, T, seed):
    rng = np.random.default_rng(seed)
    if s > T:
        return
    I = sorted(rng.choice(T, size=s, replace=False).tolist())
    delta = 1 / (4 * (M - 1))
    heads = categorical_selector(T, M, I, 4 * delta)
    pats = np.array(list(product(range(M), repeat=s)))
    f = rng.uniform(-1, 1, size=len(pats))
    net = memorisation_net(pats / (M - 1), f, delta)
    for q in rng.choice(len(pats), size=min(6, len(pats)), replace=False):
        b = rng.integers(0, M, size=T)
        b[I] = pats[q]
        y = heads(b)
        assert np.abs(y - pats[q] / (M - 1)).max() <= delta / 2
        assert abs(net(y)[0] - f[q]) <= 1e-9
    nnz = np.count_nonzero(net.W1) + np.count_nonzero(net.W2) + np.count_nonzero(net.w)
    assert nnz == memorisation_nonzeros(len(pats), s)


def test_categorical_selector_validates():
    with pytest.raises(ValueError, match="'M'"):
        categorical_selector(8, 1, [0], 0.5)
    with pytest.raises(ValueError, match="'I'"):
        categorical_selector(8, 3, [9], 0.5)


@settings(max_examples=40)
@given(st.integers(3, 8), st.integers(0, 16), st.integers(0, 2**31 - 1))
def test_parity_elimination_matches_brute_force(T, m, seed):
    X = np.random.default_rng(seed).integers(0, 2, size=(m, T))
    truth = [0, 1, 2]
    y = X[:, truth].sum(axis=1) % 2
    ref = m + 1
    for mm in range(m + 1):
        cons = [J for J in combinations(range(T), 3) if np.all(X[:mm, list(J)].sum(axis=1) % 2 == y[:mm])]
        if len(cons) == 1:
            ref = mm
            break
    assert parity_elimination_counts(X, truth, 3) == ref


def test_ltf_helpers():
    pts = np.array(list(product((0, 1), repeat=2)), dtype=float)
    assert is_threshold_function(pts, np.array([-1.0, -1.0, -1.0, 1.0]))  # AND
    assert not is_threshold_function(pts, np.array([-1.0, 1.0, 1.0, -1.0]))  # XOR
    assert best_ltf_agreement(2) == (3, 4)
    assert best_ltf_agreement(3) == (6, 8)
