"""Property tests of the representation constructions of App. B.4.1 (verify/hidden_progress/constructions.py),
the quadratic networks of App. B.3.7 (layerwise.py) and the noisy-parity identity of App. B.3.6
(noisy_parity.py): every construction is executed on random inputs, random S and random n."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels import chi
from kernels.boolean import wht
from kernels.boolean.deep_mlp import multilinear_degree, poly_mlp_forward
from verify.hidden_progress import constructions as C
from verify.hidden_progress import constructions_networks as CN
from verify.hidden_progress import layerwise as LW
from verify.hidden_progress import noisy_parity as NP

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True)


@st.composite
def parity_points(draw, k_min: int = 1, k_max: int = 10, extra: int = 4):
    """(k, n, S, x): |S| = k in [n], x a point of {±1}^n as a list of ints."""
    k = draw(st.integers(k_min, k_max))
    n = draw(st.integers(k, k + extra))
    S = sorted(draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True)))
    x = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
    return k, n, S, x


def _chi(S, x) -> int:
    return math.prod(x[i] for i in S)


def _s(S, x) -> int:
    return sum(x[i] for i in S)


# ---------------------------------------------------------------------------------------------
# single neurons
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(parity_points(), st.sampled_from(["linear", "constant"]))
def test_k_zigzag_computes_parity(pt, extension):
    k, _, S, x = pt
    assert C.pl_eval(C.zigzag_knots(k), _s(S, x), extension) == _chi(S, x)


@SETTINGS
@given(st.integers(1, 12), st.fractions(min_value=-20, max_value=20, max_denominator=7))
def test_k_zigzag_is_bounded_and_has_k_pieces(k, z):
    knots = C.zigzag_knots(k)
    if -k <= z <= k:
        assert -1 <= C.pl_eval(knots, z) <= 1
    assert abs(C.pl_eval(knots, z, "constant")) <= 1
    assert C.affine_pieces(knots, "linear") == k
    assert C.affine_pieces(knots, "constant") == k + 2


@SETTINGS
@given(parity_points(k_max=9))
def test_oscillating_polynomial_computes_parity(pt):
    k, _, S, x = pt
    P = CN.parity_interpolant(k)
    assert len(P) == k + 1 and P[-1] == Fraction(1, math.factorial(k))
    assert C.poly_eval(P, _s(S, x)) == _chi(S, x)


@SETTINGS
@given(parity_points(k_max=30))
def test_corrected_infinite_zigzag_any_degree(pt):
    k, _, S, x = pt
    assert C.triangle_wave(Fraction(_s(S, x) - k, 2)) == _chi(S, x)
    # the printed wave (period 2) sees only the residue of s mod 2: one value for every x
    assert C.triangle_wave(_s(S, x)) == C.triangle_wave(k)


@SETTINGS
@given(parity_points(k_max=30))
def test_sinusoid_with_period_four(pt):
    k, _, S, x = pt
    beta = math.pi / 2 - math.pi * k / 2
    assert abs(math.sin(math.pi * _s(S, x) / 2 + beta) - _chi(S, x)) < 1e-9


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_sinusoid_points_decision(k):
    assert not C.phase_exists(C._printed_wave_points(k), Fraction(1, 2))[0]
    assert C.phase_exists(C._corrected_wave_points(k), Fraction(1, 2))[0]
    assert not C.phase_exists(C._corrected_wave_points(k), Fraction(1))[0]
    # a single point is always interpolated (rank 1, line meets the circle)
    assert C.phase_exists([(Fraction(0), Fraction(1, 2))], Fraction(1, 2))[0]


# ---------------------------------------------------------------------------------------------
# PolyNet
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(parity_points(k_max=8), st.integers(0, 2**32 - 1))
def test_polynet_any_permutation(pt, seed):
    _, n, S, x = pt
    factors = CN._polynet_printed(S, n, np.random.default_rng(seed))
    assert math.prod(int(np.dot(w, x)) + b for w, b in factors) == _chi(S, x)
    table = CN.polynet_table(factors, n)
    assert np.array_equal(table, chi(sum(1 << i for i in S), n))


@SETTINGS
@given(parity_points(k_max=6, extra=2), st.integers(0, 2**32 - 1))
def test_polynet_missing_factor_is_another_parity(pt, seed):
    _, n, S, _ = pt
    table = CN.polynet_table(CN._polynet_drop_one(S, n, np.random.default_rng(seed)), n)
    assert not np.array_equal(table, chi(sum(1 << i for i in S), n))


# ---------------------------------------------------------------------------------------------
# width-r MLPs
# ---------------------------------------------------------------------------------------------


@SETTINGS
@given(parity_points(k_max=12), st.booleans())
def test_relu_staircase(pt, output_bias):
    k, _, S, x = pt
    neurons, u, c = CN.relu_staircase_net(k, output_bias=output_bias)
    assert len(neurons) == k + (not output_bias)
    s = _s(S, x)
    f = c + sum(ui * max(a * s + b, 0) for (a, b), ui in zip(neurons, u))
    assert f == _chi(S, x)


@pytest.mark.parametrize(
    "k,r,bias,expected",
    [(1, 1, False, False), (1, 2, False, True), (1, 1, True, True), (2, 2, False, False), (2, 2, True, True)],
)
def test_relu_exact_decision(k, r, bias, expected):
    dec = CN.relu_representable(k, r, bias)
    assert dec.representable is expected and dec.undecided == 0


@settings(max_examples=25, deadline=None, derandomize=True)
@given(parity_points(k_max=6))
def test_power_decomposition_width_k(pt):
    k, _, S, x = pt
    forms, lam = CN.power_decomposition(k, k, k)
    assert len(forms) == k
    s = _s(S, x)
    assert sum(l * (a * s + b) ** k for (a, b), l in zip(forms, lam)) == _chi(S, x)


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_power_decomposition_impossible_below_degree(k):
    assert CN.power_decomposition(k, k - 1, k) is None
    assert CN.power_decomposition(k, k, k + 1) is not None  # k + 1 distinct forms span all degree-k forms


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(1, 3), st.integers(4, 7), st.integers(0, 2**32 - 1))
def test_low_degree_nets_are_orthogonal_to_higher_parities(kp, n, seed):
    rng = np.random.default_rng(seed)
    r = int(rng.integers(1, 4))
    f = poly_mlp_forward([(rng.integers(-3, 4, size=(r, n)), rng.integers(-3, 4, size=r))], rng.integers(-3, 4, size=r),
                         n=n, power=kp)
    assert multilinear_degree(f) <= kp


def test_sign_of_a_linear_net_correlates_with_parity():
    X = CN._cube(3)
    maj = np.sign(X.sum(axis=1))
    assert Fraction(int(wht(maj)[7]), 8) == Fraction(-1, 2)


# ---------------------------------------------------------------------------------------------
# quadratic networks of App. B.3.7
# ---------------------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.integers(2, 4), st.data())
def test_nested_parity_net(L, data):
    n = data.draw(st.integers(1, 9))
    k = data.draw(st.integers(0, min(n, 2 ** (L - 1) + 1)))
    S = sorted(data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k, unique=True)))
    for bias in (False, True):
        net = LW.nested_parity_net(S, n, L, output_bias=bias)
        if k > 2 ** (L - 1):
            assert net is None
            continue
        layers, u, c = net
        assert len(layers) == L - 1
        f = poly_mlp_forward(layers, u, n=n, output_bias=c)
        assert [int(v) for v in f.tolist()] == chi(sum(1 << i for i in S), n).tolist()


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1), st.integers(2, 8))
def test_width_2_1_without_output_bias_has_constant_sign(seed, n):
    rng = np.random.default_rng(seed)
    X = CN._cube(n).astype(float)
    W1, b1, W2, b2, u = rng.standard_normal((2, n)), rng.standard_normal(2), rng.standard_normal((1, 2)), rng.standard_normal(1), rng.standard_normal(1)
    f = ((((X @ W1.T + b1) ** 2) @ W2.T + b2) ** 2) @ u
    assert np.all(f * u[0] >= 0)


# ---------------------------------------------------------------------------------------------
# noisy parities
# ---------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(1, 8), st.fractions(min_value=0, max_value=Fraction(1, 2), max_denominator=50), st.integers(0, 2**32 - 1))
def test_noise_multiplies_correlations_by_one_minus_two_p(n, p, seed):
    rng = np.random.default_rng(seed)
    mask = int(rng.integers(0, 1 << n))
    f = rng.integers(-5, 6, size=1 << n)
    y = chi(mask, n).astype(np.int64)
    fhat = Fraction(int(wht(f)[mask]), 1 << n)
    assert NP._joint_expectation(f, y, p) == (1 - 2 * p) * fhat
