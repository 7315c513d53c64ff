"""Exact disjoint-PolyNet error: the product formula against exhaustive evaluation over the cube."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.boolean.polynet import (
    block_sums,
    block_tails,
    disjoint_polynet_error,
    disjoint_polynet_error_exhaustive,
    pm1_block_tails,
)


@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 2**32 - 1), st.booleans())
def test_formula_equals_exhaustive(k, n_prime, seed, integer_weights):
    if k * n_prime > 16:
        k = 16 // n_prime
    rng = np.random.default_rng(seed)
    W = [rng.integers(-3, 4, n_prime).astype(float) if integer_weights else rng.standard_normal(n_prime) for _ in range(k)]
    tails = [block_tails(block_sums(w[1:]), w[0]) for w in W]
    assert abs(disjoint_polynet_error([w[0] for w in W], tails) - disjoint_polynet_error_exhaustive(W)) < 1e-12


@given(st.integers(0, 12), st.fractions(min_value=-14, max_value=14, max_denominator=4))
def test_pm1_tails_exact_against_enumeration(m, v):
    exact = pm1_block_tails(m, v)
    enum = block_tails(block_sums(np.ones(m)), float(v))
    assert (float(exact[0]), float(exact[1])) == enum


def test_exact_error_is_rational_and_counts_ties():
    # all-ones init, n' = 10, k = 3: ties (f = 0) count as errors, so err(0) exceeds 1/2
    err = disjoint_polynet_error([1, 1, 1], [pm1_block_tails(9, 1)] * 3)
    assert isinstance(err, Fraction) and err > Fraction(1, 2)
    small = disjoint_polynet_error([1, 1, 1], [pm1_block_tails(5, 1)] * 3)
    assert float(small) == disjoint_polynet_error_exhaustive([np.ones(6)] * 3)


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: block_sums(np.ones((2, 2))), "1-D", id="u-2d"),
        pytest.param(lambda: block_sums(np.ones(27)), r"\[0, 26\]", id="u-too-long"),
        pytest.param(lambda: pm1_block_tails(-1, 1), "'m'", id="m-negative"),
        pytest.param(lambda: disjoint_polynet_error([1, 1], [(0, 0)]), "same length", id="length-mismatch"),
        pytest.param(lambda: disjoint_polynet_error_exhaustive([np.ones(13), np.ones(13)]), r"\[0, 24\]", id="n-too-big"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()
