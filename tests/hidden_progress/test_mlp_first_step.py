"""Property tests of the helpers behind verify/hidden_progress/mlp_first_step*.py and kernels/boolean/mlp_cube.py."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.boolean.mlp_cube import mlp_hinge_gradient, mlp_hinge_gradient_ref
from verify.hidden_progress import mlp_first_step as M
from verify.hidden_progress import mlp_first_step_claim4 as C4
from verify.hidden_progress import mlp_first_step_claim5_loss as C5
from verify.hidden_progress import mlp_first_step_lemma_b5 as B5

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


@st.composite
def networks(draw, max_n: int = 7, max_r: int = 4):
    n = draw(st.integers(1, max_n))
    r = draw(st.integers(1, max_r))
    W = np.array(draw(st.lists(st.integers(-2, 2), min_size=r * n, max_size=r * n)), dtype=np.int64).reshape(r, n)
    b = np.array(draw(st.lists(st.integers(-6, 6), min_size=r, max_size=r)), dtype=np.int64)
    u = np.array(draw(st.lists(st.integers(-3, 3), min_size=r, max_size=r)), dtype=np.int64)
    S = draw(st.integers(0, (1 << n) - 1))
    denom = draw(st.integers(1, 4))
    return W, b, u, S, denom


def _brute_force(W, b, u, S, denom):
    """E_x[-y 1[y f < 1] u_i 1[w_i.x + b_i > 0] x_j] by a direct numpy sum in Fractions-free floats."""
    r, n = W.shape
    X = np.array(list(itertools.product([1, -1], repeat=n)))[:, ::-1]  # any order: sums are order-free
    y = np.prod(np.where((S >> np.arange(n)) & 1, X, 1), axis=1)
    pre = denom * X @ W.T + b[None, :]
    fD = np.maximum(pre, 0) @ u
    d = np.where(y * fD < denom, -y, 0)
    T = (pre > 0) * d[:, None] * u[None, :]
    return (T.T @ X), T.sum(axis=0)


@SETTINGS
@given(networks())
def test_hinge_gradient_matches_loop_and_numpy_sum(net):
    W, b, u, S, denom = net
    fast = mlp_hinge_gradient(W, b, u, S, denom=denom)
    assert fast == mlp_hinge_gradient_ref(W, b, u, S, denom=denom)
    G, gam = _brute_force(W, b, u, S, denom)
    assert [list(row) for row in fast.G] == G.tolist()
    assert list(fast.gamma) == gam.tolist()


@SETTINGS
@given(networks(max_n=9, max_r=3))
def test_hinge_gradient_blocking_is_invisible(net):
    import kernels.boolean.mlp_cube as mc

    W, b, u, S, denom = net
    whole = mlp_hinge_gradient(W, b, u, S, denom=denom)
    old = mc._BLOCK_BITS
    try:
        mc._BLOCK_BITS = 2
        assert mlp_hinge_gradient(W, b, u, S, denom=denom) == whole
    finally:
        mc._BLOCK_BITS = old


def test_hinge_gradient_validates_arguments():
    with pytest.raises(ValueError, match="argument 'W'"):
        mlp_hinge_gradient(np.zeros((2, 3)), [0, 0], [1, 1], 0)
    with pytest.raises(ValueError, match="argument 'u'"):
        mlp_hinge_gradient(np.zeros((2, 3), dtype=int), [0, 0], [1], 0)
    with pytest.raises(ValueError, match="argument 'denom'"):
        mlp_hinge_gradient(np.zeros((2, 3), dtype=int), [0, 0], [1, 1], 0, denom=0)
    with pytest.raises(ValueError, match="argument 'S'"):
        mlp_hinge_gradient(np.zeros((2, 3), dtype=int), [0, 0], [1, 1], 8)


@SETTINGS
@given(st.integers(3, 9).filter(lambda n: n % 2 == 1), st.sampled_from([2, 4]), st.integers(0, 2**32 - 1))
def test_paired_init_gradient_is_lemma_b3(n, k, seed):
    if n <= k:
        return
    W, b, u = M._paired_init(np.random.default_rng(seed), n, k, 3)
    G, gam, hg = M._exact_gradients(W, b, u, n, k)
    assert hg.max_abs_output == 0
    assert (G, gam) == M._lemma_b3(W, u, n, k)


@SETTINGS
@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 2**32 - 1))
def test_solve_exact_agrees_with_numpy(rows, cols, seed):
    rng = np.random.default_rng(seed)
    A = rng.integers(-2, 3, size=(rows, cols))
    y = rng.integers(-2, 3, size=rows)
    ra, raug, sol = C5._solve_exact([[Fraction(int(v)) for v in row] for row in A], [Fraction(int(v)) for v in y])
    assert ra == np.linalg.matrix_rank(A)
    assert raug == np.linalg.matrix_rank(np.column_stack([A, y]))
    if sol is not None:
        assert all(sum(a * s for a, s in zip(row, sol)) == v for row, v in zip(A.tolist(), y.tolist()))


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.sampled_from([2, 4, 6, 8]), st.data())
def test_k_aligned_relus_never_alternate(k, data):
    """E13's theorem: k neurons u_i ReLU(t + b_i) cannot have y_m F(t_m) > 0 at all k+1 grid points."""
    b = data.draw(st.lists(st.floats(-3, 3), min_size=k, max_size=k))
    u = data.draw(st.lists(st.floats(-50, 50), min_size=k, max_size=k))
    t = np.array([-0.5 + m / k for m in range(k + 1)])
    F = np.maximum(t[:, None] + np.array(b)[None, :], 0) @ np.array(u)
    y = np.array([(-1) ** m for m in range(k + 1)])
    assert np.min(y * F) <= 1e-9


def test_corrected_claim5_construction_is_exact():
    for k in range(2, 41, 2):
        neurons = C5._corrected_neurons(k)
        u = C5._printed_ustar(k) + [Fraction(2 * k)]
        for s, target in C5._grid(k):
            assert sum(ui * C5._feature(d, bb, s, k) for ui, (d, bb) in zip(u, neurons)) == target
        assert max(abs(v) for v in u) == (8 * k if k >= 4 else 6 * k)
        assert sum(abs(v) for v in u) == 8 * k * k - 6 * k
        assert sum(v * v for v in u) <= 64 * k**3  # ||u||_2 <= 8k sqrt(k), as Lemma B.5 needs


@SETTINGS
@given(st.sampled_from([2, 4]), st.integers(2, 8), st.integers(1, 5))
def test_cover_probability_by_enumeration(k, r, _):
    r += r % 2
    pv = B5._pair_good_probability(k)
    assert pv == Fraction(2, 2**k * (2 * k - 1))
    # each pair: one of k "good with value v" outcomes (prob pv each) or none (1 - k pv)
    outcomes = list(range(k)) + [None]
    probs = [pv] * k + [1 - k * pv]
    total = Fraction(0)
    for combo in itertools.product(range(k + 1), repeat=r // 2):
        if {outcomes[c] for c in combo} >= set(range(k)):
            p = Fraction(1)
            for c in combo:
                p *= probs[c]
            total += p
    assert B5._cover_probability(k, r, pv) == total


@SETTINGS
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=8))
def test_signed_sums_enumerate_all_signs(a):
    got = sorted(C4._signed_sums(a).tolist())
    want = sorted(sum(s * v for s, v in zip(signs, a)) for signs in itertools.product([1, -1], repeat=len(a)))
    assert got == want


@settings(max_examples=15, deadline=None, derandomize=True)
@given(st.sampled_from([(9, 2), (11, 2), (9, 4)]), st.floats(0.05, 0.6), st.floats(0.0, 0.05), st.sampled_from([-0.5, 0.0, 0.5]))
def test_claim4_probability_against_enumeration(nk, delta, eta_tau, b):
    """The binomial-tail evaluation equals a brute-force sum over the cube (max over corners)."""
    n, k = nk
    a = (k - 1) / (2 * k * (n - k))
    irr = a + eta_tau
    up, lo = C4._claim4_probability(n, k, delta, eta_tau, b, irr)
    X = np.array(list(itertools.product([-1, 1], repeat=n)), dtype=float)
    z = X[:, :k].sum(axis=1) / (2 * k) + b
    best = 0.0
    for c in itertools.product([-1, 1], repeat=k + 1):
        zh = z + eta_tau * (X[:, :k] @ np.array(c[:k], dtype=float) + c[k]) + irr * X[:, k:].sum(axis=1)
        best = max(best, float(np.mean(np.abs(np.maximum(zh, 0) - np.maximum(z, 0)) >= delta)))
    assert lo - 1e-12 <= best <= up + 1e-12


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.sampled_from([(11, 2), (13, 4)]), st.integers(0, 2**32 - 1))
def test_binned_lp_lower_bound_is_below_every_loss(nk, seed):
    n, k = nk
    sup = C5._Support(k, n)
    neurons = C5._corrected_neurons(k)
    F = sup.features(neurons)
    U = 8.0 * k
    lb, val, _ = C5._binned_lp_lower_bound(sup, F, U, nbins=3)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        u = rng.uniform(-U, U, size=len(neurons))
        assert lb <= C5._loss_upper(sup, neurons, u) + 1e-12


def _loss_upper_corner_ref(sup, neurons, u, eta_tau, corner):
    """The corner upper bound of Lemma B.4's check as first written: one readout, one corner, every pattern
    formed on its own (the oracle of _loss_upper_corners' shared features and shared loss terms)."""
    k = sup.k
    u = np.asarray(u, dtype=np.float64)
    X = np.array(list(itertools.product([-1, 1], repeat=k)), dtype=np.float64)
    central = 0.0
    D = np.array([float(d) for d, _ in neurons])
    Bv = np.array([float(b) for _, b in neurons])
    shifted = (sup.a + eta_tau) * sup.R
    E = eta_tau * (corner[:, :k] @ X.T + corner[:, k:k + 1])
    for j, x in enumerate(X):
        t = x.sum() / (2 * k)
        y = float(np.prod(x))
        pre = (D * (t + shifted)[:, None] + Bv) + E[:, j]
        loss = np.maximum(1 - y * (np.maximum(pre, 0.0) @ u), 0.0)
        central += float((sup.pmf * loss).sum()) / 2**k
    fmax = 0.5 + k * eta_tau + (sup.a + eta_tau) * sup.m + max(abs(float(b)) for _, b in neurons) + eta_tau
    return central + sup.tail * (1 + np.abs(u).sum() * fmax)


@pytest.mark.parametrize("n, k", [(51, 2), (1001, 4)])
def test_loss_upper_corners_bit_identical_to_one_call_per_corner(n, k):
    sup = C5._Support(k, n)
    rng = np.random.default_rng(7)
    for neurons in (C5._corrected_neurons(k), C5._aligned(k, 1)):
        r = len(neurons)
        usign = np.where(rng.random(r) < 0.5, -1.0, 1.0)
        corners = [np.ones((r, k + 1)), -np.ones((r, k + 1)), np.repeat(usign[:, None], k + 1, axis=1),
                   rng.choice(np.array([-1.0, 1.0]), size=(r, k + 1))]
        us = [rng.uniform(-8 * k, 8 * k, size=r), rng.uniform(-1, 1, size=r)]
        eta_tau = 1e-3
        got = C5._loss_upper_corners(sup, neurons, us, eta_tau, corners)
        for c, row in zip(corners, got):
            for u, v in zip(us, row):
                assert v == _loss_upper_corner_ref(sup, neurons, u, eta_tau, c)
                assert v == C5._loss_upper(sup, neurons, u, eta_tau, c)


def test_binned_lp_data_is_shared_by_key():
    sup = C5._Support(4, 1001)
    F = sup.features(C5._corrected_neurons(4))
    fresh = C5._binned_lp_lower_bound(sup, F, 32.0, nbins=7)
    key = ("test-binned-key", 4, 1001)
    a = C5._binned_lp_lower_bound(sup, F, 32.0, nbins=7, key=key)
    b = C5._binned_lp_lower_bound(sup, F, 16.0, nbins=7, key=key)
    assert a[0] == fresh[0] and a[1] == fresh[1] and np.array_equal(a[2], fresh[2])
    assert b[0] == C5._binned_lp_lower_bound(sup, F, 16.0, nbins=7)[0]
    assert (key, 7) in C5._B4_BINNED


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (999, 5), (300, 721)])
def test_skip_choice_draw_advances_like_choice(shape):
    """_cover_monte_carlo replaces the unused rng.choice(np.array([-1, 1]), size) by the bare index draw: the
    generator must end in the same state (the later draws, hence the estimate, unchanged)."""
    a, b = np.random.default_rng(12345), np.random.default_rng(12345)
    a.integers(0, 7, size=5)
    b.integers(0, 7, size=5)
    a.choice(np.array([-1, 1]), size=shape)
    B5._skip_choice_draw(b, shape)
    assert a.bit_generator.state == b.bit_generator.state
    assert a.integers(0, 1 << 40, size=4).tolist() == b.integers(0, 1 << 40, size=4).tolist()
