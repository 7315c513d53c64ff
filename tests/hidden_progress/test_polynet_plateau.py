"""Property tests of the helpers behind thesis_ch5.lemma_B.9, thesis_ch5.cor_B.10 and thesis_ch5.thm_5.7.

Oracles: exact rationals (mp_fraction), the 50-digit evaluation of Lemma B.9's bounds against the
float64 path the claim uses, exhaustive evaluation of the network over the cube, and the definitions of
the plateau times evaluated step by step with kernels.boolean.polynet_tails.pm1_error_at.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.boolean.polynet import block_sums, disjoint_polynet_error_exhaustive
from kernels.boolean.polynet_tails import flow_time, pm1_error_at
from verify.hidden_progress.polynet_plateau import (
    _B9_CORRECTED,
    _B9_PRINTED,
    C0,
    _finish_rows,
    _lb_worst,
    _pm1_rows,
    _ub_worst,
    implied_lb_constant,
    lemma_b9_bounds,
    mp_fraction,
    pm1_grid,
)
from verify.hidden_progress.polynet_plateau_times import one_minus_ratio, plateau_crossing

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@given(st.floats(allow_nan=False, allow_infinity=False, width=64))
def test_mp_fraction_is_exact_with_sign(x):
    assert mp_fraction(mpmath.mpf(x)) == Fraction(x)


def test_mp_fraction_of_50_digit_values():
    with mpmath.workdps(50):
        y = -mpmath.erf(mpmath.mpf(1) / 3)
        f = mp_fraction(y)
        assert f < 0 and abs(mpmath.mpf(f.numerator) / f.denominator - y) == 0
    with pytest.raises(ValueError, match="'x'"):
        mp_fraction(mpmath.inf)


@given(st.integers(1, 60))
def test_pm1_grid_counts_give_the_exact_error(m):
    N = 1 << m
    for v, W, Z in pm1_grid(m):
        err = Fraction(2 * N**3 - (N - Z) ** 3 - (N - Z - 2 * W) ** 3, 2 * N**3)
        assert err == pm1_error_at(m, 3, v)


@given(st.integers(1, 30), st.integers(1, 5))
def test_implied_constant_is_the_threshold(m, k):
    rows = _pm1_rows(m)
    with mpmath.workdps(50):
        t = 1 / mpmath.mpf(m) ** 1.5
        for j, v in enumerate(rows.v[0][:12]):
            err = rows.err[(k, 1)][j]
            x = mpmath.erf(mpmath.mpf(v.numerator) / v.denominator / mpmath.sqrt(2 * m))
            c = implied_lb_constant(err, k, x, t)

            def lb(cc, x=x):
                return mpmath.mpf(1) / 2 - (x + cc * t) ** k / 2

            if c is None:
                assert lb(0) <= mpmath.mpf(err.numerator) / err.denominator
            else:
                assert abs(lb(c) - mpmath.mpf(err.numerator) / err.denominator) < mpmath.mpf(10) ** -40
                assert lb(c * (1 - mpmath.mpf(10) ** -6)) > mpmath.mpf(err.numerator) / err.denominator


def _gauss_rows_small(seed, m, k):
    """One random dyadic-Gaussian instance with k blocks and v_i at every support point of block i (ties)."""
    rng = np.random.default_rng(seed)
    us = [np.round(rng.standard_normal(m) * 256) / 256 for _ in range(5)]
    vs, sq2, cube3, inf, err = [], [], [], [], {}
    sums = [block_sums(u) for u in us]
    npos = 8
    for i, u in enumerate(us):
        sup = np.unique(np.abs(sums[i]))
        sup = sup[sup > 0]
        pick = [float(sup[round(q * (len(sup) - 1))]) for q in np.linspace(0, 1, npos)]
        vs.append([Fraction(p) for p in pick])
        fu = [Fraction(float(t)) for t in u]
        sq2.append(sum(t * t for t in fu))
        cube3.append(sum(abs(t) ** 3 for t in fu))
        inf.append(max(abs(t) for t in fu))
    for kk in range(1, k + 1):
        for s in (1, -1):
            err[(kk, s)] = []
            for j in range(npos):
                W = [np.array([float(vs[i][j]) * (s if i == 0 else 1)] + list(us[i])) for i in range(kk)]
                err[(kk, s)].append(Fraction(disjoint_polynet_error_exhaustive(W)))
    return _finish_rows(vs, sq2, cube3, inf, err)


@settings(max_examples=25, deadline=None)
@given(seeds, st.integers(1, 4), st.integers(1, 3))
def test_corrected_bounds_hold_and_float_path_matches_50_digits(seed, m, k):
    rows = _gauss_rows_small(seed, m, k)
    for statement in (_B9_CORRECTED, _B9_PRINTED):
        c = C0
        margin, j, lhs, _ = _lb_worst(statement, c, rows, k, 1)
        with mpmath.workdps(50):
            blocks = [{"v": rows.v[i][j], "sq2": rows.sq2[i], "cube3": rows.cube3[i], "inf": rows.inf[i]} for i in range(5)]
            lb, ub = lemma_b9_bounds(statement, c, blocks, k)
            assert abs(float(lb) - float(lhs)) < 1e-12
            m_ub, j_ub, _, log_ub = _ub_worst(statement, rows, k, 1)
            blocks = [{"v": rows.v[i][j_ub], "sq2": rows.sq2[i], "cube3": rows.cube3[i], "inf": rows.inf[i]} for i in range(5)]
            _, ub = lemma_b9_bounds(statement, c, blocks, k)
            assert abs(float(mpmath.log(ub)) - log_ub) < 1e-9
        if statement is _B9_CORRECTED:
            assert margin <= 0 and m_ub <= 0  # corrected LB <= err <= corrected UB (exhaustive err)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 60), st.integers(3, 6), st.fractions(min_value=Fraction(1, 4), max_value=Fraction(1, 2), max_denominator=100),
       st.sampled_from(["sup", "inf"]))
def test_plateau_time_definitions(m, k, level, kind):
    """T is a time at which err crosses the level, in the stated sense, checked on every step of err."""
    V = plateau_crossing(m, k, level, kind, True)
    pts = [Fraction(a) for a in range(1, m + 3)]
    mids = [a + Fraction(1, 2) for a in range(m + 3) if a + Fraction(1, 2) >= 1]
    if kind == "sup":
        if V is None:
            assert all(pm1_error_at(m, k, v) < level for v in pts + mids)
        else:
            assert all(pm1_error_at(m, k, v) < level for v in pts + mids if v > V)
            assert pm1_error_at(m, k, V) >= level or pm1_error_at(m, k, V - Fraction(1, 2)) >= level
    else:
        assert all(pm1_error_at(m, k, v) > level for v in pts + mids if v < V)
        assert pm1_error_at(m, k, V) <= level or pm1_error_at(m, k, V + Fraction(1, 2)) <= level
    om = one_minus_ratio(m, k, level, kind, "blowup", True)
    T = Fraction(0) if V is None else flow_time(V, k)
    assert om == 1 - T * (k - 2)


@given(st.integers(20, 200), st.integers(3, 6))
def test_float_and_exact_ratios_agree(n, k):
    a = one_minus_ratio(n - 1, k, Fraction(49, 100), "inf", "zero-error", True)
    b = one_minus_ratio(n - 1, k, Fraction(49, 100), "inf", "zero-error", False)
    assert a == b


def test_sup_and_inf_conventions_differ_only_by_ties():
    # Theorem 5.7 at n' = 34, k = 3: err drops to 0.4895 just after t = 0 (the tie at v = 1), so the
    # main-text T(0.49) is 0, while the last tie with err >= 0.49 comes later
    assert plateau_crossing(33, 3, Fraction(49, 100), "inf", True) == 1
    assert pm1_error_at(33, 3, 1) > Fraction(1, 2) > Fraction(49, 100) > pm1_error_at(33, 3, 2)
    V = plateau_crossing(33, 3, Fraction(49, 100), "sup", True)
    assert V > 1 and pm1_error_at(33, 3, V) >= Fraction(49, 100) and pm1_error_at(33, 3, V - 1) < Fraction(49, 100)
    assert math.isclose(float(one_minus_ratio(33, 3, Fraction(49, 100), "inf", "zero-error", True)), 1.0)
