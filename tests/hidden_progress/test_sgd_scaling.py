"""Tests of verify/hidden_progress/sgd_scaling.py (thesis_ch5.finding_5.1) and sgd_scaling_random_search.py
(thesis_ch5.random_search.*).

Oracles: exhaustive enumeration and exact rationals for the random-search model; exact power laws for
the slope fit; the training engine's determinism (a run's data are a function of (seed, step), so a
run's t_c depends on nothing but its seed and the hyper-parameters); and the claims themselves at the
quick tier (verdicts and mutant rejection).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.hidden_progress.sgd_scaling import (
    FINDING_ID,
    bootstrap_medians,
    censored_median,
    convergence_times,
    loglog_slopes,
    percentile_ci,
)
from verify.hidden_progress.sgd_scaling_random_search import (
    RS_ID,
    WIDTH_ID,
    log_spread,
    random_search_expectation,
    random_search_no_success_binomial,
    random_search_no_success_enumerated,
    random_search_tail,
)
from verify.registry import InvalidParameter, Status, get_claim, run_claim

# ---------------------------------------------------------------------------------------------
# the random-search model
# ---------------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.integers(1, 3), st.integers(1, 3))
def test_enumeration_equals_binomial_equals_product(n, k, r):
    k = min(k, n - 1)
    p = Fraction(1, math.comb(n, k))
    p0 = random_search_no_success_enumerated(n, k, r)
    assert p0 == random_search_no_success_binomial(p, r) == (1 - p) ** r
    assert random_search_expectation(p, r) == 1 / (1 - p0)


@given(st.integers(1, 5000), st.integers(1, 400))
def test_expectation_sandwich_is_exact(C, r):
    p = Fraction(1, C)
    E = random_search_expectation(p, r)
    assert Fraction(C, r) <= E <= Fraction(C, r) + 1
    if r == 1:
        assert E == C


def test_slack_one_half_fails_only_when_rp_is_large():
    # (4, 2, 6): C = 6, r = 6: E = 46656/31031, E - C/r = 15625/31031 > 1/2
    E = random_search_expectation(Fraction(1, 6), 6)
    assert E == Fraction(46656, 31031) and E - 1 > Fraction(1, 2)
    # small r p: E - C/r -> (r - 1)/(2r) < 1/2
    assert random_search_expectation(Fraction(1, 4060), 10) - Fraction(4060, 10) < Fraction(1, 2)


def test_tail_matches_the_exact_geometric_law():
    C, r = 120, 3
    q = 1 - (1 - Fraction(1, C)) ** r
    m = next(t for t in range(1, 10_000) if 1 - (1 - q) ** t >= Fraction(1, 2))
    tail = random_search_tail(1 / C, r)
    assert tail["median"] == m
    assert tail["P(T <= median/2)"] == pytest.approx(float(1 - (1 - q) ** (m // 2)), rel=1e-12)
    assert tail["mean"] == pytest.approx(float(1 / q), rel=1e-12)
    # a geometric law with a median >> 1 puts ~1 - 2^{-1/2} of its mass below half its median
    assert abs(tail["P(T <= median/2)"] - (1 - 2**-0.5)) < 0.01


@pytest.mark.parametrize(
    ("fn", "args", "name"),
    [
        (random_search_expectation, (Fraction(0), 3), "'p'"),
        (random_search_expectation, (Fraction(1, 2), 0), "'r'"),
        (random_search_no_success_binomial, (Fraction(3, 2), 2), "'p'"),
        (random_search_no_success_enumerated, (4, 5, 1), "'k'"),
        (random_search_no_success_enumerated, (4, 2, 7), "'r'"),
    ],
)
def test_bad_arguments_are_named(fn, args, name):
    with pytest.raises(ValueError, match=name):
        fn(*args)


# ---------------------------------------------------------------------------------------------
# statistics
# ---------------------------------------------------------------------------------------------


def test_censored_median_is_finite_iff_more_than_half_converged():
    inf = math.inf
    assert censored_median([1, 2, inf]) == 2
    assert censored_median([1, 2, inf, inf]) == inf  # exactly half: undefined
    assert censored_median([1, 2, 3, inf]) == 2.5
    assert censored_median([inf, inf, 5]) == inf


@given(st.floats(0.1, 4.0), st.floats(0.5, 1000.0), st.lists(st.integers(4, 64), min_size=2, max_size=6, unique=True))
def test_loglog_slope_recovers_a_power_law(alpha, c, ns):
    med = [c * n**alpha for n in ns]
    assert loglog_slopes(ns, med) == pytest.approx(alpha, rel=1e-9, abs=1e-9)


def test_loglog_slope_is_nan_with_a_censored_median_and_validates():
    assert np.isnan(loglog_slopes([10, 20], [5.0, math.inf]))
    with pytest.raises(ValueError, match="'ns'"):
        loglog_slopes([10, 10], [1.0, 2.0])
    with pytest.raises(ValueError, match="'medians'"):
        loglog_slopes([10, 20, 30], [1.0, 2.0])


def test_percentile_ci_counts_undefined_replicates_against_the_interval():
    v = np.arange(1000, dtype=float)
    lo, hi = percentile_ci(v)
    assert lo == pytest.approx(24, abs=1) and hi == pytest.approx(975, abs=1)
    w = v.copy()
    w[:100] = np.nan  # 10% undefined: both ends become unbounded
    assert percentile_ci(w) == (-math.inf, math.inf)
    with pytest.raises(ValueError, match="'confidence'"):
        percentile_ci(v, 1.5)


def test_bootstrap_is_seeded_and_validates():
    tc = np.array([3.0, 5, 8, 13, 21, 34, math.inf])
    a = bootstrap_medians(tc, 500, np.random.default_rng(7))
    b = bootstrap_medians(tc, 500, np.random.default_rng(7))
    assert np.array_equal(a, b) and set(np.unique(a)) <= set(tc) | {math.inf}
    with pytest.raises(ValueError, match="'boot'"):
        bootstrap_medians(tc, 0, np.random.default_rng(0))


def test_log_spread_is_scale_free_and_nan_when_censored():
    x = np.array([100.0, 120, 150, 400])
    assert log_spread(3 * x) == pytest.approx(log_spread(x), rel=1e-12)
    assert np.isnan(log_spread(np.append(x, math.inf)))


# ---------------------------------------------------------------------------------------------
# determinism of convergence times (the engine's counter-based data stream)
# ---------------------------------------------------------------------------------------------

_SEEDS = np.array([11, 22, 33, 44, 55, 66], dtype=np.uint64)


def _tc(seeds, eval_every=1, dtype="float32"):
    return convergence_times(12, 3, width=20, seeds=seeds, steps=3000, lr=1.0, eval_every=eval_every,
                             dtype=dtype).tc


def test_same_seed_same_t_c_and_reordering_runs_changes_nothing():
    a = _tc(_SEEDS)
    assert np.all(np.isfinite(a))
    assert np.array_equal(a, _tc(_SEEDS))
    perm = np.array([3, 0, 5, 1, 4, 2])
    assert np.array_equal(_tc(_SEEDS[perm]), a[perm])
    assert np.array_equal(_tc(_SEEDS[[4]]), a[[4]])  # a run replayed alone


def test_coarser_evaluation_grid_converges_no_earlier_and_on_its_grid():
    fine = _tc(_SEEDS, eval_every=1)
    coarse = _tc(_SEEDS, eval_every=10)
    assert np.all(coarse >= fine)
    assert np.all(coarse % 10 == 0)
    on_grid = fine % 10 == 0  # a first hit on a multiple of 10 is seen by both grids
    assert np.array_equal(coarse[on_grid], fine[on_grid])


def test_cap_censors_runs():
    cr = convergence_times(12, 3, width=20, seeds=_SEEDS, steps=5, lr=1.0, eval_every=1)
    assert cr.converged == 0 and np.all(np.isinf(cr.tc))
    assert censored_median(cr.tc) == math.inf


# ---------------------------------------------------------------------------------------------
# the claims at the quick tier (verdicts and mutants)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cid", [RS_ID, FINDING_ID, WIDTH_ID])
def test_claim_verdict_and_mutants(claim_result, cid):
    r = claim_result(cid)  # computed once per process, shared with verify/test_claims.py (conftest.py)
    assert r.status == get_claim(cid).expect
    assert r.status in (Status.CONFIRMED, Status.REPRODUCED)
    assert r.mutants and all(m.rejected for m in r.mutants), [m.mutant.name for m in r.mutants if not m.rejected]
    for m in r.mutants:
        assert m.verdict.witness is not None


@pytest.mark.parametrize("cid", [FINDING_ID])  # the claim id as the test id: the claim's pytest-xdist work unit
def test_finding_mutants_are_rejected_for_their_own_reasons(claim_result, cid):
    r = claim_result(cid)
    by_name = {m.mutant.name: m.verdict for m in r.mutants}
    assert "lower CI end <= 1.0" in by_name["no-k-dependence"].witness["case"]["part"]
    assert "random-search" in by_name["random-search"].witness["case"]["part"]
    abl = by_name["z2-ablation"].witness["case"]
    assert abl["converged"] == 0 and abl["99% upper bound"] < 0.2
    assert abl["max held-out accuracy over all evaluations and runs"] < 1.0
    slopes = r.printed.details["log-log slopes alpha_k of median t_c vs n"]
    assert 0 < slopes["k=2"]["alpha_k"] < slopes["k=3"]["alpha_k"] < 2


@pytest.mark.parametrize("cid", [WIDTH_ID])
def test_width_random_search_mutant_fails_on_the_median_ratio(claim_result, cid):
    m = next(m for m in claim_result(cid).mutants if m.mutant.name == "random-search")
    assert "r_min/r_max" in m.verdict.witness["case"]["part"]


def test_bad_parameters_are_refused():
    with pytest.raises(InvalidParameter, match="'ns'"):
        run_claim(FINDING_ID, tier="quick", params={"ns": "10"}, mutants=False)
    with pytest.raises(InvalidParameter, match="'widths'"):
        run_claim(WIDTH_ID, tier="quick", params={"widths": "2,10"}, mutants=False)
    with pytest.raises(InvalidParameter, match="'runs'"):
        run_claim(WIDTH_ID, tier="quick", params={"runs": 3}, mutants=False)
