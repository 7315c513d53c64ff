"""Property tests of the helpers behind the seed003 claims of verify/rcnn/learners.py and
verify/rcnn/gaussian_elimination.py, each against an independent oracle: exact rank counts by
enumeration of all small GF(2) matrices, integer roots and logarithms by brute force, the selection
failure of Algorithm 2 by simulation, Turing-machine step counts by formula, Observation 1's
inequalities on random parameters, and the restart decision against exact Fractions."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.algebra.gf2 import gf2_rank
from verify.rcnn.gaussian_elimination import (
    _full_rank_interval,
    expected_error,
    full_rank_at_least,
    full_rank_probability,
    minimal_samples,
    rank_distribution,
    samples_for,
)
from verify.rcnn.learners import (
    _O1_PRINTED,
    _TMS,
    ReductionStatement,
    _encode,
    _integer_root,
    _p_no4,
    _pow2_ceil_log,
    observation_1_case,
    required_r,
    run_tm,
    selection_failure,
)
from verify.rcnn.learners_pao_pac import head_bar, shared_parameter_count
from verify.rcnn.learners_theorem1 import no_good_restart


@pytest.mark.parametrize("d, m", [(1, 1), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4)])
def test_rank_distribution_by_enumeration(d, m):
    # every m x d matrix over GF(2): the rank histogram is exactly 2^{md} Pr[rank = r]
    counts = [0] * (min(d, m) + 1)
    for code in range(1 << (m * d)):
        bits = np.array([(code >> j) & 1 for j in range(m * d)], dtype=np.uint8).reshape(m, d)
        counts[gf2_rank(bits, backend="reference")] += 1
    dist = rank_distribution(d, m)
    assert [Fraction(c, 1 << (m * d)) for c in counts] == list(dist)
    if m >= d:
        assert dist[d] == full_rank_probability(d, m)


@settings(deadline=None)
@given(st.integers(1, 40), st.integers(0, 12))
def test_full_rank_interval_brackets_exact_value(d, k):
    m = d + k
    lo, hi, bits = _full_rank_interval(d, m)
    exact = full_rank_probability(d, m)
    assert Fraction(lo, 1 << bits) <= exact <= Fraction(hi, 1 << bits)
    assert hi - lo <= d + 2
    for claim in (exact, exact - Fraction(1, 10**30), exact + Fraction(1, 10**30), Fraction(1, 2)):
        assert full_rank_at_least(d, m, claim)[0] == (exact >= claim)


def test_samples_rule_and_limit():
    for d in range(1, 30):
        for j in range(12):
            delta = Fraction(1, 2**j)
            assert samples_for(d, delta) == d + j
            assert full_rank_probability(d, d + j) >= 1 - delta  # >= 1 - 2^{d-m}
            assert minimal_samples(d, delta) <= d + j
    # the m = d limit prod_{i>=1} (1 - 2^-i) = 0.288788...
    assert abs(float(full_rank_probability(100, 100)) - 0.2887880950866024) < 1e-12
    # E[err] at m >= d large is tiny, at m = 0 it is (1/2)(1 - 2^-d)
    assert expected_error(5, 0) == Fraction(1, 2) * (1 - Fraction(1, 32))


@settings(deadline=None)
@given(st.integers(1, 10**40), st.integers(1, 12))
def test_pow2_ceil_log(M, q):
    j = _pow2_ceil_log(M, q)
    assert 2 ** (q * j) >= M and (j == 0 or 2 ** (q * (j - 1)) < M)


@settings(deadline=None)
@given(st.one_of(st.integers(0, 10**60), st.integers(0, 2**5000)), st.integers(1, 12))
def test_integer_root(M, e):
    r = _integer_root(M, e)
    assert r**e <= M < (r + 1) ** e


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 3), st.integers(1, 12), st.integers(1, 12), st.integers(1, 8), st.integers(1, 8), st.integers(0, 10**6))
def test_observation_1_on_random_parameters(k, d, m, a, b, offset):
    p = _O1_PRINTED.p(d, m, 1 << a, 1 << b, k)
    q = observation_1_case(_O1_PRINTED, k, d, m, a, b, p + offset)
    assert q["r_in_2^-N"] and q["r <= min(eps, delta)"] and q["bracket M^(-1/3k)/2 <= r <= M^(-1/3k)"]
    assert p + offset >= q["(dm/r^2)^k"]


def test_observation_1_mutant_witness():
    st_no4 = ReductionStatement(_p_no4, _O1_PRINTED.j, "no 4")
    q = observation_1_case(st_no4, 1, 1, 2, 1, 1, 72)
    assert _p_no4(1, 2, 2, 2, 1) == 72 and q["j"] == 3 and q["(dm/r^2)^k"] == 128


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 12), st.integers(1, 30), st.sampled_from([0.0, 0.2, 0.35]), st.integers(0, 2**32 - 1))
def test_selection_failure_matches_simulation(r, n_bad, e_good, seed):
    e_bad = e_good + 0.15
    exact = selection_failure(r, n_bad, e_good, e_bad)
    rng = np.random.default_rng(seed)
    T = 20000
    G = rng.binomial(r, e_good, T)
    B = rng.binomial(r, e_bad, (T, n_bad)).min(axis=1)
    freq = np.mean(B <= G)
    assert abs(freq - exact) <= 5 * math.sqrt(exact * (1 - exact) / T) + 1e-3


def test_required_r_is_minimal():
    for eps, delta in ((Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 10), Fraction(1, 20))):
        for union in (lambda r: r**3, lambda r: 1):
            r = required_r(union, eps, delta)
            def ok(rr, union=union, eps=eps, delta=delta):
                return union(rr) * 2 * math.exp(-2 * rr * float(eps / 4) ** 2) <= float(delta / 2)

            assert ok(r) and not ok(r - 1)


@pytest.mark.parametrize("name", list(_TMS))
def test_tm_learners_steps_and_outputs(name):
    tm, intended = _TMS[name]
    rng = np.random.default_rng(0)
    for _ in range(200):
        d = int(rng.integers(1, 6))
        m = int(rng.integers(1, 6))
        data = [(tuple(int(v) for v in rng.choice([-1, 1], d)), int(rng.choice([-1, 1]))) for _ in range(m)]
        steps, out = run_tm(tm, _encode(data), 10**4)
        assert out == intended(data)
        assert steps == (m * (d + 1) + 1 if name == "label-parity" else d + 1)


def test_head_bar_is_continuous_piecewise_linear():
    knots = [Fraction(-1, 6), Fraction(0), Fraction(1, 9), Fraction(1, 6)]
    eps = Fraction(1, 10**9)
    for x in knots:
        assert abs(head_bar(x - eps) - head_bar(x + eps)) <= 40 * eps
    assert head_bar(Fraction(-1, 9)) == 0 and head_bar(Fraction(1, 9)) == 0
    assert head_bar(Fraction(1, 3) + Fraction(1, 9)) == 1 and head_bar(-Fraction(1, 3) + Fraction(1, 9)) == -1


def test_parameter_count_closed_form():
    for s in range(1, 50):
        assert shared_parameter_count(100 * s, 100) == 30000 * s * s + 1000 * s + 200


def test_restart_decision_against_exact_fractions():
    for s, c2 in ((2, 1), (3, 1), (2, 2)):
        pi = Fraction(1, s ** (c2 * s * s))
        for M in (1, 3, 10, 40, 200, 3000):
            if M > 4000:
                continue
            for delta in (Fraction(1, 2), Fraction(1, 8)):
                exact = (1 - pi) ** M <= delta / 2
                assert no_good_restart(M, s, c2, delta)[0] == exact


def test_small_gf2_enumeration_helper_consistency():
    # the exhaustive oracle above relies on gf2_rank of the reference twin: spot-check against the CPU twin
    for code in itertools.islice(range(1 << 9), 0, 512, 7):
        bits = np.array([(code >> j) & 1 for j in range(9)], dtype=np.uint8).reshape(3, 3)
        assert gf2_rank(bits, backend="reference") == gf2_rank(bits, backend="cpu")
