"""kernels.sequence.qstr: the qSTR sampler's invariants (labels, index law, simple mode), codes, encodings, exact pair
tail against enumeration, Gaussian norm moments, and argument validation."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import sqrt

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernels.sequence.qstr import (
    assumption3_codes,
    assumption3_margin,
    encode_rnn,
    encode_transformer,
    gaussian_norm_moment,
    pair_overlap_tail,
    rademacher_codes,
    sample_qstr,
)


@given(N=st.integers(1, 12), d=st.integers(1, 5), q=st.integers(1, 3), seed=st.integers(0, 2**32 - 1), simple=st.booleans())
def test_sampler_invariants(N, d, q, seed, simple):
    b = sample_qstr(np.random.default_rng(seed), 7, N, d, q, simple=simple)
    assert b.x.shape == (7, N, d) and b.t.shape == (7, N, q) and b.y.shape == (7, N)
    assert b.t.min() >= 0 and b.t.max() < N
    for a in range(7):
        for i in range(N):
            assert b.y[a, i] == pytest.approx(sum(float(b.x[a, b.t[a, i, l]] @ b.u[l]) for l in range(q)), abs=1e-12)
    if simple:
        assert np.all(b.t == b.t[:, :1, :])
    assert np.allclose(np.linalg.norm(b.u, axis=1), 1.0)


def test_sampler_is_reproducible_and_sqnorm_law_is_centred():
    a = sample_qstr(np.random.default_rng(5), 4, 6, 3, 2)
    b = sample_qstr(np.random.default_rng(5), 4, 6, 3, 2)
    assert np.array_equal(a.x, b.x) and np.array_equal(a.t, b.t) and np.array_equal(a.y, b.y)
    s = np.array([1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    tf = np.array([[3, 4]] * 3 + [[0, 1]] * 3)
    c = sample_qstr(np.random.default_rng(1), 20000, 6, 2, 2, link="sqnorm", token_scale=s, t_fixed=tf)
    assert np.all(c.y[:, :3] == 0.0)  # indices point at zero tokens
    assert abs(c.y[:, 3:].mean()) < 0.05 and abs((c.y[:, 3:] ** 2).mean() - 2.0) < 0.1


def test_pair_tail_matches_enumeration():
    for d_e in range(1, 11):
        bad = sum(1 for s in itertools.product((-1, 1), repeat=d_e) if 2 * abs(sum(s)) > d_e)
        assert pair_overlap_tail(d_e) == Fraction(bad, 2**d_e)


@given(N=st.integers(2, 30), d_e=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_codes_are_unit_and_margin_is_consistent(N, d_e, seed):
    c = rademacher_codes(np.random.default_rng(seed), N, d_e)
    assert np.allclose(np.linalg.norm(c, axis=1), 1.0, atol=1e-12)
    S = np.rint(c * sqrt(d_e)).astype(np.int64)
    G = S @ S.T
    np.fill_diagonal(G, 0)
    assert (assumption3_margin(c) >= -1e-12) == bool(2 * np.abs(G).max() <= d_e)


@given(q=st.integers(1, 4), d=st.integers(1, 6), seed=st.integers(0, 2**32 - 1))
def test_encoding_norm_and_layout(q, d, seed):
    rng = np.random.default_rng(seed)
    N, d_e = 5, 8
    b = sample_qstr(rng, 2, N, d, q)
    codes = rademacher_codes(rng, N, d_e)
    Z = encode_transformer(b.x, b.t, codes)
    assert Z.shape == (2, N, d + (q + 1) * d_e)
    assert np.allclose((Z[:, :, d:] ** 2).sum(2), d * (q + 1) / q)
    R = encode_rnn(b.x, b.t, codes)
    assert np.array_equal(R[:, :, :d], b.x) and np.allclose(R[:, 3, d:d + d_e], codes[3])
    assert np.allclose(R[:, :, d + d_e:d + 2 * d_e], codes[b.t[:, :, 0]])


def test_gaussian_norm_moment_closed_forms():
    assert gaussian_norm_moment(1, 2) == pytest.approx(1.0)
    assert gaussian_norm_moment(3, 2) == pytest.approx(sqrt(3))
    assert gaussian_norm_moment(2, 1) == pytest.approx(sqrt(np.pi / 2))


@pytest.mark.parametrize("kwargs, name", [
    ({"n": 0, "N": 3, "d": 2}, "'n'"), ({"n": 2, "N": 0, "d": 2}, "'N'"), ({"n": 2, "N": 3, "d": 0}, "'d'"),
    ({"n": 2, "N": 3, "d": 2, "link": "cubic"}, "'link'"), ({"n": 2, "N": 3, "d": 2, "u": np.ones((2, 2))}, "'u'"),
    ({"n": 2, "N": 3, "d": 2, "t_fixed": np.full((3, 1), 7)}, "'t_fixed'"),
])
def test_validation(kwargs, name):
    with pytest.raises(ValueError, match=name):
        sample_qstr(np.random.default_rng(0), **kwargs)
    with pytest.raises(ValueError, match="'d_e'"):
        rademacher_codes(np.random.default_rng(0), 3, 0)
    with pytest.raises(ValueError, match="'r'"):
        gaussian_norm_moment(2, 0.5)


def test_assumption3_codes():
    c = assumption3_codes(np.random.default_rng(0), 20, 60)
    assert assumption3_margin(c) >= -1e-12
    with pytest.raises(ValueError, match="'d_e'"):
        assumption3_codes(np.random.default_rng(0), 50, 2, max_tries=5)
