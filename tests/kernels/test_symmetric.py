"""Exact spectra of symmetric functions (Krawtchouk) against the exhaustive transform."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels import fourier_spectrum, popcounts
from kernels.boolean.symmetric import krawtchouk_rows, majority_values, symmetric_spectrum


@given(st.integers(0, 12), st.integers(0, 2**32 - 1))
def test_krawtchouk_spectrum_equals_exhaustive_transform(n, seed):
    values = np.random.default_rng(seed).integers(-6, 7, size=n + 1)
    spec = fourier_spectrum(values[popcounts(n)], backend="cpu")
    sym = symmetric_spectrum(values.tolist())
    for S in range(1 << n):
        assert spec.coefficient(S) == sym[bin(S).count("1")]


@given(st.integers(1, 60), st.integers(0, 60))
def test_krawtchouk_generating_function(n, k):
    k = min(k, n)
    rows = krawtchouk_rows(n, k)
    # coefficients of (1 - z)^k (1 + z)^(n-k) by direct expansion
    poly = [1]
    for factor in [[1, -1]] * k + [[1, 1]] * (n - k):
        poly = [sum(poly[i] * factor[j - i] for i in range(len(poly)) if 0 <= j - i < 2) for j in range(len(poly) + 1)]
    assert rows[k] == poly


@pytest.mark.parametrize("n", [1, 3, 9, 101])
def test_majority_parseval(n):
    from math import comb

    spec = symmetric_spectrum(majority_values(n))
    assert sum(comb(n, k) * c * c for k, c in enumerate(spec)) == 1


def test_bad_arguments():
    with pytest.raises(ValueError, match="'n'"):
        krawtchouk_rows(-1)
    with pytest.raises(ValueError, match="'k_max'"):
        krawtchouk_rows(5, 6)
    with pytest.raises(ValueError, match="'values'"):
        symmetric_spectrum([])
    assert symmetric_spectrum([Fraction(1, 3)]) == [Fraction(1, 3)]
