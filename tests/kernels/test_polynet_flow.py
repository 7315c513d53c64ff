"""Gradient flow of disjoint-PolyNets (kernels.boolean.polynet_flow): the exhaustive gradient against the closed
form and against exact loss differences, the compiled integrator against scipy (the reference twin) and
the closed forms, the Gauss-Legendre quadrature against scipy quad and Carlson's R_F, the block laws
against enumeration and the cube, bad input."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import elliprf

from kernels.boolean.polynet import disjoint_polynet_error_exhaustive
from kernels.boolean.polynet_flow_quadrature import (
    abs_block_sums,
    crossing_q,
    error_after,
    error_at,
    flow_levels,
    flow_time,
    sampled_abs_block_sums,
)
from kernels.boolean.polynet_flow import (
    full_flow_rhs,
    polynet_population_gradient,
    polynet_population_loss,
    relevant_flow,
    relevant_velocity,
)


@st.composite
def rational_weights(draw, *, max_n: int = 10, max_num: int = 4):
    """k blocks of n' rationals p/q (k n' <= max_n); shrinks toward k = n' = 1 and zero weights."""
    k = draw(st.integers(1, 4))
    n_prime = draw(st.integers(1, max(1, max_n // k)))
    num = st.integers(-max_num, max_num)
    den = st.integers(1, 4)
    return [[Fraction(draw(num), draw(den)) for _ in range(n_prime)] for _ in range(k)]


@st.composite
def flow_inits(draw, *, min_k: int = 2, max_k: int = 6):
    """v(0) with magnitudes in [0.05, 5] and prod v_i(0) > 0 (built by construction: the last sign fixes it)."""
    k = draw(st.integers(min_k, max_k))
    mags = draw(st.lists(st.floats(0.05, 5.0), min_size=k, max_size=k))
    signs = draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=k - 1, max_size=k - 1))
    signs.append(float(np.prod(signs)) if signs else 1.0)
    return np.array(mags) * np.array(signs)


def _closed_form(W, i, j):
    return -prod((W[l][0] for l in range(len(W)) if l != i), start=Fraction(1)) if j == 0 else Fraction(0)


@given(rational_weights())
def test_exhaustive_gradient_is_the_closed_form_exactly(W):
    g = polynet_population_gradient(W, exact=True)
    assert all(g[i][j] == _closed_form(W, i, j) for i in range(len(W)) for j in range(len(W[0])))


@given(rational_weights(max_n=8))
def test_gradient_equals_exact_loss_differences(W):
    # L is affine in each single weight: the difference with step 1 is the partial derivative
    g = polynet_population_gradient(W, exact=True)
    L0 = polynet_population_loss(W, exact=True)
    for i, j in itertools.product(range(len(W)), range(len(W[0]))):
        W2 = [list(b) for b in W]
        W2[i][j] += 1
        assert polynet_population_loss(W2, exact=True) - L0 == g[i][j]


@given(rational_weights(max_n=8))
def test_float_gradient_and_loss_match_exact(W):
    Wf = np.array([[float(x) for x in b] for b in W])
    g = polynet_population_gradient(W, exact=True)
    assert np.allclose(polynet_population_gradient(Wf), np.array(g, dtype=float), atol=1e-12)
    assert abs(polynet_population_loss(Wf) - float(polynet_population_loss(W, exact=True))) < 1e-12


def test_loss_by_brute_force_and_the_modular_path():
    # a brute-force sum over the cube (Python ints) against the kernel, with weights so large that the
    # int64 guard sends the kernel to the residues-and-CRT path
    W = [[Fraction(10**6 + 3 * i + j, 7) for j in range(2)] for i in range(5)]
    k, n_prime = 5, 2
    total = 0
    for x in itertools.product([1, -1], repeat=k * n_prime):
        y = prod(x[l * n_prime] for l in range(k))
        total += y * prod(sum(W[l][j] * x[l * n_prime + j] for j in range(n_prime)) for l in range(k))
    assert polynet_population_loss(W, exact=True) == -total / 2 ** (k * n_prime)
    g = polynet_population_gradient(W, exact=True)
    assert g[2][0] == _closed_form(W, 2, 0) and g[2][1] == 0


def test_full_flow_rhs_is_minus_the_gradient():
    rng = np.random.default_rng(1)
    W = rng.standard_normal((3, 4))
    rhs = full_flow_rhs(3, 4)
    assert np.allclose(rhs(0.0, W.ravel()).reshape(3, 4), -polynet_population_gradient(W), atol=1e-14)


@given(st.lists(st.floats(-3, 3), min_size=1, max_size=7))
def test_relevant_velocity_is_the_product_of_the_others(v):
    v = np.array(v)
    expected = [np.prod(np.delete(v, i)) for i in range(v.shape[0])]
    assert np.allclose(relevant_velocity(v), expected, rtol=1e-14, atol=1e-300)


@settings(max_examples=15)
@given(flow_inits())
def test_integrator_matches_the_scipy_reference(v0):
    M = float(np.max(np.abs(v0)))
    th = M * np.array([1.2, 2.0, 5.0])
    t_out = np.linspace(0.0, 0.5, 4) if v0.shape[0] == 2 else None
    kw = {"thresholds": th, "b_stop": 5.0 * M * 1.0000001}
    if t_out is not None:
        kw["t_out"] = t_out
    a = relevant_flow(v0, **kw)
    b = relevant_flow(v0, backend="reference", **kw)
    assert a.status[0] == 0 and b.status[0] == 0
    assert np.array_equal(np.isfinite(a.event_times), np.isfinite(b.event_times))
    fin = np.isfinite(a.event_times)
    assert np.allclose(a.event_times[fin], b.event_times[fin], rtol=1e-8, atol=1e-12)
    if t_out is not None:
        assert np.allclose(a.v_out, b.v_out, rtol=1e-8)


@pytest.mark.parametrize("k", [2, 3, 4, 5, 7])
@pytest.mark.parametrize("a", [0.5, 1.0, 2.0])
def test_integrator_against_the_equal_init_closed_form(k, a):
    b = a * np.array([1.5, 3.0, 10.0])
    T = np.log(b / a) if k == 2 else (a ** (2 - k) - b ** (2 - k)) / (k - 2)
    t_end = 1.0 if k == 2 else 0.9 * a ** (2 - k) / (k - 2)
    t = np.linspace(0.0, t_end, 6)
    v = a * np.exp(t) if k == 2 else (a ** (2 - k) - (k - 2) * t) ** (-1 / (k - 2))
    r = relevant_flow(np.full(k, a), thresholds=b, t_out=t, b_stop=np.inf, t_max=max(t_end, T.max()) * 1.01)
    assert np.allclose(r.event_times[0], np.broadcast_to(T, (k, 3)), rtol=1e-10)
    assert np.allclose(r.v_out[0], v[:, None], rtol=1e-9)


@settings(max_examples=15)
@given(flow_inits(min_k=3, max_k=8), st.floats(1.0, 10.0))
def test_lemma_b8_invariants_along_the_flow(v0, factor):
    # conservation of v_i^2 - v_l^2; (e) and (f) of Lemma B.8 at b = factor * max|v(0)|
    k = v0.shape[0]
    c = v0**2
    va, vg = c.mean(), np.exp(np.log(c).mean())
    b = factor * float(np.max(np.abs(v0))) * 1.001
    Tinf = flow_time(c, np.inf)
    r = relevant_flow(v0, thresholds=[b], b_stop=b * 1.0000001)
    vs = r.v_stop[0]
    assert np.allclose(vs**2 - vs[0] ** 2, c - c[0], atol=1e-8 * b * b)
    for i in range(k):
        Ti = r.event_times[0, i, 0]
        if not np.isfinite(Ti):
            continue
        e = (va ** (1 - k / 2) - (va + b * b - c[i]) ** (1 - k / 2)) / (k - 2)
        f = (vg + b * b - c[i]) ** (1 - k / 2) / (k - 2)
        assert e <= Ti + 1e-9 * Tinf
        assert Tinf - Ti <= f + 1e-9 * Tinf
    assert va ** (1 - k / 2) / (k - 2) <= Tinf * (1 + 1e-12) and Tinf <= vg ** (1 - k / 2) / (k - 2) * (1 + 1e-12)


@settings(max_examples=20)
@given(flow_inits(min_k=1, max_k=6), st.floats(0.0, 50.0), st.floats(0.0, 1.0))
def test_quadrature_twins_agree(v0, q_hi, frac):
    c = v0**2
    lo = frac * q_hi
    a = flow_time(c, q_hi, lo)
    b = flow_time(c, q_hi, lo, backend="reference")
    assert abs(a - b) <= 1e-11 * max(b, 1e-300) + 1e-15


@given(st.lists(st.floats(0.01, 20.0), min_size=3, max_size=3))
def test_blowup_time_is_carlson_rf_for_k3(c):
    c = np.array(c)
    assert abs(flow_time(c, np.inf) - elliprf(*c)) <= 1e-13 * elliprf(*c)


def test_blowup_time_for_equal_init_and_k_le_2():
    for k, a in [(3, 0.5), (4, 2.0), (6, 1.0)]:
        assert abs(flow_time(np.full(k, a * a), np.inf) - a ** (2 - k) / (k - 2)) <= 1e-13 * a ** (2 - k)
    assert flow_time(np.ones(2), np.inf) == np.inf
    # k = 1: v = v0 + t, so q = (v0 + t)^2 - v0^2 and t(q) = sqrt(q + v0^2) - v0
    assert abs(flow_time(np.array([4.0]), 5.0) - 1.0) < 1e-13


@given(st.lists(st.integers(-3, 3), min_size=0, max_size=7), st.booleans())
def test_abs_block_sums_against_enumeration(u, gaussian):
    u = np.random.default_rng(abs(hash(tuple(u))) % 2**32).standard_normal(len(u)) if gaussian else np.array(u, dtype=float)
    m = u.shape[0]
    if m == 0:
        assert abs_block_sums(u).tolist() == [0.0]
        return
    allsums = sorted(abs(float(np.dot(u, z))) for z in itertools.product([1, -1], repeat=m) if z[0] == 1)
    for backend in ("cpu", "reference"):
        got = abs_block_sums(u, backend=backend)
        assert got.shape == (2 ** (m - 1),)
        assert np.all(np.diff(got) >= 0)
        assert np.allclose(got, allsums, atol=1e-12)


@settings(max_examples=15)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(0, 2**32 - 1), st.booleans())
def test_error_along_the_flow_equals_the_cube(k, n_prime, seed, integer):
    rng = np.random.default_rng(seed)
    v = np.abs(rng.standard_normal(k)) + 0.1
    U = rng.integers(-2, 3, (k, n_prime - 1)).astype(float) if integer else rng.standard_normal((k, n_prime - 1))
    if integer:
        v = v + 0.25  # keep |v_i| off the integer lattice of the sums: no ties
    sums = [abs_block_sums(u) for u in U]
    exhaustive = disjoint_polynet_error_exhaustive([np.concatenate([[v[i]], U[i]]) for i in range(k)])
    assert abs(float(error_at(sums, v)) - exhaustive) < 1e-12
    levels = flow_levels(sums, np.zeros(k) + 0.01)
    q = v**2 - 0.01
    assert abs(float(error_after(levels, q[0])) - float(error_at(sums, np.sqrt(q[0] + 0.01) * np.ones(k)))) < 1e-15


@settings(max_examples=25)
@given(st.integers(1, 4), st.integers(1, 9), st.integers(0, 2**32 - 1), st.booleans(), st.sampled_from([0.0, 0.05, 0.2, 0.4, 0.49]))
def test_crossing_twins_agree_and_err_drops_there(k, n_prime, seed, integer, alpha):
    rng = np.random.default_rng(seed)
    U = rng.integers(-2, 3, (k, n_prime - 1)).astype(float) if integer else rng.standard_normal((k, n_prime - 1))
    c = rng.standard_normal(k) ** 2 + 1e-3
    levels = flow_levels([abs_block_sums(u) for u in U], c)
    strict = alpha > 0
    try:
        ref = crossing_q(levels, alpha, strict=strict, backend="reference")
    except ValueError:
        with pytest.raises(ValueError):
            crossing_q(levels, alpha, strict=strict)
        with pytest.raises(ValueError):
            crossing_q(np.stack(levels), alpha, strict=strict)
        return
    q = crossing_q(levels, alpha, strict=strict)
    assert q == ref
    assert crossing_q(np.stack(levels), alpha, strict=strict) == q  # the pre-stacked form: the same value
    below = (lambda e: e < alpha) if strict else (lambda e: e <= alpha)
    assert below(float(error_after(levels, q)))
    if q > 0:
        assert not below(float(error_after(levels, np.nextafter(q, 0.0))))


@given(st.integers(1, 4), st.integers(1, 9), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_sampled_block_sums_against_numpy(B, m, S, seed):
    rng = np.random.default_rng(seed)
    U = rng.standard_normal((B, m))
    Z = rng.choice(np.array([-1, 1], dtype=np.int8), size=(S, m))
    got = sampled_abs_block_sums(U, Z)
    assert np.allclose(got, np.sort(np.abs(Z.astype(float) @ U.T).T, axis=1), atol=1e-12)
    assert np.all(np.diff(got, axis=1) >= 0)


def test_zero_error_level_is_the_l1_norm():
    rng = np.random.default_rng(7)
    U = rng.standard_normal((3, 6))
    c = rng.standard_normal(3) ** 2
    levels = flow_levels([abs_block_sums(u) for u in U], c)
    q0 = max(0.0, float(np.max(np.abs(U).sum(axis=1) ** 2 - c)))
    assert abs(crossing_q(levels, 0.0, strict=False) - q0) <= 1e-12 * q0


@pytest.mark.parametrize(
    "call,match",
    [
        pytest.param(lambda: polynet_population_gradient([[1, 2], [3]]), "equal length", id="ragged-blocks"),
        pytest.param(lambda: polynet_population_gradient([]), "k >= 1", id="no-blocks"),
        pytest.param(lambda: polynet_population_loss([[1] * 13, [1] * 13]), r"\[0, 24\]", id="cube-too-big"),
        pytest.param(lambda: polynet_population_loss([[Fraction(2**41)]], exact=True), "2\\^40", id="weights-too-big"),
        pytest.param(lambda: full_flow_rhs(7, 3), r"\[0, 20\]", id="full-flow-too-big"),
        pytest.param(lambda: relevant_flow(np.ones(3)), "cannot both be infinite", id="unbounded-run"),
        pytest.param(lambda: relevant_flow(np.ones(3), b_stop=-1.0), "'b_stop'", id="b-stop-negative"),
        pytest.param(lambda: relevant_flow(np.ones(3), b_stop=2.0, rtol=0.5), "'rtol'", id="rtol-too-big"),
        pytest.param(lambda: relevant_flow(np.ones(3), b_stop=2.0, t_out=[1.0, 0.5]), "'t_out'", id="t-out-decreasing"),
        pytest.param(lambda: relevant_flow(np.ones(3), b_stop=2.0, backend="cuda"), "'backend'", id="flow-backend"),
        pytest.param(lambda: flow_time(np.array([1.0, 0.0, 1.0]), 1.0), "'c'", id="c-zero"),
        pytest.param(lambda: flow_time(np.ones(3), 1.0, 2.0), "q_lo <= q_hi", id="q-order"),
        pytest.param(lambda: abs_block_sums(np.ones((2, 2))), "1-D", id="u-2d"),
        pytest.param(lambda: abs_block_sums(np.ones(27)), r"\[0, 26\]", id="u-too-long"),
        pytest.param(lambda: crossing_q([np.array([0.0, 1.0])], 0.0, strict=True), "never reached", id="alpha-unreachable"),
        pytest.param(lambda: crossing_q([], 0.1), "non-empty", id="no-levels"),
        pytest.param(lambda: sampled_abs_block_sums(np.ones((2, 3)), np.ones((4, 3), dtype=np.int8) * 2), "signs", id="z-not-signs"),
        pytest.param(lambda: sampled_abs_block_sums(np.ones((2, 3)), np.ones((4, 2), dtype=np.int8)), "share m", id="z-shape"),
    ],
)
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_symbolic_residuals_vanish_and_detect_the_flipped_exponent():
    from proofs import polynet_flow as P

    assert all(r == 0 for r in P.equal_init_solution_residual() + P.equal_init_blowup_residual())
    assert all(r == 0 for r in P.maclaurin_integral_residuals() + P.comparison_solution_residual() + P.k2_sandwich_residuals())
    assert all(r == 0 for r in P.square_rate_residual(4)) and P.product_rate_residual(5) == 0
    final, intermediate = P.blowup_expression_residuals(3)
    assert final == 0 and intermediate != 0  # the printed intermediate blow-up time is a different expression
    assert P.counting_limits(3)[0] == Fraction(2, 9)
