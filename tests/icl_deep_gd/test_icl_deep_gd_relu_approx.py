"""kernels.constructions.relu_approx: Def-4 normal form and the interpolation error bound on random smooth functions
(random trigonometric polynomials), the exact affine and squared-loss sums, validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.constructions import relu_approx as RA


@given(st.lists(st.tuples(st.floats(-1, 1), st.floats(0.1, 3), st.floats(0, 6.3)), min_size=1, max_size=4),
       st.floats(0.5, 5), st.integers(1, 200))
def test_interpolant_normal_form_and_error(terms, R, H):
    def g(t):
        return sum(a * np.sin(b * t + c) for a, b, c in terms)
    d2 = sum(abs(a) * b * b for a, b, _ in terms)
    f = RA.pl_interpolant(g, R, H)
    assert f.max_a_l1 <= 1 + 1e-12
    z = np.linspace(-R, R, 40 * H + 1)
    assert np.abs(f(z) - g(z)).max() <= RA.pl_error_bound(R, H, d2) + 1e-12
    knots = np.linspace(-R, R, H + 1)
    assert np.allclose(f(knots), g(knots), atol=1e-12)


@given(st.floats(-5, 5), st.floats(-5, 5))
def test_exact_sums(slope, offset):
    z = np.linspace(-10, 10, 101)
    assert np.allclose(RA.affine_exact(slope, offset)(z), slope * z + offset, atol=1e-12)
    u = RA.squared_loss_derivative(offset)
    Z = np.stack([z, z[::-1]], axis=1)
    assert np.allclose(u(Z), 2 * (Z[:, 0] - Z[:, 1]) + offset, atol=1e-12)
    assert u.max_a_l1 <= 1


def test_knots_for_accuracy_meets_the_bound():
    for eps in (1e-1, 1e-3, 1e-6):
        H = RA.knots_for_accuracy(3.0, 0.77, eps)
        assert RA.pl_error_bound(3.0, H, 0.77) <= eps < RA.pl_error_bound(3.0, max(1, H - 1), 0.77) or H == 1


def test_validation():
    with pytest.raises(ValueError, match="'H'"):
        RA.pl_interpolant(np.tanh, 1.0, 0)
    with pytest.raises(ValueError, match="'R'"):
        RA.pl_interpolant(np.tanh, -1.0, 3)
    with pytest.raises(ValueError, match="'eps'"):
        RA.knots_for_accuracy(1.0, 1.0, 0.0)
