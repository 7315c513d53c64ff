"""kernels.constructions.projected_gd: exact projected GD on a convex quadratic reaches the projected minimiser, the
error recursion of inexact steps (discrete Gronwall) on random cosine sums, smoothness constants, validation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.constructions.projected_gd import (
    CosineSum,
    Quadratic,
    box_projection,
    gradient_mapping,
    inexact_pgd,
)


def test_quadratic_converges_to_projected_minimiser():
    f = Quadratic(2.0, np.array([3.0, -0.5]))
    proj = box_projection(-1.0, 1.0)
    traj = inexact_pgd(np.zeros(2), f.grad, proj, 0.25, 60)
    assert np.allclose(traj[-1], [1.0, -0.5], atol=1e-9)
    assert np.linalg.norm(gradient_mapping(traj[-1], f.grad, proj, 0.25)) < 1e-8


@given(st.integers(0, 2**31 - 1), st.floats(0.05, 0.5))
def test_inexact_steps_obey_gronwall(seed, eps):
    rng = np.random.default_rng(seed)
    f = CosineSum(rng.normal(size=3), rng.normal(size=(3, 2)), rng.uniform(0, 6, size=3))
    Lf = f.smoothness
    eta = 1.0 / Lf
    proj = box_projection(-2.0, 2.0)

    def err(l, w):
        v = rng.normal(size=2)
        return eta * eps * v / np.linalg.norm(v)

    a = inexact_pgd(np.zeros(2), f.grad, proj, eta, 20, errors=err)
    b = inexact_pgd(np.zeros(2), f.grad, proj, eta, 20)
    for l in range(21):
        assert np.linalg.norm(a[l] - b[l]) <= ((1 + eta * Lf) ** l - 1) * eps / Lf + 1e-12


def test_validation():
    f = Quadratic(1.0, np.zeros(1))
    with pytest.raises(ValueError, match="'eta'"):
        inexact_pgd(np.zeros(1), f.grad, box_projection(-1, 1), 0.0, 3)
    with pytest.raises(ValueError, match="'steps'"):
        inexact_pgd(np.zeros(1), f.grad, box_projection(-1, 1), 0.1, -1)
    with pytest.raises(ValueError, match="'lo', 'hi'"):
        box_projection(1.0, -1.0)
