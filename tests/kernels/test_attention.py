"""Tests of kernels.sequence.attention (heads, bounds, constructions) and kernels.training.attention (trainer)."""

from __future__ import annotations

import math
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.sequence import attention as A
from kernels.training import attention as TA

# ---------------------------------------------------------------------------------------------
# heads
# ---------------------------------------------------------------------------------------------


@given(st.integers(1, 40), st.integers(0, 2**31 - 1))
def test_softmax_sums_to_one_and_handles_minus_inf(T, seed):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=T) * 50
    if T > 1:
        z[rng.random(T) < 0.3] = -np.inf
        z[0] = 0.0
    p = A.softmax(z)
    assert abs(p.sum() - 1) < 1e-12
    assert np.all(p[np.isneginf(z)] == 0)


def test_softmax_rejects_all_minus_inf():
    with pytest.raises(ValueError, match="'z'"):
        A.softmax(np.array([-np.inf, -np.inf]))


@given(st.integers(1, 12), st.integers(1, 6), st.integers(0, 2**31 - 1))
def test_head_is_permutation_invariant_and_average_head(T, d, seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(T, d))
    W_V, W_QK, x_tau = rng.normal(size=(d, 3)), rng.normal(size=(d, d)), rng.normal(size=d)
    perm = rng.permutation(T)
    assert np.allclose(A.head_forward(X, W_V, W_QK, x_tau), A.head_forward(X[perm], W_V, W_QK, x_tau), atol=1e-12)
    assert np.allclose(A.head_forward(X, W_V, np.zeros((d, d)), x_tau), X.mean(axis=0) @ W_V, atol=1e-12)


@given(st.integers(2, 10), st.integers(1, 5), st.integers(0, 2**31 - 1))
def test_self_attention_is_permutation_equivariant(T, d, seed):
    rng = np.random.default_rng(seed)
    Z = rng.normal(size=(T, d))
    W = [rng.normal(size=(d, d)) for _ in range(3)]
    perm = rng.permutation(T)
    assert np.allclose(A.self_attention(Z[perm], *W), A.self_attention(Z, *W)[perm], atol=1e-10)


def test_project_unit_ball():
    U = np.array([[3.0, 4.0], [0.3, 0.4]])
    assert np.allclose(A.project_unit_ball(U), [[0.6, 0.8], [0.3, 0.4]])


# ---------------------------------------------------------------------------------------------
# bounds and packings
# ---------------------------------------------------------------------------------------------


def test_bound_functions_validate_and_grow_with_N():
    assert A.zhang_log_cover(1, 1, 0.1, 100) < A.zhang_log_cover(1, 1, 0.1, 1000)
    assert A.lemma410_log_cover(1, 1, 0.1, 3, 100) < A.lemma410_log_cover(1, 1, 0.1, 3, 1000)
    with pytest.raises(ValueError, match="'eps'"):
        A.zhang_log_cover(1, 1, 0.0, 10)
    with pytest.raises(ValueError, match="'N'"):
        A.lemma410_log_cover(1, 1, 0.1, 3, 0)


@given(st.lists(st.floats(0.01, 100), min_size=1, max_size=5), st.integers(0, 2**31 - 1))
def test_lemma_a8_closed_form_is_feasible_and_not_beaten(alphas, seed):
    rng = np.random.default_rng(seed)
    a = np.array(alphas)
    b = rng.uniform(0.1, 10, size=a.size)
    val, x = A.lemma_a8_optimum(a, b, 2.0)
    assert abs(b @ x - 2.0) < 1e-9
    assert abs(np.sum(a / x**2) - val) <= 1e-9 * val
    for _ in range(20):
        y = rng.dirichlet(np.ones(a.size))
        xr = 2.0 * y / b
        assert np.sum(a / xr**2) >= val * (1 - 1e-12)


@given(st.integers(2, 30), st.integers(1, 6), st.floats(0.05, 2), st.integers(0, 2**31 - 1))
def test_greedy_packing_is_separated_and_monotone(K, m, eps, seed):
    rng = np.random.default_rng(seed)
    F = rng.normal(size=(K, m))
    kept = A.greedy_packing(F, 2 * eps)
    for i, j in combinations(kept, 2):
        assert np.max(np.abs(F[i] - F[j])) > 2 * eps
    # maximality: every function is within 2 eps of a kept one
    for i in range(K):
        assert min(np.max(np.abs(F[i] - F[j])) for j in kept) <= 2 * eps
    assert len(A.greedy_packing(F, 4 * eps)) <= K


# ---------------------------------------------------------------------------------------------
# Prop 4.8
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("T", [2, 4, 8, 64])
def test_shattering_realises_all_patterns(T):
    f, a = A.shattering_outputs(T)
    patterns = {tuple(row) for row in (f > 0.5)}
    assert len(patterns) == T == 2 ** (T.bit_length() - 1)
    assert a.min() > 0.6148


def test_shattering_rotation_invariance():
    T = 16
    X = A.shattering_inputs(T)
    th = 0.7
    Rm = np.array([[math.cos(th), -math.sin(th), 0], [math.sin(th), math.cos(th), 0], [0, 0, 1]])
    w = np.array([T**2, 0.0, 0.0])
    for i in range(X.shape[0]):
        f1 = A.softmax(X[i] @ w) @ X[i, :, 2]
        f2 = A.softmax((X[i] @ Rm.T) @ (Rm @ w)) @ X[i, :, 2]
        assert abs(f1 - f2) < 1e-9


def test_shattering_rejects_non_power_of_two():
    with pytest.raises(ValueError, match="'T'"):
        A.shattering_inputs(12)


# ---------------------------------------------------------------------------------------------
# selector heads
# ---------------------------------------------------------------------------------------------


@given(st.integers(4, 9), st.integers(1, 3), st.sampled_from([1.0, 0.5, 0.1]), st.integers(0, 2**31 - 1))
def test_det_p_and_trainable_p_heads_meet_gamma_over_4(T, s, gamma, seed):
    rng = np.random.default_rng(seed)
    I = sorted(rng.choice(T, size=min(s, T - 1), replace=False).tolist())
    for head in (A.selector_head_det_p(T, I, gamma), A.selector_head_trainable_p(T, I, gamma)):
        err = max(abs(head(np.array(b)) - head.target(np.array(b))) for b in product((0, 1), repeat=T))
        assert err <= gamma / 4
        a = head.attention(np.zeros(T, dtype=np.int64))
        assert abs(a.sum() - 1) < 1e-12


@given(st.integers(5, 30), st.integers(2, 3), st.integers(0, 2**31 - 1))
def test_bag_head_depends_on_relevant_bits_only(T, s, seed):
    rng = np.random.default_rng(seed)
    I = sorted(rng.choice(T, size=s, replace=False).tolist())
    head = A.selector_head_bag(T, I, 0.5)
    for pat in product((0, 1), repeat=s):
        b1, b2 = rng.integers(0, 2, size=T), rng.integers(0, 2, size=T)
        b1[I] = pat
        b2[I] = pat
        assert abs(head(b1) - head(b2)) < 1e-12
        assert abs(head(b1) - head.target(b1)) <= 0.5 / 4


def test_selector_validation():
    with pytest.raises(ValueError, match="'I'"):
        A.selector_head_det_p(5, [7], 0.5)
    with pytest.raises(ValueError, match="'gamma'"):
        A.selector_head_trainable_p(5, [1], 1.5)


# ---------------------------------------------------------------------------------------------
# Lemma A.25 network
# ---------------------------------------------------------------------------------------------


@given(st.integers(1, 3), st.integers(2, 8), st.sampled_from([0.1, 0.25, 1.0]), st.integers(0, 2**31 - 1))
def test_memorisation_net_corrected_is_exact_on_delta_boxes(df, n, delta, seed):
    rng = np.random.default_rng(seed)
    n = min(n, 7**df)
    pts = set()
    while len(pts) < n:
        pts.add(tuple(rng.integers(-3, 4, size=df).tolist()))
    X = 4 * delta * np.array(sorted(pts), dtype=float)
    f = rng.uniform(-2, 2, size=n)
    net = A.memorisation_net(X, f, delta)
    Z = X + rng.uniform(-delta, delta, size=X.shape)
    assert np.allclose(net(Z), f, atol=1e-9)
    assert net.W1.shape == (df + 1, 4 * n * df) and net.W2.shape == (4 * n * df + 1, 2 * n)


def test_memorisation_net_printed_bump_is_a_step():
    X = np.array([[0.0], [1.0]])
    net = A.memorisation_net(X, [1.0, 2.0], 0.25, bump="printed")
    # the printed "bump" is a step: 0 at its own centre, 1 far above it (so x = 1 reports f(x_0) = 1)
    assert np.allclose(net(X), [0.0, 1.0])


def test_memorisation_net_validation():
    with pytest.raises(ValueError, match="'bump'"):
        A.memorisation_net(np.zeros((1, 1)), [1.0], 0.1, bump="other")
    with pytest.raises(ValueError, match="'delta'"):
        A.memorisation_net(np.zeros((1, 1)), [1.0], -0.1)


# ---------------------------------------------------------------------------------------------
# identifiability
# ---------------------------------------------------------------------------------------------


def _brute_count(X, y, s):
    return sum(np.array_equal(X[:, list(J)].all(axis=1), y) for J in combinations(range(X.shape[1]), s))


@given(st.integers(3, 12), st.integers(0, 25), st.integers(0, 2**31 - 1))
def test_conjunction_counts_match_brute_force(T, m, seed):
    rng = np.random.default_rng(seed)
    X = rng.random((m, T)) < 0.79
    y = X[:, :3].all(axis=1)
    n = A.conjunction_identifiable(X, y, 3)
    assert n == _brute_count(X, y, 3) and n >= 1
    assert A.conjunction_unique(X, y, range(3)) == (n == 1)


# ---------------------------------------------------------------------------------------------
# trainer
# ---------------------------------------------------------------------------------------------


def _data(T, m, seed):
    rng = np.random.default_rng(seed)
    B = rng.integers(0, 2, size=(m, T))
    y = np.where(B[:, :2].all(axis=1), 1.0, -1.0)
    return B, y


@pytest.mark.parametrize("T,d,k", [(3, 2, 2), (6, 4, 3)])
def test_backward_matches_finite_differences(T, d, k):
    shp = TA.make_shapes(T, d, k)
    theta = TA.init_params(T, d, k, [5], init_scale=0.5)[0]
    B, y = _data(T, 7, 1)
    _, g = TA.loss_and_grad_reference(theta, shp, B, y)
    h = 1e-6
    fd = np.empty_like(theta)
    for i in range(theta.size):
        e = np.zeros_like(theta)
        e[i] = h
        fd[i] = (TA.loss_and_grad_reference(theta + e, shp, B, y)[0] - TA.loss_and_grad_reference(theta - e, shp, B, y)[0]) / (2 * h)
    # central differences: truncation O(h^2 |f'''|) + rounding O(eps/h) ~ 1e-10
    assert np.max(np.abs(fd - g)) < 1e-7


def test_numba_kernel_matches_reference():
    T, d, k = 5, 4, 3
    shp = TA.make_shapes(T, d, k)
    B, y = _data(T, 11, 2)
    theta0 = TA.init_params(T, d, k, [1, 2], init_scale=0.3)
    L1, g1 = TA.loss_and_grad_reference(theta0[0], shp, B, y)
    L2, g2 = TA.loss_and_grad_numba(theta0[0], shp, B, y)
    assert abs(L1 - L2) < 1e-12 and np.max(np.abs(g1 - g2)) < 1e-12
    a, la = TA.train_reference(theta0, shp, B, y, 15, lr=1e-2, weight_decay=1e-4)
    b, lb = TA.train_attention(theta0, shp, B, y, 15, lr=1e-2, weight_decay=1e-4)
    assert np.max(np.abs(a - b)) < 1e-10 and np.max(np.abs(la - lb)) < 1e-10


def _grad_one_per_sample(theta, T, d, k, B, y):
    """The kernel's per-sample loops before its tables (plain Python floats: the same IEEE operations in the same
    order, no contraction): every row, key and score recomputed for every sample."""
    m = B.shape[0]
    oE, oP = 0, 3 * d
    oQ = oP + (T + 1) * d
    oK = oQ + d * k
    oV = oK + d * k
    oU = oV + d * k
    oC = oU + k
    rs = 1.0 / math.sqrt(k)
    th = [float(v) for v in theta]
    grad = [0.0] * len(th)
    loss = 0.0
    for i in range(m):
        X = [[th[oE + int(B[i, t]) * d + j] + th[oP + t * d + j] for j in range(d)] for t in range(T)]
        X.append([th[oE + 2 * d + j] + th[oP + T * d + j] for j in range(d)])
        q = []
        for c in range(k):
            acc = 0.0
            for j in range(d):
                acc += X[T][j] * th[oQ + j * k + c]
            q.append(acc)
        Kt, a = [], []
        smax = -1e300
        for t in range(T + 1):
            st_, row = 0.0, []
            for c in range(k):
                acc = 0.0
                for j in range(d):
                    acc += X[t][j] * th[oK + j * k + c]
                row.append(acc)
                st_ += acc * q[c]
            Kt.append(row)
            a.append(st_ * rs)
            smax = max(smax, a[t])
        tot = 0.0
        for t in range(T + 1):
            a[t] = math.exp(a[t] - smax)
            tot += a[t]
        a = [v / tot for v in a]
        xbar = []
        for j in range(d):
            acc = 0.0
            for t in range(T + 1):
                acc += a[t] * X[t][j]
            xbar.append(acc)
        z, h = th[oC], []
        for c in range(k):
            acc = 0.0
            for j in range(d):
                acc += xbar[j] * th[oV + j * k + c]
            h.append(acc)
            z += acc * th[oU + c]
        mz = -float(y[i]) * z
        loss += max(mz, 0.0) + math.log1p(math.exp(-abs(mz)))
        dz = -float(y[i]) / (1.0 + math.exp(-mz)) / m
        grad[oC] += dz
        for c in range(k):
            grad[oU + c] += dz * h[c]
        dxbar = []
        for j in range(d):
            acc = 0.0
            for c in range(k):
                dh = dz * th[oU + c]
                grad[oV + j * k + c] += xbar[j] * dh
                acc += th[oV + j * k + c] * dh
            dxbar.append(acc)
        sda, da, dX = 0.0, [], [[0.0] * d for _ in range(T + 1)]
        for t in range(T + 1):
            acc = 0.0
            for j in range(d):
                acc += X[t][j] * dxbar[j]
                dX[t][j] = a[t] * dxbar[j]
            da.append(acc)
            sda += a[t] * acc
        dq = [0.0] * k
        for t in range(T + 1):
            ds = a[t] * (da[t] - sda)
            for c in range(k):
                dq[c] += ds * Kt[t][c] * rs
                dK = ds * q[c] * rs
                for j in range(d):
                    grad[oK + j * k + c] += X[t][j] * dK
                    dX[t][j] += dK * th[oK + j * k + c]
        for c in range(k):
            for j in range(d):
                grad[oQ + j * k + c] += X[T][j] * dq[c]
                dX[T][j] += th[oQ + j * k + c] * dq[c]
        for t in range(T):
            for j in range(d):
                grad[oP + t * d + j] += dX[t][j]
                grad[oE + int(B[i, t]) * d + j] += dX[t][j]
        for j in range(d):
            grad[oP + T * d + j] += dX[T][j]
            grad[oE + 2 * d + j] += dX[T][j]
    return loss / m, np.array(grad)


@pytest.mark.parametrize("T,d,k,m", [(5, 4, 3, 11), (1, 2, 1, 3), (8, 3, 5, 9)])
def test_numba_gradient_equals_per_sample_loops_bit_for_bit(T, d, k, m):
    """The kernel's per-call tables of rows, keys and scores change no bit against recomputing them per sample."""
    shp = TA.make_shapes(T, d, k)
    B, y = _data(T, m, 7)
    for theta in TA.init_params(T, d, k, [3, 4], init_scale=0.7):
        L1, g1 = _grad_one_per_sample(theta, T, d, k, B, y)
        L2, g2 = TA.loss_and_grad_numba(theta, shp, B, y)
        assert L1 == L2 and g1.tobytes() == g2.tobytes()


def test_forward_reference_embedding():
    """forward_reference's in-place embedding equals gathering, adding and concatenating."""
    T, d, k = 6, 4, 3
    shp = TA.make_shapes(T, d, k)
    B, _ = _data(T, 40, 3)
    p = shp.unpack(TA.init_params(T, d, k, [5], init_scale=0.7)[0])
    X = np.concatenate([p["E"][B] + p["P"][:T][None], (p["E"][2] + p["P"][T])[None, None, :].repeat(len(B), axis=0)], axis=1)
    assert TA._embed(p, B).tobytes() == X.tobytes()


@pytest.mark.parametrize("T,d,k,m", [(6, 4, 3, 40), (32, 8, 8, 500), (1, 1, 1, 3), (17, 5, 2, 1)])
def test_forward_reference_equals_its_einsum_form(T, d, k, m):
    """forward_reference's attention average (kernels.training._einsum_order._sum_outer_seq) equals the
    einsum("mt,mtd->md") it replaced, bit for bit on x86-64 (to rounding elsewhere)."""
    import platform

    shp = TA.make_shapes(T, d, k)
    B, _ = _data(T, m, 3)
    theta = TA.init_params(T, d, k, [7], init_scale=0.7)[0]
    z, a = TA.forward_reference(theta, shp, B)
    p = shp.unpack(theta)
    X = TA._embed(p, B)
    xbar = np.einsum("mt,mtd->md", a, X)
    z0 = (xbar @ p["WV"]) @ p["u"] + p["c"]
    if platform.machine() in ("x86_64", "AMD64"):
        assert z.tobytes() == z0.tobytes()
    else:
        np.testing.assert_allclose(z, z0, rtol=1e-12, atol=1e-15)


def test_trainer_validation():
    shp = TA.make_shapes(4, 2, 2)
    theta0 = TA.init_params(4, 2, 2, [0])
    with pytest.raises(ValueError, match="'B'"):
        TA.train_attention(theta0, shp, np.full((3, 4), 2), np.ones(3), 1)
    with pytest.raises(ValueError, match="'y'"):
        TA.train_attention(theta0, shp, np.zeros((3, 4)), np.zeros(3), 1)
    with pytest.raises(ValueError, match="'T'"):
        TA.make_shapes(0, 2, 2)
