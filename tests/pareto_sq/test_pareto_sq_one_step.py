"""kernels.boolean.pareto_one_step: the Theorem C.11 algorithm (seed 004, App. C.2.2) against independent routes."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.boolean.cube import sign_vectors
from kernels.boolean.oversparse import C_ks, c_ks
from kernels.boolean.pareto_one_step import (
    OneStepInit,
    bias_values,
    expected_uncovered,
    hidden_features,
    one_step_weights,
    oversparse_init,
    readout_minimiser,
    readout_minimiser_ref,
    step_size,
)


def _cube(n):
    X = sign_vectors(n).astype(np.float64)
    return X, X[:, 0] * X[:, 1]


def _all_supports_init(n, s, k=2):
    supports = np.array(list(itertools.combinations(range(n), s)))
    W0 = np.zeros((len(supports), n))
    W0[np.arange(len(supports))[:, None], supports] = 1.0
    b = np.full(len(supports), float(bias_values(k)[0]))
    return OneStepInit(supports, W0, b, np.ones(len(supports)))


def test_population_step_is_lemma_c3_c4():
    """Step with the whole cube as sample: good rows eta u (C on S, c on supp \\ S); bad rows <= one entry 1/(2k)."""
    n, k, s = 10, 2, 5
    X, y = _cube(n)
    init = _all_supports_init(n, s)
    eta = float(step_size(k, s))
    W, b = one_step_weights(init, X, y, eta)
    half = len(init.supports)
    np.testing.assert_array_equal(W[half:], -W[:half])
    np.testing.assert_array_equal(b[half:], b[:half])
    C, c = float(C_ks(k, s)), float(c_ks(k, s))
    for j, row in enumerate(init.supports):
        expected = np.zeros(n)
        if 0 in row and 1 in row:
            expected[row] = eta * c
            expected[[0, 1]] = eta * C
        else:
            missing = [i for i in (0, 1) if i not in row]
            if len(missing) == 1:
                expected[missing[0]] = eta * C  # Lemma C.4: only the missing coordinate, value C
        np.testing.assert_allclose(W[j], expected, rtol=0, atol=1e-12)
        if not (0 in row and 1 in row):  # bad neurons are dead on the whole cube (proof of Lemma C.6)
            assert np.all(hidden_features(X, W[[j, j + half]], b[[j, j + half]]) == 0)


@pytest.mark.parametrize("r", [2, 4])
def test_expected_uncovered_matches_exhaustive_average(r):
    """E[U_r] closed form == average over ALL supports (r = 2) / ordered pairs (r = 4) of the executed step."""
    n, s = 10, 5
    X, y = _cube(n)
    init = _all_supports_init(n, s)
    W, b = one_step_weights(init, X, y, float(step_size(2, s)))
    act = hidden_features(X, W, b) > 0
    half = len(init.supports)
    uncovered = (~(act[:, :half] | act[:, half:])) & (y > 0)[:, None]  # (points, supports)
    if r == 2:
        exhaustive = float(uncovered.mean())
    else:
        nc = uncovered.astype(np.float64)
        exhaustive = float((nc.T @ nc).mean() / X.shape[0])
    assert expected_uncovered(n, s, r) == pytest.approx(exhaustive, rel=1e-12, abs=1e-15)


def test_expected_uncovered_decreases_to_floor():
    vals = [expected_uncovered(12, 9, r) for r in (2, 8, 32, 128, 4096)]
    assert all(a > b for a, b in itertools.pairwise(vals))
    # floor: s_x = ±2 and fewer than 4 of the 10 off-S coordinates are -1 (no good copy can fire)
    assert vals[-1] == pytest.approx(0.5 * sum(math.comb(10, a) for a in range(4)) / 2**10, rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(m=st.integers(2, 30), d=st.integers(1, 5), lam=st.sampled_from([1e-3, 1e-1, 1.0]), seed=st.integers(0, 10_000))
def test_readout_compiled_matches_reference(m, d, lam, seed):
    rng = np.random.default_rng(seed)
    F = np.maximum(rng.normal(size=(m, d)), 0.0)
    y = rng.choice([-1.0, 1.0], size=m)
    a = readout_minimiser(F, y, lam, max_epochs=30)
    b = readout_minimiser_ref(F, y, lam, max_epochs=30)
    np.testing.assert_array_equal(a.columns, b.columns)
    np.testing.assert_allclose(a.w, b.w, rtol=1e-9, atol=1e-12)
    assert a.gap >= -1e-9 and a.primal >= 0


def test_readout_gap_certifies_minimum():
    """A converged fit has duality gap <= tol, and no random perturbation lowers the objective by more."""
    rng = np.random.default_rng(7)
    F = np.maximum(rng.normal(size=(200, 6)), 0.0)
    y = np.sign(F[:, 0] - F[:, 1] + 0.1 * rng.normal(size=200))
    fit = readout_minimiser(F, y, 0.01, gap_tol=1e-8, max_epochs=20_000)
    assert fit.gap <= 1e-8
    F1 = np.hstack([np.ones((200, 1)), F[:, fit.columns]])

    def obj(w):
        return np.mean(np.maximum(0, 1 - y * (F1 @ w))) + 0.005 * w @ w

    base = obj(fit.w)
    assert base == pytest.approx(fit.primal, rel=1e-12)
    for _ in range(50):
        assert obj(fit.w + 0.01 * rng.normal(size=fit.w.size)) >= base - 1e-8


def test_oversparse_init_structure_and_reproducible():
    init = oversparse_init(14, 4, 9, 40, seed=3)
    assert init.supports.shape == (20, 9) and init.W0.shape == (20, 14)
    assert np.all(init.W0.sum(axis=1) == 9) and np.all(np.diff(init.supports, axis=1) > 0)
    assert set(init.b.tolist()) <= {float(v) for v in bias_values(4)}
    assert set(init.u.tolist()) <= {-1.0, 1.0}
    again = oversparse_init(14, 4, 9, 40, seed=3)
    np.testing.assert_array_equal(init.W0, again.W0)
    np.testing.assert_array_equal(init.b, again.b)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: oversparse_init(12, 2, 9, 5, 0), "r"),
        (lambda: oversparse_init(12, 2, 13, 4, 0), "s"),
        (lambda: bias_values(3), "k"),
        (lambda: one_step_weights(oversparse_init(12, 2, 9, 4, 0), np.ones((3, 12)), np.ones(3), -1.0), "eta"),
        (lambda: one_step_weights(oversparse_init(12, 2, 9, 4, 0), np.ones((3, 11)), np.ones(3), 1.0), "X"),
        (lambda: readout_minimiser(np.ones((3, 2)), np.array([1.0, 0.0, 1.0]), 0.1), "y"),
        (lambda: readout_minimiser(np.ones((3, 2)), np.ones(3), 0.0), "lam"),
    ],
)
def test_validation_names_argument(call, name):
    with pytest.raises(ValueError, match=f"argument '{name}'"):
        call()


def test_truncation_success_limits_and_reproducible():
    """Tiny m never isolates S minus S' (every |g_i| = 1 > gamma); m = 40/xi_rel^2 almost always does."""
    from kernels.boolean.oversparse import xi_rel
    from kernels.boolean.pareto_one_step import truncation_success_counts

    n, k, s = 13, 4, 2
    xr = float(abs(xi_rel(n, k, s)))
    ms = [1, 2, int(40 / xr**2)]
    a = truncation_success_counts(n, k, s, ms, 20, xr / 2, seed=5)
    assert a[0] == 0 and a[1] == 0 and a[2] >= 18
    np.testing.assert_array_equal(a, truncation_success_counts(n, k, s, ms, 20, xr / 2, seed=5))


@pytest.mark.parametrize(
    "kwargs, name",
    [({"ms": [4, 2]}, "ms"), ({"gamma": 0.0}, "gamma"), ({"s": 4}, "s"), ({"trials": 0}, "trials")],
)
def test_truncation_validation(kwargs, name):
    from kernels.boolean.pareto_one_step import truncation_success_counts

    args = {"n": 13, "k": 4, "s": 2, "ms": [2, 4], "trials": 2, "gamma": 0.1, "seed": 0} | kwargs
    with pytest.raises(ValueError, match=f"argument '{name}'"):
        truncation_success_counts(**args)


def test_truncation_success_counts_equal_running_sum_reference():
    """The block sums accumulated at the grid points equal the running sum of every row read at rows m - 1 (the
    formulation before the block sums; exact integers, so the counts agree bit for bit)."""
    from kernels.boolean.oversparse import undersparse_weights, xi_rel
    from kernels.boolean.pareto_one_step import truncation_success_counts

    def reference(n, k, s, ms, trials, gamma, seed):
        w = undersparse_weights(n, list(range(s))).astype(np.int64)
        target = np.zeros(n, dtype=bool)
        target[s:k] = True
        rng = np.random.default_rng(np.random.SeedSequence([seed, n, k, s]))
        counts = np.zeros(len(ms), dtype=np.int64)
        for _ in range(trials):
            X = (1 - 2 * rng.integers(0, 2, size=(ms[-1], n), dtype=np.int8)).astype(np.int32)
            y = np.prod(X[:, :k], axis=1)
            G = np.cumsum((y * (X @ w > 0))[:, None] * X, axis=0)[np.array(ms) - 1]
            counts += np.all((np.abs(G) > gamma * np.array(ms)[:, None]) == target, axis=1)
        return counts

    for n, k, s, ms, gamma_frac in ((13, 4, 2, [1, 2, 7, 30, 31, 200], 0.5), (19, 4, 2, [3, 50, 400], 0.3),
                                    (15, 6, 4, [1, 90], 0.7)):
        gamma = float(abs(xi_rel(n, k, s))) * gamma_frac
        np.testing.assert_array_equal(truncation_success_counts(n, k, s, ms, 9, gamma, 11),
                                      reference(n, k, s, ms, 9, gamma, 11))


def test_uncovered_positive_counts_equal_cube_sums():
    """verify.pareto_sq.one_step_training._uncovered_positive_counts (bit-packed, blocks of initialisations) equals
    the direct count #{x : y(x) > 0, no copy of an initialisation's neurons active at x} over the cube."""
    from verify.pareto_sq import one_step_training as OS

    X, y = OS._cube(OS.N)
    eta = float(step_size(OS.K, OS.S))
    for weight_decay in (1.0, 0.0):
        active, index = OS._population_activity(X, y, eta, weight_decay)
        half = active.shape[1] // 2
        for r in (4, 64, 1024):
            _, masks, _ = OS._inits_at_width(r, 7, 123)
            got = OS._uncovered_positive_counts(active, index, masks, y)
            cols = index[masks]
            want = [int(np.sum((y > 0) & ~np.any(active[:, c] | active[:, c + half], axis=1))) for c in cols]
            assert got.tolist() == want
