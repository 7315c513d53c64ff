"""Second-reader property tests of the B.4.1 constructions (verify/hidden_progress/constructions.py): the
infinity-zigzag's exact extension decision, the PolyNet's printed size, the ReLU staircase's width, the
z^k decomposition's width, on random instances (hypothesis)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.hidden_progress import constructions as C
from verify.hidden_progress import constructions_networks as CN

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)


@SETTINGS
@given(st.integers(1, 14), st.fractions(min_value=-8, max_value=8, max_denominator=4), st.sampled_from([1, -1]))
def test_period_two_wave_never_extends_the_zigzag(k, b, sgn):
    # the k-zigzag is +1 at z = k and -1 at z = k - 2; a period-2 wave takes equal values there
    assert sgn * C.triangle_wave(k + b) == sgn * C.triangle_wave(k - 2 + b)
    assert not (sgn * C.triangle_wave(k + b) == 1 and sgn * C.triangle_wave(k - 2 + b) == -1)


@SETTINGS
@given(st.integers(1, 14), st.fractions(min_value=-3, max_value=3, max_denominator=6))
def test_period_four_wave_extends_the_zigzag(k, z0):
    z = max(-k, min(k, z0 * k / 3))
    assert C.triangle_wave(z - k, Fraction(4)) == C.pl_eval(C.zigzag_knots(k), z)
    # the extension candidates are the only biases: tri_P(k + b) = +-1 forces k + b in (P/2) Z
    for sgn, b in C.extension_candidates(k, Fraction(4)):
        assert sgn * C.triangle_wave(k + b, Fraction(4)) == 1


@SETTINGS
@given(st.integers(1, 9), st.integers(0, 2**32 - 1))
def test_polynet_construction_has_k_zero_bias_factors(k, seed):
    n = k + 2
    S = sorted(np.random.default_rng(seed).choice(n, size=k, replace=False).tolist())
    f = CN._polynet_printed(S, n, np.random.default_rng(seed))
    assert len(f) == k and all(b == 0 for _, b in f)
    dup = CN._polynet_duplicated(S, n, np.random.default_rng(seed))
    assert len(dup) == k + 2  # same function on the cube, wrong size
    assert np.array_equal(CN.polynet_table(dup, n), CN.polynet_table(f, n))


@SETTINGS
@given(st.integers(1, 10))
def test_relu_staircase_widths(k):
    neurons, u, c = CN.relu_staircase_net(k, output_bias=False)
    assert len(neurons) == k + 1 and c == 0
    neurons_b, _, _ = CN.relu_staircase_net(k, output_bias=True)
    assert len(neurons_b) == k


@SETTINGS
@given(st.integers(1, 6))
def test_power_decomposition_has_width_k(k):
    forms, lam = CN.power_decomposition(k, k, k)
    assert len(forms) == len(lam) == k
    P = CN.parity_interpolant(k)
    for s in range(-k, k + 1, 2):
        assert sum(l * (a * s + b) ** k for (a, b), l in zip(forms, lam)) == C.poly_eval(P, s)
    assert CN.power_decomposition(k, k + 1, 1) is None  # one neuron never suffices
