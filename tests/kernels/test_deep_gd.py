"""kernels.constructions.deep_gd: parameter bookkeeping, the backprop gradient against finite differences (float) and
against exact rational difference quotients of a polynomial network, and input validation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.constructions import deep_gd as G


@given(st.integers(2, 6), st.integers(1, 5), st.integers(1, 5), st.integers(1, 5))
def test_flatten_roundtrip_and_offsets(N, K, d_in, d_out):
    shapes = G.layer_shapes(N, K, d_in, d_out)
    offs = G.param_offsets(N, K, d_in, d_out)
    assert offs[-1] == (N - 2) * K * K + (d_in + d_out) * K
    mats = [np.arange(r * c).reshape(r, c) + 1000 * j for j, (r, c) in enumerate(shapes)]
    w = G.flatten(mats)
    assert w.size == offs[-1]
    for j, M in enumerate(mats):
        assert np.array_equal(w[offs[j]:offs[j + 1]], M.reshape(-1))
    assert all(np.array_equal(a, b) for a, b in zip(G.unflatten(w, shapes), mats))


@given(st.integers(2, 4), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(1, 4),
       st.sampled_from(["tanh", "softplus", "sin", "linear"]), st.integers(0, 2**31 - 1))
def test_backprop_matches_finite_differences(N, K, d_in, d_out, n, act, seed):
    rng = np.random.default_rng(seed)
    Vs = G.random_network(rng, N, K, d_in, d_out)
    X, Y = rng.normal(size=(n, d_in)), rng.normal(size=(n, d_out))
    a = G.ACTIVATIONS[act]
    g = G.flatten(G.backprop_gradient(Vs, X, Y, a))
    fd = G.flatten(G.fd_gradient(Vs, X, Y, a))
    assert np.max(np.abs(g - fd)) <= 1e-7 * max(1.0, np.max(np.abs(fd)))


@given(st.integers(2, 4), st.integers(1, 3), st.integers(0, 2**31 - 1))
def test_hidden_derivative_variant(N, K, seed):
    """The variant without R_i(j-1) agrees with (3.8) exactly when r' = 1 (linear) and not for tanh."""
    rng = np.random.default_rng(seed)
    Vs = G.random_network(rng, N, K, 2, 1)
    X, Y = rng.normal(size=(3, 2)), rng.normal(size=(3, 1))
    lin, tanh = G.ACTIVATIONS["linear"], G.ACTIVATIONS["tanh"]
    assert np.array_equal(G.flatten(G.backprop_gradient(Vs, X, Y, lin, hidden_derivative=False)),
                          G.flatten(G.backprop_gradient(Vs, X, Y, lin)))
    dropped = G.backprop_gradient(Vs, X, Y, tanh, hidden_derivative=False)
    full = G.backprop_gradient(Vs, X, Y, tanh)
    assert np.array_equal(dropped[-1], full[-1])  # dL/dV_N does not involve (3.8)
    assert not np.allclose(G.flatten(dropped[:-1]), G.flatten(full[:-1]), rtol=1e-9, atol=0)


def test_exact_gradient_matches_rational_difference_quotient():
    """For r(t) = t + t^2/2 the risk is a polynomial in each weight; its exact derivative at 0 follows from
    values at a few rational points (Lagrange differentiation), compared with the Fraction recursion."""
    act = G.polynomial_activation((0, 1, Fraction(1, 2)))
    rng = np.random.default_rng(7)
    shapes = G.layer_shapes(2, 2, 1, 1)
    Vs = [np.array([[Fraction(int(v), 3) for v in row] for row in rng.integers(-2, 3, size=s)], dtype=object) for s in shapes]
    X = np.array([[Fraction(1, 2)], [Fraction(-1)]], dtype=object)
    Y = np.array([[Fraction(1, 3)], [Fraction(0)]], dtype=object)
    grad = G.flatten(G.backprop_gradient(Vs, X, Y, act))
    w = G.flatten(Vs)
    deg = 8  # degree of the risk in one weight: p(2) has degree <= 4 in it, the squared loss <= 8
    pts = [Fraction(k) for k in range(-deg // 2, deg // 2 + 1)]
    for a in range(w.size):
        vals = []
        for h in pts:
            ww = w.copy()
            ww[a] = ww[a] + h
            vals.append(G.risk(G.unflatten(ww, shapes), X, Y, act))
        # derivative at h = 0 of the interpolating polynomial through (pts, vals): exact for degree <= 8
        d = sum(v * _lagrange_deriv_at_zero(pts, i) for i, v in enumerate(vals))
        assert grad[a] == d


def _lagrange_deriv_at_zero(pts, i):
    """l_i'(0) for the Lagrange basis polynomial l_i of the nodes pts."""
    xi = pts[i]
    others = [x for m, x in enumerate(pts) if m != i]
    denom = Fraction(1)
    for x in others:
        denom *= xi - x
    total = Fraction(0)
    for skip in range(len(others)):
        prod = Fraction(1)
        for m, x in enumerate(others):
            if m != skip:
                prod *= 0 - x
        total += prod
    return total / denom


@pytest.mark.parametrize("kwargs, word", [({"N": 1, "K": 2, "d_in": 2}, "'N'"), ({"N": 3, "K": 0, "d_in": 2}, "'K'"),
                                          ({"N": 3, "K": 2, "d_in": 2.5}, "'d_in'")])
def test_layer_shapes_validation(kwargs, word):
    with pytest.raises(ValueError, match=word):
        G.layer_shapes(**kwargs)


def test_bad_shapes_are_refused():
    Vs = G.random_network(np.random.default_rng(0), 2, 2, 3)
    with pytest.raises(ValueError, match="'X'"):
        G.forward(Vs, np.zeros((4, 2)), G.ACTIVATIONS["tanh"])
    with pytest.raises(ValueError, match="'Y'"):
        G.backprop_gradient(Vs, np.zeros((4, 3)), np.zeros((4, 2)), G.ACTIVATIONS["tanh"])
    with pytest.raises(ValueError, match="'w'"):
        G.unflatten(np.zeros(5), G.layer_shapes(2, 2, 3))
