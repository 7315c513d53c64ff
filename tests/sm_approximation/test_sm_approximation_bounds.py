"""kernels.constructions.sm_bounds: the sample-complexity formulas and the Theorem D.6 constants (seed 000)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.constructions import circuits as C
from kernels.constructions import sm_bounds as B

pos = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False, allow_infinity=False)


def test_prop23_constant():
    assert B.prop23_bound(0.1, 100) == pytest.approx(0.5 + 2 * math.sqrt(math.log(200) / 100))
    assert 2 * math.sqrt(math.log(200)) == pytest.approx(4.603, abs=1e-3)
    with pytest.raises(ValueError, match="argument 'delta'"):
        B.prop23_bound(0.1, 10, delta=1.5)


@given(pos, pos, pos, st.floats(min_value=2.0, max_value=1e12))
def test_n_sm_monotone(eps, alpha, gamma, p):
    base = B.n_sm(eps, alpha, gamma, p)
    assert B.n_sm(eps, 2 * alpha, gamma, p) >= base
    assert B.n_sm(eps, alpha, 2 * gamma, p) <= base
    assert B.n_sm(eps, alpha, gamma, 10 * p) >= base
    assert B.n_sm(eps, alpha, gamma, p, polylog=False) == pytest.approx((alpha ** 2 * math.log(p) / gamma ** 2 + 1) / eps ** 2)


def test_n_sm_validation():
    with pytest.raises(ValueError, match="argument 'gamma'"):
        B.n_sm(0.1, 1.0, 0.0, 10)


def test_gamma_d6_is_the_minimum_of_the_nine_terms():
    c = {"lam": 2.0, "mu": 3.0, "mu0": 5.0, "kappa_theta": 7.0, "kappa_xi": 11.0, "sigma_zeta": 1 / 3}
    terms = [2 / 5, 1 / 15, 1, 1, 1 / 14, (1 / 3) / 28, math.inf, (1 / 3) / (4 * 2 * 3 * 11), 1 / (4 * 3 * 11)]
    assert B.gamma_d6(**c) == pytest.approx(min(terms))


def test_block_constants_dominate_samples():
    rng = np.random.default_rng(0)
    W1, b1 = rng.standard_normal((4, 3)), rng.standard_normal(4)
    W2, b2 = rng.standard_normal((3, 4)), rng.standard_normal(3)
    kappa, mu = B.block_constants(W1, b1, W2, b2, 1.0)
    f = lambda h, A1, c1, A2, c2: np.maximum(A2 @ np.maximum(A1 @ h + c1, 0) + c2, 0)
    for _ in range(200):
        h = rng.standard_normal(3)
        d = [rng.standard_normal(a.shape) for a in (W1, b1, W2, b2)]
        n = math.sqrt(sum(np.sum(a ** 2) for a in d))
        d = [a / n * rng.random() for a in d]
        P = [a + da for a, da in zip((W1, b1, W2, b2), d)]
        dn = math.sqrt(sum(np.sum(a ** 2) for a in d))
        assert np.linalg.norm(f(h, W1, b1, W2, b2) - f(h, *P)) <= kappa * dn * max(np.linalg.norm(h), 1) + 1e-12
        h2 = h + 1e-2 * rng.standard_normal(3)
        assert np.linalg.norm(f(h, *P) - f(h2, *P)) <= mu * np.linalg.norm(h - h2) + 1e-12


def test_circuit_constants_are_depth_free_for_id_chains():
    gams = []
    for q in (3, 5, 9):
        c = C.Circuit(1, tuple(((("ID", (0,)),)) for _ in range(q - 1)))
        gams.append(B.circuit_d6_constants(C.compile_relu(c), np.array([[0], [1]]))["gamma"])
    assert gams[0] == pytest.approx(gams[1]) == pytest.approx(gams[2])
