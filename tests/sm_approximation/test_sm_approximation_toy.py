"""The scalar toys of seed 000, Section 3 (verify.sm_approximation.toy): the hand-written gradients
of the product toy and of the rounded toy (Claim 3.5) used by the margin attack, against central
finite differences and closed forms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from verify.sm_approximation import toy as T

_EPS = 1e-6


def _central_differences(f, theta):
    fd = np.empty_like(theta)
    for j in range(theta.shape[1]):
        e = np.zeros(theta.shape[1])
        e[j] = _EPS
        fd[:, j] = (f(theta + e) - f(theta - e)) / (2 * _EPS)
    return fd


@given(st.integers(1, 8), st.integers(0, 2**32 - 1))
def test_product_gradient_matches_central_differences(d, seed):
    """prod is a polynomial of degree 1 in each coordinate, so central differences are exact up to
    rounding (~1e-16/h = 1e-10 relative)."""
    th = np.random.default_rng(seed).uniform(-2, 2, size=(3, d))
    m, g = T.product_margin_and_grad(th)
    np.testing.assert_allclose(m, np.prod(th, axis=1) - 0.5, rtol=1e-14)
    fd = _central_differences(lambda t: T.product_margin_and_grad(t)[0], th)
    np.testing.assert_allclose(g, fd, rtol=1e-7, atol=1e-8)


def test_product_gradient_with_zero_entries():
    m, g = T.product_margin_and_grad(np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 5.0]]))
    np.testing.assert_array_equal(m, [-0.5, -0.5])
    np.testing.assert_array_equal(g, [[6.0, 0.0, 0.0], [0.0, 0.0, 0.0]])


def _min_kink_distance(theta, d, round_params):
    """min |u_i|, |v_i| over the ReLU arguments of the rounded toy (the distance to a kink)."""
    k = 7 if round_params else 1
    h, dist = np.ones(theta.shape[0]), np.inf
    for i in range(d):
        blk = theta[:, i * k:(i + 1) * k]
        a1, b1, a2, b2, c1, c2 = (blk[:, 1 + j] for j in range(6)) if round_params else T._ROUND0
        z = blk[:, 0] * h
        u, v = a1 * z + b1, a2 * z + b2
        dist = min(dist, float(np.min(np.abs(u))), float(np.min(np.abs(v))))
        h = c1 * np.maximum(u, 0) + c2 * np.maximum(v, 0)
    return dist


@given(st.integers(1, 5), st.booleans(), st.integers(0, 2**32 - 1))
def test_rounded_toy_gradient_matches_central_differences(d, round_params, seed):
    """Away from kinks (every ReLU argument >= 1e-3 from 0, steps h = 1e-6 cannot cross one) f~ is a
    polynomial in theta; FD truncation O(h^2) and rounding ~1e-10 relative give tolerance 1e-6."""
    rng = np.random.default_rng(seed)
    theta0 = np.concatenate([[1.0] + (list(T._ROUND0) if round_params else []) for _ in range(d)])
    th = theta0 + rng.normal(scale=0.3, size=(4, theta0.size))
    assume(_min_kink_distance(th, d, round_params) > 1e-3)
    _, g = T.rounded_toy_margin_and_grad(th, d, round_params)
    fd = _central_differences(lambda t: T.rounded_toy_margin_and_grad(t, d, round_params)[0], th)
    np.testing.assert_allclose(g, fd, rtol=1e-6, atol=1e-6 * max(1.0, float(np.abs(fd).max())))


def test_rounded_toy_forward_is_round_of_products():
    """At the round parameters of Prop. 3.4 the forward pass is round(W_d round(... round(W_1)))."""
    def rnd(z):
        return 3 * max(z - 1 / 3, 0) - 3 * max(z - 2 / 3, 0)

    W = np.array([[0.9, 0.55, 1.2], [1.0, 1.0, 0.5], [0.4, 1.0, 1.0]])
    want = []
    for w in W:
        h = 1.0
        for wi in w:
            h = rnd(wi * h)
        want.append(h - 0.5)
    m, _ = T.rounded_toy_margin_and_grad(W, 3, False)
    np.testing.assert_allclose(m, want, atol=1e-15)
    with pytest.raises(ValueError, match="argument 'theta'"):
        T.rounded_toy_margin_and_grad(W, 2, False)


def test_product_attack_matches_exact_margin_and_is_reproducible():
    r = T.product_margin_attack(4, np.random.default_rng(0))
    assert T.rho_product_exact(4) - 1e-9 <= r <= T.rho_product_exact(4) + 2e-3
    assert r == T.product_margin_attack(4, np.random.default_rng(0))
