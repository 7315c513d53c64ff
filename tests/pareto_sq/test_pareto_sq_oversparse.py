"""kernels.boolean.oversparse: closed forms against exhaustive cube sums and the Krawtchouk spectrum."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels import fourier_spectrum, popcounts
from kernels.boolean.oversparse import (
    C_ks,
    c_ks,
    correlation_vector,
    half_hat,
    maj_hat,
    p_good_oversparse,
    p_good_undersparse,
    parity_readout,
    rho,
    undersparse_weights,
    xi_irr,
    xi_rel,
)
from kernels.boolean.symmetric import symmetric_spectrum


@pytest.mark.parametrize("N", list(range(1, 14)))
def test_maj_hat_equals_exhaustive_transform_with_ties_minus(N):
    pc = popcounts(N)
    table = np.where(N - 2 * pc > 0, 1, -1).astype(np.int64)
    spec = fourier_spectrum(table, backend="cpu")
    for t in range(N + 1):
        assert spec.coefficient((1 << t) - 1) == maj_hat(N, t)


@given(st.integers(1, 80))
def test_maj_hat_equals_krawtchouk(N):
    spec = symmetric_spectrum([1 if N - 2 * j > 0 else -1 for j in range(N + 1)])
    assert [maj_hat(N, t) for t in range(N + 1)] == spec


@given(st.integers(0, 30).map(lambda m: 2 * m))
def test_half_hat_equals_krawtchouk(s):
    spec = symmetric_spectrum([1 if 2 * j == s else 0 for j in range(s + 1)])
    assert [half_hat(s, t) for t in range(s + 1)] == spec


@given(st.integers(1, 12).map(lambda h: 2 * h), st.integers(0, 30))
def test_over_sparse_ratio_identity(k, extra):
    s = k + 1 + 2 * extra  # odd s > k
    assert c_ks(k, s) * (s - k) == -(k - 1) * C_ks(k, s)


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([(2, 9), (2, 11), (4, 17)]), st.integers(1, 2), st.integers(0, 2**32 - 1), st.floats(-0.99, 0.99))
def test_good_neuron_vector_any_bias(ks, extra, seed, bias):
    """Lemma C.3 identities hold for any bias in (-1, 1) (<w, x> is odd when |supp w| is odd)."""
    k, s = ks
    n = s + extra
    rng = np.random.default_rng(seed)
    perm = rng.permutation(n)
    w = np.zeros(n)
    w[perm[:s]] = 1
    S = [int(i) for i in perm[:k]]
    g = correlation_vector(w, S, bias)
    for i in range(n):
        want = C_ks(k, s) if i in S else c_ks(k, s) * int(w[i])
        assert g[i] == want


@settings(max_examples=15, deadline=None)
@given(st.sampled_from([(4, 2), (6, 2), (6, 4)]), st.integers(0, 4), st.integers(0, 2**32 - 1))
def test_good_undersparse_vector(ks, extra, seed):
    k, s = ks
    n = k + 2 + extra
    rng = np.random.default_rng(seed)
    perm = [int(i) for i in rng.permutation(n)]
    S, Sp = perm[:k], perm[:s]
    g = correlation_vector(undersparse_weights(n, Sp), S)
    for i in range(n):
        want = Fraction(0) if i in Sp else xi_rel(n, k, s) if i in S else xi_irr(n, k, s)
        assert g[i] == want


def test_p_good_matches_product_form():
    for n, k, s in [(20, 2, 9), (50, 3, 13), (100, 4, 17)]:
        prod = Fraction(1)
        for i in range(k):
            prod *= Fraction(s - i, n - i)
        assert p_good_oversparse(n, k, s) == prod
        assert p_good_undersparse(n, k, 2) == Fraction(comb(k, 2), comb(n, 2))


def test_rho_is_the_limit_of_majority_weight():
    for v in (1, 3, 5):
        N = 4001
        W = float(comb(N, v) * maj_hat(N, v) ** 2)
        assert abs(W / rho(v) - 1) < 2e-3


def test_parity_readout_k2_is_the_documented_vector():
    v, norm2 = parity_readout(2, [0])
    assert v == [Fraction(-1), Fraction(128), Fraction(128)] and norm2 == 32769
    assert parity_readout(2, []) is None


@pytest.mark.parametrize("bad", [
    lambda: maj_hat(0, 1), lambda: maj_hat(3, -1), lambda: half_hat(3, 1), lambda: rho(2),
    lambda: correlation_vector(np.array([0.5, 1.0]), [0]), lambda: undersparse_weights(3, [5]),
    lambda: p_good_oversparse(5, 3, 2),
])
def test_bad_arguments_raise_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def test_lemma_c2_ratio_prefilter_matches_plain_scan():
    """The float prefilter of Lemma C.2's scan keeps the first exact minimiser of p_good / lower over s (every
    statement of the claim, ties included: at k = 1 the printed ratio is 2 for every s)."""
    from verify.pareto_sq.oversparse import GoodProbabilityBound, _ratio_candidates

    statements = [GoodProbabilityBound(), GoodProbabilityBound(base=Fraction(1)),
                  GoodProbabilityBound(s_min_coef=1, s_min_const=0), GoodProbabilityBound(base=Fraction(99, 100)),
                  GoodProbabilityBound(power_shift=-1)]
    for st_ in statements:
        for k in range(1, 9):
            for n in range(max(st_.s_min(k), 1), 70):
                def first_min(ss):
                    best = None
                    for s in ss:
                        ratio = p_good_oversparse(n, k, s) / st_.lower(n, k, s)
                        if best is None or ratio < best[0]:
                            best = (ratio, s)
                    return best

                assert first_min(_ratio_candidates(st_, n, k)) == first_min(range(st_.s_min(k), n + 1))


def test_rho_extremes_match_plain_scan():
    """The memoised extremes of thesis_ch6.rho_bounds are the plain scans' first minimum / maximum."""
    from verify.pareto_sq.oversparse import _rho_extremes

    lower, upper = _rho_extremes(101)
    for v, (W, N) in zip(range(3, 22, 2), lower):
        vals = [(float(comb(M, v) * maj_hat(M, v) ** 2), M) for M in range(v, 102, 2)]
        assert (W, N) == min(vals, key=lambda t: t[0])
    for k, (W, s) in zip(range(2, 21, 2), upper):
        vals = [(float(comb(M, k + 1) * maj_hat(M, k + 1) ** 2), M) for M in range(4 * k + 1, 102, 2)]
        assert (W, s) == max(vals, key=lambda t: t[0])
