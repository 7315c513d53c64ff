"""kernels.boolean.polynet_tails: the ±1-weight error as a step function of v, its crossings, and the flow times.

Oracles: enumeration of the 2^m block sums (kernels.boolean.polynet.block_sums), the general product formula
(kernels.boolean.polynet.pm1_block_tails + disjoint_polynet_error), exhaustive evaluation of the network over
the cube, the definitions of sup/inf evaluated on every step of err, and the closed-form flow.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.boolean.polynet import (
    block_sums,
    disjoint_polynet_error,
    disjoint_polynet_error_exhaustive,
    pm1_block_tails,
)
from kernels.boolean.polynet_tails import (
    flow_time,
    pm1_crossing,
    pm1_error_at,
    pm1_error_profile,
    pm1_tail_counts,
    pm1_tail_probs,
)

levels_01 = st.fractions(min_value=0, max_value=1, max_denominator=200)


@given(st.integers(0, 14))
def test_tail_counts_equal_enumeration(m):
    sums = block_sums(np.ones(m))
    levels, W, Z = pm1_tail_counts(m)
    assert levels == list(range(m % 2, m + 1, 2))
    for a, w, z in zip(levels, W, Z):
        assert w == int(np.sum(sums < -a)) and z == int(np.sum(sums == -a))


@settings(max_examples=40)
@given(st.integers(0, 600))
def test_float_tails_match_exact_counts(m):
    levels, W, Z = pm1_tail_counts(m)
    a, pw, pz = pm1_tail_probs(m)
    N = 1 << m
    assert a.tolist() == levels
    assert np.max(np.abs(pw - np.array([float(Fraction(w, N)) for w in W]))) < 1e-14
    assert np.max(np.abs(pz - np.array([float(Fraction(z, N)) for z in Z]))) < 1e-14


@given(st.integers(0, 12), st.integers(1, 5), st.fractions(min_value=Fraction(1, 8), max_value=14, max_denominator=8))
def test_error_at_equals_general_formula(m, k, v):
    assert pm1_error_at(m, k, v) == disjoint_polynet_error([v] * k, [pm1_block_tails(m, v)] * k)


@pytest.mark.parametrize("n_prime,k", [(2, 3), (3, 3), (4, 2), (5, 3), (4, 4)])
def test_error_at_equals_exhaustive_cube(n_prime, k):
    for v in (Fraction(1, 2), Fraction(1), Fraction(2), Fraction(5, 2), Fraction(n_prime - 1), Fraction(n_prime)):
        W = [np.array([float(v)] + [1.0] * (n_prime - 1))] * k
        assert Fraction(disjoint_polynet_error_exhaustive(W)) == pm1_error_at(n_prime - 1, k, v)


@given(st.integers(0, 40), st.integers(1, 6))
def test_profile_values_are_the_error_on_each_step(m, k):
    prof = pm1_error_profile(m, k)
    for a, tie, above in zip(prof["levels"], prof["tie"], prof["above"]):
        if a > 0:
            assert tie == pm1_error_at(m, k, a)
        assert above == pm1_error_at(m, k, a + 1) == pm1_error_at(m, k, a + Fraction(1, 3))
        assert above <= tie or a == 0
    if m % 2:
        assert prof["below_first"] == pm1_error_at(m, k, Fraction(1, 2))
    else:
        assert prof["below_first"] is None
    fl = pm1_error_profile(m, k, exact=False)
    assert np.allclose(fl["tie"], [float(x) for x in prof["tie"]], atol=1e-13, rtol=0)
    assert np.allclose(fl["above"], [float(x) for x in prof["above"]], atol=1e-13, rtol=0)


def _by_definition(m, k, level, kind, v0):
    """sup{v >= v0 : err >= level} / inf{v >= v0 : err <= level} from pm1_error_at on every step."""
    pts = sorted({Fraction(a) for a in range(m + 3)} | {Fraction(v0)})
    steps = []  # (lo, hi, err) with lo == hi for points
    for lo, hi in itertools.pairwise(pts):
        if lo > 0:
            steps.append((lo, lo, pm1_error_at(m, k, lo)))
        steps.append((lo, hi, pm1_error_at(m, k, (lo + hi) / 2)))
    steps.append((pts[-1], pts[-1], pm1_error_at(m, k, pts[-1])))
    steps.append((pts[-1], math.inf, Fraction(0)))
    if kind == "sup":
        best = None
        for lo, hi, e in steps:
            if e >= level and (hi > v0 if lo != hi else lo >= v0):
                best = hi if lo != hi else lo
        return best
    for lo, hi, e in steps:
        if e <= level and (hi > v0 if lo != hi else lo >= v0):
            return max(lo, v0) if lo != hi else lo
    return None


@settings(max_examples=150)
@given(st.integers(0, 30), st.integers(1, 6), levels_01, st.sampled_from(["sup", "inf"]),
       st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(3), Fraction(7, 2)]))
def test_crossing_matches_definition(m, k, level, kind, v0):
    got = pm1_crossing(m, k, level, kind=kind, v0=v0).value
    want = _by_definition(m, k, level, kind, v0)
    if kind == "sup" and level == 0:
        assert got == math.inf
    else:
        assert got == want


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400), st.integers(2, 6), levels_01, st.sampled_from(["sup", "inf"]))
def test_float_crossing_equals_exact(m, k, level, kind):
    exact = pm1_crossing(m, k, level, kind=kind)
    fl = pm1_crossing(m, k, float(level), kind=kind, exact=False)
    if fl.margin is not None and fl.margin <= 1e-10:
        return  # the caller must not trust the float route here
    assert fl.value == exact.value


def test_crossing_reference_values():
    # Theorem 5.7 main-text convention: inf{v >= 1 : err(v) <= 0.49}, all-ones init
    for (k, n), v in {(3, 40): 3, (3, 160): 5, (3, 320): 7, (4, 80): 5, (6, 40): 5, (3, 10): 1}.items():
        assert pm1_crossing(n - 1, k, Fraction(49, 100), kind="inf").value == v
    # zero error only beyond the support
    for m in (1, 2, 9, 50):
        assert pm1_crossing(m, 3, 0, kind="inf").value == m
        assert pm1_error_at(m, 3, m) > 0 and pm1_error_at(m, 3, m + Fraction(1, 2)) == 0


@given(st.integers(3, 8), st.fractions(min_value=0, max_value=Fraction(49, 50), max_denominator=50))
def test_flow_time_inverts_the_closed_form(k, s):
    # |v(t)| = (1 - (k-2) t)^{-1/(k-2)}: at t = s/(k-2), v^{k-2} = 1/(1 - s); flow_time(v) must be t
    t = s / (k - 2)
    v = (1 / (1 - float(s))) ** (1 / (k - 2))
    assert abs(flow_time(v, k) - float(t)) < 1e-12
    assert flow_time(math.inf, k) == Fraction(1, k - 2)
    assert flow_time(2, k) == (1 - Fraction(1, 2 ** (k - 2))) / (k - 2)


def test_flow_time_against_ode_integration():
    from scipy.integrate import solve_ivp

    for k in (2, 3, 5):
        def rhs(t, y, k=k):
            return [y[0] ** (k - 1)]

        sol = solve_ivp(rhs, (0, 0.3 if k > 2 else 2.0), [1.0], rtol=1e-12, atol=1e-12, dense_output=True)
        for t in np.linspace(0.05, sol.t[-1], 5):
            assert abs(float(flow_time(float(sol.sol(t)[0]), k)) - t) < 1e-8


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: pm1_tail_counts(-1), "'m'", id="m-negative"),
        pytest.param(lambda: pm1_tail_counts(10**6), r"\[0, 20000\]", id="m-too-big-exact"),
        pytest.param(lambda: pm1_crossing(5, 0, Fraction(1, 2), kind="sup"), "'k'", id="k-zero"),
        pytest.param(lambda: pm1_crossing(5, 3, Fraction(1, 2), kind="max"), "'kind'", id="bad-kind"),
        pytest.param(lambda: pm1_crossing(5, 3, Fraction(1, 2), kind="sup", v0=0), "'v0'", id="v0-zero"),
        pytest.param(lambda: pm1_error_at(5, 3, 0), "'v'", id="v-zero"),
        pytest.param(lambda: flow_time(Fraction(1, 2), 3), "'v'", id="v-below-v0"),
        pytest.param(lambda: flow_time(2, 1), "'k'", id="k-one"),
        pytest.param(lambda: pm1_error_profile(5, 3, a_max=-1), "'a_max'", id="a-max-negative"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def _crossing_by_fraction_profile(m, k, level, kind, v0):
    """The exact route as it was before the integer scan: the Fraction profile of every window, then the scan."""
    from kernels.boolean.polynet_tails import _exact_profile, _regions, _window_top

    level = Fraction(level)
    counts = pm1_tail_counts(m)
    top = _window_top(m, k, float(level))
    while True:
        keep = sum(1 for a in counts[0] if a <= top)
        prof = _exact_profile(m, k, counts, keep)
        levels = prof["levels"]
        if top >= m:
            break
        i = len(levels) - 1
        tail = Fraction(k * (counts[1][i] + counts[2][i]), 1 << m)
        if (kind == "sup" and tail < level) or (kind == "inf" and tail <= level):
            break
        top = min(m, 2 * top + 2)
    regions = _regions(levels, prof["tie"], prof["above"], prof["below_first"])
    if top >= m:
        regions.append((m, math.inf, Fraction(0)))
    steps = len(regions)
    if kind == "sup":
        for lo, hi, val in reversed(regions):
            if lo == hi:
                if lo >= v0 and val >= level:
                    return lo, steps
            elif hi > v0 and val >= level:
                return hi, steps
        return None, steps
    for lo, hi, val in regions:
        if lo == hi:
            if lo >= v0 and val <= level:
                return lo, steps
        elif hi > v0 and val <= level:
            return max(lo, v0), steps
    raise AssertionError


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 160), st.integers(1, 6), levels_01, st.sampled_from(["sup", "inf"]),
       st.sampled_from([Fraction(1), Fraction(1, 2), Fraction(3), Fraction(7, 2), 1, 2.5]))
def test_exact_crossing_scan_equals_the_fraction_profile_scan(m, k, level, kind, v0):
    if (kind == "sup" and level <= 0) or (kind == "inf" and level == 0):
        return  # answered before any scan
    def outcome(f):
        try:
            return f()
        except AssertionError:  # "unreachable" (v0 above the window's qualifying steps): raised by both alike
            return "AssertionError"

    got = outcome(lambda: (lambda c: (c.value, c.steps))(pm1_crossing(m, k, level, kind=kind, v0=v0)))
    assert got == outcome(lambda: _crossing_by_fraction_profile(m, k, level, kind, v0))


def test_tail_counts_are_fresh_lists():
    a = pm1_tail_counts(7)
    a[1][0] = -5
    assert pm1_tail_counts(7)[1][0] != -5 and all(isinstance(x, list) for x in pm1_tail_counts(7))


def test_memoised_float_tails_equal_a_fresh_binom_sf_call():
    """pm1_tail_probs reuses per-m runs of binom.sf (elementwise): the values are those of one fresh call, bit for bit."""
    from scipy.stats import binom

    def fresh(m, a_max):
        top = m if a_max is None else min(a_max, m)
        a = np.arange(m % 2, top + 1, 2, dtype=np.int64)
        j = (m + a) // 2
        ks = np.concatenate([j[:1] - 1, j]).astype(np.float64)
        S = np.where(ks < 0, 1.0, binom.sf(np.maximum(ks, 0), m, 0.5))
        return a, S[1:], np.maximum(S[:-1] - S[1:], 0.0)

    rng = np.random.default_rng(7)
    reqs = [(m, None if rng.random() < 0.2 else int(rng.integers(0, 2500)))
            for m in list(range(0, 25)) + [999, 1000, 1001, 99_999, 10**6] * 4 for _ in range(4)]
    rng.shuffle(reqs)
    for m, top in reqs:
        got, want = pm1_tail_probs(m, top), fresh(m, top)
        assert all(x.dtype == y.dtype and x.shape == y.shape and x.tobytes() == y.tobytes() for x, y in zip(got, want)), (m, top)
    got = pm1_tail_probs(1000, 40)
    got[1][0] = -1.0  # the caller's arrays are its own
    assert pm1_tail_probs(1000, 40)[1][0] >= 0
